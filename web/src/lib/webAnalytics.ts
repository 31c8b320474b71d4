// The Web analytics page's state and queries. The state lives in the URL (PostHog's parameter
// names: date_from, date_to, interval, compare_filter, filters, path_cleaning,
// filter_test_accounts, <tile>_tab), so a copied link opens the same view.
import type { QueryNode } from '../types';
import type { Operator } from './filters';

/** A page filter: event and person filters as the insight filters, plus session ones (row clicks). */
export interface WebFilter {
  key: string;
  value?: string | number | (string | number)[] | null;
  operator: Operator;
  type: 'event' | 'person' | 'session';
}

export type TileId = 'graphs' | 'paths' | 'sources' | 'devices' | 'geography';

export interface WebState {
  dateFrom: string | null;
  dateTo: string | null;
  interval: string;
  compare: boolean;
  filters: WebFilter[];
  filterTestAccounts: boolean;
  pathCleaning: boolean;
  tabs: Record<TileId, string>;
}

export interface TableTab {
  id: string;
  title: string;
  /** The value column's heading. */
  column: string;
  breakdownBy: string;
  bounce?: boolean;
  cleaning?: boolean;
}

export const GRAPH_TABS: { id: string; title: string; math: string; name: string }[] = [
  { id: 'UNIQUE_USERS', title: 'Unique visitors', math: 'dau', name: 'Unique visitors' },
  { id: 'PAGE_VIEWS', title: 'Page views', math: 'total', name: 'Page views' },
  { id: 'NUM_SESSION', title: 'Sessions', math: 'unique_session', name: 'Sessions' },
];

/** The tabbed tables (PostHog's PathTab, SourceTab, DeviceTab, GeographyTab ids). */
export const TABLE_TABS: Record<Exclude<TileId, 'graphs'>, TableTab[]> = {
  paths: [
    { id: 'PATH', title: 'Top paths', column: 'Path', breakdownBy: 'Page', bounce: true, cleaning: true },
    { id: 'INITIAL_PATH', title: 'Entry paths', column: 'Entry path', breakdownBy: 'InitialPage', bounce: true, cleaning: true },
    { id: 'END_PATH', title: 'Exit paths', column: 'Exit path', breakdownBy: 'ExitPage', cleaning: true },
  ],
  sources: [
    { id: 'CHANNEL', title: 'Channels', column: 'Channel', breakdownBy: 'InitialChannelType' },
    { id: 'REFERRING_DOMAIN', title: 'Referrers', column: 'Referring domain', breakdownBy: 'InitialReferringDomain' },
    { id: 'UTM_SOURCE', title: 'UTM source', column: 'UTM source', breakdownBy: 'InitialUTMSource' },
    { id: 'UTM_MEDIUM', title: 'UTM medium', column: 'UTM medium', breakdownBy: 'InitialUTMMedium' },
    { id: 'UTM_CAMPAIGN', title: 'UTM campaign', column: 'UTM campaign', breakdownBy: 'InitialUTMCampaign' },
  ],
  devices: [
    { id: 'BROWSER', title: 'Browsers', column: 'Browser', breakdownBy: 'Browser' },
    { id: 'OS', title: 'OS', column: 'OS', breakdownBy: 'OS' },
    { id: 'DEVICE_TYPE', title: 'Device type', column: 'Device type', breakdownBy: 'DeviceType' },
    { id: 'VIEWPORT', title: 'Viewport', column: 'Viewport', breakdownBy: 'Viewport' },
  ],
  geography: [
    { id: 'MAP', title: 'Map', column: 'Country', breakdownBy: 'Country' },
    { id: 'COUNTRIES', title: 'Countries', column: 'Country', breakdownBy: 'Country' },
    { id: 'REGIONS', title: 'Regions', column: 'Region', breakdownBy: 'Region' },
    { id: 'CITIES', title: 'Cities', column: 'City', breakdownBy: 'City' },
    { id: 'TIMEZONES', title: 'Timezones', column: 'Timezone', breakdownBy: 'Timezone' },
    { id: 'LANGUAGES', title: 'Languages', column: 'Language', breakdownBy: 'Language' },
  ],
};

const TAB_PARAM: Record<TileId, string> = { graphs: 'graphs_tab', paths: 'path_tab', sources: 'source_tab', devices: 'device_tab', geography: 'geography_tab' };
const DEFAULT_TABS: Record<TileId, string> = { graphs: 'UNIQUE_USERS', paths: 'PATH', sources: 'CHANNEL', devices: 'BROWSER', geography: 'MAP' };
const DEFAULT_FROM = '-7d';

/** PostHog's default interval for a range: hours for a day, weeks past a quarter, months for all time. */
export function defaultInterval(from: string | null, to: string | null): string {
  if (!to && from && /^-\d+h$/.test(from)) return 'hour';
  if (!to && (from === '-90d' || from === '-180d')) return 'week';
  if (!to && from === 'all') return 'month';
  return 'day';
}

function parseJson(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isFilter = (f: unknown): f is WebFilter =>
  !!f && typeof f === 'object' && typeof (f as WebFilter).key === 'string' && typeof (f as WebFilter).operator === 'string' && ['event', 'person', 'session'].includes((f as WebFilter).type);

export function readState(search: string): WebState {
  const p = new URLSearchParams(search);
  const has = (name: string) => p.has(name) && p.get(name) !== '';
  const dateFrom = p.has('date_from') ? p.get('date_from') || null : DEFAULT_FROM;
  const dateTo = has('date_to') ? p.get('date_to') : null;
  const filters = parseJson(p.get('filters'));
  const compare = parseJson(p.get('compare_filter')) as { compare?: boolean } | undefined;
  const tabs = { ...DEFAULT_TABS };
  for (const tile of Object.keys(TAB_PARAM) as TileId[]) {
    const id = p.get(TAB_PARAM[tile]);
    const known = tile === 'graphs' ? GRAPH_TABS.some((t) => t.id === id) : TABLE_TABS[tile].some((t) => t.id === id);
    if (id && known) tabs[tile] = id;
  }
  return {
    dateFrom,
    dateTo,
    interval: has('interval') ? p.get('interval')! : defaultInterval(dateFrom, dateTo),
    compare: compare && typeof compare === 'object' && typeof compare.compare === 'boolean' ? compare.compare : true,
    filters: Array.isArray(filters) ? filters.filter(isFilter) : [],
    filterTestAccounts: p.get('filter_test_accounts') === 'true',
    pathCleaning: p.get('path_cleaning') !== 'false',
    tabs,
  };
}

/** The URL query for a state: only what differs from the defaults, in PostHog's names. */
export function writeState(state: WebState): string {
  const p = new URLSearchParams();
  if (state.dateFrom !== DEFAULT_FROM || state.dateTo !== null || state.interval !== defaultInterval(state.dateFrom, state.dateTo)) {
    p.set('date_from', state.dateFrom ?? '');
    p.set('date_to', state.dateTo ?? '');
    p.set('interval', state.interval);
  }
  if (!state.compare) p.set('compare_filter', JSON.stringify({ compare: false }));
  if (state.filters.length > 0) p.set('filters', JSON.stringify(state.filters));
  if (state.filterTestAccounts) p.set('filter_test_accounts', 'true');
  if (!state.pathCleaning) p.set('path_cleaning', 'false');
  for (const tile of Object.keys(TAB_PARAM) as TileId[]) {
    if (state.tabs[tile] !== DEFAULT_TABS[tile]) p.set(TAB_PARAM[tile], state.tabs[tile]);
  }
  const text = p.toString();
  return text ? `?${text}` : '';
}

/** Fields every web query shares (WebAnalyticsQueryBase). */
function base(state: WebState, filters: WebFilter[]) {
  return {
    properties: filters,
    dateRange: { date_from: state.dateFrom, date_to: state.dateTo },
    compareFilter: { compare: state.compare },
    filterTestAccounts: state.filterTestAccounts,
  };
}

export function overviewQuery(state: WebState, filters: WebFilter[]): QueryNode {
  return { kind: 'WebOverviewQuery', ...base(state, filters) };
}

export function statsQuery(state: WebState, filters: WebFilter[], tab: TableTab, limit: number): QueryNode {
  const query: QueryNode = { kind: 'WebStatsTableQuery', breakdownBy: tab.breakdownBy, ...base(state, filters), limit };
  if (tab.bounce) query.includeBounceRate = true;
  if (tab.cleaning) query.doPathCleaning = state.pathCleaning;
  return query;
}

/** The graph tile's query: a plain TrendsQuery on $pageview, as PostHog's tile asks. */
export function graphQuery(state: WebState, filters: WebFilter[], tabId: string): QueryNode {
  const tab = GRAPH_TABS.find((t) => t.id === tabId) ?? GRAPH_TABS[0]!;
  const query: QueryNode = {
    kind: 'TrendsQuery',
    series: [{ kind: 'EventsNode', event: '$pageview', name: '$pageview', custom_name: tab.name, math: tab.math }],
    dateRange: { date_from: state.dateFrom, date_to: state.dateTo },
    interval: state.interval,
    trendsFilter: { display: 'ActionsLineGraph' },
    filterTestAccounts: state.filterTestAccounts,
    properties: filters,
  };
  if (state.compare) query.compareFilter = { compare: true };
  return query;
}

/** The property a table's row filters on (PostHog's webStatsBreakdownToPropertyName), or null. */
export function rowProperty(breakdownBy: string): { key: string; type: WebFilter['type'] } | null {
  const event = (key: string) => ({ key, type: 'event' as const });
  const session = (key: string) => ({ key, type: 'session' as const });
  switch (breakdownBy) {
    case 'Page': return event('$pathname');
    case 'InitialPage': return session('$entry_pathname');
    case 'ExitPage': return session('$end_pathname');
    case 'InitialChannelType': return session('$channel_type');
    case 'InitialReferringDomain': return session('$entry_referring_domain');
    case 'InitialUTMSource': return session('$entry_utm_source');
    case 'InitialUTMMedium': return session('$entry_utm_medium');
    case 'InitialUTMCampaign': return session('$entry_utm_campaign');
    case 'Browser': return event('$browser');
    case 'OS': return event('$os');
    case 'DeviceType': return event('$device_type');
    case 'Country': return event('$geoip_country_code');
    case 'Region': return event('$geoip_subdivision_1_code');
    case 'City': return event('$geoip_city_name');
    case 'Language': return event('$browser_language');
    // A viewport ([w, h]) and a time zone offset have no one property value to match.
    default: return null;
  }
}

/** The value a row's filter matches: a region's code, a city's name (their rows are tuples). */
export function rowFilterValue(breakdownBy: string, value: unknown): string | number | null {
  if (Array.isArray(value)) {
    const picked = breakdownBy === 'Region' || breakdownBy === 'City' ? value[1] : value[0];
    return picked === undefined || picked === null ? null : (picked as string | number);
  }
  return value === undefined || value === null ? null : (value as string | number);
}

/**
 * PostHog's togglePropertyFilter: a null row adds (or removes) "is not set"; a value is added to the
 * property's exact filter, removed when it is its only value, and becomes the only one when clicked
 * among several.
 */
export function toggleFilter(filters: WebFilter[], type: WebFilter['type'], key: string, value: string | number | null): WebFilter[] {
  const same = (f: WebFilter) => f.type === type && f.key === key;
  if (value === null) {
    if (filters.some((f) => same(f) && f.operator === 'is_not_set')) return filters.filter((f) => !(same(f) && f.operator === 'is_not_set'));
    return [...filters, { key, type, operator: 'is_not_set' }];
  }
  if (!filters.some((f) => same(f) && f.operator === 'exact')) return [...filters, { key, type, operator: 'exact', value: [value] }];
  return filters.flatMap((f) => {
    if (!same(f) || f.operator !== 'exact') return [f];
    const old = (Array.isArray(f.value) ? f.value : [f.value]).filter((v): v is string | number => v !== null && v !== undefined);
    if (old.includes(value)) return old.length > 1 ? [{ ...f, value: [value] }] : [];
    return [{ ...f, value: [...old, value] }];
  });
}

/** One overview item as WebOverviewQuery answers it. */
export interface OverviewItem {
  key: string;
  kind: 'unit' | 'duration_s' | 'percentage' | string;
  value: number | null;
  previous: number | null;
  changeFromPreviousPct: number | null;
  isIncreaseBad?: boolean | null;
}

export const OVERVIEW_LABELS: Record<string, string> = {
  visitors: 'Visitors',
  views: 'Page views',
  sessions: 'Sessions',
  'session duration': 'Session duration',
  'bounce rate': 'Bounce rate',
  'total conversions': 'Total conversions',
  'unique conversions': 'Unique conversions',
  'conversion rate': 'Conversion rate',
};

/** A stats table row read by column name, each metric as [current, previous]. */
export interface StatsRow {
  value: unknown;
  visitors: [number | null, number | null];
  views: [number | null, number | null];
  bounce: [number | null, number | null] | null;
  fill: number | null;
}

const pair = (cell: unknown): [number | null, number | null] => {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return Array.isArray(cell) ? [num(cell[0]), num(cell[1])] : [num(cell), null];
};

export function readStatsRows(answer: { columns?: string[]; results?: unknown[][] }): StatsRow[] {
  const columns = answer.columns ?? [];
  const at = (name: string) => columns.indexOf(`context.columns.${name}`);
  const [value, visitors, views, bounce, fill] = ['breakdown_value', 'visitors', 'views', 'bounce_rate', 'ui_fill_fraction'].map(at) as [number, number, number, number, number];
  return (answer.results ?? []).map((row) => ({
    value: row[value < 0 ? 0 : value],
    visitors: pair(visitors < 0 ? null : row[visitors]),
    views: pair(views < 0 ? null : row[views]),
    bounce: bounce < 0 ? null : pair(row[bounce]),
    fill: fill < 0 || typeof row[fill] !== 'number' ? null : (row[fill] as number),
  }));
}

/** Percent change as PostHog shows it (rounded), null when it cannot be told. */
export function changePct(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return Math.round((100 * (current - previous)) / previous);
}
