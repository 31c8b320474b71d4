// Retention as one statement:
//
//   events:  actor, breakdown value, interval index, is-start, is-return   (the two entities, range, filters)
//   actors:  GROUP BY actor (and value) -> start intervals, return intervals
//   cells:   each start interval x each offset the actor came back at    -> count per (value, start, offset)
//
// Interval indexes count from the range's first interval (buckets/interval-index.ts), so "came
// back k intervals later" is `has(returns, start + k)`.
import { alias, and, array, binary, call, constant, field, lambda, or, select, subquery } from '../../ast/build.js';
import type { Expr, Select } from '../../ast/nodes.js';
import { instant } from '../../buckets/bucket-start.js';
import { intervalIndex } from '../../buckets/interval-index.js';
import type { QueryContext } from '../../context.js';
import { actorOf, actorPresent } from '../../filters/actor.js';
import { breakdownText } from '../../filters/breakdown-value.js';
import { breakdownCohorts, cohortBreakdownValue } from '../../cohorts/breakdown.js';
import { entityMatch } from '../../filters/entity-match.js';
import { eventSourceFor } from '../../hogql/expressions.js';
import { propertyGroupExpr } from '../../filters/properties.js';
import type { RetentionQuery } from '../../nodes/schema.js';
import { utcText } from '../event-range.js';
import type { RetentionRange } from './range.js';

/** Columns: actor, starts (Array(Int64)), returns (Array(Int64)), and breakdown_value when broken down. */
export function retentionActors(query: RetentionQuery, context: QueryContext, range: RetentionRange): Select {
  const { timezone, weekStartDay } = context.project;
  const filter = query.retentionFilter;
  const source = eventSourceFor(context);
  const groupIndex = query.aggregation_group_type_index;
  const actorGroup = groupIndex ?? null;
  const actor = actorOf(actorGroup, source);
  const isStart = entityMatch(filter.targetEntity, context, source);
  const isReturn = entityMatch(filter.returningEntity, context, source);
  // First-ever occurrence: the actor's first event of the target, whatever its properties, must match them.
  const firstEver = filter.retentionType === 'retention_first_ever_occurrence';
  const firstTime = filter.retentionType === 'retention_first_time' || firstEver;
  const isAnyStart = firstEver ? entityMatch(filter.targetEntity, context, source, 'without properties') : isStart;
  const from = binary('>=', source.timestamp, instant(utcText(range.dateFrom)));
  const breakdown = query.breakdownFilter;
  // By cohort: each event once per listed cohort its actor is in ('0' for all users).
  const cohorts = breakdownCohorts(breakdown);

  // Every expression is built before the joins are collected: reading a person or group property adds its join.
  // The same entity starting and returning (the common case) needs one array for both.
  const oneEntity = !firstTime && filter.minimumOccurrences <= 1 && JSON.stringify(filter.targetEntity) === JSON.stringify(filter.returningEntity);
  const columns = [
    alias(actor, 'rt_actor'),
    ...(breakdown ? [alias(cohorts ? cohortBreakdownValue(cohorts, source) : breakdownText(breakdown, source, ''), 'rt_bv')] : []),
    alias(intervalIndex(source.timestamp, range.dateFrom, range.interval, timezone, weekStartDay), 'rt_index'),
    ...(firstTime ? [alias(source.timestamp, 'rt_ts'), alias(isAnyStart, 'rt_any_start')] : []),
    ...(oneEntity ? [] : [alias(isStart, 'rt_start'), alias(isReturn, 'rt_return')]),
  ];
  const where = and(
    actorPresent(actorGroup, source),
    binary('<', source.timestamp, instant(utcText(range.dateTo))),
    // First-time kinds look for the start event in all history; returns count inside the range.
    firstTime ? or(isAnyStart, and(from, isReturn)) : and(from, oneEntity ? isStart : or(isStart, isReturn)),
    propertyGroupExpr(query.properties, source, timezone),
    query.filterTestAccounts ? propertyGroupExpr(context.testAccountFilters, source, timezone) : undefined,
  );
  const events = select({ select: columns, from: source.from(), joins: source.joins(), where });

  const index = field('rt_index');
  const inRange = binary('>=', index, constant(0, 'Int64'));
  // First-ever buckets an actor by the value on their first start event; the others by each event's value.
  const perValue = breakdown !== null && !firstEver;
  // Without a breakdown no value column is carried: a constant string key slows every GROUP BY after it.
  const value = !breakdown ? [] : [alias(perValue ? field('rt_bv') : call('argMinIf', field('rt_bv'), field('rt_ts'), field('rt_any_start')), 'breakdown_value')];
  if (oneEntity) {
    // Every event read is both a start and a return, and lies in the range.
    const intervals = call('groupUniqArray', index);
    return select({
      select: [alias(field('rt_actor'), 'actor'), ...value, alias(intervals, 'starts'), alias(field('starts'), 'returns')],
      from: subquery(events, 'retention_events'),
      groupBy: perValue ? [field('rt_actor'), field('rt_bv')] : [field('rt_actor')],
    });
  }
  const starts = firstTime ? firstStart(firstEver) : call('groupUniqArrayIf', index, and(field('rt_start'), inRange));
  return select({
    select: [
      alias(field('rt_actor'), 'actor'),
      ...value,
      alias(starts, 'starts'),
      alias(returnIntervals(filter.minimumOccurrences, and(field('rt_return'), inRange)), 'returns'),
    ],
    from: subquery(events, 'retention_events'),
    groupBy: perValue ? [field('rt_actor'), field('rt_bv')] : [field('rt_actor')],
  });
}

/** The interval of the actor's first start event, when it lies in the range (first-ever: when it matches). */
function firstStart(firstEver: boolean): Expr {
  const ts = field('rt_ts');
  const first = call('argMinIf', field('rt_index'), ts, field('rt_any_start'));
  const qualifies = and(
    binary('>', call('countIf', field('rt_any_start')), constant(0)),
    binary('>=', first, constant(0, 'Int64')),
    firstEver ? call('argMinIf', field('rt_start'), ts, field('rt_any_start')) : undefined,
  );
  return call('if', qualifies, array(first), call('emptyArrayInt64'));
}

/** Intervals with a returning event; with minimumOccurrences m, intervals with at least m of them. */
function returnIntervals(minimum: number, isReturn: Expr): Expr {
  if (minimum <= 1) return call('groupUniqArrayIf', field('rt_index'), isReturn);
  const all = call('groupArrayIf', field('rt_index'), isReturn);
  return call('arrayFilter', lambda(['rt_i'], binary('>=', call('countEqual', all, field('rt_i')), constant(minimum))), call('arrayDistinct', all));
}

/**
 * Columns: start_index, offset, actors, and breakdown_value when broken down. Each actor counts once per start interval
 * at offset 0 and at every later offset (below totalIntervals) they came back at; cumulative
 * counts them at every offset up to the last they came back at.
 */
export function retentionCells(actors: Select, query: RetentionQuery): Select {
  const { totalIntervals, cumulative } = query.retentionFilter;
  const value = query.breakdownFilter ? [field('breakdown_value')] : [];
  const start = field('start_index');
  // The later offsets the actor came back at: each return interval minus the start, inside the row.
  const later = call('arrayFilter',
    lambda(['rt_k'], and(binary('>=', field('rt_k'), constant(1, 'Int64')), binary('<', field('rt_k'), constant(totalIntervals, 'Int64')))),
    call('arrayMap', lambda(['rt_r'], binary('-', field('rt_r'), start)), field('returns')));
  const offsets = cumulative
    ? call('range', binary('+', call('arrayMax', call('arrayPushFront', later, constant(0, 'Int64'))), constant(1, 'Int64')))
    : call('arrayPushFront', later, constant(0, 'Int64'));
  const perStart = select({
    select: [...value, alias(call('arrayJoin', field('starts')), 'start_index'), field('returns')],
    from: subquery(actors, 'retention_actors'),
  });
  return select({
    select: [...value, start, alias(call('arrayJoin', offsets), 'offset'), alias(call('count'), 'actors')],
    from: subquery(perStart, 'retention_starts'),
    groupBy: [...value, start, field('offset')],
  });
}
