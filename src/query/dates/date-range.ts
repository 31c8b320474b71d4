// resolveDateRange: PostHog's QueryDateRange (reference §1.2) — date_from/date_to to datetimes in the
// project timezone, the events lower bound, and the buckets with their labels.
import { DateTime } from 'luxon';
import { alignToInterval, bucketStarts } from './align.js';
import { formatBucketDay, formatBucketLabel } from './labels.js';
import { type DeltaMapping, nowInZone, parseDate } from './parse-date.js';
import type { DateRangeInput, DateRangeOptions, Interval, ProjectClock, ResolvedDateRange } from './types.js';

/** PostHog's DEFAULT_DATE_FROM_DAYS: a missing date_from is today 00:00 minus this many days. */
export const DEFAULT_DATE_FROM_DAYS = 7;

/**
 * PostHog ignores events before this when looking for the earliest one ("all"); an earlier
 * `earliest` passed in is clamped to it so a stray 1970 event cannot make 20k day buckets.
 */
export const EARLIEST_TIMESTAMP_FLOOR = DateTime.fromISO('2015-01-01T00:00:00Z', { zone: 'utc' });

/** With "all" and no events PostHog starts one week before now (DEFAULT_EARLIEST_TIME_DELTA). */
export const NO_EVENTS_LOOKBACK_DAYS = 7;

/** Empty/whitespace strings count as missing (PostHog: "" date_to = now, "" date_from = today). */
export function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

export interface RangeBounds {
  dateFrom: DateTime;
  dateTo: DateTime;
}

/** date_to: now by default; day-or-longer intervals end at 23:59:59.999; hour/minute only when relative. */
export function resolveDateTo(input: DateRangeInput, clock: ProjectClock, options: DateRangeOptions): DateTime {
  const now = nowInZone(clock);
  let dateTo = now;
  let relative = true;
  if (present(input.date_to)) {
    const parsed = parseDate(input.date_to, clock, { attr: 'date_to' });
    dateTo = parsed.value;
    relative = parsed.delta !== null;
  } else if (options.exactTimerange) {
    return now;
  }
  if (input.explicitDate) return dateTo;
  if (options.interval !== 'hour' && options.interval !== 'minute') return dateTo.endOf('day');
  if (!relative) return dateTo; // an absolute date_to is kept exactly (2020-01-09 = its midnight)
  return options.interval === 'hour' ? dateTo.endOf('hour') : dateTo.endOf('minute');
}

/**
 * date_from: "all" → earliest event;
 * a string → parsed (truncated unless minute/exact); missing → today − 7 d.
 */
export function resolveDateFrom(input: DateRangeInput, clock: ProjectClock, options: DateRangeOptions): DateTime {
  const now = nowInZone(clock);
  if (input.date_from?.trim() === 'all') {
    if (!options.earliest) return now.minus({ hours: 24 * NO_EVENTS_LOOKBACK_DAYS });
    const floored = options.earliest < EARLIEST_TIMESTAMP_FLOOR ? EARLIEST_TIMESTAMP_FLOOR : options.earliest;
    return floored.setZone(clock.timezone);
  }
  if (present(input.date_from)) {
    return parseDate(input.date_from, clock, {
      attr: 'date_from',
      alwaysTruncate: !(options.interval === 'minute' || options.exactTimerange),
    }).value;
  }
  return now.startOf('day').minus({ days: DEFAULT_DATE_FROM_DAYS });
}

/** The relative mapping of date_from ("all" counts as relative with an empty mapping, as in PostHog). */
export function dateFromDelta(input: DateRangeInput, clock: ProjectClock): DeltaMapping | null | undefined {
  if (!present(input.date_from)) return undefined;
  if (input.date_from.trim() === 'all') return {};
  return parseDate(input.date_from, clock, { attr: 'date_from' }).delta;
}

/**
 * PostHog's use_start_of_interval: whether the events filter starts at the start of date_from's
 * interval (true) or at date_from itself. Exact ranges and explicitDate never snap; relative ranges
 * don't snap for hour/minute intervals, nor for hour deltas (-24h) with a day interval.
 */
export function useStartOfInterval(input: DateRangeInput, clock: ProjectClock, options: DateRangeOptions): boolean {
  if (options.exactTimerange) return false;
  if (!present(input.date_from)) return true;
  if (input.explicitDate) return false;
  const delta = dateFromDelta(input, clock);
  if (!delta) return true; // absolute
  if (options.interval === 'hour' || options.interval === 'minute') return false;
  if (options.interval === 'day' && delta.hours !== undefined) return false;
  return true;
}

/** eventsFrom for given bounds: the week interval snaps only to the day (no backward padding). */
export function eventsLowerBound(dateFrom: DateTime, snap: boolean, interval: Interval, weekStartDay: 0 | 1): DateTime {
  if (!snap) return dateFrom;
  if (interval === 'week') return dateFrom.startOf('day');
  return alignToInterval(dateFrom, interval, weekStartDay);
}

/** Buckets, labels and days for already-computed bounds (shared with the previous period). */
export function buildRange(
  bounds: RangeBounds,
  input: DateRangeInput,
  clock: ProjectClock,
  options: DateRangeOptions,
): ResolvedDateRange {
  const { interval } = options;
  const { dateFrom, dateTo } = bounds;
  const buckets = bucketStarts(dateFrom, dateTo, interval, clock.weekStartDay);
  return {
    interval,
    dateFrom,
    dateTo,
    eventsFrom: eventsLowerBound(dateFrom, useStartOfInterval(input, clock, options), interval, clock.weekStartDay),
    buckets,
    labels: buckets.map((b) => formatBucketLabel(b, interval, dateFrom, dateTo)),
    days: buckets.map((b) => formatBucketDay(b, interval)),
  };
}

/**
 * Resolves a query's dateRange for one interval. Throws ValidationError (attr date_from/date_to) on
 * unparseable or out-of-range dates; an inverted range resolves with no buckets.
 */
export function resolveDateRange(
  input: DateRangeInput,
  clock: ProjectClock,
  options: DateRangeOptions,
): ResolvedDateRange {
  const dateFrom = resolveDateFrom(input, clock, options);
  const dateTo = resolveDateTo(input, clock, options);
  return buildRange({ dateFrom, dateTo }, input, clock, options);
}
