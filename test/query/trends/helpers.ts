// Shared fixtures for the trends journeys: one real app per file, a fresh project per story,
// queries through the real /query/ and legacy /insights/trend/ endpoints.
import { expect } from 'vitest';
import type { Credentials, TestApp } from '../../helpers/app.js';
import { ev, runQuery } from '../../helpers/journeys.js';

export { ev, journeys, runQuery, trendsQuery } from '../../helpers/journeys.js';

let projects = 0;

/** A new user, organization and project (with a key) so each story starts with no events. */
export async function freshProject(t: TestApp, settings: Record<string, unknown> = {}): Promise<Credentials> {
  const who = await t.bootstrap(`trends-${process.pid}-${++projects}@example.com`);
  if (Object.keys(settings).length) await patchProject(t, who, settings);
  return who;
}

export async function patchProject(t: TestApp, who: Credentials, settings: Record<string, unknown>): Promise<void> {
  const res = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload: settings });
  expect(res.statusCode, res.body).toBe(200);
}

export const pageviews = (math?: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ kind: 'EventsNode', event: '$pageview', ...(math ? { math } : {}), ...extra });
export const eventsNode = (event: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ kind: 'EventsNode', event, ...extra });

/** The results of a /query/ call. */
export async function trends(t: TestApp, who: Credentials, query: unknown): Promise<any[]> {
  return (await runQuery(t, who, query)).results;
}

/** data of each result item, keyed by label (or breakdown value). */
export const dataByLabel = (results: any[]) => Object.fromEntries(results.map((r) => [r.label, r.data]));

/** The raw response of a /query/ call, for errors. */
export async function rawQuery(t: TestApp, who: Credentials, query: unknown) {
  return t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query } });
}

/** POST /insights/trend/ with a legacy filter body. */
export async function legacyTrend(t: TestApp, who: Credentials, filters: Record<string, unknown>) {
  return t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/insights/trend/`, payload: filters });
}

/** GET /insights/trend/?... with the filters as query-string values (objects and lists as JSON). */
export async function legacyTrendGet(t: TestApp, who: Credentials, filters: Record<string, unknown>) {
  const qs = new URLSearchParams(Object.entries(filters).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  return t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/insights/trend/?${qs}` });
}

/** Asserts a 400 validation error with exactly this body shape. */
export function expectValidationError(res: { statusCode: number; body: string; json(): any }, attr: string | null, detail?: RegExp, code = 'invalid_input'): void {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body).toEqual({ type: 'validation_error', code, detail: expect.any(String), attr });
  if (detail) expect(body.detail).toMatch(detail);
}

/**
 * PostHog's `_create_test_events` (test_trends_query_runner.py): four people with a numeric `prop`
 * (10, 20, 30, 40) and a `$browser` on every event, no `$session_id`; its tests query 2020-01-09 to
 * 2020-01-20 by day.
 */
export function posthogTestEvents() {
  const at = (day: number) => `2020-01-${String(day).padStart(2, '0')}T12:00:00Z`;
  const person = (props: Record<string, unknown>, pageviews: number[], pageleaves: number[]) =>
    [...pageviews.map((d) => ev('$pageview', at(d), props)), ...pageleaves.map((d) => ev('$pageleave', at(d), props))];
  return {
    p1: person({ $browser: 'Chrome', prop: 10, bool_field: true }, [11, 12, 13, 15, 17, 19], [11, 12, 13]),
    p2: person({ $browser: 'Firefox', prop: 20, bool_field: false }, [9, 12], [13]),
    p3: person({ $browser: 'Edge', prop: 30, bool_field: true }, [12], [13]),
    p4: person({ $browser: 'Safari', prop: 40, bool_field: false }, [15], [16]),
  };
}
