// Counts per (status, interval) -> PostHog's four lifecycle items, always in the order new,
// returning, resurrecting, dormant; dormant counts negative; count = the sum of the data.
import type { ActionDefinition } from '../../context.js';
import type { ResolvedDateRange } from '../../dates/index.js';
import { LIFECYCLE_STATUSES, type LifecycleStatus, type SeriesNode } from '../../nodes/schema.js';

export interface LifecycleCountRow {
  status: string;
  interval: number | string;
  actors: number | string;
}

export interface LifecycleItem {
  action: Record<string, unknown>;
  data: number[];
  count: number;
  labels: string[];
  days: string[];
  label: string;
  status: LifecycleStatus;
}

export function lifecycleItems(series: SeriesNode, action: ActionDefinition | undefined, range: ResolvedDateRange, rows: readonly LifecycleCountRow[]): LifecycleItem[] {
  const name = series.kind === 'ActionsNode' ? action?.name ?? `Action ${series.id}` : series.event ?? 'All events';
  const actionDict = {
    id: series.kind === 'ActionsNode' ? String(series.id) : series.event,
    name,
    type: series.kind === 'ActionsNode' ? 'actions' : 'events',
    order: 0,
    math: series.math,
    ...(series.custom_name ? { custom_name: series.custom_name } : {}),
  };
  return LIFECYCLE_STATUSES.map((status) => {
    const data = range.buckets.map(() => 0);
    for (const row of rows) {
      const i = Number(row.interval);
      if (row.status === status && i >= 0 && i < data.length) data[i] = (status === 'dormant' ? -1 : 1) * Number(row.actors);
    }
    return {
      action: actionDict,
      data,
      count: data.reduce((a, b) => a + b, 0),
      labels: range.labels,
      days: range.days,
      label: `${name} - ${status}`,
      status,
    };
  });
}
