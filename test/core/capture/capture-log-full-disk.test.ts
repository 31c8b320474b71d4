// The capture log on a disk that fills mid-append (issue 32): the write of a record stops part
// way with ENOSPC and is answered 503. The record acknowledged after it, once some space is back,
// must come back after a restart: a torn frame left in front of it would end the replay there.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CaptureLog } from '../../../src/core/capture/log/capture-log.js';
import { capturedEvent } from '../../helpers/ingest.js';
import { fillDisk, mountSmallDisk } from '../../helpers/small-disk.js';

const disk = mountSmallDisk('test/core/capture/capture-log-full-disk.test.ts', 2, { eventsOnDisk: false });
afterAll(() => disk.release());

const record = (name: string, padBytes = 0) => [{ teamId: 7, events: [capturedEvent(name, 'u1', { pad: 'x'.repeat(padBytes) })] }];
const names = (pending: { items: { events: { event: string }[] }[] }[]) => pending.map((batch) => batch.items[0]!.events[0]!.event);

describe.skipIf(disk.skipReason !== null)('capture log on a full disk', () => {
  it('keeps a record acknowledged after an append the full disk cut short', async () => {
    const dir = path.join(disk.mountPoint, 'capture-log');
    const filler = path.join(disk.mountPoint, 'filler');
    const { log } = await CaptureLog.open(dir);
    expect(await log.append(record('before'))).toBe(1);
    const segment = path.join(dir, fs.readdirSync(dir).find((name) => name.endsWith('.log'))!);
    const intact = fs.statSync(segment).size;

    // 8 KB free: a 200 KB record is written in part, then the disk is full.
    fillDisk(filler, 8192);
    await expect(log.append(record('torn', 200_000))).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(fs.statSync(segment).size).toBe(intact);

    fs.rmSync(filler);
    expect(await log.append(record('after'))).toBe(2);
    await log.close();

    const reopened = await CaptureLog.open(dir);
    expect(names(reopened.pending)).toEqual(['before', 'after']);
    expect(reopened.pending.map((batch) => batch.seq)).toEqual([1, 2]);
    await reopened.log.close();
  });
});
