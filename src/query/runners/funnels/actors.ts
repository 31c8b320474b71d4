// The actors behind one funnel step (the persons endpoint): funnelStep N > 0 = reached step N,
// N < 0 = reached step |N|-1 but not step |N|; optionally only one breakdown value (the Other
// marker selects every value outside the top breakdown_limit). Actors are persons, or groups
// when the funnel aggregates by a group type (actors/load.ts).
import { actorPage, type Actor } from '../../actors/load.js';
import { and, binary, constant, eq, field, not, select, subquery } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import type { FunnelsQuery } from '../../nodes/schema.js';
import { ValidationError } from '../../../errors.js';
import { OTHER_BREAKDOWN, topValues } from './aggregate.js';
import { personQuery } from './person-query.js';
import { funnelRange } from './range.js';
import { num } from './sql.js';

export interface FunnelActorsOptions {
  funnelStep: number;
  breakdownValue?: string | string[] | null;
  limit: number;
  offset: number;
}

export async function funnelActors(query: FunnelsQuery, context: QueryContext, run: QueryRun, options: FunnelActorsOptions): Promise<{ persons: Actor[]; hasMore: boolean }> {
  const n = query.series.length;
  const step = options.funnelStep;
  if (!Number.isInteger(step) || step === 0 || Math.abs(step) > n || step === -1) {
    throw new ValidationError(`funnel_step must be 1..${n} (reached that step) or -2..-${n} (dropped before it).`, 'funnel_step');
  }
  const window = await funnelRange(query, context, run);
  const { select: persons } = personQuery({ query, context, fromUtc: window.fromUtc, toUtc: window.toUtc, distinctIds: true });
  const reached = field('reached');
  const stepCondition = step > 0
    ? binary('>=', reached, num(step))
    : and(binary('>=', reached, num(-step - 1)), binary('<', reached, num(-step)));

  let valueCondition: Expr | undefined;
  const raw = Array.isArray(options.breakdownValue) ? options.breakdownValue[0] : options.breakdownValue;
  if (query.breakdownFilter && raw !== undefined && raw !== null) {
    const value = String(raw);
    if (value === OTHER_BREAKDOWN) {
      const top = await run.rows<{ breakdown_value: string }>(topValues(persons, n, query.breakdownFilter.breakdown_limit ?? 10));
      valueCondition = not(binary('IN', field('breakdown_value'), constant(top.map((r) => r.breakdown_value), 'Array(String)')));
      if (top.length === 0) valueCondition = undefined;
    } else {
      valueCondition = eq(field('breakdown_value'), constant(value));
    }
  }

  const matching = select({
    select: [field('actor'), field('distinct_ids')],
    from: subquery(persons, 'funnel_persons'),
    where: and(binary('>', reached, num(0)), stepCondition, valueCondition),
  });
  const { actors, hasMore } = await actorPage(run, matching, {
    limit: options.limit,
    offset: options.offset,
    groupIndex: query.aggregation_group_type_index,
    seenDistinctIds: 'distinct_ids',
  });
  return { persons: actors.map((a) => a.actor), hasMore };
}
