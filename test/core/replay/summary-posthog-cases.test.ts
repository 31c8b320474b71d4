// PostHog's own cases for a recording's summary row (plugin-server
// tests/main/ingestion-queues/session-recording/process-event.test.ts, createSessionReplayEvent),
// as data: each case's rrweb events (with their windowId) and the counts PostHog expects. The
// ledger is docs/replay-posthog-tests.md.
import { describe, expect, it } from 'vitest';
import { summariseBlock } from '../../../src/core/replay/summary.js';

type Event = { timestamp?: unknown; type: number; data: Record<string, unknown>; windowId: string };
const T = 1682449093469;
const consoleEvent = (level: string) => ({ type: 6, data: { plugin: 'rrweb/console@1', payload: { level } }, timestamp: T, windowId: '1' });
const custom = (payload: Record<string, unknown>, timestamp: number) => ({ timestamp, type: 5, data: { payload }, windowId: '1' });

interface Case {
  name: string;
  events: Event[];
  expected: {
    click_count: number; keypress_count: number; mouse_activity_count: number; first_url: string | null;
    first_timestamp: string; last_timestamp: string; active_milliseconds: number;
    console_log_count: number; console_warn_count: number; console_error_count: number;
    size: number; event_count: number; urls: string[];
  };
}

const none = { click_count: 0, keypress_count: 0, mouse_activity_count: 0, first_url: null, console_log_count: 0, console_warn_count: 0, console_error_count: 0, urls: [] as string[] };

const CASES: Case[] = [
  {
    name: 'click and mouse counts are detected',
    events: [2, 4, 9, 3].map((type) => ({ timestamp: T, type: 3, data: { source: 2, type }, windowId: '1' }) as Event)
      .concat([{ timestamp: T, type: 3, data: { source: 6 }, windowId: '1' }, { timestamp: T, type: 3, data: { source: 1 }, windowId: '1' }]),
    expected: { ...none, click_count: 4, mouse_activity_count: 6, first_timestamp: '2023-04-25 18:58:13.469', last_timestamp: '2023-04-25 18:58:13.469', active_milliseconds: 1, size: 469, event_count: 6 },
  },
  {
    name: 'keyboard press is detected',
    events: [{ timestamp: T, type: 3, data: { source: 5 }, windowId: '1' }],
    expected: { ...none, keypress_count: 1, first_timestamp: '2023-04-25 18:58:13.469', last_timestamp: '2023-04-25 18:58:13.469', active_milliseconds: 1, size: 73, event_count: 1 },
  },
  {
    name: 'console log entries are counted',
    events: [
      { timestamp: T, type: 3, data: { source: 5 }, windowId: '1' },
      ...['log', 'log', 'warn', 'warn', 'warn', 'error', 'group', 'trace', 'assert', 'countReset'].map(consoleEvent),
    ],
    expected: { ...none, keypress_count: 1, first_timestamp: '2023-04-25 18:58:13.469', last_timestamp: '2023-04-25 18:58:13.469', active_milliseconds: 1, console_log_count: 4, console_warn_count: 4, console_error_count: 2, size: 1232, event_count: 11 },
  },
  {
    name: 'url can be detected in meta event',
    events: [{ timestamp: 1682449093693, type: 3, data: {}, windowId: '1' }, { timestamp: T, type: 4, data: { href: 'http://127.0.0.1:8000/the/url' }, windowId: '1' }],
    expected: { ...none, first_url: 'http://127.0.0.1:8000/the/url', first_timestamp: '2023-04-25 18:58:13.469', last_timestamp: '2023-04-25 18:58:13.693', active_milliseconds: 0, size: 163, event_count: 2, urls: ['http://127.0.0.1:8000/the/url'] },
  },
  {
    name: 'first url detection takes the first url whether meta url or payload url',
    events: [custom({ href: 'http://127.0.0.1:8000/home' }, 1682449093693), { timestamp: T, type: 4, data: { href: 'http://127.0.0.1:8000/second/url' }, windowId: '1' }],
    expected: { ...none, first_url: 'http://127.0.0.1:8000/home', first_timestamp: '2023-04-25 18:58:13.469', last_timestamp: '2023-04-25 18:58:13.693', active_milliseconds: 0, size: 213, event_count: 2, urls: ['http://127.0.0.1:8000/home', 'http://127.0.0.1:8000/second/url'] },
  },
  {
    name: 'first url detection can use payload url',
    events: [custom({ 'the-page-url': 'http://127.0.0.1:8000/second/url' }, T), custom({ href: 'http://127.0.0.1:8000/my-spa' }, 1682449093693)],
    expected: { ...none, first_url: 'http://127.0.0.1:8000/my-spa', first_timestamp: '2023-04-25 18:58:13.469', last_timestamp: '2023-04-25 18:58:13.693', active_milliseconds: 0, size: 235, event_count: 2, urls: ['http://127.0.0.1:8000/my-spa'] },
  },
  {
    name: 'negative timestamps are not included when picking timestamps',
    events: [1682449093000, 1682449095000, -922167545571].map((timestamp) => ({ timestamp, type: 3, data: { source: 2, type: 2 }, windowId: '1' })),
    expected: { ...none, click_count: 3, mouse_activity_count: 3, first_timestamp: '2023-04-25 18:58:13.000', last_timestamp: '2023-04-25 18:58:15.000', active_milliseconds: 1, size: 244, event_count: 3 },
  },
  {
    name: 'overlapping windows are summed separately for activity',
    events: ([[1682449093000, '1'], [1682449094000, '1'], [1682449095000, '2'], [1682449097000, '2'], [1682449096000, '3'], [1682449099000, '3']] as const).map(([timestamp, windowId]) => ({ timestamp, type: 3, data: { source: 2, type: 2 }, windowId })),
    expected: { ...none, click_count: 6, mouse_activity_count: 6, first_timestamp: '2023-04-25 18:58:13.000', last_timestamp: '2023-04-25 18:58:19.000', active_milliseconds: 6000, size: 487, event_count: 6 },
  },
  {
    name: 'mobile snapshot source is stored',
    events: [{ timestamp: 1682449093000, type: 3, data: { source: 2, type: 2 }, windowId: '1' }],
    expected: { ...none, click_count: 1, mouse_activity_count: 1, first_timestamp: '2023-04-25 18:58:13.000', last_timestamp: '2023-04-25 18:58:13.000', active_milliseconds: 1, size: 82, event_count: 1 },
  },
  {
    name: 'urls array is deduplicated',
    events: [
      custom({ 'the-page-url': 'http://127.0.0.1:8000/not/included' }, T),
      custom({ href: 'http://127.0.0.1:8000/my-spa' }, 1682449093693),
      custom({ href: 'http://127.0.0.1:8000/my-spa' }, 1682449093693),
      custom({ href: 'http://127.0.0.1:8000/my-spa/1' }, 1682449093693),
    ],
    expected: { ...none, first_url: 'http://127.0.0.1:8000/my-spa', first_timestamp: '2023-04-25 18:58:13.469', last_timestamp: '2023-04-25 18:58:13.693', active_milliseconds: 0, size: 461, event_count: 4, urls: ['http://127.0.0.1:8000/my-spa', 'http://127.0.0.1:8000/my-spa/1'] },
  },
];

/** PostHog's ClickHouse time text of a millisecond time. */
const clickhouseTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

describe("PostHog's session replay event cases", () => {
  it.each(CASES)('$name', ({ events, expected }) => {
    // Hoglet stores the window apart from the event ([window, event] lines), as it receives them.
    const lines = events.map(({ windowId, ...event }) => [windowId, event] as const);
    const summary = summariseBlock(lines);
    expect({
      click_count: summary.clickCount,
      keypress_count: summary.keypressCount,
      mouse_activity_count: summary.mouseActivityCount,
      first_url: summary.firstUrl,
      first_timestamp: clickhouseTime(summary.firstTimestampMs),
      last_timestamp: clickhouseTime(summary.lastTimestampMs),
      active_milliseconds: summary.activeMilliseconds,
      console_log_count: summary.consoleLogCount,
      console_warn_count: summary.consoleWarnCount,
      console_error_count: summary.consoleErrorCount,
      size: summary.size,
      event_count: summary.eventCount,
      urls: summary.urls,
    }).toEqual(expected);
  });

  // PostHog's level mapping cases ("log level console log processing"): the level each counts under.
  it.each([
    ['log', 'log'], ['trace', 'log'], ['dir', 'log'], ['dirxml', 'log'], ['group', 'log'], ['groupCollapsed', 'log'], ['debug', 'log'],
    ['timeLog', 'log'], ['info', 'log'], ['count', 'log'], ['timeEnd', 'log'], ['warn', 'warn'], ['countReset', 'warn'], ['error', 'error'],
    ['assert', 'error'], ['countReset', 'warn'], ['wakanda forever', 'log'], ['\\n\\r\\t\\0\\b\\f', 'log'], [null, 'log'], [undefined, 'log'],
  ] as const)('console level %s counts as %s', (level, counted) => {
    const summary = summariseBlock([['1', { timestamp: T, type: 6, data: { plugin: 'rrweb/console@1', payload: { level, payload: ['test'] } } }]]);
    expect({ log: summary.consoleLogCount, warn: summary.consoleWarnCount, error: summary.consoleErrorCount }).toEqual({ log: 0, warn: 0, error: 0, [counted]: 1 });
  });

  // PostHog's "timestamps from rrweb events": only positive numbers are times.
  it.each([
    [[], null], [[{ without: 'timestamp property' }], null], [[{ timestamp: undefined }], null], [[{ timestamp: null }], null],
    [[{ timestamp: 'what about a string' }], null], [[{ timestamp: -1 }], null], [[{ timestamp: 0 }], null], [[{ timestamp: 1 }], '1970-01-01 00:00:00.001'],
  ] as const)('timestamps of %j: %s', (events, first) => {
    const summary = summariseBlock(events.map((event) => ['1', event] as const));
    expect(Number.isFinite(summary.firstTimestampMs) ? clickhouseTime(summary.firstTimestampMs) : null).toBe(first);
  });
});
