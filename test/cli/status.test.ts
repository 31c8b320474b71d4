// `hoglet status` and `hoglet --version` as an operator runs them (issue 32): the real command on a
// data directory holding events of two projects, beside a running server (which owns the embedded
// event store, so the command asks it) and with the server stopped (the command reads the files
// itself, changing nothing).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame } from '../../src/core/capture/log/frames.js';
import { SetAsideEvents } from '../../src/core/capture/log/set-aside.js';
import { CURRENT_MIGRATION_LEVELS } from '../../src/storage/migration-levels.js';
import { freePort, hoglet, startServer } from '../helpers/processes.js';

const packageVersion = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;
const levels = { metadata: CURRENT_MIGRATION_LEVELS.metadata, events: CURRENT_MIGRATION_LEVELS.events };

let dataDir: string;
let alice: { project_id: number; project_api_token: string };
let bob: { project_id: number; project_api_token: string };
/** The capture log's acknowledged records once both projects' events were captured. */
let acknowledged: number;

async function status(): Promise<any> {
  const result = await hoglet(['status', '--json', '--data-dir', dataDir]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

async function capture(port: number, token: string, events: { event: string; distinct_id: string }[]): Promise<void> {
  const batch = events.map((e, i) => ({ ...e, timestamp: `2024-03-0${i + 1}T10:00:00Z` }));
  const res = await fetch(`http://127.0.0.1:${port}/batch/`, { method: 'POST', body: JSON.stringify({ api_key: token, batch }) });
  expect(res.status).toBe(200);
}

function expectedProjects() {
  return [
    { id: alice.project_id, name: 'Default project', events: 4, persons: 3 },
    { id: bob.project_id, name: 'Second', events: 2, persons: 1 },
  ];
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-cli-status-'));
  alice = JSON.parse((await hoglet(['bootstrap', '--email', 'alice@example.com', '--organization', 'A', '--json', '--data-dir', dataDir])).stdout);
  bob = JSON.parse(
    (await hoglet(['bootstrap', '--email', 'bob@example.com', '--organization', 'B', '--project', 'Second', '--json', '--data-dir', dataDir])).stdout,
  );
}, 300_000);
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('hoglet status', () => {
  it('beside a running server: sizes, counts per project and migration levels, asking the server for what it owns', async () => {
    const port = await freePort();
    const server = await startServer(dataDir, port);
    try {
      await capture(port, alice.project_api_token, [
        { event: '$pageview', distinct_id: 'a1' },
        { event: '$pageview', distinct_id: 'a1' },
        { event: 'signed_up', distinct_id: 'a2' },
        { event: '$pageview', distinct_id: 'a3' },
      ]);
      await capture(port, bob.project_api_token, [
        { event: '$pageview', distinct_id: 'b1' },
        { event: 'purchase', distinct_id: 'b1' },
      ]);

      const body = await status();
      expect(body.unread).toEqual([]);
      expect(body.version).toBe(packageVersion);
      expect(body.server).toEqual({ pid: server.child.pid, url: `http://127.0.0.1:${port}` });
      expect(body.migrations).toEqual({ ...levels, current: levels });
      expect(body.projects).toEqual(expectedProjects());
      expect(body.sizes.metadata).toBeGreaterThan(0);
      expect(body.sizes.event_store).toBeGreaterThan(0);
      expect(body.sizes.capture_log).toBeGreaterThan(0);
      // The capture log as the server's /_health says it: both requests acknowledged, nothing set aside.
      expect(body.capture).toMatchObject({ set_aside_events: 0, set_aside_files: 0 });
      expect(body.capture.log.acknowledged).toBeGreaterThanOrEqual(1);
      acknowledged = body.capture.log.acknowledged;

      const text = await hoglet(['status', '--data-dir', dataDir]);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain(`Hoglet ${packageVersion}, data directory ${dataDir}`);
      expect(text.stdout).toContain(`server:      running (pid ${server.child.pid}) at http://127.0.0.1:${port}`);
      expect(text.stdout).toContain(`migrations:  metadata ${levels.metadata}, event store ${levels.events}`);
      expect(text.stdout).toMatch(/^on disk: +metadata [\d.]+ [KMG]?B, event store [\d.]+ [KMG]?B, capture log [\d.]+ [KMG]?B$/m);
      expect(text.stdout).toMatch(new RegExp(`^ +${alice.project_id}  Default project +4 +3$`, 'm'));
      expect(text.stdout).toMatch(new RegExp(`^ +${bob.project_id}  Second +2 +1$`, 'm'));
      expect(text.stdout).not.toContain('could not read');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 300_000);

  it('with the server stopped: reads the directory itself, the same numbers, and leaves it as it was', async () => {
    const sqlite = path.join(dataDir, 'hoglet.sqlite3');
    const before = fs.statSync(sqlite).mtimeMs;
    const body = await status();
    expect(body.unread).toEqual([]);
    expect(body.server).toBeNull();
    expect(body.migrations).toEqual({ ...levels, current: levels });
    expect(body.projects).toEqual(expectedProjects());
    // Read from the log's files: everything acknowledged was inserted before the server stopped.
    expect(body.capture).toEqual({ waiting_events: 0, set_aside_events: 0, set_aside_files: 0, log: { acknowledged, inserted: acknowledged } });
    expect(body.sizes.event_store).toBeGreaterThan(0);
    // Nothing written, nothing left claimed.
    expect(fs.statSync(sqlite).mtimeMs).toBe(before);
    expect(fs.existsSync(path.join(dataDir, 'events', 'owner.pid'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'capture-log', 'owner.pid'))).toBe(false);
  }, 300_000);

  it("counts what a stopped server left in the capture log: records not inserted yet and events set aside", async () => {
    const logDir = path.join(dataDir, 'capture-log');
    // A record acknowledged after the last checkpoint (as a SIGKILL right after the 200 leaves it),
    // in the log's own frame format, and a batch the store refused, written by the log's own writer.
    const segment = path.join(logDir, `segment-${String(acknowledged + 1).padStart(16, '0')}.log`);
    const events = (n: number) => Array.from({ length: n }, (_, i) => ({ uuid: `0190${i}`, event: 'late', distinctId: 'a1' })) as never[];
    fs.writeFileSync(segment, encodeFrame(JSON.stringify({ seq: acknowledged + 1, items: [{ teamId: alice.project_id, events: events(2) }, { teamId: bob.project_id, events: events(1) }] })));
    const refused = await SetAsideEvents.of(logDir).write(acknowledged, { teamId: bob.project_id, events: events(4) }, new Error('refused by the store'));
    try {
      const body = await status();
      expect(body.capture).toEqual({ waiting_events: 3, set_aside_events: 4, set_aside_files: 1, log: { acknowledged: acknowledged + 1, inserted: acknowledged } });
      const text = await hoglet(['status', '--data-dir', dataDir]);
      expect(text.stdout).toContain(
        `capture log: 3 event(s) waiting to be inserted, records acknowledged ${acknowledged + 1}, inserted ${acknowledged}, 4 event(s) set aside in 1 file(s)`,
      );
      expect(text.stdout).toContain('hoglet capture reinsert');
      // Only read: the record is still there for the next start to insert.
      expect(fs.existsSync(segment)).toBe(true);
    } finally {
      fs.rmSync(segment);
      fs.rmSync(refused);
    }
  }, 300_000);

  it('says what it could not read: an event store a killed process left open stays for the server to repair', async () => {
    const dead = await deadPid();
    const lock = path.join(dataDir, 'events', 'owner.pid');
    fs.writeFileSync(lock, String(dead));
    try {
      const result = await hoglet(['status', '--data-dir', dataDir]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('could not read:');
      expect(result.stdout).toContain('left open by a process that stopped without closing it; start the server once (it repairs the store)');
      // The metadata side is still read; the counts are unknown, not zero.
      expect(result.stdout).toMatch(new RegExp(`^ +${alice.project_id}  Default project +\\? +\\?$`, 'm'));
      // The lock stays, so the next server to open the store knows it must repair it.
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(dead));
    } finally {
      fs.rmSync(lock, { force: true });
    }
  }, 300_000);
});

describe('hoglet --version', () => {
  it("prints package.json's version, and with a data directory its migration levels", async () => {
    const plain = await hoglet(['--version']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(`${packageVersion}\n`);
    const withDir = await hoglet(['--version', '--data-dir', dataDir]);
    expect(withDir.code, withDir.stderr).toBe(0);
    expect(withDir.stdout).toBe(
      `${packageVersion}\n` +
        `metadata migration level:    ${levels.metadata} (this version: ${levels.metadata})\n` +
        `event store migration level: ${levels.events} (this version: ${levels.events})\n`,
    );
  }, 300_000);
});

/** The pid of a process that has exited (a lock holding it is one a killed process left). */
async function deadPid(): Promise<number> {
  const child = execFile(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}
