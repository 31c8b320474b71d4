// Shared shapes of the date-range module (PostHog's QueryDateRange, reference §1.2).
import type { DateTime } from 'luxon';

export type Interval = 'minute' | 'hour' | 'day' | 'week' | 'month';

/** Shortest first; the order PostHog uses when comparing interval lengths. */
export const INTERVALS: readonly Interval[] = Object.freeze(['minute', 'hour', 'day', 'week', 'month']);

/** The project's calendar settings plus the instant "now", so every computation is reproducible. */
export interface ProjectClock {
  /** IANA zone name (validated elsewhere). */
  timezone: string;
  /** 0 = weeks start on Sunday, 1 = Monday (PostHog's team.week_start_day). */
  weekStartDay: 0 | 1;
  /** Any zone; converted to the project timezone before use. */
  now: DateTime;
}

export interface DateRangeInput {
  date_from?: string | null;
  date_to?: string | null;
  explicitDate?: boolean | null;
}

export interface DateRangeOptions {
  interval: Interval;
  /**
   * Earliest event time of the project, needed only when date_from is "all" (the caller queries it,
   * ideally as PostHog does: min(timestamp) of events after 2015-01-01). null/undefined = no events.
   */
  earliest?: DateTime | null;
  /** BoldNumber-style exact ranges: relative ranges end exactly now, no start-of-interval snapping. */
  exactTimerange?: boolean;
}

export interface CompareOptions extends DateRangeOptions {
  /** compareFilter.compare_to, e.g. "-1w"; absent = the plain previous period. */
  compareTo?: string | null;
  /** team.human_friendly_comparison_periods: in compare_to, "m" counts 4 weeks and "y" 52 weeks. */
  humanFriendlyComparisonPeriods?: boolean;
}

export interface ResolvedDateRange {
  interval: Interval;
  /** In the project timezone, as PostHog computes date_from. */
  dateFrom: DateTime;
  /**
   * In the project timezone; inclusive upper bound. PostHog's 23:59:59.999999 is 23:59:59.999 here
   * (luxon has millisecond precision).
   */
  dateTo: DateTime;
  /** Lower bound for the events WHERE clause (PostHog's use_start_of_interval rule, §1.2). */
  eventsFrom: DateTime;
  /** Bucket starts: align(dateFrom), stepping by the interval while <= dateTo. Empty when dateFrom > dateTo. */
  buckets: DateTime[];
  /** One label per bucket, formatted as PostHog's format_label_date. */
  labels: string[];
  /** One `days` string per bucket: yyyy-MM-dd, plus " HH:mm:ss" for hour/minute intervals. */
  days: string[];
}
