// QueryResults over the real stores with options a server does not need to change: a process beats
// for the calculations it runs, so their status never looks abandoned while they run; and parsed
// cached results are held within a memory budget measured in size, not in number of entries.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryResults } from '../../src/core/queries/results.js';
import { readInsightQuery } from '../../src/query/runners/registry.js';
import type { ProjectRow } from '../../src/storage/meta/repositories/projects.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';

const SLOW = { sql: 'SELECT sleepEachRow(0.1) FROM numbers(20) SETTINGS max_block_size = 1', params: {} };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const trends = (from: string, to: string) =>
  readInsightQuery({ kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: from, date_to: to } }, 'query');

describe('QueryResults', () => {
  let t: TestApp;
  let who: Credentials;
  let project: ProjectRow;
  const resultsWith = (options: ConstructorParameters<typeof QueryResults>[3]) =>
    new QueryResults(t.services.queries, t.services.repositories.queryCache, Date.now, options);

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    who = await t.bootstrap('results@example.com');
    project = (await t.services.repositories.projects.findById(who.projectId))!;
    await journeys(t, who, { a: [ev('$pageview', '2024-01-01T10:00:00Z')] });
  });
  afterAll(() => t.close());

  it('keeps the status of a running background calculation alive with heartbeats', async () => {
    const results = resultsWith({ heartbeatMs: 50 });
    const blocker = t.services.executor.execute(SLOW, who.projectId, 'blocker').catch((e: unknown) => e);
    await pause(100);
    try {
      const outcome = await results.get({ project, query: trends('2024-01-01', '2024-01-05'), mode: 'async', clientQueryId: 'beating' });
      const started = outcome.queryStatus!;
      expect(started).toMatchObject({ id: 'beating', complete: false });
      // Far longer than three heartbeat intervals: only beats keep it from looking abandoned.
      await pause(400);
      const row = (await t.services.repositories.queryCache.getStatus(who.projectId, 'beating'))!;
      expect(row.owner).toBe(results.owner);
      expect(Date.parse(row.heartbeat_at!)).toBeGreaterThan(Date.parse(row.start_time) + 200);
      expect(await results.status(who.projectId, 'beating')).toMatchObject({ complete: false, error: false });
    } finally {
      await t.services.executor.cancel(who.projectId, 'blocker');
      await blocker;
    }
    await results.drain();
    expect(await results.status(who.projectId, 'beating')).toMatchObject({ complete: true, error: false });
  });

  it('holds parsed results within a size budget: a huge one is not held, and size evicts before count', async () => {
    // One app-wide calculation fills the shared cache; a reader with a small budget reads it back.
    const small = [trends('2024-01-01', '2024-03-31'), trends('2024-01-02', '2024-03-31'), trends('2024-01-03', '2024-03-31')];
    const huge = trends('2000-01-01', '2024-01-01');
    for (const query of [...small, huge]) await t.services.results.get({ project, query, mode: 'blocking' });
    const sizeOf = async (query: typeof huge) => JSON.stringify((await t.services.results.get({ project, query, mode: 'force_cache' })).response).length;
    const smallSize = await sizeOf(small[0]!);
    expect(await sizeOf(huge)).toBeGreaterThan(20 * smallSize);

    // Room for two small results (each held at about twice its text), far from the huge one.
    const reader = resultsWith({ parsedCacheChars: 5 * smallSize });
    const fetches = vi.spyOn(t.services.repositories.queryCache, 'getResponse');
    const fetched = async (query: typeof huge) => {
      const before = fetches.mock.calls.length;
      const outcome = await reader.get({ project, query, mode: 'force_cache' });
      expect(outcome.isCached).toBe(true);
      return fetches.mock.calls.length - before;
    };
    try {
      expect(await fetched(small[0]!)).toBe(1);
      expect(await fetched(small[0]!)).toBe(0); // held in memory
      expect(await fetched(huge)).toBe(1);
      expect(await fetched(huge)).toBe(1); // bigger than the budget: never held
      expect(await fetched(small[0]!)).toBe(0); // and it evicted nothing
      expect(await fetched(small[1]!)).toBe(1);
      expect(await fetched(small[2]!)).toBe(1);
      // Three entries only, yet the first no longer fits beside the two newer ones.
      expect(await fetched(small[0]!)).toBe(1);
      expect(await fetched(small[2]!)).toBe(0);
    } finally {
      fetches.mockRestore();
    }
  });
});
