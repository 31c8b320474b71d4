// Comparisons as PostHog's HogQL prints them for ClickHouse: operators become functions, and a side
// that can be NULL gets PostHog's null-safe wrapper (NULL = NULL is true, NULL = 'x' is false,
// NULL < 1 is false), so answers match PostHog's row for row.
import { call, constant, not } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import { HogQLQueryError } from '../errors.js';
import { propertyEqualsText } from './property-equality.js';
import { typed, typeOf } from './types.js';

const FALSE = () => constant(0, 'UInt8');
const TRUE = () => constant(1, 'UInt8');
const isNullConstant = (e: Expr) => e.kind === 'constant' && e.value === null;
const bool = (e: Expr) => typed(e, 'boolean', false);

/** `a == b` family: equals, like, ilike, match. NULL matches NULL only. */
function equalsLike(fn: string, left: Expr, right: Expr): Expr {
  if (isNullConstant(right)) return bool(call('isNull', left));
  if (isNullConstant(left)) return bool(call('isNull', right));
  const property = fn === 'equals' ? propertyEqualsText(left, right) : undefined;
  if (property) return bool(call('ifNull', property, FALSE()));
  const test = call(fn, left, right);
  const [l, r] = [typeOf(left), typeOf(right)];
  if (!l.nullable && !r.nullable) return bool(test);
  if (left.kind === 'constant' || right.kind === 'constant') return bool(call('ifNull', test, FALSE()));
  return bool(call('ifNull', test, call('and', call('isNull', left), call('isNull', right))));
}

/** `a != b` family: a NULL side differs from any value, and NULL equals NULL. */
function notEqualsLike(test: Expr, left: Expr, right: Expr): Expr {
  if (isNullConstant(right)) return bool(call('isNotNull', left));
  if (isNullConstant(left)) return bool(call('isNotNull', right));
  const property = test.kind === 'call' && test.name === 'notEquals' ? propertyEqualsText(left, right) : undefined;
  if (property) return bool(call('ifNull', not(property), TRUE()));
  const [l, r] = [typeOf(left), typeOf(right)];
  if (!l.nullable && !r.nullable) return bool(test);
  if (left.kind === 'constant' || right.kind === 'constant') return bool(call('ifNull', test, TRUE()));
  return bool(call('ifNull', test, call('or', call('isNotNull', left), call('isNotNull', right))));
}

/** Ordering: anything compared with NULL is false. */
function ordering(fn: string, left: Expr, right: Expr): Expr {
  if (isNullConstant(left) || isNullConstant(right)) return bool(FALSE());
  const test = call(fn, left, right);
  return bool(typeOf(left).nullable || typeOf(right).nullable ? call('ifNull', test, FALSE()) : test);
}

const caseInsensitive = (pattern: Expr) => call('concat', constant('(?i)'), pattern);

export function compare(op: string, left: Expr, right: Expr): Expr {
  switch (op) {
    case '==':
      return equalsLike('equals', left, right);
    case '!=':
      return notEqualsLike(call('notEquals', left, right), left, right);
    case '<':
      return ordering('less', left, right);
    case '<=':
      return ordering('lessOrEquals', left, right);
    case '>':
      return ordering('greater', left, right);
    case '>=':
      return ordering('greaterOrEquals', left, right);
    case 'like':
      return equalsLike('like', left, right);
    case 'ilike':
      return equalsLike('ilike', left, right);
    case 'not like':
      return notEqualsLike(call('notLike', left, right), left, right);
    case 'not ilike':
      return notEqualsLike(call('notILike', left, right), left, right);
    case '=~':
      return equalsLike('match', left, right);
    case '=~*':
      return equalsLike('match', left, caseInsensitive(right));
    case '!~':
      return notEqualsLike(not(call('match', left, right)), left, right);
    case '!~*':
      return notEqualsLike(not(call('match', left, caseInsensitive(right))), left, right);
    case 'in':
      return bool(call('in', left, right));
    case 'not in':
      return bool(call('notIn', left, right));
    default:
      throw new HogQLQueryError(`Unsupported comparison operator: ${op}`);
  }
}

const PLAIN: Record<string, (left: Expr, right: Expr) => Expr> = {
  '==': (l, r) => call('equals', l, r),
  '!=': (l, r) => call('notEquals', l, r),
  '<': (l, r) => call('less', l, r),
  '<=': (l, r) => call('lessOrEquals', l, r),
  '>': (l, r) => call('greater', l, r),
  '>=': (l, r) => call('greaterOrEquals', l, r),
  like: (l, r) => call('like', l, r),
  ilike: (l, r) => call('ilike', l, r),
  'not like': (l, r) => call('notLike', l, r),
  'not ilike': (l, r) => call('notILike', l, r),
  '=~': (l, r) => call('match', l, r),
  '=~*': (l, r) => call('match', l, caseInsensitive(r)),
  '!~': (l, r) => not(call('match', l, r)),
  '!~*': (l, r) => not(call('match', l, caseInsensitive(r))),
};

/**
 * A comparison inside a JOIN's ON clause: PostHog prints it plainly there, without the null-safe
 * wrapper, so a NULL key joins nothing and the engine sees the join keys (`ifNull(equals(a, b), ...)`
 * is no join key). Comparisons of two constants and IN keep their usual form, as in PostHog.
 */
export function compareInJoin(op: string, left: Expr, right: Expr): Expr {
  const plain = PLAIN[op];
  if (!plain || (left.kind === 'constant' && right.kind === 'constant')) return compare(op, left, right);
  return typed(plain(left, right), 'boolean', true);
}
