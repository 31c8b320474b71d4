// toDecimal(x, scale): x as a Decimal64 of `scale` digits after the point, NULL when it does not
// fit, as PostHog prints it (accurateCastOrNull(x, 'Decimal64(scale)')). The scale is part of a
// type name, so it must be a whole-number constant the translator checks (ClickHouse's 0..18 for
// Decimal64); the type name is then text of ours (a keyword), never the request's.
import { call, keyword } from '../../ast/build.js';
import type { Call, DecimalScale, Expr } from '../../ast/nodes.js';
import { HogQLQueryError } from '../errors.js';
import type { HogQLFunction } from './types.js';

function decimalScale(arg: Expr | undefined): DecimalScale {
  const value = arg?.kind === 'constant' ? arg.value : undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 18) {
    throw new HogQLQueryError("toDecimal's scale must be a whole number from 0 to 18");
  }
  return value as DecimalScale;
}

function toDecimal(args: readonly Expr[]): Call {
  return call('accurateCastOrNull', args[0]!, keyword(`Decimal64(${decimalScale(args[1])})`));
}

export const DECIMAL_FUNCTIONS: ReadonlyMap<string, HogQLFunction> = new Map([
  ['toDecimal', Object.freeze({ clickhouse: 'accurateCastOrNull', minArgs: 2, maxArgs: 2, expand: toDecimal, shape: "accurateCastOrNull(x, 'Decimal64(scale)'), scale a whole number 0..18" })],
]);
