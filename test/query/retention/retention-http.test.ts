// Retention as a client meets it: /query/ and the legacy /insights/retention/ (body and query
// string), PostHog's validation answers, the actors of a cohort, saved insights with the results
// cache, dashboards, CSV and sharing, and persons merged by posthog-node's identify.
import type { AddressInfo } from 'node:net';
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery } from '../../helpers/journeys.js';

const PAGEVIEW = { id: '$pageview', type: 'events' };
const retention = (filter: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  kind: 'RetentionQuery',
  dateRange: { date_to: '2024-03-06' },
  retentionFilter: { period: 'Day', totalIntervals: 6, targetEntity: PAGEVIEW, returningEntity: PAGEVIEW, ...filter },
  ...extra,
});
const matrix = (rows: { values: { count: number }[] }[]) => rows.map((row) => row.values.map((v) => v.count));

/** By hand: alice active on days 0, 1, 3; bob on 1, 2; carol on 2, 5 (days from 2024-03-01). */
const EXPECTED = [
  [1, 1, 0, 1, 0, 0],
  [2, 1, 1, 0, 0, 0],
  [2, 0, 0, 1, 0, 0],
  [1, 0, 0, 0, 0, 0],
  [0, 0, 0, 0, 0, 0],
  [1, 0, 0, 0, 0, 0],
];

let t: TestApp;
let who: Credentials;
const api = () => `/api/projects/${who.projectId}`;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('retention-http@example.com');
  await journeys(t, who, {
    alice: [
      ev('$pageview', '2024-03-01T09:00:00Z', { $set: { plan: 'pro' } }),
      ev('$pageview', '2024-03-02T09:00:00Z'),
      ev('purchase', '2024-03-02T10:00:00Z', { category: 'books' }),
      ev('$pageview', '2024-03-04T23:59:00Z'),
    ],
    bob: [ev('$pageview', '2024-03-02T08:00:00Z', { $set: { plan: 'free' } }), ev('$pageview', '2024-03-03T08:00:00Z'), ev('purchase', '2024-03-05T08:00:00Z', { category: 'music' })],
    carol: [ev('signed_up', '2024-03-03T07:00:00Z'), ev('$pageview', '2024-03-03T07:30:00Z'), ev('$pageview', '2024-03-06T07:30:00Z')],
  });
});
afterAll(() => t.close());

describe('retention through /query/', () => {
  it("answers PostHog's rows: a label per cohort, its date, one count per offset", async () => {
    const rows = (await runQuery(t, who, retention())).results;
    expect(matrix(rows)).toEqual(EXPECTED);
    expect(rows[0]).toEqual({
      label: 'Day 0',
      date: '2024-03-01T00:00:00Z',
      breakdown_value: null,
      values: ['Day 0', 'Day 1', 'Day 2', 'Day 3', 'Day 4', 'Day 5'].map((label, k) => ({ label, count: EXPECTED[0]![k] })),
    });
    expect(rows.map((r: { date: string }) => r.date.slice(0, 10))).toEqual(['2024-03-01', '2024-03-02', '2024-03-03', '2024-03-04', '2024-03-05', '2024-03-06']);
    // The same inside an InsightVizNode, as saved insights hold it.
    expect(matrix((await runQuery(t, who, { kind: 'InsightVizNode', source: retention() })).results)).toEqual(EXPECTED);
  });

  it('breaks down by a person property, values ranked by cohort size then name', async () => {
    const rows = (await runQuery(t, who, retention({}, { breakdownFilter: { breakdown: 'plan', breakdown_type: 'person' } }))).results;
    expect([...new Set(rows.map((r: { breakdown_value: string }) => r.breakdown_value))]).toEqual(['pro', '', 'free']);
    const of = (value: string) => matrix(rows.filter((r: { breakdown_value: string }) => r.breakdown_value === value));
    expect(of('pro')).toEqual([[1, 1, 0, 1, 0, 0], [1, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]);
    expect(of('')[2]).toEqual([1, 0, 0, 1, 0, 0]);
  });

  it('counts returns of another event from a start event, and cumulative retention', async () => {
    const toPurchase = (await runQuery(t, who, retention({ returningEntity: { id: 'purchase', type: 'events' } }))).results;
    // alice purchased on day 1 (offset 1 from day 0, nothing after day 1); bob purchased on day 4.
    expect(matrix(toPurchase).slice(0, 3)).toEqual([[1, 1, 0, 0, 0, 0], [2, 0, 0, 1, 0, 0], [2, 0, 1, 0, 0, 0]]);
    const cumulative = (await runQuery(t, who, retention({ cumulative: true }))).results;
    expect(matrix(cumulative)[0]).toEqual([1, 1, 1, 1, 0, 0]);
    expect(matrix(cumulative)[1]).toEqual([2, 2, 1, 0, 0, 0]);
  });

  it('refuses what it cannot answer with a 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [retention({ period: 'Fortnight' }), 'query.retentionFilter.period'],
      [retention({ totalIntervals: -1 }), 'query.retentionFilter.totalIntervals'],
      [retention({ totalIntervals: 'many' }), 'query.retentionFilter.totalIntervals'],
      [retention({ targetEntity: { id: 1, type: 'cohorts' } }), 'query.retentionFilter.targetEntity.type'],
      [retention({ targetEntity: { type: 'actions' } }), 'query.retentionFilter.targetEntity.id'],
      [retention({ returningEntity: { id: 987654, type: 'actions' } }), 'retentionFilter.returningEntity.id'],
      [retention({ retentionType: 'sometimes' }), 'query.retentionFilter.retentionType'],
      [retention({ minimumOccurrences: 0 }), 'query.retentionFilter.minimumOccurrences'],
      [retention({ timeWindowMode: '24_hour_windows' }), 'query.retentionFilter.timeWindowMode'],
      [retention({}, { dateRange: { date_to: 'not a date' } }), 'query.dateRange.date_to'],
      [retention({ period: 'Hour', totalIntervals: 1000 }, { dateRange: { date_from: '2000-01-01', date_to: '2024-01-01' } }), 'dateRange.date_from'],
    ];
    for (const [query, attr] of cases) {
      const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query } });
      expect(res.statusCode, `${attr}: ${res.body}`).toBe(400);
      expect(res.json(), attr).toMatchObject({ type: 'validation_error', attr });
    }
  });
});

describe('deeply wrapped queries', () => {
  it('unwraps InsightVizNodes nested deeper than the call stack instead of failing with a 500', async () => {
    const depth = 20_000;
    // Written as text: serialising such an object would overflow this test's own stack.
    const body = `{"query":${'{"kind":"InsightVizNode","source":'.repeat(depth)}${JSON.stringify(retention())}${'}'.repeat(depth)}}`;
    const res = await t.app.inject({ method: 'POST', url: `${api()}/query/`, payload: body, headers: { authorization: `Bearer ${who.key}`, 'content-type': 'application/json' } });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(matrix(res.json().results)).toEqual(EXPECTED);
  });
});

describe('the legacy /insights/retention/ endpoint', () => {
  it('takes the legacy filter in the query string and in the body', async () => {
    const params = new URLSearchParams({ target_entity: JSON.stringify(PAGEVIEW), period: 'Day', total_intervals: '6', date_to: '2024-03-06' });
    const viaGet = await t.request(who.key, { method: 'GET', url: `${api()}/insights/retention/?${params}` });
    expect(viaGet.statusCode, viaGet.body).toBe(200);
    expect(matrix(viaGet.json().result)).toEqual(EXPECTED);
    expect(viaGet.json()).toMatchObject({ timezone: 'UTC', is_cached: false });
    const viaPost = await t.request(who.key, { method: 'POST', url: `${api()}/insights/retention/`, payload: { target_entity: PAGEVIEW, period: 'day', total_intervals: 6, date_to: '2024-03-06' } });
    expect(matrix(viaPost.json().result)).toEqual(EXPECTED);
  });

  it("keeps the legacy defaults: 11 intervals, date_from ignored, returning entity = target entity", async () => {
    const res = await t.request(who.key, { method: 'POST', url: `${api()}/insights/retention/`, payload: { target_entity: { id: 'purchase', type: 'events' }, date_to: '2024-03-06', date_from: '2024-03-05' } });
    const rows = res.json().result;
    expect(rows).toHaveLength(11);
    expect(rows[0].date).toBe('2024-02-25T00:00:00Z');
    expect(rows[0].values).toHaveLength(11);
    // Purchases return to purchases: alice (day 1) and bob (day 4) never bought again.
    expect(matrix(rows).map((r) => r[0])).toEqual([0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0]);
    expect(matrix(rows).flatMap((r) => r.slice(1)).every((c) => c === 0)).toBe(true);
  });

  it('names legacy fields in its 400s', async () => {
    const res = await t.request(who.key, { method: 'POST', url: `${api()}/insights/retention/`, payload: { target_entity: PAGEVIEW, period: 'Fortnight' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', attr: 'period' });
    const negative = await t.request(who.key, { method: 'GET', url: `${api()}/insights/retention/?total_intervals=-3` });
    expect(negative.json()).toMatchObject({ attr: 'total_intervals' });
  });
});

describe('the actors of a cohort', () => {
  const actorsOf = async (query: unknown) => {
    const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const byDistinctId = (results: [{ distinct_ids: string[] }, number[]][]) =>
    Object.fromEntries(results.map(([person, appearances]) => [person.distinct_ids.join(','), appearances]));

  it('lists who started in cohort i and the offsets they came back at', async () => {
    const answer = await actorsOf({ kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source: retention(), interval: 1 }, select: ['person', 'appearances'] });
    expect(answer.columns).toEqual(['person', 'appearances']);
    expect(byDistinctId(answer.results)).toEqual({ alice: [0, 2], bob: [0, 1] });
    expect(answer.results[0][0]).toMatchObject({ properties: expect.any(Object), created_at: expect.any(String), id: expect.any(String) });
    expect(answer).toMatchObject({ hasMore: false, limit: 100, offset: 0 });
    // Alone, an InsightActorsQuery answers the same; paged, one at a time.
    const bare = await actorsOf({ kind: 'InsightActorsQuery', source: retention(), interval: 2 });
    expect(byDistinctId(bare.results)).toEqual({ bob: [0], carol: [0, 3] });
    const page = await actorsOf({ kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source: retention(), interval: 2 }, limit: 1 });
    expect(page.results).toHaveLength(1);
    expect(page.hasMore).toBe(true);
  });

  it('narrows to one breakdown value, and refuses a cohort or column that does not exist', async () => {
    const query = retention({}, { breakdownFilter: { breakdown: 'plan', breakdown_type: 'person' } });
    const pro = await actorsOf({ kind: 'InsightActorsQuery', source: query, interval: 1, breakdown: 'pro' });
    expect(byDistinctId(pro.results)).toEqual({ alice: [0, 2] });
    // With one value shown, Other holds the rest ('' and free): in cohort 1 that is bob.
    const limited = retention({}, { breakdownFilter: { breakdown: 'plan', breakdown_type: 'person', breakdown_limit: 1 } });
    const other = await actorsOf({ kind: 'InsightActorsQuery', source: limited, interval: 1, breakdown: '$$_posthog_breakdown_other_$$' });
    expect(byDistinctId(other.results)).toEqual({ bob: [0, 1] });
    for (const [body, attr] of [
      [{ kind: 'InsightActorsQuery', source: retention(), interval: 6 }, 'interval'],
      [{ kind: 'InsightActorsQuery', source: retention() }, 'interval'],
      [{ kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source: retention(), interval: 0 }, select: ['person', 'email'] }, 'query.select[1]'],
      [{ kind: 'ActorsQuery', source: { kind: 'PersonsNode' } }, 'query.source.kind'],
    ] as const) {
      const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query: body } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error', attr });
    }
  });
});

describe('saved retention insights', () => {
  const insightUrl = (id: number) => `${api()}/insights/${id}/`;
  const create = async (payload: Record<string, unknown>) => {
    const res = await t.request(who.key, { method: 'POST', url: `${api()}/insights/`, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const get = async (url: string) => {
    const res = await t.request(who.key, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('calculate, cache, go stale when events arrive in range, and export as CSV', async () => {
    // A date_to of its own (the same day) so no earlier /query/ shares its cache key.
    const insight = await create({ name: 'Daily retention', query: { kind: 'InsightVizNode', source: retention({}, { dateRange: { date_to: '2024-03-06T12:00:00' } }) } });
    expect((await get(insightUrl(insight.id))).json()).toMatchObject({ result: null, is_cached: false });
    const calculated = (await get(`${insightUrl(insight.id)}?refresh=blocking`)).json();
    expect(matrix(calculated.result)).toEqual(EXPECTED);
    expect((await get(insightUrl(insight.id))).json()).toMatchObject({ is_cached: true, last_refresh: calculated.last_refresh });

    const csv = (await get(`${insightUrl(insight.id)}results.csv`)).body.split('\r\n');
    expect(csv.slice(0, 3)).toEqual(['Daily retention', 'cohort,date,Day 0,Day 1,Day 2,Day 3,Day 4,Day 5', 'Day 0,2024-03-01T00:00:00Z,1,1,0,1,0,0']);

    // dave's first visit lands in cohort 4, which was empty: the cached result is stale.
    await journeys(t, who, { dave: [ev('$pageview', '2024-03-05T12:00:00Z')] });
    const recalculated = (await get(`${insightUrl(insight.id)}?refresh=blocking`)).json();
    expect(matrix(recalculated.result)[4]).toEqual([1, 0, 0, 0, 0, 0]);
    expect(recalculated.is_cached).toBe(false);
  });

  it('legacy RETENTION filters calculate; a dashboard date range and sharing apply', async () => {
    const insight = await create({ name: 'Legacy retention', filters: { insight: 'RETENTION', target_entity: PAGEVIEW, total_intervals: 6, date_to: '2024-03-06', period: 'Day' } });
    expect(matrix((await get(`${insightUrl(insight.id)}?refresh=blocking`)).json().result).slice(0, 4)).toEqual(EXPECTED.slice(0, 4));

    const dashboard = await t.request(who.key, { method: 'POST', url: `${api()}/dashboards/`, payload: { name: 'Retention board', filters: { date_from: '2024-03-04', date_to: '2024-03-06' } } });
    await t.request(who.key, { method: 'PATCH', url: insightUrl(insight.id), payload: { dashboards: [dashboard.json().id] } });
    const viaDashboard = (await get(`${insightUrl(insight.id)}?from_dashboard=${dashboard.json().id}&refresh=blocking`)).json();
    expect(viaDashboard.result.map((r: { date: string }) => r.date)).toEqual(['2024-03-04T00:00:00Z', '2024-03-05T00:00:00Z', '2024-03-06T00:00:00Z']);
    expect(viaDashboard.result[0].values).toHaveLength(6);

    const sharing = await t.request(who.key, { method: 'PATCH', url: `${insightUrl(insight.id)}sharing/`, payload: { enabled: true } });
    const token = sharing.json().access_token as string;
    const shared = await t.request(null, { method: 'GET', url: `${insightUrl(insight.id)}?sharing_access_token=${encodeURIComponent(token)}` });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(matrix(shared.json().result)[0]).toEqual(EXPECTED[0]);
  });
});

describe('retention over persons merged by posthog-node', () => {
  it('an anonymous visit and the identified return are one person coming back', async () => {
    const owner = await t.bootstrap('retention-sdk@example.com');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const host = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const client = new PostHog(owner.projectApiToken, { host, flushAt: 50, flushInterval: 0, fetchRetryCount: 0 });
    client.capture({ distinctId: 'anon-1', event: '$pageview', timestamp: new Date('2024-03-01T10:00:00Z') });
    client.identify({ distinctId: 'user-1', properties: { $anon_distinct_id: 'anon-1' } });
    client.capture({ distinctId: 'user-1', event: '$pageview', timestamp: new Date('2024-03-03T10:00:00Z') });
    client.capture({ distinctId: 'anon-2', event: '$pageview', timestamp: new Date('2024-03-03T11:00:00Z') });
    await client.shutdown();
    const rows = (await runQuery(t, owner, retention({ totalIntervals: 3 }, { dateRange: { date_to: '2024-03-03' } }))).results;
    expect(matrix(rows)).toEqual([[1, 0, 1], [0, 0, 0], [2, 0, 0]]);
  });
});
