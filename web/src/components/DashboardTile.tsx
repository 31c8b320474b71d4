// One dashboard tile: its insight drawn small from the result the dashboard answered (computed
// through the dashboard's filters), when that was computed, and a background calculation's
// progress when the answer started one. Read-only (a shared dashboard's page, no session): the name
// links nowhere, no calculation is followed, no annotations or people are asked for.
import { useEffect, useState } from 'preact/hooks';
import { throughDashboard } from '../lib/dashboardFilters';
import { insightName, viewSourceOf } from '../lib/query';
import { viewResultOf } from '../lib/sql';
import { useCalculation } from '../lib/useCalculation';
import { onLinkClick } from '../router';
import type { DashboardFilters, Tile } from '../types';
import { Freshness, type ResultMeta } from './Freshness';
import { InsightView } from './InsightView';
import { AnnotationsContext } from './annotations/context';
import { Progress } from './Progress';

/** The dashboard this tile is drawn on, from the page's path (/project/:id/dashboard/:dashboardId). */
const dashboardIdOfPage = (): number | null => {
  const match = /\/dashboard\/(\d+)/.exec(location.pathname);
  return match ? Number(match[1]) : null;
};

export function DashboardTile({ tile, project, filters, readOnly = false }: { tile: Tile; project: string; filters: DashboardFilters | null; readOnly?: boolean }) {
  const insight = tile.insight!;
  const saved = viewSourceOf(insight);
  const calc = useCalculation(project);
  const [landed, setLanded] = useState<{ result: unknown; meta: ResultMeta } | null>(null);

  useEffect(() => {
    setLanded(null);
    const status = insight.query_status;
    if (!readOnly && status?.id && !status.complete) {
      calc.follow(status.id, (body) => setLanded({
        result: viewResultOf(saved, body.results, body),
        meta: { lastRefresh: body.last_refresh ?? null, isCached: false, cacheTargetAge: body.cache_target_age ?? null },
      }));
    } else calc.cancel(false);
  }, [insight]);

  const meta: ResultMeta = landed?.meta ?? {
    lastRefresh: tile.last_refresh ?? insight.last_refresh,
    isCached: tile.is_cached ?? insight.is_cached,
    cacheTargetAge: insight.cache_target_age ?? null,
  };
  const result = landed ? landed.result : viewResultOf(saved, insight.result, insight);
  const layout = tile.layouts?.sm;
  const style = layout
    ? { '--x': layout.x + 1, '--y': layout.y + 1, '--w': Math.max(1, Math.min(12, layout.w)), '--h': Math.max(2, layout.h) }
    : undefined;
  return (
    <article class={`card tile${layout ? ' placed' : ''}`} style={style as any} data-testid="dashboard-tile" data-insight={insight.short_id} aria-busy={!!calc.running}>
      <header class="tile-head">
        {readOnly
          ? <span class="tile-name">{insightName(insight)}</span>
          : <a href={`/project/${project}/insights/${insight.short_id}`} onClick={onLinkClick}>{insightName(insight)}</a>}
        <Freshness meta={meta} refreshing={!!calc.running} testId="tile-computed" />
      </header>
      {calc.running && <Progress since={calc.running.since} label="Calculating" />}
      {readOnly && insight.query_status?.id && !insight.query_status.complete && <p class="muted" role="status">Calculating…</p>}
      {calc.error && <p class="error">{calc.error}</p>}
      {calc.running && (result === null || result === undefined) ? null : saved && readOnly
        ? <InsightView source={throughDashboard(saved, filters)} result={result} compact />
        : saved
        ? (
          <AnnotationsContext.Provider value={{ projectId: project, insightId: insight.id, dashboardId: dashboardIdOfPage() }}>
            <InsightView source={throughDashboard(saved, filters)} result={result} compact projectId={project} />
          </AnnotationsContext.Provider>
        )
        : <p class="empty">This insight cannot be shown here.</p>}
    </article>
  );
}
