// `hoglet backup` carries the recordings (issue 33): blocks stored by /s/ on a running server are
// in the archive, and a server started on the restored directory lists and plays them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, hoglet, startServer, type ServerProcess } from '../helpers/processes.js';
import { turnOnRecordingAt } from '../helpers/recordings.js';

delete process.env.DATABASE_URL;
delete process.env.CLICKHOUSE_URL;

let root: string;
let original: string;
let creds: { projectId: number; token: string; key: string };

/** Every file under the recordings directory with its bytes (base64). */
function recordingFiles(dataDir: string): Record<string, string> {
  const dir = path.join(dataDir, 'recordings');
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !full.includes(`${path.sep}.tmp${path.sep}`)) files[path.relative(dir, full)] = fs.readFileSync(full).toString('base64');
  }
  return files;
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-backup-rec-'));
  original = path.join(root, 'original');
  const boot = await hoglet(['bootstrap', '--email', 'r@example.com', '--json', '--data-dir', original]);
  expect(boot.code, boot.stderr).toBe(0);
  const out = JSON.parse(boot.stdout);
  creds = { projectId: out.project_id, token: out.project_api_token, key: out.personal_api_key };
}, 180_000); // the first `hoglet` of a run may build dist/ first
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('hoglet backup and restore with recordings', () => {
  it('restores every block and the summary rows: the restored server lists and plays the recording', async () => {
    const port = await freePort();
    const servers: ServerProcess[] = [await startServer(original, port, [])];
    try {
      await turnOnRecordingAt(port, creds.projectId, creds.key);
      const at = Date.now() - 60_000;
      const data = [
        { type: 4, timestamp: at, data: { href: 'https://shop.example/', width: 1280, height: 800 } },
        { type: 2, timestamp: at + 1, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } } },
        { type: 3, timestamp: at + 500, data: { source: 2, type: 2, id: 1, x: 3, y: 4 } },
      ];
      const body = [{ event: '$snapshot', properties: { $snapshot_data: data, $session_id: 'backed-up', $window_id: 'w1', distinct_id: 'viewer', token: creds.token } }];
      const stored = await fetch(`http://127.0.0.1:${port}/s/`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      expect(stored.status, await stored.text()).toBe(200);
      const before = recordingFiles(original);
      expect(Object.keys(before)).toHaveLength(1);

      const archive = path.join(root, 'backup.tar');
      const backup = await hoglet(['backup', '--data-dir', original, '--output', archive]);
      expect(backup.code, backup.stderr).toBe(0);
      const copy = path.join(root, 'restored');
      const restore = await hoglet(['restore', '--input', archive, '--data-dir', copy]);
      expect(restore.code, restore.stderr).toBe(0);
      expect(recordingFiles(copy)).toEqual(before);

      const copyPort = await freePort();
      servers.push(await startServer(copy, copyPort, []));
      const get = async (url: string) => {
        const res = await fetch(`http://127.0.0.1:${copyPort}/api/projects/${creds.projectId}${url}`, { headers: { authorization: `Bearer ${creds.key}` } });
        expect(res.status, url).toBe(200);
        return res.json() as Promise<any>;
      };
      const recording = await get('/session_recordings/backed-up/');
      expect(recording).toMatchObject({ id: 'backed-up', click_count: 1, start_url: 'https://shop.example/' });
      const list = await get('/session_recordings/');
      expect(list.results.map((r: { id: string }) => r.id)).toEqual(['backed-up']);
    } finally {
      for (const server of servers) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }
  }, 180_000);
});
