// A dashboard: the filters bar, then its tiles in a 12-column grid placed by each tile's `sm`
// layout (else two per row). Changed filters re-request the dashboard with PostHog's
// `?filters_override=` (the server computes every tile through them for that answer only) until
// Save stores them (PATCH filters) or Discard goes back to the stored ones.
// Managing it as PostHog's app does: name and description edited in place (PATCH), Edit layout
// (drag and resize on the grid, Save writes each moved tile's `layouts.sm` with PATCH tiles),
// a tile removed with PATCH tiles [{id, deleted: true}], Duplicate (POST use_dashboard) and
// Delete (PATCH deleted: true).
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { DashboardFiltersBar } from '../components/DashboardFiltersBar';
import { BoardGrid } from '../components/dashboard/BoardGrid';
import { ConfirmDelete } from '../components/dashboard/ConfirmDelete';
import { DuplicateDashboard } from '../components/dashboard/DuplicateDashboard';
import { InlineEdit } from '../components/dashboard/InlineEdit';
import { cellOf, cellsOf, sameCell, type Cell } from '../components/dashboard/layout';
import { SharePanel } from '../components/SharePanel';
import { draftOf, sameFilters, wireOf, type FiltersDraft } from '../lib/dashboardFilters';
import { useApi } from '../lib/useApi';
import { navigate, onLinkClick } from '../router';
import type { Dashboard, DashboardFilters, Tile } from '../types';

export function DashboardPage({ project, id }: { project: string; id: string }) {
  const base = `/api/projects/${project}/dashboards/${encodeURIComponent(id)}/`;
  /** What the dashboard stores (from the latest answer); undefined before the first one. */
  const [persisted, setPersisted] = useState<DashboardFilters | null | undefined>(undefined);
  const [draft, setDraft] = useState<FiltersDraft | null>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  /** The cells being laid out (Edit layout); null when not editing. */
  const [layoutDraft, setLayoutDraft] = useState<Map<number, Cell> | null>(null);
  const [panel, setPanel] = useState<'duplicate' | 'delete' | 'share' | { share: Tile } | null>(null);

  // The filters to lay over the stored ones, when the draft means something else.
  const wire = draft && persisted !== undefined ? wireOf(draft, persisted) : null;
  const override = wire && !sameFilters(wire, persisted) ? wire : null;
  const pathFor = (refresh: string) => `${base}?refresh=${refresh}${override ? `&filters_override=${encodeURIComponent(JSON.stringify(override))}` : ''}`;
  // `async`: fresh cached tiles at once; the others calculate in the background, each tile
  // following its own query_status, so one slow insight does not hold up the page.
  const dashboard = useApi<Dashboard>(pathFor('async'));
  const d = dashboard.data;

  // Another dashboard (a duplicate just made, say): nothing of this one's drafts carries over.
  useEffect(() => {
    setPersisted(undefined);
    setDraft(null);
    setLayoutDraft(null);
    setPanel(null);
  }, [id]);

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
  const cells = layoutDraft ?? cellsOf(tiles);
  const error = dashboard.error ?? actionError;

  /** Name, description: PATCH, and the answer's fields shown (its tiles are the ones on screen). */
  const patchField = async (field: 'name' | 'description', value: string) => {
    const saved = await api<Dashboard>(base, { method: 'PATCH', body: { [field]: value } });
    if (d) dashboard.set({ ...d, name: saved.name, description: saved.description });
  };
  /** Each tile whose cell changed, its other breakpoints kept. */
  const saveLayout = () => act(async () => {
    if (!layoutDraft) return;
    const changed = tiles
      .filter((tile) => !sameCell(cellOf(tile.layouts), layoutDraft.get(tile.id)))
      .map((tile) => ({ id: tile.id, layouts: { ...(tile.layouts ?? {}), sm: layoutDraft.get(tile.id) } }));
    if (changed.length > 0) await api<Dashboard>(base, { method: 'PATCH', body: { tiles: changed } });
    if (d) dashboard.set({ ...d, tiles: (d.tiles ?? []).map((tile) => changed.find((c) => c.id === tile.id) ? { ...tile, layouts: changed.find((c) => c.id === tile.id)!.layouts as Tile['layouts'] } : tile) });
    setLayoutDraft(null);
  });
  const removeTile = (tile: Tile) => act(async () => {
    await api<Dashboard>(base, { method: 'PATCH', body: { tiles: [{ id: tile.id, deleted: true }] } });
    if (d) dashboard.set({ ...d, tiles: (d.tiles ?? []).filter((t) => t.id !== tile.id) });
    setLayoutDraft((cells) => { if (!cells) return cells; const next = new Map(cells); next.delete(tile.id); return next; });
  });
  const remove = async () => {
    await api(base, { method: 'PATCH', body: { deleted: true } });
    navigate(`/project/${project}/dashboard`);
  };
  return (
    <section>
      <p class="crumbs"><a href={`/project/${project}/dashboard`} onClick={onLinkClick}>Dashboards</a> ›</p>
      <div class="page-head">
        <div>
          {d ? (
            <InlineEdit value={d.name ?? ''} label="name" onSave={(v) => patchField('name', v)}>
              <h1 data-testid="dashboard-name">{d.name || 'Untitled'}</h1>
            </InlineEdit>
          ) : <h1 data-testid="dashboard-name">Dashboard</h1>}
          {d && (
            <InlineEdit value={d.description ?? ''} label="description" multiline placeholder="What this dashboard is for" onSave={(v) => patchField('description', v)}>
              <p class="muted" data-testid="dashboard-description">{d.description || 'No description'}</p>
            </InlineEdit>
          )}
        </div>
        <div class="head-actions">
          {layoutDraft ? (
            <>
              <button type="button" class="primary" disabled={busy} onClick={saveLayout}>Save layout</button>
              <button type="button" disabled={busy} onClick={() => setLayoutDraft(null)}>Cancel</button>
            </>
          ) : (
            <>
              <button type="button" disabled={dashboard.loading || busy} onClick={refresh}>Refresh</button>
              <button type="button" disabled={!d || tiles.length === 0} onClick={() => setLayoutDraft(cellsOf(tiles))}>Edit layout</button>
              <button type="button" disabled={!d} aria-expanded={panel === 'share'} onClick={() => setPanel(panel === 'share' ? null : 'share')}>Share</button>
              <button type="button" disabled={!d} aria-expanded={panel === 'duplicate'} onClick={() => setPanel(panel === 'duplicate' ? null : 'duplicate')}>Duplicate</button>
              <button type="button" class="danger" disabled={!d} aria-expanded={panel === 'delete'} onClick={() => setPanel(panel === 'delete' ? null : 'delete')}>Delete</button>
            </>
          )}
        </div>
        {d && panel === 'duplicate' && (
          <DuplicateDashboard project={project} dashboard={d} onClose={() => setPanel(null)} onDone={(copy) => { setPanel(null); navigate(`/project/${project}/dashboard/${copy.id}`); }} />
        )}
        {d && panel === 'delete' && (
          <ConfirmDelete what="dashboard" name={d.name || 'Untitled'} detail="Its insights stay in Insights." onConfirm={remove} onClose={() => setPanel(null)} />
        )}
        {d && panel === 'share' && <SharePanel project={project} dashboardId={d.id} onClose={() => setPanel(null)} />}
        {panel && typeof panel === 'object' && (
          <SharePanel project={project} insightId={panel.share.insight!.id} onClose={() => setPanel(null)} />
        )}
      </div>
      {draft && (
        <DashboardFiltersBar project={project} draft={draft} onChange={setDraft} dirty={override !== null} busy={busy} onSave={save} onDiscard={discard} />
      )}
      {error && <p class="error" role="alert">{error}</p>}
      {dashboard.loading && <p class="muted loading" aria-live="polite">{d ? 'Calculating…' : 'Loading…'}</p>}
      {d && tiles.length === 0 && <p class="empty">This dashboard has no insights yet.</p>}
      {layoutDraft && <p class="muted" role="status">Drag a tile by its Move bar, or its corner to resize it; Save layout keeps the places.</p>}
      <BoardGrid tiles={tiles} cells={cells} editing={!!layoutDraft} project={project} filters={d?.filters ?? null}
        onCells={setLayoutDraft} onRemove={removeTile} onShare={(tile) => setPanel({ share: tile })} />
    </section>
  );
}
