// Lifecycle as a client meets it: /query/, the legacy /insights/trend/ with shown_as "Lifecycle",
// saved insights with `insight: "LIFECYCLE"`, the actors behind a bar and the refusals, over
// events captured through /batch/ (a person's creation is their first event Hoglet processed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery } from '../../helpers/journeys.js';

const PAGEVIEW = { kind: 'EventsNode', event: '$pageview' };
const lifecycle = (extra: Record<string, unknown> = {}) => ({ kind: 'LifecycleQuery', series: [PAGEVIEW], dateRange: { date_from: '2024-01-01', date_to: '2024-01-05' }, interval: 'day', ...extra });

/** By hand, 1-5 January (see the journeys below). */
const EXPECTED = {
  new: [1, 0, 0, 0, 0],
  returning: [1, 1, 1, 0, 0],
  resurrecting: [0, 1, 0, 1, 0],
  dormant: [-1, -1, -1, -1, -1],
};

let t: TestApp;
let who: Credentials;
const api = () => `/api/projects/${who.projectId}`;
const byStatus = (items: { status: string; data: number[] }[]) => Object.fromEntries(items.map((i) => [i.status, i.data]));

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('lifecycle-http@example.com');
  await journeys(t, who, {
    // new on the 1st, returning the 2nd, dormant the 3rd, resurrecting the 4th, dormant the 5th
    ann: [ev('$pageview', '2024-01-01T10:00:00Z'), ev('$pageview', '2024-01-02T10:00:00Z'), ev('$pageview', '2024-01-04T10:00:00Z')],
    // created in December by another event: resurrecting the 2nd, returning the 3rd, dormant the 4th
    bob: [ev('signed_up', '2023-12-20T10:00:00Z'), ev('$pageview', '2024-01-02T10:00:00Z'), ev('$pageview', '2024-01-03T10:00:00Z')],
    // active the day before the range: returning the 1st, dormant the 2nd
    cat: [ev('$pageview', '2023-12-31T10:00:00Z'), ev('$pageview', '2024-01-01T10:00:00Z')],
    // active only the day before: dormant the 1st
    dan: [ev('$pageview', '2023-12-31T12:00:00Z')],
  });
});
afterAll(() => t.close());

describe('lifecycle through /query/', () => {
  it("answers PostHog's four items, dormant negative, in PostHog's order", async () => {
    const { results } = await runQuery(t, who, lifecycle());
    expect(results.map((r: { status: string }) => r.status)).toEqual(['new', 'returning', 'resurrecting', 'dormant']);
    expect(byStatus(results)).toEqual(EXPECTED);
    expect(results[3]).toMatchObject({
      label: '$pageview - dormant',
      count: -5,
      days: ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05'],
      labels: ['1-Jan-2024', '2-Jan-2024', '3-Jan-2024', '4-Jan-2024', '5-Jan-2024'],
      action: { id: '$pageview', name: '$pageview', type: 'events', order: 0, math: 'total' },
    });
  });

  it('refuses an action the project does not have, and a query without series', async () => {
    for (const [query, attr] of [
      [lifecycle({ series: [{ kind: 'ActionsNode', id: 31337 }] }), 'series[0].id'],
      [lifecycle({ series: [] }), 'query.series'],
      [lifecycle({ interval: 'decade' }), 'query.interval'],
    ] as const) {
      const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error', attr });
    }
  });

  it('calls a person new only in their first active interval (events imported out of order)', async () => {
    const who2 = await t.bootstrap('lifecycle-imports@example.com');
    // The 10 January event arrives first and creates the person; the 5 January one is imported after.
    await journeys(t, who2, { zed: [ev('$pageview', '2024-01-10T10:00:00Z')] });
    await journeys(t, who2, { zed: [ev('$pageview', '2024-01-05T10:00:00Z')] });
    const { results } = await runQuery(t, who2, lifecycle({ dateRange: { date_from: '2024-01-01', date_to: '2024-01-12' } }));
    const byStatusOf = byStatus(results);
    expect(byStatusOf.new!.every((n: number) => n === 0)).toBe(true);
    expect(byStatusOf.resurrecting![4]).toBe(1);
    expect(byStatusOf.resurrecting![9]).toBe(1);
  });
});

describe('the actors behind a bar', () => {
  const actors = async (status: string, day: string) => {
    const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query: { kind: 'InsightActorsQuery', source: lifecycle(), status, day } } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results.map(([person]: [{ distinct_ids: string[] }]) => person.distinct_ids.join(','));
  };

  it('lists who was new, returning, resurrecting or dormant in an interval', async () => {
    expect(await actors('dormant', '2024-01-03')).toEqual(['ann']);
    expect(await actors('returning', '2024-01-01')).toEqual(['cat']);
    expect(await actors('resurrecting', '2024-01-02T15:00:00Z')).toEqual(['bob']);
    expect(await actors('new', '2024-01-02')).toEqual([]);
    const bad = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query: { kind: 'InsightActorsQuery', source: lifecycle(), status: 'sleeping', day: '2024-01-01' } } });
    expect(bad.json()).toMatchObject({ type: 'validation_error', attr: 'status' });
  });
});

describe('legacy lifecycle', () => {
  it('/insights/trend/ with shown_as "Lifecycle"', async () => {
    const res = await t.request(who.key, { method: 'POST', url: `${api()}/insights/trend/`, payload: { shown_as: 'Lifecycle', events: [{ id: '$pageview' }], date_from: '2024-01-01', date_to: '2024-01-05', interval: 'day' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(byStatus(res.json().result)).toEqual(EXPECTED);
  });

  it('a saved insight with insight LIFECYCLE calculates and exports one row per status', async () => {
    const created = await t.request(who.key, { method: 'POST', url: `${api()}/insights/`, payload: { name: 'Lifecycle', filters: { insight: 'LIFECYCLE', events: [{ id: '$pageview' }], date_from: '2024-01-01', date_to: '2024-01-05' } } });
    expect(created.statusCode, created.body).toBe(201);
    const url = `${api()}/insights/${created.json().id}/`;
    expect(byStatus((await t.request(who.key, { method: 'GET', url: `${url}?refresh=blocking` })).json().result)).toEqual(EXPECTED);
    const csv = (await t.request(who.key, { method: 'GET', url: `${url}results.csv` })).body.split('\r\n');
    expect(csv.slice(1, 3)).toEqual(['series,1-Jan-2024,2-Jan-2024,3-Jan-2024,4-Jan-2024,5-Jan-2024', '$pageview - new,1,0,0,0,0']);
    expect(csv[5]).toBe('$pageview - dormant,-1,-1,-1,-1,-1');
  });
});
