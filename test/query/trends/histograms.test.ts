// Numeric histogram breakdowns (breakdown_histogram_bin_count): equal-width bins between the
// property's minimum and maximum over the range, each bin's breakdown value and label the pair as
// PostHog prints it, "[10,17.5]", the last upper bound raised by 0.01.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import {
  ev, expectValidationError, freshProject, journeys, legacyTrend, pageviews, posthogTestEvents, rawQuery, runQuery, trends, trendsQuery,
} from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

const NULL = '$$_posthog_breakdown_null_$$';
const OTHER = '$$_posthog_breakdown_other_$$';
const RANGE = ['2020-01-09', '2020-01-20'] as const;
const byProp = (bins: number, extra: Record<string, unknown> = {}, breakdown: Record<string, unknown> = {}) =>
  trendsQuery([pageviews()], ...RANGE, { breakdownFilter: { breakdown_type: 'event', breakdown: 'prop', breakdown_histogram_bin_count: bins, ...breakdown }, ...extra });

let who: Credentials;
beforeAll(async () => {
  who = await freshProject(t);
  await journeys(t, who, posthogTestEvents());
});

describe('histogram bins', () => {
  it('splits the range into equal bins, labelled by their bounds (PostHog: test_trends_breakdowns_histogram)', async () => {
    const response = await runQuery(t, who, byProp(4));
    expect(response.results.map((r: any) => r.breakdown_value)).toEqual(['[10,17.5]', '[17.5,25]', '[25,32.5]', '[32.5,40.01]']);
    expect(response.results.map((r: any) => r.label)).toEqual(['[10,17.5]', '[17.5,25]', '[25,32.5]', '[32.5,40.01]']);
    expect(response.results.map((r: any) => r.data)).toEqual([
      [0, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0],
      [1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0],
      [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
    ]);
    expect(response.results[0].filter).toMatchObject({ breakdown: 'prop', breakdown_histogram_bin_count: 4 });
  });

  it('the legacy endpoint reads breakdown_histogram_bin_count from the filters', async () => {
    const res = await legacyTrend(t, who, { date_from: RANGE[0], date_to: RANGE[1], events: [{ id: '$pageview' }], breakdown: 'prop', breakdown_histogram_bin_count: 4 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.map((r: any) => [r.breakdown_value, r.count])).toEqual([['[10,17.5]', 6], ['[17.5,25]', 2], ['[25,32.5]', 1], ['[32.5,40.01]', 1]]);
  });

  it('with several series, labels name the series and each series bins its own events', async () => {
    const pageleaves = { kind: 'EventsNode', event: '$pageleave', properties: [{ key: 'prop', operator: 'lt', value: 35 }] };
    const results = await trends(t, who, trendsQuery([pageviews(), pageleaves], ...RANGE, { breakdownFilter: { breakdown: 'prop', breakdown_histogram_bin_count: 2 } }));
    expect(results.map((r) => [r.label, r.count])).toEqual([
      ['$pageview - [10,25]', 8],
      ['$pageview - [25,40.01]', 2],
      ['$pageleave - [10,20]', 3], // pageleaves under 35: 10, 20 and 30
      ['$pageleave - [20,30.01]', 2],
    ]);
  });

  it('bins beyond the breakdown limit go to Other', async () => {
    const response = await runQuery(t, who, byProp(4, {}, { breakdown_limit: 2 }));
    expect(response.results.map((r: any) => [r.breakdown_value, r.count])).toEqual([['[10,17.5]', 6], ['[17.5,25]', 2], [OTHER, 2]]);
    expect(response.hasMore).toBe(true);
  });

  it('total-value displays give one number per bin', async () => {
    const results = await trends(t, who, byProp(2, { trendsFilter: { display: 'ActionsTable' } }));
    expect(results.map((r) => [r.breakdown_value, r.aggregated_value])).toEqual([['[10,25]', 8], ['[25,40.01]', 2]]);
  });
});

describe('values that are not spread', () => {
  let odd: Credentials;
  beforeAll(async () => {
    odd = await freshProject(t);
    await journeys(t, odd, {
      alice: [ev('buy', '2024-01-01T10:00:00Z', { price: 5 }), ev('buy', '2024-01-01T11:00:00Z', { price: '5' }), ev('buy', '2024-01-02T10:00:00Z', { price: 'free' })],
      bob: [ev('buy', '2024-01-02T10:00:00Z', {})],
    });
  });
  const buys = (math?: string) => trendsQuery([{ kind: 'EventsNode', event: 'buy', ...(math ? { math } : {}) }], '2024-01-01', '2024-01-02', { breakdownFilter: { breakdown: 'price', breakdown_histogram_bin_count: 3 } });

  it('one distinct number makes one bin up to it plus 0.01; values that are not numbers go to the null bucket', async () => {
    const results = await trends(t, odd, buys());
    expect(results.map((r) => [r.breakdown_value, r.data])).toEqual([['[5,5.01]', [2, 0]], [NULL, [0, 2]]]);
  });

  it('maths apply within each bin: dau counts a person once per bin and day', async () => {
    const results = await trends(t, odd, buys('dau'));
    expect(results.map((r) => [r.breakdown_value, r.data])).toEqual([['[5,5.01]', [1, 0]], [NULL, [0, 2]]]);
  });

  it('no numbers at all: everything is in the null bucket', async () => {
    const results = await trends(t, odd, trendsQuery([{ kind: 'EventsNode', event: 'buy' }], '2024-01-02', '2024-01-02', { breakdownFilter: { breakdown: 'price', breakdown_histogram_bin_count: 3 } }));
    expect(results.map((r) => [r.breakdown_value, r.data])).toEqual([[NULL, [2]]]);
  });
});

describe('validation', () => {
  it('a bin count below 1 is a 400 naming it', async () => {
    const res = await rawQuery(t, who, byProp(0));
    expectValidationError(res, 'query.breakdownFilter.breakdown_histogram_bin_count', undefined, 'min_value');
  });

  it('funnels refuse histogram breakdowns instead of ignoring them', async () => {
    const res = await rawQuery(t, who, { kind: 'FunnelsQuery', series: [pageviews(), { kind: 'EventsNode', event: '$pageleave' }], breakdownFilter: { breakdown: 'prop', breakdown_histogram_bin_count: 4 } });
    expectValidationError(res, 'query.breakdownFilter.breakdown_histogram_bin_count', /trends/);
  });
});
