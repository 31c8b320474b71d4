// A real full disk (issue 27): Hoglet's whole data directory on a small tmpfs, filled up while
// clients send /batch/ requests, then freed. Every acknowledged event ends in the store, none is
// set aside, and while the disk is full queries answer (uncached) or say 503, never 500. Mounting
// needs root (CI runs as root); elsewhere the test is skipped with a notice.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/http/app.js';
import { createServices, type Services } from '../src/services.js';
import { fillDisk, mountSmallDisk } from './helpers/small-disk.js';

/** Left free once full: room for the capture log's appends and a few parts, not for every insert. */
const LEAVE_BYTES = 1_600_000;
const disk = mountSmallDisk('test/full-disk.test.ts', 64);
const mountPoint = disk.mountPoint;

let services: Services;
let app: FastifyInstance;
let token: string;
let key: string;
let projectId: number;
const problems: string[] = [];
const filler = path.join(mountPoint, 'filler');

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function batch(events: number) {
  const uuids = Array.from({ length: events }, () => randomUUID());
  const body = { api_key: token, batch: uuids.map((uuid, i) => ({ event: 'full', distinct_id: `u${i % 13}`, uuid, properties: { i, pad: 'p'.repeat(200) } })) };
  return { uuids, send: () => app.inject({ method: 'POST', url: '/batch/', payload: body }) };
}

describe.skipIf(disk.skipReason !== null)('a full disk', () => {
  beforeAll(async () => {
    const config = loadConfig({ dataDir: path.join(mountPoint, 'data') }, {});
    services = await createServices(config, { onBackgroundError: (error) => problems.push(String(error)) });
    app = await buildApp(services);
    await app.ready();
    const account = await services.accounts.bootstrap({ email: 'full@example.com', organizationName: 'F', projectName: 'F', scopes: ['*'] });
    ({ project_api_token: token, personal_api_key: key, project_id: projectId } = account);
  }, 60_000);

  afterAll(async () => {
    fs.rmSync(filler, { force: true });
    await app?.close();
    await services?.close();
    disk.release();
  }, 60_000);

  it('loses no acknowledged event, sets none aside, and answers queries or 503 meanwhile', async () => {
    const acknowledged: string[] = [];
    const warmUp = batch(50);
    expect((await warmUp.send()).statusCode).toBe(200);
    acknowledged.push(...warmUp.uuids);

    // Room for some parts, not for all: inserts succeed until it is gone, then every one fails.
    fillDisk(filler, LEAVE_BYTES);
    const statuses = new Map<number, number>();
    const send = async (waves: number) => {
      for (let wave = 0; wave < waves; wave++) {
        const batches = Array.from({ length: 4 }, () => batch(20));
        const answers = await Promise.all(batches.map((b) => b.send()));
        answers.forEach((answer, i) => {
          statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
          if (answer.statusCode === 200) acknowledged.push(...batches[i]!.uuids);
        });
        await pause(25);
      }
    };
    await send(40);
    // Capture acknowledges what its log holds and refuses the rest with 503; nothing else.
    expect([...statuses.keys()].every((status) => status === 200 || status === 503), JSON.stringify([...statuses])).toBe(true);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);

    // A query while the disk is full: an answer (uncached) or 503, never a 500.
    const query = await app.inject({
      method: 'POST',
      url: `/api/projects/${projectId}/query/`,
      headers: { authorization: `Bearer ${key}` },
      payload: { query: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'full' }], dateRange: { date_from: '-7d' } } },
    });
    expect([200, 503], query.body).toContain(query.statusCode);
    expect((await services.captureStatus()).set_aside_events).toBe(0);

    // Space comes back: the inserter's next retry stores everything it acknowledged.
    fs.rmSync(filler);
    const deadline = Date.now() + 60_000;
    while ((await services.captureStatus()).waiting_events > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const after = await services.captureStatus();
    expect(after).toMatchObject({ waiting_events: 0, set_aside_events: 0, set_aside_files: 0 });
    const rows = await services.events.query<{ uuid: string }>(
      `SELECT toString(uuid) AS uuid FROM ${services.events.layout.database}.events WHERE team_id = {team:UInt64}`,
      { team: projectId },
    );
    const stored = new Set(rows.map((row) => row.uuid));
    expect(acknowledged.filter((uuid) => !stored.has(uuid))).toEqual([]);
    expect(problems.some((p) => /set aside/.test(p))).toBe(false);
  }, 120_000);
});
