// The actors of a funnel step through /query/ (PostHog's InsightActorsQuery with `funnelStep`:
// N > 0 reached step N, N < 0 dropped before step |N|; `funnelStepBreakdown` one breakdown value),
// the same people the legacy persons URLs list.
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import { fail, readOptionalInteger, type JsonObject } from '../../nodes/read-json.js';
import type { FunnelsQuery } from '../../nodes/schema.js';
import type { ActorsOutput, ActorsPageRequest } from '../kind.js';
import { funnelActors } from './actors.js';

export async function funnelStepActors(
  query: FunnelsQuery, target: JsonObject, context: QueryContext, run: QueryRun, page: ActorsPageRequest,
): Promise<ActorsOutput> {
  const step = readOptionalInteger(target.funnelStep, 'funnelStep', -query.series.length, query.series.length);
  if (step === null || step === 0 || step === -1) {
    fail('funnelStep', `Give the step: funnelStep 1..${query.series.length} (reached that step) or -2..-${query.series.length} (dropped before it).`, step === null ? 'required' : 'invalid_input');
  }
  const value = target.funnelStepBreakdown;
  const breakdownValue = typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    ? (value as string | string[])
    : value === undefined || value === null ? null : String(value);
  const { persons, hasMore } = await funnelActors(query, context, run, { funnelStep: step, breakdownValue, limit: page.limit, offset: page.offset });
  return { columns: ['person'], results: persons.map((actor) => [actor]), hasMore };
}
