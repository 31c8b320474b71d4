// PostHog's blob_v2 snapshot sources: with blob_v2=true the listing names each stored block by its
// index in time order; `source=blob_v2&start_blob_key=&end_blob_key=` answers that range's lines in
// one response (both ends included), bounded as PostHog bounds it (both keys, integers, at most
// 20 keys past the start with a personal API key, 100 otherwise; past the last block a 404) plus a
// stored-bytes bound; the old `blob` listing and reads still answer; another organization never
// reads the session, by member key or by a sharing token for another recording.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobRange, MAX_RANGE_STORED_BYTES } from '../../src/core/replay/snapshot-ranges.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { turnOnRecording } from '../helpers/recordings.js';
import { META_STORES } from '../helpers/stores.js';

describe.each(META_STORES)('blob_v2 snapshot ranges on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const START = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
  const BLOCKS = 25;

  /** Block i: a meta and a full snapshot first, then one incremental event each second. */
  const eventsOf = (i: number) => (i === 0
    ? [{ type: 4, timestamp: START, data: { href: 'https://shop.example/', width: 1280, height: 800 } }, { type: 2, timestamp: START + 1, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } } }]
    : [{ type: 3, timestamp: START + i * 1000, data: { source: 2, type: 2, id: i, x: i, y: i } }]);

  async function record(who: Credentials, sessionId: string, data: unknown[]) {
    const body = [{ event: '$snapshot', properties: { $snapshot_data: data, $session_id: sessionId, $window_id: 'w1', distinct_id: 'd1', token: who.projectApiToken } }];
    const res = await t.app.inject({ method: 'POST', url: '/s/', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(200);
  }
  const get = (who: Credentials, path: string, key: string | null = who.key) => t.request(key, { method: 'GET', url: `/api/projects/${who.projectId}/session_recordings/${path}` });
  const lines = (text: string) => text.split('\n').map((line) => JSON.parse(line));

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    for (const who of [alice, bob]) await turnOnRecording(t, who);
    for (let i = 0; i < BLOCKS; i++) await record(alice, 'long', eventsOf(i));
    await record(bob, 'bobs', eventsOf(0));
  });
  afterAll(() => t.close());

  it("lists blob_v2 sources in PostHog's shape: index keys in time order, each block's times", async () => {
    const res = await get(alice, 'long/snapshots/?blob_v2=true&blob_v2_lts=true');
    expect(res.statusCode).toBe(200);
    const { sources } = res.json();
    expect(sources).toHaveLength(BLOCKS);
    expect(sources[0]).toEqual({ source: 'blob_v2', start_timestamp: new Date(START).toISOString(), end_timestamp: new Date(START + 1).toISOString(), blob_key: '0' });
    expect(sources.map((s: { blob_key: string }) => s.blob_key)).toEqual(Array.from({ length: BLOCKS }, (_, i) => String(i)));
    expect(sources[7].start_timestamp).toBe(new Date(START + 7000).toISOString());
  });

  it('answers a range of blocks in one response, both ends included, in time order', async () => {
    const first = await get(alice, 'long/snapshots/?source=blob_v2&start_blob_key=0&end_blob_key=0');
    expect(first.statusCode).toBe(200);
    expect(lines(first.body)).toEqual(eventsOf(0).map((event) => ['w1', event]));
    const range = await get(alice, 'long/snapshots/?source=blob_v2&start_blob_key=3&end_blob_key=20');
    expect(lines(range.body)).toEqual(Array.from({ length: 18 }, (_, k) => ['w1', eventsOf(3 + k)[0]]));
    const all = [...lines((await get(alice, 'long/snapshots/?source=blob_v2&start_blob_key=0&end_blob_key=20')).body), ...lines((await get(alice, 'long/snapshots/?source=blob_v2&start_blob_key=21&end_blob_key=24')).body)];
    expect(all.map(([, event]) => event.timestamp)).toEqual([START, START + 1, ...Array.from({ length: BLOCKS - 1 }, (_, k) => START + (k + 1) * 1000)]);
  });

  it("refuses what PostHog's serializer refuses (400) and a key past the last block (404)", async () => {
    const detail = async (query: string) => {
      const res = await get(alice, `long/snapshots/?${query}`);
      return [res.statusCode, res.json().detail];
    };
    expect(await detail('source=blob_v2&start_blob_key=0')).toEqual([400, 'Must provide both start blob key and end blob key']);
    expect(await detail('source=blob_v2&start_blob_key=a&end_blob_key=2')).toEqual([400, 'Blob keys must be integers']);
    expect(await detail('source=blob_v2&start_blob_key=-1&end_blob_key=2')).toEqual([400, 'Blob keys must be integers']);
    // A personal API key: at most 20 keys past the start (PostHog's rule, checked before the session's length).
    expect(await detail('source=blob_v2&start_blob_key=0&end_blob_key=21')).toEqual([400, 'Cannot request more than 20 blob keys at once']);
    expect((await detail('source=blob_v2&start_blob_key=5&end_blob_key=4'))[0]).toBe(400);
    expect(await detail('source=blob_v2&start_blob_key=20&end_blob_key=25')).toEqual([404, 'Block index out of range']);
    expect((await detail('source=nonsense'))[0]).toBe(400);
  });

  it('bounds a range by keys (100 for a member session) and by stored bytes', () => {
    const small = Array.from({ length: 300 }, (_, i) => ({ name: `b${i}`, compressedBytes: 1000 }));
    expect(blobRange({ start_blob_key: '0', end_blob_key: '100' }, small, false)).toEqual({ from: 0, to: 100 });
    expect(() => blobRange({ start_blob_key: '0', end_blob_key: '101' }, small, false)).toThrow('Cannot request more than 100 blob keys at once');
    const large = Array.from({ length: 10 }, (_, i) => ({ name: `b${i}`, compressedBytes: Math.ceil(MAX_RANGE_STORED_BYTES / 4) }));
    expect(blobRange({ start_blob_key: '0', end_blob_key: '3' }, large, false)).toEqual({ from: 0, to: 3 });
    expect(() => blobRange({ start_blob_key: '0', end_blob_key: '4' }, large, false)).toThrow(/stored bytes at once/);
  });

  it('keeps the old blob listing and reads for clients without blob_v2', async () => {
    const { sources } = (await get(alice, 'long/snapshots/')).json();
    expect(sources).toHaveLength(BLOCKS);
    expect(sources[0].source).toBe('blob');
    const blob = await get(alice, `long/snapshots/?source=blob&blob_key=${encodeURIComponent(sources[1].blob_key)}`);
    expect(lines(blob.body)).toEqual([['w1', eventsOf(1)[0]]]);
  });

  it("never answers another organization's session, and a sharing token opens only its own recording", async () => {
    for (const path of ['long/snapshots/?blob_v2=true', 'long/snapshots/?source=blob_v2&start_blob_key=0&end_blob_key=0']) {
      expect((await get(bob, path)).statusCode).toBe(404);
      // Alice's project id with Bob's key: refused before any block is read.
      expect([403, 404]).toContain((await t.request(bob.key, { method: 'GET', url: `/api/projects/${alice.projectId}/session_recordings/${path}` })).statusCode);
    }
    const share = await t.request(bob.key, { method: 'PATCH', url: `/api/projects/${bob.projectId}/session_recordings/bobs/sharing/`, payload: { enabled: true } });
    expect(share.statusCode).toBe(200);
    const token = share.json().access_token as string;
    const viaToken = (path: string) => t.request(null, { method: 'GET', url: `/api/projects/@current/session_recordings/${path}&sharing_access_token=${encodeURIComponent(token)}` });
    const own = await viaToken('bobs/snapshots/?source=blob_v2&start_blob_key=0&end_blob_key=0');
    expect(own.statusCode).toBe(200);
    expect(lines(own.body)).toEqual(eventsOf(0).map((event) => ['w1', event]));
    expect((await viaToken('long/snapshots/?source=blob_v2&start_blob_key=0&end_blob_key=0')).statusCode).toBe(403);
  });
});
