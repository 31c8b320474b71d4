// A background calculation whose end the metadata store refuses to record (a real SQLite fault: a
// trigger that aborts the update, as a failing disk would): every failure is logged with its error,
// the end is recorded again once the store takes it, and a refused heartbeat is logged too.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusHeartbeat } from '../../src/core/queries/heartbeat.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
const problems: string[] = [];
/** Called with each problem the services log (onBackgroundError is what `hoglet serve` logs as a warning). */
let onProblem: (problem: string) => void = () => {};

function withCauses(error: unknown): string {
  const messages: string[] = [];
  for (let e = error; e instanceof Error; e = e.cause) messages.push(e.message);
  return messages.join(': ');
}

const failUpdates = (name: string, when: string) =>
  sql.raw(`CREATE TRIGGER ${name} BEFORE UPDATE ON query_status WHEN ${when} BEGIN SELECT RAISE(ABORT, 'injected: disk I/O error'); END`).execute(t.services.meta.db);
const dropTrigger = (name: string) => sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(t.services.meta.db);

beforeAll(async () => {
  t = await createTestApp('sqlite', {}, {
    onBackgroundError: (error) => {
      const problem = withCauses(error);
      problems.push(problem);
      onProblem(problem);
    },
  });
  who = await t.bootstrap('status@example.com');
  await journeys(t, who, { a: [ev('$pageview', '2024-01-01T10:00:00Z'), ev('$pageview', '2024-01-02T10:00:00Z')] });
});
afterAll(() => t.close());

describe('recording a background calculation', () => {
  it('logs a refused end with its error, records it again, and the client gets the result', async () => {
    await failUpdates('refuse_end', 'NEW.complete = 1');
    // The store recovers as soon as the first failure has been logged.
    onProblem = (problem) => {
      if (/could not record the end/.test(problem)) void dropTrigger('refuse_end');
    };
    const query = { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '2024-01-01', date_to: '2024-01-02' } };
    const started = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query, refresh: 'force_async', client_query_id: 'refused-end' } });
    expect(started.statusCode, started.body).toBe(202);
    await t.services.results.drain();
    await dropTrigger('refuse_end');

    expect(problems).toContainEqual(expect.stringMatching(/^query results: could not record the end of background calculation refused-end \(attempt 1\); trying again in \d+ ms: injected: disk I\/O error$/));
    const status = await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/query/refused-end/` });
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json().query_status).toMatchObject({ complete: true, error: false, results: { results: [{ count: 2 }] } });
  });

  it('logs a heartbeat the store refuses', async () => {
    const cache = t.services.repositories.queryCache;
    const now = new Date().toISOString();
    const taskId = 'beating-task';
    await cache.claimStatus({
      team_id: who.projectId, id: 'beating', insight_id: null, dashboard_id: null, complete: 0, error: 0, error_message: null, results: null,
      start_time: now, end_time: null, expiration_time: new Date(Date.now() + 60_000).toISOString(), task_id: taskId, owner: 'test', heartbeat_at: now,
    }, null);
    await failUpdates('refuse_beat', 'NEW.heartbeat_at <> OLD.heartbeat_at');
    const logged: string[] = [];
    let heard!: () => void;
    const refused = new Promise<void>((resolve) => { heard = resolve; });
    const heartbeat = new StatusHeartbeat(cache, 10, Date.now, (message, error) => {
      logged.push(withCauses(new Error(message, { cause: error })));
      heard();
    });
    const untrack = heartbeat.track(taskId);
    try {
      await refused;
    } finally {
      untrack();
      await dropTrigger('refuse_beat');
    }
    expect(logged[0]).toMatch(/^could not refresh the heartbeat of 1 background calculation\(s\); trying again in 10 ms .*: injected: disk I\/O error$/);
  });
});
