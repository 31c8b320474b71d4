// Option loaders for the pickers: event names and actions, property keys, and the values seen for
// a property. Values come from PostHog's values endpoints; where the server has none yet (404) a
// HogQL count of the stored values stands in, so the pickers work either way.
import { api, ApiError, qs } from '../api';
import type { Page } from '../types';
import type { FilterType } from './filters';
import { hogqlField, runQuery } from './run';

export interface Option {
  value: string;
  label: string;
  hint?: string;
}

interface Named { id?: number | string; name: string; property_type?: string | null }

const actionsByProject = new Map<string, Promise<Named[]>>();

function actions(project: string): Promise<Named[]> {
  let list = actionsByProject.get(project);
  if (!list) {
    list = api<Page<Named> | { results: Named[] }>(`/api/projects/${project}/actions/?limit=500`).then((p) => p.results ?? []).catch(() => []);
    actionsByProject.set(project, list);
    // Actions change rarely; a minute of reuse is enough to keep typing cheap.
    setTimeout(() => actionsByProject.delete(project), 60_000);
  }
  return list;
}

/** After an action is saved or deleted: the pickers ask again. */
export function forgetActions(project: string): void {
  actionsByProject.delete(project);
}

/** Series options: `event:<name>` and `action:<id>`; `all` is "All events" where allowed. */
export function seriesOptions(project: string, withAll: boolean) {
  return async (search: string, signal: AbortSignal): Promise<Option[]> => {
    const [events, acts] = await Promise.all([
      // Hidden definitions stay out of pickers, as PostHog's taxonomic filter asks.
      api<Page<Named>>(`/api/projects/${project}/event_definitions/${qs({ search, limit: 50, exclude_hidden: true })}`, { signal }),
      actions(project),
    ]);
    const needle = search.trim().toLowerCase();
    const out: Option[] = [];
    if (withAll && 'all events'.includes(needle)) out.push({ value: 'all', label: 'All events' });
    out.push(...events.results.map((e) => ({ value: `event:${e.name}`, label: e.name })));
    out.push(...acts.filter((a) => a.name.toLowerCase().includes(needle)).map((a) => ({ value: `action:${a.id}`, label: a.name, hint: 'action' })));
    return out;
  };
}

export function propertyOptions(project: string, type: FilterType) {
  return async (search: string, signal: AbortSignal): Promise<Option[]> => {
    const page = await api<Page<Named>>(`/api/projects/${project}/property_definitions/${qs({ type, search, limit: 50, exclude_hidden: true })}`, { signal });
    return page.results.map((p) => ({ value: p.name, label: p.name, hint: p.property_type ?? undefined }));
  };
}

/** Remembered per page load: a server without the values endpoints is asked once. */
const noValuesEndpoint = new Set<FilterType>();

export function valueOptions(project: string, type: FilterType, key: string, eventName?: string | null) {
  return async (search: string, signal: AbortSignal): Promise<Option[]> => {
    if (!key) return [];
    if (!noValuesEndpoint.has(type)) {
      const path = `/api/projects/${project}/${type === 'person' ? 'persons' : 'events'}/values/${qs({ key, value: search, event_name: eventName ?? null })}`;
      try {
        const rows = await api<{ name: unknown; count?: number }[]>(path, { signal });
        return (Array.isArray(rows) ? rows : []).map((r) => ({ value: String(r.name), label: String(r.name), hint: r.count !== undefined ? String(r.count) : undefined }));
      } catch (e) {
        if (!(e instanceof ApiError && (e.status === 404 || e.status === 405))) throw e;
        noValuesEndpoint.add(type);
      }
    }
    const where = ['isNotNull(v)', "v != ''"];
    const values: Record<string, string> = {};
    if (search) { where.push('v ilike {q}'); values.q = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`; }
    if (type === 'event' && eventName) { where.push('event = {e}'); values.e = eventName; }
    const query = `select toString(properties.${hogqlField(key)}) as v, count() as c from ${type === 'person' ? 'persons' : 'events'} where ${where.join(' and ')} group by v order by c desc, v limit 50`;
    const answer = await runQuery<{ results: [string, number][] }>(project, { kind: 'HogQLQuery', query, values }, signal);
    return answer.results.map(([v, c]) => ({ value: v, label: v, hint: String(c) }));
  };
}
