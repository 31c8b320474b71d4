// The one door to ClickHouse, embedded (chDB) or a server: both speak through @clickhouse/client,
// so every statement, bound parameter and format is the same in both modes.
import { randomUUID } from 'node:crypto';
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { ServiceUnavailableError } from '../../errors.js';

/** Every analytical read gets a time limit, even when the caller forgets to give one. */
export const DEFAULT_QUERY_TIMEOUT_SECONDS = 30;

export type QueryParams = Record<string, unknown>;

/**
 * Which connection a statement takes. Capture's writes and the reads they depend on (uuid
 * de-duplication, persons) have a lane of their own, so a slow analytical query never holds up
 * an acknowledgement. Person and group rows, written right after the events they come from, take
 * one more: on chDB an insert that follows the events insert (and its materialized view) on the
 * same connection waits for it, which halved single-event capture (bench/README.md, 2026-11-24).
 */
export type Lane = 'query' | 'ingest' | 'persons';

export interface QueryOptions {
  timeoutSeconds?: number;
  /** Default 'query'. */
  lane?: Lane;
  settings?: ClickHouseSettings;
  /** Names the query in the engine, so it can be found and killed (KILL QUERY). */
  queryId?: string;
  abortSignal?: AbortSignal;
  /** Rows as objects (default), or as arrays after a row of names and a row of types (HogQL). */
  format?: 'JSONEachRow' | 'JSONCompactEachRowWithNamesAndTypes';
}

export interface EventStoreLayout {
  /** The database holding Hoglet's tables. */
  readonly database: string;
  /** Cluster name for ON CLUSTER DDL; null on a single node or chDB. */
  readonly cluster: string | null;
  readonly embedded: boolean;
}

/** Statements that may wait for their turn on the query lane; past this, new ones get a 503. */
export const MAX_WAITING_QUERIES = 64;

/**
 * A chDB connection runs one statement at a time, and a statement that fails part-way (a time
 * limit) leaves the rows it had already produced in the session, where the next statement's result
 * picks them up. So statements on one embedded connection run one after another, and a failure is
 * followed by a throw-away SELECT before anyone else may run; a server needs neither. Connections
 * to the same directory share one engine and run side by side, hence one connection per lane.
 */
class EmbeddedTurns {
  private last: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly maxWaiting: number) {}

  run<T>(statement: () => Promise<T>, drain: () => Promise<unknown>): Promise<T> {
    if (this.waiting >= this.maxWaiting) {
      return Promise.reject(new StoreBusyError('Too many queries are waiting for the event store; retry shortly.'));
    }
    this.waiting += 1;
    const turn = this.last.then(async () => {
      this.waiting -= 1;
      try {
        return await statement();
      } catch (error) {
        await drain().catch(() => {});
        throw error;
      }
    });
    this.last = turn.catch(() => {});
    return turn;
  }
}

/** One connection and, embedded, the order its statements take. */
interface Connection {
  client: ClickHouseClient;
  turns: EmbeddedTurns | null;
}

/** The connections an EventStore speaks through, one per lane (a lane may share another's). */
export interface EventStoreClients {
  query: ClickHouseClient;
  ingest: ClickHouseClient;
  /** Default: the ingest client. */
  persons?: ClickHouseClient;
  /**
   * Embedded: a further connection to the same engine, outside the turns, so KILL QUERY can reach
   * a statement while it runs.
   */
  control?: ClickHouseClient | null;
}

export class EventStore {
  private readonly lanes: Record<Lane, Connection>;
  private readonly control: ClickHouseClient | null;
  /** Embedded: query id -> the marker its SQL carries, for KILL QUERY (chDB ignores query ids). */
  private readonly markers = new Map<string, string>();

  constructor(
    clients: EventStoreClients,
    readonly layout: EventStoreLayout,
    /** Gives up ownership of the embedded engine's directory. */
    private readonly release: () => void = () => {},
  ) {
    const connection = (client: ClickHouseClient, maxWaiting: number): Connection => ({
      client,
      turns: layout.embedded ? new EmbeddedTurns(maxWaiting) : null,
    });
    // Ingest waits are bounded by the group commit's own queue and time limit.
    const ingest = connection(clients.ingest, Infinity);
    // Lanes that share a client share its turns: one chDB connection runs one statement at a time.
    const persons = clients.persons && clients.persons !== clients.ingest ? connection(clients.persons, Infinity) : ingest;
    this.lanes = { query: connection(clients.query, MAX_WAITING_QUERIES), ingest, persons };
    this.control = clients.control ?? null;
  }

  /**
   * Reads on the query lane first wait for this (capture's inserter: events acknowledged before
   * the read began are in the store), so a query after a 200 sees what it acknowledged.
   */
  setReadBarrier(barrier: (() => Promise<void>) | null): void {
    this.readBarrier = barrier;
  }

  private readBarrier: (() => Promise<void>) | null = null;

  /** Rows of a SELECT, with values bound as `{name:Type}` parameters. */
  async query<Row>(sql: string, params: QueryParams = {}, options: QueryOptions = {}): Promise<Row[]> {
    const lane = this.lanes[options.lane ?? 'query'];
    if (this.readBarrier && lane === this.lanes.query) await this.readBarrier();
    const run = async (text: string, signal?: AbortSignal) => {
      const result = await lane.client.query({
        query: text,
        query_params: params,
        format: options.format ?? 'JSONEachRow',
        clickhouse_settings: this.settings(options),
        ...(options.queryId ? { query_id: options.queryId } : {}),
        ...(signal ? { abort_signal: signal } : {}),
      });
      return result.json<Row>();
    };
    if (!lane.turns) return run(sql, options.abortSignal);
    const { queryId, abortSignal } = options;
    // chDB does not keep query ids, so the statement carries a marker of ours (never caller text)
    // in a comment, which system.processes shows and cancel() finds.
    const marker = queryId ? `hoglet-statement-${randomUUID()}` : null;
    if (queryId && marker) this.markers.set(queryId, marker);
    const statement = async () => {
      // A statement cancelled while it waited for its turn never starts.
      if (abortSignal?.aborted) throw abortError();
      return run(marker ? `/* ${marker} */ ${sql}` : sql);
    };
    try {
      return await abortable(lane.turns.run(statement, () => this.drain(lane)), abortSignal);
    } finally {
      if (queryId) this.markers.delete(queryId);
    }
  }

  /** Stops the running statements whose query id starts with the prefix (KILL QUERY, asynchronous). */
  async cancel(queryIdPrefix: string): Promise<void> {
    if (!this.layout.embedded) {
      await this.command('KILL QUERY WHERE startsWith(query_id, {prefix:String}) ASYNC', { prefix: queryIdPrefix });
      return;
    }
    if (!this.control) return;
    const marked = [...this.markers].filter(([queryId]) => queryId.startsWith(queryIdPrefix)).map(([, marker]) => marker);
    for (const marker of marked) {
      // The marker is bound, so this statement's own text does not contain it.
      await this.control.command({
        query: 'KILL QUERY WHERE position(query, {marker:String}) > 0 ASYNC',
        query_params: { marker },
      });
    }
  }

  /** A statement with no result rows (DDL, ALTER ... DELETE). */
  async command(sql: string, params: QueryParams = {}, options: QueryOptions = {}): Promise<void> {
    const lane = this.lanes[options.lane ?? 'query'];
    const run = () => lane.client.command({ query: sql, query_params: params, clickhouse_settings: this.settings(options) });
    await (lane.turns ? lane.turns.run(run, () => this.drain(lane)) : run());
  }

  /** One INSERT of many rows, on the ingest lane unless told: the unit of a group commit. */
  async insert(table: string, rows: readonly object[], options: { lane?: Exclude<Lane, 'query'> } = {}): Promise<void> {
    if (rows.length === 0) return;
    const lane = this.lanes[options.lane ?? 'ingest'];
    const run = () => lane.client.insert({
      table: `${this.layout.database}.${table}`,
      values: rows as object[],
      format: 'JSONEachRow',
      // An object given for a String column is stored as its JSON text (EventRow.properties).
      clickhouse_settings: { input_format_json_read_objects_as_strings: 1 },
    });
    await (lane.turns ? lane.turns.run(run, () => this.drain(lane)) : run());
  }

  private async drain(lane: Connection): Promise<void> {
    const result = await lane.client.query({ query: 'SELECT 1', format: 'JSONEachRow', clickhouse_settings: this.settings({}) });
    await result.json();
  }

  /** Whether the store answers at all (on the ingest lane, which no slow query holds). */
  async ping(): Promise<void> {
    const result = await this.lanes.ingest.client.ping();
    if (!result.success) throw result.error;
  }

  async close(): Promise<void> {
    await this.control?.close();
    const clients = new Set(Object.values(this.lanes).map((lane) => lane.client));
    for (const client of clients) await client.close();
    this.release();
  }

  private settings(options: QueryOptions): ClickHouseSettings {
    // chDB applies settings as session SETs that outlive the query, so every query restates the
    // limits it relies on instead of inheriting another query's.
    return {
      max_execution_time: options.timeoutSeconds ?? DEFAULT_QUERY_TIMEOUT_SECONDS,
      max_result_rows: '0',
      result_overflow_mode: 'throw',
      max_memory_usage: '0',
      transform_null_in: 0,
      output_format_json_quote_64bit_integers: 1,
      ...options.settings,
    };
  }
}

/** The statement's result, or an AbortError as soon as the signal fires (the statement itself goes on). */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function abortError(): Error {
  const error = new Error('The query was cancelled.');
  error.name = 'AbortError';
  return error;
}

/** The event store is reachable but has more waiting work than it takes; retrying later is safe. */
export class StoreBusyError extends ServiceUnavailableError {}
