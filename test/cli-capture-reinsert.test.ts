// `hoglet capture reinsert` as an operator runs it: the acknowledged events the event store refused
// (set aside in capture-log/refused/, e.g. by an older Hoglet that blamed them for a full disk) are
// inserted again, in-process when no server runs and through the running server's /batch/ when
// one owns the capture log; a file is removed only once its events are stored, and events the
// store refuses again stay set aside with the new reason. The server's status counts them meanwhile.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { CapturedEvent } from '../src/core/capture/types.js';
import { SetAsideEvents } from '../src/core/capture/log/set-aside.js';
import { uuidv7 } from '../src/core/tokens.js';
import { openEventStore } from '../src/storage/events/connect.js';
import { freePort, hoglet, startServer } from './helpers/processes.js';

let dataDir: string;
let projectId: number;
const FULL_DISK = new Error('the event store refused the insert', { cause: new Error('Cannot reserve 1.00 MiB, not enough space. ') });

const refusedDir = () => path.join(dataDir, 'capture-log', 'refused');
const setAside = () => SetAsideEvents.of(path.join(dataDir, 'capture-log'));

function event(name: string, distinctId: string, properties: Record<string, unknown> = {}): CapturedEvent {
  return { uuid: uuidv7(), event: name, distinctId, properties, timestampUs: Date.parse('2024-05-01T10:00:00.123Z') * 1000 + 456, historicalMigration: false };
}

/** Events by uuid as stored (opens the event store: no server may run). */
async function stored(): Promise<Map<string, { event: string; distinct_id: string; timestamp: string; properties: string }>> {
  const store = await openEventStore(loadConfig({ dataDir }, {}).events);
  try {
    const rows = await store.query<{ uuid: string; event: string; distinct_id: string; timestamp: string; properties: string }>(
      `SELECT toString(uuid) AS uuid, event, distinct_id, toString(timestamp) AS timestamp, properties FROM ${store.layout.database}.events WHERE team_id = {team:UInt64}`,
      { team: projectId },
    );
    return new Map(rows.map((r) => [r.uuid, r]));
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-reinsert-'));
  const { stdout, stderr } = await hoglet(['bootstrap', '--email', 'r@example.com', '--json', '--data-dir', dataDir]);
  expect(stdout, stderr).toContain('project_id');
  projectId = JSON.parse(stdout).project_id;
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('hoglet capture reinsert', () => {
  it('says so when nothing is set aside', async () => {
    const run = await hoglet(['capture', 'reinsert', '--data-dir', dataDir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('no events are set aside');
  });

  it('in-process: stores what was set aside, removes those files, keeps what the store refuses again', async () => {
    fs.mkdirSync(refusedDir(), { recursive: true });
    const good = [event('signed up', 'ann', { $set: { plan: 'pro' }, n: 1 }), event('paid', 'ann'), event('paid', 'bob')];
    const poison = event('bad\ud800', 'eve');
    await setAside().write(7, { teamId: projectId, events: good.slice(0, 2) }, FULL_DISK);
    await setAside().write(9, { teamId: projectId, events: good.slice(2) }, FULL_DISK);
    await setAside().write(12, { teamId: projectId, events: [poison] }, FULL_DISK);

    const run = await hoglet(['capture', 'reinsert', '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('reinserted through in-process: 3 event(s) stored from 3 file(s)');
    expect(run.stdout).toMatch(/refused again, set aside anew: 1 event\(s\): .*surrogate/);

    const events = await stored();
    for (const e of good) expect(events.get(e.uuid)).toMatchObject({ event: e.event, distinct_id: e.distinctId, timestamp: '2024-05-01 10:00:00.123456' });
    expect(JSON.parse(events.get(good[0]!.uuid)!.properties)).toMatchObject({ n: 1, $set: { plan: 'pro' } });
    // Only the refused event is still set aside, in a file of its own with the engine's new reason.
    const left = await setAside().names();
    expect(left).toHaveLength(1);
    expect(left[0]).not.toBe(`12-${poison.uuid}.json`);
    expect(await setAside().read(left[0]!)).toMatchObject({ teamId: projectId, events: [{ uuid: poison.uuid }], reason: expect.stringMatching(/surrogate/) });
    fs.rmSync(path.join(refusedDir(), left[0]!));
  }, 120_000);

  it('through the running server: its status counts them, then they are stored and the files go', async () => {
    const port = await freePort();
    const server = await startServer(dataDir, port);
    const events = [event('late', 'cy'), event('late', 'dee')];
    try {
      await setAside().write(21, { teamId: projectId, events: [events[0]!] }, FULL_DISK);
      await setAside().write(22, { teamId: projectId, events: [events[1]!] }, FULL_DISK);
      const before = await (await fetch(`http://127.0.0.1:${port}/_health`)).json();
      expect(before).toMatchObject({ status: 'ok', capture: { set_aside_files: 2, set_aside_events: 2 } });

      const run = await hoglet(['capture', 'reinsert', '--data-dir', dataDir]);
      expect(run.code, run.stderr + run.stdout).toBe(0);
      expect(run.stdout).toMatch(/reinserted through the server \(pid \d+\) at http:\/\/127\.0\.0\.1:\d+: 2 event\(s\) stored from 2 file\(s\)/);
      expect(fs.readdirSync(refusedDir())).toEqual([]);
      const after = await (await fetch(`http://127.0.0.1:${port}/_health`)).json();
      expect(after).toMatchObject({ capture: { set_aside_files: 0, set_aside_events: 0 } });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    const all = await stored();
    for (const e of events) expect(all.get(e.uuid)).toMatchObject({ event: 'late', distinct_id: e.distinctId, timestamp: '2024-05-01 10:00:00.123456' });
  }, 120_000);
});
