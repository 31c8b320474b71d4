// The actors behind one funnel step (the persons endpoint): funnelStep N > 0 = reached step N,
// N < 0 = reached step |N|-1 but not step |N|; optionally only one breakdown value (the Other
// marker selects every value outside the top breakdown_limit). Actors are persons, or groups
// when the funnel aggregates by a group type (PostHog's group actors: key, type, properties).
import { alias, and, asc, binary, call, constant, eq, field, leftJoin, not, select, subquery, table } from '../../ast/build.js';
import type { Expr, Select } from '../../ast/nodes.js';
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import type { FunnelsQuery } from '../../nodes/schema.js';
import { ValidationError } from '../../../errors.js';
import { OTHER_BREAKDOWN, topValues } from './aggregate.js';
import { personQuery } from './person-query.js';
import { funnelRange } from './range.js';
import { num } from './sql.js';

export interface FunnelActorsOptions {
  funnelStep: number;
  breakdownValue?: string | string[] | null;
  limit: number;
  offset: number;
}

export interface FunnelPersonActor {
  id: string;
  distinct_ids: string[];
  properties: Record<string, unknown>;
  created_at: string;
}

export interface FunnelGroupActor {
  id: string;
  group_type_index: number;
  group_key: string;
  properties: Record<string, unknown>;
  created_at: string | null;
}

export type FunnelActor = FunnelPersonActor | FunnelGroupActor;

interface ActorRow {
  id: string;
  distinct_ids: string[];
  properties: string | null;
  created_at: string | null;
}

export async function funnelActors(query: FunnelsQuery, context: QueryContext, run: QueryRun, options: FunnelActorsOptions): Promise<{ persons: FunnelActor[]; hasMore: boolean }> {
  const n = query.series.length;
  const step = options.funnelStep;
  if (!Number.isInteger(step) || step === 0 || Math.abs(step) > n || step === -1) {
    throw new ValidationError(`funnel_step must be 1..${n} (reached that step) or -2..-${n} (dropped before it).`, 'funnel_step');
  }
  const window = await funnelRange(query, context, run);
  const { select: persons } = personQuery({ query, context, fromUtc: window.fromUtc, toUtc: window.toUtc, distinctIds: true });
  const reached = field('reached');
  const stepCondition = step > 0
    ? binary('>=', reached, num(step))
    : and(binary('>=', reached, num(-step - 1)), binary('<', reached, num(-step)));

  let valueCondition: Expr | undefined;
  const raw = Array.isArray(options.breakdownValue) ? options.breakdownValue[0] : options.breakdownValue;
  if (query.breakdownFilter && raw !== undefined && raw !== null) {
    const value = String(raw);
    if (value === OTHER_BREAKDOWN) {
      const top = await run.rows<{ breakdown_value: string }>(topValues(persons, n, query.breakdownFilter.breakdown_limit ?? 10));
      valueCondition = not(binary('IN', field('breakdown_value'), constant(top.map((r) => r.breakdown_value), 'Array(String)')));
      if (top.length === 0) valueCondition = undefined;
    } else {
      valueCondition = eq(field('breakdown_value'), constant(value));
    }
  }

  const matching = select({
    select: [field('actor'), field('distinct_ids')],
    from: subquery(persons, 'funnel_persons'),
    where: and(binary('>', reached, num(0)), stepCondition, valueCondition),
  });
  const groupIndex = query.aggregation_group_type_index;
  if (groupIndex !== undefined) return groupActors(run, matching, groupIndex, options);

  const people = select({
    select: [alias(field('id'), 'person_key'), alias(call('argMax', field('properties'), field('version')), 'person_properties'), alias(call('argMax', field('created_at'), field('version')), 'person_created_at')],
    from: table('persons', 'p'),
    groupBy: [field('id')],
    having: eq(call('argMax', field('is_deleted'), field('version')), constant(false)),
  });
  const { page, hasMore } = await actorPage(run, matching, { rows: people, alias: 'person', key: 'person_key' }, [
    alias(call('toString', field('actor', 'fp')), 'id'),
    alias(call('arraySort', field('distinct_ids', 'fp')), 'fn_distinct_ids'),
    alias(field('person_properties', 'person'), 'properties'),
    alias(call('toString', field('person_created_at', 'person')), 'created_at'),
  ], options);
  const known = await personDistinctIds(run, page.map((r) => r.id));
  return {
    persons: page.map((r) => ({
      id: r.id,
      distinct_ids: known.get(r.id) ?? (r as unknown as { fn_distinct_ids: string[] }).fn_distinct_ids ?? [],
      properties: parseProperties(r.properties),
      created_at: isoTime(r.created_at),
    })),
    hasMore,
  };
}

/** One page of the matching actors, in actor order, each joined to its details (absent: nulls). */
async function actorPage(
  run: QueryRun,
  matching: Select,
  details: { rows: Select; alias: string; key: string },
  columns: Expr[],
  options: FunnelActorsOptions,
): Promise<{ page: ActorRow[]; hasMore: boolean }> {
  const rows = await run.rows<ActorRow>(select({
    select: columns,
    from: subquery(matching, 'fp'),
    joins: [leftJoin(subquery(details.rows, details.alias), eq(field(details.key, details.alias), field('actor', 'fp')))],
    orderBy: [asc(field('actor', 'fp'))],
    limit: options.limit + 1 + options.offset,
  }));
  return { page: rows.slice(options.offset, options.offset + options.limit), hasMore: rows.length > options.offset + options.limit };
}

const parseProperties = (text: string | null): Record<string, unknown> => (text ? (JSON.parse(text) as Record<string, unknown>) : {});
const isoTime = (text: string | null): string => (text ? `${text.replace(' ', 'T')}Z` : '');

/** The groups behind the step, with their latest properties (a group never identified has none). */
async function groupActors(run: QueryRun, matching: Select, index: number, options: FunnelActorsOptions): Promise<{ persons: FunnelGroupActor[]; hasMore: boolean }> {
  const groups = select({
    select: [alias(field('group_key'), 'fn_group_key'), alias(call('argMax', field('properties'), field('version')), 'fn_group_properties'), alias(call('argMax', field('created_at'), field('version')), 'fn_group_created_at')],
    from: table('groups', 'g'),
    where: eq(field('group_type_index'), constant(index)),
    groupBy: [field('group_key')],
  });
  const { page, hasMore } = await actorPage(run, matching, { rows: groups, alias: 'grp', key: 'fn_group_key' }, [
    alias(field('actor', 'fp'), 'id'),
    alias(field('fn_group_properties', 'grp'), 'properties'),
    alias(call('toString', field('fn_group_created_at', 'grp')), 'created_at'),
  ], options);
  return {
    // A group known only from events ($groupidentify never sent) has no row: no properties, no creation time.
    persons: page.map((r) => ({ id: r.id, group_type_index: index, group_key: r.id, properties: parseProperties(r.properties), created_at: r.properties ? isoTime(r.created_at) : null })),
    hasMore,
  };
}

/**
 * Every distinct id that now points at each person (PostHog lists them all, not only those seen
 * in the funnel). A distinct id's latest mapping decides: one that moved to another person by a
 * merge belongs to that person.
 */
async function personDistinctIds(run: QueryRun, personIds: readonly string[]): Promise<Map<string, string[]>> {
  if (personIds.length === 0) return new Map();
  const ids = constant([...personIds], 'Array(String)');
  const everMapped = select({
    select: [field('distinct_id')],
    from: table('person_distinct_ids', 'mapped'),
    where: binary('IN', call('toString', field('person_id')), ids),
  });
  const latest = select({
    select: [
      alias(field('distinct_id'), 'fn_distinct_id'),
      alias(call('toString', call('argMax', field('person_id'), field('version'))), 'fn_person'),
      alias(call('argMax', field('is_deleted'), field('version')), 'fn_deleted'),
    ],
    from: table('person_distinct_ids', 'pdi'),
    where: binary('IN', field('distinct_id'), everMapped),
    groupBy: [field('distinct_id')],
  });
  const rows = await run.rows<{ person: string; distinct_ids: string[] }>(select({
    select: [alias(field('fn_person'), 'person'), alias(call('arraySort', call('groupArray', field('fn_distinct_id'))), 'distinct_ids')],
    from: subquery(latest, 'latest'),
    where: and(not(field('fn_deleted')), binary('IN', field('fn_person'), ids)),
    groupBy: [field('fn_person')],
  }));
  return new Map(rows.map((r) => [r.person, r.distinct_ids]));
}
