// /s/'s summary rows are group-committed (src/core/replay/summary-rows.ts): concurrent requests'
// rows go to session_replay_events in a few INSERTs, not one each; every block is counted exactly
// once (also when a request is sent again, or twice at once); a failing INSERT answers 503 with
// Retry-After to exactly the requests whose rows it held, and nothing acknowledged is lost. The
// failure is injected at the ClickHouse boundary: the real event store's statement throws the
// engine's own error.
import { ClickHouseError } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SummaryRows } from '../../src/core/replay/summary-rows.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { turnOnRecording } from '../helpers/recordings.js';

let t: TestApp;
let owner: Credentials;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  owner = await t.bootstrap('group-commit@example.com');
  await turnOnRecording(t, owner);
});
afterAll(() => t.close());

const START = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

/** One posthog-js-shaped /s/ body: a page's first rrweb events (or later clicks), unique by `n`. */
function body(sessionId: string, n: number): string {
  const at = START + n * 1_000;
  const data = n === 0
    ? [
        { type: 4, timestamp: at, data: { href: `https://shop.example/${sessionId}`, width: 1280, height: 800 } },
        { type: 2, timestamp: at + 1, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } } },
      ]
    : [
        { type: 3, timestamp: at, data: { source: 2, type: 2, id: 5, x: 1, y: 2 } },
        { type: 3, timestamp: at + 10, data: { source: 5, text: 'a', isChecked: false, id: 6 } },
      ];
  return JSON.stringify([{
    event: '$snapshot',
    properties: { $snapshot_data: data, $session_id: sessionId, $window_id: 'w', $lib: 'web', distinct_id: `person-${sessionId}`, token: owner.projectApiToken },
  }]);
}

const send = (payload: string) => t.app.inject({ method: 'POST', url: '/s/', payload, headers: { 'content-type': 'application/json' } });

/** Per session: blocks counted in the summary rows, and distinct block hashes they name. */
async function counted(prefix: string): Promise<Map<string, { blocks: number; hashes: number; clicks: number }>> {
  const rows = await t.services.events.query<{ session_id: string; blocks: string; hashes: string; clicks: string }>(
    `SELECT session_id, sum(block_count) AS blocks, length(groupUniqArrayArray(block_names)) AS hashes, sum(click_count) AS clicks
     FROM ${t.services.events.layout.database}.session_replay_events WHERE team_id = {team:UInt64} AND startsWith(session_id, {prefix:String}) GROUP BY session_id`,
    { team: owner.projectId, prefix },
  );
  return new Map(rows.map((r) => [r.session_id, { blocks: Number(r.blocks), hashes: Number(r.hashes), clicks: Number(r.clicks) }]));
}

/** Wraps the event store's statements: sees (and may hold or fail) each summary-row INSERT. */
function watchSummaryInserts(decide: (sessions: string[], call: number) => Promise<void> | void) {
  const store = t.services.events;
  const command = store.command.bind(store);
  const batches: string[][] = [];
  store.command = async (sql, params = {}, options = {}) => {
    if (/^\s*INSERT INTO \S+\.session_replay_events/.test(sql)) {
      const sessions = String(params.rows).split('\n').map((line) => JSON.parse(line).session_id as string);
      batches.push(sessions);
      await decide(sessions, batches.length);
    }
    return command(sql, params, options);
  };
  return { batches, restore: () => { store.command = command; } };
}

/** Counts rows handed to the summary rows' group commit (from now on). */
function countAdds() {
  const add = SummaryRows.prototype.add;
  const counter = { count: 0, restore: () => { SummaryRows.prototype.add = add; } };
  SummaryRows.prototype.add = function (this: SummaryRows, ...args: Parameters<SummaryRows['add']>) {
    counter.count += 1;
    return add.apply(this, args);
  };
  return counter;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('/s/ summary rows, group-committed', () => {
  it('stores many concurrent requests in a few INSERTs, each block counted once; list and metadata agree', async () => {
    const watch = watchSummaryInserts(() => {});
    const sessions = Array.from({ length: 12 }, (_, i) => `many-${i}`);
    const requests = sessions.flatMap((session) => [0, 1, 2, 3, 4].map((n) => body(session, n)));
    try {
      const answers = await Promise.all(requests.map(send));
      expect(answers.map((a) => a.statusCode)).toEqual(requests.map(() => 200));
    } finally {
      watch.restore();
    }
    // One statement a request before; now requests that arrived together share one.
    expect(watch.batches.flat()).toHaveLength(requests.length);
    expect(watch.batches.length).toBeLessThan(requests.length / 2);

    const rows = await counted('many-');
    expect(rows.size).toBe(12);
    for (const session of sessions) {
      expect(await t.services.replay.listBlocks(owner.projectId, session)).toHaveLength(5);
      expect(rows.get(session)).toEqual({ blocks: 5, hashes: 5, clicks: 4 });
    }

    // Sent again (as posthog-js resends what got no answer), one by one and two at once: nothing counted twice.
    for (const payload of requests.slice(0, 10)) expect((await send(payload)).statusCode).toBe(200);
    const twice = await Promise.all([send(body('many-twice', 0)), send(body('many-twice', 0))]);
    expect(twice.map((a) => a.statusCode)).toEqual([200, 200]);
    const again = await counted('many-');
    for (const session of sessions) expect(again.get(session)).toEqual({ blocks: 5, hashes: 5, clicks: 4 });
    expect(again.get('many-twice')).toMatchObject({ blocks: 1, hashes: 1 });

    const get = (path: string) => t.request(owner.key, { method: 'GET', url: `/api/projects/${owner.projectId}/session_recordings/${path}` });
    const list = (await get('?date_from=-3d&limit=100')).json().results.filter((r: { id: string }) => r.id.startsWith('many-'));
    expect(list.map((r: { id: string }) => r.id).sort()).toEqual([...sessions, 'many-twice'].sort());
    const one = (await get('many-3/')).json();
    expect(one).toMatchObject({
      id: 'many-3',
      distinct_id: 'person-many-3',
      click_count: 4,
      keypress_count: 4,
      start_url: 'https://shop.example/many-3',
      start_time: new Date(START).toISOString(),
      end_time: new Date(START + 4_010).toISOString(),
    });
  });

  it('a failing INSERT answers 503 to exactly the requests in it; the rest are stored, and a resend counts once', async () => {
    const adds = countAdds();
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const watch = watchSummaryInserts(async (_sessions, call) => {
      if (call === 1) await held; // the first INSERT runs long: the next requests gather behind it
      if (call === 2) throw new ClickHouseError({ message: 'Cannot reserve 1.00 MiB, not enough space. ', code: '243', type: 'NOT_ENOUGH_SPACE' });
    });
    try {
      const first = send(body('fail-first', 0));
      await until(async () => watch.batches.length === 1);
      const waiting = Array.from({ length: 20 }, (_, i) => `fail-batch-${i}`);
      const gathered = waiting.map((session) => send(body(session, 0)));
      // Every waiting request's row has joined the queue (add queues it at once) before the first INSERT returns.
      await until(async () => adds.count === 1 + waiting.length);
      release();
      expect((await first).statusCode).toBe(200);
      const answers = await Promise.all(gathered);
      expect(watch.batches[1]!.sort()).toEqual([...waiting].sort());
      for (const answer of answers) {
        expect(answer.statusCode).toBe(503);
        expect(answer.headers['retry-after']).toBe('1');
      }
      const later = await Promise.all(['fail-after-0', 'fail-after-1'].map((s) => send(body(s, 0))));
      expect(later.map((a) => a.statusCode)).toEqual([200, 200]);

      const before = await counted('fail-');
      expect([...before.keys()].sort()).toEqual(['fail-after-0', 'fail-after-1', 'fail-first']);

      // The refused requests sent again: their blocks were on disk, their rows were not; now counted once.
      const resent = await Promise.all(waiting.map((session) => send(body(session, 0))));
      expect(resent.map((a) => a.statusCode)).toEqual(waiting.map(() => 200));
    } finally {
      release();
      watch.restore();
      adds.restore();
    }
    const after = await counted('fail-');
    expect(after.size).toBe(23);
    for (const [, row] of after) expect(row).toMatchObject({ blocks: 1, hashes: 1 });
  });
});
