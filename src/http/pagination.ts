// DRF's limit/offset pagination: {count, next, previous, results} with absolute, sorted links.
import type { FastifyRequest } from 'fastify';

export const DEFAULT_PAGE_SIZE = 100;

/** Hoglet's cap on `limit` (PostHog has none: a huge limit there returns every row). */
export const MAX_LIMIT = 10_000;

/** The activity pages' cap on `limit`. */
export const MAX_PAGE_LIMIT = 1000;

/**
 * The largest offset sent to SQL. Any offset past the rows gives the same empty page, so a bigger
 * one (2^53, 10^30) is clamped to it: exact in a JS number and far below the 2^63 both SQLite and
 * PostgreSQL take, where PostHog would pass it on and fail with a 500 past bigint.
 */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

export interface LimitOffset {
  limit: number;
  offset: number;
}

/**
 * A query parameter written as a non-negative integer, capped at `max`; null when it is anything
 * else (a word, a sign, a fraction, empty), which the callers replace by their default as DRF does.
 */
function wholeNumber(raw: unknown, max: number): number | null {
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value <= max ? value : max;
}

/**
 * DRF's LimitOffsetPagination: a limit that is not a strictly positive integer (abc, -5, 0) is the
 * default, one above MAX_LIMIT is MAX_LIMIT; an offset that is not a non-negative integer is 0, one
 * above MAX_OFFSET is MAX_OFFSET (an empty page).
 */
export function parseLimitOffset(query: unknown, defaultLimit = DEFAULT_PAGE_SIZE): LimitOffset {
  const q = (query ?? {}) as Record<string, unknown>;
  const limit = wholeNumber(q.limit, MAX_LIMIT);
  return { limit: limit === null || limit === 0 ? defaultLimit : limit, offset: wholeNumber(q.offset, MAX_OFFSET) ?? 0 };
}

/**
 * PostHog's activity pages (`?limit=&page=`, 1-based). Bad values are the defaults, as for limit
 * and offset (PostHog answers them with a 500); a page past the last is empty, its number capped
 * so that the offset it makes stays within MAX_OFFSET.
 */
export function parsePageNumber(query: unknown, defaultLimit: number): { limit: number; page: number } {
  const q = (query ?? {}) as Record<string, unknown>;
  const rawLimit = wholeNumber(q.limit, MAX_PAGE_LIMIT);
  const limit = rawLimit === null || rawLimit === 0 ? defaultLimit : rawLimit;
  const page = wholeNumber(q.page, Math.floor(MAX_OFFSET / limit) + 1);
  return { limit, page: page === null || page === 0 ? 1 : page };
}

/** The request's own URL, absolute, with some query parameters replaced (null removes one). */
export function linkTo(
  request: FastifyRequest,
  siteUrl: string | null,
  replace: Record<string, string | null>,
): string {
  const [path = '/', search = ''] = request.url.split('?', 2);
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(replace)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  params.sort();
  const base = siteUrl ?? `${request.protocol}://${request.host}`;
  const query = params.toString();
  return `${base}${path}${query ? `?${query}` : ''}`;
}

export function limitOffsetEnvelope<T>(
  request: FastifyRequest,
  siteUrl: string | null,
  page: LimitOffset,
  count: number,
  results: T[],
) {
  const { limit, offset } = page;
  const next = offset + limit < count ? linkTo(request, siteUrl, { limit: String(limit), offset: String(offset + limit) }) : null;
  let previous: string | null = null;
  if (offset > 0) {
    previous =
      offset - limit <= 0
        ? linkTo(request, siteUrl, { limit: String(limit), offset: null })
        : linkTo(request, siteUrl, { limit: String(limit), offset: String(offset - limit) });
  }
  return { count, next, previous, results };
}

/** PostHog's activity-log pages: {results, next, previous, total_count}, 1-based `page`. */
export function pageNumberEnvelope<T>(
  request: FastifyRequest,
  siteUrl: string | null,
  page: { limit: number; page: number },
  totalCount: number,
  results: T[],
) {
  const link = (n: number) => linkTo(request, siteUrl, { page: String(n), limit: String(page.limit) });
  return {
    results,
    next: page.page * page.limit < totalCount ? link(page.page + 1) : null,
    previous: page.page > 1 ? link(page.page - 1) : null,
    total_count: totalCount,
  };
}
