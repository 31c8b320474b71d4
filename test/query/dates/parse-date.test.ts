// parseDate: PostHog's relative_date_parse_with_delta_mapping (reference §1.1), garbage rejected.
import { describe, expect, it } from 'vitest';
import { parseDate } from '../../../src/query/dates/index.js';
import { clockAt, expectValidationError, iso } from './helpers.js';

const utc = clockAt();
const parse = (input: string, alwaysTruncate = false, clock = utc) =>
  parseDate(input, clock, { attr: 'date_from', alwaysTruncate });
const at = (input: string, alwaysTruncate = false, clock = utc) => iso(parse(input, alwaysTruncate, clock).value);

describe('relative forms (now = Fri 2020-01-24 13:45:30.500 UTC)', () => {
  it.each([
    ['-7d', '2020-01-17T13:45:30.500Z'],
    ['7d', '2020-01-17T13:45:30.500Z'], // the minus sign is decorative
    ['-24h', '2020-01-23T13:45:30.500Z'],
    ['-2w', '2020-01-10T13:45:30.500Z'],
    ['-1m', '2019-12-24T13:45:30.500Z'],
    ['-1y', '2019-01-24T13:45:30.500Z'],
    ['-30M', '2020-01-24T13:15:30.500Z'],
    ['-90s', '2020-01-24T13:44:00.500Z'],
    ['-1q', '2019-10-25T13:45:30.500Z'], // 13 weeks = 91 days
    ['-0d', '2020-01-24T13:45:30.500Z'],
    ['d', '2020-01-24T13:45:30.500Z'],
  ])('%s → %s', (input, expected) => {
    expect(at(input)).toBe(expected);
  });

  it('reports the delta mapping and position', () => {
    expect(parse('-7d')).toMatchObject({ delta: { days: 7 }, position: null });
    expect(parse('-1q').delta).toEqual({ weeks: 13 });
    expect(parse('d').delta).toEqual({});
    expect(parse('-1dStart')).toMatchObject({
      delta: { days: 1, hour: 0, minute: 0, second: 0, millisecond: 0 },
      position: 'Start',
    });
    expect(parse('2020-01-09')).toMatchObject({ delta: null, position: null });
  });

  it('truncates to the start of the day, or of the hour for hour deltas, when asked', () => {
    expect(at('-7d', true)).toBe('2020-01-17T00:00:00.000Z');
    expect(at('-24h', true)).toBe('2020-01-23T13:00:00.000Z');
    expect(at('-1m', true)).toBe('2019-12-24T00:00:00.000Z');
    expect(at('-30M', true)).toBe('2020-01-24T00:00:00.000Z'); // minutes are not hours
  });

  it('applies Start/End positions', () => {
    expect(at('dStart')).toBe('2020-01-24T00:00:00.000Z');
    expect(at('-1dStart')).toBe('2020-01-23T00:00:00.000Z');
    expect(at('-1dEnd')).toBe('2020-01-23T23:59:59.999Z');
    expect(at('dEnd')).toBe('2020-01-24T23:59:59.999Z');
    expect(at('hStart')).toBe('2020-01-24T13:00:00.000Z');
    expect(at('-1hEnd')).toBe('2020-01-24T12:59:59.999Z');
    // mStart/yStart only set the date; the time stays until truncation.
    expect(at('mStart')).toBe('2020-01-01T13:45:30.500Z');
    expect(at('mStart', true)).toBe('2020-01-01T00:00:00.000Z');
    expect(at('-1mStart', true)).toBe('2019-12-01T00:00:00.000Z');
    expect(at('mEnd')).toBe('2020-01-31T13:45:30.500Z');
    expect(at('yStart', true)).toBe('2020-01-01T00:00:00.000Z');
    expect(at('-1yStart', true)).toBe('2019-01-01T00:00:00.000Z');
  });

  it('clamps mEnd to the month end and keeps the yEnd quirk (day 31 of the current month)', () => {
    const march31 = clockAt('2020-03-31T10:00:00Z');
    expect(at('-1mEnd', false, march31)).toBe('2020-02-29T10:00:00.000Z');
    expect(at('-1m', false, march31)).toBe('2020-02-29T10:00:00.000Z');
    const feb10 = clockAt('2020-02-10T10:00:00Z');
    expect(at('yEnd', false, feb10)).toBe('2020-02-29T10:00:00.000Z');
    expect(at('-1yEnd', false, feb10)).toBe('2019-02-28T10:00:00.000Z');
  });

  it('truncates hStart to the day (no hour delta) but -1hStart to the hour, as PostHog does', () => {
    expect(at('hStart', true)).toBe('2020-01-24T00:00:00.000Z');
    expect(at('-1hStart', true)).toBe('2020-01-24T12:00:00.000Z');
  });

  it('supports wStart per week start day and qStart', () => {
    expect(at('wStart', true, clockAt(undefined, 'UTC', 0))).toBe('2020-01-19T00:00:00.000Z');
    expect(at('wStart', true, clockAt(undefined, 'UTC', 1))).toBe('2020-01-20T00:00:00.000Z');
    expect(at('-1wStart', true, clockAt(undefined, 'UTC', 1))).toBe('2020-01-13T00:00:00.000Z');
    expect(at('qStart', true)).toBe('2020-01-01T00:00:00.000Z');
    expect(at('-1qStart', true)).toBe('2019-10-01T00:00:00.000Z');
  });

  it('uses human-friendly comparison periods when asked (compare_to)', () => {
    const hf = (input: string) =>
      iso(parseDate(input, utc, { attr: 'compare_to', humanFriendlyComparisonPeriods: true }).value);
    expect(hf('-1m')).toBe('2019-12-27T13:45:30.500Z'); // 4 weeks
    expect(hf('-1y')).toBe('2019-01-25T13:45:30.500Z'); // 52 weeks
  });

  it('takes an explicit reference instant', () => {
    const value = parseDate('-2d', utc, { attr: 'compare_to', now: utc.now.minus({ days: 9 }) }).value;
    expect(iso(value)).toBe('2020-01-13T13:45:30.500Z');
  });

  it('shifts on the wall clock across a DST change, as Python does', () => {
    // 2020-03-08 02:00 EST → 03:00 EDT. Python subtracts 24 wall-clock hours.
    const ny = clockAt('2020-03-09T12:30:00-04:00', 'America/New_York');
    expect(at('-24h', false, ny)).toBe('2020-03-08T12:30:00.000-04:00');
    expect(at('-24h', true, ny)).toBe('2020-03-08T12:00:00.000-04:00');
    expect(at('-2d', true, ny)).toBe('2020-03-07T00:00:00.000-05:00');
  });

  it('works in the project timezone, not UTC', () => {
    // 2020-01-23 20:00 UTC is already the 24th in Kolkata.
    const kolkata = clockAt('2020-01-23T20:00:00Z', 'Asia/Kolkata');
    expect(at('dStart', false, kolkata)).toBe('2020-01-24T00:00:00.000+05:30');
    expect(at('-1dStart', false, kolkata)).toBe('2020-01-23T00:00:00.000+05:30');
  });
});

describe('absolute dates', () => {
  const ny = clockAt(undefined, 'America/New_York');
  const kolkata = clockAt(undefined, 'Asia/Kolkata');

  it.each([
    ['2020-01-09', '2020-01-09T00:00:00.000-05:00'],
    ['2021-1-1', '2021-01-01T00:00:00.000-05:00'],
    ['2020-01-09T12:34', '2020-01-09T12:34:00.000-05:00'],
    ['2020-01-09T12', '2020-01-09T12:00:00.000-05:00'],
    ['2020-01-09 12:34:56', '2020-01-09T12:34:56.000-05:00'],
    ['2020-01-09T12:34:56.123456', '2020-01-09T12:34:56.123-05:00'],
    ['2020-01-09T12:00:00Z', '2020-01-09T07:00:00.000-05:00'],
    ['2020-01-09T12:00:00+02:00', '2020-01-09T05:00:00.000-05:00'],
    ['2020-01-09T12:00:00-0330', '2020-01-09T10:30:00.000-05:00'],
    ['2020-07-01', '2020-07-01T00:00:00.000-04:00'],
  ])('%s (naive = project tz, offsets converted) → %s', (input, expected) => {
    expect(at(input, false, ny)).toBe(expected);
  });

  it('converts offsets to a half-hour zone', () => {
    expect(at('2020-01-09T00:00:00Z', false, kolkata)).toBe('2020-01-09T05:30:00.000+05:30');
  });

  it('is never truncated', () => {
    expect(at('2020-01-09T12:34', true, ny)).toBe('2020-01-09T12:34:00.000-05:00');
  });

  it('moves a time inside the spring-forward gap forward', () => {
    expect(at('2020-03-08T02:30', false, ny)).toBe('2020-03-08T03:30:00.000-04:00');
  });
});

describe('rejections', () => {
  it.each([
    'banana',
    '2020-13-45',
    '2020-02-30',
    '2020-01-09T25:00',
    '2020-01-09T12:60',
    '2020-01-09T12:00:00+25:00',
    "2020-01-01'; DROP TABLE events; --",
    "-7d' OR 1=1",
    '7 days',
    '-7D', // PostHog reads uppercase kinds other than M as "now"; we refuse them
    '-1Y',
    '+7d',
    '--7d',
    '-7dStartx',
    'now',
    '2020/01/09',
    '20200109',
  ])('rejects %j', (input) => {
    expectValidationError(() => parse(input), 'date_from', /Invalid date/);
  });

  it.each(['-99999999d', '-300y', '-9999999999d', '1969-12-31', '2201-01-01', '0001-01-01'])(
    'rejects the out-of-range %j',
    (input) => {
      expectValidationError(() => parse(input), 'date_from', /(out of range|Invalid date)/);
    },
  );

  it('refuses Start/End where PostHog gives it no meaning', () => {
    for (const input of ['sStart', '-5MStart', 'wEnd', 'qEnd']) {
      expectValidationError(() => parse(input), 'date_from', /only supported/);
    }
  });

  it('names the field it was given', () => {
    expectValidationError(() => parseDate('banana', utc, { attr: 'date_to' }), 'date_to');
    expectValidationError(() => parseDate('banana', utc, { attr: 'compare_to' }), 'compare_to');
  });

  it('keeps the boundaries of the accepted range', () => {
    expect(at('1970-01-01')).toBe('1970-01-01T00:00:00.000Z');
    expect(at('2200-12-31T23:59:59')).toBe('2200-12-31T23:59:59.000Z');
  });
});
