// HogQL inside insights: math "hogql" with math_hogql, breakdown_type "hogql" (trends and funnels),
// property filters of type "hogql" (every kind), through the same translator as HogQLQuery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery, trendsQuery } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
const FROM = '2024-01-01';
const TO = '2024-01-03';

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('hogql-insights@example.com');
  await journeys(t, who, {
    ann: [
      ev('purchase', '2024-01-01T10:00:00Z', { price: 10, $browser: 'Chrome', $set: { plan: 'pro' } }),
      ev('purchase', '2024-01-02T10:00:00Z', { price: 25.5, $browser: 'Chrome' }),
      ev('signup', '2024-01-01T09:00:00Z'),
    ],
    bob: [ev('purchase', '2024-01-02T11:00:00Z', { price: 4, $browser: 'Firefox', $set: { plan: 'free' } }), ev('signup', '2024-01-02T10:00:00Z')],
  });
});
afterAll(() => t.close());

const PURCHASE = { kind: 'EventsNode', event: 'purchase' };

describe('trends', () => {
  it('math hogql: the series value is the expression per bucket', async () => {
    const { results } = await runQuery(t, who, trendsQuery([{ ...PURCHASE, math: 'hogql', math_hogql: 'sum(toFloat(properties.price))' }], FROM, TO));
    expect(results[0].data).toEqual([10, 29.5, 0]);
    expect(results[0].action).toMatchObject({ math: 'hogql' });
  });

  it('breakdown_type hogql groups by the expression', async () => {
    const { results } = await runQuery(t, who, trendsQuery([PURCHASE], FROM, TO, { breakdownFilter: { breakdown_type: 'hogql', breakdown: "concat(properties.$browser, '-', person.properties.plan)" } }));
    const byValue = Object.fromEntries(results.map((r: { breakdown_value: string; count: number }) => [r.breakdown_value, r.count]));
    expect(byValue).toEqual({ 'Chrome-pro': 2, 'Firefox-free': 1 });
  });

  it('a hogql property filter is its own condition', async () => {
    const { results } = await runQuery(t, who, trendsQuery([PURCHASE], FROM, TO, { properties: [{ type: 'hogql', key: 'toFloat(properties.price) > 5' }] }));
    expect(results[0].data).toEqual([1, 1, 0]);
    const persons = await runQuery(t, who, trendsQuery([{ ...PURCHASE, properties: [{ type: 'hogql', key: "person.properties.plan = 'free'" }] }], FROM, TO));
    expect(persons.results[0].data).toEqual([0, 1, 0]);
  });

  it('a bad expression is a 400 naming the problem, never a 500', async () => {
    for (const [math_hogql, code] of [['sum(', 'hogql_syntax_error'], ['frobnicate(event)', 'hogql_query_error'], ['sum(event)', 'illegal_type_of_argument'], ['count() from events', 'hogql_syntax_error']] as const) {
      const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: trendsQuery([{ ...PURCHASE, math: 'hogql', math_hogql }], FROM, TO) } });
      expect(res.statusCode, math_hogql).toBe(400);
      expect(res.json().code, math_hogql).toBe(code);
    }
    const missing = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: trendsQuery([{ ...PURCHASE, math: 'hogql' }], FROM, TO) } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().attr).toBe('query.series[0].math_hogql');
  });
});

describe('funnels and other kinds', () => {
  it('funnels break down by a hogql expression and filter with hogql', async () => {
    const funnel = {
      kind: 'FunnelsQuery',
      series: [{ kind: 'EventsNode', event: 'signup' }, PURCHASE],
      dateRange: { date_from: FROM, date_to: TO },
      breakdownFilter: { breakdown_type: 'hogql', breakdown: 'person.properties.plan' },
    };
    const { results } = await runQuery(t, who, funnel);
    const byPlan = Object.fromEntries(results.map((steps: { count: number; breakdown_value: string[] }[]) => [steps[0]!.breakdown_value[0], steps.map((s) => s.count)]));
    expect(byPlan).toEqual({ pro: [1, 1], free: [1, 1] });
    const filtered = await runQuery(t, who, { ...funnel, breakdownFilter: undefined, properties: [{ type: 'hogql', key: "properties.$browser = 'Chrome' or event = 'signup'" }] });
    expect(filtered.results.map((s: { count: number }) => s.count)).toEqual([2, 1]);
  });

  it('retention and stickiness take hogql filters too', async () => {
    const stickiness = await runQuery(t, who, { kind: 'StickinessQuery', series: [PURCHASE], dateRange: { date_from: FROM, date_to: TO }, properties: [{ type: 'hogql', key: "person.properties.plan = 'pro'" }] });
    expect(stickiness.results[0].data.slice(0, 2)).toEqual([0, 1]);
  });
});

describe('paths', () => {
  it('a hogql path item: each event is named by the expression (modern and legacy filters)', async () => {
    await journeys(t, who, {
      cara: [
        ev('signup', '2024-02-01T12:00:00Z'),
        ev('purchase', '2024-02-01T12:05:00Z', { $browser: 'Chrome' }),
        ev('purchase', '2024-02-01T12:10:00Z', { $browser: 'Safari' }),
      ],
    });
    const expression = "concat(event, ':', coalesce(properties.$browser, '-'))";
    const edges = (results: { source: string; target: string; value: number }[]) => results.map((e) => `${e.source} > ${e.target}: ${e.value}`).sort();
    const expected = ['1_signup:- > 2_purchase:Chrome: 1', '2_purchase:Chrome > 3_purchase:Safari: 1'];
    const modern = await runQuery(t, who, {
      kind: 'PathsQuery',
      dateRange: { date_from: '2024-02-01', date_to: '2024-02-02' },
      pathsFilter: { includeEventTypes: ['hogql'], pathsHogQLExpression: expression },
    });
    expect(edges(modern.results)).toEqual(expected);
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/insights/path/`, payload: { insight: 'PATHS', include_event_types: ['hogql'], paths_hogql_expression: expression, date_from: '2024-02-01', date_to: '2024-02-02' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(edges(res.json().result)).toEqual(expected);
  });
});
