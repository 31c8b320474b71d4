// The ordered walk (fold-ordered.ts) for the common funnel: every step is its own named event, so
// an event fills at most one step, and nothing is excluded. Same answers as orderedFold (a
// differential test checks), at a fraction of the cost: an event touches only its own step's
// entry, rebuilt with slices instead of a per-step arrayMap, and the state carries no exclusion
// flags.
//
// State: (1 entry start per step, 2 entry step times per step, 3 furthest step, 4 its step times).
import { and, binary, call, not, or, tuple } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import { ACC, at, el, ELEMENT_MASK, ELEMENT_TS, emptyInt64s, fold, int64, minus, num } from './sql.js';

const acc = ACC;
const ts = ELEMENT_TS;
const mask = ELEMENT_MASK;
const starts = el(acc, 1);
const times = el(acc, 2);
const maxStep = el(acc, 3);
const maxTimes = el(acc, 4);

function initialState(n: number): Expr {
  return tuple(call('arrayWithConstant', num(n), int64(0)), call('arrayWithConstant', num(n), emptyInt64s()), int64(0), emptyInt64s());
}

/** The fold over sorted (ts, mask, excl) elements with repeats dropped. */
export function oneStepFold(elements: Expr, n: number, windowMicros: number): Expr {
  // The event's step k: its mask has exactly one bit, 2^(k-1). Mask 0: a step's property filter failed.
  const k = binary('+', call('bitCount', binary('-', mask, num(1))), num(1));
  const below = binary('-', k, num(1));
  // Step 1 starts a virtual entry at the event itself.
  const entryBelow = call('if', binary('=', k, num(1)), ts, at(starts, below));
  const moves = and(
    binary('!=', entryBelow, num(0)),
    binary('<=', minus(ts, entryBelow), num(windowMicros)),
    binary('!=', at(starts, k), entryBelow),
  );
  const chain = call('arrayPushBack', call('if', binary('=', k, num(1)), emptyInt64s(), at(times, below)), ts);
  const replaceAtK = (values: Expr, value: Expr) => call('arrayConcat',
    call('arraySlice', values, num(1), below),
    call('array', value),
    call('arraySlice', values, binary('+', k, num(1))));
  const furthest = binary('>', k, maxStep);
  const moved = tuple(
    replaceAtK(starts, entryBelow),
    replaceAtK(times, chain),
    call('if', furthest, int64(k), maxStep),
    call('if', furthest, chain, maxTimes),
  );
  const body = call('if', or(binary('=', mask, num(0)), not(moves)), acc, moved);
  return fold(body, elements, initialState(n));
}

export const oneStepReached = (state: Expr): Expr => el(state, 3);
export const oneStepTimes = (state: Expr): Expr => el(state, 4);
