// Writes and housekeeping for the events table. Reads for insights live in the query engine.
import type { EventStore } from './event-store.js';
import { sessionEvents, sessionStatesSelect } from './migrations/0004_sessions.js';
import { Ddl, TABLES } from './tables.js';
import { readInChunks } from './in-chunks.js';

/** One row of the events table, as inserted. */
export interface EventRow {
  uuid: string;
  team_id: number;
  event: string;
  distinct_id: string;
  person_id: string;
  /**
   * The JSON text to store, or the object itself: the insert reads a JSON object into this String
   * column as its text (`input_format_json_read_objects_as_strings`), byte for byte what
   * JSON.stringify makes, so the properties are serialised once instead of twice and escaped.
   */
  properties: string | Record<string, unknown>;
  timestamp: string;
  created_at: string;
  $session_id: string;
  $group_0: string;
  $group_1: string;
  $group_2: string;
  $group_3: string;
  $group_4: string;
  elements_chain: string;
  historical_migration: boolean;
}

export class EventsRepository {
  constructor(private readonly store: EventStore) {}

  /** Which of these uuids the project already has (retries and replays are stored once). */
  async existingUuids(teamId: number, uuids: readonly string[]): Promise<Set<string>> {
    if (uuids.length === 0) return new Set();
    // The alias must not be `uuid`: ClickHouse would compare the string alias in WHERE.
    const rows = await readInChunks(uuids, (part) =>
      this.store.query<{ stored_uuid: string }>(
        `SELECT DISTINCT toString(uuid) AS stored_uuid FROM ${this.store.layout.database}.${TABLES.eventUuids}
         WHERE team_id = {team:UInt64} AND uuid IN {uuids:Array(UUID)}`,
        { team: teamId, uuids: part },
        { lane: 'ingest' },
      ),
    );
    return new Set(rows.map((r) => r.stored_uuid));
  }

  insert(rows: readonly EventRow[]): Promise<void> {
    return this.store.insert(TABLES.events, rows);
  }

  /**
   * Adds the session states of stored events again (`days` narrows the read to their UTC days).
   * The sessions view writes after the uuid index, so a write that failed between the two leaves
   * events that its retry skips as stored but no session counts; states are idempotent, so
   * events already counted count once.
   */
  async restoreSessions(teamId: number, uuids: readonly string[], days: readonly string[]): Promise<void> {
    if (uuids.length === 0) return;
    const db = this.store.layout.database;
    const stored = sessionEvents(`${db}.${TABLES.events}`, 'team_id = {team:UInt64} AND toDate(timestamp) IN {days:Array(Date)} AND uuid IN {uuids:Array(UUID)}');
    await readInChunks(uuids, async (part) => {
      await this.store.command(`INSERT INTO ${db}.${TABLES.sessions} ${sessionStatesSelect(stored)}`, { team: teamId, days, uuids: part }, { lane: 'ingest' });
      return [];
    });
  }

  /** Deletes everything a project owns in the event store. */
  async deleteTeam(teamId: number): Promise<void> {
    const ddl = new Ddl(this.store.layout);
    const tables = [
      TABLES.events,
      TABLES.eventUuids,
      TABLES.persons,
      TABLES.personDistinctIds,
      TABLES.personDistinctIdOverrides,
      TABLES.groups,
      TABLES.groupTypes,
      TABLES.staticCohortPeople,
      TABLES.sessions,
      // Recordings' summary rows; their blocks are removed beside (services.ts).
      TABLES.sessionReplayEvents,
    ];
    for (const table of tables) {
      await this.store.command(
        `ALTER TABLE ${ddl.db}.${ddl.storageName(table)}${ddl.onCluster} DELETE WHERE team_id = {team:UInt64}`,
        { team: teamId },
        // One node waits so the data is gone when the project is; a cluster finishes in the background.
        { settings: { mutations_sync: this.store.layout.cluster ? '0' : '1' } },
      );
    }
  }
}
