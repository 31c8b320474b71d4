// The metadata store's disk filling up (SQLite's own "database or disk is full", made real by
// capping the database at the pages it has: PRAGMA max_page_count): a query still answers, just
// uncached (the cache only saves work), with a warning in the log; a request whose own write the
// store cannot take answers 503 in PostHog's error body, never the generic 500.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
const problems: string[] = [];

function withCauses(error: unknown): string {
  const messages: string[] = [];
  for (let e = error; e instanceof Error; e = e.cause) messages.push(e.message);
  return messages.join(': ');
}

beforeAll(async () => {
  t = await createTestApp('sqlite', {}, { onBackgroundError: (error) => problems.push(withCauses(error)) });
  who = await t.bootstrap('full@example.com');
  await journeys(t, who, { a: [ev('$pageview', '2024-01-01T10:00:00Z'), ev('$pageview', '2024-01-02T10:00:00Z')] });
});
afterAll(async () => {
  await diskHasRoom();
  await t.close();
});

/** The database may not grow past the pages it has now: every write needing a new page fails. */
async function diskIsFull(): Promise<void> {
  const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(t.services.meta.db);
  await sql.raw(`PRAGMA max_page_count = ${rows[0]!.page_count}`).execute(t.services.meta.db);
}
async function diskHasRoom(): Promise<void> {
  await sql.raw('PRAGMA max_page_count = 1073741823').execute(t.services.meta.db);
}

const yearOfTrends = {
  kind: 'TrendsQuery',
  series: [{ kind: 'EventsNode', event: '$pageview' }],
  dateRange: { date_from: '2023-01-01', date_to: '2024-12-31' },
};

describe('a full metadata store', () => {
  it('answers a query uncached when its result cannot be cached, and logs a warning', async () => {
    await diskIsFull();
    try {
      const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: yearOfTrends } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ is_cached: false, results: [{ count: 2 }] });
      expect(problems.some((p) => /could not cache a query result/.test(p) && /database or disk is full/.test(p))).toBe(true);
    } finally {
      await diskHasRoom();
    }
  });

  it('answers 503 in PostHog\'s body when a request\'s own write cannot be stored', async () => {
    await diskIsFull();
    try {
      const res = await t.request(who.key, {
        method: 'POST',
        url: `/api/projects/${who.projectId}/insights/`,
        // A filter long enough that the row needs new pages.
        payload: {
          name: 'too much',
          query: { kind: 'InsightVizNode', source: { ...yearOfTrends, properties: [{ key: 'p', type: 'event', operator: 'exact', value: Array.from({ length: 400 }, (_, i) => `value ${i} `.repeat(50)) }] } },
        },
      });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({ type: 'server_error', code: 'service_unavailable', detail: expect.stringMatching(/retry/), attr: null });
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      await diskHasRoom();
    }
    // With room again, the same request is stored.
    const again = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/insights/`, payload: { name: 'fits', query: { kind: 'InsightVizNode', source: yearOfTrends } } });
    expect(again.statusCode, again.body).toBe(201);
  });
});
