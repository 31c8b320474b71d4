// The previous period of a compared insight (reference §1.4): either PostHog's
// get_compare_period_dates (compare without compare_to, kludges included) or a compare_to offset.
// All arithmetic is on the wall clock, as Python does it.
import { ValidationError } from '../../errors.js';
import {
  buildRange,
  dateFromDelta,
  present,
  type RangeBounds,
} from './date-range.js';
import { isEmptyDelta, parseDate } from './parse-date.js';
import type { CompareOptions, DateRangeInput, ProjectClock, ResolvedDateRange } from './types.js';
import { wallDiffMs, wallPlusMs, wallSet } from './wall-clock.js';

/**
 * The previous period for `current` (which must come from resolveDateRange with the same input,
 * clock and options). Throws ValidationError (attr compare_to) for an unparseable compare_to.
 */
export function previousPeriod(
  current: ResolvedDateRange,
  input: DateRangeInput,
  clock: ProjectClock,
  options: CompareOptions,
): ResolvedDateRange {
  const bounds = present(options.compareTo)
    ? compareToBounds(current, options.compareTo, clock, options)
    : previousPeriodBounds(current, input, clock);
  return buildRange(bounds, input, clock, options);
}

/** compare_to: the previous period starts at compare_to applied to the current date_from, same length. */
function compareToBounds(
  current: ResolvedDateRange,
  compareTo: string,
  clock: ProjectClock,
  options: CompareOptions,
): RangeBounds {
  if (compareTo.trim() === 'all') throw new ValidationError('compare_to cannot be "all".', 'compare_to');
  const zone = clock.timezone;
  const start = parseDate(compareTo, clock, {
    attr: 'compare_to',
    now: current.dateFrom,
    humanFriendlyComparisonPeriods: options.humanFriendlyComparisonPeriods ?? false,
  }).value;
  return { dateFrom: start, dateTo: wallPlusMs(start, wallDiffMs(current.dateFrom, current.dateTo), zone) };
}

/** get_compare_period_dates, with the previous-period runner's special case for "all". */
function previousPeriodBounds(current: ResolvedDateRange, input: DateRangeInput, clock: ProjectClock): RangeBounds {
  const zone = clock.timezone;
  const { dateFrom, dateTo, interval } = current;
  const diff = wallDiffMs(dateFrom, dateTo);

  if (input.date_from?.trim() === 'all') {
    // Newer PostHog: end just before the first event, so the first day is not in both periods.
    const previousTo = wallPlusMs(dateFrom, -1, zone);
    return { dateFrom: wallPlusMs(previousTo, -diff, zone), dateTo: previousTo };
  }

  let previousFrom = wallPlusMs(dateFrom, -diff, zone);
  if (interval === 'minute') return { dateFrom: previousFrom, dateTo: dateFrom };

  // Keep the current period's time of day so both periods are comparable bucket by bucket.
  previousFrom = wallSet(previousFrom, timeOf(dateFrom), zone);
  if (interval === 'hour') {
    const previousTo = wallSet(wallPlusMs(previousFrom, diff, zone), minuteAndBelowOf(dateTo), zone);
    return { dateFrom: previousFrom, dateTo: previousTo };
  }

  // KLUDGE (PostHog's): "-7d" is really 8 days, so for N % 7 == 0 day ranges without a relative
  // date_to the previous period moves one day later to compare the same weekdays. A missing
  // date_from counts as "-7d".
  const fromDelta = present(input.date_from) ? dateFromDelta(input, clock) : { days: 7 };
  const toDelta = present(input.date_to) ? parseDate(input.date_to, clock, { attr: 'date_to' }).delta : null;
  if (interval === 'day' && fromDelta?.days && fromDelta.days % 7 === 0 && isEmptyDelta(toDelta)) {
    previousFrom = wallPlusMs(previousFrom, 24 * 3600 * 1000, zone);
  }
  const previousTo = wallSet(wallPlusMs(previousFrom, diff, zone), timeOf(dateTo), zone);
  return { dateFrom: previousFrom, dateTo: previousTo };
}

function timeOf(t: ResolvedDateRange['dateFrom']) {
  return { hour: t.hour, minute: t.minute, second: t.second, millisecond: t.millisecond };
}

function minuteAndBelowOf(t: ResolvedDateRange['dateFrom']) {
  return { minute: t.minute, second: t.second, millisecond: t.millisecond };
}
