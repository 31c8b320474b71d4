// GET /_health says which Hoglet answers and how far its stores are migrated (issue 32), beside
// the fields it always had; /_status/projects (what `hoglet status` asks a running server) answers
// only the token the server wrote into its event store's directory.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_MIGRATION_LEVELS } from '../../src/storage/migration-levels.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { EVENT_STORE_KIND } from '../helpers/event-store.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const packageVersion = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

describe.each(META_STORES)('/_health version and migration levels (%s)', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com');
    bob = await t.bootstrap('bob@example.com');
  });
  afterAll(() => t.close());

  it("answers package.json's version and each store's highest applied migration, keeping its other fields", async () => {
    const res = await t.request(null, { method: 'GET', url: '/_health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.version).toBe(packageVersion);
    // A new data directory is migrated to the newest migration of each store.
    expect(body.migrations).toEqual({ metadata: CURRENT_MIGRATION_LEVELS.metadata, events: CURRENT_MIGRATION_LEVELS.events });
    expect(CURRENT_MIGRATION_LEVELS.metadata).toBeGreaterThanOrEqual(15);
    expect(CURRENT_MIGRATION_LEVELS.events).toBeGreaterThanOrEqual(4);
    expect(body.capture).toEqual({ waiting_events: 0, set_aside_events: 0, set_aside_files: 0, log: expect.any(Object) });
    expect(body.flag_subjects).toMatchObject({ warming: expect.any(Boolean) });
  });

  it.skipIf(EVENT_STORE_KIND !== 'chdb')('/_status/projects counts events and persons per project, for the status token only', async () => {
    await journeys(t, alice, {
      a1: [ev('$pageview', '2024-01-01T10:00:00Z'), ev('$pageview', '2024-01-01T11:00:00Z')],
      a2: [ev('signed_up', '2024-01-02T10:00:00Z')],
    });
    await journeys(t, bob, { b1: [ev('$pageview', '2024-01-03T10:00:00Z')] });

    expect((await t.request(null, { method: 'GET', url: '/_status/projects' })).statusCode).toBe(401);
    const wrong = await t.request(null, { method: 'GET', url: '/_status/projects', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    // A personal API key is not the status token either.
    expect((await t.request(alice.key, { method: 'GET', url: '/_status/projects' })).statusCode).toBe(401);

    const token = fs.readFileSync(path.join(t.services.config.events.chdbPath, 'status.token'), 'utf8');
    expect((fs.statSync(path.join(t.services.config.events.chdbPath, 'status.token')).mode & 0o777).toString(8)).toBe('600');
    const res = await t.request(null, { method: 'GET', url: '/_status/projects', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json().projects).toEqual([
      { id: alice.projectId, events: 3, persons: 2 },
      { id: bob.projectId, events: 1, persons: 1 },
    ]);
  });

  // Last: a second app in this process shares the embedded engine's directory (and its status token).
  it('still says the version, and the levels it read before, while a store is down (503)', async () => {
    const own = await createTestApp(store);
    try {
      expect((await own.request(null, { method: 'GET', url: '/_health' })).json().migrations).toEqual({ metadata: CURRENT_MIGRATION_LEVELS.metadata, events: CURRENT_MIGRATION_LEVELS.events });
      await own.services.meta.close();
      const res = await own.request(null, { method: 'GET', url: '/_health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'unavailable', version: packageVersion, migrations: { metadata: CURRENT_MIGRATION_LEVELS.metadata } });
    } finally {
      await own.close().catch(() => undefined);
    }
  });
});
