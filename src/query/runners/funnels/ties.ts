// Events of one person that share a timestamp, as PostHog's funnel UDF (steps.rs) walks them.
// When the events of one instant are not all the same (steps and exclusions), the UDF takes
// them one step at a time in ascending order, ignores their exclusions and skips strict order's
// clearing. Elements are sorted by (time, steps, exclusions), so single-step events already
// come in ascending step order; what is left is to strip the exclusions (an event left with no
// step is dropped) and to flag the survivors so the strict walk does not clear after them.
//
// The flag is bit 0 of the exclusion mask: it would guard step 1, which no exclusion does.
// Not modelled: an event matching several steps in such an instant. The UDF takes it once per
// step, never twice in one attempt (and in ClickHouse's grouping order, so not always the same
// answer); Hoglet walks its steps together, highest first, as for an event of its own instant.
import { and, binary, call, field, lambda, not } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import type { EventAccess } from './pack.js';
import { at, minus, num } from './sql.js';

/** Whether an element's exclusion mask carries the tie flag (never set on a real exclusion). */
export const isTied = (excl: Expr): Expr => binary('=', call('bitTest', excl, num(0)), num(1));
/** Whether an element's exclusion mask holds real exclusions (any bit above the tie flag). */
export const hasExclusions = (excl: Expr): Expr => binary('>', excl, num(1));

/** Sorted events (never empty) -> the same with the events of mixed instants flagged, their exclusions left out. */
export function flagTies(events: Expr, access: EventAccess): Expr {
  return call('arrayFilter', lambda(['x'], access.isReal(field('x'))), call('arrayMap', lambda(['x', 'fn_mixed'], call('if',
    field('fn_mixed'),
    // An event of no step (an exclusion, or any event in strict order) leaves nothing to walk.
    call('if', binary('=', access.mask(field('x')), num(0)), access.sentinel, access.tied(field('x'))),
    field('x'),
  )), events, mixedInstants(events, access)));
}

/**
 * Per element, whether its instant holds different events. Sorting puts equal events together, so
 * an instant is mixed when an element differs from the one before it in the same instant. That
 * count per instant is spread to the instant's elements without a lambda capturing an array
 * (which would copy the array once per element): cumulative counts read at each instant's start.
 */
function mixedInstants(events: Expr, access: EventAccess): Expr {
  const prevOf = call('arrayPushFront', call('arrayPopBack', events), access.sentinel);
  const x = field('x');
  const prev = field('fn_prev');
  const starts = call('arrayMap', lambda(['x', 'fn_prev'], not(access.sameInstant(x, prev))), events, prevOf);
  const differs = call('arrayMap', lambda(['x', 'fn_prev'], and(access.sameInstant(x, prev), binary('!=', x, prev))), events, prevOf);
  const s = field('fn_s');
  const onStarts = (values: Expr) => call('arrayFilter', lambda(['v', 'fn_s'], s), values, starts);
  // Changes seen before each instant starts; an instant's own count is the next start's minus its own.
  const changes = call('arrayCumSum', differs);
  const atStarts = onStarts(changes);
  const nextStart = (values: Expr, last: Expr) => call('arrayPushBack', call('arrayPopFront', values), last);
  const perInstant = call('arrayMap', lambda(['a', 'b'], minus(field('b'), field('a'))), atStarts, nextStart(atStarts, at(changes, num(-1))));
  const startIndex = onStarts(call('arrayEnumerate', events));
  const sizes = call('arrayMap', lambda(['a', 'b'], minus(field('b'), field('a'))), startIndex, nextStart(startIndex, binary('+', call('length', events), num(1))));
  return call('arrayFlatten', call('arrayMap', lambda(['c', 'n'], call('arrayWithConstant', field('n'), binary('>', field('c'), num(0)))), perInstant, sizes));
}
