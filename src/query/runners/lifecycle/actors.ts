// The actors behind one lifecycle number (PostHog's InsightActorsQuery with `status` and `day`:
// the bucket's start as its `days` entry or an ISO date): who was new, returning, resurrecting
// or dormant in that interval.
import { DateTime } from 'luxon';
import { actorPage } from '../../actors/load.js';
import { and, constant, eq, field, select, subquery } from '../../ast/build.js';
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import { fail, readChoice, type JsonObject } from '../../nodes/read-json.js';
import { LIFECYCLE_STATUSES, type LifecycleQuery } from '../../nodes/schema.js';
import type { ActorsOutput, ActorsPageRequest } from '../kind.js';
import { lifecycleAction, lifecycleRange } from './runner.js';
import { lifecycleStatuses } from './sql.js';

export async function lifecycleActorsOf(
  query: LifecycleQuery, target: JsonObject, context: QueryContext, run: QueryRun, page: ActorsPageRequest,
): Promise<ActorsOutput> {
  lifecycleAction(query, context);
  const status = readChoice(target.status, 'status', LIFECYCLE_STATUSES, null);
  if (status === null) fail('status', `Give the status: ${LIFECYCLE_STATUSES.join(', ')}.`, 'required');
  const range = await lifecycleRange(query, context, run);
  const interval = bucketOf(target.day, range.days, range.buckets.map((b) => b.toMillis()), context.project.timezone);
  const matching = select({
    select: [field('actor')],
    from: subquery(lifecycleStatuses(query, range, context), 'lifecycle_statuses'),
    where: and(eq(field('status'), constant(status)), eq(field('interval'), constant(interval, 'Int64'))),
  });
  const { actors, hasMore } = await actorPage(run, matching, { ...page, groupIndex: query.aggregation_group_type_index });
  return { columns: ['person'], results: actors.map(({ actor }) => [actor]), hasMore };
}

/** The bucket `day` names: one of the result's `days`, or any instant inside a bucket. */
function bucketOf(day: unknown, days: readonly string[], starts: readonly number[], timezone: string): number {
  if (typeof day !== 'string' || day.trim() === '') fail('day', "Give the bucket: day, one of the result's days.", 'required');
  const exact = days.indexOf(day);
  if (exact >= 0) return exact;
  const instant = DateTime.fromISO(day, { zone: timezone });
  if (!instant.isValid) fail('day', `"${day.slice(0, 40)}" is not a date.`);
  const at = instant.toMillis();
  const index = starts.findLastIndex((start) => start <= at);
  if (index < 0 || index >= days.length) fail('day', `${day.slice(0, 40)} is outside the date range.`);
  return index;
}
