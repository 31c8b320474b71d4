// One runner per insight kind behind one interface; the registry maps a query's kind to it, so the
// service never switches on kinds itself.
import type { QueryContext } from '../context.js';
import type { QueryRun } from '../execute.js';
import type { InsightQuery, InsightKind } from '../nodes/schema.js';

export interface InsightRunner<Q extends InsightQuery, Result> {
  readonly kind: Q['kind'];
  run(query: Q, context: QueryContext, run: QueryRun): Promise<Result>;
}

export type RunnerRegistry = { [K in InsightKind]: InsightRunner<Extract<InsightQuery, { kind: K }>, unknown> };
