// Group commit of /s/'s summary rows: the rows of requests that arrive while an INSERT runs wait
// together and go to session_replay_events as the next INSERT (one part, one fsync for all), each
// request answered only after the INSERT holding its rows returned. A failed INSERT answers 503 to
// the requests in it and no other. Rows are checked before they join (the block is on disk, the
// values are typed here), so one request's content never fails another's.
//
// Counted once: each row carries its block's hash (block_names, migration 7). A block already on
// disk before this request (a request sent again) is looked up first and not counted twice; the
// same block in two requests at once waits for the first one's row.
import { createHash } from 'node:crypto';
import { ApiError, ServiceUnavailableError } from '../../errors.js';
import type { EventStore } from '../../storage/events/event-store.js';
import { TABLES } from '../../storage/events/tables.js';
import { GroupCommitter } from '../capture/group-commit.js';

/** One block's summary row, as session_replay_events takes it (times as `YYYY-MM-DD hh:mm:ss.ffffff`). */
export interface SummaryRow {
  team_id: number;
  session_id: string;
  distinct_id: string;
  first_ts: string;
  last_ts: string;
  first_url_text: string;
  urls: string[];
  clicks: number;
  keypresses: number;
  mouse: number;
  active_ms: number;
  logs: number;
  warns: number;
  errors: number;
  size_bytes: number;
  messages: number;
  event_total: number;
  source: string;
  library: string;
  /** The block's hash: what a later request of the same block finds. */
  block: string;
}

export interface SummaryRowLimits {
  /** Most JSON bytes of rows in one INSERT. */
  maxBatchBytes: number;
  /** More waiting than this and new rows are refused at once (503). */
  maxQueuedBytes: number;
  /** A row not stored within this many ms is answered 503 (it may still be stored; a resend is not counted twice). */
  timeoutMs: number;
}

export const DEFAULT_SUMMARY_ROW_LIMITS: SummaryRowLimits = { maxBatchBytes: 1 << 20, maxQueuedBytes: 64 << 20, timeoutMs: 30_000 };

const STRUCTURE = [
  'team_id UInt64', 'session_id String', 'distinct_id String', 'first_ts String', 'last_ts String', 'first_url_text String',
  'urls Array(String)', 'clicks Int64', 'keypresses Int64', 'mouse Int64', 'active_ms Int64', 'logs Int64', 'warns Int64',
  'errors Int64', 'size_bytes Int64', 'messages Int64', 'event_total Int64', 'source String', 'library String', 'block String',
].join(', ');

const FIRST = "toDateTime64(first_ts, 6, 'UTC')";

export class SummaryRows {
  private readonly committer: GroupCommitter<{ row: SummaryRow; json: string }>;
  /** Block hashes whose row is being stored: a second request of the same block waits for it. */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(private readonly store: EventStore, limits: SummaryRowLimits = DEFAULT_SUMMARY_ROW_LIMITS) {
    this.committer = new GroupCommitter((items) => this.insert(items.map((item) => item.json)), (item) => Buffer.byteLength(item.json), {
      maxBatchItems: limits.maxBatchBytes,
      maxQueuedItems: limits.maxQueuedBytes,
      timeoutMs: limits.timeoutMs,
    });
  }

  /** The hash a block's row carries: its project, session and name. */
  static blockHash(teamId: number, sessionId: string, blockName: string): string {
    return createHash('sha256').update(`${teamId}\n${sessionId}\n${blockName}`).digest('hex').slice(0, 24);
  }

  /** Resolves once the row is in the store (or was already); rejects with a 503 otherwise. */
  async add(row: SummaryRow, blockWasStored: boolean): Promise<void> {
    for (let running = this.inFlight.get(row.block); running; running = this.inFlight.get(row.block)) {
      if (await running.then(() => true, () => false)) return;
      blockWasStored = true; // the other request's INSERT failed: its row may or may not be there
    }
    const storing = this.storeOnce(row, blockWasStored);
    this.inFlight.set(row.block, storing);
    try {
      await storing;
    } finally {
      if (this.inFlight.get(row.block) === storing) this.inFlight.delete(row.block);
    }
  }

  /** Waits until every row submitted so far has been written or refused. */
  drain(): Promise<void> {
    return this.committer.drain();
  }

  private async storeOnce(row: SummaryRow, blockWasStored: boolean): Promise<void> {
    try {
      if (blockWasStored && (await this.counted(row))) return;
      await this.committer.submit({ row, json: JSON.stringify(row) });
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) throw error;
      const failure = new ServiceUnavailableError('Recordings could not be stored right now; retry shortly.');
      failure.cause = error;
      throw failure;
    }
  }

  private async counted(row: SummaryRow): Promise<boolean> {
    const rows = await this.store.query<{ n: string }>(
      `SELECT count() AS n FROM ${this.store.layout.database}.${TABLES.sessionReplayEvents}
       WHERE team_id = {team:UInt64} AND session_id = {session:String} AND has(block_names, {block:String})`,
      { team: row.team_id, session: row.session_id, block: row.block },
      { lane: 'persons' },
    );
    return Number(rows[0]?.n ?? 0) > 0;
  }

  private async insert(lines: string[]): Promise<void> {
    // The same rows sent again as one INSERT (the committer never does; a store's own retry might) add nothing.
    const token = createHash('sha256').update(lines.join('\n')).digest('hex');
    await this.store.command(
      `INSERT INTO ${this.store.layout.database}.${TABLES.sessionReplayEvents}
         (team_id, session_id, distinct_id, min_first_timestamp, max_last_timestamp, first_url, all_urls,
          click_count, keypress_count, mouse_activity_count, active_milliseconds,
          console_log_count, console_warn_count, console_error_count, size, message_count, event_count,
          snapshot_source, snapshot_library, block_count, _timestamp, block_names)
       SETTINGS insert_deduplication_token = '${token}'
       SELECT team_id, session_id, distinct_id, ${FIRST}, toDateTime64(last_ts, 6, 'UTC'),
         initializeAggregation('argMinState', nullIf(first_url_text, ''), ${FIRST}),
         urls, clicks, keypresses, mouse, active_ms, logs, warns, errors, size_bytes, messages, event_total,
         initializeAggregation('argMinState', CAST(source, 'LowCardinality(Nullable(String))'), ${FIRST}),
         initializeAggregation('argMinState', CAST(library, 'Nullable(String)'), ${FIRST}),
         1, now(), [block]
       FROM format(JSONEachRow, '${STRUCTURE}', {rows:String})`,
      { rows: lines.join('\n') },
      { lane: 'persons' },
    );
  }
}
