// New insight (/insights/new) or an edit of a saved one (/insights/:id/edit): tabs per kind,
// series or steps from the project's events and actions, filters, breakdown, range; the query
// runs through /query/ as it changes and the preview draws it with the insight page's charts.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { BreakdownPicker } from '../components/builder/BreakdownPicker';
import { KindSettings } from '../components/builder/KindSettings';
import { SeriesEditor } from '../components/builder/SeriesEditor';
import { InsightControls } from '../components/InsightControls';
import { InsightView } from '../components/InsightView';
import { PropertyFilters } from '../components/PropertyFilters';
import { blankQuery, cleanQuery, KIND_TABS, problemOf, seriesLabel, switchKind } from '../lib/builder';
import { readFilters } from '../lib/filters';
import { controlsOf, insightName, sourceOf, type InsightKind } from '../lib/query';
import { isSqlQuery, sqlEditorUrl } from '../lib/sql';
import { runQuery } from '../lib/run';
import { navigate, onLinkClick } from '../router';
import type { Insight, QueryNode } from '../types';

/** A name for an unnamed insight, as PostHog derives one from its series. */
function derivedName(source: QueryNode): string {
  const names = (source.series ?? []).map(seriesLabel);
  if (source.kind === 'FunnelsQuery') return names.join(' → ');
  if (source.kind === 'RetentionQuery') return `Retention of ${seriesLabel({ kind: 'EventsNode', event: source.retentionFilter?.targetEntity?.id, name: source.retentionFilter?.targetEntity?.name })}`;
  if (source.kind === 'PathsQuery') return 'User paths';
  const kind = source.kind === 'TrendsQuery' ? '' : `${source.kind.replace(/Query$/, '')} of `;
  return `${kind}${names.join(' & ')}`;
}

export function InsightBuilder({ project, shortId }: { project: string; shortId?: string }) {
  const [insight, setInsight] = useState<Insight | null>(null);
  const [source, setSource] = useState<QueryNode | null>(shortId ? null : blankQuery('TrendsQuery'));
  const [name, setName] = useState('');
  const [shown, setShown] = useState<{ source: QueryNode; result: unknown } | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The last run's failure: shown where the chart was, never beside a stale chart. */
  const [runError, setRunError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  /** A saved query of a kind the builder cannot edit: shown, never saved over. */
  const [uneditable, setUneditable] = useState<QueryNode | null>(null);

  useEffect(() => {
    if (!shortId) return;
    api<Insight>(`/api/projects/${project}/insights/${encodeURIComponent(shortId)}/?refresh=force_cache`)
      .then((found) => {
        setInsight(found);
        setName(found.name ?? '');
        const saved = sourceOf(found);
        // SQL is edited in the SQL editor, which saves it as the SQL it is.
        if (isSqlQuery(found.query)) {
          navigate(sqlEditorUrl(project, found.short_id), true);
          return;
        }
        if (!saved && found.query) {
          setUneditable(found.query);
          return;
        }
        setSource(saved && !saved.legacy ? saved : blankQuery('TrendsQuery'));
        if (!saved || saved.legacy) setError('This insight is saved as legacy filters: the builder starts from a new trend.');
      })
      .catch((e) => setError(e instanceof ApiError ? e.message : String(e)));
  }, [project, shortId]);

  const clean = source ? cleanQuery(source) : null;
  const key = JSON.stringify(clean);
  const problem = source ? problemOf(source) : null;

  useEffect(() => {
    if (!clean || problem) return;
    const controller = new AbortController();
    // Typing in a box changes the query at every key; run once the edits pause.
    const timer = setTimeout(() => {
      setRunning(true);
      setRunError(null);
      runQuery<{ results: unknown }>(project, clean, controller.signal)
        .then((answer) => { setShown({ source: clean, result: answer.results }); setRunning(false); })
        .catch((e) => {
          if ((e as Error).name === 'AbortError') return;
          setShown(null);
          setRunError(e instanceof ApiError ? e.message : String(e));
          setRunning(false);
        });
    }, 250);
    return () => { clearTimeout(timer); controller.abort(); setRunning(false); };
  }, [key, problem]);

  const save = async () => {
    if (!clean || uneditable) return;
    setSaving(true);
    setError(null);
    // An edited insight keeps its InsightVizNode's other fields (PostHog's display options).
    const viz = insight?.query?.kind === 'InsightVizNode' ? insight.query : {};
    const body: Record<string, unknown> = { name: name.trim() || null, derived_name: derivedName(clean), query: { ...viz, kind: 'InsightVizNode', source: clean } };
    try {
      const saved = insight
        ? await api<Insight>(`/api/projects/${project}/insights/${insight.id}/`, { method: 'PATCH', body })
        : await api<Insight>(`/api/projects/${project}/insights/`, { method: 'POST', body: { ...body, saved: true } });
      navigate(`/project/${project}/insights/${saved.short_id}`);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setSaving(false);
    }
  };

  const kind = source?.kind as InsightKind | undefined;
  const ready = !!shown && !running && JSON.stringify(shown.source) === key;
  return (
    <section class="builder">
      <p class="crumbs">
        <a href={`/project/${project}/insights`} onClick={onLinkClick}>Insights</a> ›
        {insight && <> <a href={`/project/${project}/insights/${insight.short_id}`} onClick={onLinkClick}>{insightName(insight)}</a> ›</>}
      </p>
      <div class="page-head">
        <h1>{insight ? 'Edit insight' : 'New insight'}</h1>
        <div class="head-actions">
          <input name="insight-name" aria-label="Insight name" placeholder={clean ? derivedName(clean) : 'Name'} value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
          {insight && <a class="button" href={`/project/${project}/insights/${insight.short_id}`} onClick={onLinkClick}>Cancel</a>}
          {!uneditable && <button type="button" class="primary" disabled={!clean || !!problem || saving} onClick={save}>{saving ? 'Saving…' : 'Save'}</button>}
        </div>
      </div>
      {source && kind && (
        <>
          <div class="tabs" role="tablist" aria-label="Insight kind">
            {KIND_TABS.map(([k, label]) => (
              <button type="button" role="tab" aria-selected={k === kind} onClick={() => setSource(switchKind(source, k))}>{label}</button>
            ))}
          </div>
          <div class="builder-grid">
            <div class="card builder-editor" aria-label="Query">
              {Array.isArray(source.series) && (
                <section>
                  <h2>{kind === 'FunnelsQuery' ? 'Steps' : 'Series'}</h2>
                  <SeriesEditor project={project} kind={kind} series={source.series} onChange={(series) => setSource({ ...source, series })} />
                </section>
              )}
              <KindSettings project={project} source={source} onChange={setSource} />
              <section>
                <h2>Filters</h2>
                <PropertyFilters project={project} label="Global filters" filters={readFilters(source.properties)} onChange={(properties) => setSource({ ...source, properties })} />
                <label class="check">
                  <input type="checkbox" name="filter-test-accounts" checked={!!source.filterTestAccounts} onChange={(e) => setSource({ ...source, filterTestAccounts: (e.currentTarget as HTMLInputElement).checked })} />
                  Filter out internal and test users
                </label>
              </section>
              {controlsOf(kind).breakdown && (
                <section>
                  <h2>Breakdown</h2>
                  <BreakdownPicker project={project} source={source} onChange={setSource} />
                </section>
              )}
            </div>
            <div class="builder-preview">
              <InsightControls source={source} onChange={setSource} noBreakdown />
              {problem && <p class="muted" role="status">{problem}</p>}
              {error && <p class="error" role="alert">{error}</p>}
              {running && <p class="muted loading" aria-live="polite">Calculating…</p>}
              <div class="card" data-testid="builder-preview" data-state={ready ? 'ready' : 'pending'} aria-busy={!ready}>
                {runError && !problem
                  ? <p class="error insight-error" role="alert" data-testid="insight-error">{runError}</p>
                  : shown && !problem ? <InsightView key={shown.source.kind} source={shown.source} result={shown.result} projectId={project} /> : <p class="empty">{problem ?? 'Calculating…'}</p>}
              </div>
            </div>
          </div>
        </>
      )}
      {uneditable && (
        <>
          <p class="empty" role="status">This insight's query ({String(uneditable.kind)}) cannot be edited here: saving from the builder would replace it. Change it through the API.</p>
          <pre class="card" data-testid="uneditable-query">{JSON.stringify(uneditable, null, 2)}</pre>
        </>
      )}
      {!source && !error && !uneditable && <p class="muted">Loading…</p>}
    </section>
  );
}
