// A series' histogram -> PostHog's stickiness item: data[k-1] = actors active in exactly k
// intervals (cumulative: at least k), days = 1..N, labels "1 day", "2 days" ("… or more"
// cumulative), count = the actors counted at all.
import type { SeriesNode, StickinessQuery } from '../../nodes/schema.js';

export interface StickinessItem {
  count: number;
  data: number[];
  days: number[];
  label: string;
  labels: string[];
  action: { order: number; type: 'events'; name: string; id: string | null; custom_name: string | null };
  compare?: true;
  compare_label?: 'current' | 'previous';
}

export interface HistogramRow {
  num_intervals: number | string;
  actors: number | string;
}

export function stickinessItem(
  query: StickinessQuery, series: SeriesNode, order: number, label: string | null, slots: number,
  rows: readonly HistogramRow[], compareLabel: 'current' | 'previous' | null,
): StickinessItem {
  const exactly = new Array<number>(slots).fill(0);
  for (const row of rows) {
    const k = Number(row.num_intervals);
    if (k >= 1 && k <= slots) exactly[k - 1] = Number(row.actors);
  }
  const cumulative = query.stickinessFilter.computedAs === 'cumulative';
  const data = cumulative ? exactly.map((_, i) => exactly.slice(i).reduce((a, b) => a + b, 0)) : exactly;
  const days = exactly.map((_, i) => i + 1);
  const unit = query.interval;
  const item: StickinessItem = {
    count: exactly.reduce((a, b) => a + b, 0),
    data,
    days,
    label: label ?? 'All events',
    labels: days.map((n) => `${n} ${unit}${n === 1 ? '' : 's'}${cumulative ? ' or more' : ''}`),
    // PostHog's minimal action dict: type "events" and the label as id, actions included.
    action: { order, type: 'events', name: label ?? 'All events', id: label, custom_name: series.custom_name ?? null },
  };
  return compareLabel === null ? item : { ...item, compare: true, compare_label: compareLabel };
}

/** PostHog's series label: the event name (null for all events) or the action's name. */
export function stickinessLabel(series: SeriesNode, actionName: string | undefined): string | null {
  return series.kind === 'ActionsNode' ? actionName ?? null : series.event;
}
