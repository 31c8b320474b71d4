// A dashboard: its tiles in a 12-column grid placed by each tile's `sm` layout (else two per
// row), each drawing its insight's cached result small. The date filter re-runs every tile's
// query with that range through /query/: Hoglet has no `filters_override` on dashboard retrieve.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { InsightView } from '../components/InsightView';
import { ago } from '../lib/format';
import { insightName, sourceOf, withDateRange } from '../lib/query';
import { useApi } from '../lib/useApi';
import { onLinkClick } from '../router';
import type { Dashboard, Tile } from '../types';

const RANGES: [string, string][] = [
  ['', 'Dashboard default'],
  ['-7d', 'Last 7 days'],
  ['-14d', 'Last 14 days'],
  ['-30d', 'Last 30 days'],
  ['-90d', 'Last 90 days'],
  ['all', 'All time'],
];

export function DashboardPage({ project, id }: { project: string; id: string }) {
  const [refresh, setRefresh] = useState<'force_cache' | 'blocking' | 'force_blocking'>('blocking');
  const dashboard = useApi<Dashboard>(`/api/projects/${project}/dashboards/${encodeURIComponent(id)}/?refresh=${refresh}`);
  const [range, setRange] = useState('');
  const d = dashboard.data;
  const tiles = (d?.tiles ?? []).filter((t) => t.insight);
  const flow = tiles.every((t) => !t.layouts?.sm);

  return (
    <section>
      <p class="crumbs"><a href={`/project/${project}/dashboard`} onClick={onLinkClick}>Dashboards</a> ›</p>
      <div class="page-head">
        <div>
          <h1 data-testid="dashboard-name">{d?.name ?? 'Dashboard'}</h1>
          {d?.description && <p class="muted">{d.description}</p>}
        </div>
        <div class="head-actions">
          <label>
            Date range
            <select name="dashboard-range" value={range} onChange={(e) => setRange((e.currentTarget as HTMLSelectElement).value)}>
              {RANGES.map(([value, label]) => <option value={value}>{value === '' && d?.filters?.date_from ? `Dashboard default (${d.filters.date_from})` : label}</option>)}
            </select>
          </label>
          <button type="button" disabled={dashboard.loading} onClick={() => { if (refresh === 'force_blocking') dashboard.reload(); else setRefresh('force_blocking'); }}>Refresh</button>
        </div>
      </div>
      {dashboard.error && <p class="error" role="alert">{dashboard.error}</p>}
      {dashboard.loading && !d && <p class="muted">Loading…</p>}
      {d && tiles.length === 0 && <p class="empty">This dashboard has no insights yet.</p>}
      <div class={`tile-grid${flow ? ' flow' : ''}`} data-testid="dashboard-grid">
        {tiles.map((tile) => <TileCard key={tile.id} tile={tile} project={project} range={range} />)}
      </div>
    </section>
  );
}

function TileCard({ tile, project, range }: { tile: Tile; project: string; range: string }) {
  const insight = tile.insight!;
  const saved = sourceOf(insight);
  const [override, setOverride] = useState<{ source: NonNullable<typeof saved>; result: unknown } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setError(null);
    if (!range || !saved || saved.legacy) { setOverride(null); return; }
    const controller = new AbortController();
    const source = withDateRange(saved, range, null);
    setBusy(true);
    api<{ results: unknown }>(`/api/projects/${project}/query/`, { method: 'POST', body: { query: source, refresh: 'blocking' }, signal: controller.signal })
      .then((answer) => { setOverride({ source, result: answer.results }); setBusy(false); })
      .catch((e) => {
        if ((e as Error).name === 'AbortError') return;
        setError(e instanceof ApiError ? e.message : String(e));
        setBusy(false);
      });
    return () => controller.abort();
  }, [range, insight.id]);

  const layout = tile.layouts?.sm;
  const style = layout
    ? { '--x': layout.x + 1, '--y': layout.y + 1, '--w': Math.max(1, Math.min(12, layout.w)), '--h': Math.max(2, layout.h) }
    : undefined;
  const shown = override ?? (saved ? { source: saved, result: insight.result } : null);
  return (
    <article class={`card tile${layout ? ' placed' : ''}`} style={style as any} data-testid="dashboard-tile" data-insight={insight.short_id} aria-busy={busy}>
      <header class="tile-head">
        <a href={`/project/${project}/insights/${insight.short_id}`} onClick={onLinkClick}>{insightName(insight)}</a>
        <span class="muted">{tile.last_refresh || insight.last_refresh ? ago(tile.last_refresh ?? insight.last_refresh) : ''}</span>
      </header>
      {error && <p class="error">{error}</p>}
      {shown ? <InsightView source={shown.source} result={shown.result} compact projectId={project} /> : <p class="empty">This insight cannot be shown here.</p>}
    </article>
  );
}
