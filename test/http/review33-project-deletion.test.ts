// Review of issue 33: deleting a project takes its recordings with it, as it takes its events.
// Before, the summary rows stayed in session_replay_events and the blocks on disk (or in the
// bucket) for ever: the retention job only walks projects that still exist.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { recordSession, rrwebPage } from '../helpers/recordings.js';
import { META_STORES } from '../helpers/stores.js';

describe.each(META_STORES)('deleting a project with recordings on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice-recordings@example.com');
  });
  afterAll(() => t.close());

  const summaryRows = async (teamId: number) =>
    (await t.services.events.query<{ n: string | number }>(
      `SELECT count() AS n FROM ${t.services.events.layout.database}.session_replay_events WHERE team_id = {team:UInt64}`,
      { team: teamId },
    ))[0]!.n;

  it('removes its summary rows and blocks, and leaves another project’s', async () => {
    const base = `/api/organizations/${alice.organizationId}/projects`;
    const doomed = (await t.request(alice.key, { method: 'POST', url: `${base}/`, payload: { name: 'Doomed' } })).json();
    const asDoomed = { ...alice, projectId: doomed.id as number, projectApiToken: doomed.api_token as string };
    const at = Date.now() - 60_000;
    await recordSession(t, asDoomed, 'doomed-session', 'someone', rrwebPage(at, 10));
    await recordSession(t, alice, 'kept-session', 'someone', rrwebPage(at, 10));
    expect(Number(await summaryRows(doomed.id))).toBeGreaterThan(0);
    expect((await t.services.replay.listBlocks(doomed.id, 'doomed-session')).length).toBe(1);

    const res = await t.request(alice.key, { method: 'DELETE', url: `${base}/${doomed.id}/` });
    expect(res.statusCode, res.body).toBe(204);

    expect(Number(await summaryRows(doomed.id))).toBe(0);
    expect(await t.services.replay.listBlocks(doomed.id, 'doomed-session')).toEqual([]);
    expect(fs.existsSync(path.join(t.dataDir, 'recordings', String(doomed.id)))).toBe(false);
    expect(Number(await summaryRows(alice.projectId))).toBeGreaterThan(0);
    expect((await t.services.replay.listBlocks(alice.projectId, 'kept-session')).length).toBe(1);
  });
});
