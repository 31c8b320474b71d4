// Reading and editing insight query nodes. Edits return new nodes; everything the app does not
// know about passes through untouched, so a re-run asks exactly the saved query plus the change.
import type { Insight, QueryNode } from '../types';
import { sqlNodeOf } from './sql';

export const INSIGHT_KINDS = ['TrendsQuery', 'FunnelsQuery', 'RetentionQuery', 'PathsQuery', 'StickinessQuery', 'LifecycleQuery'] as const;
export type InsightKind = (typeof INSIGHT_KINDS)[number];

/** The per-kind filter object of each query kind. */
export const FILTER_KEY: Record<InsightKind, string> = {
  TrendsQuery: 'trendsFilter',
  FunnelsQuery: 'funnelsFilter',
  RetentionQuery: 'retentionFilter',
  PathsQuery: 'pathsFilter',
  StickinessQuery: 'stickinessFilter',
  LifecycleQuery: 'lifecycleFilter',
};

const LEGACY_KINDS: Record<string, InsightKind> = {
  TRENDS: 'TrendsQuery',
  FUNNELS: 'FunnelsQuery',
  RETENTION: 'RetentionQuery',
  PATHS: 'PathsQuery',
  STICKINESS: 'StickinessQuery',
  LIFECYCLE: 'LifecycleQuery',
};

export const isInsightKind = (kind: unknown): kind is InsightKind => (INSIGHT_KINDS as readonly unknown[]).includes(kind);

/** The insight's query source (unwrapping InsightVizNode), or null for kinds this app does not chart. */
export function sourceOf(insight: Pick<Insight, 'query' | 'filters'>): QueryNode | null {
  const query = insight.query;
  if (query?.kind === 'InsightVizNode' && isInsightKind(query.source?.kind)) return query.source;
  if (isInsightKind(query?.kind)) return query;
  // A legacy insight (filters only): its result can be shown, but not re-run with edits.
  const legacy = LEGACY_KINDS[String(insight.filters?.insight ?? '').toUpperCase()];
  if (!query && legacy) return { kind: legacy, legacy: true };
  if (!query && (insight.filters?.events || insight.filters?.actions)) return { kind: 'TrendsQuery', legacy: true };
  return null;
}

/** Web analytics kinds an insight may hold, drawn from their result but not edited in the builder. */
export const WEB_KINDS = ['WebOverviewQuery', 'WebStatsTableQuery'] as const;
const isWebKind = (kind: unknown): boolean => (WEB_KINDS as readonly unknown[]).includes(kind);

/**
 * What an insight's page, dashboard tile and shared page draw: the charted kinds, a web query
 * bare or inside the node PostHog saves it in (DataTableNode, InsightVizNode), and SQL.
 */
export function viewSourceOf(insight: Pick<Insight, 'query' | 'filters'>): QueryNode | null {
  const charted = sourceOf(insight);
  if (charted) return charted;
  const query = insight.query;
  if (isWebKind(query?.kind)) return query;
  if ((query?.kind === 'DataTableNode' || query?.kind === 'InsightVizNode') && isWebKind(query.source?.kind)) return query.source;
  // SQL (a HogQLQuery, bare or in a DataVisualizationNode) draws as a DataVisualizationNode.
  return sqlNodeOf(query);
}

/** "Trends", "Funnels"... for the list's kind column. */
export function kindName(insight: Pick<Insight, 'query' | 'filters'>): string {
  const source = sourceOf(insight);
  const kind = source?.kind ?? insight.query?.source?.kind ?? insight.query?.kind;
  if (!kind) return 'Unknown';
  return String(kind).replace(/Query$/, '').replace(/Node$/, '');
}

export function insightName(insight: Pick<Insight, 'name' | 'derived_name'>): string {
  return insight.name || insight.derived_name || 'Untitled';
}

const filterOf = (source: QueryNode): Record<string, any> => (source[FILTER_KEY[source.kind as InsightKind]] ?? {}) as Record<string, any>;

function withFilter(source: QueryNode, changes: Record<string, unknown>): QueryNode {
  const key = FILTER_KEY[source.kind as InsightKind];
  return { ...source, [key]: { ...filterOf(source), ...changes } };
}

export const filterValue = (source: QueryNode, name: string): any => filterOf(source)[name];

export function withDateRange(source: QueryNode, from: string | null, to: string | null): QueryNode {
  return { ...source, dateRange: { ...(source.dateRange ?? {}), date_from: from, date_to: to } };
}

export function withInterval(source: QueryNode, interval: string): QueryNode {
  return { ...source, interval };
}

export function withBreakdown(source: QueryNode, property: string, type: 'event' | 'person'): QueryNode {
  const next = { ...source };
  if (property.trim()) next.breakdownFilter = { ...(source.breakdownFilter ?? {}), breakdown: property.trim(), breakdown_type: type };
  else delete next.breakdownFilter;
  return next;
}

export function withCompare(source: QueryNode, compare: boolean): QueryNode {
  const next = { ...source };
  if (compare) next.compareFilter = { ...(source.compareFilter ?? {}), compare: true };
  else delete next.compareFilter;
  return next;
}

/** The world map is a breakdown by country (PostHog's app sets that breakdown when it is picked). */
export const COUNTRY_PROPERTY = '$geoip_country_code';

export function withDisplay(source: QueryNode, display: string): QueryNode {
  const next = withFilter(source, { display });
  if (display === 'WorldMap' && source.breakdownFilter?.breakdown !== COUNTRY_PROPERTY) {
    next.breakdownFilter = { ...(source.breakdownFilter ?? {}), breakdown: COUNTRY_PROPERTY, breakdown_type: 'event' };
  }
  return next;
}

export function withFilterField(source: QueryNode, name: string, value: unknown): QueryNode {
  return withFilter(source, { [name]: value });
}

/** Which controls make sense for a kind (PostHog shows the same set). */
export function controlsOf(kind: InsightKind) {
  return {
    interval: kind === 'TrendsQuery' || kind === 'StickinessQuery' || kind === 'LifecycleQuery' || kind === 'FunnelsQuery',
    breakdown: kind === 'TrendsQuery' || kind === 'FunnelsQuery' || kind === 'RetentionQuery',
    compare: kind === 'TrendsQuery' || kind === 'StickinessQuery',
    display: kind === 'TrendsQuery' || kind === 'FunnelsQuery',
  };
}

export const TRENDS_DISPLAYS: [string, string][] = [
  ['ActionsLineGraph', 'Line chart'],
  ['ActionsLineGraphCumulative', 'Cumulative line chart'],
  ['ActionsAreaGraph', 'Area chart'],
  ['ActionsBar', 'Bar chart'],
  ['ActionsStackedBar', 'Stacked bar chart'],
  ['ActionsBarValue', 'Total value bar chart'],
  ['ActionsPie', 'Pie chart'],
  ['BoldNumber', 'Number'],
  ['ActionsTable', 'Table'],
  ['WorldMap', 'World map'],
];

/** Displays whose answer is one total per series (aggregated_value), not a time series. */
export const TOTAL_DISPLAYS = new Set(['ActionsPie', 'BoldNumber', 'ActionsTable', 'ActionsBarValue', 'WorldMap']);

export const FUNNEL_VIZ: [string, string][] = [
  ['steps', 'Conversion steps'],
  ['trends', 'Conversion trends'],
  ['time_to_convert', 'Time to convert'],
];
