// Stickiness of one series over one period, as one statement:
//
//   actor-intervals: GROUP BY actor, interval HAVING count() meets the criteria  (one scan)
//   actors:          GROUP BY actor -> num_intervals
//   histogram:       GROUP BY num_intervals -> actors
//
// With intervalCount c the intervals are counted in groups of c back from date_to, as PostHog
// does: floor(age(interval, timestamp, date_to) / c).
import { alias, and, binary, call, constant, field, select, subquery } from '../../ast/build.js';
import type { Select } from '../../ast/nodes.js';
import { instant } from '../../buckets/bucket-start.js';
import { intervalIndex } from '../../buckets/interval-index.js';
import type { QueryContext } from '../../context.js';
import type { ResolvedDateRange } from '../../dates/index.js';
import { actorOf, actorPresent, type ActorGroup } from '../../filters/actor.js';
import { entityMatch } from '../../filters/entity-match.js';
import { eventSourceFor } from '../../hogql/expressions.js';
import { propertyGroupExpr } from '../../filters/properties.js';
import type { SeriesNode, StickinessQuery } from '../../nodes/schema.js';
import { utcText } from '../event-range.js';

const OPERATORS = { gte: '>=', lte: '<=', exact: '=', gt: '>', lt: '<' } as const;

/** PostHog's stickiness counts groups only with `unique_group`; every other math counts persons. */
export const stickinessActor = (series: SeriesNode): ActorGroup =>
  series.math === 'unique_group' && series.math_group_type_index !== undefined && series.math_group_type_index !== null ? series.math_group_type_index : null;

/** How many intervals (or groups of intervalCount) the period has: the histogram's length. */
export function intervalSlots(query: StickinessQuery, range: ResolvedDateRange): number {
  return Math.ceil(range.buckets.length / (query.intervalCount ?? 1));
}

/** Columns: actor, num_intervals (the intervals in which the actor met the criteria). */
export function stickinessActors(query: StickinessQuery, series: SeriesNode, range: ResolvedDateRange, context: QueryContext): Select {
  const { timezone, weekStartDay } = context.project;
  const source = eventSourceFor(context);
  const group = stickinessActor(series);
  // With intervalCount, PostHog's groups: whole intervals from the event to date_to (ClickHouse's
  // age()), in groups of intervalCount, so the last group always ends at date_to.
  const slot = query.intervalCount === null
    ? intervalIndex(source.timestamp, range.buckets[0]!, range.interval, timezone, weekStartDay)
    : call('intDiv',
      call('age', constant(range.interval), call('toTimeZone', source.timestamp, constant(timezone)), instant(utcText(range.dateTo, true))),
      constant(query.intervalCount, 'Int64'));
  const criteria = query.stickinessFilter.stickinessCriteria;
  // Every expression is built before the joins are collected.
  const columns = [alias(actorOf(group, source), 'st_actor'), alias(slot, 'st_slot')];
  const where = and(
    binary('>=', source.timestamp, instant(utcText(range.eventsFrom))),
    binary('<=', source.timestamp, instant(utcText(range.dateTo, true))),
    entityMatch(series, context, source),
    propertyGroupExpr(query.properties, source, timezone),
    query.filterTestAccounts ? propertyGroupExpr(context.testAccountFilters, source, timezone) : undefined,
    actorPresent(group, source),
  );
  const scan = { from: source.from(), joins: source.joins(), where };
  // Without criteria an interval counts when it has an event: the distinct intervals per actor.
  if (!criteria) {
    return select({
      select: [alias(field('st_actor'), 'actor'), alias(call('uniqExact', field('st_slot')), 'num_intervals')],
      from: subquery(select({ select: columns, ...scan }), 'actor_events'),
      groupBy: [field('st_actor')],
    });
  }
  const actorIntervals = select({
    select: columns,
    ...scan,
    groupBy: [field('st_actor'), field('st_slot')],
    having: binary(OPERATORS[criteria.operator], call('count'), constant(criteria.value)),
  });
  return select({
    select: [alias(field('st_actor'), 'actor'), alias(call('count'), 'num_intervals')],
    from: subquery(actorIntervals, 'actor_intervals'),
    groupBy: [field('st_actor')],
  });
}

/** Columns: num_intervals, actors. */
export function stickinessHistogram(actors: Select): Select {
  return select({
    select: [field('num_intervals'), alias(call('count'), 'actors')],
    from: subquery(actors, 'sticky_actors'),
    groupBy: [field('num_intervals')],
  });
}
