// Retention's date range (PostHog's QueryDateRangeWithIntervals): the end is the start of the
// interval after date_to, so date_to's interval is complete; the start is date_from's interval,
// or totalIntervals intervals before the end. Cohorts are the intervals in between.
import type { DateTime } from 'luxon';
import { ValidationError } from '../../../errors.js';
import type { QueryContext } from '../../context.js';
import { alignToInterval, MAX_BUCKETS, resolveDateFrom, resolveDateTo, stepIntervals as step, type Interval } from '../../dates/index.js';
import type { RetentionPeriod, RetentionQuery } from '../../nodes/schema.js';

export interface RetentionRange {
  readonly interval: Interval;
  /** The first cohort's interval start, in the project's zone. */
  readonly dateFrom: DateTime;
  /** Exclusive: the start of the interval after date_to's. */
  readonly dateTo: DateTime;
  /** Each cohort's interval start (PostHog's row `date`). */
  readonly cohortStarts: readonly DateTime[];
}

export const PERIOD_INTERVAL: Readonly<Record<RetentionPeriod, Interval>> = { Hour: 'hour', Day: 'day', Week: 'week', Month: 'month' };

export function retentionRange(query: RetentionQuery, context: QueryContext, earliest: DateTime | null): RetentionRange {
  const { period, totalIntervals } = query.retentionFilter;
  const interval = PERIOD_INTERVAL[period];
  const clock = { timezone: context.project.timezone, weekStartDay: context.project.weekStartDay, now: context.now };
  const options = { interval, earliest };
  const weekStart = context.project.weekStartDay;
  const dateTo = alignToInterval(step(resolveDateTo(query.dateRange, clock, options), interval, 1), interval, weekStart);
  const explicitFrom = typeof query.dateRange.date_from === 'string' && query.dateRange.date_from.trim() !== '';
  const dateFrom = alignToInterval(
    explicitFrom ? resolveDateFrom(query.dateRange, clock, options) : step(dateTo, interval, -totalIntervals),
    interval,
    weekStart,
  );
  const cohortStarts: DateTime[] = [];
  for (let i = 0; step(dateFrom, interval, i) < dateTo; i++) {
    if ((i + 1) * totalIntervals > MAX_BUCKETS) {
      throw new ValidationError(`The date range has too many ${interval}s for ${totalIntervals} intervals each; choose a later date_from or a longer period.`, 'dateRange.date_from');
    }
    cohortStarts.push(step(dateFrom, interval, i));
  }
  return { interval, dateFrom, dateTo, cohortStarts };
}
