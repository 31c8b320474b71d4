// Session recordings through PostHog's API (GET …/session_recordings/) and a session's events
// through HogQL (events whose $session_id is the recording's), for the Recordings pages.
import { api, qs } from '../api';
import { runQuery } from './run';

export interface Recording {
  id: string;
  distinct_id: string;
  recording_duration: number;
  active_seconds: number;
  start_time: string;
  end_time: string;
  click_count: number;
  keypress_count: number;
  mouse_activity_count: number;
  console_error_count: number;
  console_log_count: number;
  console_warn_count: number;
  start_url: string | null;
  person: { id: string; uuid: string; name: string; distinct_ids: string[] } | null;
}

/** What the list's filter bar holds: each field maps to the API's parameters in RECORDING_FILTERS. */
export interface RecordingFilters {
  dateFrom: string;
  dateTo: string;
  person: string;
  minDuration: string;
}

export const DEFAULT_FILTERS: RecordingFilters = { dateFrom: '-3d', dateTo: '', person: '', minDuration: '' };

export interface RecordingFilterField {
  key: keyof RecordingFilters;
  label: string;
  /** A select's choices, else a text input. */
  options?: [string, string][];
  placeholder?: string;
  inputMode?: 'numeric' | 'text';
}

/** The filter bar's fields, in order (a new API filter is one more entry and one more case in listParams). */
export const RECORDING_FILTERS: RecordingFilterField[] = [
  { key: 'dateFrom', label: 'From', options: [['-1h', 'Last hour'], ['-24h', 'Last 24 hours'], ['-3d', 'Last 3 days'], ['-7d', 'Last 7 days'], ['-30d', 'Last 30 days'], ['-90d', 'Last 90 days']] },
  { key: 'dateTo', label: 'To', placeholder: 'now (or YYYY-MM-DD)' },
  { key: 'person', label: 'Person', placeholder: 'Person UUID or distinct id' },
  { key: 'minDuration', label: 'Minimum duration (s)', placeholder: '0', inputMode: 'numeric' },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A typed distinct id, as the person UUID the API filters on (null: no such person). */
async function personUuid(project: string, value: string, signal?: AbortSignal): Promise<string | null> {
  if (UUID.test(value)) return value;
  const answer = await api<{ results: Array<{ id: string; uuid?: string; distinct_ids: string[] }> }>(`/api/projects/${project}/persons/${qs({ search: value, limit: 20 })}`, { signal });
  const person = answer.results.find((p) => p.distinct_ids.includes(value));
  return person ? person.uuid ?? person.id : null;
}

export async function listRecordings(project: string, filters: RecordingFilters, limit: number, offset: number, signal?: AbortSignal): Promise<{ results: Recording[]; has_next: boolean }> {
  const params: Record<string, string | number | undefined> = { limit, offset, date_from: filters.dateFrom || undefined, date_to: filters.dateTo.trim() || undefined };
  const person = filters.person.trim();
  if (person) {
    const uuid = await personUuid(project, person, signal);
    if (!uuid) return { results: [], has_next: false };
    params.person_uuid = uuid;
  }
  const min = Number(filters.minDuration);
  if (filters.minDuration.trim() !== '' && Number.isFinite(min) && min > 0) params.having_predicates = JSON.stringify([{ key: 'duration', operator: 'gte', value: min }]);
  return api(`/api/projects/${project}/session_recordings/${qs(params)}`, { signal });
}

export function getRecording(project: string, sessionId: string, signal?: AbortSignal): Promise<Recording> {
  return api(`/api/projects/${project}/session_recordings/${encodeURIComponent(sessionId)}/`, { signal });
}

export interface SessionEvent {
  uuid: string;
  event: string;
  timestamp: number;
  url: string | null;
}

/** Events this long before and after a recording still show beside it (as PostHog's player's buffer). */
const EVENTS_MARGIN_MS = 60 * 60 * 1000;

/**
 * The session's events in time order (up to 1000), for the timeline beside the player; within the
 * recording's times (and an hour either side), so the query reads those days' events only.
 */
export async function sessionEvents(project: string, sessionId: string, range: { start_time: string; end_time: string }, signal?: AbortSignal): Promise<SessionEvent[]> {
  const query = `select toString(uuid), event, toUnixTimestamp64Milli(timestamp), properties.$current_url from events
    where properties.$session_id = {sid} and timestamp >= toDateTime({from}) and timestamp <= toDateTime({to})
    order by timestamp limit 1000`;
  const from = new Date(new Date(range.start_time).getTime() - EVENTS_MARGIN_MS).toISOString();
  const to = new Date(new Date(range.end_time).getTime() + EVENTS_MARGIN_MS).toISOString();
  const answer = await runQuery<{ results: [string, string, number | string, string | null][] }>(project, { kind: 'HogQLQuery', query, values: { sid: sessionId, from, to } }, signal);
  return answer.results.map(([uuid, event, ms, url]) => ({ uuid, event, timestamp: Number(ms), url: url ?? null }));
}
