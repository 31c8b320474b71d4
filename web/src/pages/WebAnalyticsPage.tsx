// Web analytics, laid out as PostHog's page: date range, compare, filters and toggles, device
// type, domain and conversion goal on top; the overview numbers; a visitors / page views /
// sessions chart (the goal's conversions with a goal); tabbed tables of paths, sources, devices
// and geography (with a world map). Clicking a row filters the page; each tile saves as an
// insight. Everything the view depends on is in the URL, so a copied link opens the same view.
import { CopyButton } from '../components/CopyButton';
import { DateRangePicker } from '../components/DateRangePicker';
import { InsightView } from '../components/InsightView';
import { PropertyFilters } from '../components/PropertyFilters';
import { OverviewTiles } from '../components/web/OverviewTiles';
import { SaveAsInsight } from '../components/web/SaveAsInsight';
import { StatsTable } from '../components/web/StatsTable';
import { WebControls } from '../components/web/WebControls';
import { complete, type PropertyFilter } from '../lib/filters';
import { runQuery } from '../lib/run';
import { useLoad } from '../lib/useApi';
import {
  defaultInterval, graphQuery, graphTabsOf, overviewQuery, pageFilters, readState, TABLE_TABS, tableInsightQuery, toggleFilter, writeState,
  type OverviewItem, type TileId, type WebFilter, type WebState,
} from '../lib/webAnalytics';
import { navigate, useLocation } from '../router';

const INTERVALS: [string, string][] = [['hour', 'Hour'], ['day', 'Day'], ['week', 'Week'], ['month', 'Month']];
const TABLE_TILES: [Exclude<TileId, 'graphs'>, string][] = [['paths', 'Paths'], ['sources', 'Sources'], ['devices', 'Devices'], ['geography', 'Geography']];

export function WebAnalyticsPage({ project }: { project: string }) {
  const { search } = useLocation();
  const state = readState(search);
  const set = (change: Partial<WebState>) => navigate(`/project/${project}/web${writeState({ ...state, ...change })}`);
  const setTab = (tile: TileId, id: string) => set({ tabs: { ...state.tabs, [tile]: id } });
  // Incomplete filter rows stay on screen (and in the URL); queries get the complete ones, with
  // the domain and device type pickers' filters.
  const ready = pageFilters(state, complete(state.filters as PropertyFilter[]) as WebFilter[]);
  const toggle = (type: WebFilter['type'], key: string, value: string | number | null) => set({ filters: toggleFilter(state.filters, type, key, value) });

  return (
    <section class="web-analytics">
      <div class="page-head">
        <div>
          <h1>Web analytics</h1>
          <p class="muted">Visitors, page views and sessions of your site, from the events posthog-js sends.</p>
        </div>
        <div class="head-actions">
          <CopyButton text={location.href} label="Copy link" />
        </div>
      </div>

      <div class="card web-controls" role="search" aria-label="Web analytics filters">
        <div class="filters">
          <DateRangePicker from={state.dateFrom} to={state.dateTo} name="web-date-range"
            onChange={(from, to) => set({ dateFrom: from, dateTo: to, interval: defaultInterval(from, to) })} />
          <label class="check"><input type="checkbox" name="compare" checked={state.compare} onChange={(e) => set({ compare: (e.currentTarget as HTMLInputElement).checked })} /> Compare to previous period</label>
          <label class="check"><input type="checkbox" name="filter-test-accounts" checked={state.filterTestAccounts} onChange={(e) => set({ filterTestAccounts: (e.currentTarget as HTMLInputElement).checked })} /> Filter out internal and test users</label>
          <label class="check"><input type="checkbox" name="path-cleaning" checked={state.pathCleaning} onChange={(e) => set({ pathCleaning: (e.currentTarget as HTMLInputElement).checked })} /> Path cleaning</label>
        </div>
        <WebControls project={project} state={state} onChange={set} />
        <PropertyFilters project={project} filters={state.filters as PropertyFilter[]} onChange={(next) => set({ filters: next as WebFilter[] })} label="Page filters" />
      </div>

      <Overview project={project} state={state} filters={ready} />
      <Graphs project={project} state={state} filters={ready} onTab={(id) => setTab('graphs', id)} onInterval={(interval) => set({ interval })} />

      <div class="web-tiles">
        {TABLE_TILES.map(([tile, title]) => {
          const tabs = TABLE_TABS[tile];
          const tab = tabs.find((t) => t.id === state.tabs[tile]) ?? tabs[0]!;
          return (
            <div class="card web-tile" data-tile={tile}>
              <div class="web-tile-head">
                <h2>{title}</h2>
                <div class="tabs" role="tablist" aria-label={title}>
                  {tabs.map((t) => <button type="button" role="tab" aria-selected={t.id === tab.id} onClick={() => setTab(tile, t.id)}>{t.title}</button>)}
                </div>
                <SaveAsInsight project={project} name={`Web analytics: ${tab.title}`} query={tableInsightQuery(state, ready, tab)} />
              </div>
              <StatsTable key={`${tile}-${tab.id}`} project={project} state={state} filters={ready} tab={tab} onToggle={toggle} />
              {tile === 'geography' && (
                <p class="muted web-credit">IP geolocation by <a href="https://db-ip.com" target="_blank" rel="noopener noreferrer">DB-IP</a></p>
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}

function Overview({ project, state, filters }: { project: string; state: WebState; filters: WebFilter[] }) {
  const query = overviewQuery(state, filters);
  const answer = useLoad((signal) => runQuery<{ results: OverviewItem[] }>(project, query, signal), [project, JSON.stringify(query)]);
  if (answer.error) return <p class="error" role="alert">{answer.error}</p>;
  if (!answer.data) return <p class="muted" aria-busy="true">Loading…</p>;
  return (
    <div class="web-tile" data-tile="overview">
      <OverviewTiles items={answer.data.results ?? []} compare={state.compare} />
      <div class="inline"><SaveAsInsight project={project} name="Web analytics: Overview" query={query} /></div>
    </div>
  );
}

function Graphs({ project, state, filters, onTab, onInterval }: {
  project: string;
  state: WebState;
  filters: WebFilter[];
  onTab: (id: string) => void;
  onInterval: (interval: string) => void;
}) {
  const tabs = graphTabsOf(state.goal);
  const tab = tabs.find((t) => t.id === state.tabs.graphs) ?? tabs[0]!;
  const source = graphQuery(state, filters, tab.id);
  const answer = useLoad((signal) => runQuery<{ results: unknown }>(project, source, signal), [project, JSON.stringify(source)]);
  return (
    <div class="card web-tile web-graphs" data-tile="graphs">
      <div class="web-tile-head">
        <div class="tabs" role="tablist" aria-label="Graphs">
          {tabs.map((t) => <button type="button" role="tab" aria-selected={t.id === tab.id} onClick={() => onTab(t.id)}>{t.title}</button>)}
        </div>
        <div class="inline">
          <label class="inline">Interval
            <select name="interval" value={state.interval} onChange={(e) => onInterval((e.currentTarget as HTMLSelectElement).value)}>
              {INTERVALS.map(([value, label]) => <option value={value}>{label}</option>)}
            </select>
          </label>
          <SaveAsInsight project={project} name={`Web analytics: ${tab.title}`} query={{ kind: 'InsightVizNode', source }} />
        </div>
      </div>
      {answer.error && <p class="error" role="alert">{answer.error}</p>}
      {!answer.data && !answer.error && <p class="muted" aria-busy="true">Loading…</p>}
      {answer.data && <InsightView source={source} result={answer.data.results} compact />}
    </div>
  );
}
