// `numbers(n)` and `numbers(start, count)`, the one table function HogQL allows (as PostHog does):
// the engine's generated integers in a column `number`. It reads no stored rows, so it needs no
// team guard; its bounds are whole numbers worked out here from the query's constants and printed
// as parameters, and the count is capped (the time limit applies as well).
import { field } from '../../ast/build.js';
import type { NumbersRef } from '../../ast/nodes.js';
import { HogQLQueryError } from '../errors.js';
import type { HogQLNode } from './hogql-ast.js';
import { child } from './hogql-ast.js';
import type { ScopedTable } from './tables.js';
import { typed } from './types.js';

/** Rows one numbers() may generate: about a second of work for the engine. */
export const MAX_NUMBERS_ROWS = 1_000_000_000;

const FOLD: Record<string, (a: number, b: number) => number> = { '+': (a, b) => a + b, '-': (a, b) => a - b, '*': (a, b) => a * b };

/** A whole number written in the query: a constant, or + - * of such (`numbers(2 + 2)`). */
function wholeNumber(node: HogQLNode | undefined): number {
  if (node?.node === 'Constant' && typeof node['value'] === 'number' && Number.isSafeInteger(node['value'])) return node['value'];
  const fold = node?.node === 'ArithmeticOperation' ? FOLD[String(node['op'])] : undefined;
  if (fold) {
    const value = fold(wholeNumber(child(node!, 'left')), wholeNumber(child(node!, 'right')));
    if (Number.isSafeInteger(value)) return value;
  }
  throw new HogQLQueryError("Table function 'numbers' takes whole numbers written in the query (constants, and + - * of them)");
}

/** The numbers() table under `alias`, from the parser's table_args (null when written without parentheses). */
export function numbersTable(args: readonly HogQLNode[] | null, alias: string): ScopedTable {
  if (args === null) throw new HogQLQueryError("Table function 'numbers' requires arguments");
  if (args.length < 1) throw new HogQLQueryError("Table function 'numbers' requires at least 1 argument");
  if (args.length > 2) throw new HogQLQueryError("Table function 'numbers' requires at most 2 arguments");
  const values = args.map(wholeNumber);
  if (values.some((v) => v < 0)) throw new HogQLQueryError("Table function 'numbers' takes no negative numbers");
  const [start, count] = values.length === 2 ? [values[0]!, values[1]!] : [0, values[0]!];
  if (count > MAX_NUMBERS_ROWS) throw new HogQLQueryError(`Table function 'numbers' generates at most ${MAX_NUMBERS_ROWS} rows`);
  if (!Number.isSafeInteger(start + count)) throw new HogQLQueryError("Table function 'numbers' ends past 2^53");
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
