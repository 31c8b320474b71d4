// Trends maths: what each `math` puts in a bucket, on stories a product team would recognise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, freshProject, journeys, pageviews, posthogTestEvents, trends, trendsQuery } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

const JAN = (day: number, time = '10:00:00') => `2024-01-${String(day).padStart(2, '0')}T${time}Z`;
const DEC = (day: number, time = '10:00:00') => `2023-12-${String(day).padStart(2, '0')}T${time}Z`;

describe('counting events and people', () => {
  let who: Credentials;
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      alice: [ev('$pageview', JAN(1, '09:00:00')), ev('$pageview', JAN(1, '18:00:00')), ev('$pageview', JAN(2))],
      bob: [ev('$pageview', JAN(1)), ev('$autocapture', JAN(1))],
    });
  });

  it('total counts matching events per day, days without events are 0', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews()], '2024-01-01', '2024-01-03'));
    expect(item.data).toEqual([3, 1, 0]);
    expect(item.count).toBe(4);
    expect(item.days).toEqual(['2024-01-01', '2024-01-02', '2024-01-03']);
  });

  it('dau counts each person once per day', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews('dau')], '2024-01-01', '2024-01-03'));
    expect(item.data).toEqual([2, 1, 0]);
  });

  it('an EventsNode without an event counts every event ("All events")', async () => {
    const [item] = await trends(t, who, trendsQuery([{ kind: 'EventsNode', event: null }], '2024-01-01', '2024-01-03'));
    expect(item.data).toEqual([4, 1, 0]);
    expect(item.label).toBe('All events');
  });
});

describe('math validation', () => {
  it('an unknown math is a 400 pointing at that series\' math', async () => {
    const who = await freshProject(t);
    const res = await t.request(who.key, {
      method: 'POST', url: `/api/projects/${who.projectId}/query/`,
      payload: { query: trendsQuery([pageviews(), pageviews('most_popular')], '2024-01-01', '2024-01-04') },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ type: 'validation_error', code: 'invalid_choice', detail: '"most_popular" is not a valid choice.', attr: 'query.series[1].math' });
  });
});

describe('weekly and monthly active users', () => {
  let who: Credentials;
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      carol: [ev('$pageview', DEC(28))], // before the range: still active on Jan 1-3
      alice: [ev('$pageview', JAN(1))],
      bob: [ev('$pageview', JAN(5))],
      dave: [ev('$pageview', DEC(5))], // 30-day window: active until Jan 3
    });
  });

  it('weekly_active counts people active in the 7 days ending on each day, including before date_from', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews('weekly_active')], '2024-01-01', '2024-01-12'));
    //                       1  2  3  4  5  6  7  8  9 10 11 12
    expect(item.data).toEqual([2, 2, 2, 1, 2, 2, 2, 1, 1, 1, 1, 0]);
  });

  it('monthly_active counts people active in the 30 days ending on each day', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews('monthly_active')], '2024-01-01', '2024-01-05'));
    expect(item.data).toEqual([3, 3, 3, 2, 3]);
  });

  it('weekly_active over weekly buckets is plain dau per week', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews('weekly_active')], '2024-01-01', '2024-01-13', { interval: 'week' }));
    // weeks start on Sunday: Dec 31 - Jan 6 (alice, bob), Jan 7 - 13 (nobody)
    expect(item.days).toEqual(['2023-12-31', '2024-01-07']);
    expect(item.data).toEqual([2, 0]);
  });

  it('monthly_active over monthly buckets is plain dau per month', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews('monthly_active')], '2023-12-01', '2024-01-31', { interval: 'month' }));
    expect(item.data).toEqual([2, 2]);
  });

  it('on a total-value display, weekly_active counts people active in the 7 days before date_to', async () => {
    const bold = { trendsFilter: { display: 'BoldNumber' } };
    // date_to Jan 3 23:59:59 → from Dec 27 23:59:59: carol (Dec 28) and alice
    expect((await trends(t, who, trendsQuery([pageviews('weekly_active')], '2023-12-01', '2024-01-03', bold)))[0].aggregated_value).toBe(2);
    // date_to Jan 4 → carol's Dec 28 10:00 is more than 7 days before the end
    expect((await trends(t, who, trendsQuery([pageviews('weekly_active')], '2023-12-01', '2024-01-04', bold)))[0].aggregated_value).toBe(1);
  });
});

describe('unique sessions', () => {
  it('counts distinct $session_id values; events without a session count as one more session, as PostHog\'s count(DISTINCT) does', async () => {
    const who = await freshProject(t);
    await journeys(t, who, {
      alice: [ev('$pageview', JAN(1), { $session_id: 's1' }), ev('$pageview', JAN(1, '11:00:00'), { $session_id: 's1' }), ev('$pageview', JAN(2), { $session_id: 's3' })],
      bob: [ev('$pageview', JAN(1), { $session_id: 's2' }), ev('$pageview', JAN(1)), ev('$pageview', JAN(1, '12:00:00'))],
      carol: [ev('$pageview', JAN(2), { $browser: 'Safari' })],
    });
    const [item] = await trends(t, who, trendsQuery([pageviews('unique_session')], '2024-01-01', '2024-01-02'));
    expect(item.data).toEqual([3, 2]); // Jan 1: s1, s2 and the session-less pair; Jan 2: s3 and carol's
    const [total] = await trends(t, who, trendsQuery([pageviews('unique_session')], '2024-01-01', '2024-01-02', { trendsFilter: { display: 'BoldNumber' } }));
    expect(total.aggregated_value).toBe(4);
    const byBrowser = await trends(t, who, trendsQuery([pageviews('unique_session')], '2024-01-01', '2024-01-02', { breakdownFilter: { breakdown: '$browser' } }));
    expect(byBrowser.map((r) => [r.breakdown_value, r.data])).toEqual([['Safari', [0, 1]], ['$$_posthog_breakdown_null_$$', [3, 1]]]);
  });

  it('one session per day for events without $session_id (PostHog: test_trends_aggregation_unique)', async () => {
    const who = await freshProject(t);
    await journeys(t, who, posthogTestEvents());
    const [item] = await trends(t, who, trendsQuery([pageviews('unique_session')], '2020-01-09', '2020-01-20'));
    expect(item.data).toEqual([1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0]);
  });
});

describe('property maths', () => {
  let who: Credentials;
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      alice: [
        ev('purchase', JAN(1), { price: 10 }),
        ev('purchase', JAN(1, '11:00:00'), { price: 20 }),
        ev('purchase', JAN(1, '12:00:00'), { price: '30' }), // numeric text counts
        ev('purchase', JAN(1, '13:00:00'), { price: 40.0 }),
        ev('purchase', JAN(1, '14:00:00'), { price: 'free' }), // not a number: ignored
        ev('purchase', JAN(1, '15:00:00'), {}), // missing: ignored
        ev('purchase', JAN(2), { price: 'n/a' }), // a bucket with only non-numbers
        ev('purchase', JAN(3), { price: -5.5 }),
      ],
    });
  });
  const value = async (math: string) => (await trends(t, who, trendsQuery([{ kind: 'EventsNode', event: 'purchase', math, math_property: 'price' }], '2024-01-01', '2024-01-04')))[0].data;

  it.each([
    ['sum', [100, 0, -5.5, 0]],
    ['avg', [25, 0, -5.5, 0]],
    ['min', [10, 0, -5.5, 0]],
    ['max', [40, 0, -5.5, 0]],
    ['median', [25, 0, -5.5, 0]],
    ['p75', [32.5, 0, -5.5, 0]],
    ['p90', [37, 0, -5.5, 0]],
    ['p95', [38.5, 0, -5.5, 0]],
    ['p99', [39.7, 0, -5.5, 0]],
  ])('%s of a property ignores non-numbers and gives 0 for empty buckets', async (math, expected) => {
    const data = await value(math);
    expect(data.map((v: number) => Math.round(v * 1000) / 1000)).toEqual(expected);
  });

  it('a property math without math_property is a 400 pointing at it', async () => {
    const res = await t.request(who.key, {
      method: 'POST', url: `/api/projects/${who.projectId}/query/`,
      payload: { query: trendsQuery([{ kind: 'EventsNode', event: 'purchase', math: 'sum' }], '2024-01-01', '2024-01-04') },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ type: 'validation_error', code: 'required', detail: expect.stringMatching(/math_property/), attr: 'query.series[0].math_property' });
  });
});

describe('person-property maths', () => {
  it('sum/avg of a person property uses each event\'s person (current properties)', async () => {
    const who = await freshProject(t);
    await journeys(t, who, {
      alice: [ev('$pageview', JAN(1), { $set: { age: 30 } }), ev('$pageview', JAN(2))],
      bob: [ev('$pageview', JAN(1), { $set: { age: 40 } })],
      carol: [ev('$pageview', JAN(2), { $set: { age: 'unknown' } })],
    });
    const series = (math: string) => pageviews(math, { math_property: 'age', math_property_type: 'person_properties' });
    const [sum, avg, max] = await trends(t, who, trendsQuery([series('sum'), series('avg'), series('max')], '2024-01-01', '2024-01-02'));
    expect(sum.data).toEqual([70, 30]);
    expect(avg.data).toEqual([35, 30]);
    expect(max.data).toEqual([40, 30]);
    // the same key read from the event instead finds nothing
    const [fromEvent] = await trends(t, who, trendsQuery([pageviews('sum', { math_property: 'age' })], '2024-01-01', '2024-01-02'));
    expect(fromEvent.data).toEqual([0, 0]);
  });
});

describe('count per actor', () => {
  let who: Credentials;
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      alice: [ev('$pageview', JAN(1)), ev('$pageview', JAN(1, '11:00:00')), ev('$pageview', JAN(1, '12:00:00')), ev('$pageview', JAN(2))],
      bob: [ev('$pageview', JAN(1))],
    });
  });

  it.each([
    ['avg_count_per_actor', [2, 1, 0]],
    ['min_count_per_actor', [1, 1, 0]],
    ['max_count_per_actor', [3, 1, 0]],
    ['median_count_per_actor', [2, 1, 0]],
    ['p75_count_per_actor', [2.5, 1, 0]],
    ['p90_count_per_actor', [2.8, 1, 0]],
    ['p95_count_per_actor', [2.9, 1, 0]],
    ['p99_count_per_actor', [2.98, 1, 0]],
  ])('%s aggregates each person\'s event count per bucket', async (math, expected) => {
    const [item] = await trends(t, who, trendsQuery([pageviews(math)], '2024-01-01', '2024-01-03'));
    expect(item.data.map((v: number) => Math.round(v * 1000) / 1000)).toEqual(expected);
  });

  it('on a total-value display it aggregates counts over the whole range', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews('avg_count_per_actor')], '2024-01-01', '2024-01-03', { trendsFilter: { display: 'ActionsTable' } }));
    expect(item.aggregated_value).toBe(2.5); // alice 4, bob 1
  });
});

describe('first time for user', () => {
  let who: Credentials;
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      alice: [ev('$pageview', DEC(30), { $browser: 'Chrome' }), ev('$pageview', JAN(2), { $browser: 'Chrome' })], // first before the range
      bob: [ev('$pageview', JAN(2), { $browser: 'Chrome' }), ev('$pageview', JAN(3), { $browser: 'Chrome' })],
      carol: [ev('$pageview', JAN(3), { $browser: 'Safari' }), ev('$pageview', JAN(4), { $browser: 'Chrome' })],
      dave: [ev('$autocapture', JAN(1)), ev('$pageview', JAN(4), { $browser: 'Chrome' })], // other events do not count as first
    });
  });

  it('first_time_for_user counts a person in the bucket of their first-ever matching event', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews('first_time_for_user')], '2024-01-01', '2024-01-04'));
    expect(item.data).toEqual([0, 1, 1, 1]); // bob Jan 2, carol Jan 3, dave Jan 4; alice started in December
  });

  it('first_time_for_user with a filter: the first-ever event must itself match', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews('first_time_for_user', { properties: [{ key: '$browser', value: 'Chrome' }] })], '2024-01-01', '2024-01-04'));
    expect(item.data).toEqual([0, 1, 0, 1]); // carol's first pageview was Safari: not counted
  });

  it('first_matching_event_for_user counts the first event that matches the filters', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews('first_matching_event_for_user', { properties: [{ key: '$browser', value: 'Chrome' }] })], '2024-01-01', '2024-01-04'));
    expect(item.data).toEqual([0, 1, 0, 2]); // carol counted on her first Chrome pageview
  });
});

describe('merged persons', () => {
  it('an $identify merges the anonymous id: dau counts one person, also for events sent before the merge', async () => {
    const who = await freshProject(t);
    await journeys(t, who, {
      'anon-1': [ev('$pageview', JAN(1, '09:00:00')), ev('$pageview', JAN(2, '09:00:00'))],
    });
    await journeys(t, who, {
      'alice@example.com': [ev('$identify', JAN(2, '10:00:00'), { $anon_distinct_id: 'anon-1' }), ev('$pageview', JAN(2, '11:00:00'))],
    });
    const [item] = await trends(t, who, trendsQuery([pageviews('dau'), pageviews()], '2024-01-01', '2024-01-02'));
    expect(item.data).toEqual([1, 1]);
    const [first] = await trends(t, who, trendsQuery([pageviews('first_time_for_user')], '2024-01-01', '2024-01-02'));
    expect(first.data).toEqual([1, 0]);
    const [weekly] = await trends(t, who, trendsQuery([pageviews('weekly_active')], '2024-01-01', '2024-01-02'));
    expect(weekly.data).toEqual([1, 1]);
    const [perActor] = await trends(t, who, trendsQuery([pageviews('max_count_per_actor')], '2024-01-01', '2024-01-02'));
    expect(perActor.data).toEqual([1, 2]);
  });
});
