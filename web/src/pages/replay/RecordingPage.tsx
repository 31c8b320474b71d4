// One recording: the player (lazy-loaded) and the session's events beside it (events whose
// $session_id is this recording's, through HogQL); clicking an event moves the player to it.
// `?t=` (milliseconds after the recording's start, as "watch recording" links give it) starts the
// player there; Share opens the recording's sharing by link.
import { useRef, useState } from 'preact/hooks';
import { SharePanel } from '../../components/SharePanel';
import { RecordingPlayer, type RecordingPlayerHandle } from '../../components/replay/RecordingPlayer';
import { duration, when } from '../../lib/format';
import { getRecording, sessionEvents } from '../../lib/recordings';
import { useLoad } from '../../lib/useApi';
import { onLinkClick } from '../../router';
import '../../components/replay/replay.css';

export function RecordingPage({ project, sessionId }: { project: string; sessionId: string }) {
  const recording = useLoad((signal) => getRecording(project, sessionId, signal), [project, sessionId]);
  const events = useLoad(recording.data ? (signal) => sessionEvents(project, sessionId, recording.data!, signal) : null, [project, sessionId, recording.data]);
  const player = useRef<RecordingPlayerHandle | null>(null);
  const [now, setNow] = useState<number | null>(null);
  const [sharing, setSharing] = useState(false);
  // The moment a link asked for, sought once the player plays (its handle is set by then).
  const startAt = useRef<number | null>(Number(new URLSearchParams(location.search).get('t')) || null);
  const onTime = (timestamp: number) => {
    setNow(timestamp);
    if (startAt.current !== null && player.current && recording.data) {
      player.current.seekToTimestamp(Date.parse(recording.data.start_time) + startAt.current);
      startAt.current = null;
    }
  };
  const r = recording.data;
  const list = events.data ?? [];
  // The last event at or before the player's moment is "now".
  let current = -1;
  if (now !== null) list.forEach((e, i) => { if (e.timestamp <= now) current = i; });

  return (
    <section>
      <div class="page-head">
        <div>
          <p class="muted"><a href={`/project/${project}/replay/recent`} onClick={onLinkClick}>Session replay</a></p>
          <h1>Recording</h1>
          {r && (
            <p class="muted" data-testid="recording-meta">
              {when(r.start_time)} · {duration(r.recording_duration)} ·{' '}
              {r.person ? <a href={`/project/${project}/person/${r.person.uuid ?? r.person.id}`} onClick={onLinkClick}>{r.person.name}</a> : <span class="mono">{r.distinct_id}</span>}
              {r.start_url && <> · <span class="mono">{r.start_url}</span></>}
            </p>
          )}
        </div>
        <button type="button" onClick={() => setSharing(true)}>Share</button>
        {sharing && <SharePanel project={project} sessionId={sessionId} onClose={() => setSharing(false)} />}
      </div>
      {recording.error && <p class="error" role="alert">{recording.error}</p>}
      <div class="recording-layout">
        <RecordingPlayer projectId={project} sessionId={sessionId} handleRef={player} onTime={onTime} />
        <aside class="recording-timeline" aria-label="Events in this session" data-testid="recording-timeline" data-state={events.loading || (!events.data && !events.error) ? 'loading' : 'ready'}>
          {events.error && <p class="error" role="alert">{events.error}</p>}
          {!events.loading && events.data && list.length === 0 && <p class="empty">No events with this session id.</p>}
          <ol>
            {list.map((e, i) => (
              <li key={e.uuid}>
                <button type="button" class={i === current ? 'now' : i < current ? 'past' : ''} data-timestamp={e.timestamp} title={e.url ?? ''} onClick={() => player.current?.seekToTimestamp(e.timestamp)}>
                  <span>{e.event}</span>
                  <span class="muted mono">{r ? clockOf(e.timestamp - new Date(r.start_time).getTime()) : ''}</span>
                </button>
              </li>
            ))}
          </ol>
        </aside>
      </div>
    </section>
  );
}

function clockOf(ms: number): string {
  const negative = ms < 0;
  const s = Math.floor(Math.abs(ms) / 1000);
  return `${negative ? '-' : ''}${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
