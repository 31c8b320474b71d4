// The inserter behind the capture log on its own: acknowledged records go to the store in order,
// many per write; a failing store delays them without losing any; too long a backlog refuses new
// events; reads can wait for what was acknowledged before them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeamEvents } from '../../../src/core/capture/event-writer.js';
import { CaptureInserter } from '../../../src/core/capture/inserter.js';
import { CaptureLog } from '../../../src/core/capture/log/capture-log.js';
import { ServiceUnavailableError } from '../../../src/errors.js';
import { classifyWriteFailure, InsertRefusedError, type WriteFailure } from '../../../src/storage/events/write-failure.js';
import { capturedEvent } from '../../helpers/ingest.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
async function openLog() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-inserter-'));
  dirs.push(dir);
  return { dir, ...(await CaptureLog.open(dir)) };
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const items = (name: string, n = 1, day = '2024-05-01'): TeamEvents[] => [
  { teamId: 3, events: Array.from({ length: n }, (_, i) => ({ ...capturedEvent(name, `u${i}`), timestampUs: Date.parse(`${day}T12:00:00Z`) * 1000 })) },
];
const names = (written: TeamEvents[][]) => written.map((write) => write.flatMap((item) => item.events.map((e) => e.event)));
const storeFault = Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED', syscall: 'connect' });
const classify = async (error: unknown): Promise<WriteFailure> =>
  error instanceof InsertRefusedError ? 'content' : 'store';

describe('capture inserter', () => {
  it('writes acknowledged records in order, many per write, and lets reads wait for them', async () => {
    const { log } = await openLog();
    const written: TeamEvents[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inserter = new CaptureInserter(async (batch) => {
      await gate;
      written.push(batch);
    }, log, { maxBatchItems: 100, maxBacklogItems: 1_000, classify });
    inserter.enqueue({ seq: await log.append(items('a')), items: items('a') });
    inserter.enqueue({ seq: await log.append(items('b')), items: items('b') });
    inserter.enqueue({ seq: await log.append(items('c')), items: items('c') });
    let visible = false;
    const waiting = inserter.visible(10_000).then(() => (visible = true));
    await sleep(50);
    expect(visible).toBe(false);
    expect(inserter.hasPendingDays(3, '2024-05-01', '2024-05-01')).toBe(true);
    expect(inserter.hasPendingDays(3, '2024-05-02', null)).toBe(false);
    expect(inserter.hasPendingDays(4, null, null)).toBe(false);
    release();
    await waiting;
    // The first write took what was there; the two that arrived meanwhile went together.
    expect(names(written)).toEqual([['a'], ['b', 'c']]);
    expect(inserter.hasPendingDays(3, null, null)).toBe(false);
    await inserter.stop(1_000);
    await log.close();
  });

  it('keeps retrying while the store fails, loses nothing, and keeps the order', async () => {
    const { log } = await openLog();
    const written: TeamEvents[][] = [];
    let failures = 3;
    const problems: string[] = [];
    const inserter = new CaptureInserter(async (batch) => {
      if (failures-- > 0) throw storeFault;
      written.push(batch);
    }, log, { maxBatchItems: 100, maxBacklogItems: 1_000, classify, onProblem: (message) => problems.push(message) });
    for (const name of ['a', 'b']) inserter.enqueue({ seq: await log.append(items(name)), items: items(name) });
    await inserter.visible(10_000);
    expect(names(written).flat()).toEqual(['a', 'b']);
    expect(problems.length).toBeGreaterThanOrEqual(3);
    await inserter.stop(1_000);
    await log.close();
  });

  it('stops at once while the store is down, leaving the records in the log for the next start', async () => {
    const { dir, log } = await openLog();
    const inserter = new CaptureInserter(async () => Promise.reject(storeFault), log, { maxBatchItems: 100, maxBacklogItems: 1_000, classify });
    inserter.enqueue({ seq: await log.append(items('kept')), items: items('kept') });
    await sleep(150);
    const started = Date.now();
    await inserter.stop(30_000);
    expect(Date.now() - started).toBeLessThan(6_000);
    await log.close();
    const reopened = await CaptureLog.open(dir);
    expect(reopened.pending.map((b) => b.items[0]!.events[0]!.event)).toEqual(['kept']);
    await reopened.log.close();
  });

  it('answers 503 while more acknowledged events wait than the backlog allows', async () => {
    const { log } = await openLog();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inserter = new CaptureInserter(() => gate, log, { maxBatchItems: 10, maxBacklogItems: 25, classify });
    inserter.enqueue({ seq: await log.append(items('a', 20)), items: items('a', 20) });
    expect(() => inserter.assertRoom()).not.toThrow();
    inserter.enqueue({ seq: await log.append(items('b', 10)), items: items('b', 10) });
    expect(() => inserter.assertRoom()).toThrow(ServiceUnavailableError);
    release();
    await inserter.visible(5_000);
    expect(inserter.backlog).toBe(0);
    expect(() => inserter.assertRoom()).not.toThrow();
    await inserter.stop(1_000);
    await log.close();
  });

  it('answers 503 while the oldest acknowledged event has waited longer than the visibility bound', async () => {
    const { log } = await openLog();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inserter = new CaptureInserter(() => gate, log, { maxBatchItems: 10, maxBacklogItems: 1_000, maxBacklogAgeMs: 100, classify });
    inserter.enqueue({ seq: await log.append(items('a')), items: items('a') });
    expect(() => inserter.assertRoom()).not.toThrow();
    await sleep(150);
    expect(() => inserter.assertRoom()).toThrow(ServiceUnavailableError);
    release();
    await inserter.visible(5_000);
    expect(() => inserter.assertRoom()).not.toThrow();
    await inserter.stop(1_000);
    await log.close();
  });

  it('sets aside what the store refuses for its content and inserts the rest of the write', async () => {
    const { dir, log } = await openLog();
    const written: string[] = [];
    const inserter = new CaptureInserter(async (batch) => {
      const events = batch.flatMap((item) => item.events.map((e) => e.event));
      if (events.includes('poison')) throw new InsertRefusedError(new Error('cannot parse'));
      written.push(...events);
    }, log, { maxBatchItems: 100, maxBacklogItems: 1_000, classify });
    for (const name of ['a', 'poison', 'b', 'c']) inserter.enqueue({ seq: await log.append(items(name)), items: items(name) });
    await inserter.visible(5_000);
    expect(written.sort()).toEqual(['a', 'b', 'c']);
    const refused = fs.readdirSync(path.join(dir, 'refused'));
    expect(refused).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'refused', refused[0]!), 'utf8'))).toMatchObject({
      seq: 2, teamId: 3, events: [{ event: 'poison' }], reason: expect.stringMatching(/cannot parse/),
    });
    await inserter.stop(1_000);
    await log.close();
  });

  it('keeps refused events in the log and tries again while they cannot be set aside (a full disk)', async () => {
    const { dir, log } = await openLog();
    const refusedDir = path.join(dir, 'refused');
    // refused/ unwritable: a file where the directory should be.
    fs.rmSync(refusedDir, { recursive: true });
    fs.writeFileSync(refusedDir, '');
    const problems: string[] = [];
    const inserter = new CaptureInserter(async (batch) => {
      if (batch.some((item) => item.events.some((e) => e.event === 'poison'))) throw new InsertRefusedError(new Error('cannot parse'));
    }, log, { maxBatchItems: 100, maxBacklogItems: 1_000, classify, onProblem: (message) => problems.push(message) });
    inserter.enqueue({ seq: await log.append(items('poison')), items: items('poison') });
    await sleep(300);
    expect(inserter.backlog).toBe(1);
    expect(problems.some((p) => /could not set aside/.test(p))).toBe(true);
    fs.rmSync(refusedDir);
    fs.mkdirSync(refusedDir);
    await inserter.visible(10_000);
    expect(inserter.backlog).toBe(0);
    expect(fs.readdirSync(refusedDir)).toHaveLength(1);
    await inserter.stop(1_000);
    await log.close();
  });

  it('writes in smaller parts, in order, when the store fails a write only for its size; blames nothing', async () => {
    const { dir, log } = await openLog();
    const written: string[] = [];
    const tooLarge = Object.assign(new Error('Max query size exceeded'), { code: '62', type: 'SYNTAX_ERROR' });
    const inserter = new CaptureInserter(async (batch) => {
      if (batch.length > 2) throw tooLarge;
      written.push(...batch.flatMap((item) => item.events.map((e) => e.event)));
    }, log, { maxBatchItems: 100, maxBacklogItems: 1_000, classify: async (error) => classifyWriteFailure(error) });
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    for (const name of names) inserter.enqueue({ seq: await log.append(items(name)), items: items(name) });
    await inserter.visible(10_000);
    expect(written).toEqual(names);
    expect(fs.readdirSync(path.join(dir, 'refused'))).toEqual([]);
    await inserter.stop(1_000);
    await log.close();
  });
});
