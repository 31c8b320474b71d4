// What a real `hoglet serve` answers while its disk is full (issue 32; docs/operating.md, "When the
// disk is full"): its data directory on a 64 MB tmpfs, filled while a client sends /batch/. Capture
// then answers 503 with Retry-After in PostHog's error body, queries still answer, and once space
// is freed capture resumes by itself: a client that retries its refused batches (as the SDKs do)
// ends with every event counted once. A server killed while the disk is full does not start until
// there is room, says why, and then inserts what its capture log acknowledged. Needs root to mount
// (CI runs as root); skipped with a notice otherwise.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freePort, hoglet, startServer, type ServerProcess } from './helpers/processes.js';
import { fillDisk, mountSmallDisk } from './helpers/small-disk.js';

const disk = mountSmallDisk('test/disk-full-server.test.ts', 64);
const dataDir = path.join(disk.mountPoint, 'data');
const filler = path.join(disk.mountPoint, 'filler');
/** Left free once full: room for some capture-log appends and parts, not for the whole load. */
const LEAVE_BYTES = 1_000_000;

let server: ServerProcess | undefined;
let serverLog = '';
let base = '';
let port = 0;
let token = '';
let projectId = 0;
let key = '';
/** Every event the server answered 200 for (the client's own uuids). */
const acknowledged = new Set<string>();

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  fs.rmSync(filler, { force: true });
  fs.rmSync(`${filler}-2`, { force: true });
  disk.release();
}, 60_000);

interface Batch {
  uuids: string[];
  body: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function batchOf(size: number): Batch {
  const uuids = Array.from({ length: size }, () => randomUUID());
  const events = uuids.map((uuid, i) => ({ event: 'disk', distinct_id: `u${i % 11}`, uuid, properties: { i, pad: 'p'.repeat(200) } }));
  return { uuids, body: JSON.stringify({ api_key: token, batch: events }) };
}
const send = (batch: Batch) => fetch(`${base}/batch/`, { method: 'POST', body: batch.body, headers: { 'content-type': 'application/json' } });
const hogql = (query: string) =>
  fetch(`${base}/api/projects/${projectId}/query/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: { kind: 'HogQLQuery', query } }),
  });
const captureStatus = async () => ((await (await fetch(`${base}/_health`)).json()) as { capture: { waiting_events: number; set_aside_events: number } }).capture;

async function start(): Promise<void> {
  server = await startServer(dataDir, port, [], { stderr: 'pipe' });
  server.child.stderr!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
}

/** Waits until the capture log's events are all inserted, then counts the client's events (all, distinct). */
async function countedOnceSettled(): Promise<number[][]> {
  const settledBy = Date.now() + 20_000;
  while ((await captureStatus()).waiting_events > 0 && Date.now() < settledBy) await pause(200);
  expect(await captureStatus()).toMatchObject({ waiting_events: 0, set_aside_events: 0 });
  const answer = await hogql("SELECT count(), count(DISTINCT uuid) FROM events WHERE event = 'disk'");
  expect(answer.status, await answer.clone().text()).toBe(200);
  return ((await answer.json()) as { results: number[][] }).results;
}

describe.skipIf(disk.skipReason !== null)('a real server on a full disk', () => {
  beforeAll(async () => {
    const boot = await hoglet(['bootstrap', '--email', 'disk@example.com', '--json', '--data-dir', dataDir]);
    expect(boot.code, boot.stderr).toBe(0);
    ({ project_api_token: token, project_id: projectId, personal_api_key: key } = JSON.parse(boot.stdout));
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await start();
  }, 60_000);

  it('refuses capture with 503 and Retry-After, answers queries, and resumes by itself with every acknowledged event counted', async () => {
    const refused: Batch[] = [];
    const warmUp = batchOf(50);
    expect((await send(warmUp)).status).toBe(200);
    warmUp.uuids.forEach((uuid) => acknowledged.add(uuid));
    while ((await captureStatus()).waiting_events > 0) await pause(50);

    // Fill the disk, then send waves of four batches until capture has refused three waves whole.
    fillDisk(filler, LEAVE_BYTES);
    const statuses = new Map<number, number>();
    let firstRefusal: { headers: Headers; body: unknown } | null = null;
    let refusedWaves = 0;
    for (let wave = 0; wave < 100 && refusedWaves < 3; wave++) {
      const batches = Array.from({ length: 4 }, () => batchOf(20));
      const answers = await Promise.all(batches.map(send));
      for (const [i, answer] of answers.entries()) {
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 200) batches[i]!.uuids.forEach((uuid) => acknowledged.add(uuid));
        else refused.push(batches[i]!);
        const body: unknown = await answer.json();
        if (answer.status === 503 && !firstRefusal) firstRefusal = { headers: answer.headers, body };
      }
      refusedWaves = answers.every((answer) => answer.status === 503) ? refusedWaves + 1 : 0;
      await pause(25);
    }
    expect([...statuses.keys()].every((status) => status === 200 || status === 503), JSON.stringify([...statuses])).toBe(true);
    expect(refusedWaves, JSON.stringify([...statuses])).toBe(3);
    expect(firstRefusal!.headers.get('retry-after')).toBe('1');
    expect(firstRefusal!.body).toEqual({ type: 'server_error', code: 'service_unavailable', detail: expect.any(String), attr: null });

    // Queries still answer while the disk is full, at once, with what is stored so far (the
    // acknowledged events waiting in the capture log show up once space is back); nothing is set aside.
    const waiting = (await captureStatus()).waiting_events;
    const queriedAt = Date.now();
    const during = await hogql("SELECT count() FROM events WHERE event = 'disk'");
    expect(during.status, await during.clone().text()).toBe(200);
    expect(Date.now() - queriedAt, 'a query waited for capture while the store cannot take events').toBeLessThan(3_000);
    expect(waiting, 'acknowledged events wait in the capture log while the disk is full').toBeGreaterThan(0);
    const [[storedWhileFull]] = ((await during.json()) as { results: number[][] }).results as [[number]];
    expect(storedWhileFull).toBeGreaterThanOrEqual(warmUp.uuids.length);
    expect(storedWhileFull).toBeLessThanOrEqual(acknowledged.size);
    const healthWhileFull = await fetch(`${base}/_health`);
    expect(healthWhileFull.status).toBe(200);
    expect(((await healthWhileFull.json()) as { capture: object }).capture).toMatchObject({ set_aside_events: 0 });

    // Space comes back: with no restart, capture takes batches again within seconds.
    fs.rmSync(filler);
    const resumedBy = Date.now() + 20_000;
    for (;;) {
      const probe = batchOf(5);
      const answer = await send(probe);
      if (answer.status === 200) {
        probe.uuids.forEach((uuid) => acknowledged.add(uuid));
        break;
      }
      expect(answer.status).toBe(503);
      refused.push(probe);
      expect(Date.now(), 'capture did not resume within 20 s of space coming back').toBeLessThan(resumedBy);
      await pause(Number(answer.headers.get('retry-after')) * 250);
    }
    // The client sends again what was refused, as the SDKs do after Retry-After.
    for (const batch of refused) {
      const answer = await send(batch);
      expect(answer.status, await answer.text()).toBe(200);
      batch.uuids.forEach((uuid) => acknowledged.add(uuid));
    }
    // Every acknowledged event is counted, once: the client's uuids are all it ever sent.
    expect(await countedOnceSettled()).toEqual([[acknowledged.size, acknowledged.size]]);
    // A full disk is a 503 the server expected, never a 500.
    expect(serverLog).not.toMatch(/unhandled error|internal error/);
  }, 60_000);

  it('does not start while the disk is full, says why, and then inserts every event its capture log acknowledged', async () => {
    // Events acknowledged into the log while the event store cannot take them, then a crash.
    fillDisk(filler, LEAVE_BYTES);
    let waiting = 0;
    for (let wave = 0; wave < 100 && waiting === 0; wave++) {
      const batches = Array.from({ length: 4 }, () => batchOf(20));
      const answers = await Promise.all(batches.map(send));
      answers.forEach((answer, i) => answer.status === 200 && batches[i]!.uuids.forEach((uuid) => acknowledged.add(uuid)));
      waiting = (await captureStatus()).waiting_events;
    }
    expect(waiting).toBeGreaterThan(0);
    server!.child.kill('SIGKILL');
    await server!.exited;

    // Not a byte left: the start fails with a word on what to do.
    fillDisk(`${filler}-2`, 0);
    const refusedStart = await serveUntilExit();
    expect(refusedStart.code).toBe(1);
    expect(refusedStart.stderr).toMatch(/the disk holding the data is full or failing; free space and start again/);

    fs.rmSync(filler);
    fs.rmSync(`${filler}-2`);
    await start();
    expect(await countedOnceSettled()).toEqual([[acknowledged.size, acknowledged.size]]);
    expect(serverLog).not.toMatch(/unhandled error|internal error/);
  }, 60_000);
});

/** `hoglet serve` expected to exit at start; killed after 30 s if it does not. */
function serveUntilExit(): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--port', String(port), '--log-level', 'warn'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) => child.once('exit', (code) => (clearTimeout(timer), resolve({ code, stderr }))));
}
