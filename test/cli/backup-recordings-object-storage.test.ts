// `hoglet backup` with recordings in S3-compatible object storage (issue 33): the blocks stay in the
// bucket, out of the archive, and the backup says so; a server restored from the archive with the
// same bucket configured still lists and plays the recording (its summary rows are in the archive).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, hoglet, startServer, type ServerProcess } from '../helpers/processes.js';
import { turnOnRecordingAt } from '../helpers/recordings.js';

delete process.env.DATABASE_URL;
delete process.env.CLICKHOUSE_URL;

const BUCKET = 'backup-recordings';
let root: string;
let original: string;
let objects: S3rver;
let creds: { projectId: number; token: string; key: string };

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-backup-s3-'));
  original = path.join(root, 'original');
  objects = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(root, 'bucket'), configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = (await objects.run()) as unknown as { port: number };
  // The servers and commands below are child processes: they read these.
  Object.assign(process.env, {
    HOGLET_RECORDINGS_S3_ENDPOINT: `http://127.0.0.1:${port}`,
    HOGLET_RECORDINGS_S3_BUCKET: BUCKET,
    HOGLET_RECORDINGS_S3_ACCESS_KEY_ID: 'S3RVER',
    HOGLET_RECORDINGS_S3_SECRET_ACCESS_KEY: 'S3RVER',
  });
  const boot = await hoglet(['bootstrap', '--email', 's3@example.com', '--json', '--data-dir', original]);
  expect(boot.code, boot.stderr).toBe(0);
  const out = JSON.parse(boot.stdout);
  creds = { projectId: out.project_id, token: out.project_api_token, key: out.personal_api_key };
}, 180_000); // the first `hoglet` of a run may build dist/ first
afterAll(async () => {
  (objects as unknown as { httpServer?: import('node:http').Server }).httpServer?.closeAllConnections();
  await objects?.close().catch(() => undefined);
  fs.rmSync(root, { recursive: true, force: true });
});

describe('hoglet backup with recordings in object storage', () => {
  it('leaves the blocks in the bucket and says so; the restored server plays the recording from the bucket', async () => {
    const port = await freePort();
    const servers: ServerProcess[] = [await startServer(original, port, [])];
    try {
      await turnOnRecordingAt(port, creds.projectId, creds.key);
      const at = Date.now() - 60_000;
      const data = [
        { type: 4, timestamp: at, data: { href: 'https://shop.example/', width: 1280, height: 800 } },
        { type: 2, timestamp: at + 1, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } } },
      ];
      const body = [{ event: '$snapshot', properties: { $snapshot_data: data, $session_id: 'in-bucket', $window_id: 'w1', distinct_id: 'viewer', token: creds.token } }];
      const stored = await fetch(`http://127.0.0.1:${port}/s/`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      expect(stored.status, await stored.text()).toBe(200);
      expect(fs.existsSync(path.join(original, 'recordings', String(creds.projectId)))).toBe(false);

      const archive = path.join(root, 'backup.tar');
      const backup = await hoglet(['backup', '--data-dir', original, '--output', archive]);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain(`recordings: not in this archive, they are in object storage (s3://${BUCKET}/session_recordings)`);
      const copy = path.join(root, 'restored');
      const restore = await hoglet(['restore', '--input', archive, '--data-dir', copy]);
      expect(restore.code, restore.stderr).toBe(0);

      const copyPort = await freePort();
      servers.push(await startServer(copy, copyPort, []));
      const get = async (url: string) => {
        const res = await fetch(`http://127.0.0.1:${copyPort}/api/projects/${creds.projectId}${url}`, { headers: { authorization: `Bearer ${creds.key}` } });
        expect(res.status, url).toBe(200);
        return res.json() as Promise<any>;
      };
      expect((await get('/session_recordings/')).results.map((r: { id: string }) => r.id)).toEqual(['in-bucket']);
      const sources = await get('/session_recordings/in-bucket/snapshots/');
      expect(sources.sources).toHaveLength(1);
    } finally {
      for (const server of servers) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }
  }, 180_000);
});
