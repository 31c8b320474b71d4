// /s/ stores recordings only for projects with `session_recording_opt_in` on (off by default), as
// PostHog's recordings consumer takes only such teams. Off, the request is answered 200 (the SDK
// does not retry) and dropped: no block files, no summary rows, an empty list. The setting is read
// per request, so a PATCH takes effect on the very next one, and one project's does not touch another's.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';
import { listedIds, rrwebPage, turnOnRecording } from '../helpers/recordings.js';

describe.each(META_STORES)('/s/ and session_recording_opt_in on %s', (store) => {
  let t: TestApp;
  let owner: Credentials;
  let other: Credentials;

  beforeAll(async () => {
    t = await createTestApp(store);
    owner = await t.bootstrap('opt-in@example.com');
    other = await t.bootstrap('opt-in-other@example.com');
  });
  afterAll(() => t.close());

  const BASE = Date.UTC(2026, 10, 20, 10, 0, 0);
  const SINCE = { date_from: '2026-11-01', date_to: '2026-11-30' };

  async function post(who: Credentials, sessionId: string) {
    const body = [{ event: '$snapshot', properties: { $snapshot_data: rrwebPage(BASE, 30), $session_id: sessionId, $window_id: 'w1', $lib: 'web', distinct_id: 'person-1', token: who.projectApiToken } }];
    return t.app.inject({ method: 'POST', url: '/s/', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  }

  async function summaryRows(teamId: number): Promise<string[]> {
    const rows = await t.services.events.query<{ session_id: string }>(
      `SELECT DISTINCT session_id FROM ${t.services.events.layout.database}.session_replay_events WHERE team_id = {team:UInt64} ORDER BY session_id`,
      { team: teamId },
    );
    return rows.map((row) => row.session_id);
  }

  const blockFiles = (teamId: number): string[] => {
    const dir = path.join(t.dataDir, 'recordings', String(teamId));
    return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).filter((name) => fs.statSync(path.join(dir, name)).isFile()) : [];
  };

  it('a project that never turned recording on: 200, and nothing is stored', async () => {
    const res = await post(owner, 'off-session-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 1 });
    expect(blockFiles(owner.projectId)).toEqual([]);
    expect(await summaryRows(owner.projectId)).toEqual([]);
    expect(await listedIds(t, owner, SINCE)).toEqual([]);
  });

  it('a bad body is refused the same whether recording is on or off', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/s/', payload: '{not json', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
  });

  it('turned on by PATCH, the next request is stored; turned off, the next one is dropped', async () => {
    await turnOnRecording(t, owner);
    expect((await post(owner, 'on-session-2')).statusCode).toBe(200);
    expect(await summaryRows(owner.projectId)).toEqual(['on-session-2']);
    expect(blockFiles(owner.projectId).length).toBeGreaterThan(0);
    expect(await listedIds(t, owner, SINCE)).toEqual(['on-session-2']);

    await turnOnRecording(t, owner, false);
    const filesBefore = blockFiles(owner.projectId);
    expect((await post(owner, 'off-session-3')).statusCode).toBe(200);
    expect(await summaryRows(owner.projectId)).toEqual(['on-session-2']);
    expect(blockFiles(owner.projectId)).toEqual(filesBefore);
    expect(await listedIds(t, owner, SINCE)).toEqual(['on-session-2']);
  });

  it("another project's setting does not affect this one", async () => {
    await turnOnRecording(t, other);
    expect((await post(owner, 'off-session-4')).statusCode).toBe(200);
    expect((await post(other, 'other-session-1')).statusCode).toBe(200);
    expect(await summaryRows(owner.projectId)).toEqual(['on-session-2']);
    expect(await summaryRows(other.projectId)).toEqual(['other-session-1']);

    await turnOnRecording(t, owner);
    await turnOnRecording(t, other, false);
    expect((await post(owner, 'on-session-5')).statusCode).toBe(200);
    expect((await post(other, 'other-session-2')).statusCode).toBe(200);
    expect(await summaryRows(owner.projectId)).toEqual(['on-session-2', 'on-session-5']);
    expect(await summaryRows(other.projectId)).toEqual(['other-session-1']);
  });
});
