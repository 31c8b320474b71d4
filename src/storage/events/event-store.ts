// The one door to ClickHouse, embedded (chDB) or a server: both speak through @clickhouse/client,
// so every statement and format is the same in both modes (embedded, bound values travel as the
// connection's session parameters: session-params.ts).
import { randomUUID } from 'node:crypto';
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { ServiceUnavailableError, ThrottledError } from '../../errors.js';
import { FairQueue } from '../../fair-queue.js';
import { insertSeconds } from '../../metrics/registry.js';
import { sessionParamsStatement } from './session-params.js';

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
  /**
   * The project a query-lane statement is for: projects take turns fairly (see `QueryLane`).
   * Without one, a statement takes the turn Hoglet's own reads share.
   */
  tenant?: number;
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

/** ClickHouse's default limit on a statement's text (256 KiB). */
const DEFAULT_MAX_QUERY_SIZE = 262_144;

/** Statements that may wait for their turn on the query lane; past this, new ones get a 503. */
export const MAX_WAITING_QUERIES = 64;
/** Statements one project may have waiting on the query lane; past this, its new ones get a 429. */
export const MAX_WAITING_QUERIES_PER_PROJECT = 16;
/** Query-lane statements that run at once: embedded, one chDB connection each. */
export const DEFAULT_QUERY_CONCURRENCY = { embedded: 2, server: 8 } as const;

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

/**
 * The query lane: a few statements run at once (embedded, each on a chDB connection of its own to
 * the same engine; with a server, on the one HTTP client), admitted fairly per project: waiting
 * statements are taken round-robin across projects, one project runs on at most all slots but one,
 * and each project's waiting statements are bounded (429) apart from everyone's (503). So a slow
 * query, or a queue of them, holds its own project's turn and never another's.
 */
class QueryLane {
  private readonly queue: FairQueue;

  constructor(
    /** One client per slot (a server's slots share its client). */
    private readonly slots: readonly ClickHouseClient[],
    /** Embedded: after a failed statement, read its connection clean before the slot is free. */
    private readonly drain: ((client: ClickHouseClient) => Promise<unknown>) | null,
  ) {
    this.queue = new FairQueue({
      slots: slots.length,
      // Hoglet's own reads (no project) are bounded by the lane's bound alone.
      perTenantWaiting: (tenant) => (tenant === '' ? MAX_WAITING_QUERIES : MAX_WAITING_QUERIES_PER_PROJECT),
      maxWaiting: MAX_WAITING_QUERIES,
      tenantFull: () => new ProjectQueriesBusyError(),
      full: () => new StoreBusyError('Too many queries are waiting for the event store; retry shortly.'),
    });
  }

  /** The first slot's client: what the lane's statements outside the turns use (ping, close). */
  get client(): ClickHouseClient {
    return this.slots[0]!;
  }

  get clients(): readonly ClickHouseClient[] {
    return this.slots;
  }

  async run<T>(tenant: number | undefined, statement: (client: ClickHouseClient) => Promise<T>, signal?: AbortSignal): Promise<T> {
    // Hoglet's own reads share one turn, apart from every project's; they are never throttled.
    const key = tenant === undefined ? '' : String(tenant);
    const lease = await this.queue.admit(key, signal);
    const client = this.slots[lease.slot]!;
    try {
      return await statement(client);
    } catch (error) {
      if (this.drain) await this.drain(client).catch(() => {});
      throw error;
    } finally {
      lease.release();
    }
  }
}

/** The connections an EventStore speaks through, one per lane (a lane may share another's). */
export interface EventStoreClients {
  /** The query lane's connections: embedded, one per statement that may run at once. */
  query: ClickHouseClient | readonly ClickHouseClient[];
  /** With a server: query-lane statements that may run at once over its client (default 8). */
  queryConcurrency?: number;
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
  private readonly lanes: Record<Exclude<Lane, 'query'>, Connection>;
  private readonly queryLane: QueryLane;
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
    this.lanes = { ingest, persons };
    const query = Array.isArray(clients.query) ? (clients.query as readonly ClickHouseClient[]) : [clients.query as ClickHouseClient];
    this.queryLane = layout.embedded
      ? new QueryLane(query, (client) => this.drain(client))
      : new QueryLane(Array.from({ length: clients.queryConcurrency ?? DEFAULT_QUERY_CONCURRENCY.server }, () => query[0]!), null);
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
    const laneName = options.lane ?? 'query';
    if (this.readBarrier && laneName === 'query') await this.readBarrier();
    const run = async (client: ClickHouseClient, text: string, signal?: AbortSignal) => {
      // Embedded, the values are the connection's session parameters (session-params.ts).
      const bound = this.layout.embedded ? await this.setSessionParams(client, text, params) : params;
      const result = await client.query({
        query: text,
        query_params: bound,
        format: options.format ?? 'JSONEachRow',
        clickhouse_settings: this.settings(options),
        ...(options.queryId ? { query_id: options.queryId } : {}),
        ...(signal ? { abort_signal: signal } : {}),
      });
      return result.json<Row>();
    };
    const { queryId, abortSignal } = options;
    if (laneName !== 'query') {
      const lane = this.lanes[laneName];
      if (!lane.turns) return run(lane.client, sql, abortSignal);
      const statement = () => (abortSignal?.aborted ? Promise.reject(abortError()) : run(lane.client, sql));
      return abortable(lane.turns.run(statement, () => this.drain(lane.client)), abortSignal);
    }
    if (!this.layout.embedded) return this.queryLane.run(options.tenant, (client) => run(client, sql, abortSignal), abortSignal);
    // chDB does not keep query ids, so the statement carries a marker of ours (never caller text)
    // in a comment, which system.processes shows and cancel() finds.
    const marker = queryId ? `hoglet-statement-${randomUUID()}` : null;
    if (queryId && marker) this.markers.set(queryId, marker);
    const statement = async (client: ClickHouseClient) => {
      // A statement cancelled while it waited for its turn never starts.
      if (abortSignal?.aborted) throw abortError();
      return run(client, marker ? `/* ${marker} */ ${sql}` : sql);
    };
    try {
      // Cancelled while it waits, it gives up its place in the queue; running, it is killed by marker.
      return await abortable(this.queryLane.run(options.tenant, statement, abortSignal), abortSignal);
    } finally {
      if (queryId) this.markers.delete(queryId);
    }
  }

  /** Stops the running statements whose query id starts with the prefix (KILL QUERY, asynchronous). */
  async cancel(queryIdPrefix: string): Promise<void> {
    if (!this.layout.embedded) {
      // Straight to the server, not behind the query lane's turns it is meant to shorten.
      await this.queryLane.client.command({
        query: 'KILL QUERY WHERE startsWith(query_id, {prefix:String}) ASYNC',
        query_params: { prefix: queryIdPrefix },
        clickhouse_settings: this.settings({}),
      });
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
    const run = async (client: ClickHouseClient) => {
      const bound = this.layout.embedded ? await this.setSessionParams(client, sql, params) : params;
      return client.command({ query: sql, query_params: bound, clickhouse_settings: this.settings(options) });
    };
    const laneName = options.lane ?? 'query';
    if (laneName === 'query') {
      await this.queryLane.run(options.tenant, run);
      return;
    }
    const lane = this.lanes[laneName];
    await (lane.turns ? lane.turns.run(() => run(lane.client), () => this.drain(lane.client)) : run(lane.client));
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
    const timer = insertSeconds.startTimer({ table });
    await (lane.turns ? lane.turns.run(run, () => this.drain(lane.client)) : run());
    timer();
  }

  /**
   * Embedded: sets the statement's values as the connection's session parameters (the caller holds
   * the connection's turn) and returns what is left to bind through chDB's own path: nothing.
   */
  private async setSessionParams(client: ClickHouseClient, sql: string, params: QueryParams): Promise<QueryParams> {
    const statement = sessionParamsStatement(sql, params);
    // Large values (a batch's uuids) make a long SET: the parser's size limit is raised to fit it,
    // never below ClickHouse's default (chDB keeps it for the session's next statements too).
    const maxQuerySize = Math.max(DEFAULT_MAX_QUERY_SIZE, statement ? statement.length + 1024 : 0);
    if (statement) await client.command({ query: statement, clickhouse_settings: { max_query_size: String(maxQuerySize) } });
    return {};
  }

  private async drain(client: ClickHouseClient): Promise<void> {
    const result = await client.query({ query: 'SELECT 1', format: 'JSONEachRow', clickhouse_settings: this.settings({}) });
    await result.json();
  }

  /** Whether the store answers at all (on the ingest lane, which no slow query holds). */
  async ping(): Promise<void> {
    const result = await this.lanes.ingest.client.ping();
    if (!result.success) throw result.error;
  }

  async close(): Promise<void> {
    await this.control?.close();
    const clients = new Set([...this.queryLane.clients, ...Object.values(this.lanes).map((lane) => lane.client)]);
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
  if (signal.aborted) {
    // The work gives up too (its own check of the signal); its refusal is not the answer.
    work.catch(() => {});
    return Promise.reject(abortError());
  }
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

/** The project has as many queries waiting as it may; other projects' queries go on. */
export class ProjectQueriesBusyError extends ThrottledError {
  constructor() {
    super('This project has too many queries running or waiting; retry when some have finished.');
  }
}
