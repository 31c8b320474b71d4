// The one door to ClickHouse, embedded (chDB) or a server: both speak through @clickhouse/client,
// so every statement, bound parameter and format is the same in both modes.
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';

/** Every analytical read gets a time limit, even when the caller forgets to give one. */
export const DEFAULT_QUERY_TIMEOUT_SECONDS = 30;

export type QueryParams = Record<string, unknown>;

export interface QueryOptions {
  timeoutSeconds?: number;
  settings?: ClickHouseSettings;
  /** Names the query in the engine, so it can be found and killed (KILL QUERY). */
  queryId?: string;
  abortSignal?: AbortSignal;
}

export interface EventStoreLayout {
  /** The database holding Hoglet's tables. */
  readonly database: string;
  /** Cluster name for ON CLUSTER DDL; null on a single node or chDB. */
  readonly cluster: string | null;
  readonly embedded: boolean;
}

export class EventStore {
  constructor(
    private readonly client: ClickHouseClient,
    readonly layout: EventStoreLayout,
    /** Gives up ownership of the embedded engine's directory. */
    private readonly release: () => void = () => {},
  ) {}

  /** Rows of a SELECT, with values bound as `{name:Type}` parameters. */
  async query<Row>(sql: string, params: QueryParams = {}, options: QueryOptions = {}): Promise<Row[]> {
    const result = await this.client.query({
      query: sql,
      query_params: params,
      format: 'JSONEachRow',
      clickhouse_settings: this.settings(options),
      ...(options.queryId ? { query_id: options.queryId } : {}),
      ...(options.abortSignal ? { abort_signal: options.abortSignal } : {}),
    });
    return result.json<Row>();
  }

  /** A statement with no result rows (DDL, ALTER ... DELETE). */
  async command(sql: string, params: QueryParams = {}, options: QueryOptions = {}): Promise<void> {
    await this.client.command({ query: sql, query_params: params, clickhouse_settings: this.settings(options) });
  }

  /** One INSERT of many rows: the unit of a group commit. */
  async insert(table: string, rows: readonly object[]): Promise<void> {
    if (rows.length === 0) return;
    await this.client.insert({
      table: `${this.layout.database}.${table}`,
      values: rows as object[],
      format: 'JSONEachRow',
    });
  }

  async ping(): Promise<void> {
    const result = await this.client.ping();
    if (!result.success) throw result.error;
  }

  async close(): Promise<void> {
    await this.client.close();
    this.release();
  }

  private settings(options: QueryOptions): ClickHouseSettings {
    // chDB applies settings as session SETs that outlive the query, so every query restates the
    // limits it relies on instead of inheriting another query's.
    return {
      max_execution_time: options.timeoutSeconds ?? DEFAULT_QUERY_TIMEOUT_SECONDS,
      max_result_rows: '0',
      result_overflow_mode: 'throw',
      ...options.settings,
    };
  }
}
