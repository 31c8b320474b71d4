// The people (or groups) behind one number, from /query/ with an ActorsQuery around PostHog's
// InsightActorsQuery. Opens as a side panel; Escape or the close button dismisses it. Each person
// links to their page, and to the recordings of the matching events (PostHog's matched_recordings,
// asked for with includeRecordings).
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { when } from '../lib/format';
import { recordedSessions, recordingHref } from '../lib/recording-links';
import { onLinkClick } from '../router';
import type { ActorTarget, QueryNode } from '../types';

interface Actor {
  id?: string;
  distinct_ids?: string[];
  properties?: Record<string, unknown>;
  created_at?: string;
  group_key?: string;
  /** The recorded sessions of this person's matching events, when the answer has the column. */
  matched_recordings?: { session_id: string; events?: { timestamp: string }[] }[];
}

/** Each row's actor, with its matched_recordings column (found by name) when there is one. */
function actorsOf(answer: { columns?: string[]; results: unknown[][] }): Actor[] {
  const at = answer.columns?.indexOf('matched_recordings') ?? -1;
  return answer.results.map((row) => {
    const actor = row[0] as Actor;
    return at > 0 && Array.isArray(row[at]) ? { ...actor, matched_recordings: row[at] as Actor['matched_recordings'] } : actor;
  });
}

const PAGE = 100;

/** PostHog's display name: its default name properties in order, else a distinct id (never the UUID first). */
function displayName(actor: Actor): string {
  const p = actor.properties ?? {};
  for (const key of ['email', 'Email', '$email', 'name', 'Name', 'username', 'Username', 'UserName']) if (typeof p[key] === 'string' && p[key]) return p[key] as string;
  return actor.group_key ?? actor.distinct_ids?.[0] ?? actor.id ?? 'Unknown';
}

export function PeoplePanel({ projectId, source, target, onClose }: {
  projectId: string;
  source: QueryNode;
  target: ActorTarget;
  onClose: () => void;
}) {
  const step = typeof target.params.funnelStep === 'number' ? target.params.funnelStep : null;
  const [dropped, setDropped] = useState(step !== null && step < 0);
  const params = step === null ? target.params : { ...target.params, funnelStep: dropped ? -Math.abs(step) : Math.abs(step) };
  const [actors, setActors] = useState<Actor[]>([]);
  // The matched recordings' start times, so each link opens at its first matching event.
  const [starts, setStarts] = useState<Map<string, number>>(new Map());
  const [hasMore, setHasMore] = useState(false);
  const [offset, setOffset] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onClose(); };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [onClose]);

  useEffect(() => { setActors([]); setOffset(0); }, [target, dropped]);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    const query = {
      kind: 'ActorsQuery',
      source: { kind: 'InsightActorsQuery', source, ...params, includeRecordings: true },
      select: ['person', 'matched_recordings'],
      limit: PAGE,
      offset,
    };
    api<{ columns?: string[]; results: unknown[][]; hasMore?: boolean }>(`/api/projects/${projectId}/query/`, { method: 'POST', body: { query }, signal: controller.signal })
      .then((answer) => {
        setActors((before) => (offset === 0 ? actorsOf(answer) : [...before, ...actorsOf(answer)]));
        setHasMore(!!answer.hasMore);
        setLoading(false);
      })
      .catch((e) => {
        if ((e as Error).name === 'AbortError') return;
        setError(e instanceof ApiError ? e.message : String(e));
        setLoading(false);
      });
    return () => controller.abort();
  }, [target, dropped, offset]);

  useEffect(() => {
    const matched = actors.flatMap((actor) => actor.matched_recordings ?? []);
    if (matched.length === 0) return;
    const times = matched.flatMap((r) => (r.events ?? []).map((e) => Date.parse(e.timestamp))).filter((ms) => !Number.isNaN(ms));
    if (times.length === 0) return;
    const controller = new AbortController();
    recordedSessions(String(projectId), matched.map((r) => r.session_id), Math.min(...times), controller.signal).then(setStarts).catch(() => undefined);
    return () => controller.abort();
  }, [actors]);
  const offsetOf = (recording: NonNullable<Actor['matched_recordings']>[number]) => {
    const start = starts.get(recording.session_id);
    const first = recording.events?.[0];
    return start === undefined || !first ? null : Date.parse(first.timestamp) - start;
  };

  return (
    <aside class="side-panel" role="complementary" aria-label="People" data-testid="people-panel">
      <header class="side-panel-head">
        <div>
          <h2>People</h2>
          <p class="muted">{target.title}</p>
        </div>
        <button type="button" class="icon-button" onClick={onClose} aria-label="Close">✕</button>
      </header>
      {step !== null && Math.abs(step) > 1 && (
        <div class="segmented" role="group" aria-label="Which people">
          <button type="button" aria-pressed={!dropped} onClick={() => setDropped(false)}>Completed step</button>
          <button type="button" aria-pressed={dropped} onClick={() => setDropped(true)}>Dropped off</button>
        </div>
      )}
      {error && <p class="error" role="alert">{error}</p>}
      {!error && (
        <ul class="people-list" data-testid="people-list">
          {actors.map((actor) => (
            <li key={actor.id} data-distinct-ids={actor.distinct_ids?.join(' ')}>
              <strong>
                {actor.id && !actor.group_key
                  ? <a href={`/project/${projectId}/person/${actor.id}`} onClick={onLinkClick}>{displayName(actor)}</a>
                  : displayName(actor)}
              </strong>
              {(actor.matched_recordings?.length ?? 0) > 0 && (
                <span class="matched-recordings">
                  {actor.matched_recordings!.slice(0, 3).map((recording) => (
                    <a key={recording.session_id} data-testid="matched-recording" href={recordingHref(String(projectId), recording.session_id, offsetOf(recording))} onClick={onLinkClick}>▶ Recording</a>
                  ))}
                </span>
              )}
              <span class="muted">{actor.distinct_ids?.slice(0, 2).join(', ')}{actor.created_at ? ` · since ${when(actor.created_at)}` : ''}</span>
            </li>
          ))}
        </ul>
      )}
      {loading && <p class="muted">Loading…</p>}
      {!loading && !error && actors.length === 0 && <p class="muted">No one.</p>}
      {hasMore && !loading && <button type="button" onClick={() => setOffset(offset + PAGE)}>Load more</button>}
    </aside>
  );
}
