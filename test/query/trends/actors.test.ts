// The people behind a trends point (PostHog's InsightActorsQuery over a TrendsQuery), as the web
// app's people panel asks for them: for every bucket of a unique-users series the list holds as
// many actors as the point counts, and the right ones; per breakdown value, series, compared period,
// total-value display, rolling weekly actives and counted groups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery } from '../../helpers/journeys.js';

const PAGEVIEW = { kind: 'EventsNode', event: '$pageview', math: 'dau' };
const WEEK = { date_from: '2024-01-01', date_to: '2024-01-07' };
const trend = (series: unknown[] = [PAGEVIEW], extra: Record<string, unknown> = {}) => ({ kind: 'TrendsQuery', series, dateRange: WEEK, interval: 'day', ...extra });

let t: TestApp;
let who: Credentials;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('trends-actors@example.com');
  await journeys(t, who, {
    ann: [ev('$pageview', '2024-01-01T09:00:00Z', { $browser: 'Chrome', $groups: { company: 'acme' } }), ev('$pageview', '2024-01-02T09:00:00Z', { $browser: 'Chrome' }), ev('signed_up', '2024-01-02T10:00:00Z')],
    bob: [ev('$pageview', '2024-01-02T08:00:00Z', { $browser: 'Firefox', $groups: { company: 'acme' } }), ev('$pageview', '2024-01-02T18:00:00Z', { $browser: 'Firefox' })],
    cat: [ev('$pageview', '2024-01-05T12:00:00Z', { $groups: { company: 'beta' } }), ev('$pageview', '2024-01-07T23:59:59Z')],
    dan: [ev('$pageview', '2023-12-27T12:00:00Z', { $browser: 'Chrome' })],
  });
});
afterAll(() => t.close());

async function actors(target: Record<string, unknown>, query: unknown = trend()): Promise<string[]> {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source: query, ...target } } } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results.map(([actor]: [{ distinct_ids?: string[]; group_key?: string }]) => actor.distinct_ids?.join(',') ?? actor.group_key).sort();
}

describe('the people behind a trends point', () => {
  it('each day of a unique-users series lists as many people as it counts, and the right ones', async () => {
    const [item] = (await runQuery(t, who, trend())).results;
    expect(item.data).toEqual([1, 2, 0, 0, 1, 0, 1]);
    for (const [i, day] of (item.days as string[]).entries()) {
      expect((await actors({ day, series: 0 })).length, day).toBe(item.data[i]);
    }
    expect(await actors({ day: '2024-01-02' })).toEqual(['ann', 'bob']);
    expect(await actors({ day: '2024-01-07' })).toEqual(['cat']);
  });

  it('per breakdown value, per series, and in the compared period', async () => {
    const byBrowser = trend([PAGEVIEW], { breakdownFilter: { breakdown: '$browser', breakdown_type: 'event' } });
    const items = (await runQuery(t, who, byBrowser)).results as { breakdown_value: string; data: number[] }[];
    const firefox = items.find((i) => i.breakdown_value === 'Firefox')!;
    expect(await actors({ day: '2024-01-02', breakdown: 'Firefox' }, byBrowser)).toEqual(['bob']);
    expect((await actors({ day: '2024-01-02', breakdown: 'Firefox' }, byBrowser)).length).toBe(firefox.data[1]);
    const none = items.find((i) => i.breakdown_value === '$$_posthog_breakdown_null_$$')!;
    expect(await actors({ day: '2024-01-05', breakdown: none.breakdown_value }, byBrowser)).toEqual(['cat']);

    expect(await actors({ day: '2024-01-02', series: 1 }, trend([PAGEVIEW, { kind: 'EventsNode', event: 'signed_up', math: 'dau' }]))).toEqual(['ann']);
    const compared = trend([PAGEVIEW], { compareFilter: { compare: true } });
    expect(await actors({ day: '2023-12-27', compare: 'previous' }, compared)).toEqual(['dan']);
  });

  it('a total-value display lists everyone in the range; weekly actives look back 7 days', async () => {
    expect(await actors({}, trend([PAGEVIEW], { trendsFilter: { display: 'BoldNumber' } }))).toEqual(['ann', 'bob', 'cat']);
    const weekly = trend([{ ...PAGEVIEW, math: 'weekly_active' }]);
    const [item] = (await runQuery(t, who, weekly)).results;
    expect(item.data[4]).toBe(3);
    expect(await actors({ day: '2024-01-05' }, weekly)).toEqual(['ann', 'bob', 'cat']);
    // On the 7th the 7 days back start on the 1st: ann's first pageview still counts.
    expect((await actors({ day: '2024-01-07' }, weekly)).length).toBe(item.data[6]);
  });

  it('a series counting groups lists the groups', async () => {
    await t.request(who.key, { method: 'POST', url: '/batch/', payload: { api_key: who.projectApiToken, batch: [{ event: '$groupidentify', distinct_id: 'ann', timestamp: '2024-01-01T08:00:00Z', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme' } } }] } });
    const companies = trend([{ kind: 'EventsNode', event: '$pageview', math: 'unique_group', math_group_type_index: 0 }]);
    expect(await actors({ day: '2024-01-02' }, companies)).toEqual(['acme']);
  });

  it('refuses what it cannot list with a 400 naming it', async () => {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source: trend(), day: 'not a date' } } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain('is not a date');
  });
});
