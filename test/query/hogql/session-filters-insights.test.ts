// Session property filters in insights (issue 28): PostHog's insight runners take a
// SessionPropertyFilter wherever they take property filters and read it as `session.<key>` of the
// event (property_to_expr in event scope), so does Hoglet: series and query properties of every
// insight kind, and HogQL's session.* inside an insight (a hogql filter, math_hogql), whose session
// join now reaches the runner's statement. Events through /batch/, queries through /query/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery, trendsQuery } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
const DAY = '2024-07-05';
const PAGEVIEWS = [{ kind: 'EventsNode', event: '$pageview' }];

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('session-filters-insights@example.com');
  await journeys(t, who, {
    // A session entering on a.com that lasts a minute, and a one-event session entering on b.com.
    a: [ev('$pageview', `${DAY}T00:00:00Z`, { $session_id: 's1', $current_url: 'https://a.com/' }), ev('$pageview', `${DAY}T00:01:00Z`, { $session_id: 's1', $current_url: 'https://a.com/x' })],
    b: [ev('$pageview', `${DAY}T00:00:00Z`, { $session_id: 's2', $current_url: 'https://b.com/' })],
  });
});
afterAll(() => t.close());

const counts = async (extra: Record<string, unknown>, series: unknown[] = PAGEVIEWS) => (await runQuery(t, who, trendsQuery(series, DAY, DAY, extra))).results.map((r: { count: number }) => r.count);
const entry = (value: string) => ({ type: 'session', key: '$entry_current_url', value, operator: 'exact' });

describe('session property filters in insights', () => {
  it("a query's session filter keeps the events of the matching sessions", async () => {
    expect(await counts({ properties: [entry('https://a.com/')] })).toEqual([2]);
    expect(await counts({ properties: [entry('https://b.com/')] })).toEqual([1]);
  });

  it("a series' session filter, on a number field (the session's duration)", async () => {
    const series = [{ kind: 'EventsNode', event: '$pageview', properties: [{ type: 'session', key: '$session_duration', value: 30, operator: 'gt' }] }];
    expect(await counts({}, series)).toEqual([2]);
  });

  it('a funnel takes them too', async () => {
    const body = await runQuery(t, who, { kind: 'FunnelsQuery', series: [...PAGEVIEWS, ...PAGEVIEWS], dateRange: { date_from: DAY, date_to: DAY }, properties: [entry('https://a.com/')] });
    expect(body.results.map((step: { count: number }) => step.count)).toEqual([1, 1]);
  });

  it('stickiness and lifecycle take them too', async () => {
    const range = { dateRange: { date_from: DAY, date_to: DAY }, properties: [entry('https://a.com/')] };
    const stickiness = await runQuery(t, who, { kind: 'StickinessQuery', series: PAGEVIEWS, ...range });
    expect(stickiness.results[0].count).toBe(1);
    const lifecycle = await runQuery(t, who, { kind: 'LifecycleQuery', series: PAGEVIEWS, ...range });
    const added = lifecycle.results.find((r: { status: string }) => r.status === 'new');
    expect(added.count).toBe(1);
  });

  it('retention and paths take them too', async () => {
    const range = { dateRange: { date_from: DAY, date_to: DAY }, properties: [entry('https://a.com/')] };
    const retention = await runQuery(t, who, { kind: 'RetentionQuery', ...range, retentionFilter: { period: 'Day', totalIntervals: 1 } });
    expect(retention.results[0].values[0].count).toBe(1);
    const paths = await runQuery(t, who, { kind: 'PathsQuery', ...range, pathsFilter: { includeEventTypes: ['$pageview'] } });
    expect(paths.results.map((edge: { source: string; target: string }) => [edge.source, edge.target])).toEqual([['1_https://a.com', '2_https://a.com/x']]);
  });

  it('a field the sessions table does not have is a 400', async () => {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: trendsQuery(PAGEVIEWS, DAY, DAY, { properties: [{ type: 'session', key: 'nope', value: 'x', operator: 'exact' }] }) } });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Unable to resolve field: session.nope');
    // A name HogQL's quotes cannot carry names no session field either.
    const quoted = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: trendsQuery(PAGEVIEWS, DAY, DAY, { properties: [{ type: 'session', key: 'x` OR 1=1 --', value: 'x', operator: 'exact' }] }) } });
    expect(quoted.statusCode).toBe(400);
    expect(quoted.json().detail).toBe('Unable to resolve field: session.x` OR 1=1 --');
  });
});

describe("HogQL's session.* inside an insight", () => {
  it('a hogql filter and math_hogql read the event\'s session', async () => {
    expect(await counts({ properties: [{ type: 'hogql', key: "session.$entry_current_url = 'https://a.com/'" }] })).toEqual([2]);
    const series = [{ kind: 'EventsNode', event: '$pageview', math: 'hogql', math_hogql: 'max(session.$session_duration)' }];
    expect(await counts({}, series)).toEqual([60]);
  });
});
