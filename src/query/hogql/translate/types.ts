// What the translator knows about an expression besides its tree: its HogQL type (for time zones,
// JSON property access and `select *`) and whether it can be NULL (for PostHog's comparison rules).
import type { Expr } from '../../ast/nodes.js';

export type HogQLType = 'string' | 'json' | 'datetime' | 'integer' | 'float' | 'boolean' | 'uuid' | 'unknown';

export interface Typed {
  readonly type: HogQLType;
  readonly nullable: boolean;
}

const TYPES = new WeakMap<Expr, Typed>();

/** Records what an expression is; returns it for chaining. */
export function typed<E extends Expr>(expr: E, type: HogQLType, nullable: boolean): E {
  TYPES.set(expr, { type, nullable });
  return expr;
}

/** Unknown expressions may be NULL: PostHog's rules then add the null-safe wrappers. */
export function typeOf(expr: Expr): Typed {
  if (expr.kind === 'constant') return { type: constantType(expr.value), nullable: expr.value === null };
  return TYPES.get(expr) ?? { type: 'unknown', nullable: true };
}

function constantType(value: unknown): HogQLType {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'float';
  return 'unknown';
}
