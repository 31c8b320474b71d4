// PLACEHOLDER written by the lead so the rest compiles; the funnels helper owns this file: overwrite it freely.
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import type { FunnelsQuery } from '../../nodes/schema.js';
import type { InsightRunner } from '../runner.js';

export const funnelsRunner: InsightRunner<FunnelsQuery, unknown> = {
  kind: 'FunnelsQuery',
  run: async () => { throw new Error('funnels not written yet'); },
};

export async function funnelActors(_q: FunnelsQuery, _c: QueryContext, _r: QueryRun, _o: { funnelStep: number; breakdownValue?: string | string[] | null; limit: number; offset: number }): Promise<{ persons: { id: string; distinct_ids: string[]; properties: Record<string, unknown>; created_at: string }[]; hasMore: boolean }> {
  throw new Error('funnels not written yet');
}
