// The insight builder's query editing: series nodes from picked options, defaults per kind (kept
// series, range and filters when switching tabs), and the clean node that is run and saved.
import type { QueryNode } from '../types';
import type { Option } from './definitions';
import { complete, readFilters } from './filters';
import type { InsightKind } from './query';

export const KIND_TABS: [InsightKind, string][] = [
  ['TrendsQuery', 'Trends'],
  ['FunnelsQuery', 'Funnels'],
  ['RetentionQuery', 'Retention'],
  ['PathsQuery', 'Paths'],
  ['StickinessQuery', 'Stickiness'],
  ['LifecycleQuery', 'Lifecycle'],
];

export const MATHS: [string, string][] = [
  ['total', 'Total count'],
  ['dau', 'Unique users'],
  ['weekly_active', 'Weekly active users'],
  ['monthly_active', 'Monthly active users'],
  ['sum', 'Sum of property'],
  ['avg', 'Average of property'],
  ['min', 'Minimum of property'],
  ['max', 'Maximum of property'],
];
export const PROPERTY_MATHS = new Set(['sum', 'avg', 'min', 'max', 'median', 'p75', 'p90', 'p95', 'p99']);

const pageview = (): QueryNode => ({ kind: 'EventsNode', event: '$pageview', name: '$pageview' });

export function seriesLabel(node: QueryNode): string {
  if (node.kind === 'ActionsNode') return node.custom_name || node.name || `Action ${node.id}`;
  return node.custom_name || node.name || node.event || 'All events';
}

/** The picker's value for a node: `event:<name>`, `action:<id>` or `all`. */
export const optionValue = (node: QueryNode): string => (node.kind === 'ActionsNode' ? `action:${node.id}` : node.event ? `event:${node.event}` : 'all');

/** A series node for a picked option, keeping the old node's math and filters. */
export function nodeFor(option: Option, old?: QueryNode): QueryNode {
  const { kind: _k, event: _e, id: _i, name: _n, custom_name: _c, ...kept } = old ?? {};
  if (option.value.startsWith('action:')) return { kind: 'ActionsNode', id: Number(option.value.slice(7)), name: option.label, ...kept };
  if (option.value === 'all') return { kind: 'EventsNode', event: null, name: 'All events', ...kept };
  const event = option.value.replace(/^event:/, '');
  return { kind: 'EventsNode', event, name: event, ...kept };
}

/** A typed event name no definition matches yet, offered as PostHog offers it ("Not seen yet"). */
export const unseenEvent = (typed: string): Option => ({ value: `event:${typed}`, label: `Select event: ${typed}` });

/** Retention's entity for a series node, and back. */
export function entityOf(node: QueryNode): QueryNode {
  return node.kind === 'ActionsNode' ? { id: node.id, name: node.name, type: 'actions' } : { id: node.event ?? null, name: node.name ?? node.event, type: 'events' };
}
export function nodeOfEntity(entity: QueryNode | undefined): QueryNode {
  if (!entity) return pageview();
  if (entity.type === 'actions' || entity.kind === 'ActionsNode') return { kind: 'ActionsNode', id: entity.id, name: entity.name ?? `Action ${entity.id}` };
  const event = entity.kind === 'EventsNode' ? entity.event : entity.id;
  return { kind: 'EventsNode', event: event ?? null, name: entity.name ?? event ?? 'All events' };
}

export function blankQuery(kind: InsightKind): QueryNode {
  // From a kind of its own, so every kind gets its defaults (trends its display too).
  return switchKind({ kind: 'Blank', series: [pageview()], dateRange: { date_from: '-7d' }, interval: 'day' }, kind);
}

/** The query of another kind made from this one: what both kinds share carries over. */
export function switchKind(source: QueryNode, kind: InsightKind): QueryNode {
  if (source.kind === kind) return source;
  const series: QueryNode[] = Array.isArray(source.series) && source.series.length
    ? source.series
    : source.retentionFilter ? [nodeOfEntity(source.retentionFilter.targetEntity)] : [pageview()];
  const common: QueryNode = { kind };
  if (source.dateRange) common.dateRange = source.dateRange;
  if (source.properties) common.properties = source.properties;
  if (source.filterTestAccounts) common.filterTestAccounts = true;
  const interval = source.interval ?? 'day';
  const breakdown = source.breakdownFilter ? { breakdownFilter: source.breakdownFilter } : {};
  switch (kind) {
    case 'TrendsQuery':
      return { ...common, series, interval, ...breakdown, trendsFilter: { display: 'ActionsLineGraph' } };
    case 'FunnelsQuery':
      return {
        ...common,
        series: (series.length >= 2 ? series : [series[0]!, series[0]!]).map(({ math: _m, math_property: _p, ...s }) => s),
        ...breakdown,
        funnelsFilter: { funnelVizType: 'steps', funnelOrderType: 'ordered', funnelWindowInterval: 14, funnelWindowIntervalUnit: 'day' },
      };
    case 'RetentionQuery':
      return {
        ...common,
        ...breakdown,
        retentionFilter: { period: 'Day', totalIntervals: 7, retentionType: 'retention_first_time', targetEntity: entityOf(series[0]!), returningEntity: entityOf(series[0]!) },
      };
    case 'PathsQuery':
      return { ...common, pathsFilter: { includeEventTypes: ['$pageview'], stepLimit: 5 } };
    case 'StickinessQuery':
      return { ...common, series: series.map(({ math: _m, math_property: _p, ...s }) => s), interval };
    case 'LifecycleQuery':
      // Lifecycle reads one series and counts people: no math.
      return { ...common, series: [series[0]!].map(({ math: _m, math_property: _p, ...s }) => s), interval };
  }
}

function cleanNode(node: QueryNode): QueryNode {
  const next = { ...node };
  const read = readFilters(node.properties);
  // Grouped (OR) filters are not edited here: they go back as they came.
  const filters = read === null ? null : complete(read);
  if (filters?.length) next.properties = filters;
  else if (filters) delete next.properties;
  if (!next.math || next.math === 'total') delete next.math;
  if (!PROPERTY_MATHS.has(next.math)) delete next.math_property;
  return next;
}

/** The node to run and save: only complete filters, no empty lists, no stray math fields. */
export function cleanQuery(source: QueryNode): QueryNode {
  const next = cleanNode(source);
  if (Array.isArray(source.series)) next.series = source.series.map(cleanNode);
  if (!next.breakdownFilter?.breakdown) delete next.breakdownFilter;
  return next;
}

/** Why the query cannot run yet, for the user; null when it can. */
/** Why a range cannot be asked for (From after To), or null: Save stays off and nothing runs. */
export function dateRangeProblem(from: string | null | undefined, to: string | null | undefined): string | null {
  const day = (v: string | null | undefined) => (v && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : '');
  const start = day(from);
  const end = day(to);
  return start && end && start > end ? 'The start date is after the end date: pick a From on or before To.' : null;
}

export function problemOf(source: QueryNode): string | null {
  const series: QueryNode[] = source.series ?? [];
  if (source.kind === 'FunnelsQuery' && series.length < 2) return 'A funnel needs at least two steps.';
  if (source.series && series.length === 0) return 'Add a series to see a chart.';
  const missing = series.findIndex((s) => PROPERTY_MATHS.has(s.math) && !s.math_property);
  if (missing >= 0) return `Pick the property to aggregate for series ${missing + 1}.`;
  return dateRangeProblem(source.dateRange?.date_from, source.dateRange?.date_to);
}
