// Recordings in S3-compatible object storage (issue 33): with HOGLET_RECORDINGS_S3_* set, /s/ stores
// each block as an object `<prefix>/<team>/<session>/<block>` on a real S3-protocol server (s3rver
// over a temp dir), the snapshots API reads back exactly what the file system store reads back,
// retention and person deletion remove the objects, a stopped object server answers 503 with
// Retry-After and loses nothing once it is back, and one team never reads another's objects.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { turnOnRecording } from '../helpers/recordings.js';
import { postBatch, runQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';
import { sessionDirectoryName } from '../../src/core/replay/block-store.js';

const DAY = 86_400_000;
const BUCKET = 'hoglet-recordings';
const PREFIX = 'replays';

/** s3rver on a port over a directory; closing drops kept-alive client sockets too. */
async function startObjectServer(directory: string, port = 0): Promise<{ server: S3rver; port: number }> {
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const address = (await server.run()) as unknown as { port: number };
  return { server, port: address.port };
}

async function stopObjectServer(server: S3rver): Promise<void> {
  const http = (server as unknown as { httpServer: import('node:http').Server }).httpServer;
  http.closeAllConnections();
  await server.close();
}

describe.each(META_STORES)('recordings in object storage on %s', (store) => {
  let objectDir: string;
  let objects: { server: S3rver; port: number };
  let s3: TestApp;
  let files: TestApp;
  let owner: Credentials;
  let other: Credentials;
  let filesOwner: Credentials;
  let client: S3Client;

  beforeAll(async () => {
    objectDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-s3rver-'));
    objects = await startObjectServer(objectDir);
    const env = {
      HOGLET_RECORDINGS_S3_ENDPOINT: `http://127.0.0.1:${objects.port}`,
      HOGLET_RECORDINGS_S3_BUCKET: BUCKET,
      HOGLET_RECORDINGS_S3_PREFIX: PREFIX,
      HOGLET_RECORDINGS_S3_ACCESS_KEY_ID: 'S3RVER',
      HOGLET_RECORDINGS_S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
    s3 = await createTestApp(store, env);
    files = await createTestApp(store);
    owner = await s3.bootstrap('s3-owner@example.com');
    other = await s3.bootstrap('s3-other@example.com');
    filesOwner = await files.bootstrap('files-owner@example.com');
    await Promise.all([turnOnRecording(s3, owner), turnOnRecording(s3, other), turnOnRecording(files, filesOwner)]);
    client = new S3Client({
      endpoint: `http://127.0.0.1:${objects.port}`, region: 'us-east-1', forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
  });
  afterAll(async () => {
    client?.destroy();
    await s3?.close();
    await files?.close();
    if (objects) await stopObjectServer(objects.server).catch(() => undefined);
    fs.rmSync(objectDir, { recursive: true, force: true });
  });

  /** The bucket's keys under a team's (or a session's) prefix. */
  async function keys(teamId: number, sessionId?: string): Promise<string[]> {
    const prefix = `${PREFIX}/${teamId}/${sessionId === undefined ? '' : `${sessionDirectoryName(sessionId)}/`}`;
    const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    return (page.Contents ?? []).map((object) => object.Key!).sort();
  }

  function page(at: number, href: string) {
    return [
      { type: 4, timestamp: at, data: { href, width: 1280, height: 800 } },
      { type: 2, timestamp: at + 1, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } } },
      { type: 3, timestamp: at + 100, data: { source: 2, type: 2, id: 5, x: 1, y: 2 } },
    ];
  }

  /** A `$snapshot` event as posthog-js's recorder sends it. */
  function snapshot(token: string, sessionId: string, data: unknown[], distinctId = 'person-1') {
    return {
      event: '$snapshot',
      properties: {
        $snapshot_bytes: JSON.stringify(data).length, $snapshot_data: data, $session_id: sessionId, $window_id: `w-${sessionId}`,
        $lib: 'web', $lib_version: '1.449.2', distinct_id: distinctId, token,
      },
      timestamp: new Date(data.length ? (data[0] as { timestamp: number }).timestamp : Date.now()).toISOString(),
    };
  }

  /** posthog-js's bodies of one session: plain JSON, gzip-js, and a sendBeacon. */
  function bodies(token: string, sessionId: string, at: number) {
    const parts = [0, 1, 2].map((i) => page(at + i * 10_000, `https://shop.example/p${i}`));
    return [
      { url: '/s/?ver=1.449.2', payload: JSON.stringify([snapshot(token, sessionId, parts[0]!)]), headers: { 'content-type': 'application/json' } },
      { url: `/s/?compression=gzip-js&ip=0&ver=1.449.2`, payload: gzipSync(JSON.stringify([snapshot(token, sessionId, parts[1]!)])), headers: { 'content-type': 'text/plain' } },
      { url: '/s/?compression=gzip-js&beacon=1', payload: gzipSync(JSON.stringify([snapshot(token, sessionId, parts[2]!)])), headers: { 'content-type': 'text/plain' } },
    ];
  }

  async function record(t: TestApp, who: Credentials, sessionId: string, at: number, distinctId = 'person-1') {
    const res = await t.app.inject({
      method: 'POST', url: '/s/', payload: JSON.stringify([snapshot(who.projectApiToken, sessionId, page(at, 'https://shop.example/'), distinctId)]),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** Every source and blob the snapshots API answers for the session. */
  async function readBack(t: TestApp, who: Credentials, sessionId: string) {
    const base = `/api/projects/${who.projectId}/session_recordings/${encodeURIComponent(sessionId)}/snapshots/`;
    const sources = await t.request(who.key, { method: 'GET', url: base });
    expect(sources.statusCode, sources.body).toBe(200);
    const blobs = [];
    for (const source of sources.json().sources as Array<{ blob_key: string }>) {
      const blob = await t.request(who.key, { method: 'GET', url: `${base}?source=blob&blob_key=${encodeURIComponent(source.blob_key)}` });
      expect(blob.statusCode, blob.body).toBe(200);
      blobs.push(blob.body);
    }
    return { sources: sources.json(), blobs };
  }

  it('posthog-js bodies are stored as objects and read back through the snapshots API as the file system store reads them', async () => {
    const session = '0193a1b2-0000-7000-8000-00000000f001';
    const at = Date.now() - DAY;
    for (const [t, who] of [[s3, owner], [files, filesOwner]] as const) {
      for (const body of bodies(who.projectApiToken, session, at).reverse()) {
        const res = await t.app.inject({ method: 'POST', url: body.url, payload: body.payload, headers: body.headers });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    const fromObjects = await readBack(s3, owner, session);
    expect(fromObjects.sources.sources).toHaveLength(3);
    expect(fromObjects).toEqual(await readBack(files, filesOwner, session));
    // One object per block at <prefix>/<team>/<session>/<block>, nothing in the data directory.
    expect(await keys(owner.projectId, session)).toEqual(
      fromObjects.sources.sources.map((source: { blob_key: string }) => `${PREFIX}/${owner.projectId}/${sessionDirectoryName(session)}/${source.blob_key}`),
    );
    expect(fs.existsSync(path.join(s3.dataDir, 'recordings', String(owner.projectId)))).toBe(false);
    // The list reads its summary rows as before.
    const list = await s3.request(owner.key, { method: 'GET', url: `/api/projects/${owner.projectId}/session_recordings/` });
    expect(list.json().results.map((r: { id: string }) => r.id)).toContain(session);
  });

  it('another team never reads a recording\'s objects: the team is part of the key', async () => {
    const session = 'shared-session-id';
    await record(s3, owner, session, Date.now() - DAY);
    const [key] = await keys(owner.projectId, session);
    const blobKey = key!.split('/').at(-1)!;
    const base = `/api/projects/${other.projectId}/session_recordings/${session}/snapshots/`;
    expect((await s3.request(other.key, { method: 'GET', url: base })).statusCode).toBe(404);
    expect((await s3.request(other.key, { method: 'GET', url: `${base}?source=blob&blob_key=${blobKey}` })).statusCode).toBe(404);
    // Nor with the owner's project in the path: the project is checked before any key is built.
    const foreign = await s3.request(other.key, { method: 'GET', url: `/api/projects/${owner.projectId}/session_recordings/${session}/snapshots/` });
    expect([403, 404]).toContain(foreign.statusCode);
    // A path in the blob key reaches nothing.
    const escape = await s3.request(owner.key, { method: 'GET', url: `/api/projects/${owner.projectId}/session_recordings/${session}/snapshots/?source=blob&blob_key=${encodeURIComponent(`../../${other.projectId}/x/${blobKey}`)}` });
    expect(escape.statusCode).toBe(404);
    expect(await keys(other.projectId, session)).toEqual([]);
  });

  it('retention and person deletion remove the objects', async () => {
    const now = Date.now();
    await record(s3, owner, 'old-session', now - 40 * DAY);
    await record(s3, owner, 'new-session', now - 2 * DAY);
    await record(s3, other, 'old-session', now - 40 * DAY);
    const patch = await s3.request(other.key, { method: 'PATCH', url: `/api/projects/${other.projectId}/`, payload: { session_recording_retention_period: '1y' } });
    expect(patch.statusCode, patch.body).toBe(200);
    // An orphan block (its summary row never came) is found by listing the team's objects.
    await s3.services.replay.blocks.write(owner.projectId, 'orphan/old', '["w1",{"type":4,"timestamp":1,"data":{}}]\n', now - 40 * DAY);
    expect(await keys(owner.projectId, 'orphan/old')).toHaveLength(1);

    const removed = await s3.services.recordingRetention.runOnce(new Date(now));
    expect(removed.get(owner.projectId)).toBe(2);
    expect(await keys(owner.projectId, 'old-session')).toEqual([]);
    expect(await keys(owner.projectId, 'orphan/old')).toEqual([]);
    expect(await keys(owner.projectId, 'new-session')).toHaveLength(1);
    expect(await keys(other.projectId, 'old-session')).toHaveLength(1);

    const res = await postBatch(s3, { api_key: owner.projectApiToken, batch: [
      { event: '$pageview', distinct_id: 'leaving', timestamp: new Date(now - DAY).toISOString(), properties: { $session_id: 'leaving-session' } },
    ] });
    expect(res.statusCode, res.body).toBe(200);
    await record(s3, owner, 'leaving-session', now - DAY, 'leaving');
    expect(await keys(owner.projectId, 'leaving-session')).toHaveLength(1);
    const found = await runQuery(s3, owner, { kind: 'HogQLQuery', query: "select toString(person_id) from events where distinct_id = 'leaving' limit 1" });
    const del = await s3.request(owner.key, { method: 'DELETE', url: `/api/projects/${owner.projectId}/persons/${found.results[0][0]}/` });
    expect(del.statusCode, del.body).toBe(202);
    expect(await keys(owner.projectId, 'leaving-session')).toEqual([]);
    expect(await keys(owner.projectId, 'new-session')).toHaveLength(1);
  });

  it('a stopped object server answers 503 with Retry-After and stores nothing; the retry once it is back loses nothing', async () => {
    const session = 'outage-session';
    const at = Date.now() - DAY;
    const [body] = bodies(owner.projectApiToken, session, at);
    await record(s3, owner, 'before-outage', at);
    await stopObjectServer(objects.server);
    try {
      const refused = await s3.app.inject({ method: 'POST', url: body!.url, payload: body!.payload, headers: body!.headers });
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toMatchObject({ type: 'server_error', code: 'service_unavailable' });
      // Reads answer PostHog's error body too.
      const read = await s3.request(owner.key, { method: 'GET', url: `/api/projects/${owner.projectId}/session_recordings/before-outage/snapshots/` });
      expect(read.statusCode, read.body).toBe(503);
      expect(read.json()).toMatchObject({ type: 'server_error', code: 'service_unavailable' });
      // Nothing acknowledged, nothing counted.
      const rows = await s3.services.events.query<{ n: string | number }>(
        `SELECT count() AS n FROM ${s3.services.events.layout.database}.session_replay_events WHERE team_id = {team:UInt64} AND session_id = {session:String}`,
        { team: owner.projectId, session },
      );
      expect(Number(rows[0]!.n)).toBe(0);
    } finally {
      objects = await startObjectServer(objectDir, objects.port);
    }
    // posthog-js retries the same body.
    const retried = await s3.app.inject({ method: 'POST', url: body!.url, payload: body!.payload, headers: body!.headers });
    expect(retried.statusCode, retried.body).toBe(200);
    const back = await readBack(s3, owner, session);
    expect(back.blobs.join('\n').split('\n').map((line) => JSON.parse(line)[1])).toEqual(page(at, 'https://shop.example/p0'));
    expect((await readBack(s3, owner, 'before-outage')).blobs).toHaveLength(1);
  });
});
