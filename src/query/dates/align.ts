// Bucket alignment and stepping (PostHog's align_with_interval / all_values, reference §1.2).
import type { DateTime } from 'luxon';
import { ValidationError } from '../../errors.js';
import type { Interval } from './types.js';

/** Refuse ranges that would produce more buckets than any chart can use (e.g. minute × years). */
export const MAX_BUCKETS = 100_000;

/**
 * Start of the interval containing t, on t's wall clock: minute → :ss 0, hour → :00, day → 00:00,
 * week → 00:00 of the previous Sunday (weekStartDay 0) or Monday (1), month → the 1st.
 */
export function alignToInterval(t: DateTime, interval: Interval, weekStartDay: 0 | 1): DateTime {
  switch (interval) {
    case 'minute':
      return t.startOf('minute');
    case 'hour':
      return t.startOf('hour');
    case 'day':
      return t.startOf('day');
    case 'week': {
      const day = t.startOf('day');
      // luxon weekday: 1 = Monday … 7 = Sunday.
      const back = weekStartDay === 1 ? day.weekday - 1 : day.weekday % 7;
      return day.minus({ days: back }).startOf('day');
    }
    case 'month':
      return t.startOf('month');
  }
}

/**
 * The i-th bucket after an aligned start. Day/week/month step on the calendar (a DST day is still
 * one bucket); minute/hour step in absolute time, as ClickHouse's toStartOfHour(timestamp, tz)
 * groups events, so a 25-hour day has 25 hour buckets (PostHog's Python list would show 24).
 */
function nthBucket(start: DateTime, interval: Interval, i: number): DateTime {
  switch (interval) {
    case 'minute':
      return start.plus({ minutes: i });
    case 'hour':
      return start.plus({ hours: i });
    case 'day':
      return start.plus({ days: i });
    case 'week':
      return start.plus({ weeks: i });
    case 'month':
      return start.plus({ months: i });
  }
}

/**
 * Bucket starts from align(from) while <= to. Empty when from > to: PostHog's QueryDateRange
 * neither swaps nor rejects an inverted range, and its list of intervals is empty. Throws ValidationError
 * (attr "interval") above MAX_BUCKETS.
 */
export function bucketStarts(from: DateTime, to: DateTime, interval: Interval, weekStartDay: 0 | 1): DateTime[] {
  if (from.toMillis() > to.toMillis()) return [];
  const start = alignToInterval(from, interval, weekStartDay);
  // Count first (luxon's diff uses the same calendar/absolute rules as nthBucket), so an absurd
  // range is refused without building it.
  const count = Math.floor(to.diff(start, `${interval}s`).as(`${interval}s`)) + 1;
  if (count > MAX_BUCKETS) {
    throw new ValidationError(
      `The date range has more than ${MAX_BUCKETS} ${interval} intervals; choose a longer interval or a shorter range.`,
      'interval',
    );
  }
  const buckets: DateTime[] = [];
  for (let i = 0; ; i++) {
    const bucket = nthBucket(start, interval, i);
    if (bucket.toMillis() > to.toMillis()) break;
    buckets.push(bucket);
  }
  return buckets;
}
