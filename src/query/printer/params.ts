// Collects the values of a query as numbered parameters: the SQL text only ever holds `{pN:Type}`.
// Equal values of one type share a parameter, so repeated subexpressions print identically and
// the engine computes them once (a HogQL property read repeats its JSON extraction several times).
import type { ConstantValue, ParamType } from '../ast/nodes.js';

export class ParamBag {
  private readonly values: Record<string, unknown> = {};
  private readonly placeholders = new Map<string, string>();
  private count = 0;

  /** Registers a value and returns the placeholder that stands for it. */
  add(value: ConstantValue, type: ParamType = inferType(value)): string {
    const key = `${type}\u0000${JSON.stringify(value)}`;
    const known = this.placeholders.get(key);
    if (known) return known;
    const name = `p${this.count++}`;
    this.values[name] = value;
    const placeholder = `{${name}:${type}}`;
    this.placeholders.set(key, placeholder);
    return placeholder;
  }

  get params(): Record<string, unknown> {
    return { ...this.values };
  }
}

export function inferType(value: ConstantValue): ParamType {
  if (value === null) return 'Nullable(String)';
  if (typeof value === 'string') return 'String';
  if (typeof value === 'boolean') return 'Bool';
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'Int64' : 'Float64';
  if (value.every((v) => Array.isArray(v))) {
    const items = value.flat();
    if (items.every((v) => typeof v === 'string')) return 'Array(Array(String))';
    if (items.every((v) => typeof v === 'number')) return items.every((v) => Number.isSafeInteger(v)) ? 'Array(Array(Int64))' : 'Array(Array(Float64))';
    throw new TypeError('a nested array parameter must hold only strings or only numbers');
  }
  if (value.every((v) => typeof v === 'string')) return 'Array(String)';
  if (value.every((v) => typeof v === 'string' || v === null)) return 'Array(Nullable(String))';
  if (value.every((v) => typeof v === 'number')) return value.every((v) => Number.isSafeInteger(v)) ? 'Array(Int64)' : 'Array(Float64)';
  throw new TypeError('an array parameter must hold only strings or only numbers');
}
