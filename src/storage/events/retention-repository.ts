// Removing a project's events older than its retention cutoff (issue 32). The events table is
// partitioned by month across every project, so a month's partition is dropped whole only when
// every project with events in it has let that month go; otherwise the project's rows go by a
// lightweight DELETE (masked at once, so reads stop seeing them when it returns; the bytes go at
// the parts' next merge). The uuid index rows and the sessions of the removed events go too.
// Every statement runs on the query lane under Hoglet's own turn: never on capture's lanes.
import type { EventStore, QueryOptions } from './event-store.js';
import { Ddl, TABLES } from './tables.js';

/** A month partition of the events table (`toYYYYMM(timestamp)`), as ClickHouse names it. */
export type PartitionId = string;

export interface ExpiredMonth {
  partition: PartitionId;
  events: number;
  /** The UTC days (yyyy-mm-dd) that hold the removed events: cached results over them go stale. */
  days: string[];
}

/** Statements here may run long (a month of a large project): far past a query's time limit. */
const OPTIONS: QueryOptions = { timeoutSeconds: 3600 };

/** Partition ids come from the store itself; checked anyway, since they are written into SQL. */
function partitionLiteral(partition: PartitionId): string {
  if (!/^\d{6}$/.test(partition)) throw new Error(`not a month partition: ${partition}`);
  return `'${partition}'`;
}

export class EventRetentionStore {
  private readonly ddl: Ddl;

  constructor(private readonly store: EventStore) {
    this.ddl = new Ddl(store.layout);
  }

  private local(table: string): string {
    return `${this.ddl.db}.${this.ddl.storageName(table)}`;
  }

  /** The months holding a project's events before the cutoff, with their counts and days. */
  async expiredMonths(teamId: number, cutoff: string): Promise<ExpiredMonth[]> {
    const rows = await this.store.query<{ partition: string; events: string; days: string[] }>(
      // The partition key's own expression rather than _partition_id: the same text, and it reads
      // through a cluster's Distributed table as well.
      `SELECT toString(toYYYYMM(timestamp)) AS partition, count() AS events, arraySort(groupUniqArray(toString(toDate(timestamp)))) AS days
       FROM ${this.ddl.db}.${TABLES.events}
       WHERE team_id = {team:UInt64} AND timestamp < {cutoff:DateTime64(6, 'UTC')}
       GROUP BY partition ORDER BY partition`,
      { team: teamId, cutoff },
      OPTIONS,
    );
    return rows.map((row) => ({ partition: row.partition, events: Number(row.events), days: row.days }));
  }

  /** Every project with events in a month. */
  async teamsIn(partition: PartitionId): Promise<number[]> {
    const rows = await this.store.query<{ team_id: string }>(
      `SELECT DISTINCT team_id FROM ${this.ddl.db}.${TABLES.events} WHERE toYYYYMM(timestamp) = ${partitionLiteral(partition)}`,
      {},
      OPTIONS,
    );
    return rows.map((row) => Number(row.team_id));
  }

  /** The uuid index rows of a project's events in a month before the cutoff (before those events go). */
  async forgetUuids(teamId: number, partition: PartitionId, cutoff: string): Promise<void> {
    await this.command(
      `DELETE FROM ${this.local(TABLES.eventUuids)}${this.ddl.onCluster}
       WHERE team_id = {team:UInt64} AND uuid IN (
         SELECT uuid FROM ${this.local(TABLES.events)}
         WHERE toYYYYMM(timestamp) = ${partitionLiteral(partition)} AND team_id = {team:UInt64} AND timestamp < {cutoff:DateTime64(6, 'UTC')})`,
      { team: teamId, cutoff },
    );
  }

  /** A project's events in a month before the cutoff: a lightweight DELETE in that partition. */
  async deleteEvents(teamId: number, partition: PartitionId, cutoff: string): Promise<void> {
    await this.command(
      `DELETE FROM ${this.local(TABLES.events)}${this.ddl.onCluster} IN PARTITION ID ${partitionLiteral(partition)}
       WHERE team_id = {team:UInt64} AND timestamp < {cutoff:DateTime64(6, 'UTC')}`,
      { team: teamId, cutoff },
    );
  }

  /**
   * Rewrites a month's parts without the rows DELETE masked, so their bytes leave the disk now
   * rather than at a merge that a month no longer written to may never get. Unless told to wait,
   * the engine does it in its background pool, holding no connection of ours.
   */
  async applyDeletes(partition: PartitionId, wait = false): Promise<void> {
    const sql = `ALTER TABLE ${this.local(TABLES.events)}${this.ddl.onCluster} APPLY DELETED MASK IN PARTITION ID ${partitionLiteral(partition)}`;
    await this.command(sql, {}, wait ? {} : { mutations_sync: '0' });
  }

  /** A whole month of every project, when none keeps it. */
  async dropMonth(partition: PartitionId): Promise<void> {
    await this.command(
      `ALTER TABLE ${this.local(TABLES.events)}${this.ddl.onCluster} DROP PARTITION ID ${partitionLiteral(partition)}`,
      {},
      // ClickHouse refuses to drop a partition past 50 GB unless told: here that is the point.
      { max_partition_size_to_drop: '0' },
    );
  }

  /**
   * A project's sessions whose last event is before the cutoff. A session that crosses the cutoff
   * is kept whole (its rows are aggregate states: the part before the cutoff cannot be taken out).
   */
  async deleteSessions(teamId: number, cutoff: string): Promise<void> {
    await this.command(
      `DELETE FROM ${this.local(TABLES.sessions)}${this.ddl.onCluster}
       WHERE team_id = {team:UInt64} AND max_timestamp < {cutoff:DateTime64(6, 'UTC')}`,
      { team: teamId, cutoff },
    );
  }

  private command(sql: string, params: Record<string, unknown>, settings: Record<string, string> = {}): Promise<void> {
    // One node waits until the rows are masked (reads exclude them when this returns); a cluster's
    // other replicas catch up in the background.
    const sync = this.store.layout.cluster ? '1' : '2';
    return this.store.command(sql, params, { ...OPTIONS, settings: { lightweight_deletes_sync: sync, mutations_sync: sync, ...settings } });
  }
}
