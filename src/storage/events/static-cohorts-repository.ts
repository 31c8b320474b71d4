// Static cohorts' persons in the event store (static_cohort_people): who is in, added and removed
// by person, and the persons a CSV's distinct ids or emails name. Rows are versioned; the latest
// version of a (cohort, person) says whether they are in, as for persons and mappings.
import type { EventStore } from './event-store.js';
import { TABLES } from './tables.js';

/** A process-wide increasing version: two changes within one millisecond still order. */
let lastVersion = 0;
function nextVersion(): number {
  lastVersion = Math.max(Date.now() * 1000, lastVersion + 1);
  return lastVersion;
}

export class StaticCohortsRepository {
  constructor(private readonly store: EventStore) {}

  private get table(): string {
    return `${this.store.layout.database}.${TABLES.staticCohortPeople}`;
  }

  /** Puts these persons in (true) or out (false) of the cohort. */
  async set(teamId: number, cohortId: number, personIds: readonly string[], member: boolean): Promise<void> {
    const version = nextVersion();
    const rows = personIds.map((person_id) => ({ team_id: teamId, cohort_id: cohortId, person_id, version, is_deleted: !member }));
    for (let at = 0; at < rows.length; at += 50_000) await this.store.insert(TABLES.staticCohortPeople, rows.slice(at, at + 50_000), { lane: 'persons' });
  }

  /** Puts every person a statement lists (column `person_id`) in the cohort, inside the store. */
  async copyIn(teamId: number, cohortId: number, members: { sql: string; params: Record<string, unknown> }): Promise<void> {
    await this.store.command(
      `INSERT INTO ${this.table} (team_id, cohort_id, person_id, version, is_deleted)
       SELECT {copy_team:UInt64}, {copy_cohort:UInt64}, person_id, {copy_version:UInt64}, false FROM (${members.sql})`,
      { ...members.params, copy_team: teamId, copy_cohort: cohortId, copy_version: nextVersion() },
    );
  }

  /** How many live persons the cohort holds now. */
  async count(teamId: number, cohortId: number): Promise<number> {
    const [row] = await this.store.query<{ members: string }>(
      `SELECT count() AS members FROM (
         SELECT person_id FROM ${this.table} WHERE team_id = {team:UInt64} AND cohort_id = {cohort:UInt64}
         GROUP BY person_id HAVING argMax(is_deleted, version) = false
       ) AS members
       WHERE person_id IN (
         SELECT id FROM ${this.store.layout.database}.${TABLES.persons} WHERE team_id = {team:UInt64}
         GROUP BY id HAVING argMax(is_deleted, version) = false
       )`,
      { team: teamId, cohort: cohortId },
    );
    return Number(row?.members ?? 0);
  }

  /** Which of these persons the cohort holds now. */
  async membersAmong(teamId: number, cohortId: number, personIds: readonly string[]): Promise<string[]> {
    const rows = await this.store.query<{ person: string }>(
      `SELECT toString(person_id) AS person FROM ${this.table}
       WHERE team_id = {team:UInt64} AND cohort_id = {cohort:UInt64} AND person_id IN {ids:Array(UUID)}
       GROUP BY person_id HAVING argMax(is_deleted, version) = false`,
      { team: teamId, cohort: cohortId, ids: personIds },
    );
    return rows.map((r) => r.person);
  }

  /** The live persons among these ids (text UUIDs, lower case), as the persons table knows them. */
  existingPersons(teamId: number, personIds: readonly string[]): Promise<string[]> {
    return this.persons(teamId, 'id IN {values:Array(UUID)}', personIds);
  }

  /** The current persons of these distinct ids. */
  async personsOfDistinctIds(teamId: number, distinctIds: readonly string[]): Promise<string[]> {
    if (distinctIds.length === 0) return [];
    const rows = await this.store.query<{ person: string }>(
      `SELECT DISTINCT toString(person) AS person FROM (
         SELECT argMax(person_id, version) AS person, argMax(is_deleted, version) AS gone
         FROM ${this.store.layout.database}.${TABLES.personDistinctIds}
         WHERE team_id = {team:UInt64} AND distinct_id IN {values:Array(String)}
         GROUP BY distinct_id
       ) WHERE NOT gone`,
      { team: teamId, values: distinctIds },
    );
    return this.existingPersons(teamId, rows.map((r) => r.person));
  }

  /** The persons whose current `email` property is one of these. */
  personsWithEmails(teamId: number, emails: readonly string[]): Promise<string[]> {
    return this.persons(teamId, "JSONExtractString(latest_properties, 'email') IN {values:Array(String)}", emails);
  }

  private async persons(teamId: number, condition: string, values: readonly string[]): Promise<string[]> {
    if (values.length === 0) return [];
    // The output is named apart from `id`: ClickHouse would read a same-named alias in the WHERE.
    const rows = await this.store.query<{ person: string }>(
      `SELECT toString(id) AS person FROM (
         SELECT id, argMax(properties, version) AS latest_properties, argMax(is_deleted, version) AS gone
         FROM ${this.store.layout.database}.${TABLES.persons}
         WHERE team_id = {team:UInt64}
         GROUP BY id
       ) WHERE NOT gone AND ${condition}`,
      { team: teamId, values },
    );
    return rows.map((r) => r.person);
  }
}
