// Trends compare (previous period) and formulas over series.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { eventsNode, ev, expectValidationError, freshProject, journeys, pageviews, rawQuery, runQuery, trends, trendsQuery } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

const at = (day: number, props: Record<string, unknown> = {}) => ev('$pageview', `2024-01-${String(day).padStart(2, '0')}T10:00:00Z`, props);
const signup = (day: number, props: Record<string, unknown> = {}) => ev('signup', `2024-01-${String(day).padStart(2, '0')}T11:00:00Z`, props);

describe('compare to the previous period', () => {
  let who: Credentials;
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      alice: [at(2), at(2), at(5), at(9), at(10), at(10), at(10)],
      bob: [signup(3), signup(9)],
    });
  });

  it('adds a previous-period copy of every series after the current ones, labelled', async () => {
    const response = await runQuery(t, who, trendsQuery([pageviews(), eventsNode('signup')], '2024-01-08', '2024-01-14', { compareFilter: { compare: true } }));
    const items = response.results.map((r: any) => [r.label, r.compare_label, r.days[0], r.data]);
    expect(items).toEqual([
      ['$pageview', 'current', '2024-01-08', [0, 1, 3, 0, 0, 0, 0]],
      ['signup', 'current', '2024-01-08', [0, 1, 0, 0, 0, 0, 0]],
      ['$pageview', 'previous', '2024-01-01', [0, 2, 0, 0, 1, 0, 0]],
      ['signup', 'previous', '2024-01-01', [0, 0, 1, 0, 0, 0, 0]],
    ]);
    expect(response.results.every((r: any) => r.compare === true)).toBe(true);
    expect(response.results[2].labels[0]).toBe('1-Jan-2024');
    expect(response.results[2].count).toBe(3);
  });

  it('compare_to shifts the previous period by the given amount', async () => {
    const week = await trends(t, who, trendsQuery([pageviews()], '2024-01-08', '2024-01-14', { compareFilter: { compare: true, compare_to: '-1w' } }));
    expect(week.map((r: any) => [r.compare_label, r.days[0], r.days[6], r.data])).toEqual([
      ['current', '2024-01-08', '2024-01-14', [0, 1, 3, 0, 0, 0, 0]],
      ['previous', '2024-01-01', '2024-01-07', [0, 2, 0, 0, 1, 0, 0]],
    ]);
    const [, threeDays] = await trends(t, who, trendsQuery([pageviews()], '2024-01-08', '2024-01-14', { compareFilter: { compare: true, compare_to: '-3d' } }));
    expect(threeDays.days[0]).toBe('2024-01-05');
    expect(threeDays.data).toEqual([1, 0, 0, 0, 1, 3, 0]);
  });

  it('compare with a breakdown ranks each period on its own', async () => {
    const results = await trends(t, who, trendsQuery([pageviews('dau')], '2024-01-08', '2024-01-14', { compareFilter: { compare: true }, breakdownFilter: { breakdown: 'nope' } }));
    expect(results.map((r: any) => [r.compare_label, r.breakdown_value, r.count])).toEqual([
      ['current', '$$_posthog_breakdown_null_$$', 2],
      ['previous', '$$_posthog_breakdown_null_$$', 2],
    ]);
  });

  it('compare on a total-value display gives a current and a previous number', async () => {
    const results = await trends(t, who, trendsQuery([pageviews()], '2024-01-08', '2024-01-14', { compareFilter: { compare: true }, trendsFilter: { display: 'BoldNumber' } }));
    expect(results.map((r: any) => [r.compare_label, r.aggregated_value])).toEqual([['current', 4], ['previous', 3]]);
  });

  it('compare_to that is not a date is a 400 naming it', async () => {
    expectValidationError(await rawQuery(t, who, trendsQuery([pageviews()], '2024-01-08', '2024-01-14', { compareFilter: { compare: true, compare_to: 'yesterday-ish' } })), 'query.compareFilter.compare_to');
  });
});

describe('formulas', () => {
  let who: Credentials;
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      alice: [at(1, { $browser: 'Chrome' }), at(1, { $browser: 'Chrome' }), at(1, { $browser: 'Safari' }), at(2, { $browser: 'Chrome' }), signup(1, { $browser: 'Chrome' })],
      bob: [at(1, { $browser: 'Safari' }), at(2, { $browser: 'Safari' }), signup(1, { $browser: 'Safari' }), signup(4, { $browser: 'Safari' })],
    });
  });
  const series = [pageviews(), eventsNode('signup')];
  const range = (extra: Record<string, unknown>) => trendsQuery(series, '2024-01-01', '2024-01-04', extra);

  it('A/B divides element-wise; dividing by zero gives 0', async () => {
    const results = await trends(t, who, range({ trendsFilter: { formula: 'A/B' } }));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ label: 'Formula (A/B)', data: [2, 0, 0, 0], count: 2, action: null });
    expect(results[0].days).toEqual(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04']);
  });

  it('numbers, precedence, powers, lower-case letters and fractions', async () => {
    const [item] = await trends(t, who, range({ trendsFilter: { formulaNodes: [{ formula: '(a + b) * 10 - 2 ** 2 / 4' }] } }));
    expect(item.data).toEqual([59, 19, -1, 9]);
    const [ratio] = await trends(t, who, range({ trendsFilter: { formula: 'B/A' } }));
    expect(ratio.data).toEqual([0.5, 0, 0, 0]);
  });

  it('several formulaNodes give one item each, named by custom_name', async () => {
    const results = await trends(t, who, range({ trendsFilter: { formulaNodes: [{ formula: 'A+B', custom_name: 'Everything' }, { formula: 'A-B' }] } }));
    expect(results.map((r: any) => [r.label, r.data])).toEqual([
      ['Everything', [6, 2, 0, 1]],
      ['Formula (A-B)', [2, 2, 0, -1]],
    ]);
  });

  it('with a breakdown: one formula item per value, a series without it counts zeros', async () => {
    const results = await trends(t, who, range({ trendsFilter: { formula: 'A+B' }, breakdownFilter: { breakdown: '$browser' } }));
    expect(results.map((r: any) => [r.label, r.breakdown_value, r.data])).toEqual([
      ['Formula (A+B)', 'Safari', [3, 1, 0, 1]],
      ['Formula (A+B)', 'Chrome', [3, 1, 0, 0]],
    ]);
  });

  it('with compare: the formula is applied to each period, current first', async () => {
    const results = await trends(t, who, trendsQuery(series, '2024-01-03', '2024-01-04', { trendsFilter: { formulaNodes: [{ formula: 'A+B' }, { formula: 'A*B' }] }, compareFilter: { compare: true } }));
    expect(results.map((r: any) => [r.label, r.compare_label, r.days[0], r.data])).toEqual([
      ['Formula (A+B)', 'current', '2024-01-03', [0, 1]],
      ['Formula (A+B)', 'previous', '2024-01-01', [6, 2]],
      ['Formula (A*B)', 'current', '2024-01-03', [0, 0]],
      ['Formula (A*B)', 'previous', '2024-01-01', [8, 0]],
    ]);
  });

  it('on a total-value display the formula works on the totals', async () => {
    const [item] = await trends(t, who, range({ trendsFilter: { formula: 'A/B', display: 'BoldNumber' } }));
    expect(item.label).toBe('Formula (A/B)');
    expect(item.aggregated_value).toBe(2); // 6 pageviews / 3 signups
    expect(item.data).toBeNull();
    expect(item.count).toBe(0);
  });

  it('a formula naming a series that does not exist is a 400 at that formula', async () => {
    expectValidationError(await rawQuery(t, who, range({ trendsFilter: { formula: 'A/C' } })), 'query.trendsFilter.formula', /C/);
    expectValidationError(await rawQuery(t, who, range({ trendsFilter: { formulaNodes: [{ formula: 'A' }, { formula: 'D+1' }] } })), 'query.trendsFilter.formulaNodes[1].formula', /D/);
    expectValidationError(await rawQuery(t, who, range({ trendsFilter: { formulaNodes: [{ formula: 'A+Z' }] } })), 'query.trendsFilter.formulaNodes[0].formula', /Z/);
  });

  it('a formula that does not parse is a 400 at that formula', async () => {
    expectValidationError(await rawQuery(t, who, range({ trendsFilter: { formula: 'A +* B' } })), 'query.trendsFilter.formula');
    expectValidationError(await rawQuery(t, who, range({ trendsFilter: { formula: 'A; drop table' } })), 'query.trendsFilter.formula');
  });
});
