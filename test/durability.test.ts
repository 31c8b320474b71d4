// The promise behind every 200: a real server process is SIGKILLed while a client sends batches;
// after a restart, every acknowledged event is stored exactly once, and batches that were in
// flight (never answered) can be re-sent without doubling anything.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openEventStore } from '../src/storage/events/connect.js';
import { freePort, hoglet, startServer } from './helpers/processes.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-durability-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function batchOf(token: string, size: number) {
  const events = Array.from({ length: size }, (_, i) => ({
    event: 'durable',
    distinct_id: `user-${i % 7}`,
    uuid: randomUUID(),
    properties: { i },
  }));
  return { body: JSON.stringify({ api_key: token, batch: events }), uuids: events.map((e) => e.uuid) };
}

const resend = (port: number, body: string) =>
  fetch(`http://127.0.0.1:${port}/batch/`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('durability', () => {
  it('every acknowledged event survives kill -9, exactly once', async () => {
    const { stdout } = await hoglet(['bootstrap', '--email', 'd@example.com', '--json', '--data-dir', dataDir]);
    const { project_api_token: token, project_id: projectId } = JSON.parse(stdout);
    const port = await freePort();
    let server = await startServer(dataDir, port);

    const acknowledged: string[] = [];
    const unanswered: Array<{ body: string; uuids: string[] }> = [];
    const statuses: number[] = [];
    let killed = false;
    // Four clients send 20-event batches as fast as the server answers.
    const client = async () => {
      while (!killed) {
        const batch = batchOf(token, 20);
        const status = await fetch(`http://127.0.0.1:${port}/batch/`, { method: 'POST', body: batch.body, headers: { 'content-type': 'application/json' } }).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) acknowledged.push(...batch.uuids);
        else {
          unanswered.push(batch);
          if (status !== 0) statuses.push(status);
        }
      }
    };
    const clients = [client(), client(), client(), client()];
    const deadline = Date.now() + 60_000;
    while (acknowledged.length < 2_000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(acknowledged.length, `acknowledged before the kill (refused: ${statuses.slice(0, 5).join(',')})`).toBeGreaterThanOrEqual(2_000);
    server.child.kill('SIGKILL');
    killed = true;
    await Promise.all(clients);
    await server.exited;

    // Restart on the same data; re-send what never got an answer, as an SDK retry would.
    server = await startServer(dataDir, port);
    // A 503 while the restarted server inserts what its log replays is retried, as the SDKs do.
    for (const batch of unanswered) {
      let res = await resend(port, batch.body);
      for (let attempt = 0; res.status === 503 && attempt < 20; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 1) * 250));
        res = await resend(port, batch.body);
      }
      expect(res.status, await res.text()).toBe(200);
    }
    server.child.kill('SIGTERM');
    await server.exited;

    const store = await openEventStore(loadConfig({ dataDir }, {}).events);
    try {
      const rows = await store.query<{ uuid: string; copies: string }>(
        `SELECT toString(uuid) AS uuid, count() AS copies FROM ${store.layout.database}.events
         WHERE team_id = {team:UInt64} GROUP BY uuid`,
        { team: projectId },
      );
      const copies = new Map(rows.map((r) => [r.uuid, Number(r.copies)]));
      const resent = unanswered.flatMap((b) => b.uuids);
      expect(acknowledged.length).toBeGreaterThanOrEqual(2_000);
      for (const uuid of [...acknowledged, ...resent]) expect(copies.get(uuid), uuid).toBe(1);
      expect(copies.size).toBe(new Set([...acknowledged, ...resent]).size);
    } finally {
      await store.close();
    }
  }, 120_000);
});
