// Trends displays: time series, cumulative, smoothing, and the displays that show one number.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, freshProject, journeys, pageviews, runQuery, trends, trendsQuery } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

const at = (day: number, props: Record<string, unknown> = {}) => ev('$pageview', `2024-01-0${day}T10:00:00Z`, props);
let who: Credentials;
beforeAll(async () => {
  who = await freshProject(t);
  await journeys(t, who, {
    alice: [at(1), at(1), at(2), at(4), at(5)],
    bob: [at(2), at(2), at(5)],
    carol: [at(5)],
  });
});
const display = (name: string, math?: string, extra: Record<string, unknown> = {}) =>
  trendsQuery([pageviews(math)], '2024-01-01', '2024-01-05', { trendsFilter: { display: name }, ...extra });

describe('time-series displays', () => {
  it.each(['ActionsLineGraph', 'ActionsBar', 'ActionsAreaGraph', 'ActionsStackedBar', 'ActionsUnstackedBar'])('%s gives one value per day', async (name) => {
    const [item] = await trends(t, who, display(name));
    expect(item.data).toEqual([2, 3, 0, 1, 3]);
    expect(item.count).toBe(9);
    expect(item.aggregated_value).toBeUndefined();
    expect(item.filter.display).toBe(name);
  });

  it('ActionsLineGraphCumulative accumulates; count is the last value', async () => {
    const [item] = await trends(t, who, display('ActionsLineGraphCumulative'));
    expect(item.data).toEqual([2, 5, 5, 6, 9]);
    expect(item.count).toBe(9);
  });

  it('cumulative dau counts each person once, on their first day', async () => {
    const [item] = await trends(t, who, display('ActionsLineGraphCumulative', 'dau'));
    expect(item.data).toEqual([1, 2, 2, 2, 3]);
    expect(item.count).toBe(3);
  });

  it('cumulative dau with a breakdown counts each person once per value', async () => {
    const story = await freshProject(t);
    await journeys(t, story, {
      alice: [at(1, { $browser: 'Chrome' }), at(2, { $browser: 'Safari' }), at(3, { $browser: 'Chrome' })],
      bob: [at(2, { $browser: 'Chrome' })],
    });
    const results = await trends(t, story, trendsQuery([pageviews('dau')], '2024-01-01', '2024-01-03', { trendsFilter: { display: 'ActionsLineGraphCumulative' }, breakdownFilter: { breakdown: '$browser' } }));
    expect(results.map((r: any) => [r.breakdown_value, r.data, r.count])).toEqual([['Chrome', [1, 2, 2], 2], ['Safari', [0, 1, 1], 1]]);
  });

  it('smoothingIntervals averages each day with the days before it, rounded down', async () => {
    const [item] = await trends(t, who, display('ActionsLineGraph', undefined, { trendsFilter: { smoothingIntervals: 3 } }));
    // [2], [2,3], [2,3,0], [3,0,1], [0,1,3]
    expect(item.data).toEqual([2, 2, 1, 1, 1]);
    expect(item.filter.smoothing_intervals).toBe(3);
  });
});

describe('total-value displays', () => {
  it.each(['ActionsTable', 'ActionsPie', 'BoldNumber', 'ActionsBarValue', 'WorldMap'])('%s gives one aggregated_value and no time series', async (name) => {
    const [item] = await trends(t, who, display(name));
    expect(item).toMatchObject({ data: [], days: [], labels: [], count: 0, aggregated_value: 9, label: '$pageview' });
    expect(item.action).toMatchObject({ id: '$pageview', type: 'events', order: 0, name: '$pageview' });
  });

  it('dau over the whole range counts each person once (not the sum of days)', async () => {
    const [item] = await trends(t, who, display('BoldNumber', 'dau'));
    expect(item.aggregated_value).toBe(3);
  });

  it('property maths aggregate over the whole range', async () => {
    const story = await freshProject(t);
    await journeys(t, story, { alice: [ev('buy', '2024-01-01T10:00:00Z', { price: 10 }), ev('buy', '2024-01-03T10:00:00Z', { price: 30 })] });
    const [avg] = await trends(t, story, trendsQuery([{ kind: 'EventsNode', event: 'buy', math: 'avg', math_property: 'price' }], '2024-01-01', '2024-01-05', { trendsFilter: { display: 'ActionsTable' } }));
    expect(avg.aggregated_value).toBe(20);
    const [none] = await trends(t, story, trendsQuery([{ kind: 'EventsNode', event: 'buy', math: 'max', math_property: 'price' }], '2024-02-01', '2024-02-05', { trendsFilter: { display: 'ActionsTable' } }));
    expect(none.aggregated_value).toBe(0);
  });

  it('BoldNumber over a relative range ends exactly now', async () => {
    const story = await freshProject(t);
    const now = DateTime.utc();
    await journeys(t, story, { alice: [ev('$pageview', now.minus({ hours: 30 }).toISO()!), ev('$pageview', now.minus({ minutes: 5 }).toISO()!)] });
    const [last24] = await trends(t, story, { kind: 'TrendsQuery', series: [pageviews()], dateRange: { date_from: '-24h' }, trendsFilter: { display: 'BoldNumber' } });
    expect(last24.aggregated_value).toBe(1);
  });

  it('WorldMap keeps up to 250 countries by default; other displays keep 25', async () => {
    const story = await freshProject(t);
    const countries = Array.from({ length: 30 }, (_, i) => `C${String(i).padStart(2, '0')}`);
    await journeys(t, story, { alice: countries.map((c) => at(1, { $geoip_country_code: c })) });
    const breakdownFilter = { breakdown: '$geoip_country_code' };
    const map = await runQuery(t, story, trendsQuery([pageviews()], '2024-01-01', '2024-01-02', { trendsFilter: { display: 'WorldMap' }, breakdownFilter }));
    expect(map.results).toHaveLength(30);
    expect(map.hasMore).toBe(false);
    const table = await runQuery(t, story, trendsQuery([pageviews()], '2024-01-01', '2024-01-02', { trendsFilter: { display: 'ActionsTable' }, breakdownFilter }));
    expect(table.results).toHaveLength(26);
    expect(table.results[25]).toMatchObject({ breakdown_value: '$$_posthog_breakdown_other_$$', aggregated_value: 5 });
    expect(table.hasMore).toBe(true);
  });
});

describe('result item shape', () => {
  it('carries data, days, labels, label, count, action, filter and order', async () => {
    const response = await runQuery(t, who, trendsQuery([pageviews('dau', { custom_name: 'Visitors' })], '2024-01-01', '2024-01-02', {
      properties: [{ key: '$browser', operator: 'is_not', value: 'IE', type: 'event' }],
      filterTestAccounts: false,
    }));
    expect(response.hasMore).toBe(false);
    expect(response.resolved_date_range).toEqual({ date_from: '2024-01-01T00:00:00.000Z', date_to: '2024-01-02T23:59:59.999Z' });
    const [item] = response.results;
    expect(item).toMatchObject({
      data: [1, 2],
      days: ['2024-01-01', '2024-01-02'],
      labels: ['1-Jan-2024', '2-Jan-2024'],
      label: '$pageview',
      count: 3,
      action: {
        days: ['2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z'],
        id: '$pageview', type: 'events', order: 0, name: '$pageview', custom_name: 'Visitors', math: 'dau', math_property: null, properties: {},
      },
      filter: {
        insight: 'TRENDS',
        events: [{ id: '$pageview', type: 'events', order: 0, math: 'dau', custom_name: 'Visitors' }],
        actions: [],
        properties: { type: 'AND', values: [{ key: '$browser', operator: 'is_not', value: 'IE', type: 'event' }] },
        filter_test_accounts: false,
        date_from: '2024-01-01T00:00:00.000Z',
        date_to: '2024-01-02T23:59:59.999Z',
        interval: 'day',
        display: 'ActionsLineGraph',
        entity_type: 'events',
      },
    });
    expect(item.breakdown_value).toBeUndefined();
    expect(item.compare_label).toBeUndefined();
  });
});
