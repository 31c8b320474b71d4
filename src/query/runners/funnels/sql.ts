// Small AST shorthands for the funnel folds: tuple and array access, typed zeros, bit tests.
// Numbers are bound parameters like every other value; ClickHouse substitutes them as literals,
// so tupleElement(x, {p:Int64}) is still a constant index.
import { array, binary, call, constant, field, lambda } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';

export const num = (n: number): Expr => constant(n, Number.isSafeInteger(n) ? 'Int64' : 'Float64');
export const el = (tuple: Expr, index: number): Expr => call('tupleElement', tuple, num(index));
export const at = (array: Expr, index: Expr): Expr => call('arrayElement', array, index);
export const int64 = (value: Expr | number): Expr => call('toInt64', typeof value === 'number' ? num(value) : value);
export const uint8 = (value: Expr | number): Expr => call('toUInt8', typeof value === 'number' ? num(value) : value);
export const emptyInt64s = (): Expr => call('emptyArrayInt64');
/** bitTest(mask, step - 1): whether a 1-based step's bit is set. */
export const hasStep = (mask: Expr, step: Expr): Expr => call('bitTest', mask, binary('-', step, num(1)));
/** 1..n as an array, for per-step arrayMap. */
export const steps1 = (n: number): Expr => call('range', num(1), num(n + 1));
export const plus = (a: Expr, b: Expr): Expr => binary('+', a, b);
export const minus = (a: Expr, b: Expr): Expr => binary('-', a, b);

/**
 * `let names = values in body`: ClickHouse has no let inside a lambda, so the values are bound as
 * the parameters of a lambda mapped over one-element arrays. Keeps big sub-expressions from being
 * repeated (printed query size and analysis time stay linear).
 */
export function letIn(bindings: readonly [string, Expr][], body: Expr): Expr {
  return at(call('arrayMap', lambda(bindings.map(([name]) => name), body), ...bindings.map(([, value]) => array(value))), num(1));
}

/**
 * The walks' lambda arguments: `acc` the state, `x` the element (ts µs, step mask, exclusion mask).
 * `fold(body)` is the lambda arrayFold takes.
 */
export const ACC = field('acc');
export const ELEMENT = field('x');
export const ELEMENT_TS = el(ELEMENT, 1);
export const ELEMENT_MASK = el(ELEMENT, 2);
export const ELEMENT_EXCL = el(ELEMENT, 3);
export const fold = (body: Expr, elements: Expr, initial: Expr): Expr => call('arrayFold', lambda(['acc', 'x'], body), elements, initial);
