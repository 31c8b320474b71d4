// The actors behind a number, for every kind: given a statement of matching actors (an `actor`
// column plus whatever the kind adds), one ordered page of them with their details. Actors are
// persons (id, every distinct id now pointing at them, properties, created_at) or, when the
// insight aggregates by a group type, groups (PostHog's group actors: key, type, properties).
import { alias, and, asc, binary, call, constant, eq, field, leftJoin, not, select, subquery, table } from '../ast/build.js';
import type { OrderItem, Select } from '../ast/nodes.js';
import type { QueryRun } from '../execute.js';

export interface PersonActor {
  id: string;
  distinct_ids: string[];
  properties: Record<string, unknown>;
  created_at: string;
}

export interface GroupActor {
  id: string;
  group_type_index: number;
  group_key: string;
  properties: Record<string, unknown>;
  created_at: string | null;
}

export type Actor = PersonActor | GroupActor;

export interface ActorPageOptions {
  readonly limit: number;
  readonly offset: number;
  /** Group type index the actors are groups of; absent: persons. */
  readonly groupIndex?: number | undefined;
  /** Columns of `matching` besides `actor` to return with each actor. */
  readonly extras?: readonly string[];
  /** Order over the `matching` columns (as `field(name, 'fp')`); the actor id breaks ties. */
  readonly orderBy?: readonly OrderItem[];
  /** A column of `matching` with distinct ids seen, for persons whose mapping is unknown. */
  readonly seenDistinctIds?: string;
}

export interface ActorPage {
  readonly actors: { actor: Actor; extras: Record<string, unknown> }[];
  readonly hasMore: boolean;
}

interface ActorRow {
  id: string;
  properties: string | null;
  created_at: string | null;
  [extra: string]: unknown;
}

export async function actorPage(run: QueryRun, matching: Select, options: ActorPageOptions): Promise<ActorPage> {
  const extras = options.extras ?? [];
  const extraColumns = [...extras, ...(options.seenDistinctIds ? [options.seenDistinctIds] : [])].map((name) => alias(field(name, 'fp'), `x_${name}`));
  const groupIndex = options.groupIndex;
  const details = groupIndex === undefined ? latestPersons() : latestGroups(groupIndex);
  const rows = await run.rows<ActorRow>(select({
    select: [
      alias(call('toString', field('actor', 'fp')), 'id'),
      alias(field('actor_properties', 'details'), 'properties'),
      alias(call('toString', field('actor_created_at', 'details')), 'created_at'),
      ...extraColumns,
    ],
    from: subquery(matching, 'fp'),
    joins: [leftJoin(subquery(details, 'details'), eq(field('actor_key', 'details'), field('actor', 'fp')))],
    orderBy: [...(options.orderBy ?? []), asc(field('actor', 'fp'))],
    limit: options.limit + 1 + options.offset,
  }));
  const page = rows.slice(options.offset, options.offset + options.limit);
  const hasMore = rows.length > options.offset + options.limit;
  const extrasOf = (row: ActorRow) => Object.fromEntries(extras.map((name) => [name, row[`x_${name}`]]));
  if (groupIndex !== undefined) {
    return {
      // A group known only from events ($groupidentify never sent) has no row: no properties, no creation time.
      actors: page.map((r) => ({
        actor: { id: r.id, group_type_index: groupIndex, group_key: r.id, properties: parseProperties(r.properties), created_at: r.properties ? isoTime(r.created_at) : null },
        extras: extrasOf(r),
      })),
      hasMore,
    };
  }
  const known = await personDistinctIds(run, page.map((r) => r.id));
  return {
    actors: page.map((r) => ({
      actor: {
        id: r.id,
        distinct_ids: known.get(r.id) ?? (options.seenDistinctIds ? ([...(r[`x_${options.seenDistinctIds}`] as string[])].sort()) : []),
        properties: parseProperties(r.properties),
        created_at: isoTime(r.created_at),
      },
      extras: extrasOf(r),
    })),
    hasMore,
  };
}

function latestPersons(): Select {
  return select({
    select: [
      alias(field('id'), 'actor_key'),
      alias(call('argMax', field('properties'), field('version')), 'actor_properties'),
      alias(call('argMax', field('created_at'), field('version')), 'actor_created_at'),
    ],
    from: table('persons', 'p'),
    groupBy: [field('id')],
    having: eq(call('argMax', field('is_deleted'), field('version')), constant(false)),
  });
}

function latestGroups(index: number): Select {
  return select({
    select: [
      alias(field('group_key'), 'actor_key'),
      alias(call('argMax', field('properties'), field('version')), 'actor_properties'),
      alias(call('argMax', field('created_at'), field('version')), 'actor_created_at'),
    ],
    from: table('groups', 'g'),
    where: eq(field('group_type_index'), constant(index)),
    groupBy: [field('group_key')],
  });
}

const parseProperties = (text: string | null): Record<string, unknown> => (text ? (JSON.parse(text) as Record<string, unknown>) : {});
const isoTime = (text: string | null): string => (text ? `${text.replace(' ', 'T')}Z` : '');

/**
 * Every distinct id that now points at each person (PostHog lists them all, not only those seen
 * by the insight). A distinct id's latest mapping decides: one that moved to another person by a
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
