// The query endpoints as a client sees them: /query/ and the legacy trend/funnel endpoints, their
// response shapes, scopes, tenant isolation, error bodies with the offending attr, and hostile input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, trendsQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const PAGEVIEWS = [{ kind: 'EventsNode', event: '$pageview' }];

describe.each(META_STORES)('query endpoints on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let mallory: Credentials;
  const queryUrl = (id: number | string = alice.projectId) => `/api/projects/${id}/query/`;

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com');
    mallory = await t.bootstrap('mallory@example.com');
    await journeys(t, alice, {
      a: [ev('$pageview', '2024-01-01T10:00:00Z'), ev('$pageview', '2024-01-02T10:00:00Z')],
      b: [ev('$pageview', '2024-01-02T11:00:00Z'), ev('signup', '2024-01-02T12:00:00Z')],
    });
    await journeys(t, mallory, { m: [ev('$pageview', '2024-01-01T10:00:00Z')] });
  });
  afterAll(() => t.close());

  it('POST /query/ answers a TrendsQuery with results and the cache fields', async () => {
    const res = await t.request(alice.key, { method: 'POST', url: queryUrl(), payload: { query: trendsQuery(PAGEVIEWS, '2024-01-01', '2024-01-03') } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.results).toHaveLength(1);
    expect(body.results[0]).toMatchObject({ data: [1, 2, 0], days: ['2024-01-01', '2024-01-02', '2024-01-03'], count: 3, label: '$pageview' });
    expect(body).toMatchObject({ is_cached: false, timezone: 'UTC', hasMore: false, error: null });
    expect(Date.parse(body.last_refresh)).not.toBeNaN();
    // PostHog's field holds HogQL text; Hoglet has no HogQL printer and never shows its ClickHouse SQL.
    expect(body.hogql).toBeNull();
    expect(body.resolved_date_range.date_from).toMatch(/^2024-01-01T00:00:00/);
  });

  it('accepts an InsightVizNode and the /api/environments/ path, and @current', async () => {
    const query = { kind: 'InsightVizNode', source: trendsQuery(PAGEVIEWS, '2024-01-01', '2024-01-03') };
    for (const url of [`/api/environments/${alice.projectId}/query/`, '/api/projects/@current/query/']) {
      const res = await t.request(alice.key, { method: 'POST', url, payload: { query } });
      expect(res.statusCode, url).toBe(200);
      expect(res.json().results[0].data).toEqual([1, 2, 0]);
    }
  });

  it('legacy /insights/trend/ takes the filters as a body or in the query string', async () => {
    const filters = { events: [{ id: '$pageview', math: 'dau' }], date_from: '2024-01-01', date_to: '2024-01-03' };
    const post = await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/insights/trend/`, payload: filters });
    expect(post.statusCode).toBe(200);
    expect(post.json()).toMatchObject({ is_cached: false, timezone: 'UTC', next: null });
    expect(post.json().result[0]).toMatchObject({ data: [1, 2, 0], label: '$pageview' });
    const qs = new URLSearchParams({ events: JSON.stringify(filters.events), date_from: '2024-01-01', date_to: '2024-01-03' });
    const get = await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/insights/trend/?${qs}` });
    expect(get.statusCode).toBe(200);
    expect(get.json().result).toEqual(post.json().result);
  });

  it('legacy /insights/funnel/ gives steps whose people URLs list the persons', async () => {
    const res = await t.request(alice.key, {
      method: 'POST',
      url: `/api/projects/${alice.projectId}/insights/funnel/`,
      payload: { events: [{ id: '$pageview', order: 0 }, { id: 'signup', order: 1 }], date_from: '2024-01-01', date_to: '2024-01-03', funnel_window_days: 1 },
    });
    expect(res.statusCode).toBe(200);
    const steps = res.json().result;
    expect(steps.map((s: { count: number }) => s.count)).toEqual([2, 1]);
    expect(steps[0]).toMatchObject({ action_id: '$pageview', name: '$pageview', order: 0, type: 'events', dropped_people_url: null });
    const converted = await t.request(alice.key, { method: 'GET', url: steps[1].converted_people_url });
    expect(converted.statusCode).toBe(200);
    expect(converted.json().results.map((p: { distinct_ids: string[] }) => p.distinct_ids)).toEqual([['b']]);
    const dropped = await t.request(alice.key, { method: 'GET', url: steps[1].dropped_people_url });
    expect(dropped.json().results.map((p: { distinct_ids: string[] }) => p.distinct_ids)).toEqual([['a']]);
    const otherOrg = await t.request(mallory.key, { method: 'GET', url: steps[1].converted_people_url.replace(`/projects/${alice.projectId}/`, `/projects/${alice.projectId}/`) });
    expect(otherOrg.statusCode).toBe(404);
    const badStep = await t.request(alice.key, { method: 'GET', url: steps[1].converted_people_url.replace(/funnel_step=\d+/, 'funnel_step=-1') });
    expect(badStep.json()).toMatchObject({ type: 'validation_error', attr: 'funnel_step' });
  });

  it('needs query:read for /query/ and insight:read for the legacy endpoints', async () => {
    const insightOnly = await t.key(alice.email, ['insight:read']);
    const queryOnly = await t.key(alice.email, ['query:read']);
    const payload = { query: trendsQuery(PAGEVIEWS, '2024-01-01', '2024-01-03') };
    const refused = await t.request(insightOnly, { method: 'POST', url: queryUrl(), payload });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ type: 'authentication_error', code: 'permission_denied', detail: "API key missing required scope 'query:read'", attr: null });
    expect((await t.request(queryOnly, { method: 'POST', url: queryUrl(), payload })).statusCode).toBe(200);
    const legacy = await t.request(queryOnly, { method: 'GET', url: `/api/projects/${alice.projectId}/insights/trend/?events=[]` });
    expect(legacy.statusCode).toBe(403);
    expect(legacy.json().detail).toBe("API key missing required scope 'insight:read'");
  });

  it('POST /insights/cancel/ stops a running query of the project, never another project\'s', async () => {
    // A deliberately slow statement (raw SQL, as no request can ask for sleep) under a client query id.
    const SLOW = { sql: 'SELECT sleepEachRow(0.1) FROM numbers(30) SETTINGS max_block_size = 1', params: {} };
    const cancelUrl = (id: number) => `/api/projects/${id}/insights/cancel/`;
    let settled = false;
    const running = t.services.executor.execute(SLOW, alice.projectId, 'report-7').catch((e: unknown) => e).finally(() => { settled = true; });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Mallory names the same id in her own project: alice's query goes on.
    const theirs = await t.request(mallory.key, { method: 'POST', url: cancelUrl(mallory.projectId), payload: { client_query_id: 'report-7' } });
    expect(theirs.statusCode).toBe(201);
    // And cannot reach alice's project at all.
    expect((await t.request(mallory.key, { method: 'POST', url: cancelUrl(alice.projectId), payload: { client_query_id: 'report-7' } })).statusCode).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    const started = Date.now();
    const res = await t.request(alice.key, { method: 'POST', url: `/api/environments/${alice.projectId}/insights/cancel/`, payload: { client_query_id: 'report-7' } });
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe('');
    expect(await running).toMatchObject({ code: 'query_cancelled' });
    expect(Date.now() - started).toBeLessThan(1_000);
    // Nothing running under that id: still 201.
    expect((await t.request(alice.key, { method: 'POST', url: cancelUrl(alice.projectId), payload: { client_query_id: 'nothing' } })).statusCode).toBe(201);
  });

  it('POST /insights/cancel/ needs client_query_id and insight:read', async () => {
    const url = `/api/projects/${alice.projectId}/insights/cancel/`;
    for (const payload of [{}, { client_query_id: '' }, { client_query_id: null }]) {
      const res = await t.request(alice.key, { method: 'POST', url, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'Field is required.', attr: 'client_query_id' });
    }
    for (const payload of [{ client_query_id: 7 }, { client_query_id: 'x'.repeat(201) }, ['client_query_id']]) {
      const res = await t.request(alice.key, { method: 'POST', url, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().attr).toBe('client_query_id');
    }
    const queryOnly = await t.key(alice.email, ['query:read']);
    const refused = await t.request(queryOnly, { method: 'POST', url, payload: { client_query_id: 'a' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe("API key missing required scope 'insight:read'");
  });

  it('never reaches another organization: 404, and each project counts only its own events', async () => {
    const res = await t.request(mallory.key, { method: 'POST', url: queryUrl(alice.projectId), payload: { query: trendsQuery(PAGEVIEWS, '2024-01-01', '2024-01-03') } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
    const own = await t.request(mallory.key, { method: 'POST', url: queryUrl(mallory.projectId), payload: { query: trendsQuery(PAGEVIEWS, '2024-01-01', '2024-01-03') } });
    expect(own.json().results[0].data).toEqual([1, 0, 0]);
    const narrowed = await t.key(alice.email, ['*'], { teams: [999_999] });
    const scoped = await t.request(narrowed, { method: 'POST', url: queryUrl(), payload: { query: trendsQuery(PAGEVIEWS, '2024-01-01', '2024-01-03') } });
    expect(scoped.statusCode).toBe(403);
  });

  it('names the offending field of an invalid query', async () => {
    const cases: [unknown, string, string][] = [
      [{ kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'x', math: 'bogus' }] }, 'query.series[0].math', 'invalid_choice'],
      [{ kind: 'TrendsQuery', series: PAGEVIEWS, interval: 'fortnight' }, 'query.interval', 'invalid_choice'],
      [{ kind: 'TrendsQuery', series: PAGEVIEWS, dateRange: { date_from: 'banana' } }, 'query.dateRange.date_from', 'invalid_input'],
      [{ kind: 'TrendsQuery', series: [] }, 'query.series', 'min_length'],
      [{ kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'x', properties: [{ key: 'k', value: 'v', operator: 'resembles' }] }] }, 'query.series[0].properties[0].operator', 'invalid_choice'],
      [{ kind: 'TrendsQuery', series: PAGEVIEWS, trendsFilter: { formula: 'A + C' } }, 'query.trendsFilter.formula', 'invalid_input'],
      [{ kind: 'FunnelsQuery', series: [], funnelsFilter: {} }, 'query.series', 'min_length'],
      [{ kind: 'FunnelsQuery', series: PAGEVIEWS, funnelsFilter: { funnelVizType: 'time_to_convert' } }, 'query.series', 'min_length'],
      [{ kind: 'WebGoalsQuery' }, 'query.kind', 'invalid_choice'],
      [{ kind: 'WebOverviewQuery' }, 'query.properties', 'required'],
      [{ kind: 'WebOverviewQuery', properties: [], compare: true }, 'query.compare', 'extra_forbidden'],
      [{ kind: 'HogQLQuery', query: ' ' }, 'query.query', 'blank'],
      [{ kind: 'EventsQuery', select: ['event'], personId: 'not-a-uuid' }, 'query.personId', 'invalid'],
      ['not an object', 'query', 'invalid_input'],
    ];
    for (const [query, attr, code] of cases) {
      const res = await t.request(alice.key, { method: 'POST', url: queryUrl(), payload: { query } });
      expect(res.statusCode, attr).toBe(400);
      expect(res.json(), attr).toMatchObject({ type: 'validation_error', attr, code });
      expect(typeof res.json().detail).toBe('string');
    }
  });

  it('names legacy fields in the legacy endpoints\' errors', async () => {
    const url = `/api/projects/${alice.projectId}/insights/trend/`;
    const cases: [Record<string, unknown>, string][] = [
      [{ events: [{ id: 'x' }], actions: [{ id: 'nope', order: 0 }] }, 'actions[0].id'],
      [{ events: [{ id: 'x', math: 'bogus' }] }, 'events[0].math'],
      [{ events: [{ id: 'x' }], interval: 'fortnight' }, 'interval'],
      [{ events: [{ id: 'x' }], display: 'Hologram' }, 'display'],
      [{ events: [{ id: 'x' }], date_to: 'soon' }, 'date_to'],
    ];
    for (const [filters, attr] of cases) {
      const res = await t.request(alice.key, { method: 'POST', url, payload: filters });
      expect(res.statusCode, attr).toBe(400);
      expect(res.json().attr, JSON.stringify(filters)).toBe(attr);
    }
    const badJson = await t.request(alice.key, { method: 'GET', url: `${url}?events=[{oops` });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toMatchObject({ attr: 'events', code: 'parse_error' });
    const funnelUrl = `/api/projects/${alice.projectId}/insights/funnel/`;
    const window = await t.request(alice.key, { method: 'POST', url: funnelUrl, payload: { events: [{ id: 'a' }, { id: 'b' }], funnel_window_interval_type: 'fortnight' } });
    expect(window.json()).toMatchObject({ attr: 'funnel_window_interval_type', code: 'invalid_choice' });
  });

  it('hostile values in every part of a query never give a 5xx', async () => {
    const hostile: unknown[] = [{}, [], [[[]]], 'x'.repeat(20_000), 1e308, -1, true, null, { $ne: 1 }, "'; drop table events; --", '\u0000', '\ud800', 'a\udc00b', [null], { kind: 'EventsNode' }];
    const base = trendsQuery(PAGEVIEWS, '2024-01-01', '2024-01-03') as Record<string, unknown>;
    const places: ((v: unknown) => unknown)[] = [
      (v) => ({ ...base, series: v }),
      (v) => ({ ...base, series: [v] }),
      (v) => ({ ...base, series: [{ kind: 'EventsNode', event: v }] }),
      (v) => ({ ...base, series: [{ kind: 'EventsNode', event: 'x', math: 'sum', math_property: v }] }),
      (v) => ({ ...base, dateRange: v }),
      (v) => ({ ...base, dateRange: { date_from: v } }),
      (v) => ({ ...base, properties: v }),
      (v) => ({ ...base, properties: [{ key: v, value: v }] }),
      (v) => ({ ...base, properties: [{ key: 'k', value: v, operator: 'between' }] }),
      (v) => ({ ...base, breakdownFilter: { breakdown: v, breakdown_limit: v } }),
      (v) => ({ ...base, compareFilter: { compare: true, compare_to: v } }),
      (v) => ({ ...base, trendsFilter: { display: v, formula: v, smoothingIntervals: v } }),
      (v) => ({ kind: 'FunnelsQuery', series: [PAGEVIEWS[0], PAGEVIEWS[0]], funnelsFilter: { funnelWindowInterval: v, exclusions: v } }),
    ];
    for (const place of places) {
      for (const value of hostile) {
        const res = await t.request(alice.key, { method: 'POST', url: queryUrl(), payload: { query: place(value) } });
        expect(res.statusCode, JSON.stringify(place(value)).slice(0, 120)).toBeLessThan(500);
        if (res.statusCode >= 400) expect(Object.keys(res.json()).sort()).toEqual(['attr', 'code', 'detail', 'type']);
      }
    }
  });
});
