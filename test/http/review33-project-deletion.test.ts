// Review of issue 33: deleting a project takes its recordings with it, as it takes its events.
// Before, the summary rows stayed in session_replay_events and the blocks on disk (or in the
// bucket) for ever: the retention job only walks projects that still exist.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { recordSession, rrwebPage, turnOnRecording } from '../helpers/recordings.js';
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
    for (const who of [alice, asDoomed]) await turnOnRecording(t, who);
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

describe('deleting a project with recordings in object storage', () => {
  const BUCKET = 'review33-recordings';
  let objectDir: string;
  let server: S3rver;
  let t: TestApp;
  let alice: Credentials;
  let client: S3Client;

  beforeAll(async () => {
    objectDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-s3rver-'));
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: objectDir, configureBuckets: [{ name: BUCKET, configs: [] }] });
    const { port } = (await server.run()) as unknown as { port: number };
    const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
    t = await createTestApp('sqlite', {
      HOGLET_RECORDINGS_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      HOGLET_RECORDINGS_S3_BUCKET: BUCKET,
      HOGLET_RECORDINGS_S3_ACCESS_KEY_ID: credentials.accessKeyId,
      HOGLET_RECORDINGS_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    });
    alice = await t.bootstrap('alice-s3@example.com');
    client = new S3Client({ region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true, credentials });
  });
  afterAll(async () => {
    await t.close();
    client.destroy();
    (server as unknown as { httpServer: import('node:http').Server }).httpServer.closeAllConnections();
    await server.close();
    fs.rmSync(objectDir, { recursive: true, force: true });
  });

  const keysUnder = async (prefix: string) =>
    ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? []).map((o) => o.Key);

  it("removes the project's objects and no other project's", async () => {
    const base = `/api/organizations/${alice.organizationId}/projects`;
    const doomed = (await t.request(alice.key, { method: 'POST', url: `${base}/`, payload: { name: 'Doomed' } })).json();
    const asDoomed = { ...alice, projectId: doomed.id as number, projectApiToken: doomed.api_token as string };
    for (const who of [alice, asDoomed]) await turnOnRecording(t, who);
    const at = Date.now() - 60_000;
    await recordSession(t, asDoomed, 'doomed-a', 'someone', rrwebPage(at, 10));
    await recordSession(t, asDoomed, 'doomed-b', 'someone', rrwebPage(at, 20));
    await recordSession(t, alice, 'kept', 'someone', rrwebPage(at, 10));
    expect(await keysUnder(`session_recordings/${doomed.id}/`)).toHaveLength(2);

    expect((await t.request(alice.key, { method: 'DELETE', url: `${base}/${doomed.id}/` })).statusCode).toBe(204);

    expect(await keysUnder(`session_recordings/${doomed.id}/`)).toEqual([]);
    expect(await keysUnder(`session_recordings/${alice.projectId}/`)).toHaveLength(1);
  });
});
