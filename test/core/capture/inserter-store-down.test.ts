// Reads wait for capture (a query after a 200 sees its events), but not while the event store has
// refused every write for a while (a full disk, issue 32): the next retry is seconds away, so a
// read waiting for it would only answer late with the same rows. Once writes get through, they wait again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeamEvents } from '../../../src/core/capture/event-writer.js';
import { CaptureInserter } from '../../../src/core/capture/inserter.js';
import { CaptureLog } from '../../../src/core/capture/log/capture-log.js';
import { capturedEvent } from '../../helpers/ingest.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const items = (name: string): TeamEvents[] => [{ teamId: 3, events: [capturedEvent(name, 'u1')] }];
const diskFull = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/** How long `visible` took to resolve, in ms. */
async function waited(inserter: CaptureInserter, timeoutMs: number): Promise<number> {
  const started = Date.now();
  await inserter.visible(timeoutMs);
  return Date.now() - started;
}

describe('capture inserter while the store is down', () => {
  it('lets reads answer at once after a second of failed writes, and wait again once writes get through', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-inserter-down-'));
    dirs.push(dir);
    const { log } = await CaptureLog.open(dir);
    let full = true;
    let release: () => void = () => {};
    const inserter = new CaptureInserter(async () => {
      if (full) throw diskFull;
      await new Promise<void>((resolve) => (release = resolve));
    }, log, { maxBatchItems: 10, maxBacklogItems: 1_000, classify: async () => 'store' });
    inserter.enqueue({ seq: await log.append(items('a')), items: items('a') });

    // The first failures: a read still waits (a short hiccup may pass).
    expect(inserter.storeDown()).toBe(false);
    expect(await waited(inserter, 300)).toBeGreaterThanOrEqual(250);
    await sleep(900);
    expect(inserter.storeDown()).toBe(true);
    expect(await waited(inserter, 5_000)).toBeLessThan(100);

    // Space is back: the retry gets through and reads wait for capture again.
    full = false;
    const deadline = Date.now() + 10_000;
    while (inserter.progress.inserted < inserter.progress.acknowledged && Date.now() < deadline) {
      release();
      await sleep(50);
    }
    expect(inserter.progress.inserted).toBe(inserter.progress.acknowledged);
    expect(inserter.storeDown()).toBe(false);
    inserter.enqueue({ seq: await log.append(items('b')), items: items('b') });
    expect(await waited(inserter, 300)).toBeGreaterThanOrEqual(250);
    release();
    await inserter.visible(5_000);
    await inserter.stop(1_000);
    await log.close();
  });
});
