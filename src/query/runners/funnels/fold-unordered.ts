// PostHog's unordered per-person walk (funnel UDF unordered_steps.rs, reference §4.3) as one
// arrayFold. Per step a queue of event times (ascending); before an event, every queued time more
// than the window before it is dropped, and if any was, the best so far is first updated from the
// queues as they were. An exclusion-only event empties the queues. Otherwise the event joins the
// queue of its matching step whose newest entry is oldest (empty first, then lowest step). The
// walk stops once every step has a queued event.
//
// State: (1 queues, 2 furthest count, 3 furthest step times, 4 done).
import { and, binary, call, field, lambda, or, tuple } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import { ACC, at, el, ELEMENT_EXCL, ELEMENT_MASK, ELEMENT_TS, emptyInt64s, fold, hasStep, int64, letIn, minus, num, steps1, uint8 } from './sql.js';

const acc = ACC;
const ts = ELEMENT_TS;
const mask = ELEMENT_MASK;
const excl = ELEMENT_EXCL;

/** Count of non-empty queues. */
export const completedOf = (queues: Expr): Expr => int64(call('arrayCount', lambda(['q'], call('notEmpty', field('q'))), queues));
/** The oldest queued time of each non-empty queue, ascending. */
export const frontsOf = (queues: Expr): Expr =>
  call('arraySort', call('arrayMap', lambda(['q'], at(field('q'), num(1))), call('arrayFilter', lambda(['q'], call('notEmpty', field('q'))), queues)));

export function unorderedFold(elements: Expr, n: number, windowMicros: number): Expr {
  const queues = el(acc, 1);
  const best = el(acc, 2);
  const bestTimes = el(acc, 3);
  const done = el(acc, 4);
  const cutoff = minus(ts, num(windowMicros));
  const q = field('q');
  const anyOld = call('arrayExists', lambda(['q'], and(call('notEmpty', q), binary('<', at(q, num(1)), cutoff))), queues);
  const improves = and(anyOld, binary('>', completedOf(queues), best));
  const best1 = call('if', improves, completedOf(queues), best);
  const bestTimes1 = call('if', improves, frontsOf(queues), bestTimes);
  const trimmedValue = call('if', anyOld, call('arrayMap', lambda(['q'], call('arrayFilter', lambda(['t'], binary('>=', field('t'), cutoff)), q)), queues), queues);

  const trimmed = field('fn_trim');
  // The matching step whose newest queued time is oldest (an empty queue counts as 0).
  const newest = (s: Expr) => call('if', call('empty', at(trimmed, s)), int64(0), at(at(trimmed, s), num(-1)));
  const oldestNewest = call('arrayMin', call('arrayMap', lambda(['s'], call('if', hasStep(mask, field('s')), newest(field('s')), int64(Number.MAX_SAFE_INTEGER))), steps1(n)));
  const chosen = call('arrayFirstIndex', lambda(['s'], and(hasStep(mask, field('s')), binary('=', newest(field('s')), oldestNewest))), steps1(n));
  const pushed = call('arrayMap', lambda(['q', 's'], call('if', binary('=', field('s'), chosen), call('arrayPushBack', q, ts), q)), trimmed, steps1(n));
  const exclusionOnly = and(binary('=', mask, num(0)), binary('!=', excl, num(0)));
  const afterValue = call('if', exclusionOnly, call('arrayWithConstant', num(n), emptyInt64s()), call('if', binary('=', mask, num(0)), trimmed, pushed));
  const after = field('fn_after');
  const complete = binary('=', completedOf(after), num(n));
  const step = letIn([['fn_trim', trimmedValue]], letIn([['fn_after', afterValue]], tuple(
    after,
    call('if', complete, num(n), best1),
    call('if', complete, frontsOf(after), bestTimes1),
    call('if', complete, uint8(1), uint8(0)),
  )));
  const body = call('if', or(binary('=', done, num(1))), acc, step);
  const initial = tuple(call('arrayWithConstant', num(n), emptyInt64s()), int64(0), emptyInt64s(), uint8(0));
  return fold(body, elements, initial);
}

/** Furthest count after the walk, including the final look at the queues (the UDF's last event). */
export function unorderedReached(state: Expr): Expr {
  const queues = el(state, 1);
  return call('if', binary('=', el(state, 4), num(1)), el(state, 2), call('greatest', el(state, 2), completedOf(queues)));
}

export function unorderedTimes(state: Expr): Expr {
  const queues = el(state, 1);
  return call('if', and(binary('=', el(state, 4), num(0)), binary('>', completedOf(queues), el(state, 2))), frontsOf(queues), el(state, 3));
}
