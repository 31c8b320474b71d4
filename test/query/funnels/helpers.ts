// Funnel tests: events captured through the real /batch/ endpoint into a real chDB, then the
// funnels runner (and funnelActors) called directly with a project context.
import { DateTime } from 'luxon';
import type { Credentials, TestApp } from '../../helpers/app.js';
import { QueryExecutor } from '../../../src/query/execute.js';
import type { QueryContext } from '../../../src/query/context.js';
import { readInsightQuery } from '../../../src/query/runners/registry.js';
import type { FunnelsQuery } from '../../../src/query/nodes/schema.js';
import { funnelActors, funnelsRunner } from '../../../src/query/runners/funnels/runner.js';
import type { PersonActor } from '../../../src/query/actors/load.js';

export { ev, journeys } from '../../helpers/journeys.js';

let emails = 0;
export const newProject = (t: TestApp): Promise<Credentials> => t.bootstrap(`funnels-${++emails}@example.com`);

export function context(who: Credentials, actions: QueryContext['actions'] = new Map()): QueryContext {
  return {
    project: { id: who.projectId, timezone: 'UTC', weekStartDay: 0 },
    now: DateTime.fromISO('2024-02-01T00:00:00Z', { zone: 'UTC' }),
    actions,
    testAccountFilters: { type: 'AND', values: [] },
    pathCleaningRules: [],
  };
}

/** A funnel of event names over January 2024 unless the extra fields say otherwise. */
export function funnelJson(events: (string | Record<string, unknown>)[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'FunnelsQuery',
    series: events.map((e) => (typeof e === 'string' ? { kind: 'EventsNode', event: e } : e)),
    dateRange: { date_from: '2024-01-01', date_to: '2024-01-31' },
    ...extra,
  };
}

export async function runFunnel(t: TestApp, who: Credentials, json: Record<string, unknown>): Promise<any> {
  const query = readInsightQuery(json as never) as FunnelsQuery;
  const run = new QueryExecutor(t.services.events).start(who.projectId);
  return (await funnelsRunner.run(query, context(who), run)).results;
}

/** The actors of a step of a person funnel (a group funnel's actors are groups, without distinct ids). */
export async function actors(t: TestApp, who: Credentials, json: Record<string, unknown>, funnelStep: number, breakdownValue?: string | string[]) {
  const query = readInsightQuery(json as never) as FunnelsQuery;
  const run = new QueryExecutor(t.services.events).start(who.projectId);
  const found = await funnelActors(query, context(who), run, { funnelStep, breakdownValue: breakdownValue ?? null, limit: 100, offset: 0 });
  return found as { persons: PersonActor[]; hasMore: boolean };
}

export const counts = (steps: { count: number }[]): number[] => steps.map((s) => s.count);
