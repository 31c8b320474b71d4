// The player itself (loaded lazily by RecordingPlayer): rrweb's Replayer from @rrweb/replay draws
// the recorded page in its iframe; the controls are the app's own (play/pause, speed, skip
// inactivity, a seek bar with the time), as PostHog's player has them over its own rrweb. Skipping
// inactivity is PostHog's rule: a stretch of 5 s or more without a person's activity is jumped over
// (rrweb's own skipInactive only doubles or triples the speed for such a stretch).
import { useEffect, useRef, useState } from 'preact/hooks';
import { Replayer } from '@rrweb/replay';
import '@rrweb/replay/dist/style.css';
import './replay.css';
import { inactiveGaps, loadRecordingProgressively, sameOriginFetch, type ProgressiveLoad, type RecordingPlayerProps, type RrwebEvent } from './snapshots';

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

  // The player's moves, set once the first blocks play: seeking past what is loaded waits for it.
  const goToRef = useRef<((offset: number, play: boolean) => void) | null>(null);
  const totalRef = useRef(0);
  const [waiting, setWaiting] = useState(false);
  const [complete, setComplete] = useState(false);

  useEffect(() => {
    const started = performance.now();
    let cancelled = false;
    let timer: number | undefined;
    let observer: ResizeObserver | undefined;
    let replayer: Replayer | null = null;
    const events: RrwebEvent[] = [];
    let startTs = 0;
    let knownEnd: number | null = null;
    let loadedUntil = 0;
    let done = false;
    let gaps: Array<[number, number]> = [];
    // Playing reached the end of what is loaded before the rest arrived: resume there when it does.
    let stalledAt: number | null = null;
    let pendingSeek: { offset: number; play: boolean } | null = null;
    setError(null);
    setLoaded(false);
    setComplete(false);
    setWaiting(false);

    const updateTotal = () => {
      const last = events.length > 0 ? events[events.length - 1]!.timestamp : startTs;
      loadedUntil = last - startTs;
      totalRef.current = Math.max(loadedUntil, knownEnd !== null ? knownEnd - startTs : 0);
      setTotal(totalRef.current);
    };
    const goTo = (offset: number, play: boolean) => {
      if (!replayer) return;
      const target = Math.min(Math.max(0, offset), totalRef.current);
      // Any move replaces a wait at the loaded end.
      stalledAt = null;
      setCurrent(target);
      if (!done && target > loadedUntil) {
        pendingSeek = { offset: target, play };
        pausedAtRef.current = target;
        replayer.pause();
        setWaiting(true);
        return;
      }
      pendingSeek = null;
      setWaiting(false);
      if (play) {
        pausedAtRef.current = null;
        replayer.play(target);
      } else {
        replayer.pause(target);
        pausedAtRef.current = target;
      }
    };
    goToRef.current = goTo;

    const start = (first: RrwebEvent[], load: ProgressiveLoad) => {
      if (cancelled || !screenRef.current) return;
      if (first.length < 2) throw new Error('This recording has too few events to play.');
      const screen = screenRef.current;
      events.push(...first);
      startTs = first[0]!.timestamp;
      knownEnd = load.endTimestamp;
      replayer = new Replayer(first as any, { root: screen, skipInactive: false, speed: 1, showWarning: false, mouseTail: false, triggerFocus: false });
      replayerRef.current = replayer;
      const active = replayer;
      updateTotal();
      setStartMs(startTs);
      setLoaded(true);
      // The recorded viewport, scaled down to the width the player has.
      let size = { width: 0, height: 0 };
      const fit = () => {
        if (!size.width || !size.height) return;
        const scale = Math.min(1, screen.clientWidth / size.width);
        active.wrapper.style.transform = `scale(${scale})`;
        active.wrapper.style.transformOrigin = 'top left';
        screen.style.height = `${Math.ceil(size.height * scale)}px`;
      };
      active.on('resize', (dimension: any) => { size = { width: dimension.width, height: dimension.height }; fit(); });
      observer = new ResizeObserver(fit);
      observer.observe(screen);
      active.on('fullsnapshot-rebuilded', () => setFirstFrameMs((ms) => ms ?? Math.round(performance.now() - started)));
      active.on('finish', () => { if (!done) stalledAt = loadedUntil; });
      gaps = inactiveGaps(events);
      if (handleRef) {
        handleRef.current = {
          seekToTimestamp(timestamp) {
            goTo(timestamp - startTs, active.service.state.matches('playing') || (pendingSeek?.play ?? false));
          },
        };
      }
      timer = window.setInterval(() => {
        const playing = active.service.state.matches('playing');
        if (playing) pausedAtRef.current = null;
        const gap = playing && skipRef.current ? gaps.find(([from, to]) => active.getCurrentTime() >= from && active.getCurrentTime() < to) : undefined;
        setSkipping(gap !== undefined);
        if (gap) goTo(gap[1], true);
        const now = Math.min(playing ? active.getCurrentTime() : pausedAtRef.current ?? active.getCurrentTime(), totalRef.current);
        setCurrent(now);
        setPlaying(playing || pendingSeek?.play === true || stalledAt !== null);
        onTimeRef.current?.(startTs + now);
      }, 100);
      active.play(0);
      setPlaying(true);
    };
    const more = (later: RrwebEvent[]) => {
      if (cancelled || !replayer) return;
      for (const event of later) {
        replayer.addEvent(event as any);
        // Kept in time order for the inactivity gaps and the loaded end.
        if (events.length > 0 && event.timestamp < events[events.length - 1]!.timestamp) {
          const at = events.findIndex((e) => e.timestamp > event.timestamp);
          events.splice(at, 0, event);
        } else {
          events.push(event);
        }
      }
      updateTotal();
      gaps = inactiveGaps(events);
      resume();
    };
    // A wait for what was not loaded yet ends once it is (rrweb takes added events a tick later).
    const resume = () => {
      const seek = pendingSeek;
      const stalled = stalledAt;
      if (seek && (done || seek.offset <= loadedUntil)) setTimeout(() => { if (!cancelled && pendingSeek === seek) goTo(seek.offset, seek.play); }, 0);
      if (stalled !== null && (done || loadedUntil > stalled)) {
        stalledAt = null;
        setTimeout(() => { if (!cancelled && !pendingSeek) goTo(stalled, true); }, 0);
      }
    };

    loadRecordingProgressively(projectId, sessionId, fetchJson ?? sameOriginFetch, {
      first: start,
      known: (load) => {
        knownEnd = load.endTimestamp;
        updateTotal();
      },
      more,
      done: () => {
        done = true;
        setComplete(true);
        updateTotal();
        resume();
      },
      cancelled: () => cancelled,
    }).catch((e) => { if (!cancelled) setError(e instanceof Error ? e.message : String(e)); });
    return () => {
      cancelled = true;
      if (timer !== undefined) clearInterval(timer);
      observer?.disconnect();
      if (handleRef) handleRef.current = null;
      goToRef.current = null;
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
    goToRef.current?.(offset, replayer.service.state.matches('playing') || playing);
  };
  const toggle = () => {
    const replayer = replayerRef.current;
    if (!replayer) return;
    if (playing) {
      replayer.pause();
      setPlaying(false);
      pausedAtRef.current = Math.min(replayer.getCurrentTime(), total);
      goToRef.current?.(pausedAtRef.current, false);
    } else {
      // At the end, play starts over, as video players do.
      goToRef.current?.(current >= total ? 0 : current, true);
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
    <div class="recording-player" data-first-frame-ms={firstFrameMs ?? undefined} data-complete={complete ? 'true' : 'false'} data-playing={playing ? 'true' : 'false'} data-current-ms={Math.round(current)} data-start-ms={startMs ?? undefined} data-total-ms={total}>
      {error && <p class="error" role="alert">{error}</p>}
      {!loaded && !error && <p class="muted">Loading the recording…</p>}
      <div class="recording-screen" ref={screenRef} />
      {skipping && <span class="recording-skipping">Skipping inactivity</span>}
      {waiting && <span class="recording-skipping" role="status">Loading this part of the recording…</span>}
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
