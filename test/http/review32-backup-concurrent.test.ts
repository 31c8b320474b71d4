// Two backups asked of one server at once (issue 32's review): each gets a whole copy, neither
// freezes into the other's staging, capture keeps acknowledging meanwhile, and nothing of either
// is left in the event store's directory afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, postBatch } from '../helpers/journeys.js';

describe('concurrent backup snapshots', () => {
  let t: TestApp;
  let alice: Credentials;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    alice = await t.bootstrap('alice@example.com');
    await journeys(t, alice, { someone: [ev('$pageview', '2024-05-01T10:00:00Z'), ev('$pageview', '2024-05-01T11:00:00Z')] });
  }, 120_000);
  afterAll(() => t.close());

  it('both complete with the same tables, while capture answers', { timeout: 120_000 }, async () => {
    const names = ['.backup-000000000000000a', '.backup-000000000000000b'];
    for (const name of names) fs.mkdirSync(path.join(t.dataDir, name));
    const snapshots = names.map((name) => t.app.inject({ method: 'POST', url: '/_backup/snapshot', payload: { staging: name } }));
    const capture = postBatch(t, { api_key: alice.projectApiToken, batch: [{ event: 'during', distinct_id: 'someone', timestamp: '2024-05-01T12:00:00Z', properties: {} }] });
    const [a, b] = await Promise.all(snapshots);
    expect(a!.statusCode, a!.body).toBe(200);
    expect(b!.statusCode, b!.body).toBe(200);
    expect((await capture).statusCode).toBe(200);
    const tables = (body: string) => (JSON.parse(body).manifest.event_tables as { name: string }[]).map((table) => table.name).sort();
    expect(tables(a!.body)).toEqual(tables(b!.body));
    for (const name of names) expect(fs.existsSync(path.join(t.dataDir, name, 'hoglet.sqlite3'))).toBe(true);
    const shadow = path.join(t.services.config.events.chdbPath, 'shadow');
    const left = fs.existsSync(shadow) ? fs.readdirSync(shadow).filter((entry) => entry.endsWith('000000000000000a') || entry.endsWith('000000000000000b')) : [];
    expect(left).toEqual([]);
  });
});
