// The snapshots sources listing takes each block's times from its name (block-times.ts), reading no
// block, and answers exactly what reading every block answered: same sources, order and times, for
// blocks stored before names held times (read, and only those) and after, mixed in one session.
// Blob and range answers are the stored text, equal to the lines parsed and written again; a range
// of one block plays even past the stored-bytes bound; bad list dates are 400s, never 5xx.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeBlock, sessionDirectoryName } from '../../src/core/replay/block-store.js';
import { MAX_RANGE_STORED_BYTES } from '../../src/core/replay/snapshot-ranges.js';
import type { SnapshotLine } from '../../src/core/replay/snapshots.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { recordSession, rrwebPage } from '../helpers/recordings.js';
import { META_STORES } from '../helpers/stores.js';

/** What the listing answered when it read every block (the code before block-times.ts), as the oracle. */
function timesByReading(lines: readonly SnapshotLine[]): { start: string | null; end: string | null } {
  const times = lines.map(([, event]) => event.timestamp).filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
  return times.length === 0 ? { start: null, end: null } : { start: new Date(Math.min(...times)).toISOString(), end: new Date(Math.max(...times)).toISOString() };
}

describe.each(META_STORES)('snapshot sources and blobs without parsing on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const NOW = Math.floor(Date.now() / 1000) * 1000;
  const START = NOW - 3_600_000;

  /** Blocks with awkward times: fractions, a negative time, a block with no time at all, and odd values. */
  const blocks: unknown[][] = [
    rrwebPage(START, 30),
    [{ type: 3, timestamp: START + 40_000.7, data: { source: 2, type: 2, id: 1, x: 0, y: 0, text: 'é ✓ \u2028 "q"', big: 1e21, tiny: 5e-324 } }, { type: 3, timestamp: START + 41_000.2, data: { source: 1, positions: [] } }],
    [{ type: 3, timestamp: -5, data: { source: 2, type: 2, id: 1 } }, { type: 3, timestamp: START + 50_000, data: { source: 2, type: 2, id: 1 } }],
    [{ type: 5, data: { tag: 'no time' } }, { type: 3, timestamp: 'soon', data: { source: 1 } }],
    rrwebPage(START + 70_000, 5, 'https://shop.example/later'),
  ];

  const get = (who: Credentials, url: string) => t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/session_recordings/${url}` });
  const sessionDir = (who: Credentials, session: string) => path.join(t.services.replay.blocks.backupDirectory!, String(who.projectId), sessionDirectoryName(session));
  /** Each block file of the session (sorted as the store lists them), read directly. */
  const storedBlocks = async (who: Credentials, session: string) =>
    Promise.all(fs.readdirSync(sessionDir(who, session)).filter((name) => name.endsWith('.jsonl.gz')).sort()
      .map(async (name) => ({ name, lines: await decodeBlock(fs.readFileSync(path.join(sessionDir(who, session), name))) })));
  /** Renames a block to the name it had before names held times. */
  const toLegacyName = (who: Credentials, session: string, name: string) =>
    fs.renameSync(path.join(sessionDir(who, session), name), path.join(sessionDir(who, session), name.replace(/\.(?:-?\d+_-?\d+|none)\.jsonl\.gz$/, '.jsonl.gz')));

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    // Recording on, as posthog-js needs it (PostHog's project field).
    expect((await t.request(alice.key, { method: 'PATCH', url: `/api/projects/${alice.projectId}/`, payload: { session_recording_opt_in: true } })).statusCode).toBe(200);
    for (const session of ['new', 'old', 'mixed']) for (const data of blocks) await recordSession(t, alice, session, 'd1', data);
    for (const [i, block] of (await storedBlocks(alice, 'old')).entries()) toLegacyName(alice, 'old', block.name), void i;
    for (const [i, block] of (await storedBlocks(alice, 'mixed')).entries()) if (i % 2 === 1) toLegacyName(alice, 'mixed', block.name);
  });
  afterAll(() => t.close());

  it('lists the same sources, order and times as reading every block, reading only blocks stored before', async () => {
    const read = vi.spyOn(t.services.replay.blocks, 'readBlock');
    try {
      for (const [session, legacyBlocks] of [['new', 0], ['old', blocks.length], ['mixed', 2]] as const) {
        const stored = await storedBlocks(alice, session);
        expect(stored.filter((b) => /^\d{13}-[0-9a-f]{20}\.jsonl\.gz$/.test(b.name))).toHaveLength(legacyBlocks);
        const expected = stored.map((b, i) => ({ key: i, name: b.name, ...timesByReading(b.lines) }));
        read.mockClear();
        const v1 = (await get(alice, `${session}/snapshots/`)).json().sources;
        const v2 = (await get(alice, `${session}/snapshots/?blob_v2=true`)).json().sources;
        expect(read).toHaveBeenCalledTimes(2 * legacyBlocks);
        expect(v1).toEqual(expected.map((b) => ({ source: 'blob', start_timestamp: b.start, end_timestamp: b.end, blob_key: b.name })));
        expect(v2).toEqual(expected.map((b) => ({ source: 'blob_v2', start_timestamp: b.start, end_timestamp: b.end, blob_key: String(b.key) })));
      }
      // The awkward blocks' times, spelled out: a negative time, fractions cut as Date cuts them, no time at all.
      const times = (await get(alice, 'new/snapshots/?blob_v2=true')).json().sources.map((s: { start_timestamp: string | null; end_timestamp: string | null }) => [s.start_timestamp, s.end_timestamp]);
      expect(times).toContainEqual([new Date(-5).toISOString(), new Date(START + 50_000).toISOString()]);
      expect(times).toContainEqual([new Date(START + 40_000).toISOString(), new Date(START + 41_000).toISOString()]);
      expect(times).toContainEqual([null, null]);
    } finally {
      read.mockRestore();
    }
  });

  it('answers blobs and ranges as the stored text, equal to its lines parsed and written again', async () => {
    const read = vi.spyOn(t.services.replay.blocks, 'readBlock');
    try {
      for (const session of ['new', 'old', 'mixed']) {
        const stored = await storedBlocks(alice, session);
        const reserialised = stored.map((b) => b.lines.map((line) => JSON.stringify(line)).join('\n'));
        for (const [i, block] of stored.entries()) {
          expect((await get(alice, `${session}/snapshots/?source=blob&blob_key=${encodeURIComponent(block.name)}`)).body).toBe(reserialised[i]);
        }
        const range = await get(alice, `${session}/snapshots/?source=blob_v2&start_blob_key=0&end_blob_key=${stored.length - 1}`);
        expect(range.statusCode).toBe(200);
        expect(range.body).toBe(reserialised.join('\n'));
      }
      expect(read).not.toHaveBeenCalled();
    } finally {
      read.mockRestore();
    }
  });

  it('plays a single block larger than the range bound (range 0-0), and still bounds a range of several', async () => {
    // ~12 MB of random text: ~9 MB gzip'd, past the 8 MiB bound, inside /s/'s 20 MiB body.
    const noise = randomBytes(9 * 1024 * 1024).toString('base64');
    await recordSession(t, alice, 'large', 'd1', [{ type: 5, timestamp: START, data: { tag: 'noise', payload: noise } }]);
    await recordSession(t, alice, 'large', 'd1', rrwebPage(START + 1000, 5));
    const [big] = await t.services.replay.blocks.list(alice.projectId, 'large');
    expect(big!.compressedBytes).toBeGreaterThan(MAX_RANGE_STORED_BYTES);
    const one = await get(alice, 'large/snapshots/?source=blob_v2&start_blob_key=0&end_blob_key=0');
    expect(one.statusCode).toBe(200);
    expect(JSON.parse(one.body)[1].data.payload).toBe(noise);
    const two = await get(alice, 'large/snapshots/?source=blob_v2&start_blob_key=0&end_blob_key=1');
    expect([two.statusCode, two.json().detail]).toEqual([400, expect.stringMatching(/stored bytes at once/)]);
    expect((await get(alice, 'large/snapshots/?source=blob_v2&start_blob_key=1&end_blob_key=1')).statusCode).toBe(200);
    // Another organization still gets nothing.
    expect((await get(bob, 'large/snapshots/?source=blob_v2&start_blob_key=0&end_blob_key=0')).statusCode).toBe(404);
  });

  it('stores nothing twice when a block stored before names held times is sent again', async () => {
    // Stored as before the upgrade: the block under its old name, its summary row counting that name.
    const blocks = t.services.replay.blocks;
    const write = blocks.write.bind(blocks);
    const legacyWrite = vi.spyOn(blocks, 'write').mockImplementation(async (...args) => {
      const stored = await write(...args);
      toLegacyName(alice, 'retry', stored.name);
      return { ...stored, name: stored.name.replace(/\.\d+_\d+\.jsonl\.gz$/, '.jsonl.gz') };
    });
    await recordSession(t, alice, 'retry', 'd1', rrwebPage(START, 10, 'https://shop.example/', 3));
    legacyWrite.mockRestore();
    const [first] = await storedBlocks(alice, 'retry');
    expect(first!.name).toMatch(/^\d{13}-[0-9a-f]{20}\.jsonl\.gz$/);
    const before = (await get(alice, 'retry/')).json();
    await recordSession(t, alice, 'retry', 'd1', rrwebPage(START, 10, 'https://shop.example/', 3));
    expect((await storedBlocks(alice, 'retry')).map((b) => b.name)).toEqual([first!.name]);
    const after = (await get(alice, 'retry/')).json();
    expect([after.click_count, after.recording_duration]).toEqual([before.click_count, before.recording_duration]);
    expect(after.click_count).toBe(3);
  });

  it("refuses an unparseable or out-of-range list date with a 400 in PostHog's body", async () => {
    for (const [name, value] of [['date_from', '-999999999y'], ['date_from', '-999999999d'], ['date_from', '-99999999999999999999h'], ['date_to', '-999999999y'], ['date_to', '-9999999999m'], ['date_from', 'yesterday-ish'], ['date_to', '+275760-09-14'], ['date_from', '1800-01-01']]) {
      const res = await get(alice, `?${name}=${encodeURIComponent(value!)}`);
      expect(res.statusCode, `${name}=${value}: ${res.body}`).toBe(400);
      expect(res.json()).toEqual({ type: 'validation_error', code: 'invalid_input', detail: `Invalid date: ${value}`, attr: name });
    }
    expect((await get(alice, '?date_from=-100y&date_to=2299-12-31')).statusCode).toBe(200);
  });

  it('never answers a 5xx to generated relative or absolute dates', async () => {
    const relative = fc.tuple(fc.constantFrom('', '-', '+', '--'), fc.oneof(fc.nat(), fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String), fc.constant('')), fc.constantFrom('h', 'd', 'w', 'm', 'y', 'q', ''))
      .map(([sign, amount, unit]) => `${sign}${amount}${unit}`);
    const absolute = fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.tuple(fc.integer({ min: -300_000, max: 300_000 }), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 40 })).map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
      fc.string({ maxLength: 20 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('date_from', 'date_to'), fc.oneof(relative, absolute), async (name, value) => {
        const res = await get(alice, `?${name}=${encodeURIComponent(value)}`);
        expect(res.statusCode, `${name}=${value}: ${res.body}`).toBeLessThan(500);
      }),
      { numRuns: 80 },
    );
  });
});
