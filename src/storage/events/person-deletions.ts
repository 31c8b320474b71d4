// Deleting persons (PostHog's person delete and bulk_delete, issue 32). A person goes as PostHog's
// do: a tombstone row (is_deleted, version + 100) for the person and for each of its distinct ids,
// so every read that takes the latest version stops seeing them at once; the older rows, which
// hold the properties, go by a lightweight DELETE (masked at once, the bytes gone at the parts'
// next merge). A distinct id's tombstone also ends its merge override, so events sent later under
// it belong to the new person they make. With delete_events, the events of the person's ids (and
// their uuid index rows and sessions) go by lightweight DELETE as well. A masked row's bytes stay
// in its part until a merge rewrites it, and a month's fully merged part may not be merged again:
// so each deletion also asks ClickHouse to rewrite the parts it masked (APPLY DELETED MASK, a
// background mutation), after which the rows are physically gone (docs/operating.md).
import type { EventStore, QueryOptions } from './event-store.js';
import type { DistinctIdRow, PersonRow } from './persons-repository.js';
import { StaticCohortsRepository } from './static-cohorts-repository.js';
import { Ddl, TABLES } from './tables.js';

/** PostHog's gap: a tombstone outranks any version capture could have written meanwhile. */
export const TOMBSTONE_VERSION_STEP = 100;

/** Deleting a large person's events may run long: far past a query's time limit. */
const OPTIONS: QueryOptions = { timeoutSeconds: 3600 };

export interface DeletedPersons {
  persons: PersonRow[];
  distinctIds: DistinctIdRow[];
  overrides: DistinctIdRow[];
}

export class PersonDeletionsRepository {
  private readonly ddl: Ddl;

  constructor(private readonly store: EventStore) {
    this.ddl = new Ddl(store.layout);
  }

  private local(table: string): string {
    return `${this.ddl.db}.${this.ddl.storageName(table)}`;
  }

  /** The tombstones of these persons and of every distinct id now pointing at them. */
  tombstones(persons: readonly PersonRow[], mappings: readonly DistinctIdRow[]): DeletedPersons {
    const personRows = persons.map((p) => ({ ...p, properties: '{}', version: p.version + TOMBSTONE_VERSION_STEP, is_deleted: true }));
    const idRows = mappings.map((m) => ({ ...m, version: m.version + TOMBSTONE_VERSION_STEP, is_deleted: true }));
    return { persons: personRows, distinctIds: idRows, overrides: idRows };
  }

  /** Writes the tombstones, then takes out the older rows of those persons (their properties). */
  async write(teamId: number, rows: DeletedPersons): Promise<void> {
    await this.store.insert(TABLES.persons, rows.persons, { lane: 'persons' });
    await this.store.insert(TABLES.personDistinctIds, rows.distinctIds, { lane: 'persons' });
    await this.store.insert(TABLES.personDistinctIdOverrides, rows.overrides, { lane: 'persons' });
    if (rows.persons.length === 0) return;
    await this.command(
      `DELETE FROM ${this.local(TABLES.persons)}${this.ddl.onCluster}
       WHERE team_id = {team:UInt64} AND id IN {ids:Array(UUID)} AND NOT is_deleted`,
      { team: teamId, ids: rows.persons.map((p) => p.id) },
    );
    await this.rewriteMasked(TABLES.persons, []);
  }

  /**
   * Takes these persons out of every static cohort that holds them (PostHog's cohort rows go with
   * the person); the cohorts and their member counts now.
   */
  async leaveStaticCohorts(teamId: number, personIds: readonly string[]): Promise<{ cohortId: number; count: number }[]> {
    if (personIds.length === 0) return [];
    const rows = await this.store.query<{ cohort: string; person: string }>(
      `SELECT cohort_id AS cohort, toString(person_id) AS person FROM ${this.ddl.db}.${TABLES.staticCohortPeople}
       WHERE team_id = {team:UInt64} AND person_id IN {ids:Array(UUID)}
       GROUP BY cohort_id, person_id HAVING argMax(is_deleted, version) = false`,
      { team: teamId, ids: personIds },
      { ...OPTIONS, lane: 'persons' },
    );
    const byCohort = new Map<number, string[]>();
    for (const row of rows) byCohort.set(Number(row.cohort), [...(byCohort.get(Number(row.cohort)) ?? []), row.person]);
    const cohorts = new StaticCohortsRepository(this.store);
    const counts: { cohortId: number; count: number }[] = [];
    for (const [cohortId, members] of byCohort) {
      await cohorts.set(teamId, cohortId, members, false);
      counts.push({ cohortId, count: await cohorts.count(teamId, cohortId) });
    }
    return counts;
  }

  /**
   * Every event of these distinct ids or persons: their sessions first (found through the events),
   * then the uuid index rows (a re-sent event is stored again), then the events.
   */
  /**
   * The person ids the stored events of these distinct ids and persons carry (their own, and the
   * ones merged into them before the merge): once their persons are tombstoned, a new event of a
   * deleted distinct id carries a new person id, so these name exactly the events to delete.
   */
  async personIdsOfEvents(teamId: number, distinctIds: readonly string[], personIds: readonly string[]): Promise<string[]> {
    if (distinctIds.length === 0 && personIds.length === 0) return [];
    const rows = await this.store.query<{ person_id: string }>(
      `SELECT DISTINCT person_id FROM ${this.local(TABLES.events)}
       WHERE team_id = {team:UInt64} AND (distinct_id IN {dids:Array(String)} OR person_id IN {pids:Array(UUID)})`,
      { team: teamId, dids: distinctIds, pids: personIds },
      // On the persons lane: a query-lane read would wait for capture, which may be paused for the deletion.
      { ...OPTIONS, lane: 'persons' },
    );
    return rows.map((row) => row.person_id);
  }

  /**
   * Deletes the events of these distinct ids or persons (that carry one of `carried`, when given:
   * personIdsOfEvents read before the tombstones, so events captured after them, with new persons,
   * stay and the DELETE can run while capture writes on).
   */
  async deleteEvents(teamId: number, distinctIds: readonly string[], personIds: readonly string[], carried?: readonly string[]): Promise<void> {
    if ((distinctIds.length === 0 && personIds.length === 0) || carried?.length === 0) return;
    const params = { team: teamId, dids: distinctIds, pids: personIds, carried: carried ?? [] };
    const theirs = `team_id = {team:UInt64} AND (distinct_id IN {dids:Array(String)} OR person_id IN {pids:Array(UUID)})${carried ? ' AND person_id IN {carried:Array(UUID)}' : ''}`;
    // On the persons lane: a query-lane read would wait for capture, which waits for this deletion.
    const partitions = await this.store.query<{ partition: string }>(
      `SELECT DISTINCT _partition_id AS partition FROM ${this.local(TABLES.events)} WHERE ${theirs}`,
      params,
      { ...OPTIONS, lane: 'persons' },
    );
    await this.command(
      `DELETE FROM ${this.local(TABLES.sessions)}${this.ddl.onCluster}
       WHERE team_id = {team:UInt64} AND session_id IN (
         SELECT \`$session_id\` FROM ${this.local(TABLES.events)} WHERE ${theirs} AND \`$session_id\` != '')`,
      params,
    );
    await this.command(
      `DELETE FROM ${this.local(TABLES.eventUuids)}${this.ddl.onCluster}
       WHERE team_id = {team:UInt64} AND uuid IN (SELECT uuid FROM ${this.local(TABLES.events)} WHERE ${theirs})`,
      params,
    );
    await this.command(`DELETE FROM ${this.local(TABLES.events)}${this.ddl.onCluster} WHERE ${theirs}`, params);
    await this.rewriteMasked(TABLES.events, partitions.map((row) => row.partition));
    await this.rewriteMasked(TABLES.eventUuids, []);
    await this.rewriteMasked(TABLES.sessions, []);
  }

  /**
   * Asks ClickHouse to rewrite the parts holding masked rows (in these partitions, or all), in the
   * background: the statement returns at once, the mutation runs in the engine's pool.
   */
  private async rewriteMasked(table: string, partitions: readonly string[]): Promise<void> {
    const clauses = partitions.length === 0 ? [''] : partitions.filter((p) => /^\d{6}$/.test(p)).map((p) => ` IN PARTITION ID '${p}'`);
    for (const clause of clauses) {
      await this.store.command(`ALTER TABLE ${this.local(table)}${this.ddl.onCluster} APPLY DELETED MASK${clause}`, {}, { ...OPTIONS, settings: { mutations_sync: '0' } });
    }
  }

  private command(sql: string, params: Record<string, unknown>): Promise<void> {
    // One node waits until the rows are masked (reads exclude them when this returns); a cluster's
    // other replicas catch up in the background.
    const sync = this.store.layout.cluster ? '1' : '2';
    return this.store.command(sql, params, { ...OPTIONS, settings: { lightweight_deletes_sync: sync, mutations_sync: sync } });
  }
}
