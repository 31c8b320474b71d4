// PostHog's SQL editor: HogQL in CodeMirror (completion and problems from the server), run with
// the button or Cmd/Ctrl+Enter, the answer as a table or a chart of chosen columns, {filters}
// filled from a date range and property filters, saved as a DataVisualizationNode insight (or
// over the one opened with ?open_insight=) and put on a dashboard.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { AddToDashboard } from '../components/AddToDashboard';
import { DateRangePicker } from '../components/DateRangePicker';
import { PropertyFilters } from '../components/PropertyFilters';
import { SqlChart } from '../components/sql/SqlChart';
import { SqlCodeEditor, type Notice, type SqlEditorHandle } from '../components/sql/SqlCodeEditor';
import { SqlTable } from '../components/sql/SqlTable';
import { SqlVizControls } from '../components/sql/SqlVizControls';
import { complete, readFilters, type PropertyFilter } from '../lib/filters';
import { insightName } from '../lib/query';
import { defaultAxes, lineColumn, sqlEditorUrl, sqlNode, sqlNodeOf, sqlResultOf, vizOf, type SqlResult, type SqlViz } from '../lib/sql';
import { runQuery } from '../lib/run';
import { navigate, onLinkClick } from '../router';
import type { Insight, QueryNode } from '../types';

const STARTER = 'select event, count() as count\nfrom events\nwhere {filters}\ngroup by event\norder by count desc\nlimit 100';

/** The marks a test (and the bench) reads: from the run's answer arriving to its result drawn. */
export const MARKS = { response: 'hoglet:sql-response', drawn: 'hoglet:sql-drawn', draw: 'hoglet:sql-draw' };

interface RunError {
  message: string;
  /** Where in the text that ran (HogQL's own refusals say; engine errors do not). */
  notices: Notice[];
  text: string;
}

export function SqlEditorPage({ project, openInsight }: { project: string; openInsight: string | null }) {
  const [text, setText] = useState(openInsight ? '' : STARTER);
  const [dateFrom, setDateFrom] = useState<string | null>(null);
  const [dateTo, setDateTo] = useState<string | null>(null);
  const [properties, setProperties] = useState<PropertyFilter[]>([]);
  const [viz, setViz] = useState<SqlViz>({ display: 'ActionsTable', x: null, y: [] });
  const [result, setResult] = useState<SqlResult | null>(null);
  const [runError, setRunError] = useState<RunError | null>(null);
  const [running, setRunning] = useState(false);
  const [problems, setProblems] = useState<Notice[] | null>(null);
  /** The insight being edited (opened, or saved from here). */
  const [insight, setInsight] = useState<Insight | null>(null);
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [panel, setPanel] = useState(false);
  const editor = useRef<SqlEditorHandle | null>(null);
  /** Bumped when a text comes from outside the editor (an opened insight): a fresh editor shows it. */
  const [editorKey, setEditorKey] = useState(0);
  const latest = useRef(0);
  const awaitingDraw = useRef(false);

  /** The HogQLQuery to run or save: the opened one's other fields kept, {filters} from the pickers. */
  const hogqlQuery = (query: string): QueryNode => {
    const base = sqlNodeOf(insight?.query)?.source ?? {};
    const filters: Record<string, unknown> = { ...(base.filters ?? {}) };
    delete filters.dateRange;
    delete filters.properties;
    if (dateFrom) filters.dateRange = { date_from: dateFrom, date_to: dateTo };
    const props = complete(properties);
    if (props.length) filters.properties = props;
    const next: QueryNode = { ...base, kind: 'HogQLQuery', query };
    if (Object.keys(filters).length) next.filters = filters;
    else delete next.filters;
    return next;
  };

  const showAnswer = (answer: SqlResult) => {
    setResult(answer);
    setViz((v) => {
      // Keep the user's axes while they still name columns of the answer.
      const axes = defaultAxes(answer);
      const x = v.x && answer.columns.includes(v.x) ? v.x : axes.x;
      const y = v.y.filter((c) => answer.columns.includes(c));
      return { ...v, x, y: y.length ? y : axes.y };
    });
  };

  const run = async () => {
    const query = text;
    if (!query.trim()) return;
    const mine = ++latest.current;
    setRunning(true);
    setRunError(null);
    try {
      const answer = await runQuery<Record<string, unknown>>(project, hogqlQuery(query));
      if (mine !== latest.current) return;
      // One hoglet:sql-draw measure per run is kept, for a test or a bench to read them all.
      performance.mark(MARKS.response);
      awaitingDraw.current = true;
      showAnswer(sqlResultOf(answer) ?? { columns: [], types: [], results: [], hasMore: false });
    } catch (e) {
      if (mine !== latest.current) return;
      // Never leave the previous answer on screen as if it were this query's.
      setResult(null);
      const body = e instanceof ApiError ? (e.body as any) : null;
      const notices: Notice[] = (body?.extra?.hogql_metadata?.errors ?? []).filter((n: Notice) => typeof n.start === 'number');
      setRunError({ message: e instanceof ApiError ? e.message : String(e), notices, text: query });
      if (notices.length) editor.current?.showNotices(notices);
    } finally {
      if (mine === latest.current) setRunning(false);
    }
  };

  // The first frame with the answer on screen: the DOM holds it once this layout effect runs;
  // the next animation frame paints it, and a task queued from that frame runs after the paint.
  useLayoutEffect(() => {
    if (!result || !awaitingDraw.current) return;
    awaitingDraw.current = false;
    requestAnimationFrame(() => setTimeout(() => {
      performance.mark(MARKS.drawn);
      performance.measure(MARKS.draw, MARKS.response, MARKS.drawn);
    }));
  }, [result]);

  // An insight opened here: its query, filters and drawing, and its cached answer (else a run).
  useEffect(() => {
    if (!openInsight) { setInsight(null); return; }
    let cancelled = false;
    api<Insight & Record<string, unknown>>(`/api/projects/${project}/insights/${encodeURIComponent(openInsight)}/?refresh=force_cache`)
      .then((found) => {
        if (cancelled) return;
        const node = sqlNodeOf(found.query);
        if (!node) {
          setMessage({ error: true, text: `This insight's query (${String(found.query?.kind ?? 'none')}) is not SQL: open it from its own page.` });
          return;
        }
        setInsight(found);
        setName(found.name ?? '');
        setText(String(node.source.query ?? ''));
        setEditorKey((k) => k + 1);
        const range = node.source.filters?.dateRange;
        setDateFrom(range?.date_from ?? null);
        setDateTo(range?.date_to ?? null);
        setProperties(readFilters(node.source.filters?.properties) ?? []);
        setViz(vizOf(node));
        const cached = sqlResultOf(found);
        if (cached) setResult(cached);
      })
      .catch((e) => { if (!cancelled) setMessage({ error: true, text: e instanceof ApiError ? e.message : String(e) }); });
    return () => { cancelled = true; };
  }, [project, openInsight]);

  const save = async () => {
    setSaving(true);
    setMessage(null);
    try {
      // An opened DataVisualizationNode keeps its other settings (goal lines, table settings...).
      const query = sqlNode(sqlNodeOf(insight?.query), hogqlQuery(text), viz);
      const body = { name: name.trim() || null, query };
      const saved = insight
        ? await api<Insight>(`/api/projects/${project}/insights/${insight.id}/`, { method: 'PATCH', body })
        : await api<Insight>(`/api/projects/${project}/insights/`, { method: 'POST', body: { ...body, saved: true } });
      setInsight(saved);
      setMessage({ error: false, text: insight ? 'Saved.' : 'Saved as a new insight.' });
      if (!insight) navigate(sqlEditorUrl(project, saved.short_id), true);
    } catch (e) {
      setMessage({ error: true, text: e instanceof ApiError ? e.message : String(e) });
    } finally {
      setSaving(false);
    }
  };

  const where = runError?.notices[0] && typeof runError.notices[0].start === 'number' ? lineColumn(runError.text, runError.notices[0].start) : null;
  const usesFilters = /\{filters\}/.test(text);
  return (
    <section class="sql-page">
      <div class="page-head">
        <div>
          <h1>SQL editor</h1>
          {insight && (
            <p class="muted" data-testid="sql-insight">
              Editing <a href={`/project/${project}/insights/${insight.short_id}`} onClick={onLinkClick}>{insightName(insight)}</a>
            </p>
          )}
        </div>
        <div class="head-actions">
          <label class="sql-name">Name
            <input name="insight-name" value={name} placeholder="Untitled SQL insight" onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
          </label>
          <button type="button" onClick={save} disabled={saving || !text.trim()}>{saving ? 'Saving…' : insight ? 'Save' : 'Save as insight'}</button>
          {insight && <button type="button" aria-expanded={panel} onClick={() => setPanel(!panel)}>Add to dashboard</button>}
        </div>
        {panel && insight && <AddToDashboard project={project} insight={insight} onSaved={(i) => setInsight({ ...insight, dashboards: i.dashboards })} onClose={() => setPanel(false)} />}
      </div>
      {message && <p class={message.error ? 'error' : 'muted'} role={message.error ? 'alert' : 'status'} data-testid="sql-message">{message.text}</p>}

      <div class="card sql-input">
        <SqlCodeEditor
          key={editorKey}
          project={project}
          text={text}
          onChange={setText}
          onRun={() => { void run(); }}
          onProblems={setProblems}
          metadataFields={() => { const q = hogqlQuery(''); return q.filters ? { filters: q.filters } : {}; }}
          onReady={(h) => { editor.current = h; h.focus(); }}
        />
        {problems && problems.length > 0 && (
          <ul class="sql-problems" data-testid="sql-problems" aria-label="Problems in the query">
            {problems.map((p) => {
              const at = typeof p.start === 'number' ? lineColumn(text, p.start) : null;
              return <li class={p.severity === 'warning' ? 'warning' : 'error'} data-start={p.start ?? undefined} data-end={p.end ?? undefined}>{at && <span class="muted">Line {at.line}, column {at.column}: </span>}{p.message}</li>;
            })}
          </ul>
        )}
        <div class="controls sql-filters">
          <DateRangePicker from={dateFrom} to={dateTo} name="sql-date-range" noneLabel="No date range" onChange={(f, t) => { setDateFrom(f); setDateTo(t); }} />
          <PropertyFilters project={project} filters={properties} onChange={setProperties} label="Property filters" />
          {(dateFrom || properties.length > 0) && !usesFilters && <p class="muted">These filters apply where the query says <code>{'{filters}'}</code>.</p>}
          <span class="spacer" />
          <button type="button" class="primary" onClick={() => { void run(); }} disabled={running || !text.trim()} title="Cmd/Ctrl+Enter">{running ? 'Running…' : 'Run'}</button>
        </div>
      </div>

      {runError && (
        <div class="error sql-run-error" role="alert" data-testid="sql-run-error" data-start={runError.notices[0]?.start ?? undefined}>
          <p class="sql-error-message">{runError.message}</p>
          {where && <p>At line {where.line}, column {where.column}.</p>}
        </div>
      )}
      {running && <p class="muted loading" aria-live="polite">Running…</p>}
      {result && (
        <div class={`card sql-result${running ? ' refreshing' : ''}`} aria-busy={running} data-testid="sql-result">
          <SqlVizControls viz={viz} columns={result.columns} onChange={setViz} />
          {viz.display !== 'ActionsTable' && <SqlChart result={result} viz={viz} />}
          <SqlTable result={result} />
        </div>
      )}
      {!result && !runError && !running && <p class="empty">Run the query to see its answer.</p>}
    </section>
  );
}
