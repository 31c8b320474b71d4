// The actors behind a number, for every kind: given a statement of matching actors (an `actor`
// column plus whatever the kind adds), one ordered page of them with their details. Actors are
// persons (id, every distinct id now pointing at them, properties, created_at) or, when the
// insight aggregates by a group type, groups (PostHog's group actors: key, type, properties).
import { alias, and, asc, binary, call, constant, eq, field, leftJoin, not, select, subquery } from '../ast/build.js';
import { latestGroups, latestMappings, latestPersons } from '../catalog/latest.js';
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
  const prefix = groupIndex === undefined ? 'person' : 'group';
  const details = groupIndex === undefined ? latestPersons(['properties', 'created_at']) : latestGroups(groupIndex, ['properties', 'created_at']);
  const rows = await run.rows<ActorRow>(select({
    select: [
      alias(call('toString', field('actor', 'fp')), 'id'),
      alias(field(`${prefix}_properties`, 'details'), 'properties'),
      alias(call('toString', field(`${prefix}_created_at`, 'details')), 'created_at'),
      ...extraColumns,
    ],
    from: subquery(matching, 'fp'),
    joins: [leftJoin(subquery(details, 'details'), eq(field(`${prefix}_key`, 'details'), field('actor', 'fp')))],
    orderBy: [...(options.orderBy ?? []), asc(field('actor', 'fp'))],
    // One row more than the page tells whether there is a next one.
    limit: options.limit + 1,
    offset: options.offset,
  }));
  const page = rows.slice(0, options.limit);
  const hasMore = rows.length > options.limit;
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

/** Persons by id as PostHog's persons listing shows them (is_identified too); an id with no live person is absent. */
export async function personsById(run: QueryRun, personIds: readonly string[]): Promise<Map<string, PersonActor & { is_identified: boolean }>> {
  if (personIds.length === 0) return new Map();
  const ids = constant([...new Set(personIds)], 'Array(String)');
  const [rows, distinctIds] = await Promise.all([
    run.rows<{ id: string; properties: string | null; created_at: string | null; is_identified: boolean | number }>(select({
      select: [
        alias(call('toString', field('person_key')), 'id'),
        alias(field('person_properties'), 'properties'),
        alias(call('toString', field('person_created_at')), 'created_at'),
        alias(field('person_is_identified'), 'is_identified'),
      ],
      from: subquery(latestPersons(['properties', 'created_at', 'is_identified']), 'people'),
      where: binary('IN', call('toString', field('person_key')), ids),
    })),
    personDistinctIds(run, personIds),
  ]);
  return new Map(rows.map((r) => [r.id, {
    id: r.id,
    distinct_ids: distinctIds.get(r.id) ?? [],
    properties: parseProperties(r.properties),
    is_identified: Boolean(r.is_identified),
    created_at: isoTime(r.created_at),
  }]));
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
  const rows = await run.rows<{ person: string; distinct_ids: string[] }>(select({
    select: [alias(field('mapped_person'), 'person'), alias(call('arraySort', call('groupArray', field('mapped_distinct_id'))), 'distinct_ids')],
    from: subquery(latestMappings(ids), 'latest'),
    where: and(not(field('mapped_deleted')), binary('IN', field('mapped_person'), ids)),
    groupBy: [field('mapped_person')],
  }));
  return new Map(rows.map((r) => [r.person, r.distinct_ids]));
}
