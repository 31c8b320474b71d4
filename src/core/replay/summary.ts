// What one block of rrweb events adds to its session's summary row, counted as PostHog's
// recording ingestion counts them: clicks, key presses and mouse activity are rrweb incremental
// snapshots (type 3) of given sources; active time sums the gaps of at most 5 s between active
// incremental events; console counts come from rrweb's console plugin (type 6).

/** rrweb's event types and incremental sources (rrweb's @rrweb/types enums). */
const FULL_SNAPSHOT = 2;
const INCREMENTAL = 3;
const META = 4;
const PLUGIN = 6;
const SOURCE = { mouseMove: 1, mouseInteraction: 2, scroll: 3, viewportResize: 4, input: 5, touchMove: 6, mediaInteraction: 7, drag: 12 } as const;
/** Mouse interactions PostHog counts as clicks: Click, DblClick, TouchEnd. */
const CLICK_INTERACTIONS = new Set([2, 4, 9]);
const ACTIVE_SOURCES = new Set<number>(Object.values(SOURCE));
const MOUSE_ACTIVITY_SOURCES = new Set<number>([SOURCE.mouseInteraction, SOURCE.mouseMove, SOURCE.touchMove]);
/** Gaps between active events up to this long count as active time (PostHog's activity threshold). */
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
  fullSnapshots: number;
}

type RrwebEvent = { type?: unknown; timestamp?: unknown; data?: Record<string, unknown> | null };

export function summariseBlock(events: readonly unknown[]): BlockSummary {
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
    fullSnapshots: 0,
  };
  let firstUrlAt = Number.POSITIVE_INFINITY;
  const activeTimes: number[] = [];
  const urls = new Set<string>();
  for (const raw of events) {
    const event = raw as RrwebEvent;
    const timestamp = typeof event.timestamp === 'number' && Number.isFinite(event.timestamp) ? event.timestamp : null;
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
      if (ACTIVE_SOURCES.has(source) && timestamp !== null) activeTimes.push(timestamp);
    } else if (event.type === META && typeof data.href === 'string' && data.href !== '') {
      urls.add(data.href);
      if (timestamp !== null && timestamp < firstUrlAt) {
        firstUrlAt = timestamp;
        summary.firstUrl = data.href;
      } else if (summary.firstUrl === null) summary.firstUrl = data.href;
    } else if (event.type === PLUGIN && data.plugin === 'rrweb/console@1') {
      const level = (data.payload as { level?: unknown } | undefined)?.level;
      if (level === 'error' || level === 'assert') summary.consoleErrorCount++;
      else if (level === 'warn' || level === 'countReset') summary.consoleWarnCount++;
      else summary.consoleLogCount++;
    } else if (event.type === FULL_SNAPSHOT) summary.fullSnapshots++;
  }
  summary.urls = [...urls];
  activeTimes.sort((a, b) => a - b);
  for (let i = 1; i < activeTimes.length; i++) {
    const gap = activeTimes[i]! - activeTimes[i - 1]!;
    if (gap <= ACTIVITY_THRESHOLD_MS) summary.activeMilliseconds += gap;
  }
  return summary;
}
