// Moving a date by whole intervals on the project's calendar, as PostHog's timedelta and
// relativedelta steps do (a month from 31 January is the last day of February).
import type { DateTime } from 'luxon';
import type { Interval } from './types.js';

export function stepIntervals(t: DateTime, interval: Interval, count: number): DateTime {
  switch (interval) {
    case 'minute': return t.plus({ minutes: count });
    case 'hour': return t.plus({ hours: count });
    case 'day': return t.plus({ days: count });
    case 'week': return t.plus({ weeks: count });
    case 'month': return t.plus({ months: count });
  }
}
