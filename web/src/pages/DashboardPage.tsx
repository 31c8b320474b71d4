// A dashboard: the filters bar, then its tiles in a 12-column grid placed by each tile's `sm`
// layout (else two per row). Changed filters re-request the dashboard with PostHog's
// `?filters_override=` (the server computes every tile through them for that answer only) until
// Save stores them (PATCH filters) or Discard goes back to the stored ones.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { DashboardFiltersBar } from '../components/DashboardFiltersBar';
import { DashboardTile } from '../components/DashboardTile';
import { draftOf, sameFilters, wireOf, type FiltersDraft } from '../lib/dashboardFilters';
import { useApi } from '../lib/useApi';
import { onLinkClick } from '../router';
import type { Dashboard, DashboardFilters } from '../types';

export function DashboardPage({ project, id }: { project: string; id: string }) {
  const base = `/api/projects/${project}/dashboards/${encodeURIComponent(id)}/`;
  /** What the dashboard stores (from the latest answer); undefined before the first one. */
  const [persisted, setPersisted] = useState<DashboardFilters | null | undefined>(undefined);
  const [draft, setDraft] = useState<FiltersDraft | null>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);

  // The filters to lay over the stored ones, when the draft means something else.
  const wire = draft && persisted !== undefined ? wireOf(draft, persisted) : null;
  const override = wire && !sameFilters(wire, persisted) ? wire : null;
  const pathFor = (refresh: string) => `${base}?refresh=${refresh}${override ? `&filters_override=${encodeURIComponent(JSON.stringify(override))}` : ''}`;
  // `async`: fresh cached tiles at once; the others calculate in the background, each tile
  // following its own query_status, so one slow insight does not hold up the page.
  const dashboard = useApi<Dashboard>(pathFor('async'));
  const d = dashboard.data;

  useEffect(() => {
    if (!d) return;
    setPersisted(d.persisted_filters ?? null);
    // The first answer (or one after Save/Discard) sets what the bar shows.
    setDraft((current) => current ?? draftOf(d.filters));
  }, [d]);

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setActionError(null);
    try {
      await work();
    } catch (e) {
      setActionError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const save = () => act(async () => {
    const saved = await api<Dashboard>(base, { method: 'PATCH', body: { filters: { ...(persisted ?? {}), ...override } } });
    setPersisted(saved.persisted_filters ?? null);
    setDraft(draftOf(saved.filters));
  });
  const discard = () => setDraft(draftOf(persisted));
  // Every tile recalculated in the background; each tile follows its own query_status.
  const refresh = () => act(async () => { dashboard.set(await api<Dashboard>(pathFor('force_async'))); });

  const tiles = (d?.tiles ?? []).filter((t) => t.insight);
  const flow = tiles.every((t) => !t.layouts?.sm);
  const error = dashboard.error ?? actionError;
  return (
    <section>
      <p class="crumbs"><a href={`/project/${project}/dashboard`} onClick={onLinkClick}>Dashboards</a> ›</p>
      <div class="page-head">
        <div>
          <h1 data-testid="dashboard-name">{d?.name ?? 'Dashboard'}</h1>
          {d?.description && <p class="muted">{d.description}</p>}
        </div>
        <div class="head-actions">
          <button type="button" disabled={dashboard.loading || busy} onClick={refresh}>Refresh</button>
        </div>
      </div>
      {draft && (
        <DashboardFiltersBar project={project} draft={draft} onChange={setDraft} dirty={override !== null} busy={busy} onSave={save} onDiscard={discard} />
      )}
      {error && <p class="error" role="alert">{error}</p>}
      {dashboard.loading && <p class="muted loading" aria-live="polite">{d ? 'Calculating…' : 'Loading…'}</p>}
      {d && tiles.length === 0 && <p class="empty">This dashboard has no insights yet.</p>}
      <div class={`tile-grid${flow ? ' flow' : ''}`} data-testid="dashboard-grid" aria-busy={dashboard.loading}>
        {tiles.map((tile) => <DashboardTile key={tile.id} tile={tile} project={project} filters={d?.filters ?? null} />)}
      </div>
    </section>
  );
}
