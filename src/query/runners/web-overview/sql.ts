// The overview as one statement (web_overview.py): an inner pass over the events grouped by
// session, joined to the session's fields, keeps the sessions that started in a period; the outer
// select aggregates each metric once per period, a session belonging to the period of its start.
import { alias, and, call, constant, field, select, subquery } from '../../ast/build.js';
import type { Expr, Select } from '../../ast/nodes.js';
import type { QueryContext } from '../../context.js';
import { eventSourceFor } from '../../hogql/expressions.js';
import type { WebOverviewQuery } from '../../nodes/schema.js';
import {
  bounceExpr, conversionGoalExpr, hasSession, pageviewExpr, sessionField, webEventsExpr, webFilterExpr,
} from '../web-shared/filters.js';
import { inPeriod, inPeriods, type WebPeriods } from '../web-shared/periods.js';

type Aggregate = 'uniqExact' | 'sum' | 'avg';

/** The metrics read from the statement's one row, in order: each a [current, previous] column pair. */
export const PLAIN_METRICS = ['visitors', 'views', 'sessions', 'duration', 'bounce'] as const;
export const GOAL_METRICS = ['visitors', 'total_conversions', 'unique_conversions'] as const;

const PLAIN: Record<(typeof PLAIN_METRICS)[number], [Aggregate, string]> = {
  visitors: ['uniqExact', 'session_person_id'],
  views: ['sum', 'filtered_pageview_count'],
  sessions: ['uniqExact', 'web_session_id'],
  duration: ['avg', 'session_duration'],
  bounce: ['avg', 'is_bounce'],
};
const GOAL: Record<(typeof GOAL_METRICS)[number], [Aggregate, string]> = {
  visitors: ['uniqExact', 'session_person_id'],
  total_conversions: ['sum', 'conversion_count'],
  unique_conversions: ['uniqExact', 'conversion_person_id'],
};

/** One row per session with a counted event in either period, whose start lies in one of them. */
function sessionsSelect(query: WebOverviewQuery, context: QueryContext, periods: WebPeriods): Select {
  const source = eventSourceFor(context);
  const person = source.personId();
  const common = [
    alias(call('any', person), 'session_person_id'),
    alias(source.sessionId, 'web_session_id'),
    alias(call('min', sessionField(source, '$start_timestamp')), 'start_timestamp'),
  ];
  const goal = query.conversionGoal ? conversionGoalExpr(query.conversionGoal, context, source) : null;
  const own = goal
    ? [
      alias(call('countIf', goal), 'conversion_count'),
      // any() skips NULLs: the person, when the session has a goal event.
      alias(call('any', call('if', goal, person, constant(null, 'Nullable(Nothing)'))), 'conversion_person_id'),
    ]
    : [
      alias(call('any', sessionField(source, '$session_duration')), 'session_duration'),
      alias(call('countIf', pageviewExpr(source)), 'filtered_pageview_count'),
      alias(call('any', bounceExpr(source, query.modifiers)), 'is_bounce'),
    ];
  // Every expression is built before joins() is read: the source collects its joins as they are made.
  const where = and(hasSession(source), webEventsExpr(query, context, source), inPeriods(source.timestamp, periods), webFilterExpr(query, context, source));
  return select({
    select: [...common, ...own],
    from: source.from(),
    joins: source.joins(),
    where,
    groupBy: [source.sessionId],
    having: inPeriods(field('start_timestamp'), periods),
  });
}

/** The overview's one statement: a row of [current, previous] pairs, PLAIN_METRICS or GOAL_METRICS in order. */
export function overviewSelect(query: WebOverviewQuery, context: QueryContext, periods: WebPeriods): Select {
  const metrics = query.conversionGoal ? GOAL_METRICS.map((m) => GOAL[m]) : PLAIN_METRICS.map((m) => PLAIN[m]);
  const start = field('start_timestamp');
  const columns: Expr[] = metrics.flatMap(([fn, column], i) => periods.previous
    ? [
      alias(call(`${fn}If`, field(column), inPeriod(start, periods.current)), `m${i}_current`),
      alias(call(`${fn}If`, field(column), inPeriod(start, periods.previous)), `m${i}_previous`),
    ]
    // Without a previous period the HAVING kept only sessions that started in the current one.
    : [alias(call(fn, field(column)), `m${i}_current`)]);
  return select({
    select: columns.map((c) => (c.kind === 'alias' ? alias(call('toFloat64', c.expr), c.alias) : c)),
    from: subquery(sessionsSelect(query, context, periods), 'web_sessions'),
  });
}
