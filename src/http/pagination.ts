// DRF's limit/offset pagination: {count, next, previous, results} with absolute, sorted links.
import type { FastifyRequest } from 'fastify';

export const DEFAULT_PAGE_SIZE = 100;

export interface LimitOffset {
  limit: number;
  offset: number;
}

/** A strictly positive integer, or the fallback (DRF ignores bad limits rather than failing). */
function positiveInt(raw: unknown, fallback: number, allowZero = false): number {
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || (value === 0 && !allowZero)) return fallback;
  return value;
}

export function parseLimitOffset(query: unknown, defaultLimit = DEFAULT_PAGE_SIZE): LimitOffset {
  const q = (query ?? {}) as Record<string, unknown>;
  return {
    limit: Math.min(positiveInt(q.limit, defaultLimit), 10_000),
    offset: positiveInt(q.offset, 0, true),
  };
}

export function parsePageNumber(query: unknown, defaultLimit: number): { limit: number; page: number } {
  const q = (query ?? {}) as Record<string, unknown>;
  return { limit: Math.min(positiveInt(q.limit, defaultLimit), 1000), page: positiveInt(q.page, 1) };
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
