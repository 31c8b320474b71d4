// A HogQL constant as the query constant ClickHouse would read for the same literal.
import { array, constant } from '../../ast/build.js';
import type { Expr, ParamType } from '../../ast/nodes.js';
import { HogQLQueryError } from '../errors.js';
import { typed } from './types.js';

/** The type ClickHouse gives an integer literal (the smallest that holds it), so `if(1, ...)` and `select 1` behave as in PostHog. */
function literalIntegerType(value: number): ParamType {
  if (value >= 0) return value < 2 ** 8 ? 'UInt8' : value < 2 ** 16 ? 'UInt16' : value < 2 ** 32 ? 'UInt32' : 'UInt64';
  return value >= -(2 ** 7) ? 'Int8' : value >= -(2 ** 15) ? 'Int16' : value >= -(2 ** 31) ? 'Int32' : 'Int64';
}

export function constantOf(value: unknown): Expr {
  // NULL as ClickHouse types the literal (Nullable(Nothing)): it mixes with any type (`1 + null`, `null ?? 'x'`).
  if (value === null || value === undefined) return constant(null, 'Nullable(Nothing)');
  if (typeof value === 'string') return constant(value);
  // PostHog prints true and false as 1 and 0 (UInt8), so `select true` answers 1 and `not true` 0.
  if (typeof value === 'boolean') return typed(constant(value ? 1 : 0, 'UInt8'), 'boolean', false);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new HogQLQueryError('A number in the query is out of range');
    // JSON carried the literal as a double: past 2^53 its digits are already lost, so say so rather than round.
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      throw new HogQLQueryError('Integers beyond ±2^53 (9007199254740991) lose precision; write a smaller number, or a string with toUInt64(\'…\') / toInt128(\'…\')');
    }
    return constant(value, Number.isSafeInteger(value) ? literalIntegerType(value) : 'Float64');
  }
  if (Array.isArray(value)) return array(...value.map(constantOf));
  throw new HogQLQueryError('Unsupported constant');
}
