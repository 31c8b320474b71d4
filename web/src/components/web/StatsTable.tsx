// One tab of a Web analytics table tile: a WebStatsTableQuery (10 rows, "Show more" asks for more),
// each row its value, Visitors and Views (with the previous period and the change when comparing),
// the bounce rate where the tab asks for it, and a bar as wide as the row's ui_fill_fraction.
import { useState } from 'preact/hooks';
import { num } from '../../lib/format';
import { runQuery } from '../../lib/run';
import { useLoad } from '../../lib/useApi';
import { changePct, readStatsRows, rowFilterValue, rowProperty, statsQuery, type StatsRow, type TableTab, type WebFilter, type WebState } from '../../lib/webAnalytics';
import { countryName, flagOf } from '../charts/worldmap';
import { WorldMap } from './WorldMap';

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
function Metric({ values, compare, format = num, increaseBad = false, name }: {
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

export function StatsTable({ project, state, filters, tab, onToggle }: {
  project: string;
  state: WebState;
  filters: WebFilter[];
  tab: TableTab;
  onToggle: (type: WebFilter['type'], key: string, value: string | number | null) => void;
}) {
  const [more, setMore] = useState(false);
  const isMap = tab.id === 'MAP';
  const limit = isMap ? ALL_COUNTRIES : more ? MORE : FIRST_PAGE;
  const query = statsQuery(state, filters, tab, limit);
  const key = JSON.stringify(query);
  const answer = useLoad((signal) => runQuery<{ columns?: string[]; results?: unknown[][]; hasMore?: boolean }>(project, query, signal), [project, key]);
  const rows = answer.data ? readStatsRows(answer.data) : [];
  const property = rowProperty(tab.breakdownBy);
  const pick = property ? (row: StatsRow) => onToggle(property.type, property.key, rowFilterValue(tab.breakdownBy, row.value)) : undefined;

  if (answer.error) return <p class="error" role="alert">{answer.error}</p>;
  if (!answer.data) return <p class="muted" aria-busy="true">Loading…</p>;
  if (isMap) {
    const visitors = new Map(rows.filter((r) => typeof r.value === 'string').map((r) => [r.value as string, r.visitors[0] ?? 0]));
    return <WorldMap visitors={visitors} onPick={property ? (code) => onToggle(property.type, property.key, code) : undefined} />;
  }
  if (rows.length === 0) return <p class="empty">No data for this range.</p>;
  const bounce = rows.some((r) => r.bounce !== null);
  return (
    <div class={`table-scroll${answer.loading ? ' web-refreshing' : ''}`}>
      <table class="data-table web-stats-table" data-testid={`web-table-${tab.breakdownBy}`}>
        <caption class="sr-only">{tab.title}</caption>
        <thead>
          <tr>
            <th scope="col">{tab.column}</th>
            <th scope="col">Visitors</th>
            <th scope="col">Views</th>
            {bounce && <th scope="col">Bounce rate</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const label = valueLabel(tab.breakdownBy, row.value);
            return (
              <tr
                key={JSON.stringify(row.value)}
                data-key={typeof row.value === 'string' || typeof row.value === 'number' ? String(row.value) : JSON.stringify(row.value)}
                class={pick ? 'clickable' : undefined}
                tabIndex={pick ? 0 : undefined}
                title={pick ? 'Filter the page by this value' : undefined}
                onClick={pick ? () => pick(row) : undefined}
                onKeyDown={pick ? (e) => { if (e.key === 'Enter') pick(row); } : undefined}
              >
                <th scope="row" class="web-value">
                  <span class="web-fill" style={{ width: `${Math.max(0, Math.min(1, row.fill ?? 0)) * 100}%` }} aria-hidden="true" />
                  <span class="web-label">{label}</span>
                </th>
                <Metric name="visitors" values={row.visitors} compare={state.compare} />
                <Metric name="views" values={row.views} compare={state.compare} />
                {bounce && <Metric name="bounce_rate" values={row.bounce ?? [null, null]} compare={state.compare} format={percent} increaseBad />}
              </tr>
            );
          })}
        </tbody>
      </table>
      {(answer.data.hasMore || more) && (
        <button type="button" class="link-button web-more" onClick={() => setMore(!more)}>{more ? 'Show less' : 'Show more'}</button>
      )}
    </div>
  );
}
