// Sharing a session recording by link, as PostHog: the configuration under
// session_recordings/:session_id/sharing/ (unsaved default, enabling, token refresh, scopes), the
// token reading that one recording's metadata and snapshots without a key (and /shared/<token>.json),
// everything else the token must not open, revoking at once, a deleted recording's link answering
// 404, and another organization that can neither read nor change the configuration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { turnOnRecording } from '../helpers/recordings.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';
import { openTwoOrganizations } from '../helpers/two-organizations.js';

const TOKEN = /^[A-Za-z0-9_-]{30}$/;

describe.each(META_STORES)('recording sharing on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const NOW = Math.floor(Date.now() / 1000) * 1000;
  const START = NOW - 3_600_000;

  /** rrweb events: meta, full snapshot, a click, 20 s long. */
  const page = (at: number, href: string) => [
    { type: 4, timestamp: at, data: { href, width: 1280, height: 800 } },
    { type: 2, timestamp: at + 1, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } } },
    { type: 3, timestamp: at + 1000, data: { source: 2, type: 2, id: 5, x: 1, y: 2 } },
    { type: 3, timestamp: at + 20_000, data: { source: 1, positions: [{ x: 1, y: 1, id: 1, timeOffset: 0 }] } },
  ];

  async function record(who: Credentials, sessionId: string, distinctId: string, href: string) {
    const body = [{
      event: '$snapshot',
      properties: { $snapshot_data: page(START, href), $session_id: sessionId, $window_id: 'w1', $lib: 'web', distinct_id: distinctId, token: who.projectApiToken },
    }];
    const res = await t.app.inject({ method: 'POST', url: '/s/', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(200);
  }

  const api = (c: Credentials = alice, prefix = 'projects') => `/api/${prefix}/${c.projectId}`;
  const sharingUrl = (sessionId: string, c: Credentials = alice, prefix = 'projects') => `${api(c, prefix)}/session_recordings/${sessionId}/sharing/`;
  const setSharing = async (sessionId: string, enabled: boolean) => {
    const res = await t.request(alice.key, { method: 'PATCH', url: sharingUrl(sessionId), payload: { enabled } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const share = async (sessionId: string) => (await setSharing(sessionId, true)).access_token as string;
  /** An anonymous GET carrying the token. */
  const withToken = (token: string, url: string) => t.request(null, { method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}sharing_access_token=${encodeURIComponent(token)}` });
  const sharedPage = (token: string) => t.request(null, { method: 'GET', url: `/shared/${encodeURIComponent(token)}.json` });

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    for (const who of [alice, bob]) await turnOnRecording(t, who);
    await journeys(t, alice, { 'ada-device': [ev('$identify', new Date(START).toISOString(), { $set: { email: 'ada@alice.dev' } })] });
    await record(alice, 'sess-a', 'ada-device', 'https://shop.example/a');
    await record(alice, 'sess-b', 'anon-1', 'https://shop.example/b');
    await record(alice, 'sess-gone', 'anon-2', 'https://shop.example/gone');
    await record(bob, 'sess-bob', 'bob-device', 'https://bob.example/');
  });
  afterAll(() => t.close());

  it('without a configuration, GET answers an unsaved default; PATCH enables it and keeps the token', async () => {
    const first = (await t.request(alice.key, { method: 'GET', url: sharingUrl('sess-a') })).json();
    expect(first).toEqual({ created_at: null, enabled: false, access_token: expect.stringMatching(TOKEN), settings: null, password_required: false, share_passwords: [] });
    const enabled = await setSharing('sess-a', true);
    expect(enabled).toMatchObject({ enabled: true, access_token: expect.stringMatching(TOKEN), created_at: expect.any(String) });
    const again = await t.request(alice.key, { method: 'GET', url: sharingUrl('sess-a', alice, 'environments') });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ enabled: true, access_token: enabled.access_token, created_at: enabled.created_at });
  });

  it("the token reads that recording's metadata, snapshot sources and blobs without a key, and /shared/<token>.json", async () => {
    const token = await share('sess-a');
    const item = await withToken(token, `${api()}/session_recordings/sess-a/`);
    expect(item.statusCode, item.body).toBe(200);
    // PostHog's test_sharing_token_allows_authorized_access: id and times only (no person, no activity).
    expect(item.json()).toEqual({ id: 'sess-a', recording_duration: 20, start_time: new Date(START).toISOString(), end_time: new Date(START + 20_000).toISOString() });
    expect((await withToken(token, `${api(alice, 'environments')}/session_recordings/sess-a/`)).statusCode).toBe(200);
    // The shared page names no project: `@current` is the token's own.
    expect((await withToken(token, '/api/projects/@current/session_recordings/sess-a/snapshots/')).statusCode).toBe(200);
    const sources = await withToken(token, `${api()}/session_recordings/sess-a/snapshots/`);
    expect(sources.statusCode).toBe(200);
    const [source] = sources.json().sources;
    const blob = await withToken(token, `${api()}/session_recordings/sess-a/snapshots/?source=blob&blob_key=${encodeURIComponent(source.blob_key)}`);
    expect(blob.statusCode).toBe(200);
    expect(blob.body.split('\n').map((line) => JSON.parse(line))).toEqual(page(START, 'https://shop.example/a').map((event) => ['w1', event]));
    const shared = await sharedPage(token);
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json()).toEqual({ type: 'scene', recording: item.json() });
    expect(shared.json().insight).toBeUndefined();
    // The page itself is the app, without signing in.
    const html = await t.request(null, { method: 'GET', url: `/shared/${token}` });
    expect([html.statusCode, html.headers['content-type']]).toEqual([200, expect.stringContaining('text/html')]);
  });

  it('the token opens nothing else: another recording, the list, another project, insights, persons, writes', async () => {
    const token = await share('sess-a');
    // PostHog's test_sharing_token_forbidden_access_scenarios: another session, the list, a project
    // that does not exist, the same session under another team; and more of the project.
    const forbidden = [
      `${api()}/session_recordings/sess-b/`,
      `${api()}/session_recordings/`,
      '/api/projects/12345/session_recordings/',
      `${api()}/session_recordings/sess-b/snapshots/`,
      `${api(bob)}/session_recordings/sess-bob/`,
      `${api(bob)}/session_recordings/sess-a/`,
      `${api()}/insights/`,
    ];
    for (const url of forbidden) expect((await withToken(token, url)).statusCode, url).toBe(403);
    // Routes that take no sharing token: the token is no credential there at all.
    const unauthenticated = [`${api()}/persons/`, `${api()}/session_recordings/sess-a/sharing/`];
    for (const url of unauthenticated) expect((await withToken(token, url)).statusCode, url).toBe(401);
    const del = await t.request(null, { method: 'DELETE', url: `${api()}/session_recordings/sess-a/?sharing_access_token=${token}` });
    expect(del.statusCode).toBe(401);
    const query = await t.request(null, { method: 'POST', url: `${api()}/query/?sharing_access_token=${token}`, payload: { query: { kind: 'HogQLQuery', query: 'select 1' } } });
    expect(query.statusCode).toBe(401);
    expect((await t.request(alice.key, { method: 'GET', url: `${api()}/session_recordings/sess-a/` })).statusCode).toBe(200);
  });

  it("an insight's token cannot open a recording, nor a recording's token an insight", async () => {
    const insight = (await t.request(alice.key, { method: 'POST', url: `${api()}/insights/`, payload: { name: 'shared', saved: true } })).json();
    const insightToken = (await t.request(alice.key, { method: 'PATCH', url: `${api()}/insights/${insight.id}/sharing/`, payload: { enabled: true } })).json().access_token;
    expect((await withToken(insightToken, `${api()}/session_recordings/sess-a/`)).statusCode).toBe(403);
    expect((await withToken(insightToken, `${api()}/session_recordings/sess-a/snapshots/`)).statusCode).toBe(403);
    const recordingToken = await share('sess-a');
    expect((await withToken(recordingToken, `${api()}/insights/${insight.id}/`)).statusCode).toBe(403);
  });

  it('disabling sharing revokes the link at once; a refreshed token replaces the old one', async () => {
    const token = await share('sess-b');
    expect((await withToken(token, `${api()}/session_recordings/sess-b/`)).statusCode).toBe(200);
    await setSharing('sess-b', false);
    expect((await withToken(token, `${api()}/session_recordings/sess-b/`)).statusCode).toBe(403);
    expect((await withToken(token, `${api()}/session_recordings/sess-b/snapshots/`)).statusCode).toBe(403);
    expect((await sharedPage(token)).statusCode).toBe(403);
    await setSharing('sess-b', true);
    const refreshed = await t.request(alice.key, { method: 'POST', url: `${sharingUrl('sess-b')}refresh/` });
    expect(refreshed.statusCode).toBe(200);
    const fresh = refreshed.json().access_token;
    expect(fresh).not.toBe(token);
    expect((await withToken(token, `${api()}/session_recordings/sess-b/`)).statusCode).toBe(403);
    expect((await withToken(fresh, `${api()}/session_recordings/sess-b/`)).statusCode).toBe(200);
  });

  it("deleting the recording makes its link 404", async () => {
    const token = await share('sess-gone');
    expect((await sharedPage(token)).statusCode).toBe(200);
    expect((await t.request(alice.key, { method: 'DELETE', url: `${api()}/session_recordings/sess-gone/` })).statusCode).toBe(204);
    expect((await sharedPage(token)).statusCode).toBe(404);
    expect((await withToken(token, `${api()}/session_recordings/sess-gone/`)).statusCode).toBe(404);
    expect((await withToken(token, `${api()}/session_recordings/sess-gone/snapshots/`)).statusCode).toBe(404);
  });

  it('needs sharing_configuration:read to read and :write to change the configuration', async () => {
    const replayOnly = await t.key('alice@example.com', ['session_recording:read', 'session_recording:write']);
    expect((await t.request(replayOnly, { method: 'GET', url: sharingUrl('sess-a') })).statusCode).toBe(403);
    const readOnly = await t.key('alice@example.com', ['sharing_configuration:read']);
    expect((await t.request(readOnly, { method: 'GET', url: sharingUrl('sess-a') })).statusCode).toBe(200);
    expect((await t.request(readOnly, { method: 'PATCH', url: sharingUrl('sess-a'), payload: { enabled: false } })).statusCode).toBe(403);
    expect((await t.request(readOnly, { method: 'POST', url: `${sharingUrl('sess-a')}refresh/` })).statusCode).toBe(403);
  });

  it("another organization can neither read nor enable the sharing of Alice's recording", async () => {
    for (const method of ['GET', 'PATCH'] as const) {
      const res = await t.request(bob.key, { method, url: sharingUrl('sess-a'), ...(method === 'PATCH' ? { payload: { enabled: true } } : {}) });
      expect(res.statusCode, method).toBe(404);
    }
    expect((await t.request(bob.key, { method: 'POST', url: `${sharingUrl('sess-a')}refresh/` })).statusCode).toBe(404);
    // Enabling "sess-a" under his own project shares nothing of Alice's: his project has no such recording.
    const res = await t.request(bob.key, { method: 'PATCH', url: sharingUrl('sess-a', bob), payload: { enabled: true } });
    expect(res.statusCode).toBe(200);
    const bobToken = res.json().access_token;
    expect((await withToken(bobToken, `${api(bob)}/session_recordings/sess-a/`)).statusCode).toBe(404);
    expect((await withToken(bobToken, `${api()}/session_recordings/sess-a/`)).statusCode).toBe(403);
    expect((await sharedPage(bobToken)).statusCode).toBe(404);
  });
});

describe.each(META_STORES)('recording sharing rows between organizations on %s', (store) => {
  it("one project's configuration is never found or changed through another's", async () => {
    const orgs = await openTwoOrganizations(store);
    try {
      const { repos, alice, bob } = orgs;
      const row = await repos.sharing.insertForRecording({ team_id: alice.project_id, recording_id: 'sess-1', enabled: 1, access_token: 'a'.repeat(30), created_at: '2026-01-01T00:00:00Z' });
      expect(await repos.sharing.forRecording(bob.project_id, 'sess-1')).toBeUndefined();
      await repos.sharing.update(bob.project_id, row.id, { enabled: 0 });
      expect((await repos.sharing.forRecording(alice.project_id, 'sess-1'))?.enabled).toBe(1);
      // Bob's own configuration for the same session id is a separate row with its own token.
      const bobs = await repos.sharing.insertForRecording({ team_id: bob.project_id, recording_id: 'sess-1', enabled: 0, access_token: 'b'.repeat(30), created_at: '2026-01-01T00:00:00Z' });
      expect(bobs.id).not.toBe(row.id);
      // A second insert for the same recording returns the first row (one configuration per recording).
      const twice = await repos.sharing.insertForRecording({ team_id: alice.project_id, recording_id: 'sess-1', enabled: 0, access_token: 'c'.repeat(30), created_at: '2026-01-01T00:00:00Z' });
      expect([twice.id, twice.access_token]).toEqual([row.id, 'a'.repeat(30)]);
    } finally {
      await orgs.close();
    }
  });
});
