// PostHog's ordered/strict per-person walk (funnel UDF steps.rs, reference §4.2) as one arrayFold
// over the person's events sorted by time. Each element is (ts µs, step mask, exclusion mask).
//
// State: (1 entry start per step, 2 entry excluded per step, 3 entry step times per step,
//         4 furthest step, 5 furthest excluded, 6 furthest step times, 7 furthest start).
// "Entry k" is the latest attempt that reached step k. An event's steps are evaluated together
// against the state before it, which is the UDF's highest-step-first order: a step reads only the
// entry below it. An event's exclusions come before its steps, as in the UDF (see
// splitExclusions): an exclusion element that still carries step bits is followed by the steps
// element, so strict order clears only after that one.
// Per-step work is arrayMap over arrays zipped with their shifted copies ("the entry below"), so
// no lambda captures an array and the cost per event is linear in the number of steps.
import { and, binary, call, field, lambda, or, tuple } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import { isTied, hasExclusions } from './ties.js';
import { ACC, at, el, ELEMENT_EXCL, ELEMENT_MASK, ELEMENT_TS, emptyInt64s, fold, hasStep, int64, letIn, minus, num, steps1, uint8 } from './sql.js';

const acc = ACC;
const ts = ELEMENT_TS;
const mask = ELEMENT_MASK;
const excl = ELEMENT_EXCL;
const starts = el(acc, 1);
const excluded = el(acc, 2);
const times = el(acc, 3);
const maxStep = el(acc, 4);
const maxExcluded = el(acc, 5);
const maxTimes = el(acc, 6);
const maxStart = el(acc, 7);

/** The array shifted one step up: element k is the old element k-1, element 1 is `first`. */
const below = (values: Expr, first: Expr) => call('arrayPushFront', call('arrayPopBack', values), first);
/** The array shifted one step down: element k is the old element k+1, the last is `last`. */
const above = (values: Expr, last: Expr) => call('arrayPushBack', call('arrayPopFront', values), last);

export function orderedInitialState(n: number): Expr {
  return tuple(
    call('arrayWithConstant', num(n), int64(0)),
    call('arrayWithConstant', num(n), uint8(0)),
    call('arrayWithConstant', num(n), emptyInt64s()),
    int64(0), uint8(0), emptyInt64s(), int64(0),
  );
}

/** Which walk: strict clears every attempt at an event of no step; exclusions add their masks. */
export interface OrderedWalk {
  readonly order: 'ordered' | 'strict';
  readonly exclusions: 'with exclusions' | 'none';
}

/** The fold over already sorted, de-duplicated elements. */
export function orderedFold(elements: Expr, n: number, windowMicros: number, walk: OrderedWalk): Expr {
  const strict = walk.order === 'strict';
  const withExclusions = walk.exclusions === 'with exclusions';
  const W = num(windowMicros);
  const f = (name: string) => field(name);
  // The entry below each step; below step 1 is a virtual entry started by this very event.
  const prevStarts = below(starts, ts);
  const prevExcluded = below(excluded, uint8(0));
  const prevTimes = below(times, emptyInt64s());
  const qualifies = call('arrayMap', lambda(['s', 'st', 'pst'], and(
    hasStep(mask, f('s')),
    binary('!=', f('pst'), num(0)),
    binary('<=', minus(ts, f('pst')), W),
    binary('!=', f('st'), f('pst')),
  )), steps1(n), starts, prevStarts);
  // Strict: entries of steps this event does not match are cleared after it, unless it shares
  // its instant with other events (ties.ts).
  const kept = (value: Expr, cleared: Expr) => (strict ? call('if', or(hasStep(mask, f('s')), isTied(excl)), value, cleared) : value);
  // Without exclusions nothing is ever marked: the excluded flags pass through untouched and the
  // walk skips their per-step work (a large share of the fold's cost).
  const pexName = withExclusions ? ['pex'] : [];
  const pexArray = withExclusions ? [prevExcluded] : [];
  const moves = withExclusions ? and(f('qq'), binary('=', f('pex'), num(0))) : f('qq');
  const h = f('fn_h');
  const newMax = and(binary('>', h, num(0)), or(binary('>', h, maxStep), and(binary('=', h, maxStep), binary('=', maxExcluded, num(1)))));
  const stepBranch = letIn([['fn_q', qualifies]], letIn(
    [['fn_h', int64(call('arrayMax', call('arrayMap', lambda(['s', 'qq'], call('if', f('qq'), int64(f('s')), int64(0))), steps1(n), f('fn_q'))))]],
    tuple(
      call('arrayMap', lambda(['s', 'st', 'pst', ...pexName, 'qq'], kept(call('if', moves, f('pst'), f('st')), int64(0))), steps1(n), starts, prevStarts, ...pexArray, f('fn_q')),
      withExclusions
        ? call('arrayMap', lambda(['s', 'ex', 'pex', 'qq'], kept(call('if', moves, uint8(0), f('ex')), uint8(0))), steps1(n), excluded, prevExcluded, f('fn_q'))
        : excluded,
      call('arrayMap', lambda(['s', 'tm', 'ptm', ...pexName, 'qq'], kept(call('if', moves, call('arrayPushBack', f('ptm'), ts), f('tm')), emptyInt64s())), steps1(n), times, prevTimes, ...pexArray, f('fn_q')),
      call('if', newMax, h, maxStep),
      withExclusions ? call('if', newMax, at(prevExcluded, h), maxExcluded) : maxExcluded,
      call('if', newMax, call('arrayPushBack', at(prevTimes, h), ts), maxTimes),
      call('if', newMax, at(prevStarts, h), maxStart),
    ),
  ));

  // An exclusion with step s marks entry p = s-1 when it is in window, not excluded yet, and has
  // not gone on to s; the furthest attempt is marked too when it waits at p within its window.
  const marks = call('arrayMap', lambda(['p', 'st', 'nx', 'ex'], and(
    hasStep(excl, binary('+', f('p'), num(1))),
    binary('!=', f('st'), num(0)),
    binary('<=', minus(ts, f('st')), W),
    binary('!=', f('nx'), f('st')),
    binary('=', f('ex'), num(0)),
  )), steps1(n), starts, above(starts, int64(0)), excluded);
  // Strict: an exclusion-only event clears every entry; one whose steps follow clears nothing yet.
  const clears = binary('=', mask, num(0));
  const markedExcluded = call('arrayMap', lambda(['ex', 'mk'], call('if', f('mk'), uint8(1), f('ex'))), excluded, f('fn_m'));
  const exclusionBranch = letIn([['fn_m', marks]], tuple(
    strict ? call('if', clears, call('arrayWithConstant', num(n), int64(0)), starts) : starts,
    strict ? call('if', clears, call('arrayWithConstant', num(n), uint8(0)), markedExcluded) : markedExcluded,
    strict ? call('if', clears, call('arrayWithConstant', num(n), emptyInt64s()), times) : times,
    maxStep,
    call('if', and(binary('>=', maxStep, num(1)), at(f('fn_m'), maxStep), binary('<=', minus(ts, maxStart), W)), uint8(1), maxExcluded),
    maxTimes,
    maxStart,
  ));
  // With strict order an event that matches no step clears every entry.
  const steps = call('if', binary('=', mask, num(0)), strict ? exclusionBranch : acc, stepBranch);
  const body = withExclusions ? call('if', hasExclusions(excl), exclusionBranch, steps) : steps;
  return fold(body, elements, orderedInitialState(n));
}
