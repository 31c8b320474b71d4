// PostHog's is_cleaned_path_exact property operator (posthog/hogql/property.py): the property and
// the filter's value are both run through the project's path_cleaning_filters, then compared. It
// cleans whatever the query's doPathCleaning says, in every kind; the rules are keyed with the
// result. And the rules' order: PostHog applies the stored list as it is (its `order` key is what
// its settings editor writes, the list position), in the web stats table and in paths alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, runQuery, trendsQuery } from '../helpers/journeys.js';

const RULES = [
  { regex: '\\/cleaned\\/\\d+', alias: '/cleaned/:id' }, { regex: '\\/path\\/\\d+', alias: '/path/:id' },
  { regex: 'thing_a', alias: 'thing_b' }, { regex: 'thing_b', alias: 'thing_c' },
];
/** A page view in session `n`: a UUIDv7 whose time part is the view's instant. */
const view = (path: string, at: string, n: number) => {
  const hex = Date.parse(at).toString(16).padStart(12, '0');
  return ev('$pageview', at, { $pathname: path, $current_url: path, $session_id: `${hex.slice(0, 8)}-${hex.slice(8)}-7000-8000-${String(n).padStart(12, '0')}` });
};
const WEEK = { date_from: '2024-02-01', date_to: '2024-02-07' };
const cleaned = (value: unknown) => ({ key: '$pathname', operator: 'is_cleaned_path_exact', value, type: 'event' });
const pageviews = (extra: Record<string, unknown> = {}) => trendsQuery([{ kind: 'EventsNode', event: '$pageview', math: 'total' }], WEEK.date_from, WEEK.date_to, { interval: 'week', ...extra });
const stats = (extra: Record<string, unknown>) => ({ kind: 'WebStatsTableQuery', breakdownBy: 'Page', dateRange: WEEK, properties: [], ...extra });

let t: TestApp;
let who: Credentials;
const api = () => `/api/projects/${who.projectId}`;
const setRules = async (rules: unknown[]) => {
  const res = await t.request(who.key, { method: 'PATCH', url: `${api()}/`, payload: { path_cleaning_filters: rules } });
  expect(res.statusCode, res.body).toBe(200);
};
const total = async (query: unknown) => (await runQuery(t, who, query)).results[0].count as number;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('cleaned-path@example.com');
  await journeys(t, who, {
    p1: [view('/cleaned/123', '2024-02-02T10:00:00Z', 1)],
    p2: [view('/cleaned/456', '2024-02-03T10:00:00Z', 2)],
    p3: [view('/cleaned/1/path/2', '2024-02-03T11:00:00Z', 3)],
    p4: [view('/not-cleaned', '2024-02-04T10:00:00Z', 4)],
    // Two pages, so paths has an edge from the cleaned one.
    p5: [view('/thing_a', '2024-02-04T11:00:00Z', 5), view('/end', '2024-02-04T11:01:00Z', 5)],
  });
  await setRules(RULES);
});
afterAll(() => t.close());

describe('is_cleaned_path_exact', () => {
  it('filters a TrendsQuery by the cleaned path: a cleaned value, a value that cleans to it, a list (any of them)', async () => {
    expect(await total(pageviews({ properties: [cleaned('/cleaned/:id')] }))).toBe(2);
    expect(await total(pageviews({ properties: [cleaned('/cleaned/999')] }))).toBe(2);
    expect(await total(pageviews({ properties: [cleaned('/cleaned/9/path/9')] }))).toBe(1);
    // The rules chain on both sides: /thing_a -> /thing_b -> /thing_c.
    expect(await total(pageviews({ properties: [cleaned('/thing_a')] }))).toBe(1);
    expect(await total(pageviews({ properties: [cleaned(['/thing_c', '/not-cleaned'])] }))).toBe(2);
    // A series' own filter too; exact compares the raw value.
    expect(await total(trendsQuery([{ kind: 'EventsNode', event: '$pageview', math: 'total', properties: [cleaned('/cleaned/7')] }], WEEK.date_from, WEEK.date_to, { interval: 'week' }))).toBe(2);
    expect(await total(pageviews({ properties: [{ ...cleaned('/cleaned/999'), operator: 'exact' }] }))).toBe(0);
  });

  it("keys the result with the project's rules: new rules are a new answer, not the cached one", async () => {
    const query = pageviews({ properties: [cleaned('/cleaned/999')] });
    expect(await total(query)).toBe(2);
    await setRules([]);
    try {
      expect(await total(query)).toBe(0);
      expect(await total(pageviews({ properties: [cleaned('/cleaned/123')] }))).toBe(1);
    } finally {
      await setRules(RULES);
    }
    expect(await total(query)).toBe(2);
  });

  it("cleans in the web stats table's filter even when its doPathCleaning is off (rows stay raw)", async () => {
    const raw = await runQuery(t, who, stats({ doPathCleaning: false, properties: [cleaned('/cleaned/1')] }));
    expect(raw.results.map((row: unknown[]) => row[0]).sort()).toEqual(['/cleaned/123', '/cleaned/456']);
    const grouped = await runQuery(t, who, stats({ doPathCleaning: true, properties: [cleaned('/cleaned/1')] }));
    expect(grouped.results.map((row: unknown[]) => [row[0], row[1]])).toEqual([['/cleaned/:id', [2, null]]]);
  });

  it("works in an action's step filters (the action is read with the project's rules)", async () => {
    const created = await t.request(who.key, { method: 'POST', url: `${api()}/actions/`, payload: {
      name: 'Viewed a cleaned page', steps: [{ event: '$pageview', properties: [cleaned('/cleaned/0')] }],
    } });
    expect(created.statusCode, created.body).toBe(201);
    const query = trendsQuery([{ kind: 'ActionsNode', id: created.json().id, math: 'total' }], WEEK.date_from, WEEK.date_to, { interval: 'week' });
    expect(await total(query)).toBe(2);
  });

  it("is refused with a 400 where Hoglet cannot read the rules: a HogQLQuery's {filters}", async () => {
    const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query: {
      kind: 'HogQLQuery', query: 'select count() from events where {filters}', filters: { properties: [cleaned('/cleaned/1')], dateRange: { date_from: 'all' } },
    } } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().detail).toContain('is_cleaned_path_exact');
  });
});

describe("the rules' order", () => {
  // Sorted by `order` the second rule would run first and /thing_a would end as /thing_b.
  const REVERSED_ORDER_KEYS = [{ regex: 'thing_a', alias: 'thing_b', order: 1 }, { regex: 'thing_b', alias: 'thing_c', order: 0 }];

  it('is the stored order, in the web stats table and in paths (as PostHog applies them)', async () => {
    await setRules(REVERSED_ORDER_KEYS);
    try {
      const table = await runQuery(t, who, stats({ doPathCleaning: true, properties: [{ key: '$pathname', operator: 'icontains', value: 'thing', type: 'event' }] }));
      expect(table.results.map((row: unknown[]) => row[0])).toEqual(['/thing_c']);
      const paths = await runQuery(t, who, { kind: 'PathsQuery', dateRange: WEEK, pathsFilter: { includeEventTypes: ['$pageview'], pathReplacements: true } });
      const items = paths.results.flatMap((e: { source: string; target: string }) => [e.source, e.target]);
      expect(items.some((item: string) => item.endsWith('/thing_c'))).toBe(true);
      expect(items.some((item: string) => item.endsWith('/thing_b'))).toBe(false);
    } finally {
      await setRules(RULES);
    }
  });
});
