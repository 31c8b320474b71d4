// The actors behind one stickiness number (PostHog's InsightActorsQuery with `day`: the number of
// intervals, `series`: which series, `compare`: "previous" for the compared period): actors
// active in exactly that many intervals, or at least that many when computed cumulatively.
import { actorPage } from '../../actors/load.js';
import { binary, constant, field, select, subquery } from '../../ast/build.js';
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import { fail, readOptionalInteger, type JsonObject } from '../../nodes/read-json.js';
import type { StickinessQuery } from '../../nodes/schema.js';
import type { ActorsOutput, ActorsPageRequest } from '../kind.js';
import { stickinessPeriods } from './periods.js';
import { intervalSlots, stickinessActor, stickinessActors } from './sql.js';

export async function stickinessActorsOf(
  query: StickinessQuery, target: JsonObject, context: QueryContext, run: QueryRun, page: ActorsPageRequest,
): Promise<ActorsOutput> {
  const seriesIndex = readOptionalInteger(target.series, 'series', 0, query.series.length - 1) ?? 0;
  const series = query.series[seriesIndex]!;
  const periods = await stickinessPeriods(query, context, run);
  const period = target.compare === 'previous' ? periods[1] : periods[0];
  if (!period) fail('compare', 'compare "previous" needs a query with compareFilter.', 'invalid_input');
  const slots = intervalSlots(query, period.range);
  const day = readOptionalInteger(target.day, 'day', 1, Math.max(1, slots));
  if (day === null) fail('day', 'Give the number of intervals: day, from 1.', 'required');
  if (slots === 0) return { columns: ['person'], results: [], hasMore: false };
  const cumulative = query.stickinessFilter.computedAs === 'cumulative';
  const matching = select({
    select: [field('actor')],
    from: subquery(stickinessActors(query, series, period.range, context), 'sticky_actors'),
    where: binary(cumulative ? '>=' : '=', field('num_intervals'), constant(day)),
  });
  const group = stickinessActor(series);
  const { actors, hasMore } = await actorPage(run, matching, { ...page, groupIndex: group ?? undefined });
  return { columns: ['person'], results: actors.map(({ actor }) => [actor]), hasMore };
}
