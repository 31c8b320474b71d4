// Trends breakdowns: one item per property value, the null and Other buckets, limits and order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { eventsNode, ev, freshProject, journeys, pageviews, runQuery, trends, trendsQuery } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

const NULL = '$$_posthog_breakdown_null_$$';
const OTHER = '$$_posthog_breakdown_other_$$';
const D1 = '2024-01-01T10:00:00Z';
const D2 = '2024-01-02T10:00:00Z';
const browser = ($browser: unknown) => ($browser === undefined ? {} : { $browser });

let who: Credentials;
beforeAll(async () => {
  who = await freshProject(t);
  await journeys(t, who, {
    alice: [ev('$pageview', D1, { ...browser('Chrome'), $set: { plan: 'pro' } }), ev('$pageview', D1, browser('Chrome')), ev('$pageview', D2, browser('Chrome')), ev('$pageview', D2, browser('Safari'))],
    bob: [ev('$pageview', D1, { ...browser('Chrome'), $set: { plan: 'free' } }), ev('$pageview', D1, browser('Safari')), ev('$pageview', D2, browser('Safari')), ev('$pageview', D2, browser('Firefox'))],
    carol: [ev('$pageview', D1, browser('Firefox')), ev('$pageview', D2, browser('Edge')), ev('$pageview', D1, browser('')), ev('$pageview', D2, browser(undefined)), ev('$pageview', D2, browser(null))],
    dave: [ev('$autocapture', D1, browser('Opera'))],
  });
});

const byBrowser = (breakdownFilter: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, series = [pageviews()]) =>
  trendsQuery(series, '2024-01-01', '2024-01-02', { breakdownFilter: { breakdown: '$browser', breakdown_type: 'event', ...breakdownFilter }, ...extra });
const summary = (results: any[]) => results.map((r) => [r.breakdown_value, r.data]);

describe('event property breakdowns', () => {
  it('one item per value, by total descending; missing, null and "" share the null bucket, which comes last', async () => {
    const response = await runQuery(t, who, byBrowser());
    expect(summary(response.results)).toEqual([
      ['Chrome', [3, 1]],
      ['Safari', [1, 2]],
      ['Firefox', [1, 1]],
      ['Edge', [0, 1]],
      [NULL, [1, 2]],
    ]);
    expect(response.results.map((r: any) => r.label)).toEqual(['Chrome', 'Safari', 'Firefox', 'Edge', NULL]);
    expect(response.hasMore).toBe(false);
    expect(response.results[0].count).toBe(4);
  });

  it('breakdown_limit keeps the top values and sums the rest (null included) into Other, with hasMore', async () => {
    const response = await runQuery(t, who, byBrowser({ breakdown_limit: 2 }));
    expect(summary(response.results)).toEqual([
      ['Chrome', [3, 1]],
      ['Safari', [1, 2]],
      [OTHER, [2, 4]],
    ]);
    expect(response.hasMore).toBe(true);
  });

  it('the null bucket counts towards the limit, after the real values', async () => {
    const response = await runQuery(t, who, byBrowser({ breakdown_limit: 5 }));
    expect(response.results.map((r: any) => r.breakdown_value)).toEqual(['Chrome', 'Safari', 'Firefox', 'Edge', NULL]);
    expect(response.hasMore).toBe(false);
    const four = await runQuery(t, who, byBrowser({ breakdown_limit: 4 }));
    expect(summary(four.results)).toEqual([['Chrome', [3, 1]], ['Safari', [1, 2]], ['Firefox', [1, 1]], ['Edge', [0, 1]], [OTHER, [1, 2]]]);
  });

  it('breakdown_hide_other_aggregation drops the Other item but still says hasMore', async () => {
    const response = await runQuery(t, who, byBrowser({ breakdown_limit: 2, breakdown_hide_other_aggregation: true }));
    expect(response.results.map((r: any) => r.breakdown_value)).toEqual(['Chrome', 'Safari']);
    expect(response.hasMore).toBe(true);
  });

  it('equal totals are ordered by value', async () => {
    const results = await trends(t, who, trendsQuery([pageviews()], '2024-01-02', '2024-01-02', { breakdownFilter: { breakdown: '$browser' } }));
    // on Jan 2: Safari 2, then Chrome/Edge/Firefox 1 each, then null
    expect(results.map((r: any) => r.breakdown_value)).toEqual(['Safari', 'Chrome', 'Edge', 'Firefox', NULL]);
  });

  it('maths apply within each value: dau by browser', async () => {
    const results = await trends(t, who, byBrowser({}, {}, [pageviews('dau')]));
    // Chrome and Safari both total 3 person-days: ordered by value
    expect(summary(results)).toEqual([
      ['Chrome', [2, 1]],
      ['Safari', [1, 2]],
      ['Firefox', [1, 1]],
      ['Edge', [0, 1]],
      [NULL, [1, 1]],
    ]);
  });

  it('with several series, labels are "<series> - <value>" and each series is ranked on its own', async () => {
    const results = await trends(t, who, byBrowser({ breakdown_limit: 1 }, {}, [pageviews(), eventsNode('$autocapture')]));
    expect(results.map((r: any) => [r.label, r.breakdown_value, r.count])).toEqual([
      ['$pageview - Chrome', 'Chrome', 4],
      [`$pageview - ${OTHER}`, OTHER, 9],
      ['$autocapture - Opera', 'Opera', 1],
    ]);
  });

  it('a total-value display breaks the single number down, limit and Other included', async () => {
    const results = await trends(t, who, byBrowser({ breakdown_limit: 3 }, { trendsFilter: { display: 'ActionsPie' } }));
    expect(results.map((r: any) => [r.breakdown_value, r.aggregated_value])).toEqual([
      ['Chrome', 4], ['Safari', 3], ['Firefox', 2], [OTHER, 4],
    ]);
  });

  it('a breakdown on a property nobody has puts everything in the null bucket', async () => {
    const results = await trends(t, who, trendsQuery([pageviews()], '2024-01-01', '2024-01-02', { breakdownFilter: { breakdown: 'nope' } }));
    expect(summary(results)).toEqual([[NULL, [6, 7]]]);
  });

  it('a breakdown with no matching events gives no items', async () => {
    const results = await trends(t, who, trendsQuery([eventsNode('never')], '2024-01-01', '2024-01-02', { breakdownFilter: { breakdown: '$browser' } }));
    expect(results).toEqual([]);
  });
});

describe('values that are not strings', () => {
  it('numbers and booleans break down by their JSON text and filter by it', async () => {
    const story = await freshProject(t);
    await journeys(t, story, {
      alice: [ev('tick', D1, { n: 5, ok: true }), ev('tick', D1, { n: 5, ok: false }), ev('tick', D1, { n: 1.5, ok: true }), ev('tick', D1, { n: { deep: 1 }, ok: [1, 2] })],
    });
    const q = (breakdown: string, properties: unknown[] = []) => trends(t, story, trendsQuery([eventsNode('tick')], '2024-01-01', '2024-01-01', { breakdownFilter: { breakdown }, properties }));
    expect((await q('n')).map((r: any) => [r.breakdown_value, r.count])).toEqual([['5', 2], ['1.5', 1], ['{"deep":1}', 1]]);
    expect((await q('ok')).map((r: any) => [r.breakdown_value, r.count])).toEqual([['true', 2], ['[1,2]', 1], ['false', 1]]);
    expect((await q('n', [{ key: 'ok', value: true }])).map((r: any) => [r.breakdown_value, r.count])).toEqual([['1.5', 1], ['5', 1]]);
    expect((await q('n', [{ key: 'ok', value: ['true'] }, { key: 'n', value: 5 }])).map((r: any) => [r.breakdown_value, r.count])).toEqual([['5', 1]]);
  });
});

describe('several series over the same events (read in one scan)', () => {
  it('each series keeps its own breakdown ranking, limit and Other bucket', async () => {
    const story = await freshProject(t);
    const tick = (plan: string, at = D1) => ev('tick', at, { plan });
    await journeys(t, story, {
      heavy: [tick('x'), tick('x'), tick('x'), tick('x'), tick('x', D2)],
      u1: [tick('y')], u2: [tick('y')], u3: [tick('y', D2)],
      other: [ev('tock', D1, { plan: 'x' })],
    });
    const query = trendsQuery(
      [eventsNode('tick'), eventsNode('tick', { math: 'dau' }), eventsNode('tick', { properties: [{ key: 'plan', value: 'y', operator: 'exact', type: 'event' }] }), eventsNode('tock')],
      '2024-01-01', '2024-01-02', { breakdownFilter: { breakdown: 'plan', breakdown_limit: 1 } },
    );
    const response = await runQuery(t, story, query);
    const bySeries = response.results.map((r: any) => [r.action.order, r.breakdown_value, r.data]);
    expect(bySeries).toEqual([
      [0, 'x', [4, 1]], [0, OTHER, [2, 1]], // total: x has more events
      [1, 'y', [2, 1]], [1, OTHER, [1, 1]], // dau: y has more people
      [2, 'y', [2, 1]], // the filtered series is its own statement
      [3, 'x', [1, 0]],
    ]);
    expect(response.hasMore).toBe(true);
  });
});

describe('person property breakdowns', () => {
  it('groups events by their person\'s property; people without it are in the null bucket', async () => {
    const results = await trends(t, who, trendsQuery([pageviews()], '2024-01-01', '2024-01-02', { breakdownFilter: { breakdown: 'plan', breakdown_type: 'person' } }));
    expect(summary(results)).toEqual([
      ['free', [2, 2]],
      ['pro', [2, 2]],
      [NULL, [2, 3]],
    ]);
  });

  it('dau by a person property counts people', async () => {
    const results = await trends(t, who, trendsQuery([pageviews('dau')], '2024-01-01', '2024-01-02', { breakdownFilter: { breakdown: 'plan', breakdown_type: 'person' } }));
    expect(summary(results)).toEqual([['free', [1, 1]], ['pro', [1, 1]], [NULL, [1, 1]]]);
  });

  it('an unknown breakdown type is a 400 naming it', async () => {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: byBrowser({ breakdown_type: 'planet' }) } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ type: 'validation_error', code: 'invalid_choice', detail: expect.any(String), attr: 'query.breakdownFilter.breakdown_type' });
  });

  it('breakdown fields Hoglet does not implement are refused, never ignored', async () => {
    const cases: [Record<string, unknown>, string][] = [
      // Several breakdowns, with or without the single one beside them.
      [{ breakdown: undefined, breakdowns: [{ property: '$browser', type: 'event' }] }, 'query.breakdownFilter.breakdowns'],
      [{ breakdowns: [{ property: '$os', type: 'event' }] }, 'query.breakdownFilter.breakdowns'],
      [{ breakdown_normalize_url: true }, 'query.breakdownFilter.breakdown_normalize_url'],
    ];
    for (const [filter, attr] of cases) {
      const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: byBrowser(filter) } });
      expect(res.statusCode, attr).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error', attr });
    }
  });
});
