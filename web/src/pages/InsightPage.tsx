// One saved insight: its cached result first (force_cache), calculated if there is none, a Refresh
// that forces a new calculation, and controls that re-run an edited query through /query/.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { AddToDashboard } from '../components/AddToDashboard';
import { InsightControls } from '../components/InsightControls';
import { InsightView } from '../components/InsightView';
import { SharePanel } from '../components/SharePanel';
import { ago, when } from '../lib/format';
import { insightName, sourceOf } from '../lib/query';
import { onLinkClick } from '../router';
import type { Insight, QueryNode } from '../types';

interface Shown {
  source: QueryNode;
  result: unknown;
  lastRefresh: string | null;
  edited: boolean;
}

export function InsightPage({ project, shortId }: { project: string; shortId: string }) {
  const [insight, setInsight] = useState<Insight | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [panel, setPanel] = useState<'dashboard' | 'share' | null>(null);
  const latest = useRef(0);
  const base = `/api/projects/${project}/insights/${encodeURIComponent(shortId)}/`;

  /** Every load bumps a counter; an answer that is no longer the latest is dropped. */
  const run = async (work: () => Promise<void>) => {
    const mine = ++latest.current;
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      if (mine === latest.current) setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      if (mine === latest.current) setBusy(false);
    }
  };

  const load = (refresh: 'force_cache' | 'blocking' | 'force_blocking') =>
    run(async () => {
      let answer = await api<Insight>(`${base}?refresh=${refresh}`);
      // Nothing cached yet: calculate it now rather than show an empty chart.
      if (refresh === 'force_cache' && (answer.result === null || answer.result === undefined) && sourceOf(answer)) {
        setInsight(answer);
        answer = await api<Insight>(`${base}?refresh=blocking`);
      }
      setInsight(answer);
      const source = sourceOf(answer);
      if (source) setShown({ source, result: answer.result, lastRefresh: answer.last_refresh, edited: false });
    });

  useEffect(() => {
    setInsight(null);
    setShown(null);
    load('force_cache');
    // Recorded for "last viewed"; a failure here is not worth bothering the user about.
    api(`${base}viewed/`, { method: 'POST' }).catch(() => undefined);
  }, [project, shortId]);

  const rerun = (source: QueryNode) =>
    run(async () => {
      setShown((s) => (s ? { ...s, source } : s));
      const answer = await api<{ results: unknown; last_refresh?: string | null }>(`/api/projects/${project}/query/`, {
        method: 'POST',
        body: { query: source, refresh: 'blocking' },
      });
      setShown({ source, result: answer.results, lastRefresh: answer.last_refresh ?? null, edited: true });
    });

  const refresh = () => {
    if (shown?.edited) {
      run(async () => {
        const answer = await api<{ results: unknown; last_refresh?: string | null }>(`/api/projects/${project}/query/`, {
          method: 'POST',
          body: { query: shown.source, refresh: 'force_blocking' },
        });
        setShown({ ...shown, result: answer.results, lastRefresh: answer.last_refresh ?? null });
      });
    } else load('force_blocking');
  };

  const saved = insight ? sourceOf(insight) : null;
  return (
    <section>
      <p class="crumbs"><a href={`/project/${project}/insights`} onClick={onLinkClick}>Insights</a> ›</p>
      {insight && (
        <div class="page-head">
          <div>
            <h1 data-testid="insight-name">{insightName(insight)}</h1>
            {insight.description && <p class="muted">{insight.description}</p>}
          </div>
          <div class="head-actions">
            <span class="muted" data-testid="last-computed" title={shown?.lastRefresh ?? undefined}>
              {shown?.lastRefresh ? `Computed ${ago(shown.lastRefresh)} (${when(shown.lastRefresh)})` : 'Not computed yet'}
            </span>
            {shown?.edited && saved && <button type="button" onClick={() => setShown({ source: saved, result: insight.result, lastRefresh: insight.last_refresh, edited: false })}>Reset changes</button>}
            <button type="button" onClick={refresh} disabled={busy}>Refresh</button>
            <a class="button" href={`/project/${project}/insights/${insight.short_id}/edit`} onClick={onLinkClick}>Edit</a>
            <button type="button" aria-expanded={panel === 'dashboard'} onClick={() => setPanel(panel === 'dashboard' ? null : 'dashboard')}>Add to dashboard</button>
            <button type="button" aria-expanded={panel === 'share'} onClick={() => setPanel(panel === 'share' ? null : 'share')}>Share</button>
          </div>
          {panel === 'dashboard' && <AddToDashboard project={project} insight={insight} onSaved={(i) => setInsight({ ...insight, dashboards: i.dashboards })} onClose={() => setPanel(null)} />}
          {panel === 'share' && <SharePanel project={project} insightId={insight.id} onClose={() => setPanel(null)} />}
        </div>
      )}
      {shown && !shown.source.legacy && <InsightControls source={shown.source} onChange={rerun} disabled={busy} />}
      {shown?.source.legacy && <p class="muted">This insight is saved as legacy filters; its controls are not editable here.</p>}
      {error && <p class="error" role="alert">{error}</p>}
      {busy && <p class="muted loading" aria-live="polite">Calculating…</p>}
      {insight && !saved && <p class="empty">This insight's query ({String(insight.query?.kind ?? 'none')}) is not one this app charts.</p>}
      {insight?.query_status && insight.result == null && insight.query_status.error && <p class="error">{insight.query_status.error_message}</p>}
      {shown && (
        <div class="card" aria-busy={busy}>
          <InsightView source={shown.source} result={shown.result} projectId={project} />
        </div>
      )}
    </section>
  );
}
