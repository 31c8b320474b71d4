// The current and previous period of a web query (reference web-analytics.md §4): PostHog's
// QueryDateRange with no interval (day rules), and its previous period (get_compare_period_dates,
// the "-Nd" kludge included) or compare_to. The rules live in query/dates; this only applies them.
import type { DateTime } from 'luxon';
import { and, binary, constant, or } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import { instant } from '../../buckets/bucket-start.js';
import type { QueryContext } from '../../context.js';
import { previousPeriod, resolveDateRange, type ProjectClock } from '../../dates/index.js';
import type { QueryRun } from '../../execute.js';
import { earliestEvent, utcText } from '../event-range.js';
import type { WebAnalyticsQueryBase } from './types.js';

/** One period's bounds, both inclusive (date_to is 23:59:59.999999 of its day). */
export interface WebPeriod {
  readonly from: DateTime;
  readonly to: DateTime;
}

export interface WebPeriods {
  readonly current: WebPeriod;
  /** Only when compareFilter.compare is on. */
  readonly previous: WebPeriod | null;
}

export function clockOf(context: QueryContext): ProjectClock {
  return { timezone: context.project.timezone, weekStartDay: context.project.weekStartDay, now: context.now };
}

/** The periods of a web query; "all" reads the project's first event (one small statement). */
export async function webPeriods(query: WebAnalyticsQueryBase, context: QueryContext, run: QueryRun): Promise<WebPeriods> {
  const clock = clockOf(context);
  const all = query.dateRange.date_from?.trim() === 'all';
  const options = { interval: 'day' as const, earliest: all ? await earliestEvent(run) : null };
  const current = resolveDateRange(query.dateRange, clock, options);
  const previous = query.compareFilter?.compare
    ? previousPeriod(current, query.dateRange, clock, { ...options, compareTo: query.compareFilter.compare_to ?? null })
    : null;
  return {
    current: { from: current.dateFrom, to: current.dateTo },
    previous: previous ? { from: previous.dateFrom, to: previous.dateTo } : null,
  };
}

/** `value` (a DateTime64 expression) inside the period, both ends inclusive as PostHog's. */
export function inPeriod(value: Expr, period: WebPeriod | null): Expr {
  // PostHog's constant false (not NULL) when there is no previous period: it keeps the query fast there.
  if (!period) return constant(false);
  return and(binary('>=', value, instant(utcText(period.from))), binary('<=', value, instant(utcText(period.to, true))));
}

/** Inside the current or the previous period. */
export function inPeriods(value: Expr, periods: WebPeriods): Expr {
  return periods.previous ? or(inPeriod(value, periods.current), inPeriod(value, periods.previous)) : inPeriod(value, periods.current);
}

/** PostHog's dateFrom / dateTo response fields: "yyyy-MM-dd HH:mm:ss" in the project's time zone. */
export function periodText(t: DateTime): string {
  return t.toFormat('yyyy-MM-dd HH:mm:ss');
}

/** The response's resolved_date_range, for the cache's staleness marks. */
export function resolvedRange(periods: WebPeriods): { date_from: string; date_to: string } {
  return { date_from: periods.current.from.toISO()!, date_to: periods.current.to.toISO()! };
}
