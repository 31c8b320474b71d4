// Persons, their distinct ids, merge overrides, groups and group types: the state person
// processing reads and the rows it appends (ReplacingMergeTree keeps the highest version).
import type { EventStore, QueryParams } from './event-store.js';
import { TABLES } from './tables.js';
import { readInChunks } from './in-chunks.js';

export interface PersonRow {
  id: string;
  team_id: number;
  properties: string;
  is_identified: boolean;
  created_at: string;
  version: number;
  is_deleted: boolean;
}

export interface DistinctIdRow {
  team_id: number;
  distinct_id: string;
  person_id: string;
  version: number;
  is_deleted: boolean;
}

export interface GroupRow {
  team_id: number;
  group_type_index: number;
  group_key: string;
  properties: string;
  created_at: string;
  version: number;
}

export interface GroupTypeRow {
  team_id: number;
  group_type: string;
  group_type_index: number;
  created_at: string;
}

export class PersonsRepository {
  constructor(private readonly store: EventStore) {}

  private get db(): string {
    return this.store.layout.database;
  }

  /** Every read here serves capture, so it takes the ingest lane (never behind a slow insight). */
  private read<Row>(sql: string, params: QueryParams): Promise<Row[]> {
    return this.store.query<Row>(sql, params, { lane: 'ingest' });
  }

  /** The current person of each of these distinct ids that has one. */
  async distinctIds(teamId: number, distinctIds: readonly string[]): Promise<DistinctIdRow[]> {
    if (distinctIds.length === 0) return [];
    return this.numeric(
      await readInChunks(distinctIds, (ids) => this.read<DistinctIdRow>(this.latestMappings('AND distinct_id IN {ids:Array(String)}', ''), { team: teamId, ids })),
    );
  }

  /**
   * The latest row of each of these distinct ids, deleted ones too (is_deleted true, person_id the
   * deleted person): a deleted id's next person takes a version above its tombstone and a new id.
   */
  async distinctIdsWithTombstones(teamId: number, distinctIds: readonly string[]): Promise<DistinctIdRow[]> {
    if (distinctIds.length === 0) return [];
    const rows = await readInChunks(distinctIds, (ids) =>
      this.read<DistinctIdRow>(this.latestMappings('AND distinct_id IN {ids:Array(String)}', '', true), { team: teamId, ids }));
    return this.numeric(rows).map((row) => ({ ...row, is_deleted: Boolean(row.is_deleted) }));
  }

  /** Every distinct id currently pointing at one of these persons (needed to move them on a merge). */
  async distinctIdsOfPersons(teamId: number, personIds: readonly string[]): Promise<DistinctIdRow[]> {
    if (personIds.length === 0) return [];
    return this.numeric(
      await readInChunks(personIds, (ids) => this.read<DistinctIdRow>(this.latestMappings('', 'AND latest_person IN {ids:Array(UUID)}'), { team: teamId, ids })),
    );
  }

  // Aggregates get names of their own: ClickHouse would read `argMax(x, version) AS version`
  // as an aggregate inside an aggregate.
  private latestMappings(rowFilter: string, latestFilter: string, withTombstones = false): string {
    return `SELECT {team:UInt64} AS team_id, distinct_id, toString(latest_person) AS person_id, latest_version AS version,
              latest_deleted AS is_deleted
       FROM (
         SELECT distinct_id, argMax(person_id, version) AS latest_person, max(version) AS latest_version,
                argMax(is_deleted, version) AS latest_deleted
         FROM ${this.db}.${TABLES.personDistinctIds}
         WHERE team_id = {team:UInt64} ${rowFilter}
         GROUP BY distinct_id
       )
       WHERE ${withTombstones ? 'true' : 'NOT latest_deleted'} ${latestFilter}`;
  }

  async persons(teamId: number, personIds: readonly string[]): Promise<PersonRow[]> {
    if (personIds.length === 0) return [];
    return this.numeric(
      await readInChunks(personIds, (ids) => this.read<PersonRow>(
        `SELECT toString(id) AS id, {team:UInt64} AS team_id, latest_properties AS properties,
                latest_identified AS is_identified, first_created AS created_at, latest_version AS version,
                false AS is_deleted
         FROM (
           SELECT id, argMax(properties, version) AS latest_properties, argMax(is_identified, version) AS latest_identified,
                  min(created_at) AS first_created, max(version) AS latest_version, argMax(is_deleted, version) AS latest_deleted
           FROM ${this.db}.${TABLES.persons}
           WHERE team_id = {team:UInt64} AND id IN {ids:Array(UUID)}
           GROUP BY id
         )
         WHERE NOT latest_deleted`,
        { team: teamId, ids },
      )),
    );
  }

  async groupTypes(teamId: number): Promise<GroupTypeRow[]> {
    // Outputs are renamed outside the filtering query: a `team_id` alias there would shadow the column.
    const rows = await this.read<GroupTypeRow>(
      `SELECT {team:UInt64} AS team_id, group_type, first_index AS group_type_index, first_created AS created_at
       FROM (
         SELECT group_type, min(group_type_index) AS first_index, min(created_at) AS first_created
         FROM ${this.db}.${TABLES.groupTypes} WHERE team_id = {team:UInt64}
         GROUP BY group_type
       )
       ORDER BY group_type_index`,
      { team: teamId },
    );
    return rows.map((r) => ({ ...r, team_id: Number(r.team_id), group_type_index: Number(r.group_type_index) }));
  }

  async groups(teamId: number, groupTypeIndex: number, keys: readonly string[]): Promise<GroupRow[]> {
    if (keys.length === 0) return [];
    const rows = await readInChunks(keys, (part) => this.read<GroupRow>(
      `SELECT {team:UInt64} AS team_id, {index:UInt8} AS group_type_index, group_key, latest_properties AS properties,
              first_created AS created_at, latest_version AS version
       FROM (
         SELECT group_key, argMax(properties, version) AS latest_properties, min(created_at) AS first_created,
                max(version) AS latest_version
         FROM ${this.db}.${TABLES.groups}
         WHERE team_id = {team:UInt64} AND group_type_index = {index:UInt8} AND group_key IN {keys:Array(String)}
         GROUP BY group_key
       )`,
      { team: teamId, index: groupTypeIndex, keys: part },
    ));
    return rows.map((r) => ({ ...r, team_id: Number(r.team_id), group_type_index: Number(r.group_type_index), version: Number(r.version) }));
  }

  /** Appends new versions, on their own lane; the writer runs it after the events they come from. */
  async write(rows: PersonWrites): Promise<void> {
    await this.store.insert(TABLES.groupTypes, rows.groupTypes, { lane: 'persons' });
    await this.store.insert(TABLES.groups, rows.groups, { lane: 'persons' });
    await this.store.insert(TABLES.persons, rows.persons, { lane: 'persons' });
    await this.store.insert(TABLES.personDistinctIds, rows.distinctIds, { lane: 'persons' });
    await this.store.insert(TABLES.personDistinctIdOverrides, rows.overrides, { lane: 'persons' });
  }

  // UInt64 values arrive as strings in JSON; versions and team ids stay far below 2^53.
  private numeric<T extends { team_id: number; version: number }>(rows: T[]): T[] {
    return rows.map((r) => ({ ...r, team_id: Number(r.team_id), version: Number(r.version) }));
  }
}

export interface PersonWrites {
  persons: PersonRow[];
  distinctIds: DistinctIdRow[];
  overrides: DistinctIdRow[];
  groups: GroupRow[];
  groupTypes: GroupTypeRow[];
}
