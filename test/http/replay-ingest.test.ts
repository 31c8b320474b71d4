// /s/ as posthog-js sends it (plain, gzip-js, base64 form, sendBeacon, batched): the rrweb data is
// stored in compressed blocks per session and read back exactly, the summary row counts what
// PostHog's ingestion counts, a bad body refuses only itself, and the per-minute budgets answer 429.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { turnOnRecording } from '../helpers/recordings.js';
import { META_STORES } from '../helpers/stores.js';
import { sessionDirectoryName } from '../../src/core/replay/block-store.js';

describe.each(META_STORES)('/s/ on %s', (store) => {
  let t: TestApp;
  let owner: Credentials;

  beforeAll(async () => {
    t = await createTestApp(store);
    owner = await t.bootstrap('replay@example.com');
    await turnOnRecording(t, owner);
  });
  afterAll(() => t.close());

  const BASE = Date.UTC(2026, 10, 20, 10, 0, 0);

  /** rrweb events of a page: meta, full snapshot, then the incremental events given. */
  function page(at: number, href: string, incrementals: Array<{ source: number; type?: number; dt: number }>) {
    return [
      { type: 4, timestamp: at, data: { href, width: 1280, height: 800 } },
      { type: 2, timestamp: at + 1, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } } },
      ...incrementals.map(({ source, type, dt }) => ({ type: 3, timestamp: at + dt, data: { source, ...(type === undefined ? {} : { type, id: 5, x: 1, y: 2 }) } })),
    ];
  }

  /** One `$snapshot` event as posthog-js's recorder sends it. */
  function snapshot(token: string, sessionId: string, data: unknown[], windowId = `w-${sessionId}`) {
    return {
      event: '$snapshot',
      properties: {
        $snapshot_bytes: JSON.stringify(data).length,
        $snapshot_data: data,
        $session_id: sessionId,
        $window_id: windowId,
        $lib: 'web',
        $lib_version: '1.449.2',
        distinct_id: 'person-1',
        token,
      },
      timestamp: new Date(BASE).toISOString(),
    };
  }

  const post = (url: string, payload: string | Buffer, headers: Record<string, string>) => t.app.inject({ method: 'POST', url, payload, headers });

  async function summary(teamId: number, sessionId: string) {
    const rows = await t.services.events.query<Record<string, string | number>>(
      `SELECT session_id, any(distinct_id) AS distinct_id,
         toUnixTimestamp64Milli(min(min_first_timestamp)) AS first_ms, toUnixTimestamp64Milli(max(max_last_timestamp)) AS last_ms,
         argMinMerge(first_url) AS first_url, sum(click_count) AS clicks, sum(keypress_count) AS keypresses,
         sum(mouse_activity_count) AS mouse, sum(active_milliseconds) AS active_ms,
         sum(console_log_count) AS logs, sum(console_warn_count) AS warns, sum(console_error_count) AS errors,
         sum(size) AS size, sum(message_count) AS messages, sum(event_count) AS events, sum(block_count) AS blocks,
         argMinMerge(snapshot_source) AS source
       FROM ${t.services.events.layout.database}.session_replay_events
       WHERE team_id = {team:UInt64} AND session_id = {session:String} GROUP BY session_id`,
      { team: teamId, session: sessionId },
    );
    return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) && k !== 'session_id' && k !== 'distinct_id' ? Number(v) : v])))[0];
  }

  describe('/s/ stores what posthog-js sends', () => {
    it('plain, gzip-js, base64 form and sendBeacon bodies are read back exactly, in time order', async () => {
      const token = owner.projectApiToken;
      const session = '0193a1b2-0000-7000-8000-00000000e001';
      const parts = [0, 1, 2, 3].map((i) => page(BASE + i * 10_000, `https://shop.example/p${i}`, [{ source: 1, dt: 100 }]));
      const bodies = [
        { url: '/s/?ver=1.449.2', payload: JSON.stringify([snapshot(token, session, parts[0]!)]), headers: { 'content-type': 'application/json' } },
        { url: `/s/?compression=gzip-js&ip=0&_=${BASE}&ver=1.449.2`, payload: gzipSync(JSON.stringify([snapshot(token, session, parts[1]!)])), headers: { 'content-type': 'text/plain' } },
        {
          url: '/s/',
          payload: `data=${encodeURIComponent(Buffer.from(JSON.stringify([snapshot(token, session, parts[2]!)])).toString('base64'))}&compression=base64`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
        { url: '/s/?compression=gzip-js&beacon=1', payload: gzipSync(JSON.stringify([snapshot(token, session, parts[3]!)])), headers: { 'content-type': 'text/plain' } },
      ];
      // Sent newest first: blocks are read back by their first event's time.
      for (const body of [...bodies].reverse()) {
        const res = await post(body.url, body.payload, body.headers);
        expect(res.statusCode, `${body.url} ${res.body}`).toBe(200);
        expect(res.json()).toEqual({ status: 1 });
      }
      const blocks = await t.services.replay.listBlocks(owner.projectId, session);
      expect(blocks).toHaveLength(4);
      expect(await t.services.replay.readEvents(owner.projectId, session)).toEqual(parts.flat());
      const lines = await t.services.replay.readBlock(owner.projectId, session, blocks[0]!.name);
      expect(lines.map(([windowId]) => windowId)).toEqual(parts[0]!.map(() => `w-${session}`));
      // Compressed on disk, in the data directory.
      const file = path.join(t.dataDir, 'recordings', String(owner.projectId), sessionDirectoryName(session), blocks[0]!.name);
      expect(fs.readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
      expect(await summary(owner.projectId, session)).toMatchObject({ first_ms: BASE, last_ms: BASE + 30_100, first_url: 'https://shop.example/p0', messages: 4, events: 12, blocks: 4, source: 'web' });
    });

    it('a batch of several sessions and messages stores one block per session, and $snapshot_items too', async () => {
      const token = owner.projectApiToken;
      const a = page(BASE, 'https://a.example/', [{ source: 2, type: 2, dt: 5 }]);
      const b = page(BASE + 50, 'https://b.example/', [{ source: 5, dt: 7 }]);
      const more = [{ type: 3, timestamp: BASE + 20, data: { source: 3, id: 1, x: 0, y: 10 } }];
      const items = { event: '$snapshot', properties: { $snapshot_items: [{ type: 3, timestamp: BASE + 99, data: { source: 1, positions: [] } }], $session_id: 'batch-c', distinct_id: 'rn-user', $snapshot_source: 'mobile', token } };
      const res = await post('/s/?compression=gzip-js', gzipSync(JSON.stringify([snapshot(token, 'batch-a', a), snapshot(token, 'batch-b', b), snapshot(token, 'batch-a', more), items])), { 'content-type': 'text/plain' });
      expect(res.statusCode, res.body).toBe(200);
      expect(await t.services.replay.readEvents(owner.projectId, 'batch-a')).toEqual([...a, ...more]);
      expect(await t.services.replay.readEvents(owner.projectId, 'batch-b')).toEqual(b);
      expect((await t.services.replay.readBlock(owner.projectId, 'batch-c', (await t.services.replay.listBlocks(owner.projectId, 'batch-c'))[0]!.name))).toEqual([['batch-c', items.properties.$snapshot_items[0]]]);
      expect(await summary(owner.projectId, 'batch-a')).toMatchObject({ messages: 2, events: 4, blocks: 1, clicks: 1 });
      expect(await summary(owner.projectId, 'batch-c')).toMatchObject({ distinct_id: 'rn-user', source: 'mobile', first_url: null });
    });

    it("the summary row counts clicks, key presses, mouse activity, active time and console lines as PostHog's ingestion does", async () => {
      const token = owner.projectApiToken;
      const at = BASE + 3_600_000;
      const events = [
        ...page(at, 'https://shop.example/checkout', [
          { source: 2, type: 2, dt: 1_000 }, // click
          { source: 2, type: 4, dt: 1_500 }, // double click
          { source: 2, type: 9, dt: 2_000 }, // touch end
          { source: 2, type: 3, dt: 2_200 }, // context menu (right click)
          { source: 2, type: 1, dt: 2_500 }, // mouse down: mouse activity, not a click
          { source: 1, dt: 3_000 }, // mouse move
          { source: 6, dt: 3_500 }, // touch move
          { source: 5, dt: 4_000 }, // input: a key press
          { source: 5, dt: 4_200 },
          { source: 3, dt: 20_000 }, // scroll after 15.8 s idle: active again, the gap not counted
          { source: 0, dt: 21_000 }, // a DOM mutation is not activity
        ]),
        { type: 6, timestamp: at + 21_001, data: { plugin: 'rrweb/console@1', payload: { level: 'log', payload: ['"hi"'] } } },
        { type: 6, timestamp: at + 21_002, data: { plugin: 'rrweb/console@1', payload: { level: 'info', payload: [] } } },
        { type: 6, timestamp: at + 21_003, data: { plugin: 'rrweb/console@1', payload: { level: 'warn', payload: [] } } },
        { type: 6, timestamp: at + 21_004, data: { plugin: 'rrweb/console@1', payload: { level: 'error', payload: [] } } },
        { type: 6, timestamp: at + 21_005, data: { plugin: 'rrweb/network@1', payload: {} } },
      ];
      const res = await post('/s/', JSON.stringify([snapshot(token, 'counted', events)]), { 'content-type': 'application/json' });
      expect(res.statusCode, res.body).toBe(200);
      // PostHog's segments: active from the click at 1 s to the input at 4.2 s (3.2 s); idle until the
      // scroll at 20 s, whose segment runs to the last event within 5 s of it (21.005 s): 1.005 s.
      expect(await summary(owner.projectId, 'counted')).toMatchObject({
        clicks: 4, keypresses: 2, mouse: 7, active_ms: 4_205, logs: 2, warns: 1, errors: 1, events: events.length,
        first_ms: at, last_ms: at + 21_005, first_url: 'https://shop.example/checkout', distinct_id: 'person-1',
        size: Buffer.byteLength(JSON.stringify(events.map((event) => ({ ...event, windowId: 'w-counted' })))),
      });
    });

    it('temporary files a crash left behind are removed, and never read as blocks', async () => {
      const temporary = path.join(t.dataDir, 'recordings', '.tmp');
      fs.mkdirSync(temporary, { recursive: true });
      fs.writeFileSync(path.join(temporary, 'half-written.tmp'), 'x');
      expect(await t.services.replay.blocks.removeTemporaryFiles()).toBe(1);
      expect(fs.readdirSync(temporary)).toEqual([]);
    });

    it('a request sent again (its answer lost) stores and counts nothing twice', async () => {
      const body = gzipSync(JSON.stringify([snapshot(owner.projectApiToken, 'retried', page(BASE, 'https://r.example/', [{ source: 2, type: 2, dt: 3 }]))]));
      for (let i = 0; i < 3; i++) expect((await post('/s/?compression=gzip-js', body, { 'content-type': 'text/plain' })).statusCode).toBe(200);
      expect(await t.services.replay.listBlocks(owner.projectId, 'retried')).toHaveLength(1);
      expect(await summary(owner.projectId, 'retried')).toMatchObject({ clicks: 1, messages: 1, blocks: 1 });
    });

    it("bad bodies get PostHog's 400 and store nothing, while a good request sent with them is stored", async () => {
      const token = owner.projectApiToken;
      const good = snapshot(token, 'good-one', page(BASE, 'https://g.example/', []));
      const noSession = { event: '$snapshot', properties: { $snapshot_data: [{ type: 2, timestamp: BASE }], distinct_id: 'x', token } };
      const noData = { event: '$snapshot', properties: { $session_id: 'bad-1', distinct_id: 'x', token } };
      const longId = snapshot(token, 'x'.repeat(101), [{ type: 2, timestamp: BASE }]);
      const noDistinct = { event: '$snapshot', properties: { $session_id: 'bad-2', $snapshot_data: [{ type: 2, timestamp: BASE }], token } };
      const bad: Array<[string | Buffer, string]> = [
        [JSON.stringify([good, noSession]), 'missing $session_id'],
        [JSON.stringify([noData]), 'missing snapshot data'],
        [JSON.stringify([longId]), 'invalid $session_id'],
        [JSON.stringify([noDistinct]), 'missing distinct_id'],
        ['{broken', 'Malformed request data'],
      ];
      const answers = await Promise.all([
        ...bad.map(([payload]) => post('/s/', payload, { 'content-type': 'application/json' })),
        post('/s/', JSON.stringify([good]), { 'content-type': 'application/json' }),
      ]);
      for (const [i, [, detail]] of bad.entries()) {
        expect(answers[i]!.statusCode, answers[i]!.body).toBe(400);
        expect(answers[i]!.json()).toMatchObject({ type: 'validation_error', code: 'invalid_payload' });
        expect(answers[i]!.json().detail).toContain(detail);
      }
      expect(answers.at(-1)!.statusCode).toBe(200);
      expect(await t.services.replay.readEvents(owner.projectId, 'good-one')).toEqual(good.properties.$snapshot_data);
      for (const session of ['bad-1', 'bad-2']) expect(await t.services.replay.listBlocks(owner.projectId, session)).toEqual([]);
      expect((await post('/s/', JSON.stringify([{ ...good, properties: { ...good.properties, token: 'phc_nobody' } }]), { 'content-type': 'application/json' })).statusCode).toBe(401);
    });
  });

  describe('/s/ keeps projects apart', () => {
    it("the same session id sent with another organization's token is that project's recording only", async () => {
      const other = await t.bootstrap('other-replay@example.com');
      await turnOnRecording(t, other);
      const mine = page(BASE, 'https://mine.example/', [{ source: 2, type: 2, dt: 1 }]);
      const theirs = page(BASE + 5, 'https://theirs.example/', []);
      expect((await post('/s/', JSON.stringify([snapshot(owner.projectApiToken, 'shared-id', mine)]), { 'content-type': 'application/json' })).statusCode).toBe(200);
      expect((await post('/s/', JSON.stringify([snapshot(other.projectApiToken, 'shared-id', theirs)]), { 'content-type': 'application/json' })).statusCode).toBe(200);
      expect(await t.services.replay.readEvents(owner.projectId, 'shared-id')).toEqual(mine);
      expect(await t.services.replay.readEvents(other.projectId, 'shared-id')).toEqual(theirs);
      expect(await summary(owner.projectId, 'shared-id')).toMatchObject({ first_url: 'https://mine.example/', clicks: 1, blocks: 1 });
      expect(await summary(other.projectId, 'shared-id')).toMatchObject({ first_url: 'https://theirs.example/', clicks: 0, blocks: 1 });
    });
  });

  describe('/s/ budgets', () => {
    let limited: TestApp;
    let who: Credentials;
    beforeAll(async () => {
      // 8 KiB per session and 16 KiB per project a minute.
      limited = await createTestApp(store, { HOGLET_REPLAY_SESSION_MB_PER_MINUTE: String(8 / 1024), HOGLET_REPLAY_PROJECT_MB_PER_MINUTE: String(16 / 1024) });
      who = await limited.bootstrap('budget@example.com');
      await turnOnRecording(limited, who);
    });
    afterAll(() => limited.close());

    const sized = (sessionId: string, bytes: number) => snapshot(who.projectApiToken, sessionId, [{ type: 3, timestamp: BASE, data: { source: 0, text: 'x'.repeat(bytes) } }]);
    const send = (body: unknown) => limited.app.inject({ method: 'POST', url: '/s/', payload: JSON.stringify([body]), headers: { 'content-type': 'application/json' } });

    it('a session past its budget gets 429 and stores nothing of that request; other sessions go on until the project budget', async () => {
      // Budgets are per clock minute: start well inside one.
      while (Date.now() % 60_000 > 55_000) await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await send(sized('busy', 5_000))).statusCode).toBe(200);
      const over = await send(sized('busy', 5_000));
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({ type: 'throttled_error', code: 'throttled' });
      expect(over.json().detail).toContain('Session busy');
      expect(await limited.services.replay.listBlocks(who.projectId, 'busy')).toHaveLength(1);
      expect((await send(sized('calm-1', 7_000))).statusCode).toBe(200);
      const project = await send(sized('calm-2', 7_000));
      expect(project.statusCode).toBe(429);
      expect(project.json().detail).toContain('This project');
      expect(await limited.services.replay.listBlocks(who.projectId, 'calm-2')).toEqual([]);
    });
  });
});
