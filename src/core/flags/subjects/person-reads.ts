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

export class FlagPersonReads {
  constructor(
    private readonly store: EventStore,
    private readonly persons: PersonsRepository,
  ) {}

  /**
   * The person a distinct id points at now, or null (never seen, or only anonymous events). One
   * statement (mapping and person together): a cold read is the cost of a /flags/ cache miss.
   */
  async personOf(teamId: number, distinctId: string): Promise<StoredPerson | null> {
    const db = this.store.layout.database;
    const [row] = await this.store.query<{ id: string; properties: string }>(
      `SELECT toString(id) AS id, latest_properties AS properties FROM (
         SELECT id, argMax(properties, version) AS latest_properties, argMax(is_deleted, version) AS gone
         FROM ${db}.${TABLES.persons}
         WHERE team_id = {team:UInt64} AND id IN (
           SELECT argMax(person_id, version) FROM ${db}.${TABLES.personDistinctIds}
           WHERE team_id = {team:UInt64} AND distinct_id = {distinct:String}
           GROUP BY distinct_id HAVING NOT argMax(is_deleted, version)
         )
         GROUP BY id
       ) WHERE NOT gone`,
      { team: teamId, distinct: distinctId },
      { lane: 'ingest' },
    );
    return row ? { id: row.id, properties: parseProperties(row.properties) } : null;
  }

  /** The current persons of these distinct ids (those that have one). */
  async personIdsOf(teamId: number, distinctIds: readonly string[]): Promise<string[]> {
    const mappings = await this.persons.distinctIds(teamId, distinctIds);
    return [...new Set(mappings.map((m) => m.person_id))];
  }

  /** The static cohorts holding this person now. */
  async staticCohortsOf(teamId: number, personId: string): Promise<number[]> {
    const rows = await this.store.query<{ cohort: string | number }>(
      `SELECT cohort_id AS cohort FROM ${this.store.layout.database}.${TABLES.staticCohortPeople}
       WHERE team_id = {team:UInt64} AND person_id = {person:UUID}
       GROUP BY cohort_id HAVING argMax(is_deleted, version) = false`,
      { team: teamId, person: personId },
      { lane: 'ingest' },
    );
    return rows.map((r) => Number(r.cohort));
  }

  async groupTypes(teamId: number): Promise<Map<string, number>> {
    const rows = await this.persons.groupTypes(teamId);
    return new Map(rows.map((r) => [r.group_type, r.group_type_index]));
  }

  /** A group's stored properties ({} for a group capture has not seen). */
  async groupProperties(teamId: number, groupTypeIndex: number, key: string): Promise<Record<string, unknown>> {
    const [group] = await this.persons.groups(teamId, groupTypeIndex, [key]);
    return group ? parseProperties(group.properties) : {};
  }
}

function parseProperties(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
