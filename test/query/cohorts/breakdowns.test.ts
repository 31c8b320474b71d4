// Breakdowns by cohort in trends and funnels, with PostHog's numbers and labels from its tests
// (test_trends.py::test_breakdown_by_cohort and test_breakdown_by_empty_cohort,
// test_trends_query_runner.py's cohort breakdowns and formulas, funnels' test_funnel_cohort_breakdown).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery, trendsQuery, type JourneyEvent } from '../../helpers/journeys.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

const named = (value: string, key = 'name') => ({ type: 'person', key, value, operator: 'exact' });
const byCohort = (breakdown: unknown) => ({ breakdownFilter: { breakdown_type: 'cohort', breakdown } });

async function project(stories: Record<string, JourneyEvent[]>): Promise<Credentials> {
  const who = await t.bootstrap(`breakdowns-${Math.random().toString(36).slice(2)}@example.com`);
  await journeys(t, who, stories);
  return who;
}

async function cohort(who: Credentials, name: string, values: unknown[], type = 'AND'): Promise<number> {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload: { name, filters: { properties: { type, values } } } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const summary = (items: { label: string; count: number; breakdown_value: unknown }[]) => items.map((i) => [i.label, i.breakdown_value, i.count]);

describe('trends broken down by cohort', () => {
  let who: Credentials;
  let c1: number;
  let c2: number;
  let c3: number;
  const at = (d: string) => `2020-01-0${d}T12:00:00Z`;
  beforeAll(async () => {
    who = await project({
      person1: [ev('watched movie', at('1'), { $set: { name: 'person1' } })],
      person2: [ev('watched movie', at('1'), { $set: { name: 'person2' } }), ev('watched movie', at('2')), ev('watched movie', at('2'))],
      person3: [ev('watched movie', at('1'), { $set: { name: 'person3' } }), ev('watched movie', at('2')), ev('watched movie', at('3'))],
      person4: [ev('watched movie', at('5'), { $set: { name: 'person4' } })],
    });
    c1 = await cohort(who, 'cohort1', [named('person1')]);
    c2 = await cohort(who, 'cohort2', [named('person2')]);
    c3 = await cohort(who, 'cohort3', [named('person1'), named('person2')], 'OR');
  });
  const watched = (breakdown: unknown) => trendsQuery([{ kind: 'EventsNode', event: 'watched movie' }], '2019-12-21', '2020-01-04T13:01:01Z', byCohort(breakdown));

  it("test_breakdown_by_cohort: each cohort and all users, in the list's order, labelled with the series", async () => {
    const { results } = await runQuery(t, who, watched([c1, c2, c3, 'all']));
    expect(summary(results)).toEqual([
      ['watched movie - cohort1', c1, 1],
      ['watched movie - cohort2', c2, 3],
      ['watched movie - cohort3', c3, 4],
      ['watched movie - all users', 'all', 7],
    ]);
  });

  it('a list without "all" is one breakdown: persons in two cohorts count in both, ranked by total', async () => {
    const { results } = await runQuery(t, who, watched([c1, c3]));
    expect(summary(results)).toEqual([['cohort3', c3, 4], ['cohort1', c1, 1]]);
  });

  it('one cohort id alone is labelled with its name', async () => {
    const { results } = await runQuery(t, who, watched(c2));
    expect(summary(results)).toEqual([['cohort2', c2, 3]]);
  });

  it("the actors of a cohort's value are that cohort's persons", async () => {
    const res = await t.request(who.key, {
      method: 'POST', url: `/api/projects/${who.projectId}/query/`,
      payload: { query: { kind: 'ActorsQuery', select: ['person'], source: { kind: 'InsightActorsQuery', source: watched([c1, c3]), breakdown: c3, series: 0 } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.map((row: [{ distinct_ids: string[] }]) => row[0].distinct_ids[0]).sort()).toEqual(['person1', 'person2']);
  });

  it('refuses a cohort the project does not have', async () => {
    const missing = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: watched([c1, 999999]) } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ detail: 'Could not find cohort with ID 999999' });
  });

  it('retention broken down by cohort: a row set per cohort, the id as text', async () => {
    const { results } = await runQuery(t, who, {
      kind: 'RetentionQuery',
      dateRange: { date_from: '2020-01-01', date_to: '2020-01-03' },
      retentionFilter: { period: 'Day', totalIntervals: 3, targetEntity: { id: 'watched movie', type: 'events' }, returningEntity: { id: 'watched movie', type: 'events' } },
      ...byCohort([c2, c3]),
    });
    const day0 = (value: string) => results.find((r: { label: string; breakdown_value: string }) => r.label === 'Day 0' && r.breakdown_value === value);
    // cohort2 is person2 (back on day 1); cohort3 is person1 (never back) and person2.
    expect(day0(String(c2)).values.map((v: { count: number }) => v.count)).toEqual([1, 1, 0]);
    expect(day0(String(c3)).values.map((v: { count: number }) => v.count)).toEqual([2, 1, 0]);
  });
});

describe("PostHog's trends fixture (_create_test_events)", () => {
  let who: Credentials;
  let cP1: number;
  let cP2: number;
  const day = (d: number) => `2020-01-${String(d).padStart(2, '0')}T12:00:00Z`;
  beforeAll(async () => {
    const visits = (name: string, pageviews: number[], pageleaves: number[]) => [
      ...pageviews.map((d, i) => ev('$pageview', day(d), i === 0 ? { $set: { name } } : {})),
      ...pageleaves.map((d) => ev('$pageleave', day(d))),
    ];
    who = await project({
      p1: visits('p1', [11, 12, 13, 15, 17, 19], [11, 12, 13]),
      p2: visits('p2', [9, 12], [13]),
      p3: visits('p3', [12], [13]),
      p4: visits('p4', [15], [16]),
    });
    cP1 = await cohort(who, 'cohort', [named('p1')]);
    cP2 = await cohort(who, 'cohort p2', [named('p2')]);
  });
  const both = [{ kind: 'EventsNode', event: '$pageview' }, { kind: 'EventsNode', event: '$pageleave' }];
  const formula = (breakdown: unknown) => trendsQuery(both, '2020-01-09', '2020-01-20', { ...byCohort(breakdown), trendsFilter: { formula: 'A+B' } });

  it('test_trends_breakdowns_cohort', async () => {
    const { results } = await runQuery(t, who, trendsQuery([both[0]], '2020-01-09', '2020-01-20', byCohort([cP1])));
    expect(summary(results)).toEqual([['cohort', cP1, 6]]);
  });

  it('test_formula_with_multi_cohort_breakdown', async () => {
    const { results } = await runQuery(t, who, formula([cP1, cP2]));
    expect(results.map((r: { label: string }) => r.label)).toEqual(['Formula (A+B)', 'Formula (A+B)']);
    const p1 = results.find((r: { breakdown_value: unknown }) => r.breakdown_value === cP1);
    expect(p1.count).toBe(9);
    expect(p1.data).toEqual([0, 0, 2, 2, 2, 0, 1, 0, 1, 0, 1, 0]);
    expect(results.find((r: { breakdown_value: unknown }) => r.breakdown_value === cP2).count).toBe(3);
  });

  it('test_formula_with_multi_cohort_all_breakdown', async () => {
    const { results } = await runQuery(t, who, formula([cP1, 'all']));
    expect(results.map((r: { breakdown_value: unknown; count: number }) => [r.breakdown_value, r.count])).toEqual([[cP1, 9], ['all', 16]]);
    expect(results[1].data).toEqual([1, 0, 2, 4, 4, 0, 2, 1, 1, 0, 1, 0]);
  });
});

it('test_breakdown_by_empty_cohort: "all" alone is everyone, labelled "all users"', async () => {
  const who = await project({ p1: [ev('$pageview', '2020-01-04T12:00:00Z')] });
  const { results } = await runQuery(t, who, trendsQuery([{ kind: 'EventsNode', event: '$pageview' }], '2019-12-21', '2020-01-04T13:01:01Z', byCohort(['all'])));
  expect(summary(results)).toEqual([['all users', 'all', 1]]);
});

describe('funnels broken down by cohort', () => {
  it('test_funnel_cohort_breakdown: all users and the cohort, each with its name and id', async () => {
    const who = await project({ person1: [ev('sign up', '2020-01-02T12:00:00Z', { $set: { key: 'value' } })] });
    const c = await cohort(who, 'test_cohort', [named('value', 'key')]);
    const query = {
      kind: 'FunnelsQuery',
      series: ['sign up', 'play movie', 'buy'].map((event) => ({ kind: 'EventsNode', event })),
      dateRange: { date_from: '2020-01-01', date_to: '2020-01-08' },
      funnelsFilter: { funnelWindowInterval: 7 },
      ...byCohort(['all', c]),
    };
    const { results } = await runQuery(t, who, query);
    expect(results.map((steps: { breakdown: unknown; breakdown_value: unknown; count: number }[]) => [steps[0]!.breakdown, steps[0]!.breakdown_value, steps.map((s) => s.count)]))
      .toEqual([['all users', 0, [1, 0, 0]], ['test_cohort', c, [1, 0, 0]]]);
  });

  it('a person in two cohorts goes through both funnels', async () => {
    const who = await project({
      ann: [ev('a', '2024-03-01T10:00:00Z', { $set: { plan: 'pro', team: 'x' } }), ev('b', '2024-03-01T11:00:00Z')],
      bob: [ev('a', '2024-03-01T10:00:00Z', { $set: { plan: 'pro', team: 'y' } })],
    });
    const pro = await cohort(who, 'pro', [named('pro', 'plan')]);
    const teamX = await cohort(who, 'team x', [named('x', 'team')]);
    const query = {
      kind: 'FunnelsQuery',
      series: [{ kind: 'EventsNode', event: 'a' }, { kind: 'EventsNode', event: 'b' }],
      dateRange: { date_from: '2024-03-01', date_to: '2024-03-02' },
      ...byCohort([pro, teamX]),
    };
    const { results } = await runQuery(t, who, query);
    expect(results.map((steps: { breakdown: string; count: number }[]) => [steps[0]!.breakdown, steps.map((s) => s.count)]))
      .toEqual([['pro', [2, 1]], ['team x', [1, 1]]]);
  });
});
