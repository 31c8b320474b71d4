// Step 4 of the replay benchmark: time to first frame of a 10-minute recording in the web app's
// player. The recording is made from the recorded sessions' own rrweb events (posthog-js's form,
// its gzip'd fields kept): one visit after another, each shifted in time to follow the last (each
// starts with its page's Meta and full snapshot, as a visitor going from page to page), until 10
// minutes are filled; it is stored through /s/ as posthog-js sends it. Then Chromium, signed in,
// opens /project/<id>/replay/<session id> in a fresh context, BENCH_RUNS times: the time is from
// navigation start to the player's iframe holding the recorded page's DOM (polled every frame).
import { log, percentile, stopChild } from '../lib/harness.js';
import { PASSWORD, launchChromium, startHoglet } from './common.js';
import { bodyText } from './rrweb.js';

const TEN_MINUTES = 10 * 60_000;
const REQUEST_BYTES = 900_000;
/** posthog-js flushes its recording buffer every 2 s (or sooner at ~1 MB): one /s/ request, one stored block each. */
const FLUSH_MS = 2_000;

/** The saved requests' rrweb events per recorded session, each session's in time order. */
function sessionsOf(captured) {
  const sessions = new Map();
  for (const request of captured) {
    for (const event of JSON.parse(bodyText(request.body))) {
      const id = event.properties?.$session_id;
      const items = event.properties?.$snapshot_data;
      if (typeof id !== 'string' || !Array.isArray(items)) continue;
      if (!sessions.has(id)) sessions.set(id, []);
      sessions.get(id).push(...items);
    }
  }
  return [...sessions.values()].map((events) => events.sort((a, b) => a.timestamp - b.timestamp)).filter((events) => events.some((e) => e.type === 2));
}

/** Recorded visits one after another from `start` until `durationMs` are filled. */
export function longRecording(captured, start, durationMs = TEN_MINUTES) {
  const visits = sessionsOf(captured);
  if (visits.length === 0) throw new Error('no recorded session with a full snapshot to build the long recording from');
  const events = [];
  let cursor = start;
  for (let i = 0; cursor - start < durationMs; i++) {
    const visit = visits[i % visits.length];
    const firstFull = visit.findIndex((e) => e.type === 4 || e.type === 2);
    const from = visit[firstFull].timestamp;
    for (const event of visit.slice(firstFull)) {
      const timestamp = cursor + (event.timestamp - from);
      if (timestamp - start > durationMs) break;
      events.push({ ...event, timestamp });
    }
    cursor = events.at(-1).timestamp + 1_000;
  }
  return events;
}

/** posthog-js's /s/ bodies for the events: one per 2 s of recorded time, at most ~900 KB each. */
function snapshotBodies(events, { sessionId, windowId, distinctId, token }) {
  const bodies = [];
  let chunk = [];
  let bytes = 0;
  const flush = () => {
    if (chunk.length === 0) return;
    bodies.push(JSON.stringify([{ event: '$snapshot', properties: { $snapshot_data: chunk, $session_id: sessionId, $window_id: windowId, $snapshot_bytes: bytes, $lib: 'web', token, distinct_id: distinctId }, timestamp: new Date(chunk.at(-1).timestamp).toISOString() }]));
    chunk = [];
    bytes = 0;
  };
  for (const event of events) {
    const size = JSON.stringify(event).length;
    if (bytes + size > REQUEST_BYTES || (chunk.length > 0 && event.timestamp - chunk[0].timestamp >= FLUSH_MS)) flush();
    chunk.push(event);
    bytes += size;
  }
  flush();
  return bodies;
}

export async function firstFrameBenchmark({ captured, runs, problems }) {
  const hoglet = await startHoglet('hoglet-bench-replay-player-');
  try {
    const start = Date.now() - TEN_MINUTES - 60_000;
    const events = longRecording(captured, start);
    const sessionId = `bench-ten-minutes-${start}`;
    const bodies = snapshotBodies(events, { sessionId, windowId: `${sessionId}-window`, distinctId: 'bench-visitor', token: hoglet.ids.project_api_token });
    const sentBytes = bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0);
    for (const body of bodies) {
      const response = await fetch(`${hoglet.base}/s/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      if (response.status !== 200) throw new Error(`/s/ answered ${response.status}: ${await response.text()}`);
    }
    const recording = await hoglet.api('GET', `/api/projects/${hoglet.ids.project_id}/session_recordings/${sessionId}/`);
    log(`stored a ${recording.recording_duration} s recording in ${bodies.length} requests (${(sentBytes / 1e6).toFixed(1)} MB of JSON)`);
    const browser = await launchChromium();
    const times = [];
    const timeline = [];
    try {
      for (let run = 0; run < runs; run++) {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        context.setDefaultTimeout(30_000);
        const login = await context.request.post(`${hoglet.base}/api/login/`, { data: { email: 'bench@example.com', password: PASSWORD } });
        if (login.status() !== 200) throw new Error(`login answered ${login.status()}`);
        // Resource timing keeps 250 entries by default: a recording has more blocks than that.
        await context.addInitScript(() => performance.setResourceTimingBufferSize(100_000));
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(`${hoglet.base}/project/${hoglet.ids.project_id}/replay/${sessionId}`, { waitUntil: 'commit' });
        // The first replayed frame: an iframe of the player holds the recorded page's product list.
        const handle = await page.waitForFunction(() => {
          for (const frame of document.querySelectorAll('iframe')) {
            if (frame.contentDocument?.querySelector('#products li')) return performance.now();
          }
          return false;
        }, null, { polling: 'raf', timeout: 30_000 });
        times.push(await handle.jsonValue());
        // When the snapshots API's answers (sources, then every blob) had all arrived, from the same clock.
        timeline.push(await page.evaluate(() => {
          const answers = performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/snapshots/'));
          const sources = answers.find((entry) => !entry.name.includes('blob_key'));
          const blobs = answers.filter((entry) => entry.name.includes('blob_key')).map((entry) => entry.responseEnd).sort((a, b) => a - b);
          const player = document.querySelector('[data-first-frame-ms]')?.getAttribute('data-first-frame-ms');
          return { blobs: blobs.length, sourcesEnd: sources?.responseEnd ?? null, firstBlobEnd: blobs[0] ?? null, lastBlobEnd: blobs.at(-1) ?? null, playerOwnMs: player ? Number(player) : null };
        }));
        if (errors.length) problems.push(`player run ${run + 1}: page errors ${errors.join('; ')}`);
        await context.close();
      }
    } finally {
      await browser.close();
    }
    const sorted = [...times].sort((a, b) => a - b);
    return { sessionId, durationSeconds: recording.recording_duration, events: events.length, requests: bodies.length, sentBytes, times, median: percentile(sorted, 50), worst: sorted.at(-1), timeline };
  } finally {
    const stopProblem = await stopChild(hoglet.server, 30_000);
    if (stopProblem) problems.push(stopProblem);
  }
}
