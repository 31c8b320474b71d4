// One summary row per recorded session (PostHog's session_replay_events): every stored block of
// rrweb data adds a row of its own counts, and the engine merges a session's rows (sums, min/max,
// the first URL by time). Lists and filters of recordings read this table in one query; the rrweb
// data itself lives in compressed files under the data directory (src/core/replay/block-store.ts).
// A block's row is inserted with the block's name as its deduplication token and the table keeps
// the last 10k tokens, so a retried /s/ request whose block was already counted adds nothing.
import { TABLES, type Ddl } from '../tables.js';
import type { EventStoreMigration } from './index.js';

const TIME = "DateTime64(6, 'UTC')";

/** Inserted blocks whose tokens are remembered (ClickHouse's non-replicated deduplication window). */
export const REPLAY_DEDUPLICATION_WINDOW = 10_000;

function replayEventsTable(d: Ddl): string[] {
  const local = d.storageName(TABLES.sessionReplayEvents);
  const front = d.distributedFront(TABLES.sessionReplayEvents, 'cityHash64(session_id)');
  return [
    `CREATE TABLE IF NOT EXISTS ${d.db}.${local}${d.onCluster} (
      team_id UInt64,
      session_id String,
      -- PostHog's is a plain column; merges here keep any of a session's (one person per session).
      distinct_id SimpleAggregateFunction(any, String),
      min_first_timestamp SimpleAggregateFunction(min, ${TIME}),
      max_last_timestamp SimpleAggregateFunction(max, ${TIME}),
      first_url AggregateFunction(argMin, Nullable(String), ${TIME}),
      all_urls SimpleAggregateFunction(groupUniqArrayArray, Array(String)),
      click_count SimpleAggregateFunction(sum, Int64),
      keypress_count SimpleAggregateFunction(sum, Int64),
      mouse_activity_count SimpleAggregateFunction(sum, Int64),
      active_milliseconds SimpleAggregateFunction(sum, Int64),
      console_log_count SimpleAggregateFunction(sum, Int64),
      console_warn_count SimpleAggregateFunction(sum, Int64),
      console_error_count SimpleAggregateFunction(sum, Int64),
      size SimpleAggregateFunction(sum, Int64),
      message_count SimpleAggregateFunction(sum, Int64),
      event_count SimpleAggregateFunction(sum, Int64),
      snapshot_source AggregateFunction(argMin, LowCardinality(Nullable(String)), ${TIME}),
      snapshot_library AggregateFunction(argMin, Nullable(String), ${TIME}),
      block_count SimpleAggregateFunction(sum, Int64),
      _timestamp SimpleAggregateFunction(max, DateTime('UTC'))
    )
    ENGINE = ${d.aggregating(TABLES.sessionReplayEvents)}
    PARTITION BY toYYYYMM(min_first_timestamp)
    ORDER BY (team_id, toDate(min_first_timestamp), session_id)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, non_replicated_deduplication_window = ${REPLAY_DEDUPLICATION_WINDOW}`,
    ...(front ? [front] : []),
  ];
}

export const sessionReplayEvents: EventStoreMigration = {
  version: 6,
  name: 'session_replay_events',
  statements: replayEventsTable,
};
