// PostHog's session recordings API over what /s/ stored: the list (PostHog's fields, newest first,
// date range, person, session ids, duration, order, paging with has_next), one recording with its person, the
// snapshots (sources, then each blob's lines exactly as captured), DELETE (blocks and summary
// rows gone), another organization's 404 and a read-only key refused the DELETE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { turnOnRecording } from '../helpers/recordings.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

describe.each(META_STORES)('session recordings API on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;

  // Recent times: PostHog's list shows the last 3 days unless asked otherwise.
  const HOUR = 3_600_000;
  const NOW = Math.floor(Date.now() / 1000) * 1000;
  const A_START = NOW - 2 * HOUR;
  const B_START = NOW - 1 * HOUR;
  const OLD_START = NOW - 10 * 24 * HOUR;

  /** rrweb events: meta, full snapshot, two clicks, a key press, a console error, 30 s long. */
  function page(at: number, href: string) {
    return [
      { type: 4, timestamp: at, data: { href, width: 1280, height: 800 } },
      { type: 2, timestamp: at + 1, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } } },
      { type: 3, timestamp: at + 1000, data: { source: 2, type: 2, id: 5, x: 1, y: 2 } },
      { type: 3, timestamp: at + 2000, data: { source: 2, type: 2, id: 5, x: 1, y: 2 } },
      { type: 3, timestamp: at + 3000, data: { source: 5, text: 'a', isChecked: false, id: 6 } },
      { type: 6, timestamp: at + 4000, data: { plugin: 'rrweb/console@1', payload: { level: 'error', payload: ['boom'] } } },
      { type: 3, timestamp: at + 30_000, data: { source: 1, positions: [{ x: 1, y: 1, id: 1, timeOffset: 0 }] } },
    ];
  }

  async function record(who: Credentials, sessionId: string, distinctId: string, data: unknown[], windowId = 'w1') {
    const body = [{
      event: '$snapshot',
      properties: { $snapshot_data: data, $session_id: sessionId, $window_id: windowId, $lib: 'web', distinct_id: distinctId, token: who.projectApiToken },
    }];
    const res = await t.app.inject({ method: 'POST', url: '/s/', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(200);
  }

  const get = (who: Credentials, path: string, key = who.key) => t.request(key, { method: 'GET', url: `/api/projects/${who.projectId}${path}` });

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    for (const who of [alice, bob]) await turnOnRecording(t, who);
    await journeys(t, alice, { 'ada-device': [ev('$identify', new Date(A_START).toISOString(), { $set: { email: 'ada@alice.dev' } })] });
    // Session A: two requests (two blocks), the second a later page.
    await record(alice, 'sess-a', 'ada-device', page(A_START, 'https://shop.example/a'));
    await record(alice, 'sess-a', 'ada-device', page(A_START + 60_000, 'https://shop.example/a2'));
    await record(alice, 'sess-b', 'anon-1', page(B_START, 'https://shop.example/b'));
    await record(alice, 'sess-old', 'anon-2', page(OLD_START, 'https://shop.example/old'));
    await record(bob, 'sess-bob', 'bob-device', page(B_START, 'https://bob.example/'));
  });
  afterAll(() => t.close());

  it('lists the last 3 days newest first, in PostHog fields, with the person when known', async () => {
    const res = await get(alice, '/session_recordings/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.has_next).toBe(false);
    expect(body.results.map((r: { id: string }) => r.id)).toEqual(['sess-b', 'sess-a']);
    const a = body.results[1];
    expect(a).toMatchObject({
      id: 'sess-a',
      distinct_id: 'ada-device',
      viewed: false,
      recording_duration: 90,
      start_time: new Date(A_START).toISOString(),
      end_time: new Date(A_START + 90_000).toISOString(),
      click_count: 4,
      keypress_count: 2,
      mouse_activity_count: 6,
      console_log_count: 0,
      console_warn_count: 0,
      console_error_count: 2,
      start_url: 'https://shop.example/a',
      snapshot_source: 'web',
    });
    expect(a.active_seconds + a.inactive_seconds).toBe(90);
    expect(a.person).toMatchObject({ distinct_ids: ['ada-device'], properties: { email: 'ada@alice.dev' }, name: 'ada@alice.dev' });
    expect(a.person.id).toBe(a.person.uuid);
    expect(body.results[0].person).toBeNull();
  });

  it('filters by date range, person and session ids, and pages with has_next', async () => {
    const ids = async (query: string) => (await get(alice, `/session_recordings/?${query}`)).json().results.map((r: { id: string }) => r.id);
    expect(await ids('date_from=-30d')).toEqual(['sess-b', 'sess-a', 'sess-old']);
    // PostHog's relative days start at midnight: -10d holds a session exactly 10 days old, -9d does not.
    expect(await ids('date_from=-10d')).toEqual(['sess-b', 'sess-a', 'sess-old']);
    expect(await ids('date_from=-9d')).toEqual(['sess-b', 'sess-a']);
    expect(await ids(`date_from=-30d&date_to=${encodeURIComponent(new Date(A_START + 1).toISOString())}`)).toEqual(['sess-a', 'sess-old']);
    const person = (await get(alice, '/session_recordings/sess-a/')).json().person;
    expect(await ids(`date_from=-30d&person_uuid=${person.uuid}`)).toEqual(['sess-a']);
    expect(await ids(`date_from=-30d&session_ids=${encodeURIComponent(JSON.stringify(['sess-old', 'sess-b']))}`)).toEqual(['sess-b', 'sess-old']);
    const first = (await get(alice, '/session_recordings/?date_from=-30d&limit=2')).json();
    expect([first.results.length, first.has_next]).toEqual([2, true]);
    const second = (await get(alice, '/session_recordings/?date_from=-30d&limit=2&offset=2')).json();
    expect([second.results.map((r: { id: string }) => r.id), second.has_next]).toEqual([['sess-old'], false]);
    expect((await t.request(alice.key, { method: 'GET', url: `/api/environments/${alice.projectId}/session_recordings/` })).json().results).toHaveLength(2);
  });

  it("orders by PostHog's order fields and filters on duration with having_predicates", async () => {
    const ids = async (query: string) => (await get(alice, `/session_recordings/?date_from=-30d&${query}`)).json().results.map((r: { id: string }) => r.id);
    expect(await ids('order=start_time&order_direction=ASC')).toEqual(['sess-old', 'sess-a', 'sess-b']);
    expect(await ids('order=duration')).toEqual(['sess-a', 'sess-b', 'sess-old']);
    expect(await ids('order=click_count&order_direction=ASC')).toEqual(['sess-b', 'sess-old', 'sess-a']);
    const longer = encodeURIComponent(JSON.stringify([{ type: 'recording', key: 'duration', operator: 'gt', value: 60 }]));
    expect(await ids(`having_predicates=${longer}`)).toEqual(['sess-a']);
    const shorter = encodeURIComponent(JSON.stringify([{ type: 'recording', key: 'duration', operator: 'lt', value: 60 }]));
    expect(await ids(`having_predicates=${shorter}`)).toEqual(['sess-b', 'sess-old']);
    expect((await get(alice, '/session_recordings/?order=nonsense')).statusCode).toBe(400);
  });

  it('answers the snapshot sources, then each blob as the lines captured', async () => {
    const sources = (await get(alice, '/session_recordings/sess-a/snapshots/')).json();
    expect(sources.sources).toHaveLength(2);
    expect(sources.sources[0]).toMatchObject({ source: 'blob', start_timestamp: new Date(A_START).toISOString(), end_timestamp: new Date(A_START + 30_000).toISOString() });
    expect(sources.sources[1].start_timestamp).toBe(new Date(A_START + 60_000).toISOString());
    const blobs = [];
    for (const source of sources.sources) {
      const res = await get(alice, `/session_recordings/sess-a/snapshots/?source=blob&blob_key=${encodeURIComponent(source.blob_key)}`);
      expect(res.statusCode).toBe(200);
      blobs.push(...res.body.split('\n').map((line) => JSON.parse(line)));
    }
    expect(blobs).toEqual([...page(A_START, 'https://shop.example/a'), ...page(A_START + 60_000, 'https://shop.example/a2')].map((event) => ['w1', event]));
    expect((await get(alice, '/session_recordings/sess-a/snapshots/?source=blob&blob_key=nope.jsonl.gz')).statusCode).toBe(404);
  });

  it('another organization gets 404 for every route; its own list holds only its recordings', async () => {
    expect((await get(bob, '/session_recordings/')).json().results.map((r: { id: string }) => r.id)).toEqual(['sess-bob']);
    for (const path of ['/session_recordings/', '/session_recordings/sess-a/', '/session_recordings/sess-a/snapshots/']) {
      expect((await t.request(bob.key, { method: 'GET', url: `/api/projects/${alice.projectId}${path}` })).statusCode).toBe(404);
    }
    // Bob's project path with Alice's session: not his recording.
    expect((await get(bob, '/session_recordings/sess-a/')).statusCode).toBe(404);
    expect((await t.request(bob.key, { method: 'DELETE', url: `/api/projects/${alice.projectId}/session_recordings/sess-a/` })).statusCode).toBe(404);
    expect((await get(alice, '/session_recordings/sess-a/')).statusCode).toBe(200);
  });

  it('a read-only key cannot delete; DELETE removes the blocks and the summary rows', async () => {
    const readOnly = await t.key('alice@example.com', ['session_recording:read']);
    expect((await get(alice, '/session_recordings/sess-b/', readOnly)).statusCode).toBe(200);
    expect((await t.request(readOnly, { method: 'DELETE', url: `/api/projects/${alice.projectId}/session_recordings/sess-b/` })).statusCode).toBe(403);
    const res = await t.request(alice.key, { method: 'DELETE', url: `/api/projects/${alice.projectId}/session_recordings/sess-b/` });
    expect(res.statusCode).toBe(204);
    expect((await get(alice, '/session_recordings/sess-b/')).statusCode).toBe(404);
    expect((await get(alice, '/session_recordings/sess-b/snapshots/')).statusCode).toBe(404);
    expect((await get(alice, '/session_recordings/')).json().results.map((r: { id: string }) => r.id)).toEqual(['sess-a']);
    expect(await t.services.replay.listBlocks(alice.projectId, 'sess-b')).toEqual([]);
    expect((await t.request(alice.key, { method: 'DELETE', url: `/api/projects/${alice.projectId}/session_recordings/sess-b/` })).statusCode).toBe(404);
  });
});
