// A recording shared by link (/shared/:token): its times (all a token reads of its metadata, as
// PostHog's shared serializer) and the lazy-loaded player, whose
// snapshot requests carry the sharing token instead of a session ("@current" is, for the token,
// the project it shares). A 401/403 here never sends the viewer to the sign-in page.
import { useMemo } from 'preact/hooks';
import { duration, when } from '../../lib/format';
import { RecordingPlayer, type RecordingFetch } from './RecordingPlayer';
import { failedRequest } from './snapshots';
import './replay.css';

export interface SharedRecordingData {
  id: string;
  start_time: string;
  recording_duration: number;
  end_time: string;
}

/** Fetches a recording API path with the sharing token added, without cookies; the body as text. */
export function sharedRecordingFetch(token: string): RecordingFetch {
  return async (path) => {
    const url = `${path}${path.includes('?') ? '&' : '?'}sharing_access_token=${encodeURIComponent(token)}`;
    const response = await fetch(url, { credentials: 'omit', headers: { accept: 'application/json' } });
    const text = await response.text();
    if (!response.ok) throw failedRequest(response.status, text);
    return text;
  };
}

export function SharedRecording({ token, recording }: { token: string; recording: SharedRecordingData }) {
  const fetchJson = useMemo(() => sharedRecordingFetch(token), [token]);
  return (
    <section data-testid="shared-recording">
      <h1>Recording</h1>
      <p class="muted" data-testid="recording-meta" data-duration={recording.recording_duration}>
        {when(recording.start_time)} · {duration(recording.recording_duration)}
      </p>
      <RecordingPlayer projectId="@current" sessionId={recording.id} fetchJson={fetchJson} />
    </section>
  );
}
