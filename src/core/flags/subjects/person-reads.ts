// What flag evaluation reads of one distinct id from the event store: its person (merges
// included: the distinct id's current mapping), the static cohorts that person is in, and the
// groups a request names. Every read takes the ingest lane, so /flags/ never waits behind an
// insight.
import type { EventStore } from '../../../storage/events/event-store.js';
import type { PersonsRepository } from '../../../storage/events/persons-repository.js';
import { TABLES } from '../../../storage/events/tables.js';

export interface StoredPerson {
  id: string;
  properties: Record<string, unknown>;
}

/** A person as the warm-up reads it: properties as stored (parsed on first use), with its distinct ids. */
export interface WarmPerson {
  id: string;
  properties: string;
  distinctIds: string[];
}

export class FlagPersonReads {
  constructor(
    private readonly store: EventStore,
    private readonly persons: PersonsRepository,
  ) {}

  /**
   * The persons these distinct ids point at now, by distinct id (absent: never seen, or only
   * anonymous events). One statement (mappings and persons together) for the whole list: a cold
   * read is the cost of a /flags/ cache miss, shared by the requests of a tick (TickBatcher).
   */
  async personsOf(teamId: number, distinctIds: readonly string[]): Promise<Map<string, StoredPerson>> {
    const found = new Map<string, StoredPerson>();
    if (distinctIds.length === 0) return found;
    const db = this.store.layout.database;
    const rows = await this.store.query<{ distinct_id: string; id: string; properties: string }>(
      `SELECT m.distinct_id AS distinct_id, toString(p.id) AS id, p.latest_properties AS properties
       FROM (
         SELECT distinct_id, argMax(person_id, version) AS person_id FROM ${db}.${TABLES.personDistinctIds}
         WHERE team_id = {team:UInt64} AND distinct_id IN {ids:Array(String)}
         GROUP BY distinct_id HAVING NOT argMax(is_deleted, version)
       ) AS m
       INNER JOIN (
         SELECT id, argMax(properties, version) AS latest_properties FROM ${db}.${TABLES.persons}
         WHERE team_id = {team:UInt64} AND id IN (
           SELECT person_id FROM ${db}.${TABLES.personDistinctIds}
           WHERE team_id = {team:UInt64} AND distinct_id IN {ids:Array(String)}
         )
         GROUP BY id HAVING NOT argMax(is_deleted, version)
       ) AS p ON p.id = m.person_id`,
      { team: teamId, ids: distinctIds },
      { lane: 'ingest' },
    );
    for (const row of rows) found.set(row.distinct_id, { id: row.id, properties: parseProperties(row.properties) });
    return found;
  }

  /**
   * One page of the project's live persons, the most recently created first, each with the
   * distinct ids that point at it now (none: a person no id points at). For the warm-up; a short
   * page is the last.
   */
  async personsPage(teamId: number, offset: number, limit: number): Promise<WarmPerson[]> {
    const db = this.store.layout.database;
    const rows = await this.store.query<{ id: string; properties: string; distinct_ids: string[] }>(
      `SELECT toString(p.id) AS id, any(p.latest_properties) AS properties, groupArrayIf(m.distinct_id, m.distinct_id != '') AS distinct_ids
       FROM (
         SELECT id, argMax(properties, version) AS latest_properties, max(created_at) AS created FROM ${db}.${TABLES.persons}
         WHERE team_id = {team:UInt64}
         GROUP BY id HAVING NOT argMax(is_deleted, version)
         ORDER BY created DESC, id LIMIT {limit:UInt64} OFFSET {offset:UInt64}
       ) AS p
       LEFT JOIN (
         SELECT distinct_id, argMax(person_id, version) AS person_id FROM ${db}.${TABLES.personDistinctIds}
         WHERE team_id = {team:UInt64}
         GROUP BY distinct_id HAVING NOT argMax(is_deleted, version)
       ) AS m ON m.person_id = p.id
       GROUP BY p.id`,
      { team: teamId, offset, limit },
      { lane: 'ingest' },
    );
    return rows.map((row) => ({ id: row.id, properties: row.properties, distinctIds: row.distinct_ids }));
  }

  /** The current persons of these distinct ids (those that have one). */
  async personIdsOf(teamId: number, distinctIds: readonly string[]): Promise<string[]> {
    const mappings = await this.persons.distinctIds(teamId, distinctIds);
    return [...new Set(mappings.map((m) => m.person_id))];
  }

  /** The static cohorts holding each of these persons now (persons in none are absent). */
  async staticCohortsOf(teamId: number, personIds: readonly string[]): Promise<Map<string, number[]>> {
    const cohorts = new Map<string, number[]>();
    if (personIds.length === 0) return cohorts;
    const rows = await this.store.query<{ person: string; cohort: string | number }>(
      `SELECT toString(person_id) AS person, cohort_id AS cohort FROM ${this.store.layout.database}.${TABLES.staticCohortPeople}
       WHERE team_id = {team:UInt64} AND person_id IN {persons:Array(UUID)}
       GROUP BY person_id, cohort_id HAVING argMax(is_deleted, version) = false`,
      { team: teamId, persons: personIds },
      { lane: 'ingest' },
    );
    for (const row of rows) {
      const list = cohorts.get(row.person);
      if (list) list.push(Number(row.cohort));
      else cohorts.set(row.person, [Number(row.cohort)]);
    }
    return cohorts;
  }

  async groupTypes(teamId: number): Promise<Map<string, number>> {
    const rows = await this.persons.groupTypes(teamId);
    return new Map(rows.map((r) => [r.group_type, r.group_type_index]));
  }

  /** These groups' stored properties, by key (absent: a group capture has not seen). */
  async groupProperties(teamId: number, groupTypeIndex: number, keys: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
    const groups = await this.persons.groups(teamId, groupTypeIndex, keys);
    return new Map(groups.map((group) => [group.group_key, parseProperties(group.properties)]));
  }
}

export function parseProperties(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
