// Removing recordings (issue 33): a session's blocks of rrweb data (data directory or object storage) and its
// summary rows in session_replay_events (a lightweight DELETE: reads stop seeing them at once).
// Used by the recordings' retention job and by person deletion (a person's recordings go with them).
import type { EventStore } from '../../storage/events/event-store.js';
import { Ddl, TABLES } from '../../storage/events/tables.js';
import type { RecordingBlocks } from './block-store.js';

export class RecordingRemovals {
  private readonly ddl: Ddl;

  constructor(
    private readonly store: EventStore,
    private readonly blocks: RecordingBlocks,
  ) {
    this.ddl = new Ddl(store.layout);
  }

  private get table(): string {
    return `${this.store.layout.database}.${TABLES.sessionReplayEvents}`;
  }

  /** Sessions of the project whose last recorded moment is before `cutoff`. */
  async endedBefore(teamId: number, cutoff: Date): Promise<string[]> {
    const rows = await this.store.query<{ session_id: string }>(
      `SELECT session_id FROM ${this.table} WHERE team_id = {team:UInt64}
       GROUP BY session_id HAVING max(max_last_timestamp) < toDateTime64({cutoff:String}, 6, 'UTC')`,
      { team: teamId, cutoff: cutoff.toISOString().slice(0, 23).replace('T', ' ') },
      { lane: 'persons' },
    );
    return rows.map((row) => row.session_id);
  }

  /** Sessions recorded under any of these distinct ids. */
  async ofDistinctIds(teamId: number, distinctIds: readonly string[]): Promise<string[]> {
    if (distinctIds.length === 0) return [];
    const rows = await this.store.query<{ session_id: string }>(
      `SELECT DISTINCT session_id FROM ${this.table} WHERE team_id = {team:UInt64} AND distinct_id IN {ids:Array(String)}`,
      { team: teamId, ids: distinctIds },
      { lane: 'persons' },
    );
    return rows.map((row) => row.session_id);
  }

  /**
   * Sessions with stored blocks but no summary row (its insert failed after the block was stored
   * and the request was never retried) whose newest block began before `cutoff`: the names of
   * blocks start with their first event's time, so no block is read.
   */
  async orphansBefore(teamId: number, cutoff: Date): Promise<string[]> {
    const old: string[] = [];
    for (const { sessionId, newestBlock } of await this.blocks.sessionsOf(teamId)) {
      const newest = Number(newestBlock.slice(0, 13));
      if (Number.isFinite(newest) && newest < cutoff.getTime()) old.push(sessionId);
    }
    if (old.length === 0) return [];
    const rows = await this.store.query<{ session_id: string }>(
      `SELECT DISTINCT session_id FROM ${this.table} WHERE team_id = {team:UInt64} AND session_id IN {ids:Array(String)}`,
      { team: teamId, ids: old },
      { lane: 'persons' },
    );
    const counted = new Set(rows.map((row) => row.session_id));
    return old.filter((sessionId) => !counted.has(sessionId));
  }

  /** Removes the summary rows first (lists stop showing them), then the blocks. */
  async remove(teamId: number, sessionIds: readonly string[]): Promise<number> {
    if (sessionIds.length === 0) return 0;
    const local = `${this.ddl.db}.${this.ddl.storageName(TABLES.sessionReplayEvents)}`;
    for (let i = 0; i < sessionIds.length; i += 1000) {
      await this.store.command(
        `DELETE FROM ${local}${this.ddl.onCluster} WHERE team_id = {team:UInt64} AND session_id IN {ids:Array(String)}`,
        { team: teamId, ids: sessionIds.slice(i, i + 1000) },
        { lane: 'persons' },
      );
    }
    for (const sessionId of sessionIds) await this.blocks.removeSession(teamId, sessionId);
    return sessionIds.length;
  }
}
