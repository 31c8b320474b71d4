// The capture log on its own: what was appended (and synced) comes back after a restart unless
// the checkpoint says it was inserted; a torn last append is cut off; inserted segments go away.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CaptureLog } from '../../../src/core/capture/log/capture-log.js';
import { capturedEvent } from '../../helpers/ingest.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-log-'));
  dirs.push(dir);
  return dir;
}

const items = (name: string, n = 1) => [{ teamId: 7, events: Array.from({ length: n }, (_, i) => capturedEvent(name, `u${i}`, { i })) }];
const segments = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith('.log')).sort();

describe('capture log', () => {
  it('gives back every appended record after a restart, in order, and numbers on from there', async () => {
    const dir = tempDir();
    const first = await CaptureLog.open(dir);
    expect(first.pending).toEqual([]);
    const appended = [items('a', 3), items('b'), items('c', 2)];
    const seqs = [];
    for (const batch of appended) seqs.push(await first.log.append(batch));
    expect(seqs).toEqual([1, 2, 3]);
    await first.log.close();

    const second = await CaptureLog.open(dir);
    expect(second.pending.map((b) => b.seq)).toEqual([1, 2, 3]);
    expect(second.pending.map((b) => b.items)).toEqual(appended);
    expect(await second.log.append(items('d'))).toBe(4);
    await second.log.close();
  });

  it('replays only what follows the checkpoint, and deletes segments holding nothing newer', async () => {
    const dir = tempDir();
    // Tiny segments: every append starts a new one.
    const { log } = await CaptureLog.open(dir, { segmentBytes: 10 });
    for (const name of ['a', 'b', 'c', 'd']) await log.append(items(name));
    expect(segments(dir)).toHaveLength(4);
    await log.markInserted(2);
    expect(segments(dir)).toHaveLength(2);
    await log.close();

    const reopened = await CaptureLog.open(dir);
    expect(reopened.pending.map((b) => [b.seq, b.items[0]!.events[0]!.event])).toEqual([[3, 'c'], [4, 'd']]);
    await reopened.log.markInserted(4);
    await reopened.log.close();
    const last = await CaptureLog.open(dir);
    expect(last.pending).toEqual([]);
    expect(await last.log.append(items('e'))).toBe(5);
    await last.log.close();
  });

  it('cuts a torn last append (never acknowledged) and keeps everything before it', async () => {
    const dir = tempDir();
    const { log } = await CaptureLog.open(dir);
    await log.append(items('a'));
    await log.append(items('b'));
    await log.close();
    const [segment] = segments(dir);
    const file = path.join(dir, segment!);
    const intact = fs.statSync(file).size;
    // Half of a third record, as a power cut in the middle of a write leaves it.
    const torn = Buffer.alloc(40);
    torn.writeUInt32LE(5_000, 0);
    fs.appendFileSync(file, torn);

    const reopened = await CaptureLog.open(dir);
    expect(reopened.pending.map((b) => b.items[0]!.events[0]!.event)).toEqual(['a', 'b']);
    expect(fs.statSync(file).size).toBe(intact);
    expect(await reopened.log.append(items('c'))).toBe(3);
    await reopened.log.close();
    expect((await CaptureLog.open(dir)).pending.map((b) => b.seq)).toEqual([1, 2, 3]);
  });

  it('drops a last record whose bytes do not match their checksum', async () => {
    const dir = tempDir();
    const { log } = await CaptureLog.open(dir);
    await log.append(items('a'));
    await log.append(items('b'));
    await log.close();
    const file = path.join(dir, segments(dir)[0]!);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 3]! ^= 0xff;
    fs.writeFileSync(file, bytes);
    const reopened = await CaptureLog.open(dir);
    expect(reopened.pending.map((b) => b.items[0]!.events[0]!.event)).toEqual(['a']);
    await reopened.log.close();
  });

  it('refuses a value it cannot serialise without writing anything', async () => {
    const dir = tempDir();
    const { log } = await CaptureLog.open(dir);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(log.append([{ teamId: 7, events: [capturedEvent('x', 'u', cyclic)] }])).rejects.toThrow(TypeError);
    expect(await log.append(items('ok'))).toBe(1);
    await log.close();
    expect((await CaptureLog.open(dir)).pending.map((b) => b.items[0]!.events[0]!.event)).toEqual(['ok']);
  });
});
