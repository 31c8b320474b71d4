// Trends date ranges and intervals: which events land in which bucket, for absolute and relative
// dates, every interval, the project's timezone and week start.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, expectValidationError, freshProject, journeys, pageviews, rawQuery, trends, trendsQuery } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

describe('absolute dates', () => {
  let who: Credentials;
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      alice: [
        ev('$pageview', '2023-12-31T23:59:59Z'), // just before
        ev('$pageview', '2024-01-01T00:00:00Z'),
        ev('$pageview', '2024-01-01T10:00:00Z'),
        ev('$pageview', '2024-01-02T13:00:00Z'),
        ev('$pageview', '2024-01-03T23:59:59.900Z'), // last moment of date_to's day
        ev('$pageview', '2024-01-04T00:00:00Z'), // just after
      ],
    });
  });

  it('date_to is inclusive: its whole day is in the range', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews()], '2024-01-01', '2024-01-03'));
    expect(item.days).toEqual(['2024-01-01', '2024-01-02', '2024-01-03']);
    expect(item.labels).toEqual(['1-Jan-2024', '2-Jan-2024', '3-Jan-2024']);
    expect(item.data).toEqual([2, 1, 1]);
    expect(item.filter).toMatchObject({ date_from: '2024-01-01T00:00:00.000Z', date_to: '2024-01-03T23:59:59.999Z' });
  });

  it('datetimes with a day interval still cover whole days', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews()], '2024-01-01T12:00:00', '2024-01-02T12:00:00'));
    expect(item.data).toEqual([2, 1]);
  });

  it('explicitDate uses the exact instants', async () => {
    const [item] = await trends(t, who, { ...trendsQuery([pageviews()], '2024-01-01T05:00:00', '2024-01-02T12:00:00'), dateRange: { date_from: '2024-01-01T05:00:00', date_to: '2024-01-02T12:00:00', explicitDate: true } });
    expect(item.data).toEqual([1, 0]); // only 10:00 on Jan 1; Jan 2 13:00 is after date_to
  });

  it('an inverted range has no buckets', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews()], '2024-01-03', '2024-01-01'));
    expect(item?.data ?? []).toEqual([]);
  });

  it('date_from "all" starts at the project\'s first event', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews()], 'all', '2024-01-04'));
    expect(item.days[0]).toBe('2023-12-31');
    expect(item.data).toEqual([1, 2, 1, 1, 1]);
  });

  it('an unparseable date is a 400 naming the field', async () => {
    expectValidationError(await rawQuery(t, who, trendsQuery([pageviews()], 'last tuesday', '2024-01-03')), 'query.dateRange.date_from');
    expectValidationError(await rawQuery(t, who, trendsQuery([pageviews()], '2024-01-01', '2024-13-45')), 'query.dateRange.date_to');
  });
});

describe('intervals', () => {
  let who: Credentials;
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      alice: [
        ev('$pageview', '2024-01-03T09:15:00Z'),
        ev('$pageview', '2024-01-01T00:30:00Z'),
        ev('$pageview', '2024-01-01T05:10:00Z'),
        ev('$pageview', '2024-01-02T00:00:00Z'),
        ev('$pageview', '2024-01-07T12:00:00Z'), // a Sunday
        ev('$pageview', '2024-02-10T12:00:00Z'),
      ],
    });
  });

  it('hour: an absolute date_to stops at its midnight', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews()], '2024-01-01', '2024-01-02', { interval: 'hour' }));
    expect(item.data).toHaveLength(25);
    expect(item.days.slice(0, 2)).toEqual(['2024-01-01 00:00:00', '2024-01-01 01:00:00']);
    expect(item.labels[5]).toBe('1-Jan 05:00');
    expect(item.data[0]).toBe(1);
    expect(item.data[5]).toBe(1);
    expect(item.data[24]).toBe(1); // 2024-01-02 00:00 exactly
    expect(item.count).toBe(3);
  });

  it('week: weeks start on Sunday by default and the first week is not padded backwards', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews()], '2024-01-02', '2024-01-13', { interval: 'week' }));
    expect(item.days).toEqual(['2023-12-31', '2024-01-07']);
    expect(item.labels).toEqual(['2–6 Jan', '7–13 Jan']);
    // Jan 1 is in the first week's bucket but before date_from: not counted
    expect(item.data).toEqual([2, 1]);
  });

  it('month: buckets are calendar months and include the whole first month', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews()], '2024-01-05', '2024-02-20', { interval: 'month' }));
    expect(item.days).toEqual(['2024-01-01', '2024-02-01']);
    expect(item.labels).toEqual(['Jan 2024', 'Feb 2024']);
    expect(item.data).toEqual([5, 1]);
  });

  it('an unknown interval is a 400 naming it', async () => {
    expectValidationError(await rawQuery(t, who, trendsQuery([pageviews()], '2024-01-01', '2024-01-02', { interval: 'fortnight' })), 'query.interval', /fortnight/, 'invalid_choice');
  });
});

describe('the project timezone and week start', () => {
  it('buckets follow the project timezone: 02:00 UTC is the previous evening in New York', async () => {
    const who = await freshProject(t, { timezone: 'America/New_York' });
    await journeys(t, who, { alice: [ev('$pageview', '2024-01-02T02:00:00Z'), ev('$pageview', '2024-01-02T06:00:00Z')] });
    const [item] = await trends(t, who, trendsQuery([pageviews()], '2024-01-01', '2024-01-02'));
    expect(item.data).toEqual([1, 1]);
    expect(item.filter.date_from).toBe('2024-01-01T00:00:00.000-05:00');
    const [hourly] = await trends(t, who, trendsQuery([pageviews()], '2024-01-01T20:00:00', '2024-01-02T02:00:00', { interval: 'hour' }));
    expect(hourly.days[0]).toBe('2024-01-01 20:00:00');
    expect(hourly.data).toEqual([0, 1, 0, 0, 0, 1, 0]); // 21:00 and 01:00 New York time
    // the same events seen from a UTC project
    const utc = await freshProject(t);
    await journeys(t, utc, { alice: [ev('$pageview', '2024-01-02T02:00:00Z'), ev('$pageview', '2024-01-02T06:00:00Z')] });
    expect((await trends(t, utc, trendsQuery([pageviews()], '2024-01-01', '2024-01-02')))[0].data).toEqual([0, 2]);
  });

  it('daily buckets stay on local midnight across a daylight-saving change, for rolling maths too', async () => {
    const who = await freshProject(t, { timezone: 'America/New_York' });
    // clocks go forward on Sunday 2024-03-10 in New York
    await journeys(t, who, { alice: [ev('$pageview', '2024-03-09T15:00:00Z'), ev('$pageview', '2024-03-11T15:00:00Z')] });
    const [total] = await trends(t, who, trendsQuery([pageviews()], '2024-03-08', '2024-03-12'));
    expect(total.days).toEqual(['2024-03-08', '2024-03-09', '2024-03-10', '2024-03-11', '2024-03-12']);
    expect(total.data).toEqual([0, 1, 0, 1, 0]);
    const [weekly] = await trends(t, who, trendsQuery([pageviews('weekly_active')], '2024-03-08', '2024-03-12'));
    expect(weekly.data).toEqual([0, 1, 1, 1, 1]);
    const [hourly] = await trends(t, who, trendsQuery([pageviews()], '2024-03-10T00:00:00', '2024-03-10T05:00:00', { interval: 'hour' }));
    expect(hourly.days).toEqual(['2024-03-10 00:00:00', '2024-03-10 01:00:00', '2024-03-10 03:00:00', '2024-03-10 04:00:00', '2024-03-10 05:00:00']);
  });

  it('week_start_day 1 starts weeks on Monday', async () => {
    const sunday = await freshProject(t);
    const monday = await freshProject(t, { week_start_day: 1 });
    const story = { alice: [ev('$pageview', '2024-01-07T12:00:00Z'), ev('$pageview', '2024-01-08T12:00:00Z')] }; // Sunday, Monday
    await journeys(t, sunday, story);
    await journeys(t, monday, story);
    const query = trendsQuery([pageviews()], '2024-01-01', '2024-01-14', { interval: 'week' });
    const [s] = await trends(t, sunday, query);
    expect(s.days).toEqual(['2023-12-31', '2024-01-07', '2024-01-14']);
    expect(s.data).toEqual([0, 2, 0]);
    const [m] = await trends(t, monday, query);
    expect(m.days).toEqual(['2024-01-01', '2024-01-08']);
    expect(m.labels).toEqual(['1–7 Jan', '8–14 Jan']);
    expect(m.data).toEqual([1, 1]);
  });
});

describe('relative dates (around the real current time)', () => {
  let who: Credentials;
  const now = DateTime.utc();
  const ago = (d: object) => now.minus(d).toISO()!;
  const today = now.toFormat('yyyy-MM-dd');
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      alice: [ev('$pageview', ago({ days: 2 })), ev('$pageview', ago({ hours: 2 })), ev('$pageview', ago({ days: 10 })), ev('$pageview', ago({ days: 40 }))],
      bob: [ev('visit', ago({ hours: 30 })), ev('visit', ago({ hours: 1 }))],
    });
  });
  const run = (dateRange: object, extra: object = {}) => trends(t, who, { kind: 'TrendsQuery', series: [pageviews()], dateRange, ...extra });

  it('no dateRange means -7d: 8 daily buckets ending today', async () => {
    const [item] = await run({});
    expect(item.data).toHaveLength(8);
    expect(item.days[7]).toBe(today);
    expect(item.days[0]).toBe(now.minus({ days: 7 }).toFormat('yyyy-MM-dd'));
    expect(item.data[5]).toBe(1); // two days ago
    expect(item.data[7] + item.data[6]).toBe(1); // two hours ago: today, or yesterday just after midnight
  });

  it('-Nd, -Nw, -Nm', async () => {
    expect((await run({ date_from: '-3d' }))[0].data).toHaveLength(4);
    const [twoWeeks] = await run({ date_from: '-2w' });
    expect(twoWeeks.data).toHaveLength(15);
    expect(twoWeeks.count).toBe(3);
    const [month] = await run({ date_from: '-1m' });
    expect(month.days[0]).toBe(now.minus({ months: 1 }).toFormat('yyyy-MM-dd'));
    expect(month.count).toBe(3);
    expect((await run({ date_from: '-90d' }))[0].count).toBe(4);
  });

  it('-Nh with an hour interval: buckets from N hours ago to this hour', async () => {
    const [item] = await run({ date_from: '-24h' }, { interval: 'hour' });
    expect(item.data).toHaveLength(25);
    expect(item.data[22]).toBe(1);
    expect(item.count).toBe(1);
  });

  it('-24h with a day interval reads events from exactly 24 hours ago, though its first bucket is a whole day', async () => {
    const [item] = await trends(t, who, { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'visit' }], dateRange: { date_from: '-24h' } });
    expect(item.days).toEqual([now.minus({ hours: 24 }).toFormat('yyyy-MM-dd'), today]);
    expect(item.count).toBe(1);
    const [twoDays] = await trends(t, who, { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'visit' }], dateRange: { date_from: '-48h' }, interval: 'hour' });
    expect(twoDays.count).toBe(2);
  });

  it('dStart, mStart and yStart', async () => {
    const [todayOnly] = await run({ date_from: 'dStart' });
    expect(todayOnly.days).toEqual([today]);
    const [thisMonth] = await run({ date_from: 'mStart' });
    expect(thisMonth.days[0]).toBe(now.toFormat('yyyy-MM-01'));
    expect(thisMonth.data).toHaveLength(now.day);
    const [thisYear] = await run({ date_from: 'yStart' }, { interval: 'month' });
    expect(thisYear.days[0]).toBe(now.toFormat('yyyy-01-01'));
    expect(thisYear.data).toHaveLength(now.month);
  });

  it('date_from "all" starts at the first event', async () => {
    const [item] = await run({ date_from: 'all' });
    expect(item.days[0]).toBe(now.minus({ days: 40 }).toFormat('yyyy-MM-dd'));
    expect(item.count).toBe(4);
  });
});
