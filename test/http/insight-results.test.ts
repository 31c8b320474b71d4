// An insight's result under PostHog's refresh modes, as a client sees it: the default never
// calculates, blocking serves a fresh cache, force modes recalculate, async modes calculate in the
// background with a status to poll, cancel stops that calculation, and events stored into the
// range make a cached result stale. The cache lives in the metadata store (SQLite and PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementsDuring as countStatements } from '../helpers/statements.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const trends = (from: string, to: string, extra: Record<string, unknown> = {}) => ({
  kind: 'InsightVizNode',
  source: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: from, date_to: to }, ...extra },
});

describe.each(META_STORES)('insight results and refresh modes on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  const base = () => `/api/projects/${alice.projectId}/insights/`;
  let counter = 0;

  /** Statements the event store ran while `work` ran. */
  const statementsDuring = <T>(work: () => Promise<T>) => countStatements(t.services.events, work);
  const create = async (query: unknown, extra: Record<string, unknown> = {}) => {
    const res = await t.request(alice.key, { method: 'POST', url: base(), payload: { name: `insight ${++counter}`, query, ...extra } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const retrieve = async (id: number | string, params = '') => {
    const res = await t.request(alice.key, { method: 'GET', url: `${base()}${id}/${params}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const poll = async (queryId: string) => {
    for (let i = 0; i < 200; i++) {
      const res = await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/query/${encodeURIComponent(queryId)}/` });
      if (res.statusCode !== 202) return res;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the background calculation never finished');
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

  it('force_cache (the default) never calculates: no result until something did', async () => {
    const insight = await create(trends('2024-01-01', '2024-01-03'));
    expect(insight).toMatchObject({ result: null, last_refresh: null, is_cached: false, query_status: null, timezone: 'UTC' });
    const { value, statements } = await statementsDuring(() => retrieve(insight.id));
    expect(statements).toBe(0);
    expect(value).toMatchObject({ result: null, last_refresh: null, is_cached: false });
    const listed = await statementsDuring(() => t.request(alice.key, { method: 'GET', url: `${base()}?refresh=false` }));
    expect(listed.statements).toBe(0);
  });

  it('blocking calculates once, then serves the cache without touching the event store', async () => {
    const insight = await create(trends('2024-01-01', '2024-01-03'));
    const first = await statementsDuring(() => retrieve(insight.id, '?refresh=blocking'));
    expect(first.statements).toBeGreaterThan(0);
    expect(first.value.result[0]).toMatchObject({ data: [1, 2, 0], days: ['2024-01-01', '2024-01-02', '2024-01-03'] });
    expect(first.value).toMatchObject({ is_cached: false, timezone: 'UTC', query_status: null });
    expect(first.value.hogql).toBeNull();
    expect(first.value.resolved_date_range.date_from).toMatch(/^2024-01-01T00:00:00/);
    const refreshed = Date.parse(first.value.last_refresh);
    // A 3-day daily range: clients may ask again after 3 minutes; the day threshold is 6 hours.
    expect(Date.parse(first.value.next_allowed_client_refresh) - refreshed).toBe(3 * 60_000);
    expect(Date.parse(first.value.cache_target_age) - refreshed).toBe(6 * 3_600_000);

    for (const params of ['', '?refresh=blocking', '?refresh=async', '?refresh=lazy_async', '?refresh=false']) {
      const again = await statementsDuring(() => retrieve(insight.id, params));
      expect(again.statements, params).toBe(0);
      expect(again.value, params).toMatchObject({ is_cached: true, last_refresh: first.value.last_refresh, result: first.value.result });
    }
    // The list shows the cached result too, and basic=true never shows one.
    const list = (await t.request(alice.key, { method: 'GET', url: `${base()}?short_id=${insight.short_id}` })).json();
    expect(list.results[0]).toMatchObject({ is_cached: true, result: first.value.result });
    const basic = (await t.request(alice.key, { method: 'GET', url: `${base()}?short_id=${insight.short_id}&basic=true` })).json();
    expect(basic.results[0]).not.toHaveProperty('result');
  });

  it('force_blocking and refresh=true recalculate even when the cache is fresh', async () => {
    const insight = await create(trends('2024-01-01', '2024-01-03'));
    const first = await retrieve(insight.id, '?refresh=blocking');
    for (const params of ['?refresh=force_blocking', '?refresh=true', '?refresh']) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const again = await statementsDuring(() => retrieve(insight.id, params));
      expect(again.statements, params).toBeGreaterThan(0);
      expect(again.value.is_cached, params).toBe(false);
      expect(Date.parse(again.value.last_refresh)).toBeGreaterThan(Date.parse(first.last_refresh));
    }
  });

  it('events stored into the range make the cached result stale; events elsewhere do not', async () => {
    const insight = await create(trends('2024-02-01', '2024-02-03'));
    expect((await retrieve(insight.id, '?refresh=blocking')).result[0].data).toEqual([0, 0, 0]);
    // Outside the range: still fresh.
    await journeys(t, alice, { c: [ev('$pageview', '2024-03-15T10:00:00Z')] });
    const outside = await statementsDuring(() => retrieve(insight.id, '?refresh=blocking'));
    expect(outside.statements).toBe(0);
    expect(outside.value.is_cached).toBe(true);
    // Inside (a late, historical event): blocking recalculates and shows it.
    await journeys(t, alice, { c: [ev('$pageview', '2024-02-02T10:00:00Z')] });
    const inside = await retrieve(insight.id, '?refresh=blocking');
    expect(inside.is_cached).toBe(false);
    expect(inside.result[0].data).toEqual([0, 1, 0]);
    // force_cache shows whatever is cached, which is now the new result.
    expect((await retrieve(insight.id)).result[0].data).toEqual([0, 1, 0]);
  });

  it('insights with the same query share one cache entry; a different timezone does not', async () => {
    const one = await create(trends('2024-01-01', '2024-01-03', { interval: 'day' }));
    await retrieve(one.id, '?refresh=blocking');
    // Same query, keys in another order and defaults spelled out: served from the same entry.
    const two = await create({ source: { dateRange: { date_to: '2024-01-03', date_from: '2024-01-01' }, series: [{ event: '$pageview', kind: 'EventsNode', math: 'total' }], kind: 'TrendsQuery' }, kind: 'InsightVizNode' });
    const shared = await statementsDuring(() => retrieve(two.id, '?refresh=blocking'));
    expect(shared.statements).toBe(0);
    expect(shared.value.is_cached).toBe(true);
    // Changing the project's timezone changes what the same query means.
    await t.request(alice.key, { method: 'PATCH', url: `/api/projects/${alice.projectId}/`, payload: { timezone: 'America/New_York' } });
    try {
      const moved = await statementsDuring(() => retrieve(two.id, '?refresh=blocking'));
      expect(moved.statements).toBeGreaterThan(0);
      expect(moved.value.timezone).toBe('America/New_York');
    } finally {
      await t.request(alice.key, { method: 'PATCH', url: `/api/projects/${alice.projectId}/`, payload: { timezone: 'UTC' } });
    }
  });

  it('async starts a background calculation whose status a client polls until complete', async () => {
    const insight = await create(trends('2024-01-01', '2024-01-04'));
    const started = await retrieve(insight.id, '?refresh=async&client_query_id=poll-me');
    expect(started.result).toBeNull();
    expect(started.query_status).toMatchObject({ id: 'poll-me', team_id: alice.projectId, insight_id: insight.id, query_async: true, error: false });
    const done = await poll('poll-me');
    expect(done.statusCode).toBe(200);
    const status = done.json().query_status;
    expect(status).toMatchObject({ id: 'poll-me', complete: true, error: false, error_message: null });
    expect(status.results.results[0].data).toEqual([1, 2, 0, 0]);
    expect(Date.parse(status.end_time)).toBeGreaterThanOrEqual(Date.parse(status.start_time));
    // The background result was cached: the default now shows it.
    const cached = await retrieve(insight.id);
    expect(cached).toMatchObject({ is_cached: true, query_status: null });
    expect(cached.result[0].data).toEqual([1, 2, 0, 0]);
    // force_async recalculates even so, and shows the status rather than the old result.
    const forced = await retrieve(insight.id, '?refresh=force_async&client_query_id=again');
    expect(forced.query_status).toMatchObject({ id: 'again' });
    expect((await poll('again')).json().query_status.complete).toBe(true);
  });

  it('lazy_async answers with the result when the calculation is quick', async () => {
    const insight = await create(trends('2024-01-01', '2024-01-05'));
    const res = await retrieve(insight.id, '?refresh=lazy_async');
    expect(res).toMatchObject({ is_cached: false, query_status: null });
    expect(res.result[0].data).toEqual([1, 2, 0, 0, 0]);
  });

  it('POST /query/ shares the modes: blocking by default, async answers 202 and a failure is reported', async () => {
    const url = `/api/projects/${alice.projectId}/query/`;
    const query = trends('2024-01-01', '2024-01-06');
    const first = await t.request(alice.key, { method: 'POST', url, payload: { query } });
    expect(first.statusCode).toBe(200);
    expect(first.json().is_cached).toBe(false);
    const second = await t.request(alice.key, { method: 'POST', url, payload: { query } });
    expect(second.json()).toMatchObject({ is_cached: true, results: first.json().results });
    const async = await t.request(alice.key, { method: 'POST', url, payload: { query, refresh: 'force_async', client_query_id: 'q-202' } });
    expect([200, 202]).toContain(async.statusCode);
    expect(async.json().query_status.id).toBe('q-202');
    expect((await poll('q-202')).statusCode).toBe(200);
    // Unknown ids are 404; forgetting one removes it.
    expect((await t.request(alice.key, { method: 'GET', url: `${url}nothing-here/` })).statusCode).toBe(404);
    const forgotten = await t.request(alice.key, { method: 'DELETE', url: `${url}q-202/` });
    expect(forgotten.json()).toEqual({ message: 'Query already complete' });
  });

  it('a background calculation that fails reports error and error_message', async () => {
    // JavaScript accepts `\\Z` (a plain Z) but the engine's RE2 does not: it fails when it runs.
    await journeys(t, alice, { d: [ev('$pageview', '2024-06-01T10:00:00Z', { $browser: 'Chrome' })] });
    const properties = [{ key: '$browser', value: 'a\\Z', operator: 'regex', type: 'event' }];
    const query = { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], properties, dateRange: { date_from: '2024-06-01', date_to: '2024-06-02' } };
    const res = await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/query/`, payload: { query, refresh: 'force_async', client_query_id: 'broken' } });
    expect(res.json().query_status.id).toBe('broken');
    const done = await poll('broken');
    expect(done.statusCode).toBe(400);
    expect(done.json().query_status).toMatchObject({ complete: true, error: true, results: null });
    expect(done.json().query_status.error_message).toMatch(/regular expression/i);
  });

  it('cancel stops a background calculation: it never runs and its status says so', async () => {
    const insight = await create(trends('2024-01-01', '2024-01-07'));
    // The embedded engine runs one statement at a time: a slow statement ahead keeps ours queued.
    const SLOW = { sql: 'SELECT sleepEachRow(0.1) FROM numbers(20) SETTINGS max_block_size = 1', params: {} };
    const blocker = t.services.executor.execute(SLOW, alice.projectId, 'blocker').catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = await retrieve(insight.id, '?refresh=async&client_query_id=stop-me');
    expect(started.query_status).toMatchObject({ id: 'stop-me', complete: false });
    const cancelled = await t.request(alice.key, { method: 'POST', url: `${base()}cancel/`, payload: { client_query_id: 'stop-me' } });
    expect(cancelled.statusCode).toBe(201);
    const done = await poll('stop-me');
    expect(done.json().query_status).toMatchObject({ complete: true, error: true, error_message: 'The query was cancelled.' });
    await t.request(alice.key, { method: 'POST', url: `${base()}cancel/`, payload: { client_query_id: 'blocker' } });
    await blocker;
    // Nothing was cached by the cancelled run.
    expect((await retrieve(insight.id)).result).toBeNull();
  });

  it('legacy filters are calculated too (trends, retention), and kinds not calculated yet keep a null result', async () => {
    const legacy = await create(null, { filters: { insight: 'TRENDS', events: [{ id: '$pageview', math: 'dau' }], date_from: '2024-01-01', date_to: '2024-01-03' } });
    expect(legacy.query).toBeNull();
    expect(legacy.filters).toEqual({ insight: 'TRENDS', events: [{ id: '$pageview', math: 'dau' }], date_from: '2024-01-01', date_to: '2024-01-03' });
    expect((await retrieve(legacy.id, '?refresh=blocking')).result[0].data).toEqual([1, 2, 0]);
    const legacyRetention = await create(null, { filters: { insight: 'RETENTION', target_entity: { id: '$pageview', type: 'events' }, date_to: '2024-01-03', total_intervals: 3 } });
    expect((await retrieve(legacyRetention.id, '?refresh=blocking')).result.map((row: { values: { count: number }[] }) => row.values.map((v) => v.count)))
      .toEqual([[1, 1, 0], [2, 0, 0], [0, 0, 0]]);
    const hogql = await create({ kind: 'DataVisualizationNode', source: { kind: 'HogQLQuery', query: 'select 1' } });
    expect(await retrieve(hogql.id, '?refresh=blocking')).toMatchObject({ result: [[1]], query_status: null });
    const web = await create({ kind: 'DataTableNode', source: { kind: 'WebGoalsQuery' } });
    expect(await retrieve(web.id, '?refresh=blocking')).toMatchObject({ result: null, query_status: null });
  });

  it('refuses a refresh mode it does not know', async () => {
    const insight = await create(trends('2024-01-01', '2024-01-03'));
    const res = await t.request(alice.key, { method: 'GET', url: `${base()}${insight.id}/?refresh=sometimes` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', attr: 'refresh' });
  });
});
