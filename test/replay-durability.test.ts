// The promise behind /s/'s 200, as test/durability.test.ts keeps it for events: a real server is
// SIGKILLed while clients send recordings; after a restart, every acknowledged request's rrweb
// data is in its session's blocks exactly once, and requests in flight (never answered) can be sent
// again, after which each stored block is counted once in session_replay_events.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { RecordingBlockStore } from '../src/core/replay/block-store.js';
import { openEventStore } from '../src/storage/events/connect.js';
import { freePort, hoglet, startServer } from './helpers/processes.js';
import { turnOnRecordingAt } from './helpers/recordings.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-replay-durability-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const SESSIONS = ['s-0', 's-1', 's-2', 's-3', 's-4'];
let sent = 0;

/** One posthog-js-shaped /s/ body: a few rrweb events of one session, unique by their times. */
function recording(token: string) {
  const n = sent++;
  const sessionId = SESSIONS[n % SESSIONS.length]!;
  const at = Date.UTC(2026, 10, 1) + n * 1_000;
  const data = [
    { type: 3, timestamp: at, data: { source: 2, type: 2, id: n, x: 1, y: 1 } },
    { type: 3, timestamp: at + 10, data: { source: 0, texts: [], attributes: [], removes: [], adds: [{ parentId: 1, node: { type: 3, textContent: 'x'.repeat(200 + (n % 50)), id: n } }] } },
  ];
  const body = JSON.stringify([{ event: '$snapshot', properties: { $snapshot_data: data, $session_id: sessionId, $window_id: 'w', distinct_id: 'd', token } }]);
  return { body, sessionId, data };
}

const send = (port: number, body: string) =>
  fetch(`http://127.0.0.1:${port}/s/`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('recording durability', () => {
  it('every acknowledged recording survives kill -9, stored and counted once', async () => {
    const { stdout } = await hoglet(['bootstrap', '--email', 'r@example.com', '--json', '--data-dir', dataDir]);
    const { project_api_token: token, project_id: projectId, personal_api_key: key } = JSON.parse(stdout);
    const port = await freePort();
    let server = await startServer(dataDir, port);
    await turnOnRecordingAt(port, projectId, key);

    const acknowledged: Array<ReturnType<typeof recording>> = [];
    const unanswered: Array<ReturnType<typeof recording>> = [];
    let killed = false;
    const client = async () => {
      while (!killed) {
        const request = recording(token);
        const status = await send(port, request.body).then((r) => r.status, () => 0);
        (status === 200 ? acknowledged : unanswered).push(request);
      }
    };
    const clients = [client(), client(), client(), client()];
    const deadline = Date.now() + 60_000;
    while (acknowledged.length < 150 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    server.child.kill('SIGKILL');
    killed = true;
    await Promise.all(clients);
    await server.exited;
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);

    // Acknowledged means on disk, before any restart.
    const blocks = new RecordingBlockStore(path.join(dataDir, 'recordings'));
    const storedTexts = async () => {
      const texts = new Map<string, number>();
      for (const session of SESSIONS) {
        for (const block of await blocks.list(projectId, session)) {
          const key = JSON.stringify((await blocks.readBlock(projectId, session, block.name)).map(([, event]) => event));
          texts.set(key, (texts.get(key) ?? 0) + 1);
        }
      }
      return texts;
    };
    const before = await storedTexts();
    for (const request of acknowledged) expect(before.get(JSON.stringify(request.data)), request.body).toBe(1);

    // Restart; send what never got an answer again, as posthog-js's retry queue does.
    server = await startServer(dataDir, port);
    for (const request of unanswered) expect((await send(port, request.body)).status).toBe(200);
    server.child.kill('SIGTERM');
    await server.exited;

    const after = await storedTexts();
    for (const request of [...acknowledged, ...unanswered]) expect(after.get(JSON.stringify(request.data))).toBe(1);
    expect(after.size).toBe(acknowledged.length + unanswered.length);
    const store = await openEventStore(loadConfig({ dataDir }, {}).events);
    try {
      const rows = await store.query<{ session_id: string; blocks: string; events: string }>(
        `SELECT session_id, sum(block_count) AS blocks, sum(event_count) AS events FROM ${store.layout.database}.session_replay_events
         WHERE team_id = {team:UInt64} GROUP BY session_id ORDER BY session_id`,
        { team: projectId },
      );
      for (const session of SESSIONS) {
        const stored = (await blocks.list(projectId, session)).length;
        const row = rows.find((r) => r.session_id === session);
        expect(Number(row?.blocks ?? 0), session).toBe(stored);
        expect(Number(row?.events ?? 0), session).toBe(stored * 2);
      }
    } finally {
      await store.close();
    }
  }, 120_000);
});
