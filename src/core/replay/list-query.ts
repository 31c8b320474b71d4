// The recordings list as ONE statement, as PostHog's SessionRecordingListFromQuery builds it: the
// summary rows (session_replay_events) merged per session, filtered on their own fields, and, combined
// with the query's operand, a semi-join on the session's events (events and actions performed, event
// and group property filters) and one on the recording's distinct id (person properties, cohorts).
// Built as the engine's AST, so every table passes the team guard and every value is a parameter.
import { DateTime } from 'luxon';
import { alias, and, binary, call, constant, eq, field, or, select, subquery, table } from '../../query/ast/build.js';
import type { Expr, OrderItem, Select } from '../../query/ast/nodes.js';
import { instant } from '../../query/buckets/bucket-start.js';
import { cohortMembers } from '../../query/cohorts/members.js';
import { latestPersons } from '../../query/catalog/latest.js';
import { jsonProperty } from '../../query/catalog/fields.js';
import type { QueryContext } from '../../query/context.js';
import { entityMatch, type Entity } from '../../query/filters/entity-match.js';
import { propertyFilterExpr, type PropertySource } from '../../query/filters/properties.js';
import { eventSourceFor } from '../../query/hogql/expressions.js';
import type { PropertyFilter, PropertyOperator } from '../../query/nodes/schema.js';
import { utcText } from '../../query/runners/event-range.js';


export interface RecordingsListFilter {
  readonly from: number | null;
  readonly to: number | null;
  readonly distinctIds: readonly string[] | null;
  readonly sessionIds: readonly string[] | null;
  /** Events and actions performed in the session. */
  readonly entities: readonly Entity[];
  /** Event, group, HogQL, person and cohort filters, flat (test-account filters appended, as PostHog). */
  readonly properties: readonly PropertyFilter[];
  readonly operand: 'AND' | 'OR';
  /** Conditions on the merged summary's columns (PostHog's having_predicates), AND'ed. */
  readonly predicates: readonly Expr[];
  readonly orderBy: OrderItem;
  readonly limit: number;
  readonly offset: number;
}

/** PostHog's negative operators: a session matches when NO event of it has the positive one. */
const INVERSE: Partial<Record<PropertyOperator, PropertyOperator>> = {
  is_not_set: 'is_set',
  is_not: 'exact',
  not_regex: 'regex',
  not_icontains: 'icontains',
};

/** PostHog's is_person_property: person filters, and HogQL over person.properties. */
const readsPerson = (filter: PropertyFilter) => filter.type === 'person' || filter.type === 'cohort';

const S = 's';
const sField = (name: string) => field(name, S);

/** The merged summary's columns, named as the service's rows (distinct_id apart: see below). */
export function summaryColumns(): Expr[] {
  const firstTimestamp = call('min', sField('min_first_timestamp'));
  const lastTimestamp = call('max', sField('max_last_timestamp'));
  return [
    alias(sField('session_id'), 'session_id'),
    // Not "distinct_id": a WHERE naming s.distinct_id must read the column, never this aggregate.
    alias(call('any', sField('distinct_id')), 'owner_distinct_id'),
    alias(call('toUnixTimestamp64Milli', firstTimestamp), 'first_ms'),
    alias(call('toUnixTimestamp64Milli', lastTimestamp), 'last_ms'),
    alias(call('argMinMerge', sField('first_url')), 'start_url'),
    alias(call('sum', sField('click_count')), 'clicks'),
    alias(call('sum', sField('keypress_count')), 'keypresses'),
    alias(call('sum', sField('mouse_activity_count')), 'mouse'),
    alias(call('sum', sField('active_milliseconds')), 'active_ms'),
    alias(call('sum', sField('console_log_count')), 'logs'),
    alias(call('sum', sField('console_warn_count')), 'warns'),
    alias(call('sum', sField('console_error_count')), 'errors'),
    alias(call('argMinMerge', sField('snapshot_source')), 'source'),
    // PostHog's dateDiff('second', start, end) and whole active seconds.
    alias(binary('-', call('toInt64', call('toUnixTimestamp', lastTimestamp)), call('toInt64', call('toUnixTimestamp', firstTimestamp))), 'duration'),
    alias(call('toInt64', call('round', binary('/', call('sum', sField('active_milliseconds')), constant(1000)))), 'active_seconds'),
  ];
}

export function recordingsListQuery(filter: RecordingsListFilter, context: QueryContext, now: number): Select {
  const where: Expr[] = [];
  const having: Expr[] = [];
  if (filter.sessionIds) where.push(binary('IN', sField('session_id'), constant([...filter.sessionIds], 'Array(String)')));
  if (filter.distinctIds) having.push(binary('IN', field('owner_distinct_id'), constant([...filter.distinctIds], 'Array(String)')));
  if (filter.from !== null) having.push(binary('>=', field('first_ms'), constant(filter.from, 'Int64')));
  if (filter.to !== null) having.push(binary('<=', field('first_ms'), constant(filter.to, 'Int64')));
  having.push(...filter.predicates);

  const optional: Expr[] = [];
  const events = eventsSemiJoin(filter, context, now);
  if (events) optional.push(binary('IN', sField('session_id'), events));
  const persons = personsSemiJoin(filter, context);
  if (persons) optional.push(binary('IN', sField('distinct_id'), persons));
  if (optional.length > 0) where.push(filter.operand === 'AND' ? and(...optional) : or(...optional));

  return select({
    select: summaryColumns(),
    from: table('session_replay_events', S),
    where: where.length > 0 ? and(...where) : undefined,
    groupBy: [sField('session_id')],
    having: having.length > 0 ? and(...having) : undefined,
    orderBy: [filter.orderBy, { expr: field('session_id'), direction: 'ASC' }],
    limit: filter.limit,
    offset: filter.offset,
  });
}

/**
 * The sessions whose events match: PostHog's ReplayFiltersEventsSubQuery. Entities are OR'ed in the
 * WHERE (each with its own properties) and each must be met (AND) or one of them (OR) per session;
 * positive event filters hold on the matching events, negative ones on every event of the session.
 * Events are read from a day before the range to a day after it, as PostHog does.
 */
function eventsSemiJoin(filter: RecordingsListFilter, context: QueryContext, now: number): Select | null {
  const eventFilters = filter.properties.filter((p) => !readsPerson(p));
  if (filter.entities.length === 0 && eventFilters.length === 0) return null;
  const source = eventSourceFor(context);
  const timezone = context.project.timezone;
  const day = (ms: number, days: number) => utcText(DateTime.fromMillis(ms + days * 86_400_000, { zone: 'utc' }));
  const entityExprs = filter.entities.map((entity) => entityMatch(entity, context, source));
  const positive = eventFilters.filter((p) => INVERSE[p.operator] === undefined).map((p) => propertyFilterExpr(p, source, timezone));
  const negative = eventFilters.filter((p) => INVERSE[p.operator] !== undefined)
    .map((p) => eq(call('countIf', propertyFilterExpr({ ...p, operator: INVERSE[p.operator]! }, source, timezone) ?? constant(true)), constant(0)));
  const entityChecks = filter.entities.length === 0 ? [] : filter.operand === 'AND'
    ? entityExprs.map((e) => binary('>', call('countIf', e), constant(0)))
    : [binary('>', call('countIf', or(...entityExprs)), constant(0))];
  const sessionChecks = [...entityChecks, ...negative];
  const where = and(
    call('notEmpty', source.sessionId),
    filter.from === null ? undefined : binary('>=', source.timestamp, instant(day(filter.from, -1))),
    binary('<=', source.timestamp, instant(day(filter.to ?? now, 1))),
    entityExprs.length > 0 ? or(...entityExprs) : undefined,
    ...positive,
  );
  return select({
    select: [alias(source.sessionId, 'session_id')],
    from: source.from(),
    joins: source.joins(),
    where,
    groupBy: [source.sessionId],
    having: sessionChecks.length === 0 ? undefined : filter.operand === 'AND' ? and(...sessionChecks) : or(...sessionChecks),
  });
}

/** The distinct ids of the persons that match: PostHog's PersonsPropertiesSubQuery and CohortPropertyGroupsSubQuery. */
function personsSemiJoin(filter: RecordingsListFilter, context: QueryContext): Select | null {
  const personFilters = filter.properties.filter(readsPerson);
  if (personFilters.length === 0) return null;
  const P = 'pp';
  const persons: PropertySource = {
    eventProperty: () => constant(false),
    personProperty: (key) => jsonProperty(field('person_properties', P), key),
    groupProperty: () => constant(false),
    hogqlExpr: () => constant(false),
    inCohort: (id) => binary('IN', field('person_key', P), cohortMembers(id, context)),
  };
  const conditions = personFilters.map((p) => propertyFilterExpr(p, persons, context.project.timezone) ?? constant(true));
  const matching = select({
    select: [field('person_key', P)],
    from: subquery(latestPersons(['properties']), P),
    where: filter.operand === 'AND' ? and(...conditions) : or(...conditions),
  });
  return select({
    select: [field('distinct_id')],
    from: table('person_distinct_ids', 'pdi'),
    groupBy: [field('distinct_id')],
    having: and(
      eq(call('argMax', field('is_deleted'), field('version')), constant(false)),
      binary('IN', call('argMax', field('person_id'), field('version')), matching),
    ),
  });
}
