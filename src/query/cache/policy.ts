// PostHog's result-cache rules (query_runner.py, caching/utils.py, caching/insights_api.py): the
// refresh modes a client may ask for, the cache key, when a cached result is stale, and how soon a
// client may ask again. Pure functions; where the cache lives is the caller's business.
import { createHash } from 'node:crypto';
import { ValidationError } from '../../errors.js';
import type { Interval } from '../dates/index.js';

export const REFRESH_MODES = ['force_cache', 'blocking', 'async', 'lazy_async', 'force_blocking', 'force_async'] as const;
export type RefreshMode = (typeof REFRESH_MODES)[number];

const TRUE_WORDS = new Set(['true', '1', 'yes', '']);
const FALSE_WORDS = new Set(['false', '0', 'no']);

/**
 * The `refresh` parameter: a named mode, a truthy word (or the bare `?refresh`) for
 * force_blocking, a falsy word or nothing for `fallback`. Anything else is refused.
 */
export function parseRefreshMode(raw: unknown, fallback: RefreshMode): RefreshMode {
  if (raw === undefined || raw === null || raw === false) return fallback;
  if (raw === true) return 'force_blocking';
  if (typeof raw !== 'string') throw refreshError();
  const text = raw.trim().toLowerCase();
  if ((REFRESH_MODES as readonly string[]).includes(text)) return text as RefreshMode;
  if (TRUE_WORDS.has(text)) return 'force_blocking';
  if (FALSE_WORDS.has(text)) return fallback;
  throw refreshError();
}

const refreshError = () =>
  new ValidationError(`refresh must be true, false or one of ${REFRESH_MODES.join(', ')}.`, 'refresh');

/** A shared (sharing-token) view never forces work and always shows data: PostHog's remapping. */
export function sharedRefreshMode(mode: RefreshMode): RefreshMode {
  if (mode === 'force_blocking') return 'blocking';
  if (mode === 'async') return 'async';
  return 'lazy_async';
}

/**
 * An insight list of several rows never waits for calculations: PostHog's list calculates each
 * row in turn when asked to refresh, so one request could run a query per insight one after
 * another. Hoglet serves what is cached and fresh and calculates the rest in the background (those
 * rows show a query_status). A page of one row keeps the mode: that is how PostHog's frontend
 * loads a single insight (`?short_id=…&refresh=…`), and it is one calculation, as a retrieve is.
 */
export function listRefreshMode(mode: RefreshMode, rows: number): RefreshMode {
  if (rows <= 1) return mode;
  if (mode === 'force_blocking') return 'force_async';
  if (mode === 'blocking' || mode === 'lazy_async') return 'async';
  return mode;
}

export const isAsyncMode = (mode: RefreshMode): boolean => mode === 'async' || mode === 'force_async';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const DEFAULT_THRESHOLDS: Record<Interval, number> = { minute: 5 * MINUTE, hour: HOUR, day: 6 * HOUR, week: DAY, month: DAY };
const LAZY_THRESHOLDS: Record<Interval, number> = { minute: 15 * MINUTE, hour: 2 * HOUR, day: 12 * HOUR, week: DAY, month: DAY };
/** A range that ended this long before the calculation can no longer change by the clock alone. */
const SETTLED_GRACE_MS = 10_000;

export interface CachedTimes {
  /** When the result was calculated (ms since epoch). */
  lastRefresh: number;
  /** The end of the date range it covered (ms), or null when unknown. */
  rangeTo: number | null;
}

export const stalenessThreshold = (interval: Interval, lazy: boolean): number => (lazy ? LAZY_THRESHOLDS : DEFAULT_THRESHOLDS)[interval];

/** When a result of this interval should be recalculated by the clock: last_refresh + threshold. */
export const cacheTargetAge = (lastRefresh: number, interval: Interval, lazy = false): number =>
  lastRefresh + stalenessThreshold(interval, lazy);

/** Stale by the clock: the range was still open when calculated and the threshold has passed. */
export function isStaleByClock(times: CachedTimes, interval: Interval, now: number, lazy: boolean): boolean {
  if (times.rangeTo !== null && times.rangeTo < times.lastRefresh - SETTLED_GRACE_MS) return false;
  return now > cacheTargetAge(times.lastRefresh, interval, lazy);
}

/**
 * How soon a client may ask for a recalculation: 1 minute for minute intervals, 3 minutes for
 * hourly data or ranges of at most 7 days, 15 minutes otherwise.
 */
export function nextAllowedClientRefresh(lastRefresh: number, interval: Interval, rangeMs: number | null): number {
  if (interval === 'minute') return lastRefresh + MINUTE;
  if (interval === 'hour' || (rangeMs !== null && rangeMs <= 7 * DAY)) return lastRefresh + 3 * MINUTE;
  return lastRefresh + 15 * MINUTE;
}

/** JSON with object keys sorted at every level, so equal queries give equal text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Bump when the shape of cached responses or of the key changes, so old entries are never read back. */
const CACHE_VERSION = 2;

/** The stable JSON digest of a query node, remembered per node object (nodes are frozen once read). */
const QUERY_DIGESTS = new WeakMap<object, string>();
function queryDigest(query: unknown): string {
  if (query === null || typeof query !== 'object') return stableJson(query);
  let digest = QUERY_DIGESTS.get(query);
  if (digest === undefined) {
    digest = createHash('sha256').update(stableJson(query)).digest('hex');
    QUERY_DIGESTS.set(query, digest);
  }
  return digest;
}

export interface CacheKeyParts {
  /** The validated (normalised) query node. */
  query: unknown;
  teamId: number;
  /**
   * Everything else the answer depends on: the query context's definitions (project settings the
   * runner reads, the actions the query names), from `definitionsOf` in context-key.ts.
   */
  definitions: unknown;
}

export function cacheKey(parts: CacheKeyParts): string {
  const text = stableJson({ query: queryDigest(parts.query), teamId: parts.teamId, definitions: parts.definitions, version: CACHE_VERSION });
  return `cache_${createHash('sha256').update(text).digest('hex').slice(0, 40)}`;
}
