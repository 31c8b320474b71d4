// `hoglet import` and `hoglet demo` as a user runs them: in-process when no server runs, through
// the server's capture endpoint when one owns the event store.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openEventStore } from '../src/storage/events/connect.js';
import { freePort, hoglet, startServer } from './helpers/processes.js';

let dataDir: string;
let projectId: number;

/** Event names and counts stored for the project (opens the event store: no server may run). */
async function storedCounts(): Promise<Record<string, number>> {
  const store = await openEventStore(loadConfig({ dataDir }, {}).events);
  try {
    const rows = await store.query<{ event: string; n: string }>(
      `SELECT event, count() AS n FROM ${store.layout.database}.events WHERE team_id = {team:UInt64} GROUP BY event`,
      { team: projectId },
    );
    return Object.fromEntries(rows.map((r) => [r.event, Number(r.n)]));
  } finally {
    await store.close();
  }
}

function exportLine(i: number, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    uuid: `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    event: 'imported',
    distinct_id: `user-${i % 10}`,
    properties: JSON.stringify({ i }),
    timestamp: '2024-05-01T10:00:00.000000Z',
    team_id: 99,
    set: { tier: 'gold' },
    ...extra,
  });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-cli-ingest-'));
  const { stdout } = await hoglet(['bootstrap', '--email', 'i@example.com', '--json', '--data-dir', dataDir]);
  projectId = JSON.parse(stdout).project_id;
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('hoglet import', () => {
  it('loads a PostHog export, skips bad lines with reasons, and is idempotent by uuid', async () => {
    const file = path.join(dataDir, 'export.jsonl');
    const lines = Array.from({ length: 2500 }, (_, i) => exportLine(i));
    lines.splice(10, 0, '{not json', JSON.stringify({ event: 'no id' }), JSON.stringify({ distinct_id: 'no event' }), '');
    fs.writeFileSync(file, lines.join('\n'));
    const first = await hoglet(['import', file, '--project', String(projectId), '--data-dir', dataDir]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('imported 2500 events from 2504 lines; skipped 3');
    expect(first.stdout).toContain('skipped 1: not JSON');
    expect(first.stdout).toContain('skipped 1: Invalid payload: All events must have the event field "distinct_id"!');
    expect(first.stdout).toContain('skipped 1: Invalid payload: All events must have the event name field "event"!');
    expect(first.stderr).toContain('in-process');
    const again = await hoglet(['import', file, '--project', String(projectId), '--data-dir', dataDir]);
    expect(again.code).toBe(0);
    expect((await storedCounts()).imported).toBe(2500);
  });

  it('exits non-zero on a missing file or a file with nothing importable', async () => {
    const missing = await hoglet(['import', path.join(dataDir, 'nope.jsonl'), '--project', String(projectId), '--data-dir', dataDir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read .*nope\.jsonl/);
    const garbage = path.join(dataDir, 'garbage.bin');
    fs.writeFileSync(garbage, Buffer.from([0, 1, 2, 255, 10, 200, 10]));
    const bad = await hoglet(['import', garbage, '--project', String(projectId), '--data-dir', dataDir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('no line of the file could be imported');
    const noProject = await hoglet(['import', garbage, '--project', '4242', '--data-dir', dataDir]);
    expect(noProject.code).toBe(1);
    expect(noProject.stderr).toContain('no project with id 4242');
  });

  it('goes through the running server when one owns the event store, on whatever port it listens', async () => {
    const port = await freePort();
    const server = await startServer(dataDir, port);
    try {
      const file = path.join(dataDir, 'more.jsonl');
      fs.writeFileSync(file, Array.from({ length: 300 }, (_, i) => exportLine(10_000 + i, { event: 'via-server' })).join('\n'));
      // No --port: the server announced its address next to the event store.
      const result = await hoglet(['import', file, '--project', String(projectId), '--data-dir', dataDir]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`the server (pid ${server.child.pid}) at http://127.0.0.1:${port}/batch/`);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    expect((await storedCounts())['via-server']).toBe(300);
    // A stopped server withdraws its address.
    expect(fs.existsSync(path.join(dataDir, 'events', 'server.json'))).toBe(false);
  });
});

describe('hoglet demo', () => {
  it('fills a project with the generated product, showing progress; a second run that day adds nothing', async () => {
    const result = await hoglet(['demo', '--project', String(projectId), '--data-dir', dataDir]);
    expect(result.code, result.stderr).toBe(0);
    const sent = Number(/stored (\d+) new demo events \(0 already there\)/.exec(result.stdout)?.[1]);
    expect(sent).toBeGreaterThan(50_000);
    // Not a terminal: a progress line every 10%, ending at 100% with the count.
    expect(result.stderr).toMatch(/^\d+%  \d+ events$/m);
    expect(result.stderr).toContain(`100%  ${sent} events`);
    const counts = await storedCounts();
    expect(counts.$pageview).toBeGreaterThan(10_000);
    for (const name of ['$identify', 'signed_up', 'upgraded_plan', 'purchase', 'cancelled_subscription']) expect(counts[name], name).toBeGreaterThan(0);

    const again = await hoglet(['demo', '--project', String(projectId), '--data-dir', dataDir]);
    expect(again.code, again.stderr).toBe(0);
    // The data is that of the UTC day: only runs on either side of midnight may differ.
    const dayOf = (stderr: string) => /up to (\d{4}-\d{2}-\d{2}) 00:00 UTC/.exec(stderr)?.[1];
    expect(dayOf(result.stderr)).toBeDefined();
    if (dayOf(again.stderr) !== dayOf(result.stderr)) return;
    expect(again.stdout).toContain(`stored 0 new demo events (${sent} already there)`);
    expect(await storedCounts()).toEqual(counts);
  }, 120_000);
});
