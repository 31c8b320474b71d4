// "Watch recording" links: which of some sessions have a recording (one list request with
// PostHog's session_ids filter) and the recording page's address, at a moment (`?t=` milliseconds
// after the recording's start) when one is known.
import { api } from '../api';

const DAY_MS = 86_400_000;
/** PostHog's list pages at most this many; more sessions than that are asked in several requests. */
const PAGE = 500;

export function recordingHref(project: string, sessionId: string, offsetMs?: number | null): string {
  const t = offsetMs === undefined || offsetMs === null ? '' : `?t=${Math.max(0, Math.round(offsetMs))}`;
  return `/project/${project}/replay/${encodeURIComponent(sessionId)}${t}`;
}

/**
 * The recordings' start times (epoch ms) by session id, for those of these sessions that were
 * recorded. `since`: the earliest moment a recording of them could start (a session lasts at most a day
 * before its first event shown, so a day before the earliest of them is enough).
 */
export async function recordedSessions(project: string, sessionIds: readonly string[], since: number, signal?: AbortSignal): Promise<Map<string, number>> {
  const unique = [...new Set(sessionIds.filter((id) => id !== ''))];
  const found = new Map<string, number>();
  for (let i = 0; i < unique.length; i += PAGE) {
    const chunk = unique.slice(i, i + PAGE);
    const params = new URLSearchParams({ session_ids: JSON.stringify(chunk), date_from: new Date(since - DAY_MS).toISOString(), limit: String(PAGE) });
    const answer = await api<{ results: { id: string; start_time: string }[] }>(`/api/projects/${project}/session_recordings/?${params}`, { signal });
    for (const recording of answer.results) found.set(recording.id, Date.parse(recording.start_time));
  }
  return found;
}
