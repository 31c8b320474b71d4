// One saved insight: its cached result first (force_cache), calculated if there is none, a Refresh
// that starts a background calculation (force_async) and follows its query_status until the new
// result replaces the old, and controls that re-run an edited query through /query/.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { AddToDashboard } from '../components/AddToDashboard';
import { InlineEdit } from '../components/dashboard/InlineEdit';
import { InsightActions } from '../components/insight/InsightActions';
import { Freshness, type ResultMeta } from '../components/Freshness';
import { InsightControls } from '../components/InsightControls';
import { InsightView } from '../components/InsightView';
import { AnnotationsContext } from '../components/annotations/context';
import { Progress } from '../components/Progress';
import { SharePanel } from '../components/SharePanel';
import { dateRangeProblem } from '../lib/builder';
import { insightName, isInsightKind, viewSourceOf } from '../lib/query';
import { isSqlQuery, sqlEditorUrl, viewResultOf } from '../lib/sql';
import { newQueryId, type CalculatedBody, type QueryStatus } from '../lib/status';
import { useCalculation } from '../lib/useCalculation';
import { onLinkClick } from '../router';
import type { Insight, QueryNode } from '../types';

interface Shown extends ResultMeta {
  source: QueryNode;
  result: unknown;
  edited: boolean;
}

const metaOf = (answer: { last_refresh?: string | null; is_cached?: boolean; cache_target_age?: string | null }): ResultMeta => ({
  lastRefresh: answer.last_refresh ?? null,
  isCached: !!answer.is_cached,
  cacheTargetAge: answer.cache_target_age ?? null,
});

export function InsightPage({ project, shortId }: { project: string; shortId: string }) {
  const [insight, setInsight] = useState<Insight | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [panel, setPanel] = useState<'dashboard' | 'share' | null>(null);
  const calc = useCalculation(project);
  const latest = useRef(0);
  const card = useRef<HTMLDivElement>(null);
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

  /** A finished background calculation: its result replaces the one on screen (if still that query). */
  const finish = (source: QueryNode, body: CalculatedBody, saved: boolean) => {
    const meta = metaOf(body);
    setShown((s) => (s && s.source === source ? { ...s, ...meta, result: viewResultOf(source, body.results, body) } : s));
    if (saved) setInsight((i) => (i ? { ...i, result: body.results, last_refresh: meta.lastRefresh, is_cached: false, cache_target_age: meta.cacheTargetAge } : i));
  };

  /** Follows a calculation the answer says is running (or just ran) in the background. */
  const followStatus = (status: QueryStatus | null | undefined, source: QueryNode, saved: boolean): boolean => {
    if (!status?.id) return false;
    calc.follow(status.id, (body) => finish(source, body, saved));
    return true;
  };

  const load = () =>
    run(async () => {
      let answer = await api<Insight>(`${base}?refresh=force_cache`);
      // Nothing cached yet: calculate it now rather than show an empty chart.
      if ((answer.result === null || answer.result === undefined) && !answer.query_status && viewSourceOf(answer)) {
        setInsight(answer);
        answer = await api<Insight>(`${base}?refresh=blocking`);
      }
      setInsight(answer);
      const source = viewSourceOf(answer);
      if (!source) return;
      setShown({ source, result: viewResultOf(source, answer.result, answer), edited: false, ...metaOf(answer) });
      // Someone started a calculation of it already: show its result when it lands.
      if (answer.query_status && !answer.query_status.complete) followStatus(answer.query_status as QueryStatus, source, true);
    });

  useEffect(() => {
    setInsight(null);
    setShown(null);
    calc.cancel(false);
    load();
    // Recorded for "last viewed"; a failure here is not worth bothering the user about.
    api(`${base}viewed/`, { method: 'POST' }).catch(() => undefined);
  }, [project, shortId]);

  const rerun = (source: QueryNode) => {
    calc.cancel(false);
    // A range that cannot be asked for is shown in the controls, not run.
    if (dateRangeProblem(source.dateRange?.date_from, source.dateRange?.date_to)) {
      latest.current++;
      setBusy(false);
      setError(null);
      setShown((s) => (s ? { ...s, source, edited: true } : s));
      return;
    }
    return run(async () => {
      setShown((s) => (s ? { ...s, source } : s));
      const answer = await api<CalculatedBody>(`/api/projects/${project}/query/`, {
        method: 'POST',
        body: { query: source, refresh: 'blocking' },
      });
      setShown({ source, result: answer.results, edited: true, ...metaOf(answer) });
    });
  };

  /** PostHog's Refresh: a background calculation (force_async) whose status is polled. */
  const refresh = () => {
    if (!shown) return;
    const source = shown.source;
    const id = newQueryId();
    run(async () => {
      if (shown.edited) {
        const answer = await api<CalculatedBody & { query_status?: QueryStatus | null }>(`/api/projects/${project}/query/`, {
          method: 'POST',
          body: { query: source, refresh: 'force_async', client_query_id: id },
        });
        if (!followStatus(answer.query_status, source, false)) finish(source, answer, false);
        return;
      }
      const answer = await api<Insight>(`${base}?refresh=force_async&client_query_id=${encodeURIComponent(id)}`);
      setInsight(answer);
      if (!followStatus(answer.query_status as QueryStatus | null, source, true)) finish(source, { ...answer, results: answer.result, last_refresh: answer.last_refresh, cache_target_age: answer.cache_target_age }, true);
    });
  };

  const saved = insight ? viewSourceOf(insight) : null;
  // A query neither the builder nor the SQL editor can edit (a data table, a web analytics
  // query...) gets no Edit: saving from the builder would replace it with a trend.
  const sql = isSqlQuery(insight?.query);
  const editable = (!!saved && isInsightKind(saved.kind)) || !insight?.query || sql;
  const problem = error ?? calc.error;
  const rangeProblem = shown ? dateRangeProblem(shown.source.dateRange?.date_from, shown.source.dateRange?.date_to) : null;
  return (
    <section>
      <p class="crumbs"><a href={`/project/${project}/insights`} onClick={onLinkClick}>Insights</a> ›</p>
      {insight && (
        <div class="page-head">
          <div>
            <InlineEdit value={insight.name ?? ''} label="name" placeholder={insightName(insight)} onSave={async (name) => {
              const saved = await api<Insight>(base, { method: 'PATCH', body: { name } });
              setInsight((i) => (i ? { ...i, name: saved.name, derived_name: saved.derived_name } : i));
            }}>
              <h1 data-testid="insight-name">{insightName(insight)}</h1>
            </InlineEdit>
            {insight.description && <p class="muted">{insight.description}</p>}
          </div>
          <div class="head-actions">
            {shown && <Freshness meta={shown} refreshing={!!calc.running} />}
            {shown?.edited && saved && (
              <button type="button" onClick={() => { calc.cancel(false); setError(null); setShown({ source: saved, result: insight.result, edited: false, ...metaOf(insight) }); }}>Reset changes</button>
            )}
            <button type="button" onClick={refresh} disabled={busy || !!calc.running || !shown}>Refresh</button>
            {editable && <a class="button" href={sql ? sqlEditorUrl(project, insight.short_id) : `/project/${project}/insights/${insight.short_id}/edit`} onClick={onLinkClick}>Edit</a>}
            <button type="button" aria-expanded={panel === 'dashboard'} onClick={() => setPanel(panel === 'dashboard' ? null : 'dashboard')}>Add to dashboard</button>
            <button type="button" aria-expanded={panel === 'share'} onClick={() => setPanel(panel === 'share' ? null : 'share')}>Share</button>
            <InsightActions project={project} insight={insight} result={shown?.edited ? shown.result : insight.result} chart={() => card.current?.querySelector('canvas') ?? null} />
          </div>
          {panel === 'dashboard' && <AddToDashboard project={project} insight={insight} onSaved={(i) => setInsight({ ...insight, dashboards: i.dashboards })} onClose={() => setPanel(null)} />}
          {panel === 'share' && <SharePanel project={project} insightId={insight.id} onClose={() => setPanel(null)} />}
        </div>
      )}
      {shown && !shown.source.legacy && !sql && <InsightControls source={shown.source} onChange={rerun} disabled={busy} />}
      {shown?.source.legacy && <p class="muted">This insight is saved as legacy filters; its controls are not editable here.</p>}
      {problem && !shown && <p class="error" role="alert">{problem}</p>}
      {busy && <p class="muted loading" aria-live="polite">Calculating…</p>}
      {calc.running && <Progress since={calc.running.since} onCancel={() => calc.cancel()} />}
      {insight && !saved && (
        <p class="empty" role="status">
          This insight's query ({String(insight.query?.kind ?? 'none')}) is not one this app charts{editable ? '.' : ' or edits: change it through the API.'}
        </p>
      )}
      {shown && (
        <div ref={card} class={`card${calc.running ? ' refreshing' : ''}`} aria-busy={busy || !!calc.running}>
          {/* A failed run replaces the chart: the one before answered another question. */}
          {problem
            ? <p class="error insight-error" role="alert" data-testid="insight-error">{problem}</p>
            : rangeProblem ? <p class="empty">{rangeProblem}</p> : (
              <AnnotationsContext.Provider value={{ projectId: project, insightId: insight?.id ?? null, dashboardId: null }}>
                <InsightView source={shown.source} result={shown.result} projectId={project} />
              </AnnotationsContext.Provider>
            )}
        </div>
      )}
    </section>
  );
}
