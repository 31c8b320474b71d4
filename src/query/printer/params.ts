// Collects the values of a query as numbered parameters: the SQL text only ever holds `{pN:Type}`.
import type { ConstantValue, ParamType } from '../ast/nodes.js';

export class ParamBag {
  private readonly values: Record<string, unknown> = {};
  private count = 0;

  /** Registers a value and returns the placeholder that stands for it. */
  add(value: ConstantValue, type: ParamType = inferType(value)): string {
    const name = `p${this.count++}`;
    this.values[name] = value;
    return `{${name}:${type}}`;
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
  if (value.every((v) => typeof v === 'string')) return 'Array(String)';
  return value.every((v) => Number.isSafeInteger(v)) ? 'Array(Int64)' : 'Array(Float64)';
}
