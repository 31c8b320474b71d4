// Calculations as several clients meet them: a background calculation whose process died does not
// block its insight; clients sharing one running calculation cancel only their own request; an
// insight list never waits for calculations, and background calculations run a few at a time.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QueryStatusRow } from '../../src/storage/meta/repositories/query-cache.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

// The embedded engine runs one statement at a time: a slow statement ahead keeps the insight's
// statements waiting, so a calculation stays "running" as long as the test needs.
const SLOW = { sql: 'SELECT sleepEachRow(0.1) FROM numbers(20) SETTINGS max_block_size = 1', params: {} };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const trends = (from: string, to: string) => ({
  kind: 'InsightVizNode',
  source: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: from, date_to: to } },
});

describe.each(META_STORES)('background and shared calculations on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let counter = 0;
  const base = () => `/api/projects/${alice.projectId}/insights/`;

  const create = async (query: unknown) => {
    const res = await t.request(alice.key, { method: 'POST', url: base(), payload: { name: `insight ${++counter}`, query } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const retrieve = (id: number, params = '') => t.request(alice.key, { method: 'GET', url: `${base()}${id}/${params}` });
  const statusOf = (queryId: string) => t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/query/${encodeURIComponent(queryId)}/` });
  const poll = async (queryId: string) => {
    for (let i = 0; i < 200; i++) {
      const res = await statusOf(queryId);
      if (res.statusCode !== 202) return res;
      await pause(25);
    }
    throw new Error('the background calculation never finished');
  };
  /** Runs `work` while the engine is busy with a slow statement, then frees the engine. */
  const whileEngineBusy = async <T>(work: () => Promise<T>): Promise<T> => {
    const blocker = t.services.executor.execute(SLOW, alice.projectId, 'blocker').catch((e: unknown) => e);
    await pause(100);
    try {
      return await work();
    } finally {
      await t.services.executor.cancel(alice.projectId, 'blocker');
      await blocker;
    }
  };
  /** The cache key (and status id) of an insight's query, as /query/ reports it on a cache miss. */
  const cacheKeyOf = async (query: unknown): Promise<string> => {
    const res = await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/query/`, payload: { query, refresh: 'force_cache' } });
    return res.json().cache_key;
  };
  /** A status row as a process that died mid-calculation leaves it: not complete, last beat long ago. */
  const deadStatus = (id: string, insightId: number | null, ageMs: number): QueryStatusRow => {
    const started = Date.now() - ageMs;
    return {
      team_id: alice.projectId, id, insight_id: insightId, dashboard_id: null, complete: 0, error: 0, error_message: null, results: null,
      start_time: new Date(started).toISOString(), end_time: null, expiration_time: new Date(started + 3_600_000).toISOString(),
      task_id: 'task-of-a-dead-process', owner: 'a-dead-process', heartbeat_at: new Date(started).toISOString(),
    };
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com');
    await journeys(t, alice, {
      a: [ev('$pageview', '2024-01-01T10:00:00Z'), ev('$pageview', '2024-01-02T10:00:00Z')],
      b: [ev('$pageview', '2024-01-02T11:00:00Z')],
    });
  });
  afterAll(() => t.close());

  describe('a calculation whose process died', () => {
    it('is taken over by the next async request instead of blocking the insight', async () => {
      const query = trends('2024-01-01', '2024-01-08');
      const insight = await create(query);
      const key = await cacheKeyOf(query);
      await t.services.repositories.queryCache.putStatus(deadStatus(key, insight.id, 2 * 60_000));

      // A client polling the dead calculation is told it failed, with what to do.
      const polled = await statusOf(key);
      expect(polled.statusCode).toBe(400);
      expect(polled.json().query_status).toMatchObject({ complete: true, error: true, error_message: expect.stringMatching(/ask for the result again/i) });

      const started = (await retrieve(insight.id, '?refresh=async')).json();
      expect(started.query_status.id).toBe(key);
      expect(started.query_status.task_id).not.toBe('task-of-a-dead-process');
      const done = await poll(key);
      expect(done.statusCode).toBe(200);
      expect(done.json().query_status.results.results[0].data).toEqual([1, 2, 0, 0, 0, 0, 0, 0]);
      expect((await retrieve(insight.id)).json()).toMatchObject({ is_cached: true, result: [{ data: [1, 2, 0, 0, 0, 0, 0, 0] }] });
    });

    it("takes over a client's query id too, and leaves a live calculation of another process alone", async () => {
      const insight = await create(trends('2024-01-01', '2024-01-09'));
      await t.services.repositories.queryCache.putStatus(deadStatus('my-id', insight.id, 60_000));
      await retrieve(insight.id, '?refresh=async&client_query_id=my-id');
      expect((await poll('my-id')).json().query_status).toMatchObject({ complete: true, error: false });

      // Beating a second ago: another process is on it, so this one waits for that calculation.
      const other = await create(trends('2024-01-01', '2024-01-10'));
      await t.services.repositories.queryCache.putStatus({ ...deadStatus('their-id', other.id, 1_000), task_id: 'live-task', owner: 'another-process' });
      const joined = (await retrieve(other.id, '?refresh=async&client_query_id=their-id')).json();
      expect(joined.query_status).toMatchObject({ id: 'their-id', task_id: 'live-task', complete: false });
      await t.services.results.drain();
      expect((await retrieve(other.id)).json().result).toBeNull();
    });
  });

  describe('cancelling one client of a shared calculation', () => {
    it('ends that client\'s request only; the calculation goes on for the other, and stops when no one waits', async () => {
      const insight = await create(trends('2024-01-01', '2024-01-11'));
      const [first, second] = await whileEngineBusy(async () => {
        const first = retrieve(insight.id, '?refresh=blocking&client_query_id=client-a');
        await pause(50);
        const second = retrieve(insight.id, '?refresh=blocking&client_query_id=client-b');
        await pause(50);
        const cancelled = await t.request(alice.key, { method: 'POST', url: `${base()}cancel/`, payload: { client_query_id: 'client-a' } });
        expect(cancelled.statusCode).toBe(201);
        // The cancelled client is answered at once, while the engine is still busy.
        const a = await first;
        expect(a.statusCode).toBe(400);
        expect(a.json()).toMatchObject({ code: 'query_cancelled' });
        return [a, second];
      });
      const b = await second;
      expect(first.statusCode).toBe(400);
      expect(b.statusCode, b.body).toBe(200);
      expect(b.json().result[0].data).toEqual([1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

      // Alone, a client's cancel stops the calculation: nothing is cached.
      const lonely = await create(trends('2024-01-01', '2024-01-12'));
      const alone = await whileEngineBusy(async () => {
        const request = retrieve(lonely.id, '?refresh=blocking&client_query_id=client-c');
        await pause(50);
        await t.request(alice.key, { method: 'POST', url: `${base()}cancel/`, payload: { client_query_id: 'client-c' } });
        return request;
      });
      expect(alone.json()).toMatchObject({ code: 'query_cancelled' });
      expect((await retrieve(lonely.id)).json().result).toBeNull();
    });
  });

  describe('an insight list', () => {
    it('answers at once when asked to refresh, calculating the rows in the background', async () => {
      const ids: number[] = [];
      for (let day = 13; day <= 18; day++) ids.push((await create(trends('2024-01-01', `2024-01-${day}`))).id);
      const url = `${base()}?refresh=blocking&limit=100`;
      const listed = await whileEngineBusy(async () => {
        const res = await t.request(alice.key, { method: 'GET', url });
        expect(res.statusCode, res.body).toBe(200);
        return res.json();
      });
      const rows = listed.results.filter((row: { id: number }) => ids.includes(row.id));
      expect(rows).toHaveLength(ids.length);
      for (const row of rows) {
        expect(row.result).toBeNull();
        expect(row.query_status).toMatchObject({ insight_id: row.id, query_async: true });
      }
      await t.services.results.drain();
      // The background filled the cache: the default list now shows every result.
      const after = (await t.request(alice.key, { method: 'GET', url: `${base()}?limit=100` })).json();
      for (const row of after.results.filter((r: { id: number }) => ids.includes(r.id))) {
        expect(row).toMatchObject({ is_cached: true, query_status: null });
        expect(row.result[0].data.slice(0, 3)).toEqual([1, 2, 0]);
      }
    });
  });

  describe('an insight list of one row (how a client loads an insight by short_id)', () => {
    it('calculates as asked, as a retrieve does', async () => {
      const insight = await create(trends('2024-01-01', '2024-01-03'));
      const res = await t.request(alice.key, { method: 'GET', url: `${base()}?short_id=${insight.short_id}&refresh=blocking` });
      expect(res.json().results[0]).toMatchObject({ is_cached: false, query_status: null, result: [{ data: [1, 2, 0] }] });
    });
  });

  describe('background calculations', () => {
    it('run at most two at a time, however many clients ask at once', async () => {
      const ids: number[] = [];
      for (let day = 19; day <= 24; day++) ids.push((await create(trends('2024-01-01', `2024-01-${day}`))).id);
      const events = t.services.events;
      const query = events.query.bind(events);
      let running = 0;
      let most = 0;
      const spy = vi.spyOn(events, 'query').mockImplementation((...args: Parameters<typeof query>) => {
        most = Math.max(most, ++running);
        return query(...args).finally(() => { running--; });
      });
      try {
        const started = await Promise.all(ids.map((id) => retrieve(id, '?refresh=force_async')));
        for (const res of started) expect(res.json().query_status).toMatchObject({ query_async: true });
        await t.services.results.drain();
        expect(spy.mock.calls.length).toBeGreaterThanOrEqual(ids.length);
        expect(most).toBeLessThanOrEqual(2);
      } finally {
        spy.mockRestore();
      }
      for (const id of ids) expect((await retrieve(id)).json().is_cached).toBe(true);
    });
  });
});
