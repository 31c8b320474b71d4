// date_from after date_to. PostHog's QueryDateRange (posthog/hogql_queries/utils/query_date_range.py)
// neither swaps nor refuses such a range: its interval list is empty and its event window holds no
// event. A trends series then comes back with empty data, labels and days and a count of 0 (a
// total-value display with 0), a breakdown with no values, and a funnel as for a range without events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, trendsQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const PAGEVIEWS = [{ kind: 'EventsNode', event: '$pageview' }];
const FUNNEL_STEPS = [{ kind: 'EventsNode', event: '$pageview' }, { kind: 'EventsNode', event: 'signup' }];
const funnelsQuery = (from: string, to: string) => ({ kind: 'FunnelsQuery', series: FUNNEL_STEPS, dateRange: { date_from: from, date_to: to } });
const EMPTY_SERIES = { data: [], labels: [], days: [], count: 0, label: '$pageview' };

describe.each(META_STORES)('a date range that ends before it starts, on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  const post = async (path: string, payload: Record<string, unknown>) => {
    const res = await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}${path}`, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com');
    // Events on both sides of the inverted range and inside its span, none of which may count.
    await journeys(t, alice, {
      a: [ev('$pageview', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }), ev('signup', '2024-01-02T10:00:00Z')],
      b: [ev('$pageview', '2024-01-02T11:00:00Z', { $browser: 'Firefox' }), ev('signup', '2024-01-04T10:00:00Z')],
    });
  });
  afterAll(() => t.close());

  it('a TrendsQuery answers each series with no intervals and a count of 0, the range as given', async () => {
    const body = await post('/query/', { query: trendsQuery([...PAGEVIEWS, { kind: 'EventsNode', event: 'signup' }], '2024-01-03', '2024-01-01') });
    expect(body.results).toEqual([expect.objectContaining(EMPTY_SERIES), expect.objectContaining({ ...EMPTY_SERIES, label: 'signup' })]);
    expect(body.resolved_date_range.date_from).toMatch(/^2024-01-03T00:00:00/);
    expect(body.resolved_date_range.date_to).toMatch(/^2024-01-01T23:59:59/);
  });

  it('a total-value display answers 0, and a breakdown has no values', async () => {
    const bold = await post('/query/', { query: trendsQuery(PAGEVIEWS, '2024-01-03', '2024-01-01', { trendsFilter: { display: 'BoldNumber' } }) });
    expect(bold.results).toEqual([expect.objectContaining({ ...EMPTY_SERIES, aggregated_value: 0 })]);
    const byBrowser = await post('/query/', { query: trendsQuery(PAGEVIEWS, '2024-01-03', '2024-01-01', { breakdownFilter: { breakdown: '$browser', breakdown_type: 'event' } }) });
    expect(byBrowser.results).toEqual([]);
  });

  it('the legacy trend endpoint answers the same', async () => {
    const body = await post('/insights/trend/', { events: [{ id: '$pageview' }], date_from: '2024-01-03', date_to: '2024-01-01' });
    expect(body.result).toEqual([expect.objectContaining(EMPTY_SERIES)]);
  });

  it('a funnel answers as over a range without events, on /query/ and the legacy endpoint', async () => {
    const withoutEvents = (await post('/query/', { query: funnelsQuery('2023-06-01', '2023-06-05') })).results;
    expect((await post('/query/', { query: funnelsQuery('2024-01-04', '2024-01-01') })).results).toEqual(withoutEvents);
    const legacy = await post('/insights/funnel/', { events: [{ id: '$pageview', order: 0 }, { id: 'signup', order: 1 }], date_from: '2024-01-04', date_to: '2024-01-01' });
    expect(legacy.result).toEqual(withoutEvents);
  });
});
