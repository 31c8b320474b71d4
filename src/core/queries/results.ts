// Query results with PostHog's refresh modes: served from the shared cache when fresh enough,
// calculated now, or calculated in the background with a status a client polls. The cache entry
// and the background status live in the metadata store, so every API process sees them.
//
// A result is cached under a key covering the query and every definition it was calculated with
// (project settings, actions: query/cache/context-key.ts), so changing one makes reads miss it. A
// cached result is fresh while (a) the clock has not made it stale (PostHog's interval thresholds)
// and (b) no events were stored for the days its range read since it was calculated.
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../errors.js';
import {
  cacheKey,
  cacheTargetAge,
  isStaleByClock,
  nextAllowedClientRefresh,
  type RefreshMode,
} from '../../query/cache/policy.js';
import type { Interval } from '../../query/dates/index.js';
import { rememberJson } from '../raw-json.js';
import type { QueryContext } from '../../query/context.js';
import { definitionsOf } from '../../query/cache/context-key.js';
import type { InsightQuery } from '../../query/nodes/schema.js';
import { kindOf } from '../../query/runners/registry.js';
import { queryCacheReads } from '../../metrics/registry.js';
import type { CachedEntry, QueryCacheRepository, QueryStatusRow } from '../../storage/meta/repositories/query-cache.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import { BackgroundQueue } from './background-queue.js';
import { DEFAULT_RESULT_LIMITS, serialisedResult, type ResultLimits } from './result-size.js';
import { DEFAULT_HEARTBEAT_MS, isAbandoned, StatusHeartbeat } from './heartbeat.js';
import { NO_HOGQL, type InsightQueryService } from './service.js';
import { SharedCalculations, type RunHandle } from './shared-calculations.js';

/** A calculated response, as cached and as served (PostHog's field names). */
export interface CalculatedResponse {
  results: unknown;
  hasMore: boolean;
  /** Runner-specific fields: columns, types, resolved_date_range, isUdf, ... */
  extra: Record<string, unknown>;
  timezone: string;
  last_refresh: string;
  cache_target_age: string;
  next_allowed_client_refresh: string;
  timings: { k: string; t: number }[];
}

export interface QueryStatusView {
  id: string;
  team_id: number;
  insight_id: number | null;
  dashboard_id: number | null;
  query_async: true;
  complete: boolean;
  error: boolean;
  error_message: string | null;
  results: unknown;
  start_time: string;
  end_time: string | null;
  expiration_time: string;
  pickup_time: string | null;
  task_id: string;
  query_progress: null;
}

export interface ResultOutcome {
  /** The result to show, or null (cache miss without calculation, or still calculating). */
  response: CalculatedResponse | null;
  isCached: boolean;
  cacheKey: string;
  /** Set while a background calculation runs (or just finished) for this request. */
  queryStatus: QueryStatusView | null;
}

export interface ResultRequest {
  project: ProjectRow;
  query: InsightQuery;
  mode: RefreshMode;
  clientQueryId?: string | undefined;
  insightId?: number | null;
  dashboardId?: number | null;
}

export interface QueryResultsOptions {
  /** How often a process refreshes the status rows of the calculations it runs. */
  heartbeatMs?: number;
  /** Memory for parsed cached responses, in characters of their JSON text. */
  parsedCacheChars?: number;
  /** Capture's events acknowledged but not yet in the event store (see CaptureInserter). */
  capture?: PendingCapture;
  /** The shared cache's budget, the largest cached entry and the largest answer. */
  limits?: ResultLimits;
  /** Told when a result could not be cached (it is answered uncached all the same), or a background status not recorded. */
  onProblem?: (message: string, error: unknown) => void;
}

export interface PendingCapture {
  /** Whether the project has such events on these UTC days (yyyy-mm-dd, null: unbounded): a cached result over them is outdated. */
  pending(teamId: number, fromDay: string | null, toDay: string | null): boolean;
  /** Resolves once everything acknowledged so far is stored (and its days marked as written). */
  settled(): Promise<void>;
}

const NOTHING_PENDING: PendingCapture = { pending: () => false, settled: async () => {} };

/** How long lazy_async waits for a calculation before answering with its status instead. */
const LAZY_ASYNC_WAIT_MS = 5_000;
/** How long a background calculation's status stays pollable. */
const STATUS_LIFETIME_MS = 60 * 60_000;
/** Background calculations at once per process: a small machine keeps a core for requests and capture. */
const BACKGROUND_CONCURRENCY = 2;
const DEFAULT_PARSED_CACHE_CHARS = 64 * 1024 * 1024;
const ABANDONED_MESSAGE = 'The calculation stopped because the server running it went away. Ask for the result again.';
/** Waits before recording a background calculation's end again, after each failure. */
const RECORD_RETRY_MS = [250, 1_000, 4_000];

type StatusEnd = Pick<QueryStatusRow, 'complete' | 'error' | 'error_message' | 'results' | 'end_time'>;

const DAY_MS = 86_400_000;
/** Buckets may start up to one interval before date_from (PostHog's start-of-interval rule). */
const INTERVAL_SLACK_MS: Record<Interval, number> = { minute: DAY_MS, hour: DAY_MS, day: DAY_MS, week: 7 * DAY_MS, month: 31 * DAY_MS };

const iso = (ms: number): string => new Date(ms).toISOString();

/** A request with the definitions it was resolved against and the key they give. */
interface ResolvedRequest extends ResultRequest {
  context: QueryContext;
  key: string;
}

export class QueryResults {
  /** This process, as the owner of the background calculations it runs. */
  readonly owner = randomUUID();
  /** Calculations running in this process: concurrent requests share one, each cancels alone. */
  private readonly calculations: SharedCalculations<CalculatedResponse>;
  private readonly queue: BackgroundQueue;
  private readonly heartbeat: StatusHeartbeat;
  /** Background calculations started here, so shutdown can wait for them. */
  private readonly background = new Set<Promise<unknown>>();
  /** Parsed cache entries by key, valid while the stored entry has the same last_refresh. */
  private readonly parsed: LRUCache<string, { lastRefresh: string; response: CalculatedResponse; size: number }>;

  constructor(
    private readonly queries: InsightQueryService,
    private readonly cache: QueryCacheRepository,
    private readonly clock: () => number = Date.now,
    options: QueryResultsOptions = {},
  ) {
    this.calculations = new SharedCalculations();
    this.queue = new BackgroundQueue(BACKGROUND_CONCURRENCY);
    this.onProblem = options.onProblem ?? (() => {});
    this.heartbeat = new StatusHeartbeat(cache, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS, clock, this.onProblem);
    // Bounded by size, not count: one huge result must not hold as much memory as the budget for all.
    this.parsed = new LRUCache({ maxSize: options.parsedCacheChars ?? DEFAULT_PARSED_CACHE_CHARS, sizeCalculation: (entry) => entry.size });
    this.capture = options.capture ?? NOTHING_PENDING;
    this.limits = options.limits ?? DEFAULT_RESULT_LIMITS;
  }

  private readonly capture: PendingCapture;
  private readonly limits: ResultLimits;
  private readonly onProblem: (message: string, error: unknown) => void;

  /** The query's cache key: the node, the project and every definition the answer depends on. */
  private keyOf(project: ProjectRow, query: InsightQuery, context: QueryContext): string {
    return cacheKey({ query, teamId: project.id, definitions: definitionsOf(context) });
  }

  async get(request: ResultRequest): Promise<ResultOutcome> {
    // Definitions are resolved on every read: the key must change the moment one of them does.
    const context = await this.queries.contextOf(request.project, request.query);
    const key = this.keyOf(request.project, request.query, context);
    const resolved: ResolvedRequest = { ...request, context, key };
    const { mode } = request;
    const cached = mode === 'force_blocking' || mode === 'force_async' ? undefined : await this.cache.getEntry(key, request.project.id);
    if (cached && (mode === 'force_cache' || (await this.isFresh(cached, request.query, mode === 'lazy_async')))) {
      const response = await this.parse(cached);
      // Replaced between the two reads by another process: calculate rather than show nothing.
      if (response) {
        queryCacheReads.hit.inc();
        return { response, isCached: true, cacheKey: key, queryStatus: null };
      }
    }
    if (mode !== 'force_blocking' && mode !== 'force_async') queryCacheReads.miss.inc();
    if (mode === 'force_cache') return { response: null, isCached: false, cacheKey: key, queryStatus: null };
    if (mode === 'blocking' || mode === 'force_blocking') {
      return { response: await this.calculate(resolved, request.clientQueryId, false), isCached: false, cacheKey: key, queryStatus: null };
    }
    const { status, done } = await this.startBackground(resolved);
    if (mode === 'lazy_async' && done) {
      const finished = await waitAtMost(done, LAZY_ASYNC_WAIT_MS);
      if (finished.settled) {
        if (finished.error) throw finished.error;
        return { response: finished.value!, isCached: false, cacheKey: key, queryStatus: null };
      }
    }
    // While it runs, an older result (if any) is still worth showing.
    const stale = cached ? await this.parse(cached) : null;
    const current = (await this.cache.getStatus(request.project.id, status.id)) ?? status;
    return { response: stale, isCached: stale !== null, cacheKey: key, queryStatus: this.statusView(current) };
  }

  /** The entry's response, parsed once per calculation rather than once per request. */
  private async parse(entry: CachedEntry): Promise<CalculatedResponse | null> {
    const known = this.parsed.get(entry.cache_key);
    if (known && known.lastRefresh === entry.last_refresh) return known.response;
    const text = await this.cache.getResponse(entry.cache_key, entry.team_id, entry.last_refresh);
    if (text === undefined) return null;
    const response = JSON.parse(text) as CalculatedResponse;
    if (response.results !== null && typeof response.results === 'object') rememberJson(response.results, JSON.stringify(response.results));
    // The parsed value and the remembered results text together: about twice the stored text.
    this.parsed.set(entry.cache_key, { lastRefresh: entry.last_refresh, response, size: Math.max(1, 2 * text.length) });
    return response;
  }

  /** A background calculation's status, as GET /query/:id/ shows it. */
  async status(teamId: number, id: string): Promise<QueryStatusView | null> {
    if (id.includes('\0')) return null;
    const row = await this.cache.getStatus(teamId, id);
    return row ? this.statusView(row) : null;
  }

  async forget(teamId: number, id: string): Promise<void> {
    if (id.includes('\0')) return;
    await this.cache.deleteStatus(teamId, id);
  }

  /**
   * Cancels a client's query id in a project: that client's requests end with query_cancelled; a
   * calculation they shared with other clients goes on for them, one nobody waits for any more is
   * stopped. A query id not waited for here is stopped in the engine by its id (another process
   * may run it).
   */
  async cancel(teamId: number, clientQueryId: string): Promise<void> {
    if (this.calculations.cancel(teamId, clientQueryId)) return;
    await this.queries.stopRun(teamId, clientQueryId);
  }

  /** Waits for every background calculation this process started (for shutdown and tests). */
  async drain(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  private async isFresh(entry: CachedEntry, query: InsightQuery, lazy: boolean): Promise<boolean> {
    const times = { lastRefresh: Date.parse(entry.last_refresh), rangeTo: entry.range_to === null ? null : Date.parse(entry.range_to) };
    if (isStaleByClock(times, kindOf(query).cachePolicy(query).interval, this.clock(), lazy)) return false;
    const day = (text: string | null) => (text === null ? null : text.slice(0, 10));
    const [from, to] = [day(entry.range_from), day(entry.range_to)];
    if (this.capture.pending(entry.team_id, from, to)) return false;
    return !(await this.cache.writtenSince(entry.team_id, from, to, entry.computed_at));
  }

  /**
   * Waits for the calculation of this request's key as the client `clientQueryId`, joining one
   * already running here. Background ones take a turn in the queue; a blocking one runs now.
   */
  private calculate(request: ResolvedRequest, clientQueryId: string | undefined, background: boolean): Promise<CalculatedResponse> {
    return this.calculations.join(request.key, request.project.id, clientQueryId, (handle) => {
      if (!background) return { result: this.calculateAndStore(request, handle) };
      return this.queue.add(() => this.calculateAndStore(request, handle));
    }, !background);
  }

  private async calculateAndStore(request: ResolvedRequest, handle: RunHandle): Promise<CalculatedResponse> {
    const { project, query, key } = request;
    const policy = kindOf(query).cachePolicy(query);
    // The calculation reads what was acknowledged before it; taking its time after those events'
    // day marks are written keeps the marks from outdating the very result that counts them.
    await this.capture.settled();
    const computedAt = this.clock();
    const outcome = await this.queries.runInProject(project, query, { clientQueryId: handle.runId, context: request.context, signal: handle.signal });
    const lastRefresh = this.clock();
    const resolved = outcome.extra.resolved_date_range as { date_from?: string; date_to?: string } | undefined;
    const rangeFrom = resolved?.date_from ? Date.parse(resolved.date_from) : NaN;
    const rangeTo = resolved?.date_to ? Date.parse(resolved.date_to) : NaN;
    const response: CalculatedResponse = {
      results: outcome.results,
      hasMore: outcome.hasMore,
      extra: outcome.extra,
      timezone: outcome.timezone,
      last_refresh: iso(lastRefresh),
      cache_target_age: iso(cacheTargetAge(lastRefresh, policy.interval)),
      next_allowed_client_refresh: iso(
        nextAllowedClientRefresh(lastRefresh, policy.interval, Number.isFinite(rangeFrom) && Number.isFinite(rangeTo) ? rangeTo - rangeFrom : null),
      ),
      timings: outcome.timings,
    };
    // Past the hard limit the answer is a 400 asking for a LIMIT; a large one is answered uncached.
    const { text, bytes } = serialisedResult(response, this.limits.maxResultBytes);
    if (bytes <= this.limits.cacheEntryBytes) {
      const entry = {
        cache_key: key,
        team_id: project.id,
        response: text,
        response_bytes: bytes,
        last_refresh: response.last_refresh,
        computed_at: iso(computedAt),
        range_from: policy.readsFromStart || !Number.isFinite(rangeFrom) ? null : iso(rangeFrom - INTERVAL_SLACK_MS[policy.interval]),
        range_to: Number.isFinite(rangeTo) ? iso(rangeTo) : null,
      };
      // The cache only saves work: a store that cannot take it (a full disk) never fails the answer.
      await this.cache.put(entry, this.limits.cacheBytes).catch((error: unknown) => this.onProblem('could not cache a query result; answered it uncached', error));
    }
    return response;
  }

  /**
   * Starts (or finds already running) the background calculation for this request. Its id is the
   * client's query id, else the cache key, as PostHog does. A running status whose process stopped
   * beating for it is taken over, so a dead process never blocks a result for long.
   */
  private async startBackground(request: ResolvedRequest): Promise<{ status: QueryStatusRow; done: Promise<CalculatedResponse> | null }> {
    const teamId = request.project.id;
    const id = request.clientQueryId ?? request.key;
    const now = this.clock();
    const existing = await this.cache.getStatus(teamId, id);
    if (existing && this.isRunning(existing, now)) return { status: existing, done: this.calculations.resultOf(request.key) };
    await this.cache.purgeExpiredStatus(iso(now));
    const status: QueryStatusRow = {
      team_id: teamId,
      id,
      insight_id: request.insightId ?? null,
      dashboard_id: request.dashboardId ?? null,
      complete: 0,
      error: 0,
      error_message: null,
      results: null,
      start_time: iso(now),
      end_time: null,
      expiration_time: iso(now + STATUS_LIFETIME_MS),
      task_id: randomUUID(),
      owner: this.owner,
      heartbeat_at: iso(now),
    };
    // An expired row is gone now; a finished or abandoned one is replaced only if still the same.
    const replacing = existing && Date.parse(existing.expiration_time) >= now ? existing.task_id : null;
    if (!(await this.cache.claimStatus(status, replacing))) {
      // Another request (maybe in another process) claimed it first: that calculation is the one.
      const winner = await this.cache.getStatus(teamId, id);
      return { status: winner ?? status, done: this.calculations.resultOf(request.key) };
    }
    const untrack = this.heartbeat.track(status.task_id);
    const done = this.calculate(request, id, true);
    const finish = (changes: StatusEnd) => this.recordEnd(teamId, id, status.task_id, changes);
    const recorded = done
      .then(
        (response) => finish({ complete: 1, error: 0, error_message: null, results: JSON.stringify(responseBody(response, false)), end_time: iso(this.clock()) }),
        (error) => finish({ complete: 1, error: 1, error_message: exposedMessage(error), results: null, end_time: iso(this.clock()) }),
      )
      .catch((error: unknown) => this.onProblem(`could not record the end of background calculation ${id}`, error))
      .finally(untrack);
    this.background.add(recorded);
    void recorded.finally(() => this.background.delete(recorded));
    return { status, done };
  }

  /**
   * Records a background calculation's end, retried while the store refuses it (the heartbeat goes
   * on meanwhile, so polling clients keep waiting). Every failure is logged. After the last, the
   * heartbeat stops, so the row soon reads as abandoned (failed, "ask again") and the next request
   * calculates it again: never a status stuck at "running".
   */
  private async recordEnd(teamId: number, id: string, taskId: string, changes: StatusEnd): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.cache.finishStatus(teamId, id, taskId, changes);
        return;
      } catch (error) {
        const wait = RECORD_RETRY_MS[attempt - 1];
        if (wait === undefined) {
          this.onProblem(`could not record the end of background calculation ${id} after ${attempt} attempts; its status reads as abandoned once its heartbeat stops, and the next request calculates it again`, error);
          return;
        }
        this.onProblem(`could not record the end of background calculation ${id} (attempt ${attempt}); trying again in ${wait} ms`, error);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /** A status whose calculation is still under way somewhere: not finished, expired or abandoned. */
  private isRunning(row: QueryStatusRow, now: number): boolean {
    return row.complete === 0 && Date.parse(row.expiration_time) > now && !isAbandoned(row, now, this.heartbeat.intervalMs);
  }

  /**
   * A status as clients see it. An abandoned calculation shows as failed (with a message saying to
   * ask again), so a polling client stops waiting; asking again starts a new calculation.
   */
  private statusView(row: QueryStatusRow): QueryStatusView {
    const abandoned = isAbandoned(row, this.clock(), this.heartbeat.intervalMs);
    return {
      id: row.id,
      team_id: row.team_id,
      insight_id: row.insight_id,
      dashboard_id: row.dashboard_id,
      query_async: true,
      complete: row.complete === 1 || abandoned,
      error: row.error === 1 || abandoned,
      error_message: abandoned ? ABANDONED_MESSAGE : row.error_message,
      results: row.results === null ? null : JSON.parse(row.results),
      start_time: row.start_time,
      end_time: row.end_time,
      expiration_time: row.expiration_time,
      pickup_time: row.start_time,
      task_id: row.task_id,
      query_progress: null,
    };
  }
}

/** The body a finished calculation is served with (by /query/ and in a query status's results). */
export function responseBody(response: CalculatedResponse, isCached: boolean) {
  return {
    results: response.results,
    hasMore: response.hasMore,
    hogql: NO_HOGQL,
    ...response.extra,
    is_cached: isCached,
    last_refresh: response.last_refresh,
    cache_target_age: response.cache_target_age,
    next_allowed_client_refresh: response.next_allowed_client_refresh,
    timezone: response.timezone,
    timings: response.timings,
  };
}

/** Errors a client may read (our typed errors); anything else stays internal. */
function exposedMessage(error: unknown): string | null {
  return error instanceof ApiError ? error.detail : null;
}

async function waitAtMost<T>(promise: Promise<T>, ms: number): Promise<{ settled: boolean; value?: T; error?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ settled: false }>((resolve) => { timer = setTimeout(() => resolve({ settled: false }), ms); });
  try {
    return await Promise.race([promise.then((value) => ({ settled: true, value }), (error) => ({ settled: true, error })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
