// `numbers(n)` and `numbers(start, count)`, the one table function HogQL allows (as PostHog does):
// the engine's generated integers in a column `number`. It reads no stored rows, so it needs no
// team guard. A bound written with constants and + - * is worked out here, checked and printed as
// a parameter; any other bound is an expression over no table (`numbers(dateDiff('day', a, b))`),
// which the engine folds to a constant before it generates a row, and the printer has the engine
// make the same checks (a whole number, not negative, the count capped). The time limit applies too.
import { field } from '../../ast/build.js';
import type { Expr, NumbersRef } from '../../ast/nodes.js';
import { MAX_NUMBERS_ROWS } from '../../printer/print.js';
import { walkObjects } from '../../tree/walk.js';
import { HogQLQueryError } from '../errors.js';
import type { HogQLNode } from './hogql-ast.js';
import { child } from './hogql-ast.js';
import type { ScopedTable } from './tables.js';
import { typed } from './types.js';

export { MAX_NUMBERS_ROWS };

/** Translates a bound's expression in a scope without tables (so it cannot read a column). */
export type TranslateBound = (node: HogQLNode) => Expr;

const FOLD: Record<string, (a: number, b: number) => number> = { '+': (a, b) => a + b, '-': (a, b) => a - b, '*': (a, b) => a * b };

/** A whole number written in the query: a constant, or + - * of such (`numbers(2 + 2)`); undefined otherwise. */
function wholeNumber(node: HogQLNode | undefined): number | undefined {
  if (node?.node === 'Constant') return typeof node['value'] === 'number' && Number.isSafeInteger(node['value']) ? node['value'] : undefined;
  const fold = node?.node === 'ArithmeticOperation' ? FOLD[String(node['op'])] : undefined;
  if (!fold) return undefined;
  const [left, right] = [wholeNumber(child(node!, 'left')), wholeNumber(child(node!, 'right'))];
  if (left === undefined || right === undefined) return undefined;
  const value = fold(left, right);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** A bound the engine folds: no subquery, so it reads no stored rows either. */
function engineBound(node: HogQLNode, translate: TranslateBound): Expr {
  const expr = translate(node);
  const readsRows = !walkObjects(expr, (n) => (n['kind'] === 'select' || n['kind'] === 'union' || n['kind'] === 'table' ? 'stop' : 'descend'));
  if (readsRows) throw new HogQLQueryError("Table function 'numbers' takes no subqueries: its bounds must be constant expressions");
  return expr;
}

/** The numbers() table under `alias`, from the parser's table_args (null when written without parentheses). */
export function numbersTable(args: readonly HogQLNode[] | null, alias: string, translate: TranslateBound): ScopedTable {
  if (args === null) throw new HogQLQueryError("Table function 'numbers' requires arguments");
  if (args.length < 1) throw new HogQLQueryError("Table function 'numbers' requires at least 1 argument");
  if (args.length > 2) throw new HogQLQueryError("Table function 'numbers' requires at most 2 arguments");
  const bounds = args.map((arg) => wholeNumber(arg) ?? engineBound(arg, translate));
  if (bounds.some((v) => typeof v === 'number' && v < 0)) throw new HogQLQueryError("Table function 'numbers' takes no negative numbers");
  const [start, count] = bounds.length === 2 ? [bounds[0]!, bounds[1]!] : [0, bounds[0]!];
  if (typeof count === 'number' && count > MAX_NUMBERS_ROWS) throw new HogQLQueryError(`Table function 'numbers' generates at most ${MAX_NUMBERS_ROWS} rows`);
  if (typeof start === 'number' && typeof count === 'number' && !Number.isSafeInteger(start + count)) throw new HogQLQueryError("Table function 'numbers' ends past 2^53");
  const from: NumbersRef = Object.freeze({ kind: 'numbers', start, count, alias });
  return {
    alias,
    from,
    asterisk: () => ['number'],
    resolve: ([head, ...rest]) => {
      if (head !== 'number') return undefined;
      if (rest.length > 0) throw new HogQLQueryError(`Unable to resolve field: number.${rest.join('.')}`);
      return typed(field('number', alias), 'integer', false);
    },
    joins: () => [],
  };
}
