// The executor's limits on the real engine: time limit, row limit, cancellation by client query
// id or by a run's abort signal, and the rest of the server answering while a slow query runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryRejectedError, QueryTimeoutError } from '../../src/errors.js';
import { QueryExecutor } from '../../src/query/execute.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';

// sleepEachRow is not reachable from any request (not on the printer's allow-list); only this test
// hands the executor raw SQL, to have a statement that is slow on any machine.
const SLOW = { sql: 'SELECT sleepEachRow(0.1) FROM numbers(40) SETTINGS max_block_size = 1', params: {} };

describe('QueryExecutor', () => {
  let t: TestApp;
  let who: Credentials;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    who = await t.bootstrap('exec@example.com');
  });
  afterAll(() => t.close());

  it('stops a query at its time limit with a clear error', async () => {
    const executor = new QueryExecutor(t.services.events, { timeoutSeconds: 1, maxResultRows: 1000 });
    const started = Date.now();
    const error = await executor.execute(SLOW, who.projectId, 'slow-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryTimeoutError);
    expect((error as QueryTimeoutError).toBody()).toEqual({
      type: 'server_error', code: 'query_timeout', attr: null,
      detail: 'The query took longer than 1 seconds and was stopped. Try a shorter date range or fewer breakdown values.',
    });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('does not let the rows of a statement stopped part-way reach the next statement', async () => {
    // chDB keeps a failed statement's partial output in the session; the store drains it.
    const executor = new QueryExecutor(t.services.events, { timeoutSeconds: 1, maxResultRows: 1000 });
    const failing = executor.execute(SLOW, who.projectId, 'partial').catch((e: unknown) => e);
    const next = t.services.events.query<{ one: number }>('SELECT 1 AS one');
    expect(await failing).toBeInstanceOf(QueryTimeoutError);
    expect(await next).toEqual([{ one: 1 }]);
  });

  it('refuses a result over the row limit instead of truncating it', async () => {
    const executor = new QueryExecutor(t.services.events, { timeoutSeconds: 10, maxResultRows: 100 });
    const error = await executor.execute({ sql: 'SELECT number FROM numbers(1000)', params: {} }, who.projectId, 'rows').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryRejectedError);
    expect((error as QueryRejectedError).code).toBe('too_many_rows');
    // The limit belongs to that query only: the next statement on the same engine is not limited.
    expect(await t.services.events.query('SELECT number FROM numbers(1000)')).toHaveLength(1000);
  });

  it('answers a cancelled client query id at once with query_cancelled', async () => {
    const executor = new QueryExecutor(t.services.events, { timeoutSeconds: 2, maxResultRows: 1000 });
    const started = Date.now();
    const running = executor.execute(SLOW, who.projectId, 'to-cancel').catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cancelling = executor.cancel(who.projectId, 'to-cancel');
    const error = await running;
    expect(error).toBeInstanceOf(QueryRejectedError);
    expect((error as QueryRejectedError).code).toBe('query_cancelled');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await cancelling).toBe(true);
    expect(await executor.cancel(who.projectId, 'never-started')).toBe(false);
    // The same client query id in another project is another query.
    const other = executor.execute(SLOW, who.projectId, 'shared-id').catch((e: unknown) => e);
    expect(await executor.cancel(who.projectId + 1000, 'shared-id')).toBe(false);
    expect(await executor.cancel(who.projectId, 'shared')).toBe(false); // a prefix is not the id
    expect(await other).toBeInstanceOf(QueryTimeoutError); // ran on to its time limit: not cancelled
  });

  it('stops a run whose abort signal fires, and starts none of its statements once aborted', async () => {
    const executor = new QueryExecutor(t.services.events, { timeoutSeconds: 5, maxResultRows: 1000 });
    const controller = new AbortController();
    const started = Date.now();
    const running = executor.execute(SLOW, who.projectId, 'signalled', controller.signal).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    expect((await running as QueryRejectedError).code).toBe('query_cancelled');
    // Stopped in the engine too: the next statement runs long before the 4 s one would have ended.
    expect(await t.services.events.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(Date.now() - started).toBeLessThan(2_000);
    // Already aborted: refused before it runs (it would take 4 s otherwise).
    const again = Date.now();
    expect((await executor.execute(SLOW, who.projectId, 'signalled', controller.signal).catch((e: unknown) => e) as QueryRejectedError).code).toBe('query_cancelled');
    expect(Date.now() - again).toBeLessThan(1_000);
  });

  it('really stops a cancelled statement: the engine is free again long before its time limit', async () => {
    // 40 s of sleeping under a 30 s limit: only a real cancellation frees the engine soon.
    const long = { sql: 'SELECT sleepEachRow(0.1) FROM numbers(400) SETTINGS max_block_size = 1', params: {} };
    const executor = new QueryExecutor(t.services.events, { timeoutSeconds: 30, maxResultRows: 1000 });
    const running = executor.execute(long, who.projectId, 'to-kill').catch((e: unknown) => e);
    // A statement queued behind it, cancelled before its turn, must not run either.
    const queued = executor.execute(long, who.projectId, 'to-kill').catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    expect(await executor.cancel(who.projectId, 'to-kill')).toBe(true);
    expect((await running as QueryRejectedError).code).toBe('query_cancelled');
    expect((await queued as QueryRejectedError).code).toBe('query_cancelled');
    // The next statement runs as soon as the engine is free.
    expect(await t.services.events.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('keeps answering other requests while a slow query runs', async () => {
    const executor = new QueryExecutor(t.services.events, { timeoutSeconds: 2, maxResultRows: 1000 });
    const running = executor.execute(SLOW, who.projectId, 'background').catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const res = await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/` });
    expect(res.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(500);
    await running;
  });
});
