// The strings PostHog puts next to each bucket (reference §1.3): `labels` from format_label_date,
// `days` from strftime. Always English month names, whatever the server locale.
import type { DateTime } from 'luxon';
import type { Interval } from './types.js';

const en = (t: DateTime) => t.setLocale('en-US');

/** `days` entry: 2020-01-09, or 2020-01-09 00:00:00 for hour/minute intervals. */
export function formatBucketDay(bucket: DateTime, interval: Interval): string {
  return en(bucket).toFormat(interval === 'hour' || interval === 'minute' ? 'yyyy-MM-dd HH:mm:ss' : 'yyyy-MM-dd');
}

/**
 * Label of one bucket: day 9-Jan-2020, hour/minute 9-Jan 00:00, month Jan 2020, week the week's
 * span clipped to [rangeFrom, rangeTo] by calendar date (see formatWeekSpan).
 */
export function formatBucketLabel(
  bucket: DateTime,
  interval: Interval,
  rangeFrom: DateTime,
  rangeTo: DateTime,
): string {
  switch (interval) {
    case 'day':
      return en(bucket).toFormat('d-LLL-yyyy');
    case 'hour':
    case 'minute':
      return en(bucket).toFormat('d-LLL HH:mm');
    case 'month':
      return en(bucket).toFormat('LLL yyyy');
    case 'week': {
      // The bucket is already the week's first day; clip to the range's calendar dates.
      const weekStart = bucket.startOf('day');
      const weekEnd = weekStart.plus({ days: 6 });
      const start = maxDate(weekStart, rangeFrom.startOf('day'));
      const end = maxDate(minDate(weekEnd, rangeTo.startOf('day')), start);
      return formatWeekSpan(start, end);
    }
  }
}

/** 1-Jan-2020 (one day), 5–11 Jan (en dash, no spaces), 29-Dec – 4-Jan, 29-Dec-2019 – 4-Jan-2020. */
export function formatWeekSpan(start: DateTime, end: DateTime): string {
  const s = en(start);
  const e = en(end);
  if (s.toISODate() === e.toISODate()) return s.toFormat('d-LLL-yyyy');
  if (s.year !== e.year) return `${s.toFormat('d-LLL-yyyy')} – ${e.toFormat('d-LLL-yyyy')}`;
  if (s.month !== e.month) return `${s.toFormat('d-LLL')} – ${e.toFormat('d-LLL')}`;
  return `${s.toFormat('d')}–${e.toFormat('d LLL')}`;
}

/** PostHog's date_from_str/date_to_str: the seconds-precision constant it emits into SQL. */
export function formatSqlDateTime(t: DateTime): string {
  return t.toFormat('yyyy-MM-dd HH:mm:ss');
}

function maxDate(a: DateTime, b: DateTime): DateTime {
  return a.toISODate()! >= b.toISODate()! ? a : b;
}

function minDate(a: DateTime, b: DateTime): DateTime {
  return a.toISODate()! <= b.toISODate()! ? a : b;
}
