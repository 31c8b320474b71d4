// Lifecycle of one series as one statement:
//
//   actors:   per actor the sorted intervals with an event (from one interval before the range
//             to one after) and the interval they were created in
//   statuses: each active interval is new (the creation interval), returning (active the
//             interval before) or resurrecting; each active interval not followed by activity
//             makes the next one dormant
//   counts:   GROUP BY interval, status -> actors
//
// Interval indexes count from the range's first bucket (buckets/interval-index.ts).
import { alias, and, binary, call, constant, eq, field, lambda, not, or, select, subquery, tuple } from '../../ast/build.js';
import type { Expr, Select } from '../../ast/nodes.js';
import { instant } from '../../buckets/bucket-start.js';
import { intervalIndex } from '../../buckets/interval-index.js';
import type { QueryContext } from '../../context.js';
import { stepIntervals, type ResolvedDateRange } from '../../dates/index.js';
import { actorOf, actorPresent } from '../../filters/actor.js';
import { entityMatch } from '../../filters/entity-match.js';
import { eventSourceFor } from '../../hogql/expressions.js';
import { propertyGroupExpr } from '../../filters/properties.js';
import type { LifecycleQuery } from '../../nodes/schema.js';
import { utcText } from '../event-range.js';

/** Columns: actor, status, interval (0 = the range's first bucket). */
export function lifecycleStatuses(query: LifecycleQuery, range: ResolvedDateRange, context: QueryContext): Select {
  const { timezone, weekStartDay } = context.project;
  const series = query.series[0]!;
  const source = eventSourceFor(context);
  const group = query.aggregation_group_type_index ?? null;
  const first = range.buckets[0]!;
  const last = range.buckets[range.buckets.length - 1]!;
  const index = (ts: Expr) => intervalIndex(ts, first, range.interval, timezone, weekStartDay);
  const createdAt = group === null ? source.personCreatedAt() : source.groupCreatedAt(group);
  // PostHog leaves out events sent without a person profile. Most events do not name the flag: a
  // substring test spares them the JSON parse (ClickHouse evaluates OR lazily).
  const properties = source.properties;
  const profile = call('JSONExtractRaw', properties, constant('$process_person_profile'));
  const withProfile = or(
    eq(call('position', properties, constant('$process_person_profile')), constant(0)),
    not(binary('IN', profile, constant(['false', '"false"'], 'Array(String)'))),
  );
  const columns = [
    alias(actorOf(group, source), 'lc_actor'),
    alias(index(source.timestamp), 'lc_index'),
    alias(createdAt, 'lc_created_at'),
  ];
  const where = and(
    binary('>=', source.timestamp, instant(utcText(stepIntervals(first, range.interval, -1)))),
    binary('<', source.timestamp, instant(utcText(stepIntervals(last, range.interval, 1)))),
    entityMatch(series, context, source),
    propertyGroupExpr(query.properties, source, timezone),
    query.filterTestAccounts ? propertyGroupExpr(context.testAccountFilters, source, timezone) : undefined,
    actorPresent(group, source),
    withProfile,
  );
  const actors = select({
    select: [
      alias(field('lc_actor'), 'actor'),
      alias(call('arraySort', call('groupUniqArray', field('lc_index'))), 'active'),
      alias(call('min', field('lc_created_at')), 'created_at'),
    ],
    from: subquery(select({ select: columns, from: source.from(), joins: source.joins(), where }), 'lifecycle_events'),
    groupBy: [field('lc_actor')],
  });
  // The creation interval, once per actor.
  const withCreated = select({
    select: [field('actor'), field('active'), alias(index(field('created_at')), 'created')],
    from: subquery(actors, 'lifecycle_actors'),
  });

  // For active interval i (1-based position p): its status, and a dormant next interval when p+1 is not i+1.
  const at = (p: Expr) => call('arrayElement', field('active'), p);
  const i = at(field('lc_p'));
  const previous = at(binary('-', field('lc_p'), constant(1)));
  const next = at(binary('+', field('lc_p'), constant(1)));
  const status = call('multiIf',
    // Only the first active interval can be the creation one (events before a person's creation
    // come from imports: PostHog calls them resurrecting).
    and(eq(field('lc_p'), constant(1)), eq(i, field('created'))), constant('new'),
    and(binary('>', field('lc_p'), constant(1)), eq(previous, binary('-', i, constant(1, 'Int64')))), constant('returning'),
    constant('resurrecting'));
  const hasNext = binary('<', field('lc_p'), call('length', field('active')));
  const dormant = call('if', and(hasNext, eq(next, binary('+', i, constant(1, 'Int64')))), call('emptyArrayString'), call('array', constant('dormant')));
  const entries = call('arrayFlatten', call('arrayMap',
    lambda(['lc_p'], call('arrayConcat',
      call('array', tuple(i, status)),
      call('arrayMap', lambda(['lc_s'], tuple(binary('+', i, constant(1, 'Int64')), field('lc_s'))), dormant))),
    call('arrayEnumerate', field('active'))));
  const perActor = select({
    select: [field('actor'), alias(call('arrayJoin', entries), 'lc_entry')],
    from: subquery(withCreated, 'lifecycle_created'),
  });
  return select({
    select: [
      field('actor'),
      alias(call('tupleElement', field('lc_entry'), constant(2)), 'status'),
      alias(call('tupleElement', field('lc_entry'), constant(1)), 'interval'),
    ],
    from: subquery(perActor, 'lifecycle_entries'),
    where: and(
      binary('>=', call('tupleElement', field('lc_entry'), constant(1)), constant(0, 'Int64')),
      binary('<', call('tupleElement', field('lc_entry'), constant(1)), constant(range.buckets.length, 'Int64')),
    ),
  });
}

/** Columns: status, interval, actors. */
export function lifecycleCounts(statuses: Select): Select {
  return select({
    select: [field('status'), field('interval'), alias(call('count'), 'actors')],
    from: subquery(statuses, 'lifecycle_statuses'),
    groupBy: [field('status'), field('interval')],
  });
}
