// Recordings' retention and a deleted person's recordings (issue 33): the background job removes a
// project's sessions older than its session_recording_retention_period (blocks on disk and summary
// rows), keeps newer ones and every other project's; deleting a person removes their recordings.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { turnOnRecording } from '../helpers/recordings.js';
import { postBatch, runQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';
import { sessionDirectoryName } from '../../src/core/replay/block-store.js';

const DAY = 86_400_000;

describe.each(META_STORES)('recordings retention on %s', (store) => {
  let t: TestApp;
  let owner: Credentials;
  let other: Credentials;

  beforeAll(async () => {
    t = await createTestApp(store);
    owner = await t.bootstrap('retention-owner@example.com');
    other = await t.bootstrap('retention-other@example.com');
    for (const who of [owner, other]) await turnOnRecording(t, who);
  });
  afterAll(() => t.close());

  /** One /s/ request: a session's meta and full snapshot at `at`, recorded under `distinctId`. */
  async function record(who: Credentials, sessionId: string, at: number, distinctId = 'viewer') {
    const data = [
      { type: 4, timestamp: at, data: { href: 'https://shop.example/', width: 1280, height: 800 } },
      { type: 2, timestamp: at + 1, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } } },
    ];
    const body = [{
      event: '$snapshot',
      properties: { $snapshot_data: data, $session_id: sessionId, $window_id: 'w1', $lib: 'web', distinct_id: distinctId, token: who.projectApiToken },
      timestamp: new Date(at).toISOString(),
    }];
    const res = await t.app.inject({ method: 'POST', url: '/s/', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function summaryRows(who: Credentials, sessionId: string): Promise<number> {
    const rows = await t.services.events.query<{ n: string | number }>(
      `SELECT count() AS n FROM ${t.services.events.layout.database}.session_replay_events WHERE team_id = {team:UInt64} AND session_id = {session:String}`,
      { team: who.projectId, session: sessionId },
    );
    return Number(rows[0]!.n);
  }

  const onDisk = (who: Credentials, sessionId: string) => fs.existsSync(path.join(t.dataDir, 'recordings', String(who.projectId), sessionDirectoryName(sessionId)));
  const kept = async (who: Credentials, sessionId: string) => ({ rows: (await summaryRows(who, sessionId)) > 0, disk: onDisk(who, sessionId) });

  const patch = (who: Credentials, payload: object) => t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload });

  it('session_recording_retention_period is a project setting: "30d" by default, PostHog\'s choices only', async () => {
    const project = (await t.request(owner.key, { method: 'GET', url: `/api/projects/${owner.projectId}/` })).json();
    expect(project.session_recording_retention_period).toBe('30d');
    const bad = await patch(owner, { session_recording_retention_period: '2d' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ type: 'validation_error', code: 'invalid_choice', attr: 'session_recording_retention_period' });
    const good = await patch(other, { session_recording_retention_period: '1y' });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().session_recording_retention_period).toBe('1y');
  });

  it('the job removes recordings older than the period and keeps newer ones and other projects\'', async () => {
    const now = Date.now();
    await record(owner, 'old-session', now - 40 * DAY);
    await record(owner, 'new-session', now - 2 * DAY);
    // The same session id in another project, as old, kept by its 1y period.
    await record(other, 'old-session', now - 40 * DAY);
    await record(other, 'ancient-session', now - 400 * DAY);
    expect(await kept(owner, 'old-session')).toEqual({ rows: true, disk: true });
    // Blocks whose summary row never came (the insert failed, the request was not retried).
    const text = '["w1",{"type":4,"timestamp":1,"data":{}}]\n';
    await t.services.replay.blocks.write(owner.projectId, 'orphan/old', text, now - 40 * DAY);
    await t.services.replay.blocks.write(owner.projectId, 'orphan-new', text, now - DAY);

    const removed = await t.services.recordingRetention.runOnce(new Date(now));
    expect(removed.get(owner.projectId)).toBe(2);
    expect(await kept(owner, 'orphan/old')).toEqual({ rows: false, disk: false });
    expect(await kept(owner, 'orphan-new')).toEqual({ rows: false, disk: true });
    expect(removed.get(other.projectId)).toBe(1);
    expect(await kept(owner, 'old-session')).toEqual({ rows: false, disk: false });
    expect(await kept(owner, 'new-session')).toEqual({ rows: true, disk: true });
    expect(await kept(other, 'old-session')).toEqual({ rows: true, disk: true });
    expect(await kept(other, 'ancient-session')).toEqual({ rows: false, disk: false });
    expect(await t.services.replay.readEvents(owner.projectId, 'new-session')).toHaveLength(2);
  });

  it('deleting a person removes their recordings, not anyone else\'s', async () => {
    const now = Date.now();
    const res = await postBatch(t, { api_key: owner.projectApiToken, batch: [
      { event: '$pageview', distinct_id: 'leaving', timestamp: new Date(now - DAY).toISOString(), properties: { $session_id: 'leaving-session' } },
      { event: '$pageview', distinct_id: 'staying', timestamp: new Date(now - DAY).toISOString(), properties: { $session_id: 'staying-session' } },
    ] });
    expect(res.statusCode, res.body).toBe(200);
    await record(owner, 'leaving-session', now - DAY, 'leaving');
    // The same rrweb content as the leaving person's: its own session still gets its summary row.
    await record(owner, 'staying-session', now - DAY, 'staying');
    // The other project's recording under the same distinct id stays.
    await record(other, 'leaving-session', now - DAY, 'leaving');
    const found = await runQuery(t, owner, { kind: 'HogQLQuery', query: "select toString(person_id) from events where distinct_id = 'leaving' limit 1" });
    const personId = found.results[0][0] as string;

    const del = await t.request(owner.key, { method: 'DELETE', url: `/api/projects/${owner.projectId}/persons/${personId}/` });
    expect(del.statusCode, del.body).toBe(202);
    expect(await kept(owner, 'leaving-session')).toEqual({ rows: false, disk: false });
    expect(await kept(owner, 'staying-session')).toEqual({ rows: true, disk: true });
    expect(await kept(other, 'leaving-session')).toEqual({ rows: true, disk: true });
  });
});
