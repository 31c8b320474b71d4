// Rows -> PostHog's trend result items: dense data per bucket, labels, days, count, the legacy
// `filter` and `action` dicts, breakdown values in PostHog's order.
import type { ResolvedDateRange } from '../../dates/index.js';
import type { ActionDefinition } from '../../context.js';
import type { SeriesNode, TrendsQuery } from '../../nodes/schema.js';
import { NULL_BREAKDOWN, OTHER_BREAKDOWN } from '../../filters/breakdown-labels.js';

export interface SeriesRow {
  bucket: number | string;
  breakdown_value: string;
  value: number;
}

export interface TrendItem {
  /** null on a formula's total-value item, as PostHog sends it. */
  data: number[] | null;
  labels: string[];
  days: string[];
  count: number;
  label: string;
  filter: Record<string, unknown>;
  action: Record<string, unknown> | null;
  order: number;
  aggregated_value?: number;
  /** The value as text; a cohort breakdown's cohort id (a number) or "all". */
  breakdown_value?: string | number;
  compare?: boolean;
  compare_label?: 'current' | 'previous';
  persons_urls?: unknown[];
}

export interface SeriesValues {
  readonly breakdownValue: string | null;
  /** One value per bucket, or a single value for total-value displays. */
  readonly values: number[];
}

/** Spreads rows over the bucket list (missing buckets are 0) per breakdown value, ordered as PostHog orders them. */
export function densify(rows: readonly SeriesRow[], range: ResolvedDateRange, totalValue: boolean, hasBreakdown: boolean): SeriesValues[] {
  const index = new Map(range.buckets.map((b, i) => [Math.round(b.toSeconds()), i]));
  const width = totalValue ? 1 : range.buckets.length;
  const byValue = new Map<string, number[]>();
  for (const row of rows) {
    const key = hasBreakdown ? row.breakdown_value : '';
    let values = byValue.get(key);
    if (!values) byValue.set(key, (values = new Array<number>(width).fill(0)));
    const position = totalValue ? 0 : index.get(Number(row.bucket));
    if (position !== undefined) values[position]! += Number(row.value);
  }
  if (!hasBreakdown) return [{ breakdownValue: null, values: byValue.get('') ?? new Array<number>(width).fill(0) }];
  const kind = (v: string) => (v === OTHER_BREAKDOWN ? 2 : v === NULL_BREAKDOWN ? 1 : 0);
  const total = (v: number[]) => v.reduce((a, b) => a + b, 0);
  return [...byValue.entries()]
    .sort(([a, av], [b, bv]) => kind(a) - kind(b) || total(bv) - total(av) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([breakdownValue, values]) => ({ breakdownValue, values }));
}

export function cumulative(values: readonly number[]): number[] {
  let sum = 0;
  return values.map((v) => (sum += v));
}

/** Trailing moving average over n buckets, floored, shorter at the start (PostHog's smoothing). */
export function smooth(values: readonly number[], n: number): number[] {
  if (n <= 1) return [...values];
  return values.map((_, i) => {
    const window = values.slice(Math.max(0, i - n + 1), i + 1);
    return Math.floor(window.reduce((a, b) => a + b, 0) / window.length);
  });
}

export function seriesLabel(series: SeriesNode, actions: ReadonlyMap<number, ActionDefinition>): string {
  if (series.kind === 'ActionsNode') return actions.get(series.id)?.name ?? series.name ?? `Action ${series.id}`;
  return series.event ?? 'All events';
}

/**
 * PostHog's `action` dict as the HogQL runner fills it: id is the series label (event name or action
 * name; null for all events), type is always "events", properties an empty dict.
 */
export function actionDict(series: SeriesNode, order: number, label: string, range: ResolvedDateRange): Record<string, unknown> {
  const id = series.kind === 'ActionsNode' ? label : series.event;
  return {
    days: range.buckets.map((b) => b.toISO({ suppressMilliseconds: true })),
    id,
    type: 'events',
    order,
    name: id ?? 'All events',
    custom_name: series.custom_name ?? null,
    math: series.math,
    math_property: series.math_property ?? null,
    math_hogql: series.math_hogql ?? null,
    math_group_type_index: series.math_group_type_index ?? null,
    properties: {},
  };
}

/** The legacy filter dict PostHog attaches to each item. */
export function filterDict(query: TrendsQuery, range: ResolvedDateRange): Record<string, unknown> {
  const entity = (s: SeriesNode, order: number) => ({
    id: s.kind === 'ActionsNode' ? s.id : s.event,
    type: s.kind === 'ActionsNode' ? 'actions' : 'events',
    order,
    name: s.kind === 'EventsNode' ? s.event : s.name ?? null,
    custom_name: s.custom_name ?? null,
    math: s.math,
    math_property: s.math_property ?? null,
    ...(s.math_group_type_index !== undefined ? { math_group_type_index: s.math_group_type_index } : {}),
    properties: s.properties.values.length ? [s.properties] : [],
  });
  const breakdown = query.breakdownFilter;
  return {
    insight: 'TRENDS',
    events: query.series.map((s, i) => [s, i] as const).filter(([s]) => s.kind === 'EventsNode').map(([s, i]) => entity(s, i)),
    actions: query.series.map((s, i) => [s, i] as const).filter(([s]) => s.kind === 'ActionsNode').map(([s, i]) => entity(s, i)),
    properties: query.properties.values.length ? query.properties : [],
    filter_test_accounts: query.filterTestAccounts,
    date_from: range.dateFrom.toISO(),
    date_to: range.dateTo.toISO(),
    interval: range.interval,
    display: query.trendsFilter.display,
    entity_type: 'events',
    ...(query.trendsFilter.formulaNodes.length ? { formula: query.trendsFilter.formulaNodes[0]!.formula } : {}),
    ...(breakdown ? { breakdown: breakdown.breakdown_cohorts ?? breakdown.breakdown, breakdown_type: breakdown.breakdown_type } : {}),
    ...(breakdown?.breakdown_limit != null ? { breakdown_limit: breakdown.breakdown_limit } : {}),
    ...(breakdown?.breakdown_histogram_bin_count != null ? { breakdown_histogram_bin_count: breakdown.breakdown_histogram_bin_count } : {}),
    ...(query.compareFilter ? { compare: true, compare_to: query.compareFilter.compare_to ?? null } : {}),
    ...(query.trendsFilter.smoothingIntervals > 1 ? { smoothing_intervals: query.trendsFilter.smoothingIntervals } : {}),
  };
}
