// Declarative event stories for query tests: journeys({ alice: [ev('$pageview', '2024-01-01T10:00:00Z')] })
// captured through the real /batch/ endpoint, then queried through the real /query/ endpoint.
import type { LightMyRequestResponse } from 'fastify';
import type { Credentials, TestApp } from './app.js';

export interface JourneyEvent {
  event: string;
  at: string;
  properties?: Record<string, unknown>;
}

/** One event at an ISO instant, with optional properties ($set works as in any capture). */
export const ev = (event: string, at: string, properties: Record<string, unknown> = {}): JourneyEvent => ({ event, at, properties });

/** Captures every journey (keyed by distinct id) in one batch and fails the test on anything but 200. */
export async function journeys(t: TestApp, who: Credentials, stories: Record<string, JourneyEvent[]>): Promise<void> {
  const batch = Object.entries(stories).flatMap(([distinctId, events]) =>
    events.map((e) => ({ event: e.event, distinct_id: distinctId, timestamp: e.at, properties: e.properties ?? {} })));
  const res = await postBatch(t, { api_key: who.projectApiToken, batch });
  if (res.statusCode !== 200) throw new Error(`capture failed: ${res.statusCode} ${res.body}`);
}

/**
 * POST /batch/ as the SDKs send it: a 503 (capture's backlog is full, which a loaded CI machine
 * reaches) is retried after its Retry-After, for up to a minute; any other answer is returned.
 */
export async function postBatch(t: TestApp, payload: object): Promise<LightMyRequestResponse> {
  const giveUpAt = Date.now() + 60_000;
  for (;;) {
    const res = await t.request(null, { method: 'POST', url: '/batch/', payload });
    if (res.statusCode !== 503 || Date.now() > giveUpAt) return res;
    const seconds = Number(res.headers['retry-after']) || 1;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/** POST /api/projects/:id/query/ and the parsed JSON (throws on a non-200 unless asked for the raw response). */
export async function runQuery(t: TestApp, who: Credentials, query: unknown): Promise<any> {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query } });
  if (res.statusCode !== 200) throw new Error(`query failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A trends query over absolute dates (so the test does not depend on today). */
export function trendsQuery(series: unknown[], from: string, to: string, extra: Record<string, unknown> = {}) {
  return { kind: 'TrendsQuery', series, dateRange: { date_from: from, date_to: to }, ...extra };
}
