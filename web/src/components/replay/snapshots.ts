// Loading a recording's rrweb events through PostHog's snapshots API: the blob_v2 sources (one per
// stored block, keyed by index), then ranges of blocks (JSON lines, each `[window_id, event]`), the
// first range handed to the player as soon as it holds a full snapshot and the rest in the
// background; the events posthog-js gzip'd before sending (its `cv: "2024-10"` marker) unpacked.
import { ApiError, toLogin } from '../../api';

/**
 * Fetches an API path and answers its body: parsed JSON, or the text itself (a blob is JSON lines,
 * not one JSON document; text is always fine). Throws on a failed request.
 */
export type RecordingFetch = (path: string) => Promise<unknown>;

export interface RecordingPlayerHandle {
  /** Moves the player to a moment of the recording (epoch milliseconds), playing on if it was playing. */
  seekToTimestamp(timestamp: number): void;
}

export interface RecordingPlayerProps {
  projectId: string | number;
  sessionId: string;
  /** Defaults to a same-origin request with the session cookie. */
  fetchJson?: RecordingFetch;
  /** Filled once the recording plays, so a timeline beside it can seek. */
  handleRef?: { current: RecordingPlayerHandle | null };
  /** The moment shown (epoch milliseconds), a few times a second while playing. */
  onTime?: (timestamp: number) => void;
}

export interface RrwebEvent {
  type: number;
  timestamp: number;
  data: any;
  cv?: string;
  [key: string]: unknown;
}

/** The app's own fetch: the session cookie rides along; the body as text. */
export const sameOriginFetch: RecordingFetch = async (path) => {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  } catch {
    throw new ApiError(0, 'Hoglet could not be reached. Is the server running?');
  }
  const text = await response.text();
  if (response.status === 401) toLogin();
  if (!response.ok) throw failedRequest(response.status, text);
  return text;
};

/** A failed answer as the app's error: PostHog's `detail` when the body has one, else the status. */
export function failedRequest(status: number, text: string): ApiError {
  let detail = `The request failed (${status}).`;
  try {
    const body = JSON.parse(text);
    if (typeof body?.detail === 'string') detail = body.detail;
  } catch {
    // not JSON: keep the status
  }
  return new ApiError(status, detail);
}

export function snapshotsPath(projectId: string | number, sessionId: string): string {
  return `/api/projects/${encodeURIComponent(String(projectId))}/session_recordings/${encodeURIComponent(sessionId)}/snapshots/`;
}

/** Blocks a background range asks for (PostHog allows 100 keys past the start; 20 by API key). */
export const RANGE_BLOCKS = 20;
/** Blocks the first range asks for before it knows where the first full snapshot is. */
const FIRST_RANGE_BLOCKS = 3;
/** Events unpacked and handed on between two yields to the browser. */
const EVENTS_PER_SLICE = 400;

export interface ProgressiveLoad {
  /** The recording's last moment as the sources list it (epoch ms), before every block is here. */
  endTimestamp: number | null;
}

export interface ProgressiveHandlers {
  /** The first blocks, up to and including the first full snapshot, unpacked, oldest first. */
  first(events: RrwebEvent[], load: ProgressiveLoad): void;
  /** The sources' answer, when it came after the first frame (the recording's end is known from then). */
  known?(load: ProgressiveLoad): void;
  /** Later events, a slice at a time, in time order of their blocks. */
  more(events: RrwebEvent[]): void;
  /** Every block has been read. */
  done(): void;
  cancelled(): boolean;
}

/**
 * Loads a recording a range of blocks at a time (PostHog's blob_v2 sources): the first block is
 * asked for alongside the sources (its key is "0" whatever the listing says), and handed on as
 * soon as it holds a full snapshot (a player can draw its first frame before the listing, which
 * reads every block's times, answers); otherwise the first range grows until it holds one. The
 * rest follows in the background in ranges of RANGE_BLOCKS, unpacked a slice at a time with a
 * yield to the browser between slices, so the page stays responsive while a long recording arrives.
 */
export async function loadRecordingProgressively(projectId: string | number, sessionId: string, fetchJson: RecordingFetch, on: ProgressiveHandlers): Promise<void> {
  const base = snapshotsPath(projectId, sessionId);
  const rangePath = (from: string, to: string) => `${base}?source=blob_v2&start_blob_key=${from}&end_blob_key=${to}`;
  const listing = fetchJson(`${base}?blob_v2=true`);
  listing.catch(() => {}); // awaited below; no unhandled rejection while the first block is read
  const head = await fetchJson(rangePath('0', '0')).then(blobLines, () => null);
  if (on.cancelled()) return;
  let firstEvents: RrwebEvent[] = head ?? [];
  let next = head ? 1 : 0;
  const started = firstEvents.some((e) => e.type === 2);
  if (started) on.first(await unpackAll(firstEvents), { endTimestamp: null });

  const answer = asJson(await listing) as { sources?: Array<{ source: string; blob_key?: string; end_timestamp?: string | null }> };
  const sources = (answer?.sources ?? []).filter((s) => s.source === 'blob_v2' && s.blob_key !== undefined);
  if (sources.length === 0) {
    // A server without blob_v2 sources: every blob at once, as before.
    if (!started) on.first(await loadRecordingEvents(projectId, sessionId, fetchJson), { endTimestamp: null });
    on.done();
    return;
  }
  const ends = sources.map((s) => (s.end_timestamp ? Date.parse(s.end_timestamp) : NaN)).filter((t) => !Number.isNaN(t));
  const load: ProgressiveLoad = { endTimestamp: ends.length > 0 ? Math.max(...ends) : null };
  const range = async (from: number, to: number) => blobLines(await fetchJson(rangePath(sources[from]!.blob_key!, sources[to]!.blob_key!)));
  if (started) {
    on.known?.(load);
  } else {
    // The first range: grown until it holds a full snapshot (rrweb draws nothing before one).
    while (next < sources.length) {
      const to = Math.min(sources.length - 1, next + (next <= 1 ? FIRST_RANGE_BLOCKS : RANGE_BLOCKS) - 1);
      firstEvents.push(...(await range(next, to)));
      next = to + 1;
      if (on.cancelled()) return;
      if (firstEvents.some((e) => e.type === 2)) break;
    }
    if (on.cancelled()) return;
    on.first(await unpackAll(firstEvents), load);
  }
  firstEvents = [];
  // The rest, one range after another; the next range is asked for while this one is unpacked.
  let pending = next < sources.length ? range(next, Math.min(sources.length - 1, next + RANGE_BLOCKS - 1)) : null;
  while (pending) {
    const events = await pending;
    next = Math.min(sources.length, next + RANGE_BLOCKS);
    pending = next < sources.length ? range(next, Math.min(sources.length - 1, next + RANGE_BLOCKS - 1)) : null;
    events.sort((a, b) => a.timestamp - b.timestamp);
    for (let i = 0; i < events.length; i += EVENTS_PER_SLICE) {
      await yieldToBrowser();
      if (on.cancelled()) return;
      on.more(await Promise.all(events.slice(i, i + EVENTS_PER_SLICE).map(unpack)));
    }
  }
  if (!on.cancelled()) on.done();
}

async function unpackAll(events: RrwebEvent[]): Promise<RrwebEvent[]> {
  // A stable sort: events of one moment keep the order they were recorded in.
  return (await Promise.all(events.map(unpack))).sort((a, b) => a.timestamp - b.timestamp);
}

function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Every rrweb event of the session, unpacked, oldest first. */
export async function loadRecordingEvents(projectId: string | number, sessionId: string, fetchJson: RecordingFetch): Promise<RrwebEvent[]> {
  const base = snapshotsPath(projectId, sessionId);
  const answer = asJson(await fetchJson(base)) as { sources?: Array<{ source: string; blob_key?: string }> };
  const keys = (answer?.sources ?? []).filter((s) => s.source === 'blob' && s.blob_key).map((s) => s.blob_key!);
  const blobs = await Promise.all(keys.map((key) => fetchJson(`${base}?source=blob&blob_key=${encodeURIComponent(key)}`)));
  const events: RrwebEvent[] = [];
  for (const blob of blobs) for (const line of blobLines(blob)) events.push(line);
  const unpacked = await Promise.all(events.map(unpack));
  // A stable sort: events of one moment keep the order they were recorded in.
  return unpacked.sort((a, b) => a.timestamp - b.timestamp);
}

function asJson(body: unknown): unknown {
  return typeof body === 'string' ? JSON.parse(body) : body;
}

/** A blob's events: JSON lines of `[window_id, event]` (or a bare event), as text or already parsed. */
function blobLines(blob: unknown): RrwebEvent[] {
  const lines: unknown[] = typeof blob === 'string'
    ? blob.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line))
    : Array.isArray(blob) ? blob.map((line) => (typeof line === 'string' ? JSON.parse(line) : line)) : [];
  const events: RrwebEvent[] = [];
  for (const line of lines) {
    const event = Array.isArray(line) ? line[1] : line;
    if (event && typeof event === 'object' && typeof (event as RrwebEvent).timestamp === 'number') events.push(event as RrwebEvent);
  }
  return events;
}

/**
 * posthog-js gzips a full snapshot's data, a mutation's texts/attributes/removes/adds and a
 * style sheet rule's adds/removes into latin-1 strings and marks the event `cv: "2024-10"`.
 */
async function unpack(event: RrwebEvent): Promise<RrwebEvent> {
  if (event.cv !== '2024-10') return event;
  const { cv: _cv, ...rest } = event;
  if (event.type === 2 && typeof event.data === 'string') return { ...rest, data: await gunzipJson(event.data) } as RrwebEvent;
  if (event.type === 3 && event.data && typeof event.data === 'object') {
    const data = { ...event.data };
    for (const field of ['texts', 'attributes', 'removes', 'adds']) {
      if (typeof data[field] === 'string') data[field] = await gunzipJson(data[field]);
    }
    return { ...rest, data } as RrwebEvent;
  }
  return rest as RrwebEvent;
}

async function gunzipJson(latin1: string): Promise<unknown> {
  const bytes = new Uint8Array(latin1.length);
  for (let i = 0; i < latin1.length; i++) bytes[i] = latin1.charCodeAt(i) & 0xff;
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text());
}

/** rrweb incremental sources that are a person's activity (PostHog's player counts the same). */
const ACTIVE_SOURCES = new Set([1, 2, 3, 4, 5, 6, 7, 12]); // mouse move, mouse interaction, scroll, viewport resize, input, touch move, media, drag
/** A stretch this long without activity is inactive (PostHog's player: 5 s). */
export const INACTIVITY_MS = 5_000;

/**
 * The inactive stretches of a recording, as [from, to] offsets from its first event: before the
 * first activity and between two activities INACTIVITY_MS or more apart (the end is left: skipping
 * it would only end the recording).
 */
export function inactiveGaps(events: readonly RrwebEvent[]): Array<[number, number]> {
  if (events.length === 0) return [];
  const start = events[0]!.timestamp;
  const active = events.filter((e) => e.type === 3 && ACTIVE_SOURCES.has(e.data?.source)).map((e) => e.timestamp - start);
  const gaps: Array<[number, number]> = [];
  let last = 0;
  for (const at of active) {
    if (at - last >= INACTIVITY_MS) gaps.push([last, at]);
    last = Math.max(last, at);
  }
  return gaps;
}
