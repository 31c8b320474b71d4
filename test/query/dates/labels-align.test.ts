// Alignment, bucket stepping and the label/day formats on their own (reference §1.2, §1.3).
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  alignToInterval,
  bucketStarts,
  formatBucketDay,
  formatBucketLabel,
  formatSqlDateTime,
  formatWeekSpan,
  INTERVALS,
  MAX_BUCKETS,
} from '../../../src/query/dates/index.js';
import { expectValidationError, iso } from './helpers.js';

const at = (s: string, zone = 'UTC') => DateTime.fromISO(s, { zone });

describe('alignToInterval', () => {
  const t = at('2020-01-22T13:45:30.500'); // a Wednesday

  it.each([
    ['minute', 0, '2020-01-22T13:45:00.000Z'],
    ['hour', 0, '2020-01-22T13:00:00.000Z'],
    ['day', 0, '2020-01-22T00:00:00.000Z'],
    ['week', 0, '2020-01-19T00:00:00.000Z'],
    ['week', 1, '2020-01-20T00:00:00.000Z'],
    ['month', 0, '2020-01-01T00:00:00.000Z'],
  ] as const)('%s (week start %i) → %s', (interval, weekStartDay, expected) => {
    expect(iso(alignToInterval(t, interval, weekStartDay))).toBe(expected);
  });

  it('a Sunday starts its own Sunday week but belongs to the previous Monday week', () => {
    const sunday = at('2020-01-19T10:00');
    expect(iso(alignToInterval(sunday, 'week', 0))).toBe('2020-01-19T00:00:00.000Z');
    expect(iso(alignToInterval(sunday, 'week', 1))).toBe('2020-01-13T00:00:00.000Z');
    const monday = at('2020-01-20T10:00');
    expect(iso(alignToInterval(monday, 'week', 0))).toBe('2020-01-19T00:00:00.000Z');
    expect(iso(alignToInterval(monday, 'week', 1))).toBe('2020-01-20T00:00:00.000Z');
  });

  it('aligns on the project’s wall clock', () => {
    const kolkata = at('2020-01-22T00:10', 'Asia/Kolkata');
    expect(iso(alignToInterval(kolkata, 'day', 0))).toBe('2020-01-22T00:00:00.000+05:30');
    expect(iso(alignToInterval(kolkata, 'hour', 0))).toBe('2020-01-22T00:00:00.000+05:30');
  });
});

describe('bucketStarts', () => {
  it('months step by calendar month', () => {
    const buckets = bucketStarts(at('2020-01-31'), at('2020-04-30T23:59:59.999'), 'month', 0);
    expect(buckets.map((b) => b.toISODate())).toEqual(['2020-01-01', '2020-02-01', '2020-03-01', '2020-04-01']);
  });

  it('includes a bucket that starts exactly at date_to', () => {
    expect(bucketStarts(at('2020-01-01T10:00'), at('2020-01-01T12:00'), 'hour', 0)).toHaveLength(3);
  });

  it('allows exactly MAX_BUCKETS and refuses one more', () => {
    expect(MAX_BUCKETS).toBe(100_000);
    expect(bucketStarts(at('2020-01-01T00:00'), at('2020-03-10T10:39'), 'minute', 0)).toHaveLength(100_000);
    expectValidationError(() => bucketStarts(at('2020-01-01T00:00'), at('2020-03-10T10:40'), 'minute', 0), 'interval');
  });

  it('is empty for an inverted range', () => {
    expect(bucketStarts(at('2020-01-02'), at('2020-01-01'), 'day', 0)).toEqual([]);
  });
});

describe('labels and days', () => {
  const t = at('2020-09-05T07:08:09');

  it('formats each interval as PostHog does (English months, no zero padding of the day)', () => {
    expect(formatBucketLabel(t, 'day', t, t)).toBe('5-Sep-2020');
    expect(formatBucketLabel(t, 'hour', t, t)).toBe('5-Sep 07:08');
    expect(formatBucketLabel(t, 'minute', t, t)).toBe('5-Sep 07:08');
    expect(formatBucketLabel(t, 'month', t, t)).toBe('Sep 2020');
    expect(formatBucketDay(t, 'day')).toBe('2020-09-05');
    expect(formatBucketDay(t, 'week')).toBe('2020-09-05');
    expect(formatBucketDay(t, 'month')).toBe('2020-09-05');
    expect(formatBucketDay(t, 'hour')).toBe('2020-09-05 07:08:09');
    expect(formatBucketDay(t, 'minute')).toBe('2020-09-05 07:08:09');
  });

  it('formats week spans with en dashes', () => {
    expect(formatWeekSpan(at('2020-01-05'), at('2020-01-11'))).toBe('5–11 Jan');
    expect(formatWeekSpan(at('2020-01-26'), at('2020-02-01'))).toBe('26-Jan – 1-Feb');
    expect(formatWeekSpan(at('2019-12-29'), at('2020-01-04'))).toBe('29-Dec-2019 – 4-Jan-2020');
    expect(formatWeekSpan(at('2020-01-01'), at('2020-01-01'))).toBe('1-Jan-2020');
  });

  it('clips a week label to the range and never ends before it starts', () => {
    const week = at('2020-01-05');
    expect(formatBucketLabel(week, 'week', at('2020-01-07T15:00'), at('2020-01-09T23:59:59.999'))).toBe('7–9 Jan');
    // A range inside one day still labels that day.
    expect(formatBucketLabel(week, 'week', at('2020-01-07T15:00'), at('2020-01-07T16:00'))).toBe('7-Jan-2020');
  });

  it('emits seconds-precision SQL constants like PostHog’s date_from_str', () => {
    expect(formatSqlDateTime(at('2020-01-24T23:59:59.999'))).toBe('2020-01-24 23:59:59');
  });

  it('lists the intervals shortest first', () => {
    expect(INTERVALS).toEqual(['minute', 'hour', 'day', 'week', 'month']);
    expect(Object.isFrozen(INTERVALS)).toBe(true);
  });
});
