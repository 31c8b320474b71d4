// The actors behind one trends number (PostHog's InsightActorsQuery over a TrendsQuery): `series`
// (which series, from 0), `day` (the bucket's start as the result's `days` gives it; absent for a
// total-value display), `breakdown` (the breakdown value as the result labels it), `compare`
// ("previous" for the compared period). They are the distinct persons (or groups, when the series
// counts groups) with an event of the series in that bucket; for weekly and monthly active users,
// in the 7 or 30 days up to the end of the bucket, as the number counts them.
import { DateTime } from 'luxon';
import { actorPage } from '../../actors/load.js';
import { alias, and, constant, eq, field } from '../../ast/build.js';
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import { OTHER_BREAKDOWN } from '../../filters/breakdown-labels.js';
import { breakdownCohorts, cohortBreakdownMatch } from '../../cohorts/breakdown.js';
import { fail, readOptionalInteger, readOptionalString, type JsonObject } from '../../nodes/read-json.js';
import type { Interval, TrendsQuery } from '../../nodes/schema.js';
import type { ActorsOutput, ActorsPageRequest } from '../kind.js';
import { utcText } from '../event-range.js';
import { countedGroupType, seriesActor } from './actor.js';
import { activeMath, trendsPeriods } from './runner.js';
import { seriesScan, shiftUtc } from './series-query.js';

const ROLLING_DAYS: Partial<Record<string, number>> = { weekly_active: 7, monthly_active: 30 };
const UNSUPPORTED_MATHS = new Set(['first_time_for_user', 'first_matching_event_for_user']);

/** The bucket starting at `day` (in the project's zone unless it names its own), as [start, next start). */
function bucketOf(day: string, interval: Interval, timezone: string): { start: DateTime; end: DateTime } {
  const start = DateTime.fromISO(day.trim().replace(' ', 'T'), { zone: timezone });
  if (!start.isValid) fail('day', `"${day.slice(0, 40)}" is not a date: give a bucket start from the result's days.`, 'invalid_input');
  return { start, end: start.plus({ [`${interval}s`]: 1 }) };
}

export async function trendsActorsOf(query: TrendsQuery, target: JsonObject, context: QueryContext, run: QueryRun, page: ActorsPageRequest): Promise<ActorsOutput> {
  const seriesIndex = readOptionalInteger(target.series, 'series', 0, query.series.length - 1) ?? 0;
  const { totalValue, interval, periods } = await trendsPeriods(query, context, run);
  const series = activeMath(query.series[seriesIndex]!, interval);
  if (UNSUPPORTED_MATHS.has(series.math)) fail('series', `Listing the actors of a ${series.math} series is not supported yet.`, 'invalid_choice');
  if (query.trendsFilter.display === 'ActionsLineGraphCumulative') fail('day', 'Listing the actors of a cumulative graph is not supported yet.', 'invalid_choice');
  const period = target.compare === 'previous' ? periods[1] : periods[0];
  if (!period) fail('compare', 'compare "previous" needs a query with compareFilter.', 'invalid_input');
  const range = period.range;

  // The events' window: the whole range, or one bucket of it.
  let from = utcText(range.eventsFrom);
  let to = utcText(range.dateTo, true);
  const day = readOptionalString(target.day as never, 'day', 64);
  const rollingDays = ROLLING_DAYS[series.math];
  if (day !== null && !totalValue) {
    const bucket = bucketOf(day, interval, context.project.timezone);
    const end = bucket.end.minus({ milliseconds: 1 });
    to = end < range.dateTo ? utcText(end, true) : to;
    const start = rollingDays ? bucket.end.minus({ days: rollingDays }) : bucket.start;
    from = rollingDays || start > range.eventsFrom ? utcText(start) : from;
  } else if (rollingDays) {
    from = shiftUtc(to, -rollingDays);
  }

  const breakdown = target.breakdown;
  if (breakdown !== undefined && breakdown !== null) {
    if (!query.breakdownFilter) fail('breakdown', 'The query has no breakdown.', 'invalid_input');
    if (typeof breakdown !== 'string' && typeof breakdown !== 'number') fail('breakdown', 'Give one breakdown value, as the result labels it.', 'invalid_input');
    if (breakdown === OTHER_BREAKDOWN) fail('breakdown', 'Listing the actors of "Other" is not supported yet.', 'invalid_choice');
  }

  const scan = seriesScan({
    series,
    properties: query.properties,
    testAccounts: query.filterTestAccounts ? context.testAccountFilters : null,
    breakdown: query.breakdownFilter,
    window: { fromUtc: from, toUtc: to, interval, firstBucket: 0, lastBucket: 0 },
    totalValue: true,
    firstBucketOnly: false,
    context,
  });
  // A cohort breakdown's value is a cohort: its persons' events, not one event property.
  const breakdownMatch = (value: string) => (breakdownCohorts(query.breakdownFilter) ? cohortBreakdownMatch(value, scan.source) : eq(scan.breakdownValue, constant(value)));
  const matching = scan.eventsSelect(
    [alias(seriesActor(series, scan.source), 'actor')],
    and(scan.eventMatch, scan.filters, scan.inRange(from), breakdown === undefined || breakdown === null ? undefined : breakdownMatch(String(breakdown))),
    [field('actor')],
  );
  const group = countedGroupType(series);
  const { actors, hasMore } = await actorPage(run, matching, { ...page, groupIndex: group ?? undefined });
  return { columns: ['person'], results: actors.map(({ actor }) => [actor]), hasMore };
}
