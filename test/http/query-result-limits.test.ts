// The shared result cache (query_cache, in the metadata store) is bounded: it never holds more
// bytes than its budget however many distinct queries run (the oldest calculations go first), a
// result larger than one entry may be is answered but not cached, and a result past the hard
// limit is refused with a 400 that says how to narrow it (issue 27: one result of ~300 MB, a
// metadata database of 0.9 GB after three queries, larger results answered 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const MB = 1024 * 1024;
const LIMITS = { HOGLET_QUERY_CACHE_MB: '0.02', HOGLET_QUERY_CACHE_ENTRY_MB: '0.008', HOGLET_QUERY_RESULT_MAX_MB: '0.1' };
const BUDGET = Math.round(0.02 * MB);

const trends = (from: string, to: string) => ({
  kind: 'TrendsQuery',
  series: [{ kind: 'EventsNode', event: '$pageview' }],
  dateRange: { date_from: from, date_to: to },
});
const day = (offset: number) => new Date(Date.UTC(2024, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);

describe.each(META_STORES)('the shared result cache on %s', (store) => {
  let t: TestApp;
  let who: Credentials;
  const query = (q: unknown, refresh = 'blocking') =>
    t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: q, refresh } });

  beforeAll(async () => {
    t = await createTestApp(store, LIMITS);
    who = await t.bootstrap('limits@example.com');
    await journeys(t, who, { a: [ev('$pageview', '2024-01-01T10:00:00Z'), ev('$pageview', '2024-03-02T10:00:00Z')] });
  });
  afterAll(() => t.close());

  it('never holds more than its budget after many distinct queries, and keeps the newest', async () => {
    let largest = 0;
    for (let i = 0; i < 25; i++) {
      const res = await query(trends(day(i), day(i + 20)));
      expect(res.statusCode, res.body).toBe(200);
      largest = Math.max(largest, Buffer.byteLength(res.body));
      const usage = await t.services.repositories.queryCache.usage();
      expect(usage.bytes).toBeLessThanOrEqual(BUDGET);
      expect(usage.entries).toBeGreaterThan(0);
    }
    // The test means something only if all of them could not fit.
    expect(largest * 25).toBeGreaterThan(2 * BUDGET);
    // The newest is served from the cache; the oldest was evicted and is calculated again.
    expect((await query(trends(day(24), day(44)), 'force_cache')).json()).toMatchObject({ is_cached: true });
    const oldest = await query(trends(day(0), day(20)), 'force_cache');
    expect(oldest.statusCode).toBe(200);
    expect(oldest.json().results ?? null).toBeNull();
  });

  it('answers a result larger than one entry may be, without caching it', async () => {
    const year = trends('2024-01-01', '2024-12-31');
    const first = await query(year);
    expect(first.statusCode, first.body).toBe(200);
    expect(Buffer.byteLength(first.body)).toBeGreaterThan(0.008 * MB);
    expect(first.json().results[0].count).toBe(2);
    const again = await query(year, 'force_cache');
    expect(again.json().results ?? null).toBeNull();
    expect((await t.services.repositories.queryCache.usage()).bytes).toBeLessThanOrEqual(BUDGET);
  });

  it('refuses a result past the hard limit with a 400 asking for a LIMIT', async () => {
    const res = await query({ kind: 'HogQLQuery', query: "select arrayJoin(range(100)) as n, repeat('x', 3000) as filler" });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', code: 'result_too_large', detail: expect.stringMatching(/LIMIT/) });
    // A smaller one still answers.
    const small = await query({ kind: 'HogQLQuery', query: "select arrayJoin(range(3)) as n, repeat('x', 10) as filler" });
    expect(small.statusCode, small.body).toBe(200);
  });
});
