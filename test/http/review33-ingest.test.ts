// Review of issue 33's /s/ by attack: hostile session ids (fast-check) never write outside the
// project's recordings directory and are answered 200 or a clear 400, never a 5xx (a 503 makes the
// SDK retry the same body forever); one request cannot fan out into thousands of session blocks;
// deeply nested rrweb data is a 400.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { turnOnRecording } from '../helpers/recordings.js';

describe('/s/ under attack', () => {
  let t: TestApp;
  let owner: Credentials;
  const AT = Date.now() - 60_000;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    owner = await t.bootstrap('replay-review@example.com');
    await turnOnRecording(t, owner);
  });
  afterAll(() => t.close());

  const post = (events: unknown[]) =>
    t.app.inject({ method: 'POST', url: '/s/', payload: JSON.stringify(events), headers: { 'content-type': 'application/json' } });
  const snapshot = (sessionId: unknown, data: unknown = [{ type: 4, timestamp: AT, data: { href: 'https://a.example/' } }]) => ({
    event: '$snapshot',
    properties: { $snapshot_data: data, $session_id: sessionId, $window_id: 'w', distinct_id: 'd', token: owner.projectApiToken },
  });
  /** Every file under the data directory outside the project's recordings directory. */
  const recordingsRoot = () => path.join(t.dataDir, 'recordings');

  it('a hostile session id is stored inside its project directory or refused with a 400, never a 5xx', { timeout: 120_000 }, async () => {
    const hostile = fc.oneof(
      fc.constantFrom('..', '.', '../..', '../../etc', '/etc/passwd', '%2e%2e', '..%2f..', 'a/../../b', '\\..\\..', '\u0000', '~', '.tmp', '%'.repeat(100), '€'.repeat(100), '😀'.repeat(50)),
      fc.string({ minLength: 1, maxLength: 100, unit: 'binary' }),
      fc.array(fc.constantFrom('.', '/', '\\', '%', '..', 'é', '\u0000', '\ud800', '\udc00', '😀'), { minLength: 1, maxLength: 100 }).map((parts) => parts.join('').slice(0, 100)),
    );
    await fc.assert(fc.asyncProperty(hostile, async (sessionId) => {
      const res = await post([snapshot(sessionId)]);
      expect([200, 400], `${JSON.stringify(sessionId)}: ${res.body}`).toContain(res.statusCode);
      if (res.statusCode !== 200) return;
      const blocks = await t.services.replay.listBlocks(owner.projectId, sessionId);
      expect(blocks.length, JSON.stringify(sessionId)).toBeGreaterThan(0);
      // Nothing escaped the project's directory: every entry of recordings/ is a team or .tmp.
      for (const name of fs.readdirSync(recordingsRoot())) expect(['.tmp', String(owner.projectId)]).toContain(name);
    }), { numRuns: 150 });
    expect(fs.readdirSync(t.dataDir).filter((name) => name.startsWith('etc') || name === 'b')).toEqual([]);
  });

  it('one request naming thousands of sessions is a 400, storing nothing', async () => {
    const sessions = Array.from({ length: 5000 }, (_, i) => snapshot(`fan-out-${i}`));
    const res = await post(sessions);
    expect(res.statusCode, res.body).toBe(400);
    expect(fs.readdirSync(path.join(recordingsRoot(), String(owner.projectId))).filter((name) => name.startsWith('fan-out-'))).toEqual([]);
  });

  it('$lib and $snapshot_source are kept short: they are stored in every summary row, outside the byte budgets', async () => {
    const huge = 'x'.repeat(1024 * 1024);
    const event = snapshot('huge-labels');
    Object.assign(event.properties, { $lib: huge, $snapshot_source: huge });
    expect((await post([event])).statusCode).toBe(200);
    const [row] = await t.services.events.query<{ library: string; source: string }>(
      `SELECT argMinMerge(snapshot_library) AS library, argMinMerge(snapshot_source) AS source
       FROM ${t.services.events.layout.database}.session_replay_events WHERE team_id = {team:UInt64} AND session_id = 'huge-labels'`,
      { team: owner.projectId },
    );
    expect(row!.library.length).toBeLessThanOrEqual(200);
    expect(row!.source.length).toBeLessThanOrEqual(200);
  });

  it('a lone surrogate in a recorded URL is stored as U+FFFD, not a failed summary row', async () => {
    const body = JSON.stringify([snapshot('lone-surrogate', [{ type: 4, timestamp: AT, data: { href: 'https://a.example/LONE' } }])]).replace('LONE', '\\ud800');
    const res = await t.app.inject({ method: 'POST', url: '/s/', payload: body, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(200);
    const item = await t.request(owner.key, { method: 'GET', url: `/api/projects/${owner.projectId}/session_recordings/lone-surrogate/` });
    expect(item.statusCode, item.body).toBe(200);
    expect(item.json().start_url).toBe('https://a.example/\ufffd');
  });

  it('a lone surrogate in a session id, distinct id, $lib or $snapshot_source is a 400 or stored, never a 5xx', async () => {
    for (const [sessionId, distinctId] of [['LONE', 'd'], ['ok-session', 'LONE'], ['LONEx', 'LONE']]) {
      const event = snapshot(sessionId);
      Object.assign(event.properties, { distinct_id: distinctId, $lib: 'LONE', $snapshot_source: 'LONE' });
      const body = JSON.stringify([event]).replaceAll('LONE', '\\ud800');
      const res = await t.app.inject({ method: 'POST', url: '/s/', payload: body, headers: { 'content-type': 'application/json' } });
      expect([200, 400], `${sessionId} ${distinctId}: ${res.body}`).toContain(res.statusCode);
    }
  });

  it('deeply nested rrweb data is a 400, not a 500', async () => {
    const depth = 100_000;
    const body = JSON.stringify([snapshot('deep', [{ type: 3, timestamp: AT, data: { nested: 'NESTED' } }])]).replace('"NESTED"', '['.repeat(depth) + ']'.repeat(depth));
    const res = await t.app.inject({ method: 'POST', url: '/s/', payload: body, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(400);
  });
});
