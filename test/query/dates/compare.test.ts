// previousPeriod: PostHog's compare periods (reference §1.4), kludges included.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  type CompareOptions,
  type DateRangeInput,
  previousPeriod,
  resolveDateRange,
} from '../../../src/query/dates/index.js';
import { clockAt, expectValidationError, summary } from './helpers.js';

const utc = clockAt(); // Fri 2020-01-24 13:45:30.500 UTC

function both(input: DateRangeInput, options: CompareOptions, clock = utc) {
  const current = resolveDateRange(input, clock, options);
  return { current, previous: previousPeriod(current, input, clock, options) };
}

describe('previous period (compare without compare_to)', () => {
  it('absolute 2020-01-15..19 → 2020-01-10..14', () => {
    const { current, previous } = both({ date_from: '2020-01-15', date_to: '2020-01-19' }, { interval: 'day' });
    expect(current.buckets).toHaveLength(5);
    expect(summary(previous)).toEqual({
      from: '2020-01-10T00:00:00.000Z',
      to: '2020-01-14T23:59:59.999Z',
      eventsFrom: '2020-01-10T00:00:00.000Z',
      count: 5,
    });
    expect(previous.labels).toEqual(['10-Jan-2020', '11-Jan-2020', '12-Jan-2020', '13-Jan-2020', '14-Jan-2020']);
    expect(previous.days[0]).toBe('2020-01-10');
  });

  it('-7d (8 days) is compared with the 8 days one week earlier, thanks to the +1 day kludge', () => {
    const { current, previous } = both({ date_from: '-7d' }, { interval: 'day' });
    expect(current.days[0]).toBe('2020-01-17');
    expect(current.days.at(-1)).toBe('2020-01-24');
    expect(summary(previous)).toEqual({
      from: '2020-01-10T00:00:00.000Z',
      to: '2020-01-17T23:59:59.999Z',
      eventsFrom: '2020-01-10T00:00:00.000Z',
      count: 8,
    });
    expect(previous.days).toEqual([
      '2020-01-10',
      '2020-01-11',
      '2020-01-12',
      '2020-01-13',
      '2020-01-14',
      '2020-01-15',
      '2020-01-16',
      '2020-01-17',
    ]);
  });

  it('a missing date_from counts as -7d', () => {
    const { previous } = both({}, { interval: 'day' });
    expect(summary(previous).from).toBe('2020-01-10T00:00:00.000Z');
    expect(previous.buckets).toHaveLength(8);
  });

  it('-14d also gets the kludge', () => {
    const { current, previous } = both({ date_from: '-14d' }, { interval: 'day' });
    expect(current.buckets).toHaveLength(15);
    expect(summary(previous)).toEqual({
      from: '2019-12-27T00:00:00.000Z',
      to: '2020-01-10T23:59:59.999Z',
      eventsFrom: '2019-12-27T00:00:00.000Z',
      count: 15,
    });
  });

  it('-30d does not (30 % 7 != 0): the previous period overlaps by a day', () => {
    const { previous } = both({ date_from: '-30d' }, { interval: 'day' });
    expect(summary(previous)).toMatchObject({ from: '2019-11-24T00:00:00.000Z', to: '2019-12-24T23:59:59.999Z' });
  });

  it('a relative date_to switches the kludge off', () => {
    const { current, previous } = both({ date_from: '-7d', date_to: '-1d' }, { interval: 'day' });
    expect(current.buckets).toHaveLength(7);
    expect(summary(previous)).toMatchObject({ from: '2020-01-10T00:00:00.000Z', to: '2020-01-16T23:59:59.999Z' });
  });

  it('an absolute date_to leaves it on (PostHog checks only for a relative date_to)', () => {
    const { previous } = both({ date_from: '-7d', date_to: '2020-01-24' }, { interval: 'day' });
    expect(summary(previous)).toMatchObject({ from: '2020-01-10T00:00:00.000Z', to: '2020-01-17T23:59:59.999Z' });
  });

  it('-1w is not a day delta: no kludge', () => {
    const { current, previous } = both({ date_from: '-1w' }, { interval: 'day' });
    expect(current.days[0]).toBe('2020-01-17');
    expect(summary(previous)).toMatchObject({ from: '2020-01-09T00:00:00.000Z', to: '2020-01-16T23:59:59.999Z' });
  });

  it('hour interval keeps date_from’s time of day and date_to’s minutes', () => {
    const { current, previous } = both({ date_from: '-24h' }, { interval: 'hour' });
    expect(summary(current)).toMatchObject({ from: '2020-01-23T13:00:00.000Z', to: '2020-01-24T13:59:59.999Z' });
    expect(summary(previous)).toEqual({
      from: '2020-01-22T13:00:00.000Z',
      to: '2020-01-23T13:59:59.999Z',
      eventsFrom: '2020-01-22T13:00:00.000Z', // relative + hour: no snapping
      count: 25,
    });
    expect(previous.labels[0]).toBe('22-Jan 13:00');
  });

  it('minute interval: previous ends where the current starts', () => {
    const { previous } = both({ date_from: '-1h' }, { interval: 'minute' });
    expect(summary(previous)).toEqual({
      // diff = 13:45:59.999 − 12:45:30.500; no snapping for minutes
      from: '2020-01-24T11:45:01.001Z',
      to: '2020-01-24T12:45:30.500Z',
      eventsFrom: '2020-01-24T11:45:01.001Z',
      count: 61,
    });
  });

  it('week labels are clipped to the previous period', () => {
    const { previous } = both({ date_from: '2020-01-15', date_to: '2020-01-28' }, { interval: 'week' });
    expect(summary(previous)).toEqual({
      from: '2020-01-01T00:00:00.000Z',
      to: '2020-01-14T23:59:59.999Z',
      eventsFrom: '2020-01-01T00:00:00.000Z',
      count: 3,
    });
    expect(previous.labels).toEqual(['1–4 Jan', '5–11 Jan', '12–14 Jan']);
  });

  it('month interval snaps the previous events bound to its month start', () => {
    const { previous } = both({ date_from: '-1m' }, { interval: 'month' });
    expect(summary(previous)).toEqual({
      // current 2019-12-24..2020-01-24 is 31 days + 23:59:59.999 long
      from: '2019-11-22T00:00:00.000Z',
      to: '2019-12-23T23:59:59.999Z',
      eventsFrom: '2019-11-01T00:00:00.000Z',
      count: 2,
    });
    expect(previous.labels).toEqual(['Nov 2019', 'Dec 2019']);
  });

  it('"all" ends the previous period just before the first event', () => {
    const earliest = DateTime.fromISO('2020-01-20T15:00:00Z');
    const { previous } = both({ date_from: 'all' }, { interval: 'day', earliest });
    expect(summary(previous)).toEqual({
      from: '2020-01-16T06:00:00.000Z',
      to: '2020-01-20T14:59:59.999Z',
      eventsFrom: '2020-01-16T00:00:00.000Z',
      count: 5,
    });
  });

  it('works in the project timezone', () => {
    const ny = clockAt('2020-01-24T03:00:00Z', 'America/New_York'); // 2020-01-23 22:00 EST
    const { current, previous } = both({ date_from: '-7d' }, { interval: 'day' }, ny);
    expect(summary(current)).toMatchObject({
      from: '2020-01-16T00:00:00.000-05:00',
      to: '2020-01-23T23:59:59.999-05:00',
    });
    expect(summary(previous)).toMatchObject({
      from: '2020-01-09T00:00:00.000-05:00',
      to: '2020-01-16T23:59:59.999-05:00',
      count: 8,
    });
  });

  it('crossing a DST change keeps local midnights (wall-clock arithmetic)', () => {
    const ny = clockAt('2020-03-12T15:00:00Z', 'America/New_York');
    const { current, previous } = both({ date_from: '-7d' }, { interval: 'day' }, ny);
    expect(summary(current)).toMatchObject({
      from: '2020-03-05T00:00:00.000-05:00',
      to: '2020-03-12T23:59:59.999-04:00',
    });
    expect(summary(previous)).toMatchObject({
      from: '2020-02-27T00:00:00.000-05:00',
      to: '2020-03-05T23:59:59.999-05:00',
      count: 8,
    });
  });
});

describe('compare_to', () => {
  it('-2d: 2020-01-15..19 → 2020-01-13..17', () => {
    const { previous } = both(
      { date_from: '2020-01-15', date_to: '2020-01-19' },
      { interval: 'day', compareTo: '-2d' },
    );
    expect(summary(previous)).toEqual({
      from: '2020-01-13T00:00:00.000Z',
      to: '2020-01-17T23:59:59.999Z',
      eventsFrom: '2020-01-13T00:00:00.000Z',
      count: 5,
    });
    expect(previous.labels[0]).toBe('13-Jan-2020');
  });

  it('-1w with -7d: the 8 days a week earlier', () => {
    const { previous } = both({ date_from: '-7d' }, { interval: 'day', compareTo: '-1w' });
    expect(summary(previous)).toMatchObject({
      from: '2020-01-10T00:00:00.000Z',
      to: '2020-01-17T23:59:59.999Z',
      count: 8,
    });
  });

  it('-1m with human-friendly periods is 4 weeks', () => {
    const input = { date_from: '2020-01-15', date_to: '2020-01-19' };
    expect(summary(both(input, { interval: 'day', compareTo: '-1m' }).previous).from).toBe('2019-12-15T00:00:00.000Z');
    expect(
      summary(both(input, { interval: 'day', compareTo: '-1m', humanFriendlyComparisonPeriods: true }).previous).from,
    ).toBe('2019-12-18T00:00:00.000Z');
  });

  it('hour interval keeps the exact length', () => {
    const { previous } = both({ date_from: '-24h' }, { interval: 'hour', compareTo: '-1w' });
    expect(summary(previous)).toMatchObject({
      from: '2020-01-16T13:00:00.000Z',
      to: '2020-01-17T13:59:59.999Z',
      count: 25,
    });
  });

  it('an empty compare_to means the plain previous period', () => {
    const { previous } = both({ date_from: '-7d' }, { interval: 'day', compareTo: '' });
    expect(summary(previous).from).toBe('2020-01-10T00:00:00.000Z');
  });

  it.each(['banana', 'all', '-1D', "-1w' OR 1=1", '-99999y'])('refuses compare_to %j', (compareTo) => {
    expectValidationError(() => both({ date_from: '-7d' }, { interval: 'day', compareTo }), 'compare_to');
  });
});
