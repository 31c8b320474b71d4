// Capture keeps acknowledging while a slow analytical query runs: writes and the reads they need
// (uuid de-duplication, persons) have a lane of their own in the event store. Queries waiting for
// their turn are bounded, so a flood of dashboard refreshes gets 503s instead of an endless queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryExecutor } from '../../src/query/execute.js';
import { MAX_WAITING_QUERIES, StoreBusyError } from '../../src/storage/events/event-store.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { storedEvents } from '../helpers/ingest.js';

// sleepEachRow is not reachable from any request (not on the printer's allow-list); only tests hand
// the executor raw SQL, to have a statement that is slow on any machine: 30 s here.
const LONG = { sql: 'SELECT sleepEachRow(0.1) FROM numbers(300) SETTINGS max_block_size = 1', params: {} };

let t: TestApp;
let who: Credentials;

beforeAll(async () => {
  // One query-lane connection: the slow statement holds the whole lane, as the bound is about.
  t = await createTestApp('sqlite', { HOGLET_QUERY_CONCURRENCY: '1' });
  who = await t.bootstrap('lanes@example.com');
});
afterAll(() => t.close());

describe('capture during a slow query', () => {
  it('acknowledges events within moments while a 30-second query holds the query lane', async () => {
    const executor = new QueryExecutor(t.services.events, { timeoutSeconds: 60, maxResultRows: 1000 });
    const slow = executor.execute(LONG, who.projectId, 'slow-dashboard').catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 300));
    try {
      const started = Date.now();
      const answers = await Promise.all(
        ['/batch/', '/e/', '/i/v0/e/'].map((url, i) =>
          t.app.inject({
            method: 'POST',
            url,
            payload: JSON.stringify({ api_key: who.projectApiToken, event: 'during-query', distinct_id: `user-${i}`, properties: { $set: { n: i } } }),
            headers: { 'content-type': 'application/json' },
          }),
        ),
      );
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      expect(Date.now() - started).toBeLessThan(3_000);
      // Inserted behind the acknowledgement within moments, while the query lane is still busy
      // (read on the ingest lane, which does not wait behind the slow query).
      const stored = async () =>
        Number(
          (await t.services.events.query<{ n: string }>(
            `SELECT count() AS n FROM ${t.services.events.layout.database}.events WHERE team_id = {team:UInt64}`,
            { team: who.projectId },
            { lane: 'ingest' },
          ))[0]!.n,
        );
      await expect.poll(stored, { timeout: 3_000, interval: 50 }).toBe(3);
    } finally {
      await executor.cancel(who.projectId, 'slow-dashboard');
      await slow;
    }
    expect((await storedEvents(t.services.events, who.projectId)).map((e) => e.event)).toEqual(Array(3).fill('during-query'));
  }, 60_000);
});

describe('queries waiting for the query lane', () => {
  it('are bounded: past the bound a query is refused at once with a 503, and the waiting ones still run', async () => {
    const executor = new QueryExecutor(t.services.events, { timeoutSeconds: 60, maxResultRows: 1000 });
    const slow = executor.execute(LONG, who.projectId, 'holder').catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const waiting = Array.from({ length: MAX_WAITING_QUERIES }, () => t.services.events.query<{ one: number }>('SELECT 1 AS one'));
    const refused = await t.services.events.query('SELECT 1 AS one').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreBusyError);
    expect((refused as StoreBusyError).status).toBe(503);
    // Over HTTP the same refusal is PostHog's error body with Retry-After.
    const trend = await t.request(who.key, {
      method: 'POST',
      url: `/api/projects/${who.projectId}/query/`,
      payload: { query: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'x' }] } },
    });
    expect(trend.statusCode).toBe(503);
    expect(trend.headers['retry-after']).toBe('1');
    expect(trend.json()).toMatchObject({ type: 'server_error', code: 'service_unavailable' });
    await executor.cancel(who.projectId, 'holder');
    await slow;
    expect(await Promise.all(waiting)).toEqual(Array(MAX_WAITING_QUERIES).fill([{ one: 1 }]));
  }, 60_000);
});
