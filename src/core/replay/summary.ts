// What one block of rrweb events adds to its session's summary row, counted as PostHog's
// recording ingestion counts them (plugin-server's process-event.ts and snapshot-segmenter.ts):
// clicks, key presses and mouse activity are rrweb incremental snapshots (type 3) of given
// sources; active time is the length of the segments that start at an active event and end 5 s
// after the last one; console counts come from rrweb's console plugin (type 6) by PostHog's levels;
// the first URL is the first event's `data.href` (Meta) or `data.payload.href` (Custom).

/** rrweb's event types and incremental sources (rrweb's @rrweb/types enums). */
const INCREMENTAL = 3;
const PLUGIN = 6;
const SOURCE = { mouseMove: 1, mouseInteraction: 2, scroll: 3, viewportResize: 4, input: 5, touchMove: 6, mediaInteraction: 7, drag: 12 } as const;
/** Mouse interactions PostHog counts as clicks: Click, ContextMenu (right click), DblClick, TouchEnd. */
const CLICK_INTERACTIONS = new Set([2, 3, 4, 9]);
const ACTIVE_SOURCES = new Set<number>(Object.values(SOURCE));
const MOUSE_ACTIVITY_SOURCES = new Set<number>([SOURCE.mouseInteraction, SOURCE.mouseMove, SOURCE.touchMove]);
/** An active segment ends once no active event came for this long (PostHog's activity threshold). */
export const ACTIVITY_THRESHOLD_MS = 5_000;

export interface BlockSummary {
  firstTimestampMs: number;
  lastTimestampMs: number;
  /** The page of the block's first Meta event (rrweb's `data.href`), if any. */
  firstUrl: string | null;
  urls: string[];
  clickCount: number;
  keypressCount: number;
  mouseActivityCount: number;
  activeMilliseconds: number;
  consoleLogCount: number;
  consoleWarnCount: number;
  consoleErrorCount: number;
  eventCount: number;
  /** Bytes of the events' JSON array, as PostHog's `size`. */
  size: number;
}

type RrwebEvent = { type?: unknown; timestamp?: unknown; data?: Record<string, unknown> | null };

/** The block's lines: [window id, rrweb event]. Active time is summed per window, as PostHog does. */
export function summariseBlock(lines: readonly (readonly [string, unknown])[]): BlockSummary {
  const events = lines.map(([, event]) => event);
  const summary: BlockSummary = {
    firstTimestampMs: Number.POSITIVE_INFINITY,
    lastTimestampMs: Number.NEGATIVE_INFINITY,
    firstUrl: null,
    urls: [],
    clickCount: 0,
    keypressCount: 0,
    mouseActivityCount: 0,
    activeMilliseconds: 0,
    consoleLogCount: 0,
    consoleWarnCount: 0,
    consoleErrorCount: 0,
    eventCount: events.length,
    // PostHog measures its events summary: each event with its windowId.
    size: Buffer.byteLength(JSON.stringify(lines.map(([windowId, event]) => ({ ...(event as object), windowId })))),
  };
  const urls = new Set<string>();
  for (const raw of events) {
    const event = raw as RrwebEvent;
    // PostHog keeps only positive times.
    const timestamp = typeof event.timestamp === 'number' && Number.isFinite(event.timestamp) && event.timestamp > 0 ? event.timestamp : null;
    if (timestamp !== null) {
      summary.firstTimestampMs = Math.min(summary.firstTimestampMs, timestamp);
      summary.lastTimestampMs = Math.max(summary.lastTimestampMs, timestamp);
    }
    const data = event.data && typeof event.data === 'object' ? event.data : {};
    if (event.type === INCREMENTAL) {
      const source = data.source as number;
      if (source === SOURCE.mouseInteraction && CLICK_INTERACTIONS.has(data.type as number)) summary.clickCount++;
      if (source === SOURCE.input) summary.keypressCount++;
      if (MOUSE_ACTIVITY_SOURCES.has(source)) summary.mouseActivityCount++;
    }
    const href = hrefOf(data);
    if (href) {
      urls.add(href);
      summary.firstUrl ??= href;
    }
    if (event.type === PLUGIN && data.plugin === 'rrweb/console@1') {
      const level = CONSOLE_LEVELS[String((data.payload as { level?: unknown } | undefined)?.level)] ?? 'log';
      if (level === 'error') summary.consoleErrorCount++;
      else if (level === 'warn') summary.consoleWarnCount++;
      else summary.consoleLogCount++;
    }
  }
  summary.urls = [...urls];
  const windows = new Map<string, RrwebEvent[]>();
  for (const [windowId, event] of lines) {
    const list = windows.get(windowId) ?? [];
    list.push(event as RrwebEvent);
    windows.set(windowId, list);
  }
  for (const windowEvents of windows.values()) summary.activeMilliseconds += activeMilliseconds(windowEvents);
  return summary;
}

/** Console levels PostHog counts as warnings and errors; every other level is a log line. */
const CONSOLE_LEVELS: Record<string, 'warn' | 'error'> = { warn: 'warn', countReset: 'warn', error: 'error', assert: 'error' };

function hrefOf(data: Record<string, unknown>): string | undefined {
  const meta = typeof data.href === 'string' ? data.href.trim() : '';
  const payload = data.payload as { href?: unknown } | undefined;
  const custom = payload && typeof payload === 'object' && typeof payload.href === 'string' ? payload.href.trim() : '';
  return meta || custom || undefined;
}

/**
 * PostHog's segments, in the order the events came: a segment starts at the first event, at an
 * active event after inactive ones, or at any event more than 5 s after the last active one; it
 * ends at its last event. Active segments count their length, at least 1 ms.
 */
export function activeMilliseconds(events: readonly RrwebEvent[]): number {
  let total = 0;
  let segment: { start: number; end: number; active: boolean } | null = null;
  let lastActive = 0;
  const close = () => {
    if (segment?.active) total += Math.max(1, segment.end - segment.start);
  };
  for (const event of events) {
    const timestamp = typeof event.timestamp === 'number' ? event.timestamp : Number.NaN;
    const active = event.type === INCREMENTAL && ACTIVE_SOURCES.has((event.data?.source as number) ?? -1);
    const starts = segment === null || (active && !segment.active) || (segment.active && lastActive + ACTIVITY_THRESHOLD_MS < timestamp);
    if (active) lastActive = timestamp;
    if (starts) {
      close();
      segment = { start: timestamp, end: timestamp, active };
    }
    segment!.end = timestamp;
  }
  close();
  return Number.isFinite(total) ? Math.round(total) : 0;
}
