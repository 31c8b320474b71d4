// An insight's management buttons: Duplicate (POST a copy named "<name> (copy)", as PostHog's
// app does, and open it), Export (CSV of the result as PostHog's exporter lays it out for the
// kind; PNG of the chart's canvas on white) and Delete (PATCH {deleted: true}, confirmed first).
import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { download, exportRows, fileNameOf, toCsv } from '../../lib/csvExport';
import { insightName, viewSourceOf } from '../../lib/query';
import { navigate } from '../../router';
import type { Insight } from '../../types';
import { ConfirmDelete } from '../dashboard/ConfirmDelete';
import { Popover } from '../Popover';

export function InsightActions({ project, insight, result, chart }: {
  project: string;
  insight: Insight;
  /** The result on screen (the saved one, or the edited query's), in the API's shape. */
  result: unknown;
  /** The chart's canvas, when the insight draws one. */
  chart: () => HTMLCanvasElement | null;
}) {
  const [panel, setPanel] = useState<'export' | 'delete' | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = insightName(insight);
  const base = `/api/projects/${project}/insights/`;

  const duplicate = async () => {
    setBusy(true);
    setError(null);
    try {
      const body = { name: `${name} (copy)`, description: insight.description, query: insight.query, filters: insight.filters ?? {}, tags: insight.tags ?? [], saved: true };
      const copy = await api<Insight>(base, { method: 'POST', body });
      navigate(`/project/${project}/insights/${copy.short_id}`);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const exportCsv = () => {
    const source = viewSourceOf(insight);
    // A SQL insight's rows come with their column names; other kinds carry their own labels.
    const rows = exportRows({ results: result, columns: (insight as { columns?: unknown }).columns }, (source?.breakdownFilter as Record<string, any> | undefined) ?? null);
    const url = URL.createObjectURL(new Blob([toCsv(rows)], { type: 'text/csv' }));
    download(fileNameOf(name, 'csv'), url);
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setPanel(null);
  };
  const exportPng = () => {
    const canvas = chart();
    if (!canvas) return;
    // Chart.js draws on a transparent canvas: lay it on white so the file reads anywhere.
    const out = document.createElement('canvas');
    out.width = canvas.width;
    out.height = canvas.height;
    const context = out.getContext('2d')!;
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, out.width, out.height);
    context.drawImage(canvas, 0, 0);
    download(fileNameOf(name, 'png'), out.toDataURL('image/png'));
    setPanel(null);
  };
  const remove = async () => {
    await api(`${base}${insight.id}/`, { method: 'PATCH', body: { deleted: true } });
    navigate(`/project/${project}/insights`);
  };

  return (
    <>
      <button type="button" disabled={busy} onClick={duplicate}>Duplicate</button>
      <button type="button" aria-expanded={panel === 'export'} onClick={() => setPanel(panel === 'export' ? null : 'export')}>Export</button>
      <button type="button" class="danger" aria-expanded={panel === 'delete'} onClick={() => setPanel(panel === 'delete' ? null : 'delete')}>Delete</button>
      {panel === 'export' && (
        <Popover title="Export" onClose={() => setPanel(null)} testId="export-panel">
          <div class="stack">
            <button type="button" disabled={result === null || result === undefined} onClick={exportCsv}>Export CSV</button>
            <button type="button" disabled={!chart()} title={chart() ? undefined : 'This insight draws no chart'} onClick={exportPng}>Export PNG</button>
          </div>
        </Popover>
      )}
      {panel === 'delete' && (
        <ConfirmDelete what="insight" name={name} detail="It leaves every dashboard it is on." onConfirm={remove} onClose={() => setPanel(null)} />
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </>
  );
}
