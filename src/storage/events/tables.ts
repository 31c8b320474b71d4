// Table names and the DDL pieces that differ between one node (or chDB) and a cluster.
// Identifiers here come from this file and from validated configuration, never from requests.
import type { EventStoreLayout } from './event-store.js';

export const TABLES = {
  events: 'events',
  eventUuids: 'event_uuids',
  persons: 'persons',
  personDistinctIds: 'person_distinct_ids',
  personDistinctIdOverrides: 'person_distinct_id_overrides',
  groups: 'groups',
  groupTypes: 'group_types',
  staticCohortPeople: 'static_cohort_people',
  sessions: 'sessions',
  sessionReplayEvents: 'session_replay_events',
  migrations: 'schema_migrations',
} as const;

/** How a table is spread: sharded tables split by distinct_id; the rest are copied to every node. */
export type Distribution = 'sharded' | 'everywhere';

const SHARDED: ReadonlySet<string> = new Set([TABLES.events, TABLES.eventUuids, TABLES.sessions, TABLES.sessionReplayEvents]);

export function distributionOf(table: string): Distribution {
  return SHARDED.has(table) ? 'sharded' : 'everywhere';
}

export class Ddl {
  constructor(private readonly layout: EventStoreLayout) {}

  get db(): string {
    return this.layout.database;
  }

  /** ` ON CLUSTER name` when clustered, else nothing. */
  get onCluster(): string {
    return this.layout.cluster ? ` ON CLUSTER ${this.layout.cluster}` : '';
  }

  /**
   * The table that holds rows on this node. On a cluster a sharded table keeps its rows in
   * `<name>_local` and is read and written through a Distributed table called `<name>`.
   */
  storageName(table: string): string {
    return this.layout.cluster && distributionOf(table) === 'sharded' ? `${table}_local` : table;
  }

  /** `ReplacingMergeTree(version)`, Replicated on a cluster. */
  replacing(table: string, version = ''): string {
    if (!this.layout.cluster) return `ReplacingMergeTree(${version})`;
    const shard = distributionOf(table) === 'sharded' ? '{shard}' : 'noshard';
    const args = [`'/clickhouse/tables/${shard}/${this.db}.${this.storageName(table)}'`, `'{replica}'`];
    if (version) args.push(version);
    return `ReplicatedReplacingMergeTree(${args.join(', ')})`;
  }

  /** `AggregatingMergeTree`, Replicated on a cluster. */
  aggregating(table: string): string {
    if (!this.layout.cluster) return 'AggregatingMergeTree';
    const shard = distributionOf(table) === 'sharded' ? '{shard}' : 'noshard';
    return `ReplicatedAggregatingMergeTree('/clickhouse/tables/${shard}/${this.db}.${this.storageName(table)}', '{replica}')`;
  }

  /**
   * For a sharded table on a cluster: the Distributed table in front of `<name>_local`,
   * sharded by distinct_id so one person's events land together. Null when not clustered.
   */
  distributedFront(table: string, shardingKey: string): string | null {
    if (!this.layout.cluster) return null;
    return (
      `CREATE TABLE IF NOT EXISTS ${this.db}.${table}${this.onCluster} AS ${this.db}.${table}_local ` +
      `ENGINE = Distributed(${this.layout.cluster}, ${this.db}, ${table}_local, ${shardingKey})`
    );
  }
}
