// The one place analytical SQL runs: every tree is scoped to the project, printed with bound
// parameters, given a time limit, a row limit and a query id (so it can be cancelled), and timed.
// The SQL text stays inside: it is never part of a response.
import { randomUUID } from 'node:crypto';
import { QueryRejectedError, QueryTimeoutError } from '../errors.js';
import type { ClickHouseSettings } from '@clickhouse/client';
import type { EventStore, QueryOptions } from '../storage/events/event-store.js';
import type { Query } from './ast/nodes.js';
import { boundSessionReads } from './passes/bound-session-reads.js';
import { groupSessionStates } from './passes/group-session-states.js';
import { joinSessionsAfterGrouping } from './passes/join-sessions-after-grouping.js';
import { readMaterializedProperties } from './passes/read-materialized-properties.js';
import { dropFilterNullGuards } from './passes/drop-filter-null-guards.js';
import { scopeToProject } from './passes/scope-to-project.js';
import { userQueryError } from './user-query-errors.js';
import { printQuery, type PrintedQuery } from './printer/print.js';

export interface QueryLimits {
  readonly timeoutSeconds: number;
  /** Rows one statement may return; more is an error, never a silent truncation. */
  readonly maxResultRows: number;
  /** Memory one user-written (HogQL) statement may take in the engine (default 4 GiB). */
  readonly maxMemoryBytes?: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = Object.freeze({ timeoutSeconds: 30, maxResultRows: 100_000, maxMemoryBytes: 4 * 1024 ** 3 });

/** A statement's answer as a table: column names and engine types, then rows of values. */
export interface ResultTable {
  readonly names: string[];
  readonly types: string[];
  readonly rows: unknown[][];
}

export interface StatementTiming {
  readonly sql: string;
  readonly ms: number;
}

/** One request's statements: they share a client query id and are reported together. */
export class QueryRun {
  readonly statements: StatementTiming[] = [];

  constructor(
    /** Whose statements these are: one event store (what is cached per store is keyed by it). */
    readonly executor: QueryExecutor,
    readonly teamId: number,
    readonly clientQueryId: string,
    /** Once aborted, no further statement of the run starts and the running one stops here. */
    private readonly signal?: AbortSignal,
    /** The statements carry text a user wrote (HogQL): the engine refusing them is the user's fault. */
    private readonly userWritten = false,
  ) {}

  async rows<Row>(query: Query): Promise<Row[]> {
    if (this.signal?.aborted) throw cancelledError();
    const printed = this.executor.print(query, this.teamId);
    const started = performance.now();
    const rows = await this.executor.execute<Row>(printed, this.teamId, this.clientQueryId, this.signal, { userWritten: this.userWritten });
    this.statements.push({ sql: printed.sql, ms: Math.round((performance.now() - started) * 10) / 10 });
    return rows;
  }

  /**
   * A user's query (HogQL): rows as arrays with the engine's column types, under the settings
   * PostHog runs HogQL with (NULL IN (NULL) is true) and a memory ceiling.
   */
  async table(query: Query): Promise<ResultTable> {
    if (this.signal?.aborted) throw cancelledError();
    const printed = this.executor.print(query, this.teamId);
    const started = performance.now();
    const [names = [], types = [], ...rows] = await this.executor.execute<unknown[]>(printed, this.teamId, this.clientQueryId, this.signal, {
      format: 'JSONCompactEachRowWithNamesAndTypes',
      userWritten: true,
      settings: { transform_null_in: 1, output_format_json_quote_64bit_integers: 0, max_memory_usage: String(this.executor.limits.maxMemoryBytes ?? DEFAULT_QUERY_LIMITS.maxMemoryBytes) },
    });
    this.statements.push({ sql: printed.sql, ms: Math.round((performance.now() - started) * 10) / 10 });
    return { names: names as string[], types: types as string[], rows };
  }
}

/**
 * A client query id within its project. The id is encoded so no ':' of the caller's can make one
 * id a prefix of another's engine query ids.
 */
const runKey = (teamId: number, clientQueryId: string): string => `${teamId}/${encodeURIComponent(clientQueryId)}`;

/** What a cancelled (or abandoned) run answers. */
export const cancelledError = () => new QueryRejectedError('query_cancelled', 'The query was cancelled.');

const ENGINE_ERRORS: Record<string, { code: string; detail: string }> = {
  '396': { code: 'too_many_rows', detail: 'The query would return too many rows. Narrow the date range or lower the breakdown limit.' },
  '427': { code: 'invalid_regex', detail: 'A regular expression in the query is not valid.' },
  '394': { code: 'query_cancelled', detail: 'The query was cancelled.' },
  '241': { code: 'memory_limit', detail: 'The query needed more memory than allowed. Narrow the date range or breakdown.' },
};

export class QueryExecutor {
  private readonly running = new Map<string, Set<AbortController>>();

  constructor(
    private readonly store: EventStore,
    readonly limits: QueryLimits = DEFAULT_QUERY_LIMITS,
  ) {}

  start(teamId: number, clientQueryId: string = randomUUID(), signal?: AbortSignal, options: { userWritten?: boolean } = {}): QueryRun {
    return new QueryRun(this, teamId, clientQueryId, signal, options.userWritten === true);
  }

  print(query: Query, teamId: number): PrintedQuery {
    const passed = readMaterializedProperties(joinSessionsAfterGrouping(boundSessionReads(dropFilterNullGuards(query))));
    // FINAL merges a session's states within one server; a cluster's shards each hold some of them.
    const sessionsRead = groupSessionStates(passed, this.store.layout.cluster ? 'every' : 'narrowed to listed ids');
    return printQuery(scopeToProject(sessionsRead, teamId), this.store.layout.database);
  }

  async execute<Row>(
    printed: PrintedQuery,
    teamId: number,
    clientQueryId: string,
    signal?: AbortSignal,
    shape: { format?: QueryOptions['format']; settings?: ClickHouseSettings; userWritten?: boolean } = {},
  ): Promise<Row[]> {
    const key = runKey(teamId, clientQueryId);
    const queryId = `${key}:${randomUUID()}`;
    const controller = new AbortController();
    // The run's signal stops this statement alone, in the engine too (asked first, while the
    // statement is still registered), whatever other runs share its client query id.
    const abort = () => {
      this.store.cancel(queryId).catch(() => {});
      controller.abort();
    };
    if (signal?.aborted) controller.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const controllers = this.running.get(key) ?? new Set();
    controllers.add(controller);
    this.running.set(key, controllers);
    try {
      return await this.store.query<Row>(printed.sql, printed.params, {
        timeoutSeconds: this.limits.timeoutSeconds,
        queryId,
        // The project's turn on the query lane, taken fairly with other projects'.
        tenant: teamId,
        abortSignal: controller.signal,
        settings: { max_result_rows: String(this.limits.maxResultRows), result_overflow_mode: 'throw', ...shape.settings },
        ...(shape.format ? { format: shape.format } : {}),
      });
    } catch (error) {
      const translated = this.translate(error);
      throw shape.userWritten && translated === error ? userQueryError(error) ?? error : translated;
    } finally {
      signal?.removeEventListener('abort', abort);
      controllers.delete(controller);
      if (controllers.size === 0) this.running.delete(key);
    }
  }

  /**
   * Stops every statement of a project's client query id in this process and in the engine.
   * Returns whether any ran here. Another project's query with the same id is never touched.
   */
  async cancel(teamId: number, clientQueryId: string): Promise<boolean> {
    const key = runKey(teamId, clientQueryId);
    const controllers = this.running.get(key);
    // The engine is asked to stop before the callers are answered, while the statements are
    // still registered; the kill itself is best effort.
    const stopping = this.store.cancel(`${key}:`).catch(() => {});
    for (const controller of controllers ?? []) controller.abort();
    await stopping;
    return controllers !== undefined;
  }

  private translate(error: unknown): unknown {
    const code = String((error as { code?: unknown }).code ?? '');
    if (code === '159') return new QueryTimeoutError(this.limits.timeoutSeconds);
    const known = ENGINE_ERRORS[code];
    if (known) return new QueryRejectedError(known.code, known.detail);
    if ((error as Error)?.name === 'AbortError') return cancelledError();
    return error;
  }
}
