// Trends aggregated by group: `unique_group` (and dau / weekly_active / monthly_active) with
// math_group_type_index count distinct groups of that type; events without one are no group's.
// The story and the expected numbers are PostHog's (test_trends.py: _create_event_count_per_actor_events,
// test_trends_groups_per_day, test_trends_groups_per_day_cumulative, test_weekly_active_groups_daily).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, expectValidationError, freshProject, journeys, legacyTrend, rawQuery, trends, trendsQuery } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

const NULL = '$$_posthog_breakdown_null_$$';
/** `organization` is the project's first group type, so its index is 0. */
const org = (key: string) => ({ $groups: { organization: key } });

let who: Credentials;
beforeAll(async () => {
  who = await freshProject(t);
  await journeys(t, who, {
    anonymous_id: [ev('viewed video', '2020-01-01T00:06:02Z', { color: 'red', ...org('bouba') })],
    blabla: [
      ev('viewed video', '2020-01-01T00:06:02Z', org('bouba')),
      ev('viewed video', '2020-01-05T19:06:34Z', { color: 'blue', ...org('bouba') }),
      ev('viewed video', '2020-01-19T12:00:00Z', org('bouba')),
    ],
    reeree: [ev('viewed video', '2020-01-01T00:06:02Z', { color: 'blue', ...org('bouba') })],
    tintin: [
      ev('sign up', '2020-01-01T00:06:02Z', org('kiki')),
      ev('viewed video', '2020-01-04T23:17:00Z', { color: 'red', ...org('kiki') }),
      ev('viewed video', '2020-01-05T19:06:34Z', { color: 'red' }), // no group here
      ev('viewed video', '2020-01-05T19:06:34Z', { color: 'red', ...org('bouba') }),
      ev('viewed video', '2020-01-05T19:06:34Z', { color: 'blue', ...org('kiki') }),
    ],
    murmur: [ev('sign up', '2020-01-03T19:06:34Z', org('kiki'))],
  });
});

const videos = (math: string, extra: Record<string, unknown> = {}) => ({ kind: 'EventsNode', event: 'viewed video', math, math_group_type_index: 0, ...extra });
const WEEK = ['2019-12-30', '2020-01-06'] as const;

describe('unique_group', () => {
  it('counts distinct groups per day; an event without a group of that type counts for none (PostHog: test_trends_groups_per_day)', async () => {
    const [item] = await trends(t, who, trendsQuery([videos('unique_group')], ...WEEK));
    expect(item.label).toBe('viewed video');
    expect(item.data).toEqual([0, 0, 1, 0, 0, 1, 2, 0]);
    expect(item.action).toMatchObject({ math: 'unique_group', math_group_type_index: 0 });
  });

  it('cumulative counts each group once, on its first day (PostHog: test_trends_groups_per_day_cumulative)', async () => {
    const [item] = await trends(t, who, trendsQuery([videos('unique_group')], ...WEEK, { trendsFilter: { display: 'ActionsLineGraphCumulative' } }));
    expect(item.data).toEqual([0, 0, 1, 1, 1, 2, 2, 2]);
  });

  it('a total-value display counts the groups of the whole range once each', async () => {
    const [item] = await trends(t, who, trendsQuery([videos('unique_group')], ...WEEK, { trendsFilter: { display: 'BoldNumber' } }));
    expect(item.aggregated_value).toBe(2);
  });

  it('within each breakdown value', async () => {
    const results = await trends(t, who, trendsQuery([videos('unique_group')], ...WEEK, { breakdownFilter: { breakdown: 'color' } }));
    expect(results.map((r) => [r.breakdown_value, r.data])).toEqual([
      ['blue', [0, 0, 1, 0, 0, 0, 2, 0]],
      ['red', [0, 0, 1, 0, 0, 1, 1, 0]],
      [NULL, [0, 0, 1, 0, 0, 0, 0, 0]],
    ]);
  });

  it('beside a person count of the same events, each series counts its own actors', async () => {
    const [groups, persons, events] = await trends(t, who, trendsQuery([videos('unique_group'), { kind: 'EventsNode', event: 'viewed video', math: 'dau' }, { kind: 'EventsNode', event: 'viewed video' }], ...WEEK));
    expect(groups.data).toEqual([0, 0, 1, 0, 0, 1, 2, 0]);
    expect(persons.data).toEqual([0, 0, 3, 0, 0, 1, 2, 0]);
    expect(events.data).toEqual([0, 0, 3, 0, 0, 1, 4, 0]);
  });

  it('in formulas and compared periods', async () => {
    const [ratio] = await trends(t, who, trendsQuery([{ kind: 'EventsNode', event: 'viewed video' }, videos('unique_group')], ...WEEK, { trendsFilter: { formula: 'A/B' } }));
    expect(ratio.data).toEqual([0, 0, 3, 0, 0, 1, 2, 0]);
    const [current, previous] = await trends(t, who, trendsQuery([videos('unique_group')], '2020-01-04', '2020-01-05', { compareFilter: { compare: true } }));
    expect(current.data).toEqual([1, 2]);
    expect(previous.data).toEqual([0, 0]); // Jan 2-3: no videos
  });
});

describe('active groups', () => {
  it('weekly_active with math_group_type_index counts groups active in the 7 days ending on each day (PostHog: test_weekly_active_groups_daily)', async () => {
    const [item] = await trends(t, who, trendsQuery([videos('weekly_active')], '2020-01-08', '2020-01-19'));
    expect(item.data).toEqual([2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('dau with math_group_type_index counts groups per day', async () => {
    const [item] = await trends(t, who, trendsQuery([videos('dau')], ...WEEK));
    expect(item.data).toEqual([0, 0, 1, 0, 0, 1, 2, 0]);
  });
});

describe('the legacy endpoint', () => {
  it('reads math_group_type_index from each entity (PostHog: test_trends_groups_per_day)', async () => {
    const res = await legacyTrend(t, who, { date_from: WEEK[0], date_to: WEEK[1], events: [{ id: 'viewed video', math: 'unique_group', math_group_type_index: 0 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result[0].data).toEqual([0, 0, 1, 0, 0, 1, 2, 0]);
  });

  it('aggregation_group_type_index 0 means users there, as in the spec; another index is refused by name', async () => {
    const users = await legacyTrend(t, who, { date_from: WEEK[0], date_to: WEEK[1], events: [{ id: 'viewed video', math: 'dau' }], aggregation_group_type_index: 0 });
    expect(users.statusCode, users.body).toBe(200);
    expect(users.json().result[0].data).toEqual([0, 0, 3, 0, 0, 1, 2, 0]);
    const groups = await legacyTrend(t, who, { date_from: WEEK[0], date_to: WEEK[1], events: [{ id: 'viewed video', math: 'dau' }], aggregation_group_type_index: 1 });
    expectValidationError(groups, 'aggregation_group_type_index', /math_group_type_index/);
  });

  it('errors name the entity field', async () => {
    const res = await legacyTrend(t, who, { events: [{ id: 'viewed video', math: 'unique_group' }] });
    expectValidationError(res, 'events[0].math_group_type_index', /unique_group/, 'required');
  });
});

describe('validation', () => {
  it('unique_group without a group type index is a 400 naming it', async () => {
    const res = await rawQuery(t, who, trendsQuery([{ kind: 'EventsNode', event: 'viewed video', math: 'unique_group' }], ...WEEK));
    expectValidationError(res, 'query.series[0].math_group_type_index', /math_group_type_index/, 'required');
  });

  it('a group type index outside 0-4 is a 400', async () => {
    const res = await rawQuery(t, who, trendsQuery([videos('unique_group', { math_group_type_index: 5 })], ...WEEK));
    expectValidationError(res, 'query.series[0].math_group_type_index', undefined, 'max_value');
  });

  it.each(['total', 'sum', 'avg_count_per_actor', 'first_time_for_user'])('math_group_type_index with %s (which counts no groups) is a 400, not ignored', async (math) => {
    const res = await rawQuery(t, who, trendsQuery([videos(math, { math_property: 'n' })], ...WEEK));
    expectValidationError(res, 'query.series[0].math_group_type_index', new RegExp(math));
  });

  it('a query-level aggregation_group_type_index is a 400 pointing at series maths, not ignored', async () => {
    const res = await rawQuery(t, who, trendsQuery([videos('unique_group')], ...WEEK, { aggregation_group_type_index: 0 }));
    expectValidationError(res, 'query.aggregation_group_type_index', /unique_group/);
    const unset = await rawQuery(t, who, trendsQuery([videos('unique_group')], ...WEEK, { aggregation_group_type_index: null }));
    expect(unset.statusCode, unset.body).toBe(200);
  });
});
