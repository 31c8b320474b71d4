// Stickiness as a client meets it: /query/, the legacy /insights/trend/ with shown_as
// "Stickiness", saved insights with `insight: "STICKINESS"`, the actors behind a bar, groups,
// compare and the refusals, over events captured through /batch/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery } from '../../helpers/journeys.js';

const PAGEVIEW = { kind: 'EventsNode', event: '$pageview' };
const WEEK = { date_from: '2024-01-01', date_to: '2024-01-07' };
const stickiness = (series: unknown[] = [PAGEVIEW], extra: Record<string, unknown> = {}) => ({ kind: 'StickinessQuery', series, dateRange: WEEK, ...extra });
const acme = { $groups: { company: 'acme' } };

let t: TestApp;
let who: Credentials;
const api = () => `/api/projects/${who.projectId}`;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('stickiness-http@example.com');
  // By hand, 2024-01-01..07: ann active 3 days, bob 1 (twice that day), cat 2 (the 5th and the 7th).
  await journeys(t, who, {
    ann: [ev('$pageview', '2024-01-01T09:00:00Z', acme), ev('$pageview', '2024-01-02T09:00:00Z', acme), ev('signed_up', '2024-01-02T09:30:00Z'), ev('$pageview', '2024-01-03T23:59:59Z')],
    bob: [ev('$pageview', '2024-01-02T08:00:00Z', acme), ev('$pageview', '2024-01-02T18:00:00Z')],
    cat: [ev('$pageview', '2024-01-05T12:00:00Z', { $groups: { company: 'beta' } }), ev('$pageview', '2024-01-07T12:00:00Z')],
    dan: [ev('$pageview', '2023-12-29T12:00:00Z'), ev('$pageview', '2023-12-30T12:00:00Z')],
  });
});
afterAll(() => t.close());

const data = (items: { data: number[] }[]) => items.map((item) => item.data);

describe('stickiness through /query/', () => {
  it("answers PostHog's items: actors by number of active days, per series", async () => {
    const { results } = await runQuery(t, who, stickiness([PAGEVIEW, { kind: 'EventsNode', event: 'signed_up' }]));
    expect(results[0]).toEqual({
      count: 3,
      data: [1, 1, 1, 0, 0, 0, 0],
      days: [1, 2, 3, 4, 5, 6, 7],
      label: '$pageview',
      labels: ['1 day', '2 days', '3 days', '4 days', '5 days', '6 days', '7 days'],
      action: { order: 0, type: 'events', name: '$pageview', id: '$pageview', custom_name: null },
    });
    expect(results[1]).toMatchObject({ count: 1, data: [1, 0, 0, 0, 0, 0, 0], label: 'signed_up', action: { order: 1 } });
  });

  it('cumulative, intervals in groups back from date_to, criteria on events per interval, weeks', async () => {
    const cumulative = (await runQuery(t, who, stickiness([PAGEVIEW], { stickinessFilter: { computedAs: 'cumulative' } }))).results[0];
    expect(cumulative).toMatchObject({ count: 3, data: [3, 2, 1, 0, 0, 0, 0] });
    expect(cumulative.labels.slice(0, 2)).toEqual(['1 day or more', '2 days or more']);
    // Groups of two days back from the 7th: {6,7} {4,5} {2,3} {1}: ann in two groups, cat in two, bob in one.
    const paired = (await runQuery(t, who, stickiness([PAGEVIEW], { intervalCount: 2 }))).results[0];
    expect(paired).toMatchObject({ data: [1, 2, 0, 0], days: [1, 2, 3, 4] });
    // Only bob had two page views in one day.
    const twice = (await runQuery(t, who, stickiness([PAGEVIEW], { stickinessFilter: { stickinessCriteria: { operator: 'gte', value: 2 } } }))).results[0];
    expect(twice).toMatchObject({ count: 1, data: [1, 0, 0, 0, 0, 0, 0] });
    const exactlyOne = (await runQuery(t, who, stickiness([PAGEVIEW], { stickinessFilter: { stickinessCriteria: { operator: 'exact', value: 1 } } }))).results[0];
    expect(exactlyOne.data.slice(0, 3)).toEqual([0, 1, 1]);
    const weeks = (await runQuery(t, who, stickiness([PAGEVIEW], { interval: 'week', dateRange: { date_from: '2024-01-01', date_to: '2024-01-20' } }))).results[0];
    expect(weeks).toMatchObject({ data: [2, 1, 0], labels: ['1 week', '2 weeks', '3 weeks'] });
  });

  it('counts intervalCount groups as whole intervals back from date_to, as PostHog (age)', async () => {
    // 20 January and 1 February are both less than a whole month before 15 February 23:59: one group.
    const who2 = await t.bootstrap('stickiness-months@example.com');
    await journeys(t, who2, { eve: [ev('$pageview', '2020-01-20T12:00:00Z'), ev('$pageview', '2020-02-01T12:00:00Z')] });
    const months = (await runQuery(t, who2, stickiness([PAGEVIEW], { interval: 'month', intervalCount: 1, dateRange: { date_from: '2020-01-01', date_to: '2020-02-15' } }))).results[0];
    expect(months).toMatchObject({ data: [1, 0], labels: ['1 month', '2 months'] });
  });

  it('compares with the previous period, current first', async () => {
    const { results } = await runQuery(t, who, stickiness([PAGEVIEW], { compareFilter: { compare: true } }));
    expect(results.map((r: { compare_label: string }) => r.compare_label)).toEqual(['current', 'previous']);
    expect(data(results)).toEqual([[1, 1, 1, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0]]);
    expect(results[1]).toMatchObject({ compare: true, count: 1 });
  });

  it('counts groups with unique_group, and leaves out a series of an action that does not exist', async () => {
    const groups = (await runQuery(t, who, stickiness([{ ...PAGEVIEW, math: 'unique_group', math_group_type_index: 0 }]))).results[0];
    expect(groups).toMatchObject({ count: 2, data: [1, 1, 0, 0, 0, 0, 0] });
    const { results } = await runQuery(t, who, stickiness([PAGEVIEW, { kind: 'ActionsNode', id: 424242 }]));
    expect(results).toHaveLength(1);
  });

  it('refuses what it cannot answer with a 400 naming the field', async () => {
    for (const [query, attr] of [
      [stickiness([PAGEVIEW], { intervalCount: 0 }), 'query.intervalCount'],
      [stickiness([PAGEVIEW], { interval: 'week', intervalCount: 2 }), 'query.intervalCount'],
      [stickiness([PAGEVIEW], { interval: 'fortnight' }), 'query.interval'],
      [stickiness([PAGEVIEW], { stickinessFilter: { stickinessCriteria: { operator: 'most', value: 1 } } }), 'query.stickinessFilter.stickinessCriteria.operator'],
      [stickiness([PAGEVIEW], { stickinessFilter: { stickinessCriteria: { operator: 'gte' } } }), 'query.stickinessFilter.stickinessCriteria.value'],
      [stickiness([PAGEVIEW], { stickinessFilter: { computedAs: 'sometimes' } }), 'query.stickinessFilter.computedAs'],
      [stickiness([{ ...PAGEVIEW, math: 'unique_group' }]), 'query.series[0].math_group_type_index'],
      [stickiness([]), 'query.series'],
    ] as const) {
      const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query } });
      expect(res.statusCode, `${attr}: ${res.body}`).toBe(400);
      expect(res.json(), attr).toMatchObject({ type: 'validation_error', attr });
    }
  });
});

describe('the actors behind a bar', () => {
  const actors = async (target: Record<string, unknown>, query: unknown = stickiness()) => {
    const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query: { kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source: query, ...target } } } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results.map(([person]: [{ distinct_ids: string[] }]) => person.distinct_ids.join(','));
  };

  it('lists the actors active in exactly that many intervals, per series and period', async () => {
    expect(await actors({ day: 3 })).toEqual(['ann']);
    expect(await actors({ day: 2 })).toEqual(['cat']);
    expect(await actors({ day: 1, series: 1 }, stickiness([PAGEVIEW, { kind: 'EventsNode', event: 'signed_up' }]))).toEqual(['ann']);
    expect(await actors({ day: 2, compare: 'previous' }, stickiness([PAGEVIEW], { compareFilter: { compare: true } }))).toEqual(['dan']);
    // Cumulative: at least that many.
    expect((await actors({ day: 2 }, stickiness([PAGEVIEW], { stickinessFilter: { computedAs: 'cumulative' } }))).sort()).toEqual(['ann', 'cat']);
  });
});

describe('legacy stickiness', () => {
  it('/insights/trend/ with shown_as "Stickiness", in the body and in the query string', async () => {
    const body = { shown_as: 'Stickiness', events: [{ id: '$pageview', type: 'events', order: 0 }], date_from: '2024-01-01', date_to: '2024-01-07' };
    const viaPost = await t.request(who.key, { method: 'POST', url: `${api()}/insights/trend/`, payload: body });
    expect(viaPost.statusCode, viaPost.body).toBe(200);
    expect(data(viaPost.json().result)).toEqual([[1, 1, 1, 0, 0, 0, 0]]);
    const params = new URLSearchParams({ shown_as: 'Stickiness', events: JSON.stringify(body.events), date_from: body.date_from, date_to: body.date_to, interval: 'day' });
    const viaGet = await t.request(who.key, { method: 'GET', url: `${api()}/insights/trend/?${params}` });
    expect(data(viaGet.json().result)).toEqual([[1, 1, 1, 0, 0, 0, 0]]);
  });

  it('a saved insight with insight STICKINESS calculates, caches and exports', async () => {
    const created = await t.request(who.key, { method: 'POST', url: `${api()}/insights/`, payload: { name: 'Sticky', filters: { insight: 'STICKINESS', events: [{ id: '$pageview' }], date_from: '2024-01-01', date_to: '2024-01-07' } } });
    expect(created.statusCode, created.body).toBe(201);
    const url = `${api()}/insights/${created.json().id}/`;
    const calculated = await t.request(who.key, { method: 'GET', url: `${url}?refresh=blocking` });
    expect(data(calculated.json().result)).toEqual([[1, 1, 1, 0, 0, 0, 0]]);
    expect((await t.request(who.key, { method: 'GET', url })).json()).toMatchObject({ is_cached: true });
    const csv = (await t.request(who.key, { method: 'GET', url: `${url}results.csv` })).body.split('\r\n');
    expect(csv.slice(0, 3)).toEqual(['Sticky', 'series,1 day,2 days,3 days,4 days,5 days,6 days,7 days', '$pageview,1,1,1,0,0,0,0']);
  });
});
