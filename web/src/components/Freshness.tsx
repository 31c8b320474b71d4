// When a result was computed, whether it came from the cache, and whether the cache counts it as
// stale (past its cache_target_age, PostHog's per-interval threshold), or a calculation under way.
import { ago, when } from '../lib/format';

export interface ResultMeta {
  lastRefresh: string | null;
  isCached?: boolean;
  cacheTargetAge?: string | null;
}

export function isStale(meta: ResultMeta, now = Date.now()): boolean {
  return !!meta.cacheTargetAge && Date.parse(meta.cacheTargetAge) < now;
}

export function Freshness({ meta, refreshing, testId = 'last-computed' }: { meta: ResultMeta; refreshing?: boolean; testId?: string }) {
  const stale = isStale(meta);
  const state = refreshing ? 'refreshing' : !meta.lastRefresh ? 'none' : stale ? 'stale' : meta.isCached ? 'cached' : 'fresh';
  return (
    <span class={`freshness ${state}`} data-testid={testId} data-state={state} data-last-refresh={meta.lastRefresh ?? undefined} title={meta.lastRefresh ? when(meta.lastRefresh) : undefined}>
      {meta.lastRefresh ? `Computed ${ago(meta.lastRefresh)}` : 'Not computed yet'}
      {meta.lastRefresh && (refreshing ? ' · refreshing…' : stale ? ' · stale' : meta.isCached ? ' · from cache' : '')}
    </span>
  );
}
