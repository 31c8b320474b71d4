// Cohorts through the Cohorts API: the list, one cohort, its persons, save (JSON, or multipart with
// a static cohort's CSV) and PostHog's soft delete; the criteria in words.
import { api, ApiError, cookie } from '../api';

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

export const listCohorts = (project: string, signal?: AbortSignal) =>
  api<{ count: number; results: Cohort[] }>(`/api/projects/${project}/cohorts/?limit=200`, { signal });

export const getCohort = (project: string, id: string, signal?: AbortSignal) =>
  api<Cohort>(`/api/projects/${project}/cohorts/${encodeURIComponent(id)}/`, { signal });

export const cohortPersons = (project: string, id: string, signal?: AbortSignal) =>
  api<{ results: CohortPerson[]; next: string | null }>(`/api/projects/${project}/cohorts/${encodeURIComponent(id)}/persons/?limit=100`, { signal });

/** POST a new cohort or PATCH one; with a CSV, as PostHog's app sends it: multipart, filters as text. */
export async function saveCohort(project: string, id: number | null, body: Record<string, unknown>, csv: File | null = null): Promise<Cohort> {
  const path = `/api/projects/${project}/cohorts/${id === null ? '' : `${id}/`}`;
  const method = id === null ? 'POST' : 'PATCH';
  if (!csv) return api<Cohort>(path, { method, body });
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) form.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  form.append('csv', csv);
  const token = cookie('csrftoken');
  const response = await fetch(path, { method, body: form, credentials: 'same-origin', headers: token ? { 'X-CSRFToken': token, accept: 'application/json' } : { accept: 'application/json' } });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, typeof data?.detail === 'string' ? data.detail : `The upload failed (${response.status}).`, data?.code ?? null, data?.attr ?? null, data);
  return data as Cohort;
}

/** PostHog keeps a deleted cohort: PATCH {deleted: true} (DELETE is a 405). */
export const deleteCohort = (project: string, id: number) =>
  api<Cohort>(`/api/projects/${project}/cohorts/${id}/`, { method: 'PATCH', body: { deleted: true } });

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
      const times = v.value === 'performed_event_multiple' ? ` ${({ exact: 'exactly', gte: 'at least', lte: 'at most' } as Record<string, string>)[String(v.operator)] ?? String(v.operator)} ${String(v.operator_value)} times` : '';
      const what = v.event_type === 'actions' ? `action ${String(v.key)}` : String(v.key);
      const verb = ({ performed_event_first_time: 'did for the first time', stopped_performing_event: 'stopped doing', restarted_performing_event: 'started doing again' } as Record<string, string>)[String(v.value)] ?? 'did';
      return `${v.negation ? 'did not do' : verb} ${what}${times}${when}`;
    }
    return '';
  };
  const text = words(cohort.filters?.properties).replace(/^\((.*)\)$/, '$1');
  return text || 'No criteria';
}
