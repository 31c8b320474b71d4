// The actors of one retention cohort (PostHog's InsightActorsQuery with `interval`), each with
// `appearances`: the offsets they are counted at in that cohort's row, 0 first. Broken down,
// `breakdown` picks one value's cohort (Other: every value past the limit). Ordered as PostHog's
// retention modal lists them: most appearances first.
import { actorPage } from '../../actors/load.js';
import { alias, and, binary, call, constant, desc, eq, field, lambda, not, or, select, subquery } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import type { QueryContext } from '../../context.js';
import { OTHER_BREAKDOWN } from '../../filters/breakdown-labels.js';
import type { QueryRun } from '../../execute.js';
import { fail, readOptionalInteger, type JsonObject } from '../../nodes/read-json.js';
import type { RetentionQuery } from '../../nodes/schema.js';
import type { ActorsOutput, ActorsPageRequest } from '../kind.js';
import { checkActions, rangeOf } from './runner.js';
import { shownValues, type RetentionCellRow } from './results.js';
import { retentionActors, retentionCells } from './sql.js';

export async function retentionCohortActors(
  query: RetentionQuery, target: JsonObject, context: QueryContext, run: QueryRun, page: ActorsPageRequest,
): Promise<ActorsOutput> {
  checkActions(query, context);
  const range = await rangeOf(query, context, run);
  const cohort = readOptionalInteger(target.interval, 'interval', 0, Math.max(0, range.cohortStarts.length - 1));
  if (cohort === null) fail('interval', 'Give the cohort: interval, from 0 for the first row.', 'required');
  const { totalIntervals, cumulative } = query.retentionFilter;
  const returns = field('returns');
  const cameBack = call('arrayFilter',
    lambda(['rt_k'], or(eq(field('rt_k'), constant(0)), call('has', returns, binary('+', constant(cohort, 'Int64'), field('rt_k'))))),
    call('range', constant(totalIntervals)));
  const breakdown = target.breakdown;
  let valueCondition: Expr | undefined;
  if (query.breakdownFilter && breakdown !== undefined && breakdown !== null) {
    // Other: every value outside the ones with rows of their own.
    valueCondition = String(breakdown) === OTHER_BREAKDOWN
      ? not(binary('IN', field('breakdown_value'), constant(shownValues(query, range, await run.rows<RetentionCellRow>(retentionCells(retentionActors(query, context, range), query))), 'Array(String)')))
      : eq(field('breakdown_value'), constant(String(breakdown)));
  }
  const matching = select({
    select: [
      field('actor'),
      alias(cumulative ? call('range', binary('+', call('arrayMax', cameBack), constant(1))) : cameBack, 'appearances'),
    ],
    from: subquery(retentionActors(query, context, range), 'retention_actors'),
    where: and(
      call('has', field('starts'), constant(cohort, 'Int64')),
      valueCondition,
    ),
  });
  const { actors, hasMore } = await actorPage(run, select({
    select: [field('actor'), alias(call('groupUniqArrayArray', field('appearances')), 'appearances')],
    from: subquery(matching, 'cohort_actors'),
    groupBy: [field('actor')],
  }), {
    ...page,
    groupIndex: query.aggregation_group_type_index,
    extras: ['appearances'],
    orderBy: [desc(call('length', field('appearances', 'fp')))],
  });
  return {
    columns: ['person', 'appearances'],
    results: actors.map(({ actor, extras }) => [actor, [...(extras.appearances as (number | string)[])].map(Number).sort((a, b) => a - b)]),
    hasMore,
  };
}
