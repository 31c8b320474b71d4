// Capture has one writer per event data set. Two servers over the same stores (as several API
// processes share a ClickHouse server and a PostgreSQL): the first writes, the second answers
// capture with a 503 naming why and serves everything else; a writer that stops or dies is
// replaced. (A ClickHouse server cannot be installed here, so both use the embedded engine's
// same database, which is the same data set to the lease, started as server processes are:
// without taking the lease over.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { CaptureWriterLease } from '../../src/core/capture/writer-lease.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services.js';
import { withTestEventStore } from '../helpers/event-store.js';
import { freshPostgresSchema, META_STORES } from '../helpers/stores.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(META_STORES)('one capture writer per data set, metadata on %s', (store) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-writer-'));
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | null = null;
  let first: { services: Services; app: FastifyInstance };
  let second: { services: Services; app: FastifyInstance };
  let token = '';
  let key = '';
  let projectId = 0;

  beforeAll(async () => {
    schema = store === 'postgres' ? await freshPostgresSchema() : null;
    const config = withTestEventStore(loadConfig({ dataDir }, schema ? { DATABASE_URL: schema.url } : {}));
    // Each process has a capture log of its own (in its own data directory, in production).
    const start = async (log: string) => {
      const services = await createServices({ ...config, captureLogDir: path.join(dataDir, log) }, { captureLeaseTakeOver: false });
      return { services, app: await buildApp(services) };
    };
    first = await start('capture-log-first');
    second = await start('capture-log-second');
    const boot = await first.services.accounts.bootstrap({ email: 'writer@example.com', scopes: ['*'] });
    ({ project_api_token: token, personal_api_key: key, project_id: projectId } = boot);
  });
  afterAll(async () => {
    for (const server of [second, first]) {
      await server.app.close();
      await server.services.close();
    }
    await schema?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const send = (app: FastifyInstance, event: string) =>
    app.inject({ method: 'POST', url: '/batch/', payload: { api_key: token, batch: [{ event, distinct_id: 'ann', timestamp: '2024-01-01T10:00:00Z' }] } });

  const queryIn = (app: FastifyInstance) =>
    app.inject({
      method: 'POST', url: `/api/projects/${projectId}/query/`, headers: { authorization: `Bearer ${key}` },
      payload: { query: { kind: 'HogQLQuery', query: 'select event, count() from events group by event' } },
    });

  it('the first process writes; the second refuses capture with a 503 and serves queries', async () => {
    expect((await send(first.app, 'written')).statusCode).toBe(200);
    const refused = await send(second.app, 'refused');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({ type: 'server_error', code: 'service_unavailable', detail: expect.stringContaining('one writer per data set') });
    const query = await queryIn(second.app);
    expect(query.statusCode, query.body).toBe(200);
    // The writer inserts behind its 200; another process sees the event once it is inserted.
    await expect
      .poll(async () => (await queryIn(second.app)).json().results, { timeout: 5_000, interval: 50 })
      .toEqual([['written', 1]]);
  });
});

describe.each(META_STORES)('the writer lease, metadata on %s', (store) => {
  let services: Services;
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | null = null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-lease-'));
  const timing = { ttlMs: 300, heartbeatMs: 50 };

  beforeAll(async () => {
    schema = store === 'postgres' ? await freshPostgresSchema() : null;
    services = await createServices(withTestEventStore(loadConfig({ dataDir }, schema ? { DATABASE_URL: schema.url } : {})));
  });
  afterAll(async () => {
    await services.close();
    await schema?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes to another process when its holder stops, or stops renewing (dies)', async () => {
    const leases = services.repositories.captureWriterLeases;
    const a = new CaptureWriterLease(leases, 'data set', timing);
    const b = new CaptureWriterLease(leases, 'data set', timing);
    await a.start();
    await b.start();
    expect([a.holds(), b.holds()]).toEqual([true, false]);
    expect(() => b.assertHeld()).toThrow(/one writer per data set/);
    await sleep(timing.ttlMs * 2);
    // Renewed: still a's.
    expect([a.holds(), b.holds()]).toEqual([true, false]);
    await a.stop();
    await sleep(timing.heartbeatMs * 3);
    expect(b.holds()).toBe(true);

    await b.stop();
    // A process that died holding the lease (its last heartbeat now stale) is replaced, and were
    // it to wake up, its renewal fails.
    const longAgo = new Date(Date.now() - 60_000).toISOString();
    expect(await leases.claim('data set', 'dead process', longAgo, new Date(0).toISOString())).toBe('dead process');
    const c = new CaptureWriterLease(leases, 'data set', timing);
    await c.start();
    expect(c.holds()).toBe(true);
    expect(await leases.renew('data set', 'dead process', new Date().toISOString())).toBe(false);
    // A live holder is not replaced, unless the newcomer knows it is the only writer (the
    // embedded store's directory lock: its predecessor was killed moments ago).
    const d = new CaptureWriterLease(leases, 'data set', timing);
    await d.start();
    expect(d.holds()).toBe(false);
    await d.stop();
    const restarted = new CaptureWriterLease(leases, 'data set', timing);
    await restarted.start({ takeOver: true });
    expect(restarted.holds()).toBe(true);
    await sleep(timing.heartbeatMs * 3);
    expect(c.holds()).toBe(false);
    await restarted.stop();
    await c.stop();
    // Another data set is another lease.
    const other = new CaptureWriterLease(leases, 'other data set', timing);
    await other.start();
    expect(other.holds()).toBe(true);
    await other.stop();
  });
});
