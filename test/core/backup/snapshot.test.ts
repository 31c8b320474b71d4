// The server's half of a backup at the moment that matters: capture's inserter has a write under
// way and acknowledged records queued behind it. The snapshot waits for that write, holds the next
// while it freezes, and copies the queued records as the capture log of the copy, so a log opened
// on the copy gives them back as pending: what a restored server inserts when it starts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { takeSnapshot } from '../../../src/core/backup/snapshot.js';
import type { TeamEvents } from '../../../src/core/capture/event-writer.js';
import { CaptureInserter } from '../../../src/core/capture/inserter.js';
import { CaptureLog } from '../../../src/core/capture/log/capture-log.js';
import { ServiceUnavailableError } from '../../../src/errors.js';
import type { EventStore } from '../../../src/storage/events/event-store.js';
import { openMetaStore } from '../../../src/storage/meta/connect.js';
import { capturedEvent } from '../../helpers/ingest.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const items = (name: string): TeamEvents[] => [{ teamId: 3, events: [capturedEvent(name, 'u1')] }];
const names = (batches: { items: TeamEvents[] }[]) => batches.flatMap((b) => b.items.flatMap((item) => item.events.map((e) => e.event)));

/** An event store of one empty table whose FREEZE notes what had been written by then. */
function oneTable(eventsDir: string, onFreeze: () => void): EventStore {
  const table = { database: 'hoglet', name: 'events', data_paths: [path.join(eventsDir, 'store', 'abc', 'abc-uuid') + '/'] };
  return {
    query: async (sql: string) => (sql.includes('MergeTree') ? [table] : []),
    command: async (sql: string) => {
      if (sql.includes('FREEZE')) onFreeze();
    },
    layout: { database: 'hoglet' },
  } as unknown as EventStore;
}

describe('backup snapshot', () => {
  it('waits for the write under way, holds the next, and keeps the records acknowledged behind it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-snapshot-'));
    dirs.push(dataDir);
    const eventsDir = path.join(dataDir, 'events');
    fs.mkdirSync(path.join(eventsDir, 'metadata'), { recursive: true });
    fs.writeFileSync(path.join(eventsDir, 'metadata', 'hoglet.sql'), 'ATTACH DATABASE _ ENGINE = Atomic');
    fs.writeFileSync(path.join(eventsDir, 'owner.pid'), '1');
    const meta = await openMetaStore({ dataDir, databaseUrl: null });
    const captureLogDir = path.join(dataDir, 'capture-log');
    const { log } = await CaptureLog.open(captureLogDir);

    const written: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inserter = new CaptureInserter(async (batch) => {
      await gate;
      written.push(batch.flatMap((item) => item.events.map((e) => e.event)));
    }, log, { maxBatchItems: 1, maxBacklogItems: 1_000, classify: async () => 'store' });
    for (const name of ['a', 'b', 'c']) inserter.enqueue({ seq: await log.append(items(name)), items: items(name) });

    const staging = path.join(dataDir, '.backup-0123456789abcdef');
    fs.mkdirSync(staging);
    let done = false;
    let atFreeze: string[][] = [];
    const events = oneTable(eventsDir, () => (atFreeze = [...written]));
    const snapshot = takeSnapshot({ events, eventsDir, meta, inserter, captureLogDir, recordingsDir: path.join(dataDir, 'recordings') }, staging).finally(() => (done = true));
    await sleep(50);
    expect(done).toBe(false); // 'a' is being written
    release();
    const manifest = await snapshot;
    // 'a' was inserted before the instant; 'b' and 'c' were held while the tables froze.
    expect(atFreeze).toEqual([['a']]);
    expect(manifest.capture_log.inserted_seq).toBe(1);
    expect(manifest.migrations.metadata).toMatch(/^\d{4}_/);
    expect(manifest.event_tables).toEqual([{ name: 'events', parts: 0 }]);

    // The copy's log replays exactly what was acknowledged and not inserted.
    const copy = await CaptureLog.open(path.join(staging, 'capture-log'));
    expect(copy.pending.map((batch) => batch.seq)).toEqual([2, 3]);
    expect(names(copy.pending)).toEqual(['b', 'c']);
    await copy.log.close();
    // The event store's files without the process's own; the metadata as a SQLite file.
    expect(fs.readFileSync(path.join(staging, 'events', 'metadata', 'hoglet.sql'), 'utf8')).toContain('Atomic');
    expect(fs.existsSync(path.join(staging, 'events', 'owner.pid'))).toBe(false);
    expect(fs.statSync(path.join(staging, 'hoglet.sqlite3')).size).toBeGreaterThan(0);

    // Then the held records go in, in order.
    await inserter.visible(5_000);
    expect(written).toEqual([['a'], ['b'], ['c']]);
    await inserter.stop(1_000);
    await log.close();
    await meta.close();
  });

  it('gives up, freezing nothing, while the store keeps a write from finishing; then pauses again once it does', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-snapshot-'));
    dirs.push(dir);
    const { log } = await CaptureLog.open(dir);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inserter = new CaptureInserter(() => gate, log, { maxBatchItems: 1, maxBacklogItems: 1_000, classify: async () => 'store' });
    inserter.enqueue({ seq: await log.append(items('a')), items: items('a') });
    let ran = false;
    await expect(inserter.whilePaused(async () => (ran = true), 50)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(ran).toBe(false);
    release();
    expect(await inserter.whilePaused(async (seq) => seq, 5_000)).toBe(1);
    await inserter.stop(1_000);
    await log.close();
  });
});
