// One row per actor, the person or with aggregation_group_type_index the group (per breakdown
// value with all_events attribution): which step they reached and their conversion times, from a
// single scan of the funnel's events.
//
//   events:   actor, ts µs, step mask, exclusion mask, breakdown value   (event IN steps, range, filters)
//   persons:  GROUP BY actor -> sorted (ts, mask, exclusions) -> dropped runs -> fold -> reached, times
import { DateTime } from 'luxon';
import { alias, and, binary, call, constant, field, lambda, not, or, select, subquery, tuple } from '../../ast/build.js';
import type { Expr, Select } from '../../ast/nodes.js';
import type { QueryContext } from '../../context.js';
import { eventSourceFor } from '../../hogql/expressions.js';
import { breakdownText } from '../../filters/breakdown-value.js';
import { breakdownCohorts, cohortBreakdownValue } from '../../cohorts/breakdown.js';
import { propertyGroupExpr } from '../../filters/properties.js';
import type { FunnelsQuery } from '../../nodes/schema.js';
import { instant } from '../../buckets/bucket-start.js';
import { oneStepFold, oneStepReached, oneStepTimes } from './fold-one-step.js';
import { orderedFold } from './fold-ordered.js';
import { unorderedFold, unorderedReached, unorderedTimes } from './fold-unordered.js';
import { packedEvents, TUPLE_ACCESS, type EventAccess, type PackedEvents } from './pack.js';
import { exclusionMask, funnelSpec, stepMask, type FunnelSpec } from './spec.js';
import { flagTies, hasExclusions } from './ties.js';
import { el, num } from './sql.js';

export interface PersonQueryInput {
  readonly query: FunnelsQuery;
  readonly context: QueryContext;
  /** UTC "yyyy-MM-dd HH:mm:ss.SSS[SSS]" bounds, inclusive: every step must lie inside. */
  readonly fromUtc: string;
  readonly toUtc: string;
  /** Funnel trends: the entrance period of an event's timestamp (one row per person and period). */
  readonly period?: (timestamp: Expr) => Expr;
  /** Also collect the distinct ids each person used (actors). */
  readonly distinctIds?: boolean;
  /** Also give `step_times`: the µs of each step of the counted attempt (correlation's windows). */
  readonly stepTimes?: boolean;
}

export interface PersonQuery {
  readonly select: Select;
  readonly spec: FunnelSpec;
}

/**
 * Columns: actor, breakdown_value (String, '' without breakdown), reached (0 = not counted, else
 * 1-based furthest step), times (Array(Float64) of seconds; times[k] = step k-1 -> k, times[1] = 0),
 * and with `period`: period (the entrance period this row counts for).
 */
export function personQuery(input: PersonQueryInput): PersonQuery {
  const { query, context } = input;
  const { timezone } = context.project;
  const source = eventSourceFor(context);
  const spec = funnelSpec(query, context, source);
  const filter = query.funnelsFilter;
  const strict = filter.funnelOrderType === 'strict';
  const breakdown = query.breakdownFilter;
  const cohorts = breakdownCohorts(breakdown);
  const breakdownValue = cohorts ? cohortBreakdownValue(cohorts, source) : breakdown ? breakdownText(breakdown, source, '') : constant('');
  // The actor: the merged person, or with aggregation_group_type_index the event's group of that
  // type (events outside any group of it are left out, as PostHog drops an empty target).
  const groupIndex = query.aggregation_group_type_index;
  const actor = groupIndex === undefined ? source.personId() : source.groupKey(groupIndex);
  const where = and(
    groupIndex === undefined ? undefined : binary('!=', actor, constant('')),
    strict || spec.eventNames === null ? undefined : binary('IN', source.event, constant([...spec.eventNames], 'Array(String)')),
    binary('>=', source.timestamp, instant(input.fromUtc)),
    binary('<=', source.timestamp, instant(input.toUtc)),
    propertyGroupExpr(query.properties, source, timezone),
    query.filterTestAccounts ? propertyGroupExpr(context.testAccountFilters, source, timezone) : undefined,
  );
  const columns: Expr[] = [
    alias(actor, 'fn_actor'),
    alias(call('toUnixTimestamp64Micro', source.timestamp), 'fn_ts'),
    alias(stepMask(spec.stepConditions), 'fn_mask'),
    alias(exclusionMask(spec), 'fn_excl'),
    alias(breakdownValue, 'fn_bv'),
  ];
  if (input.distinctIds) columns.push(alias(source.distinctId, 'fn_distinct_id'));
  // Joins are collected while the expressions above are built.
  const events = select({ select: columns, from: source.from(), joins: source.joins(), where });

  const attribution = filter.breakdownAttributionType;
  // A person in two breakdown cohorts goes through both funnels (PostHog runs one per cohort).
  const perValue = breakdown !== null && (attribution === 'all_events' || cohorts !== null);
  const ts = field('fn_ts');
  const bv = field('fn_bv');
  const personValue = !breakdown
    ? constant('')
    : perValue
    ? bv
    : attribution === 'last_touch'
      ? call('argMaxIf', bv, ts, binary('!=', bv, constant('')))
      : call('argMinIf', bv, ts, binary('!=', bv, constant('')));

  const packed = packedEvents(ts, field('fn_mask'), field('fn_excl'), {
    stepCount: spec.stepCount,
    withExclusions: spec.exclusions.length > 0,
    fromMicros: utcMicros(input.fromUtc),
    toMicros: utcMicros(input.toUtc),
  });
  const sorted = packed.sorted;
  const evs = field('fn_events');

  const extraGroup: Expr[] = perValue ? [bv] : [];
  // Funnel trends read every event's period, so the events are unpacked once, here.
  if (input.period) return { select: perPeriod(select({
    select: [alias(field('fn_actor'), 'actor'), alias(personValue, 'breakdown_value'), alias(packed.unpackAll(sorted), 'fn_events')],
    from: subquery(events, 'funnel_events'),
    groupBy: [field('actor'), ...extraGroup],
  }), spec, filter.funnelOrderType, input.period), spec };
  const perPerson = select({
    select: [
      alias(field('fn_actor'), 'actor'),
      alias(personValue, 'breakdown_value'),
      alias(sorted, 'fn_events'),
      ...foldColumns(prepareElements(evs, spec, filter.funnelOrderType, packed), spec, filter.funnelOrderType, input.stepTimes ? 'with step times' : 'conversion times only'),
      ...(input.distinctIds ? [alias(call('groupUniqArray', field('fn_distinct_id')), 'distinct_ids')] : []),
    ],
    from: subquery(events, 'funnel_events'),
    groupBy: [field('actor'), ...extraGroup],
  });
  return { select: perPerson, spec };
}

/**
 * Funnel trends: one row per person and entrance period (the period of a step-1 event), walking
 * the person's events with step 1 limited to the events of that period.
 */
function perPeriod(persons: Select, spec: FunnelSpec, order: OrderType, periodOf: (timestamp: Expr) => Expr): Select {
  const e = field('e');
  const period = field('period');
  const eventPeriod = periodOf(call('fromUnixTimestamp64Micro', el(e, 1), constant('UTC')));
  const entrances = call('arrayDistinct', call('arrayMap', lambda(['e'], eventPeriod), call('arrayFilter', lambda(['e'], call('bitTest', el(e, 2), num(0))), field('fn_events'))));
  const limited = call('arrayMap', lambda(['e'], tuple(
    el(e, 1),
    call('if', and(call('bitTest', el(e, 2), num(0)), binary('!=', eventPeriod, period)), call('bitXor', el(e, 2), call('toUInt64', num(1))), el(e, 2)),
    el(e, 3),
  )), field('fn_events'));
  return select({
    select: [field('actor'), field('breakdown_value'), period, ...foldColumns(prepareElements(limited, spec, order, null), spec, order)],
    from: subquery(persons, 'funnel_persons'),
    arrayJoin: alias(entrances, 'period'),
  });
}

/** "yyyy-MM-dd HH:mm:ss.SSS[SSS]" in UTC -> µs since the epoch (sub-millisecond digits dropped). */
function utcMicros(text: string): number {
  return DateTime.fromSQL(text.slice(0, 23), { zone: 'UTC' }).toMillis() * 1000;
}

type OrderType = FunnelsQuery['funnelsFilter']['funnelOrderType'];

/**
 * The elements the fold walks, as (ts, mask, excl) tuples: sorted events with useless repeats
 * dropped (ordered and strict). Packed events are filtered before they are unpacked, so only the
 * survivors become tuples.
 */
export function prepareElements(sortedEvents: Expr, spec: FunnelSpec, order: OrderType, packed: PackedEvents | null): Expr {
  const tuples = (events: Expr) => (packed ? packed.unpackAll(events) : events);
  const access = packed?.access ?? TUPLE_ACCESS;
  if (order === 'unordered') return tuples(dropMiddleRepeats(sortedEvents, access));
  const withExclusions = spec.exclusions.length > 0;
  // Shared timestamps change the walk only through exclusions and strict clearing: ordered
  // steps alone already come in the UDF's ascending order.
  const events = withExclusions || order === 'strict' ? flagTies(sortedEvents, access) : sortedEvents;
  const kept = tuples(dropRepeats(events, access, withExclusions));
  return withExclusions ? splitExclusions(kept) : kept;
}

/**
 * fn_state (the fold), reached (Int64, 0 = not counted) and times (seconds between steps); with
 * step times also step_times (µs of each step reached by the counted attempt).
 */
export function foldColumns(elements: Expr, spec: FunnelSpec, order: OrderType, columns: 'conversion times only' | 'with step times' = 'conversion times only'): Expr[] {
  const n = spec.stepCount;
  const unordered = order === 'unordered';
  const oneStep = order === 'ordered' && spec.oneStepPerEvent && spec.exclusions.length === 0;
  const state = unordered
    ? unorderedFold(elements, n, spec.windowMicros)
    : oneStep
      ? oneStepFold(elements, n, spec.windowMicros)
      : orderedFold(elements, n, spec.windowMicros, { order: order === 'strict' ? 'strict' : 'ordered', exclusions: spec.exclusions.length > 0 ? 'with exclusions' : 'none' });
  const stateField = field('fn_state');
  const reached = unordered
    ? unorderedReached(stateField)
    : oneStep ? oneStepReached(stateField) : call('if', binary('=', el(stateField, 5), num(1)), num(0), el(stateField, 4));
  const times = unordered ? unorderedTimes(stateField) : oneStep ? oneStepTimes(stateField) : el(stateField, 6);
  return [
    alias(state, 'fn_state'),
    alias(call('toInt64', reached), 'reached'),
    alias(call('arrayMap', lambda(['d'], binary('/', call('toFloat64', field('d')), constant(1e6, 'Float64'))), call('arrayDifference', times)), 'times'),
    ...(columns === 'with step times' ? [alias(times, 'step_times')] : []),
  ];
}

/**
 * Drops events that cannot change the walk: in a run of identical events that only match step 1
 * all but the last (each restarts step 1; only the newest start can progress) and, with
 * exclusions, the first (the furthest attempt stays the earliest start of a run, and an exclusion
 * marks it only within its own window); and in a run of identical events that match one later
 * step, or only exclusions, or nothing (strict), all but the first (the rest find the attempt
 * already moved, excluded or cleared). This is what keeps a `$pageview`-first funnel fast: most
 * of a person's page views collapse into one or two elements. An event flagged as part of a
 * mixed instant (ties.ts) walks without strict clearing: its non-zero exclusion mask keeps it
 * out of both runs, and makes it differ from its unflagged neighbours.
 */
export function dropRepeats(events: Expr, access: EventAccess, withExclusions: boolean): Expr {
  // Neighbours come in as shifted copies of the array: a lambda that captured the array itself
  // would copy it once per element (quadratic for a busy person).
  // An instant of exclusions and other events alone can leave a person with no events (ties.ts):
  // the neighbours keep the array's length then.
  const { sentinel } = access;
  const sameLength = (values: Expr) => call('arrayResize', values, call('length', events));
  const nextOf = sameLength(call('arrayPushBack', call('arrayPopFront', events), sentinel));
  const prevOf = sameLength(call('arrayPushFront', call('arrayPopBack', events), sentinel));
  const x = field('x');
  const next = field('fn_next');
  const prev = field('fn_prev');
  const mask = access.mask(x);
  const excl = access.excl(x);
  const onlyFirstStep = (e: Expr) => and(binary('=', access.mask(e), num(1)), binary('=', access.excl(e), num(0)));
  const restartRun = and(onlyFirstStep(x), onlyFirstStep(next), withExclusions ? and(access.isReal(prev), onlyFirstStep(prev)) : undefined);
  const idempotent = or(
    and(binary('=', excl, num(0)), binary('=', call('bitCount', mask), num(1)), binary('!=', mask, num(1))),
    binary('=', mask, num(0)),
  );
  const repeatRun = and(idempotent, access.isReal(prev), binary('=', access.mask(prev), mask), binary('=', access.excl(prev), excl));
  return call('arrayFilter', lambda(['x', 'fn_next', 'fn_prev'], not(or(restartRun, repeatRun))), events, nextOf, prevOf);
}

/**
 * PostHog's own pre-filter of a person's events (base.py `_udf_event_array_filter`): an event of at
 * most one step or exclusion whose neighbours are the same event at other times is left out. The
 * ordered walks do not need it (dropRepeats drops more, without changing their answer), but the
 * unordered walk's answer depends on it: the left-out event is never the front of its step's
 * queue (conversion times), and an exclusion wipes a window that no earlier expiry had recorded.
 */
export function dropMiddleRepeats(events: Expr, access: EventAccess): Expr {
  const { sentinel } = access;
  const nextOf = call('arrayPushBack', call('arrayPopFront', events), sentinel);
  const prevOf = call('arrayPushFront', call('arrayPopBack', events), sentinel);
  const x = field('x');
  const next = field('fn_next');
  const prev = field('fn_prev');
  const single = binary('<=', binary('+', call('bitCount', access.mask(x)), call('bitCount', access.excl(x))), num(1));
  // Same steps and exclusions, another instant (an element differs from its equal-masked neighbour only in time).
  const repeats = (other: Expr) => and(access.isReal(other), binary('=', access.mask(other), access.mask(x)), binary('=', access.excl(other), access.excl(x)), binary('!=', other, x));
  return call('arrayFilter', lambda(['x', 'fn_next', 'fn_prev'], not(and(single, repeats(prev), repeats(next)))), events, nextOf, prevOf);
}

/**
 * An event that is a step and an exclusion becomes two elements, in the UDF's order: its
 * exclusions (keeping the step mask, so a strict walk knows the event's steps are still to come
 * and clears nothing yet), then its steps.
 */
export function splitExclusions(events: Expr): Expr {
  const x = field('x');
  const both = and(binary('!=', el(x, 2), num(0)), hasExclusions(el(x, 3)));
  return call('arrayFlatten', call('arrayMap', lambda(['x'], call('if', both,
    call('array', x, tuple(el(x, 1), el(x, 2), call('toUInt64', num(0)))),
    call('array', x))), events));
}
