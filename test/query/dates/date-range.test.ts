// resolveDateRange: PostHog's QueryDateRange (reference §1.2 and the §12 quirks).
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { MAX_BUCKETS, resolveDateRange } from '../../../src/query/dates/index.js';
import { clockAt, expectValidationError, iso, summary } from './helpers.js';

const utc = clockAt(); // Fri 2020-01-24 13:45:30.500 UTC

describe('defaults and relative ranges (day interval)', () => {
  it('defaults to today 00:00 − 7 days: 8 day buckets, today included', () => {
    const r = resolveDateRange({}, utc, { interval: 'day' });
    expect(summary(r)).toEqual({
      from: '2020-01-17T00:00:00.000Z',
      to: '2020-01-24T23:59:59.999Z',
      eventsFrom: '2020-01-17T00:00:00.000Z',
      count: 8,
    });
    expect(r.interval).toBe('day');
    expect(r.days).toEqual([
      '2020-01-17',
      '2020-01-18',
      '2020-01-19',
      '2020-01-20',
      '2020-01-21',
      '2020-01-22',
      '2020-01-23',
      '2020-01-24',
    ]);
    expect(r.labels[0]).toBe('17-Jan-2020');
    expect(r.labels[7]).toBe('24-Jan-2020');
  });

  it('treats -7d like the default, and null/empty strings as missing', () => {
    const expected = summary(resolveDateRange({}, utc, { interval: 'day' }));
    expect(summary(resolveDateRange({ date_from: '-7d' }, utc, { interval: 'day' }))).toEqual(expected);
    expect(summary(resolveDateRange({ date_from: null, date_to: null }, utc, { interval: 'day' }))).toEqual(expected);
    expect(summary(resolveDateRange({ date_from: '', date_to: ' ' }, utc, { interval: 'day' }))).toEqual(expected);
  });

  it('-24h with a day interval starts at the hour and does not snap the events bound', () => {
    const r = resolveDateRange({ date_from: '-24h' }, utc, { interval: 'day' });
    expect(summary(r)).toEqual({
      from: '2020-01-23T13:00:00.000Z',
      to: '2020-01-24T23:59:59.999Z',
      eventsFrom: '2020-01-23T13:00:00.000Z',
      count: 2,
    });
    expect(r.days).toEqual(['2020-01-23', '2020-01-24']);
  });

  it('dStart is today only; -1dStart..-1dEnd is yesterday only', () => {
    expect(summary(resolveDateRange({ date_from: 'dStart' }, utc, { interval: 'day' }))).toEqual({
      from: '2020-01-24T00:00:00.000Z',
      to: '2020-01-24T23:59:59.999Z',
      eventsFrom: '2020-01-24T00:00:00.000Z',
      count: 1,
    });
    const y = resolveDateRange({ date_from: '-1dStart', date_to: '-1dEnd' }, utc, { interval: 'day' });
    expect(summary(y)).toEqual({
      from: '2020-01-23T00:00:00.000Z',
      to: '2020-01-23T23:59:59.999Z',
      eventsFrom: '2020-01-23T00:00:00.000Z',
      count: 1,
    });
    expect(y.labels).toEqual(['23-Jan-2020']);
  });

  it('mStart covers the month so far', () => {
    const r = resolveDateRange({ date_from: 'mStart' }, utc, { interval: 'day' });
    expect(r.days[0]).toBe('2020-01-01');
    expect(r.days.at(-1)).toBe('2020-01-24');
    expect(r.buckets).toHaveLength(24);
  });

  it('a relative date_to ends at the end of its day', () => {
    const r = resolveDateRange({ date_from: '-14d', date_to: '-7d' }, utc, { interval: 'day' });
    expect(summary(r)).toEqual({
      from: '2020-01-10T00:00:00.000Z',
      to: '2020-01-17T23:59:59.999Z',
      eventsFrom: '2020-01-10T00:00:00.000Z',
      count: 8,
    });
  });
});

describe('absolute ranges', () => {
  it('includes the whole date_to day', () => {
    const r = resolveDateRange({ date_from: '2020-01-09', date_to: '2020-01-12' }, utc, { interval: 'day' });
    expect(summary(r)).toEqual({
      from: '2020-01-09T00:00:00.000Z',
      to: '2020-01-12T23:59:59.999Z',
      eventsFrom: '2020-01-09T00:00:00.000Z',
      count: 4,
    });
    expect(r.labels).toEqual(['9-Jan-2020', '10-Jan-2020', '11-Jan-2020', '12-Jan-2020']);
    expect(r.days).toEqual(['2020-01-09', '2020-01-10', '2020-01-11', '2020-01-12']);
    expect(r.buckets.map(iso)).toEqual([
      '2020-01-09T00:00:00.000Z',
      '2020-01-10T00:00:00.000Z',
      '2020-01-11T00:00:00.000Z',
      '2020-01-12T00:00:00.000Z',
    ]);
  });

  it('keeps an absolute date_from time but snaps the events bound to its day', () => {
    const r = resolveDateRange({ date_from: '2020-01-09T10:30:00', date_to: '2020-01-10T08:00:00' }, utc, {
      interval: 'day',
    });
    expect(summary(r)).toEqual({
      from: '2020-01-09T10:30:00.000Z',
      to: '2020-01-10T23:59:59.999Z',
      eventsFrom: '2020-01-09T00:00:00.000Z',
      count: 2,
    });
  });

  it('explicitDate uses both bounds verbatim', () => {
    const r = resolveDateRange(
      { date_from: '2020-01-09T10:30:00', date_to: '2020-01-10T08:00:00', explicitDate: true },
      utc,
      { interval: 'day' },
    );
    expect(summary(r)).toEqual({
      from: '2020-01-09T10:30:00.000Z',
      to: '2020-01-10T08:00:00.000Z',
      eventsFrom: '2020-01-09T10:30:00.000Z',
      count: 2,
    });
    expect(r.days).toEqual(['2020-01-09', '2020-01-10']);
  });

  it('explicitDate with a relative date_from still truncates it but keeps the events bound exact', () => {
    const r = resolveDateRange({ date_from: '-24h', explicitDate: true }, utc, { interval: 'hour' });
    expect(summary(r)).toEqual({
      from: '2020-01-23T13:00:00.000Z',
      to: '2020-01-24T13:45:30.500Z', // now, not the end of the hour
      eventsFrom: '2020-01-23T13:00:00.000Z',
      count: 25,
    });
  });

  it('an inverted range resolves with no buckets instead of failing', () => {
    const r = resolveDateRange({ date_from: '2020-01-10', date_to: '2020-01-05' }, utc, { interval: 'day' });
    expect(iso(r.dateFrom)).toBe('2020-01-10T00:00:00.000Z');
    expect(iso(r.dateTo)).toBe('2020-01-05T23:59:59.999Z');
    expect(r.buckets).toEqual([]);
    expect(r.labels).toEqual([]);
    expect(r.days).toEqual([]);
  });
});

describe('hour and minute intervals', () => {
  it('an absolute date_to stops at its midnight (quirk)', () => {
    const r = resolveDateRange({ date_from: '2020-01-09', date_to: '2020-01-10' }, utc, { interval: 'hour' });
    expect(summary(r)).toEqual({
      from: '2020-01-09T00:00:00.000Z',
      to: '2020-01-10T00:00:00.000Z',
      eventsFrom: '2020-01-09T00:00:00.000Z',
      count: 25,
    });
    expect(r.labels[0]).toBe('9-Jan 00:00');
    expect(r.labels[13]).toBe('9-Jan 13:00');
    expect(r.days[0]).toBe('2020-01-09 00:00:00');
    expect(r.days.at(-1)).toBe('2020-01-10 00:00:00');
    expect(r.labels.at(-1)).toBe('10-Jan 00:00');
  });

  it('-24h by hour: relative date_to runs to the end of this hour, events from date_from exactly', () => {
    const r = resolveDateRange({ date_from: '-24h' }, utc, { interval: 'hour' });
    expect(summary(r)).toEqual({
      from: '2020-01-23T13:00:00.000Z',
      to: '2020-01-24T13:59:59.999Z',
      eventsFrom: '2020-01-23T13:00:00.000Z',
      count: 25,
    });
  });

  it('-7d by hour truncates date_from to the day', () => {
    const r = resolveDateRange({ date_from: '-7d' }, utc, { interval: 'hour' });
    expect(summary(r)).toEqual({
      from: '2020-01-17T00:00:00.000Z',
      to: '2020-01-24T13:59:59.999Z',
      eventsFrom: '2020-01-17T00:00:00.000Z',
      count: 7 * 24 + 14,
    });
  });

  it('dStart by hour: the hours of today so far', () => {
    const r = resolveDateRange({ date_from: 'dStart' }, utc, { interval: 'hour' });
    expect(r.buckets).toHaveLength(14);
    expect(r.days.at(-1)).toBe('2020-01-24 13:00:00');
  });

  it('minute interval: no truncation, relative date_to ends at the end of the minute', () => {
    const r = resolveDateRange({ date_from: '-1h' }, utc, { interval: 'minute' });
    expect(summary(r)).toEqual({
      from: '2020-01-24T12:45:30.500Z',
      to: '2020-01-24T13:45:59.999Z',
      eventsFrom: '2020-01-24T12:45:30.500Z',
      count: 61,
    });
    expect(r.days[0]).toBe('2020-01-24 12:45:00');
    expect(r.labels[0]).toBe('24-Jan 12:45');
    expect(r.labels.at(-1)).toBe('24-Jan 13:45');
  });

  it('minute interval with absolute bounds keeps date_to and snaps the events bound to the minute', () => {
    const r = resolveDateRange({ date_from: '2020-01-24T10:00:30', date_to: '2020-01-24T10:05' }, utc, {
      interval: 'minute',
    });
    expect(summary(r)).toEqual({
      from: '2020-01-24T10:00:30.000Z',
      to: '2020-01-24T10:05:00.000Z',
      eventsFrom: '2020-01-24T10:00:00.000Z',
      count: 6,
    });
  });

  it('refuses ranges with too many buckets', () => {
    expectValidationError(
      () => resolveDateRange({ date_from: '2015-01-01' }, utc, { interval: 'minute' }),
      'interval',
      new RegExp(String(MAX_BUCKETS)),
    );
  });
});

describe('week interval', () => {
  it('Sunday weeks: buckets on Sundays, labels clipped to the range, events not padded back', () => {
    const r = resolveDateRange({ date_from: '2020-01-01', date_to: '2020-01-31' }, clockAt(undefined, 'UTC', 0), {
      interval: 'week',
    });
    expect(r.days).toEqual(['2019-12-29', '2020-01-05', '2020-01-12', '2020-01-19', '2020-01-26']);
    expect(r.labels).toEqual(['1–4 Jan', '5–11 Jan', '12–18 Jan', '19–25 Jan', '26–31 Jan']);
    expect(iso(r.eventsFrom)).toBe('2020-01-01T00:00:00.000Z');
  });

  it('Monday weeks', () => {
    const r = resolveDateRange({ date_from: '2020-01-01', date_to: '2020-01-31' }, clockAt(undefined, 'UTC', 1), {
      interval: 'week',
    });
    expect(r.days).toEqual(['2019-12-30', '2020-01-06', '2020-01-13', '2020-01-20', '2020-01-27']);
    expect(r.labels).toEqual(['1–5 Jan', '6–12 Jan', '13–19 Jan', '20–26 Jan', '27–31 Jan']);
  });

  it('formats spans across months, years and single days', () => {
    const years = resolveDateRange({ date_from: '2019-12-25', date_to: '2020-01-24' }, utc, { interval: 'week' });
    expect(years.labels).toEqual([
      '25–28 Dec',
      '29-Dec-2019 – 4-Jan-2020',
      '5–11 Jan',
      '12–18 Jan',
      '19–24 Jan',
    ]);
    const months = resolveDateRange({ date_from: '2020-01-20', date_to: '2020-02-10' }, utc, { interval: 'week' });
    expect(months.labels).toEqual(['20–25 Jan', '26-Jan – 1-Feb', '2–8 Feb', '9–10 Feb']);
    const single = resolveDateRange({ date_from: '2020-01-20', date_to: '2020-01-26' }, utc, { interval: 'week' });
    expect(single.labels).toEqual(['20–25 Jan', '26-Jan-2020']);
  });

  it('a relative range snaps the events bound to the day, not the week', () => {
    const r = resolveDateRange({ date_from: '-14d' }, utc, { interval: 'week' });
    expect(summary(r)).toEqual({
      from: '2020-01-10T00:00:00.000Z',
      to: '2020-01-24T23:59:59.999Z',
      eventsFrom: '2020-01-10T00:00:00.000Z',
      count: 3,
    });
    expect(r.days).toEqual(['2020-01-05', '2020-01-12', '2020-01-19']);
    expect(r.labels).toEqual(['10–11 Jan', '12–18 Jan', '19–24 Jan']);
  });
});

describe('month interval', () => {
  it('includes events from the 1st of date_from’s month', () => {
    const r = resolveDateRange({ date_from: '-3m' }, utc, { interval: 'month' });
    expect(summary(r)).toEqual({
      from: '2019-10-24T00:00:00.000Z',
      to: '2020-01-24T23:59:59.999Z',
      eventsFrom: '2019-10-01T00:00:00.000Z',
      count: 4,
    });
    expect(r.labels).toEqual(['Oct 2019', 'Nov 2019', 'Dec 2019', 'Jan 2020']);
    expect(r.days).toEqual(['2019-10-01', '2019-11-01', '2019-12-01', '2020-01-01']);
  });

  it('absolute dates mid-month', () => {
    const r = resolveDateRange({ date_from: '2020-01-15', date_to: '2020-03-10' }, utc, { interval: 'month' });
    expect(iso(r.eventsFrom)).toBe('2020-01-01T00:00:00.000Z');
    expect(r.labels).toEqual(['Jan 2020', 'Feb 2020', 'Mar 2020']);
  });

  it('yStart: the months of this year so far', () => {
    const r = resolveDateRange({ date_from: 'yStart' }, clockAt('2020-05-15T08:00:00Z'), { interval: 'month' });
    expect(r.labels).toEqual(['Jan 2020', 'Feb 2020', 'Mar 2020', 'Apr 2020', 'May 2020']);
    expect(iso(r.dateFrom)).toBe('2020-01-01T00:00:00.000Z');
  });
});

describe('date_from "all"', () => {
  it('starts at the earliest event, snapping only the events bound', () => {
    const earliest = DateTime.fromISO('2020-01-20T15:00:00Z');
    const r = resolveDateRange({ date_from: 'all' }, utc, { interval: 'day', earliest });
    expect(summary(r)).toEqual({
      from: '2020-01-20T15:00:00.000Z',
      to: '2020-01-24T23:59:59.999Z',
      eventsFrom: '2020-01-20T00:00:00.000Z',
      count: 5,
    });
  });

  it('with an hour interval keeps the earliest event as the events bound', () => {
    const earliest = DateTime.fromISO('2020-01-24T10:20:00Z');
    const r = resolveDateRange({ date_from: 'all' }, utc, { interval: 'hour', earliest });
    expect(iso(r.eventsFrom)).toBe('2020-01-24T10:20:00.000Z');
    expect(r.days).toEqual([
      '2020-01-24 10:00:00',
      '2020-01-24 11:00:00',
      '2020-01-24 12:00:00',
      '2020-01-24 13:00:00',
    ]);
  });

  it('without events starts a week before now', () => {
    const r = resolveDateRange({ date_from: 'all' }, utc, { interval: 'day', earliest: null });
    expect(iso(r.dateFrom)).toBe('2020-01-17T13:45:30.500Z');
    expect(r.buckets).toHaveLength(8);
  });

  it('clamps an earliest event before 2015 to 2015-01-01', () => {
    const earliest = DateTime.fromISO('1999-05-05T00:00:00Z');
    const r = resolveDateRange({ date_from: 'all' }, utc, { interval: 'month', earliest });
    expect(iso(r.dateFrom)).toBe('2015-01-01T00:00:00.000Z');
    expect(r.labels[0]).toBe('Jan 2015');
  });

  it('converts the earliest event to the project timezone', () => {
    const earliest = DateTime.fromISO('2020-01-20T02:00:00Z');
    const r = resolveDateRange({ date_from: 'all' }, clockAt(undefined, 'America/New_York'), {
      interval: 'day',
      earliest,
    });
    expect(iso(r.dateFrom)).toBe('2020-01-19T21:00:00.000-05:00');
    expect(r.days[0]).toBe('2020-01-19');
  });
});

describe('exactTimerange', () => {
  it('relative ranges run from exactly now − N to exactly now', () => {
    const r = resolveDateRange({ date_from: '-7d' }, utc, { interval: 'day', exactTimerange: true });
    expect(summary(r)).toEqual({
      from: '2020-01-17T13:45:30.500Z',
      to: '2020-01-24T13:45:30.500Z',
      eventsFrom: '2020-01-17T13:45:30.500Z',
      count: 8,
    });
  });
});

describe('timezones', () => {
  it('America/New_York: "today" is the project’s date, not UTC’s', () => {
    // 2020-01-24 03:00 UTC is 2020-01-23 22:00 EST.
    const r = resolveDateRange({}, clockAt('2020-01-24T03:00:00Z', 'America/New_York'), { interval: 'day' });
    expect(summary(r)).toEqual({
      from: '2020-01-16T00:00:00.000-05:00',
      to: '2020-01-23T23:59:59.999-05:00',
      eventsFrom: '2020-01-16T00:00:00.000-05:00',
      count: 8,
    });
    expect(r.days.at(-1)).toBe('2020-01-23');
  });

  it('Asia/Kolkata: hours align to the local :00 of a +05:30 zone', () => {
    // now = 2020-01-24 01:30 IST
    const r = resolveDateRange({ date_from: '-6h' }, clockAt('2020-01-23T20:00:00Z', 'Asia/Kolkata'), {
      interval: 'hour',
    });
    expect(summary(r)).toEqual({
      from: '2020-01-23T19:00:00.000+05:30',
      to: '2020-01-24T01:59:59.999+05:30',
      eventsFrom: '2020-01-23T19:00:00.000+05:30',
      count: 7,
    });
    expect(r.labels).toEqual([
      '23-Jan 19:00',
      '23-Jan 20:00',
      '23-Jan 21:00',
      '23-Jan 22:00',
      '23-Jan 23:00',
      '24-Jan 00:00',
      '24-Jan 01:00',
    ]);
    expect(r.buckets[0]!.toUTC().toISO()).toBe('2020-01-23T13:30:00.000Z');
  });

  it('Asia/Kolkata: an absolute UTC date_to is converted before its day is completed', () => {
    const kolkata = clockAt(undefined, 'Asia/Kolkata');
    const r = resolveDateRange({ date_from: '2020-01-09', date_to: '2020-01-09T20:00:00Z' }, kolkata, {
      interval: 'day',
    });
    expect(iso(r.dateTo)).toBe('2020-01-10T23:59:59.999+05:30');
    expect(r.days).toEqual(['2020-01-09', '2020-01-10']);
  });

  it('a spring-forward day is one day bucket, and has 23 hour buckets', () => {
    const ny = clockAt(undefined, 'America/New_York');
    const days = resolveDateRange({ date_from: '2020-03-07', date_to: '2020-03-09' }, ny, { interval: 'day' });
    expect(days.buckets.map(iso)).toEqual([
      '2020-03-07T00:00:00.000-05:00',
      '2020-03-08T00:00:00.000-05:00',
      '2020-03-09T00:00:00.000-04:00',
    ]);
    expect(iso(days.dateTo)).toBe('2020-03-09T23:59:59.999-04:00');

    const hours = resolveDateRange({ date_from: '2020-03-08', date_to: '2020-03-08T23:59:59' }, ny, {
      interval: 'hour',
    });
    expect(hours.buckets).toHaveLength(23);
    expect(hours.days.slice(0, 4)).toEqual([
      '2020-03-08 00:00:00',
      '2020-03-08 01:00:00',
      '2020-03-08 03:00:00',
      '2020-03-08 04:00:00',
    ]);
  });

  it('a fall-back day has 25 hour buckets, 01:00 twice', () => {
    const ny = clockAt(undefined, 'America/New_York');
    const hours = resolveDateRange({ date_from: '2020-11-01', date_to: '2020-11-01T23:59:59' }, ny, {
      interval: 'hour',
    });
    expect(hours.buckets).toHaveLength(25);
    expect(hours.days.slice(0, 4)).toEqual([
      '2020-11-01 00:00:00',
      '2020-11-01 01:00:00',
      '2020-11-01 01:00:00',
      '2020-11-01 02:00:00',
    ]);
    expect(hours.buckets.slice(1, 3).map(iso)).toEqual([
      '2020-11-01T01:00:00.000-04:00',
      '2020-11-01T01:00:00.000-05:00',
    ]);
  });

  it('-24h across the DST change counts wall-clock hours', () => {
    const r = resolveDateRange({ date_from: '-24h' }, clockAt('2020-03-09T12:30:00-04:00', 'America/New_York'), {
      interval: 'day',
    });
    expect(iso(r.dateFrom)).toBe('2020-03-08T12:00:00.000-04:00');
    expect(iso(r.eventsFrom)).toBe('2020-03-08T12:00:00.000-04:00');
    expect(r.days).toEqual(['2020-03-08', '2020-03-09']);
  });

  it('accepts a clock in any zone', () => {
    const now = DateTime.fromISO('2020-01-24T15:45:30.500+02:00', { setZone: true });
    const clock = { timezone: 'UTC', weekStartDay: 0 as const, now };
    expect(summary(resolveDateRange({}, clock, { interval: 'day' }))).toEqual(
      summary(resolveDateRange({}, utc, { interval: 'day' })),
    );
  });
});

describe('validation', () => {
  it.each([
    [{ date_from: 'banana' }, 'date_from'],
    [{ date_from: '2020-13-45' }, 'date_from'],
    [{ date_to: 'banana' }, 'date_to'],
    [{ date_to: 'all' }, 'date_to'],
    [{ date_from: "-7d; DROP TABLE events" }, 'date_from'],
    [{ date_from: '-99999999d' }, 'date_from'],
    [{ date_from: '1900-01-01' }, 'date_from'],
    [{ date_from: '-7d', date_to: '2999-01-01' }, 'date_to'],
  ])('%j is refused on %s', (input, attr) => {
    expectValidationError(() => resolveDateRange(input, utc, { interval: 'day' }), attr);
  });
});
