// The Web analytics page's state and queries. The state lives in the URL (PostHog's parameter
// names: date_from, date_to, interval, compare_filter, filters, path_cleaning,
// filter_test_accounts, <tile>_tab, device_type, domain, conversionGoal.actionId /
// conversionGoal.customEventName), so a copied link opens the same view.
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

/** PostHog's device-type toggle: Mobile means Mobile or Tablet. */
export type DeviceType = 'Desktop' | 'Mobile';

/** A conversion goal: an action or a custom event (PostHog's WebAnalyticsConversionGoal). */
export type ConversionGoal = { actionId: number } | { customEventName: string };

export interface WebState {
  dateFrom: string | null;
  dateTo: string | null;
  interval: string;
  compare: boolean;
  filters: WebFilter[];
  filterTestAccounts: boolean;
  pathCleaning: boolean;
  tabs: Record<TileId, string>;
  deviceType: DeviceType | null;
  /** A $host the page is limited to. */
  domain: string | null;
  goal: ConversionGoal | null;
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

export interface GraphTab { id: string; title: string; math: string; name: string; goal?: boolean }

export const GRAPH_TABS: GraphTab[] = [
  { id: 'UNIQUE_USERS', title: 'Unique visitors', math: 'dau', name: 'Unique visitors' },
  { id: 'PAGE_VIEWS', title: 'Page views', math: 'total', name: 'Page views' },
  { id: 'NUM_SESSION', title: 'Sessions', math: 'unique_session', name: 'Sessions' },
];

/** With a conversion goal PostHog swaps page views and sessions for the goal's series. */
export const GOAL_GRAPH_TABS: GraphTab[] = [
  GRAPH_TABS[0]!,
  { id: 'UNIQUE_CONVERSIONS', title: 'Unique conversions', math: 'dau', name: 'Unique conversions', goal: true },
  { id: 'TOTAL_CONVERSIONS', title: 'Total conversions', math: 'total', name: 'Total conversions', goal: true },
  { id: 'CONVERSION_RATE', title: 'Conversion rate', math: 'dau', name: 'Conversion rate', goal: true },
];

export const graphTabsOf = (goal: ConversionGoal | null): GraphTab[] => (goal ? GOAL_GRAPH_TABS : GRAPH_TABS);

/** The tabbed tables (PostHog's PathTab, SourceTab, DeviceTab, GeographyTab ids). */
export const TABLE_TABS: Record<Exclude<TileId, 'graphs'>, TableTab[]> = {
  paths: [
    { id: 'PATH', title: 'Top paths', column: 'Path', breakdownBy: 'Page', bounce: true, cleaning: true },
    { id: 'INITIAL_PATH', title: 'Entry paths', column: 'Entry path', breakdownBy: 'InitialPage', bounce: true, cleaning: true },
    { id: 'END_PATH', title: 'Exit paths', column: 'Exit path', breakdownBy: 'ExitPage', cleaning: true },
    { id: 'EXIT_CLICK', title: 'Outbound clicks', column: 'Outbound link', breakdownBy: 'ExitClick' },
  ],
  sources: [
    { id: 'CHANNEL', title: 'Channels', column: 'Channel', breakdownBy: 'InitialChannelType' },
    { id: 'REFERRING_DOMAIN', title: 'Referrers', column: 'Referring domain', breakdownBy: 'InitialReferringDomain' },
    { id: 'UTM_SOURCE', title: 'UTM source', column: 'UTM source', breakdownBy: 'InitialUTMSource' },
    { id: 'UTM_MEDIUM', title: 'UTM medium', column: 'UTM medium', breakdownBy: 'InitialUTMMedium' },
    { id: 'UTM_CAMPAIGN', title: 'UTM campaign', column: 'UTM campaign', breakdownBy: 'InitialUTMCampaign' },
    { id: 'UTM_CONTENT', title: 'UTM content', column: 'UTM content', breakdownBy: 'InitialUTMContent' },
    { id: 'UTM_TERM', title: 'UTM term', column: 'UTM term', breakdownBy: 'InitialUTMTerm' },
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
    const known = tile === 'graphs' ? [...GRAPH_TABS, ...GOAL_GRAPH_TABS].some((t) => t.id === id) : TABLE_TABS[tile].some((t) => t.id === id);
    if (id && known) tabs[tile] = id;
  }
  const deviceType = p.get('device_type');
  const actionId = Number(p.get('conversionGoal.actionId'));
  const eventName = p.get('conversionGoal.customEventName');
  const goal: ConversionGoal | null = Number.isInteger(actionId) && actionId > 0 ? { actionId } : eventName ? { customEventName: eventName } : null;
  // PostHog moves the graph to the goal's unique conversions when a goal is picked.
  if (!graphTabsOf(goal).some((t) => t.id === tabs.graphs)) tabs.graphs = goal ? 'UNIQUE_CONVERSIONS' : DEFAULT_TABS.graphs;
  return {
    dateFrom,
    dateTo,
    interval: has('interval') ? p.get('interval')! : defaultInterval(dateFrom, dateTo),
    compare: compare && typeof compare === 'object' && typeof compare.compare === 'boolean' ? compare.compare : true,
    filters: Array.isArray(filters) ? filters.filter(isFilter) : [],
    filterTestAccounts: p.get('filter_test_accounts') === 'true',
    pathCleaning: p.get('path_cleaning') !== 'false',
    tabs,
    deviceType: deviceType === 'Desktop' || deviceType === 'Mobile' ? deviceType : null,
    domain: p.get('domain') || null,
    goal,
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
  if (state.deviceType) p.set('device_type', state.deviceType);
  if (state.domain) p.set('domain', state.domain);
  if (state.goal && 'actionId' in state.goal) p.set('conversionGoal.actionId', String(state.goal.actionId));
  if (state.goal && 'customEventName' in state.goal) p.set('conversionGoal.customEventName', state.goal.customEventName);
  const text = p.toString();
  return text ? `?${text}` : '';
}

/**
 * The filters every query of the page gets: the filter bar's (an exact path filter compares
 * cleaned paths when path cleaning is on), then the domain picker's ($host exact) and the device
 * toggle's ($device_type exact, Mobile as Mobile or Tablet), as PostHog's webAnalyticsFilters adds them.
 */
export function pageFilters(state: WebState, ready: WebFilter[]): WebFilter[] {
  const out = ready.map((f) => (f.operator === 'exact' ? { ...f, operator: exactMatchOperatorFor(f.key, f.type, state.pathCleaning) } : f));
  if (state.domain) out.push({ key: '$host', value: state.domain.replace(/^https?:\/\//, ''), operator: 'exact', type: 'event' });
  if (state.deviceType) out.push({ key: '$device_type', value: state.deviceType === 'Desktop' ? 'Desktop' : ['Mobile', 'Tablet'], operator: 'exact', type: 'event' });
  return out;
}

/** The path properties PostHog cleans (webAnalyticsLogic's event/session/personPropertiesToPathClean). */
const PATH_PROPERTIES: Record<WebFilter['type'], ReadonlySet<string>> = {
  event: new Set(['$pathname', '$current_url', '$prev_pageview_pathname']),
  session: new Set(['$entry_pathname', '$end_pathname', '$entry_current_url', '$end_current_url']),
  person: new Set(['$initial_pathname', '$initial_current_url']),
};

/**
 * PostHog's exactMatchOperatorFor: with path cleaning on, an exact filter on a path (a path row's
 * click) compares cleaned paths, so a row like /blog/<id> matches the raw /blog/12 it stands for.
 * The page's state keeps `exact`, so turning cleaning off makes it a plain match again.
 */
export function exactMatchOperatorFor(key: string, type: WebFilter['type'], pathCleaning: boolean): Operator {
  return pathCleaning && PATH_PROPERTIES[type]?.has(key) ? 'is_cleaned_path_exact' : 'exact';
}

/** Fields every web query shares (WebAnalyticsQueryBase). */
function base(state: WebState, filters: WebFilter[]) {
  return {
    properties: filters,
    dateRange: { date_from: state.dateFrom, date_to: state.dateTo },
    compareFilter: { compare: state.compare },
    filterTestAccounts: state.filterTestAccounts,
    ...(state.goal ? { conversionGoal: state.goal } : {}),
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

/** The goal's series (an action or the custom event) with a math and a name. */
function goalSeries(goal: ConversionGoal, math: string, name: string) {
  return 'actionId' in goal
    ? { kind: 'ActionsNode', id: goal.actionId, name, custom_name: name, math }
    : { kind: 'EventsNode', event: goal.customEventName, name, custom_name: name, math };
}

/**
 * What a table tab saves as an insight, as PostHog's tile holds it: a DataTableNode around the
 * WebStatsTableQuery (10 rows), or for the map a TrendsQuery of visitors by country drawn as a map.
 */
export function tableInsightQuery(state: WebState, filters: WebFilter[], tab: TableTab): QueryNode {
  if (tab.id === 'MAP') {
    return {
      kind: 'InsightVizNode',
      source: {
        kind: 'TrendsQuery',
        series: [{ kind: 'EventsNode', event: '$pageview', name: 'Pageview', math: 'dau' }],
        breakdownFilter: { breakdown: '$geoip_country_code', breakdown_type: 'event' },
        dateRange: { date_from: state.dateFrom, date_to: state.dateTo },
        trendsFilter: { display: 'WorldMap' },
        filterTestAccounts: state.filterTestAccounts,
        properties: filters,
      },
    };
  }
  const source = statsQuery(state, filters, tab, 10);
  const columns = ['breakdown_value', 'visitors', 'views', ...(tab.bounce ? ['bounce_rate'] : []), 'cross_sell'];
  return { kind: 'DataTableNode', full: true, source, embedded: false, showActions: true, columns };
}

/** The graph tile's query: a plain TrendsQuery on $pageview (or the goal's series), as PostHog's tile asks. */
export function graphQuery(state: WebState, filters: WebFilter[], tabId: string): QueryNode {
  const tabs = graphTabsOf(state.goal);
  const tab = tabs.find((t) => t.id === tabId) ?? tabs[0]!;
  const visitors = { kind: 'EventsNode', event: '$pageview', name: '$pageview', custom_name: tab.goal ? 'Unique visitors' : tab.name, math: tab.goal ? 'dau' : tab.math };
  const goal = tab.goal && state.goal ? state.goal : null;
  const series = !goal ? [visitors]
    : tab.id === 'CONVERSION_RATE' ? [goalSeries(goal, 'dau', 'Unique conversions'), visitors]
      : [goalSeries(goal, tab.math, tab.name)];
  const query: QueryNode = {
    kind: 'TrendsQuery',
    series,
    dateRange: { date_from: state.dateFrom, date_to: state.dateTo },
    interval: state.interval,
    trendsFilter: goal && tab.id === 'CONVERSION_RATE' ? { display: 'ActionsLineGraph', formula: 'A / B' } : { display: 'ActionsLineGraph' },
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
    case 'InitialUTMContent': return session('$entry_utm_content');
    case 'InitialUTMTerm': return session('$entry_utm_term');
    case 'ExitClick': return session('$last_external_click_url');
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

/** A stats table's metric columns (context.columns.<name>). */
export type Metric = 'visitors' | 'views' | 'bounce_rate' | 'total_conversions' | 'unique_conversions' | 'conversion_rate';

export const METRIC_LABELS: Record<Metric, string> = {
  visitors: 'Visitors',
  views: 'Views',
  bounce_rate: 'Bounce rate',
  total_conversions: 'Total conversions',
  unique_conversions: 'Unique conversions',
  conversion_rate: 'Conversion rate',
};

/** Metrics that are fractions (shown as percentages); a higher bounce rate is bad news. */
export const FRACTIONS: ReadonlySet<Metric> = new Set(['bounce_rate', 'conversion_rate']);

/** The metric columns a WebStatsTableQuery answers (what the server's columns name), for a saved result without them. */
export function metricsOf(query: QueryNode): Metric[] {
  if (query.conversionGoal) return ['visitors', 'total_conversions', 'unique_conversions', 'conversion_rate'];
  return query.includeBounceRate ? ['visitors', 'views', 'bounce_rate'] : ['visitors', 'views'];
}

/** A stats table row read by column name, each metric as [current, previous]. */
export interface StatsRow {
  value: unknown;
  metrics: Partial<Record<Metric, [number | null, number | null]>>;
  fill: number | null;
}

const pair = (cell: unknown): [number | null, number | null] => {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return Array.isArray(cell) ? [num(cell[0]), num(cell[1])] : [num(cell), null];
};

/** The answer's metric columns in order (from its columns, else from the query). */
export function statsMetrics(columns: string[] | null | undefined, query: QueryNode): Metric[] {
  if (!columns?.length) return metricsOf(query);
  return columns.map((c) => c.replace(/^context\.columns\./, '')).filter((c): c is Metric => c in METRIC_LABELS);
}

export function readStatsRows(results: unknown[][] | null | undefined, columns: string[] | null | undefined, query: QueryNode): StatsRow[] {
  const names = columns?.length
    ? columns.map((c) => c.replace(/^context\.columns\./, ''))
    : ['breakdown_value', ...metricsOf(query), 'ui_fill_fraction', 'cross_sell'];
  const at = (name: string) => names.indexOf(name);
  const value = Math.max(0, at('breakdown_value'));
  const fill = at('ui_fill_fraction');
  const metrics = statsMetrics(columns, query);
  return (results ?? []).map((row) => ({
    value: row[value],
    metrics: Object.fromEntries(metrics.map((m) => [m, pair(row[at(m)])])),
    fill: fill < 0 || typeof row[fill] !== 'number' ? null : (row[fill] as number),
  }));
}

/** Percent change as PostHog shows it (rounded), null when it cannot be told. */
export function changePct(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return Math.round((100 * (current - previous)) / previous);
}
