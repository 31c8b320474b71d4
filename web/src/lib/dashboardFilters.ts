// A dashboard's filters as the app edits them, compared and laid over a tile's query the way
// Hoglet's server does for `from_dashboard` (a date_from replaces the range; properties are ANDed).
import type { DashboardFilters, QueryNode } from '../types';
import { complete, readFilters, type PropertyFilter } from './filters';

export interface FiltersDraft {
  date_from: string | null;
  date_to: string | null;
  /** null: stored filters grouped with OR, kept as they are. */
  properties: PropertyFilter[] | null;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function draftOf(filters: DashboardFilters | null | undefined): FiltersDraft {
  return { date_from: text(filters?.date_from), date_to: text(filters?.date_to), properties: readFilters(filters?.properties) };
}

/** The keys filters_override and PATCH send: only complete property filters. */
export function wireOf(draft: FiltersDraft, original?: DashboardFilters | null): DashboardFilters {
  const properties = draft.properties === null ? original?.properties : complete(draft.properties);
  return { date_from: draft.date_from, date_to: draft.date_from ? draft.date_to : null, properties: properties ?? [] };
}

/** Whether two filter sets mean the same (absent, null and empty alike). */
export function sameFilters(a: DashboardFilters | null | undefined, b: DashboardFilters | null | undefined): boolean {
  const norm = (f: DashboardFilters | null | undefined) => {
    const d = draftOf(f);
    return JSON.stringify([d.date_from, d.date_from ? d.date_to : null, d.properties === null ? f?.properties : complete(d.properties)]);
  };
  return norm(a) === norm(b);
}

/** The query a tile's result was computed from, so its chart and People panel read the same thing. */
export function throughDashboard(source: QueryNode, filters: DashboardFilters | null | undefined): QueryNode {
  if (!filters || source.legacy) return source;
  let next = source;
  const from = text(filters.date_from);
  if (from) next = { ...next, dateRange: { ...(next.dateRange ?? {}), date_from: from, date_to: text(filters.date_to) } };
  const list = readFilters(filters.properties);
  const extra = list === null ? null : complete(list);
  if (extra === null || extra.length) {
    const own = next.properties;
    const ownList = own === undefined || own === null ? [] : Array.isArray(own) ? own : null;
    // Flat lists join into one; a group (OR somewhere) is ANDed as a whole.
    next = {
      ...next,
      properties: ownList && extra ? [...ownList, ...extra] : { type: 'AND', values: [ownList ? { type: 'AND', values: ownList } : own, extra ? { type: 'AND', values: extra } : filters.properties] },
    };
  }
  return next;
}
