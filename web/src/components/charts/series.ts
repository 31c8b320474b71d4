// Naming and picking of time-series items (trends, stickiness, lifecycle, funnel trends).
import { breakdownLabel } from '../../lib/format';

export interface SeriesItem {
  label?: string;
  data?: number[];
  days?: (string | number)[];
  labels?: string[];
  count?: number;
  aggregated_value?: number;
  breakdown_value?: unknown;
  compare_label?: string | null;
  compare?: boolean;
  status?: string;
  action?: { name?: string | null; custom_name?: string | null; order?: number; id?: unknown } | null;
}

/** "Pageview · Chrome (previous)": the series, its breakdown value and compared period. */
export function seriesName(item: SeriesItem): string {
  // Formula items have no action; their label is the formula's name.
  const base = (item.action ? item.action.custom_name || item.action.name : null) || item.label || 'Series';
  const hasBreakdown = item.breakdown_value !== undefined && item.breakdown_value !== null;
  let name = hasBreakdown ? `${base} · ${breakdownLabel(item.breakdown_value)}` : base;
  if (item.compare_label) name += ` (${item.compare_label})`;
  return name;
}

/** The x-axis labels: the longest item's labels (every item of a query shares them). */
export function axisLabels(items: SeriesItem[]): string[] {
  return items.reduce<string[]>((best, item) => ((item.labels?.length ?? 0) > best.length ? item.labels ?? [] : best), []);
}

export const asItems = (result: unknown): SeriesItem[] => (Array.isArray(result) ? (result as SeriesItem[]) : []);
