// Cohorts through the Cohorts API: the list, one cohort, its persons, and a new cohort of one
// condition (a person property, or an event done in the last N days).
import { api } from '../api';

export interface Cohort {
  id: number;
  name: string | null;
  description: string;
  is_static: boolean;
  is_calculating: boolean;
  count: number | null;
  created_at: string;
  filters: { properties?: { type?: string; values?: unknown[] } };
  errors_calculating: number;
  last_error_message: string | null;
}

export interface CohortPerson {
  id: string;
  name: string;
  distinct_ids: string[];
  created_at: string;
}

export type NewCondition =
  | { kind: 'person'; key: string; value: string }
  | { kind: 'event'; event: string; days: number };

export const listCohorts = (project: string, signal?: AbortSignal) =>
  api<{ count: number; results: Cohort[] }>(`/api/projects/${project}/cohorts/?limit=200`, { signal });

export const getCohort = (project: string, id: string, signal?: AbortSignal) =>
  api<Cohort>(`/api/projects/${project}/cohorts/${encodeURIComponent(id)}/`, { signal });

export const cohortPersons = (project: string, id: string, signal?: AbortSignal) =>
  api<{ results: CohortPerson[]; next: string | null }>(`/api/projects/${project}/cohorts/${encodeURIComponent(id)}/persons/?limit=100`, { signal });

export function createCohort(project: string, name: string, condition: NewCondition): Promise<Cohort> {
  const leaf = condition.kind === 'person'
    ? { type: 'person', key: condition.key, value: condition.value, operator: 'exact' }
    : { type: 'behavioral', key: condition.event, value: 'performed_event', event_type: 'events', time_value: condition.days, time_interval: 'day' };
  return api<Cohort>(`/api/projects/${project}/cohorts/`, { method: 'POST', body: { name, filters: { properties: { type: 'AND', values: [leaf] } } } });
}

/** The criteria in words, for the list and the cohort's page. */
export function describeCriteria(cohort: Cohort): string {
  if (cohort.is_static) return 'A fixed list of people';
  const words = (value: unknown): string => {
    if (!value || typeof value !== 'object') return '';
    const v = value as Record<string, unknown>;
    if (v.type === 'AND' || v.type === 'OR') {
      const parts = (Array.isArray(v.values) ? v.values : []).map(words).filter(Boolean);
      return parts.length > 1 ? `(${parts.join(v.type === 'AND' ? ' and ' : ' or ')})` : parts[0] ?? '';
    }
    const not = v.negation ? 'not ' : '';
    if (v.type === 'person') return `${not}${String(v.key)} ${String(v.operator ?? 'exact') === 'exact' ? '=' : String(v.operator)} ${JSON.stringify(v.value ?? null)}`;
    if (v.type === 'cohort') return `${not}in cohort ${String(v.value)}`;
    if (v.type === 'behavioral') {
      const when = v.time_value ? ` in the last ${String(v.time_value)} ${String(v.time_interval ?? 'day')}s` : v.explicit_datetime ? ` since ${String(v.explicit_datetime)}` : '';
      return `${not}did ${String(v.key)}${when}`;
    }
    return '';
  };
  const text = words(cohort.filters?.properties).replace(/^\((.*)\)$/, '$1');
  return text || 'No criteria';
}
