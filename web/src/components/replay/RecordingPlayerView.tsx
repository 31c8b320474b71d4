// The player itself (loaded lazily by RecordingPlayer): rrweb's Replayer from @rrweb/replay draws
// the recorded page in its iframe; the controls are the app's own (play/pause, speed, skip
// inactivity, a seek bar with the time), as PostHog's player has them over its own rrweb. Skipping
// inactivity is PostHog's rule: a stretch of 5 s or more without a person's activity is jumped over
// (rrweb's own skipInactive only doubles or triples the speed for such a stretch).
import { useEffect, useRef, useState } from 'preact/hooks';
import { Replayer } from '@rrweb/replay';
import '@rrweb/replay/dist/style.css';
import './replay.css';
import { inactiveGaps, loadRecordingEvents, sameOriginFetch, type RecordingPlayerProps } from './snapshots';

export const SPEEDS = [1, 2, 4, 8] as const;

/** Milliseconds as "m:ss" (or "h:mm:ss"). */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export function RecordingPlayerView({ projectId, sessionId, fetchJson, handleRef, onTime }: RecordingPlayerProps) {
  const screenRef = useRef<HTMLDivElement>(null);
  const replayerRef = useRef<Replayer | null>(null);
  // Where a paused player stands, as asked (rrweb's clock may read a few ms off after a seek).
  const pausedAtRef = useRef<number | null>(null);
  const onTimeRef = useRef(onTime);
  onTimeRef.current = onTime;
  const [error, setError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [current, setCurrent] = useState(0);
  const [total, setTotal] = useState(0);
  const [startMs, setStartMs] = useState<number | null>(null);
  const [speed, setSpeed] = useState<number>(1);
  const [skipInactive, setSkipInactive] = useState(true);
  const [skipping, setSkipping] = useState(false);
  const skipRef = useRef(true);
  const [firstFrameMs, setFirstFrameMs] = useState<number | null>(null);

  useEffect(() => {
    const started = performance.now();
    let cancelled = false;
    let timer: number | undefined;
    let observer: ResizeObserver | undefined;
    setError(null);
    setLoaded(false);
    loadRecordingEvents(projectId, sessionId, fetchJson ?? sameOriginFetch)
      .then((events) => {
        if (cancelled || !screenRef.current) return;
        if (events.length < 2) throw new Error('This recording has too few events to play.');
        const screen = screenRef.current;
        const replayer = new Replayer(events as any, { root: screen, skipInactive: false, speed: 1, showWarning: false, mouseTail: false, triggerFocus: false });
        replayerRef.current = replayer;
        const meta = replayer.getMetaData();
        setTotal(meta.totalTime);
        setStartMs(meta.startTime);
        setLoaded(true);
        // The recorded viewport, scaled down to the width the player has.
        let size = { width: 0, height: 0 };
        const fit = () => {
          if (!size.width || !size.height) return;
          const scale = Math.min(1, screen.clientWidth / size.width);
          replayer.wrapper.style.transform = `scale(${scale})`;
          replayer.wrapper.style.transformOrigin = 'top left';
          screen.style.height = `${Math.ceil(size.height * scale)}px`;
        };
        replayer.on('resize', (dimension: any) => { size = { width: dimension.width, height: dimension.height }; fit(); });
        observer = new ResizeObserver(fit);
        observer.observe(screen);
        replayer.on('fullsnapshot-rebuilded', () => setFirstFrameMs((ms) => ms ?? Math.round(performance.now() - started)));
        const gaps = inactiveGaps(events);
        if (handleRef) {
          handleRef.current = {
            seekToTimestamp(timestamp) {
              const offset = Math.min(Math.max(0, timestamp - meta.startTime), meta.totalTime);
              if (replayer.service.state.matches('playing')) {
                replayer.play(offset);
              } else {
                replayer.pause(offset);
                pausedAtRef.current = offset;
              }
              setCurrent(offset);
            },
          };
        }
        timer = window.setInterval(() => {
          const playing = replayer.service.state.matches('playing');
          if (playing) pausedAtRef.current = null;
          const gap = playing && skipRef.current ? gaps.find(([from, to]) => replayer.getCurrentTime() >= from && replayer.getCurrentTime() < to) : undefined;
          setSkipping(gap !== undefined);
          if (gap) replayer.play(gap[1]);
          const now = Math.min(playing ? replayer.getCurrentTime() : pausedAtRef.current ?? replayer.getCurrentTime(), meta.totalTime);
          setCurrent(now);
          setPlaying(playing);
          onTimeRef.current?.(meta.startTime + now);
        }, 100);
        replayer.play(0);
        setPlaying(true);
      })
      .catch((e) => { if (!cancelled) setError(e instanceof Error ? e.message : String(e)); });
    return () => {
      cancelled = true;
      if (timer !== undefined) clearInterval(timer);
      observer?.disconnect();
      if (handleRef) handleRef.current = null;
      try {
        replayerRef.current?.destroy();
      } catch {
        // a replayer that never drew has nothing to remove
      }
      replayerRef.current = null;
      if (screenRef.current) screenRef.current.innerHTML = '';
    };
  }, [projectId, sessionId, fetchJson]);

  const seek = (offset: number) => {
    const replayer = replayerRef.current;
    if (!replayer) return;
    if (replayer.service.state.matches('playing')) {
      replayer.play(offset);
    } else {
      replayer.pause(offset);
      pausedAtRef.current = offset;
    }
    setCurrent(offset);
  };
  const toggle = () => {
    const replayer = replayerRef.current;
    if (!replayer) return;
    if (replayer.service.state.matches('playing')) {
      replayer.pause();
      setPlaying(false);
      pausedAtRef.current = Math.min(replayer.getCurrentTime(), total);
      setCurrent(pausedAtRef.current);
    } else {
      // At the end, play starts over, as video players do.
      pausedAtRef.current = null;
      replayer.play(current >= total ? 0 : current);
      setPlaying(true);
    }
  };
  const changeSpeed = (value: number) => {
    setSpeed(value);
    replayerRef.current?.setConfig({ speed: value });
  };
  const changeSkip = (value: boolean) => {
    setSkipInactive(value);
    skipRef.current = value;
  };

  return (
    <div class="recording-player" data-first-frame-ms={firstFrameMs ?? undefined} data-playing={playing ? 'true' : 'false'} data-current-ms={Math.round(current)} data-start-ms={startMs ?? undefined} data-total-ms={total}>
      {error && <p class="error" role="alert">{error}</p>}
      {!loaded && !error && <p class="muted">Loading the recording…</p>}
      <div class="recording-screen" ref={screenRef} />
      {skipping && <span class="recording-skipping">Skipping inactivity</span>}
      <div class="recording-controls" aria-label="Player controls">
        <button type="button" class="primary" onClick={toggle} disabled={!loaded} aria-label={playing ? 'Pause' : 'Play'}>{playing ? 'Pause' : 'Play'}</button>
        <input
          type="range"
          class="recording-seek"
          aria-label="Seek"
          min={0}
          max={Math.max(total, 1)}
          step={100}
          value={current}
          disabled={!loaded}
          onInput={(e) => seek(Number((e.target as HTMLInputElement).value))}
        />
        <span class="recording-time" aria-label="Time">{clock(current)} / {clock(total)}</span>
        <span class="recording-speeds" role="group" aria-label="Speed">
          {SPEEDS.map((s) => (
            <button type="button" key={s} class={speed === s ? 'active' : ''} aria-pressed={speed === s} onClick={() => changeSpeed(s)} disabled={!loaded}>{s}x</button>
          ))}
        </span>
        <label class="recording-skip">
          <input type="checkbox" checked={skipInactive} onChange={(e) => changeSkip((e.target as HTMLInputElement).checked)} disabled={!loaded} /> Skip inactivity
        </label>
      </div>
    </div>
  );
}
