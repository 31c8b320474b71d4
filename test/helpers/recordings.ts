// Recordings as posthog-js makes them: rrweb events posted to /s/ as $snapshot bodies, and the
// session's events posted to /batch/ with its $session_id, for the recordings list's tests.
import { expect } from 'vitest';
import type { Credentials, TestApp } from './app.js';
import { postBatch } from './journeys.js';

/** rrweb events over `seconds`: meta, full snapshot, `clicks` clicks, then a last mouse move. */
export function rrwebPage(at: number, seconds: number, href = 'https://shop.example/', clicks = 1): unknown[] {
  return [
    { type: 4, timestamp: at, data: { href, width: 1280, height: 800 } },
    { type: 2, timestamp: at + 1, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } } },
    ...Array.from({ length: clicks }, (_, i) => ({ type: 3, timestamp: at + 100 + i, data: { source: 2, type: 2, id: 5, x: 1, y: 2 } })),
    { type: 3, timestamp: at + seconds * 1000, data: { source: 1, positions: [{ x: 1, y: 1, id: 1, timeOffset: 0 }] } },
  ];
}

/** Sets the project's `session_recording_opt_in` (off by default: /s/ then stores nothing). */
export async function turnOnRecording(t: TestApp, who: Credentials, on = true): Promise<void> {
  const res = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload: { session_recording_opt_in: on } });
  expect(res.statusCode, res.body).toBe(200);
}

/** The same through a running server's HTTP port (the tests of `hoglet` processes). */
export async function turnOnRecordingAt(port: number, projectId: number, key: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/api/projects/${projectId}/`, {
    method: 'PATCH', body: JSON.stringify({ session_recording_opt_in: true }), headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
  });
  expect(res.status, await res.text()).toBe(200);
}

/** Posts one $snapshot request for the session to /s/ (200 means stored). */
export async function recordSession(t: TestApp, who: Credentials, sessionId: string, distinctId: string, data: unknown[], extra: Record<string, unknown> = {}): Promise<void> {
  const body = [{ event: '$snapshot', properties: { $snapshot_data: data, $session_id: sessionId, $window_id: 'w1', $lib: 'web', distinct_id: distinctId, token: who.projectApiToken, ...extra } }];
  const res = await t.app.inject({ method: 'POST', url: '/s/', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  expect(res.statusCode, res.body).toBe(200);
}

export interface SessionEvent {
  event: string;
  at: number;
  properties?: Record<string, unknown>;
}

/** The session's events through /batch/, each carrying its $session_id. */
export async function sessionEvents(t: TestApp, who: Credentials, sessionId: string, distinctId: string, events: SessionEvent[]): Promise<void> {
  if (events.length === 0) return;
  const batch = events.map((e) => ({ event: e.event, distinct_id: distinctId, timestamp: new Date(e.at).toISOString(), properties: { ...e.properties, $session_id: sessionId, $window_id: 'w1' } }));
  const res = await postBatch(t, { api_key: who.projectApiToken, batch });
  expect(res.statusCode, res.body).toBe(200);
}

/** The ids the list answers for a query string (PostHog's RecordingsQuery fields, JSON-encoded). */
export async function listedIds(t: TestApp, who: Credentials, params: Record<string, unknown>, key = who.key): Promise<string[]> {
  const res = await listRecordings(t, who, params, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results.map((r: { id: string }) => r.id);
}

export function listRecordings(t: TestApp, who: Credentials, params: Record<string, unknown>, key = who.key) {
  const query = Object.entries(params)
    .map(([name, value]) => `${name}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`)
    .join('&');
  return t.request(key, { method: 'GET', url: `/api/projects/${who.projectId}/session_recordings/?${query}` });
}
