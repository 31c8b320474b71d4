// One tab of a Web analytics table tile: a WebStatsTableQuery (10 rows; "Show more" opens a modal
// with up to 100), each row its value and the query's metric columns (Visitors and Views, the bounce
// rate where the tab asks for it, or a goal's conversions), with the previous period and the change
// when comparing, and a bar as wide as the row's ui_fill_fraction. StatsTableView draws rows it is
// given: the page's tiles and a saved insight (page or dashboard tile) share it.
import { useState } from 'preact/hooks';
import { num } from '../../lib/format';
import { runQuery } from '../../lib/run';
import { useLoad } from '../../lib/useApi';
import {
  changePct, FRACTIONS, METRIC_LABELS, readStatsRows, rowFilterValue, rowProperty, statsMetrics, statsQuery,
  type Metric, type StatsRow, type TableTab, type WebFilter, type WebState,
} from '../../lib/webAnalytics';
import { countryName, flagOf } from '../charts/worldmap';
import { Modal } from './Modal';
import { WorldMap } from './WorldMap';
import './web.css';

const FIRST_PAGE = 10;
const MORE = 100;
/** Every country, for the map. */
const ALL_COUNTRIES = 300;

/** How a row's value reads: a country's name and flag, a viewport's size, a time zone's offset. */
export function valueLabel(breakdownBy: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  const flag = (code: unknown) => (typeof code === 'string' ? `${flagOf(code)} ` : '');
  if (breakdownBy === 'Country' && typeof value === 'string') return `${flag(value)}${countryName(value)}`;
  if (Array.isArray(value)) {
    if (breakdownBy === 'Region') return `${flag(value[0])}${value[2] ?? value[1] ?? '(none)'}`;
    if (breakdownBy === 'City') return `${flag(value[0])}${value[1] ?? '(none)'}`;
    if (breakdownBy === 'Viewport') return `${value[0]} × ${value[1]}`;
    return value.map(String).join(', ');
  }
  if (breakdownBy === 'Timezone' && typeof value === 'number') {
    const minutes = Math.round(Math.abs(value) * 60);
    return `UTC${value < 0 ? '−' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  }
  return String(value);
}

const percent = (fraction: number | null) => (fraction === null ? '–' : `${(Math.round(fraction * 1000) / 10).toFixed(1)}%`);

/** A metric cell: the current number, and with compare the previous one and the change. */
function MetricCell({ values, compare, format = num, increaseBad = false, name }: {
  values: [number | null, number | null];
  compare: boolean;
  format?: (v: number | null) => string;
  increaseBad?: boolean;
  name: string;
}) {
  const [current, previous] = values;
  const change = compare ? changePct(current, previous) : null;
  return (
    <td class="num" data-value={current === null ? undefined : String(current)} data-previous={compare && previous !== null ? String(previous) : undefined} data-column={name}>
      {format(current)}
      {compare && (
        <span class="web-previous muted" title="Previous period">
          {' '}({format(previous)}{change !== null && <span class={`web-change ${changeTone(change, increaseBad)}`}> {change > 0 ? '+' : ''}{change}%</span>})
        </span>
      )}
    </td>
  );
}

export const changeTone = (change: number, increaseBad: boolean): string => (change === 0 ? 'flat' : change > 0 !== increaseBad ? 'good' : 'bad');

/** The rows of one stats table; a row click calls onPick (the page filters by it). */
export function StatsTableView({ rows, metrics, breakdownBy, column, title, compare, onPick, refreshing }: {
  rows: StatsRow[];
  metrics: Metric[];
  breakdownBy: string;
  column: string;
  title: string;
  compare: boolean;
  onPick?: (row: StatsRow) => void;
  refreshing?: boolean;
}) {
  if (rows.length === 0) return <p class="empty">No data for this range.</p>;
  const shown = metrics;
  return (
    <div class={`table-scroll${refreshing ? ' web-refreshing' : ''}`}>
      <table class="data-table web-stats-table" data-testid={`web-table-${breakdownBy}`}>
        <caption class="sr-only">{title}</caption>
        <thead>
          <tr>
            <th scope="col">{column}</th>
            {shown.map((m) => <th scope="col" data-column={m}>{METRIC_LABELS[m]}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={JSON.stringify(row.value)}
              data-key={typeof row.value === 'string' || typeof row.value === 'number' ? String(row.value) : JSON.stringify(row.value)}
              class={onPick ? 'clickable' : undefined}
              tabIndex={onPick ? 0 : undefined}
              title={onPick ? 'Filter the page by this value' : undefined}
              onClick={onPick ? () => onPick(row) : undefined}
              onKeyDown={onPick ? (e) => { if (e.key === 'Enter') onPick(row); } : undefined}
            >
              <th scope="row" class="web-value">
                <span class="web-fill" style={{ width: `${Math.max(0, Math.min(1, row.fill ?? 0)) * 100}%` }} aria-hidden="true" />
                <span class="web-label">{valueLabel(breakdownBy, row.value)}</span>
              </th>
              {shown.map((m) => (
                <MetricCell name={m} values={row.metrics[m] ?? [null, null]} compare={compare}
                  format={FRACTIONS.has(m) ? percent : num} increaseBad={m === 'bounce_rate'} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type StatsAnswer = { columns?: string[]; results?: unknown[][]; hasMore?: boolean };

/** The page's live table for one tab; `limit` rows, a row click toggles the page filter. */
function LiveStats({ project, state, filters, tab, limit, onToggle }: {
  project: string;
  state: WebState;
  filters: WebFilter[];
  tab: TableTab;
  limit: number;
  onToggle: (type: WebFilter['type'], key: string, value: string | number | null) => void;
}) {
  const query = statsQuery(state, filters, tab, limit);
  const answer = useLoad((signal) => runQuery<StatsAnswer>(project, query, signal), [project, JSON.stringify(query)]);
  const property = rowProperty(tab.breakdownBy);
  if (answer.error) return <p class="error" role="alert">{answer.error}</p>;
  if (!answer.data) return <p class="muted" aria-busy="true">Loading…</p>;
  const rows = readStatsRows(answer.data.results, answer.data.columns, query);
  if (tab.id === 'MAP') {
    const visitors = new Map(rows.filter((r) => typeof r.value === 'string').map((r) => [r.value as string, r.metrics.visitors?.[0] ?? 0]));
    return <WorldMap visitors={visitors} onPick={property ? (code) => onToggle(property.type, property.key, code) : undefined} />;
  }
  return (
    <>
      <StatsTableView rows={rows} metrics={statsMetrics(answer.data.columns, query)} breakdownBy={tab.breakdownBy} column={tab.column} title={tab.title}
        compare={state.compare} refreshing={answer.loading}
        onPick={property ? (row) => onToggle(property.type, property.key, rowFilterValue(tab.breakdownBy, row.value)) : undefined} />
      {limit === FIRST_PAGE && answer.data.hasMore && <ShowMore project={project} state={state} filters={filters} tab={tab} onToggle={onToggle} />}
    </>
  );
}

/** PostHog's "Show more": the same table, up to 100 rows, in a modal. A row click filters the page and closes it. */
function ShowMore(props: { project: string; state: WebState; filters: WebFilter[]; tab: TableTab; onToggle: (type: WebFilter['type'], key: string, value: string | number | null) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class="link-button web-more" onClick={() => setOpen(true)}>Show more</button>
      {open && (
        <Modal title={props.tab.title} onClose={() => setOpen(false)} testId="web-more-modal">
          <LiveStats {...props} limit={MORE} onToggle={(type, key, value) => { setOpen(false); props.onToggle(type, key, value); }} />
        </Modal>
      )}
    </>
  );
}

export function StatsTable(props: {
  project: string;
  state: WebState;
  filters: WebFilter[];
  tab: TableTab;
  onToggle: (type: WebFilter['type'], key: string, value: string | number | null) => void;
}) {
  return <LiveStats {...props} limit={props.tab.id === 'MAP' ? ALL_COUNTRIES : FIRST_PAGE} />;
}
