// A person's recordings (GET …/session_recordings/?person_uuid=, all the project keeps), newest
// first, each a link to its recording page.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { duration, when } from '../../lib/format';
import { recordingHref } from '../../lib/recording-links';
import { onLinkClick } from '../../router';

interface PersonRecording {
  id: string;
  start_time: string;
  recording_duration: number;
  start_url: string | null;
  click_count: number;
}

/** The longest retention a project can set (PostHog's "5y"): every recording kept is listed. */
const KEPT = '-5y';
const PAGE = 20;

export function PersonRecordings({ project, personId }: { project: string; personId: string }) {
  const [recordings, setRecordings] = useState<PersonRecording[] | null>(null);
  const [hasNext, setHasNext] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = (offset: number, signal?: AbortSignal) => {
    const params = new URLSearchParams({ person_uuid: personId, date_from: KEPT, limit: String(PAGE), offset: String(offset) });
    return api<{ results: PersonRecording[]; has_next: boolean }>(`/api/projects/${project}/session_recordings/?${params}`, { signal })
      .then((answer) => { setRecordings((before) => [...(offset ? before ?? [] : []), ...answer.results]); setHasNext(answer.has_next); })
      .catch((e) => { if ((e as Error).name !== 'AbortError') setError(e instanceof ApiError ? e.message : String(e)); });
  };

  useEffect(() => {
    const controller = new AbortController();
    setRecordings(null);
    void load(0, controller.signal);
    return () => controller.abort();
  }, [project, personId]);

  return (
    <div class="card" data-testid="person-recordings">
      <h2>Recordings</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {recordings === null && !error && <p class="muted">Loading…</p>}
      {recordings?.length === 0 && <p class="empty">No recordings of this person.</p>}
      {recordings && recordings.length > 0 && (
        <table class="list-table">
          <thead><tr><th scope="col">Started</th><th scope="col">Duration</th><th scope="col">First URL</th></tr></thead>
          <tbody>
            {recordings.map((r) => (
              <tr key={r.id} data-testid="person-recording" data-session-id={r.id}>
                <td><a href={recordingHref(project, r.id)} onClick={onLinkClick}>{when(r.start_time)}</a></td>
                <td>{duration(r.recording_duration)}</td>
                <td class="muted ellipsis">{r.start_url ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {hasNext && <button type="button" onClick={() => load(recordings?.length ?? 0)}>Load more</button>}
    </div>
  );
}
