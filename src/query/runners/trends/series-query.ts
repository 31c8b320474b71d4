// One trends series as one SELECT giving rows of (bucket, breakdown value, value). The math
// decides the shape: a plain aggregate, a per-actor count first, a rolling window of active
// actors, or each actor's first event.
import {
  alias, allOf, and, binary, call, constant, eq, field, lambda, parametricCall, select, subquery, tuple,
} from '../../ast/build.js';
import type { Expr, Select } from '../../ast/nodes.js';
import type { QueryContext } from '../../context.js';
import { actionExpr } from '../../filters/actions.js';
import { EventSource } from '../../filters/event-source.js';
import { eventSourceFor } from '../../hogql/expressions.js';
import { breakdownProperty, breakdownText } from '../../filters/breakdown-value.js';
import { propertyGroupExpr } from '../../filters/properties.js';
import type { BreakdownFilter, CountPerActorMath, Interval, PropertyGroup, SeriesNode } from '../../nodes/schema.js';
import { actorFilter, countedGroupType, seriesActor } from './actor.js';
import { NULL_BREAKDOWN } from '../../filters/breakdown-labels.js';
import { breakdownCohorts, cohortBreakdownValue } from '../../cohorts/breakdown.js';
import { bucketTimestamp, instant } from '../../buckets/bucket-start.js';
import { histogramBins, histogramBreakdownValue } from './histogram.js';

export interface SeriesWindow {
  /** UTC instants bounding the events read (inclusive). */
  readonly fromUtc: string;
  readonly toUtc: string;
  readonly interval: Interval;
  /** Unix seconds of the first and last bucket starts. */
  readonly firstBucket: number;
  readonly lastBucket: number;
}

export interface SeriesQueryInput {
  readonly series: SeriesNode;
  readonly properties: PropertyGroup;
  readonly testAccounts: PropertyGroup | null;
  readonly breakdown: BreakdownFilter | null;
  readonly window: SeriesWindow;
  /** One value for the whole range (BoldNumber, pie, table ...). */
  readonly totalValue: boolean;
  /** Each actor counted once, in their first bucket (cumulative unique actors). */
  readonly firstBucketOnly: boolean;
  readonly context: QueryContext;
}

const QUANTILES: Record<string, number> = { median: 0.5, p75: 0.75, p90: 0.9, p95: 0.95, p99: 0.99 };

/** The conditions that pick a series' events from one scan of the events table. */
function seriesConditions(input: SeriesQueryInput, source: EventSource) {
  const { series, context, window } = input;
  const { timezone } = context.project;
  const eventMatch = series.kind === 'ActionsNode'
    ? actionExpr(context.actions.get(series.id), source, timezone)
    : series.event === null ? undefined : eq(source.event, constant(series.event));
  const filters = allOf(
    propertyGroupExpr(input.properties, source, timezone),
    propertyGroupExpr(series.properties, source, timezone),
    input.testAccounts ? propertyGroupExpr(input.testAccounts, source, timezone) : undefined,
    actorFilter(series, source),
  );
  const inRange = (from: string) => and(binary('>=', source.timestamp, instant(from)), binary('<=', source.timestamp, instant(window.toUtc)));
  return { eventMatch, filters, inRange };
}

/** An event's breakdown value: the property as text (missing, null and "" in the null bucket), or its histogram bin. */
function breakdownValueOf(input: SeriesQueryInput, source: EventSource): Expr {
  const breakdown = input.breakdown;
  if (!breakdown) return constant('');
  const cohorts = breakdownCohorts(breakdown);
  if (cohorts) return cohortBreakdownValue(cohorts, source);
  const bins = breakdown.breakdown_histogram_bin_count;
  if (bins === undefined || bins === null) {
    return breakdownText(breakdown, source, NULL_BREAKDOWN);
  }
  // The bins come from the series' events in the range, read by a scan of their own.
  const statsSource = eventSourceFor(input.context);
  const stats = seriesConditions(input, statsSource);
  const statsNumber = call('toFloat64OrNull', breakdownProperty(breakdown, statsSource));
  const statsWhere = and(stats.eventMatch, stats.filters, stats.inRange(input.window.fromUtc));
  const binsQuery = histogramBins(
    (columns) => select({ select: columns, from: statsSource.from(), joins: statsSource.joins(), where: statsWhere }),
    statsNumber, bins,
  );
  return histogramBreakdownValue(call('toFloat64OrNull', breakdownProperty(breakdown, source)), binsQuery);
}

/** What every statement of a series starts from: its events, filters, bucket and breakdown value. */
export function seriesScan(input: SeriesQueryInput) {
  const { context, window } = input;
  const { timezone, weekStartDay } = context.project;
  const source = eventSourceFor(input.context);
  const bucketOf = (ts: Expr): Expr => (input.totalValue ? constant(0) : bucketTimestamp(ts, window.interval, timezone, weekStartDay));
  const breakdownValue = breakdownValueOf(input, source);
  const { eventMatch, filters, inRange } = seriesConditions(input, source);
  // Joins are collected while expressions are built, so every expression is made before eventsSelect runs.
  const eventsSelect = (columns: Expr[], where: Expr | undefined, groupBy: Expr[]): Select => select({
    select: columns,
    from: source.from(),
    joins: source.joins(),
    where,
    groupBy,
  });
  return { source, bucketOf, breakdownValue, eventMatch, filters, inRange, eventsSelect };
}

export function buildSeriesQuery(input: SeriesQueryInput): Select {
  const { series, context, window } = input;
  const { timezone } = context.project;
  const { source, bucketOf, breakdownValue, eventMatch, filters, inRange, eventsSelect } = seriesScan(input);
  const math = series.math;

  if (math === 'first_time_for_user' || math === 'first_matching_event_for_user' || input.firstBucketOnly) {
    const actor = seriesActor(series, source);
    const firstOnly = math === 'first_time_for_user';
    const filterFlag = filters ?? constant(true);
    const where = firstOnly
      ? and(eventMatch, binary('<=', source.timestamp, instant(window.toUtc)))
      : math === 'first_matching_event_for_user'
        ? and(eventMatch, filters, binary('<=', source.timestamp, instant(window.toUtc)))
        : and(eventMatch, filters, inRange(window.fromUtc));
    // Cumulative unique actors count each actor once per breakdown value (PostHog groups by actor and
    // breakdown value); first-time maths take the breakdown value of the actor's first event.
    const perValue = input.firstBucketOnly && !firstOnly && math !== 'first_matching_event_for_user';
    const inner = eventsSelect([
      alias(actor, 'actor'),
      alias(call('min', source.timestamp), 'first_ts'),
      alias(perValue ? breakdownValue : call('argMin', breakdownValue, source.timestamp), 'bv'),
      alias(firstOnly ? call('argMin', filterFlag, source.timestamp) : constant(true), 'matched'),
    ], where, perValue ? [field('actor'), field('bv')] : [field('actor')]);
    return select({
      select: [alias(bucketOf(field('first_ts')), 'bucket'), alias(field('bv'), 'breakdown_value'), alias(call('toFloat64', call('count')), 'value')],
      from: subquery(inner, 'firsts'),
      where: and(binary('>=', field('first_ts'), instant(window.fromUtc)), eq(field('matched'), constant(true))),
      groupBy: [field('bucket'), field('breakdown_value')],
    });
  }

  if (math === 'weekly_active' || math === 'monthly_active') {
    const days = math === 'weekly_active' ? 7 : 30;
    const actor = seriesActor(series, source);
    if (input.totalValue) {
      const from = shiftUtc(window.toUtc, -days);
      return eventsSelect([alias(constant(0), 'bucket'), alias(breakdownValue, 'breakdown_value'), alias(call('toFloat64', call('uniqExact', actor)), 'value')],
        and(eventMatch, filters, inRange(from)), [field('bucket'), field('breakdown_value')]);
    }
    // Each (actor, step) counts towards this step's bucket and the buckets of the following days-1 days.
    const step = window.interval === 'hour' ? 'hour' : window.interval === 'minute' ? 'minute' : 'day';
    const steps = step === 'day' ? days : step === 'hour' ? days * 24 : days * 24 * 60;
    const active = eventsSelect([
      alias(bucketStartOfStep(source.timestamp, step, timezone), 'step_start'),
      alias(breakdownValue, 'bv'),
      alias(actor, 'actor'),
    ], and(eventMatch, filters, inRange(shiftUtc(window.fromUtc, -days))), [field('step_start'), field('bv'), field('actor')]);
    const stepFn = step === 'day' ? 'toIntervalDay' : step === 'hour' ? 'toIntervalHour' : 'toIntervalMinute';
    return select({
      select: [alias(field('rolling_bucket'), 'bucket'), alias(field('bv'), 'breakdown_value'), alias(call('toFloat64', call('uniqExact', field('actor'))), 'value')],
      from: subquery(active, 'active'),
      arrayJoin: alias(call('arrayMap', lambda(['i'], call('toUnixTimestamp', binary('+', field('step_start'), call(stepFn, field('i'))))), call('range', constant(0, 'Int64'), constant(steps, 'Int64'))), 'rolling_bucket'),
      where: and(binary('>=', field('rolling_bucket'), constant(window.firstBucket)), binary('<=', field('rolling_bucket'), constant(window.lastBucket))),
      groupBy: [field('bucket'), field('breakdown_value')],
    });
  }

  if (math.endsWith('_count_per_actor')) {
    const actor = seriesActor(series, source);
    const perActor = eventsSelect([
      alias(bucketOf(source.timestamp), 'bucket_start'),
      alias(breakdownValue, 'bv'),
      alias(actor, 'actor'),
      alias(call('count'), 'actor_count'),
    ], and(eventMatch, filters, inRange(window.fromUtc)), [field('bucket_start'), field('bv'), field('actor')]);
    return select({
      select: [alias(field('bucket_start'), 'bucket'), alias(field('bv'), 'breakdown_value'), alias(call('toFloat64', countPerActorAggregate(math as CountPerActorMath, field('actor_count'))), 'value')],
      from: subquery(perActor, 'per_actor'),
      groupBy: [field('bucket'), field('breakdown_value')],
    });
  }

  const value = simpleAggregate(series, source);
  return eventsSelect(
    [alias(bucketOf(source.timestamp), 'bucket'), alias(breakdownValue, 'breakdown_value'), alias(call('toFloat64', value), 'value')],
    and(eventMatch, filters, inRange(window.fromUtc)),
    [field('bucket'), field('breakdown_value')],
  );
}

/**
 * Which series can share one scan of the events: plain aggregates (total, dau, sum of a property
 * ...) over the same event or action with the same series filters. Reading the events, and above
 * all extracting a breakdown property from their JSON, is most of a trend's cost; "total and
 * unique users of $pageview" then reads the events once. Null: the series runs on its own.
 */
export function sharedScanKey(input: SeriesQueryInput): string | null {
  const { series, firstBucketOnly } = input;
  const special = series.math === 'first_time_for_user' || series.math === 'first_matching_event_for_user' ||
    series.math === 'weekly_active' || series.math === 'monthly_active' || series.math.endsWith('_count_per_actor');
  if (special || firstBucketOnly) return null;
  const what = series.kind === 'ActionsNode' ? { action: series.id } : { event: series.event };
  // Counting groups leaves out events without one, so only series counting the same kind of actor share.
  return JSON.stringify([what, series.properties, countedGroupType(series)]);
}

/**
 * Several series with one sharedScanKey in one statement: rows of (series_index, bucket,
 * breakdown_value, value), series_index being the position in `inputs`. The events are grouped
 * once with a value column per series, then unpivoted with ARRAY JOIN.
 */
export function buildSharedScanQuery(inputs: readonly SeriesQueryInput[]): Select {
  // The inputs share events, filters and breakdown (the key says so): the first one's scan serves all.
  const { source, bucketOf, breakdownValue, eventMatch, filters, inRange, eventsSelect } = seriesScan(inputs[0]!);
  const values = inputs.map((input, i) => alias(call('toFloat64', simpleAggregate(input.series, source)), `fn_value_${i}`));
  const scan = eventsSelect(
    [alias(bucketOf(source.timestamp), 'bucket'), alias(breakdownValue, 'breakdown_value'), ...values],
    and(eventMatch, filters, inRange(inputs[0]!.window.fromUtc)),
    [field('bucket'), field('breakdown_value')],
  );
  const pair = field('fn_series');
  return select({
    select: [
      alias(call('tupleElement', pair, constant(1, 'Int64')), 'series_index'),
      field('bucket'),
      field('breakdown_value'),
      alias(call('tupleElement', pair, constant(2, 'Int64')), 'value'),
    ],
    from: subquery(scan, 'shared_scan'),
    arrayJoin: alias(call('array', ...inputs.map((_, i) => tuple(constant(i, 'Int64'), field(`fn_value_${i}`)))), 'fn_series'),
  });
}

function simpleAggregate(series: SeriesNode, source: EventSource): Expr {
  switch (series.math) {
    case 'total':
      return call('count');
    case 'dau':
    case 'unique_group':
      return call('uniqExact', seriesActor(series, source));
    case 'hogql':
      return source.hogqlExpr(series.math_hogql ?? '');
    case 'unique_session':
      // count(DISTINCT $session_id), as PostHog: events without a session ('') are one session together.
      return call('uniqExact', source.sessionId);
    default: {
      const key = series.math_property ?? '';
      const property = series.math_property_type === 'person_properties' ? source.personProperty(key) : source.eventProperty(key);
      const number = call('toFloat64OrNull', property);
      const quantile = QUANTILES[series.math];
      const aggregate = quantile !== undefined
        ? parametricCall('quantile', [constant(quantile, 'Float64')], [number])
        : call(series.math, number);
      return call('ifNull', aggregate, constant(0, 'Float64'));
    }
  }
}

function countPerActorAggregate(math: CountPerActorMath, count: Expr): Expr {
  const base = math.replace('_count_per_actor', '');
  const quantile = QUANTILES[base];
  return quantile !== undefined ? parametricCall('quantile', [constant(quantile, 'Float64')], [count]) : call(base, count);
}

function bucketStartOfStep(timestamp: Expr, step: 'day' | 'hour' | 'minute', timezone: string): Expr {
  const local = call('toTimeZone', timestamp, constant(timezone));
  return call(step === 'day' ? 'toStartOfDay' : step === 'hour' ? 'toStartOfHour' : 'toStartOfMinute', local);
}

/** A UTC "yyyy-MM-dd HH:mm:ss.SSS" instant moved by whole days. */
export function shiftUtc(utcText: string, days: number): string {
  const date = new Date(`${utcText.replace(' ', 'T')}Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().replace('T', ' ').replace('Z', '');
}
