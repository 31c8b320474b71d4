// Review of issue 33's recordings API by attack: organization B holds a recording whose session
// id, distinct id, first URL and person carry a marker, shared by link. fast-check sends Alice's
// callers (a key with every scope, keys limited to her organization or project, a key without
// session_recording scopes, no key at all, and the sharing token of her own recording) at every
// recordings route (list, item, snapshots in each source, DELETE, sharing, under /projects and
// /environments), naming B's project and recording in several spellings, with hostile blob keys
// (paths towards B's blocks) and hostile list filter values: no answer may carry a marker or be a
// 5xx, a request naming B or lacking the scope may only be refused, and B is unchanged afterwards.
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { recordSession, rrwebPage, turnOnRecording } from '../helpers/recordings.js';
import { META_STORES } from '../helpers/stores.js';
import { sessionDirectoryName } from '../../src/core/replay/block-store.js';

const RUNS = Number(process.env['HOGLET_PROPERTY_RUNS'] ?? 200);
const SEED = process.env['HOGLET_PROPERTY_SEED'] ? Number(process.env['HOGLET_PROPERTY_SEED']) : undefined;
const MARKER = 'bmarker';

describe.each(META_STORES)('another organization’s recordings on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  let callers: Record<string, (options: InjectOptions) => Promise<LightMyRequestResponse>>;
  let scoped: Set<string>;
  const bobSession = `${MARKER}-session`;
  let bobBlock = '';
  let bobToken = '';
  let aliceToken = '';

  const snapshotOfB = async () => {
    const item = await t.request(bob.key, { method: 'GET', url: `/api/projects/${bob.projectId}/session_recordings/${bobSession}/` });
    const sharing = await t.request(bob.key, { method: 'GET', url: `/api/projects/${bob.projectId}/session_recordings/${bobSession}/sharing/` });
    return { item: item.json(), sharing: sharing.json(), blocks: await t.services.replay.listBlocks(bob.projectId, bobSession) };
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'A' });
    bob = await t.bootstrap(`bob-${MARKER}@example.com`, { organization: 'B' });
    for (const who of [alice, bob]) await turnOnRecording(t, who);
    const at = Date.now() - 3_600_000;
    await recordSession(t, bob, bobSession, `${MARKER}-person`, rrwebPage(at, 30, `https://${MARKER}.example/`));
    await recordSession(t, alice, 'alice-session', 'alice-person', rrwebPage(at, 30, 'https://alice.example/'));
    bobBlock = (await t.services.replay.listBlocks(bob.projectId, bobSession))[0]!.name;
    const share = async (who: Credentials, session: string) =>
      (await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/session_recordings/${session}/sharing/`, payload: { enabled: true } })).json().access_token as string;
    bobToken = await share(bob, bobSession);
    aliceToken = await share(alice, 'alice-session');
    expect(bobToken).not.toContain(MARKER);
    const keyed = (key: string | null) => (options: InjectOptions) => t.request(key, options);
    const withToken = (token: string) => (options: InjectOptions) =>
      t.request(null, { ...options, url: `${options.url}${String(options.url).includes('?') ? '&' : '?'}sharing_access_token=${encodeURIComponent(token)}` });
    callers = {
      everyScope: keyed(alice.key),
      ownOrganization: keyed(await t.key(alice.email, ['*'], { organizations: [alice.organizationId] })),
      ownProject: keyed(await t.key(alice.email, ['*'], { teams: [alice.projectId] })),
      withoutRecordingScopes: keyed(await t.key(alice.email, ['insight:read', 'insight:write', 'person:read'])),
      anonymous: keyed(null),
      aliceShareToken: withToken(aliceToken),
    };
    scoped = new Set(['everyScope', 'ownOrganization', 'ownProject']);
  }, 120_000);
  afterAll(() => t.close());

  it('refuses every request that names B, leaks no marker, answers no 5xx and changes nothing of B', { timeout: 300_000 }, async () => {
    const before = await snapshotOfB();
    expect(JSON.stringify(before)).toContain(MARKER);
    const spell = (id: string) => fc.constantFrom(id, `%20${id}`, `${id}%00`, `0${id}`, encodeURIComponent(id));
    const projectOfB = fc.oneof(spell(String(bob.projectId)));
    const project = fc.oneof(projectOfB, fc.constantFrom('@current', String(alice.projectId)));
    const session = fc.constantFrom(bobSession, 'alice-session', encodeURIComponent(bobSession), `..%2F..%2F${bob.projectId}%2F${bobSession}`);
    const towardsB = `${bob.projectId}/${sessionDirectoryName(bobSession)}/${bobBlock}`;
    const blobKey = fc.constantFrom(bobBlock, `../${sessionDirectoryName(bobSession)}/${bobBlock}`, `../../${towardsB}`, `..%2F..%2F${towardsB}`, `/${towardsB}`, '0', '-1', '99999');
    const hostile = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(`' OR 1=1 --`, `') OR team_id = ${bob.projectId} --`, `\\' UNION SELECT * FROM session_replay_events --`, bobSession, `${MARKER}-person`, '{sessions:String}'));
    const filters = fc.oneof(
      fc.constant(''),
      hostile.map((v) => `&session_ids=${encodeURIComponent(JSON.stringify([v, bobSession]))}`),
      hostile.map((v) => `&distinct_ids=${encodeURIComponent(JSON.stringify([v, `${MARKER}-person`]))}`),
      hostile.map((v) => `&events=${encodeURIComponent(JSON.stringify([{ id: v, type: 'events', properties: [{ key: v, value: v, operator: 'exact', type: 'event' }] }]))}`),
      hostile.map((v) => `&properties=${encodeURIComponent(JSON.stringify([{ key: v, value: [v], operator: 'icontains', type: 'person' }]))}`),
      hostile.map((v) => `&properties=${encodeURIComponent(JSON.stringify([{ key: `team_id = ${bob.projectId} OR ${v === '' ? '1' : JSON.stringify(v)} = ''`, type: 'hogql' }]))}`),
      hostile.map((v) => `&having_predicates=${encodeURIComponent(JSON.stringify([{ key: 'duration', operator: 'gt', value: v, type: 'recording' }]))}`),
      hostile.map((v) => `&order=${encodeURIComponent(v)}&order_direction=${encodeURIComponent(v)}&date_from=${encodeURIComponent(v)}`),
      fc.constant(`&person_uuid=${encodeURIComponent(`${MARKER}-person`)}&date_from=-30d`),
    );
    const prefix = fc.constantFrom('projects', 'environments');
    const route = fc.oneof(
      fc.tuple(prefix, project, filters).map(([pre, p, f]) => ({ method: 'GET', url: `/api/${pre}/${p}/session_recordings/?limit=100${f}`, project: p, path: 'list' })),
      fc.tuple(prefix, project, session).map(([pre, p, s]) => ({ method: 'GET', url: `/api/${pre}/${p}/session_recordings/${s}/`, project: p, path: s })),
      fc.tuple(prefix, project, session, fc.constantFrom('', 'blob_v2=true', 'source=blob&blob_key=', 'source=blob_v2&start_blob_key=0&end_blob_key=', 'source=realtime&blob_key='), blobKey)
        .map(([pre, p, s, q, k]) => ({ method: 'GET', url: `/api/${pre}/${p}/session_recordings/${s}/snapshots/?${q}${q.endsWith('=') ? encodeURIComponent(k) : ''}`, project: p, path: s })),
      fc.tuple(prefix, project, session).map(([pre, p, s]) => ({ method: 'DELETE', url: `/api/${pre}/${p}/session_recordings/${s}/`, project: p, path: s })),
      fc.tuple(fc.constantFrom('GET', 'PATCH'), prefix, project, session).map(([m, pre, p, s]) => ({ method: m, url: `/api/${pre}/${p}/session_recordings/${s}/sharing/`, project: p, path: s })),
      fc.tuple(prefix, project, session).map(([pre, p, s]) => ({ method: 'POST', url: `/api/${pre}/${p}/session_recordings/${s}/sharing/refresh/`, project: p, path: s })),
      fc.constantFrom({ method: 'GET', url: `/shared/${encodeURIComponent(`${bobToken.slice(0, 10)}${bobToken[10] === 'x' ? 'y' : 'x'}${bobToken.slice(11)}`)}.json`, project: '@current', path: 'shared' }),
    );
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(callers)), route, async (who, { method, url, project: p, path }) => {
        const payload = method === 'PATCH' ? { enabled: false } : method === 'POST' ? {} : undefined;
        const res = await callers[who]!({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
        const context = `${who} ${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, context).toBeLessThan(500);
        // A refusal may echo the caller's own value; anything answered must hold nothing of B.
        if (res.statusCode < 400 || !url.includes(MARKER)) expect(res.body.toLowerCase(), context).not.toContain(MARKER);
        const namesB = p !== '@current' && p !== String(alice.projectId);
        if (namesB || !scoped.has(who)) {
          if (!(who === 'aliceShareToken' && !namesB && path === 'alice-session' && method === 'GET' && !url.includes('/sharing/'))) {
            expect([400, 401, 403, 404, 405], context).toContain(res.statusCode);
            refused++;
          }
        }
        if (res.statusCode >= 400 && res.body !== '') expect(Object.keys(res.json()).sort(), context).toEqual(['attr', 'code', 'detail', 'type']);
        // Alice's own recording may be deleted or unshared by her calls: put it back.
        if (method === 'DELETE' && res.statusCode === 204) await recordSession(t, alice, 'alice-session', 'alice-person', rrwebPage(Date.now() - 3_600_000, 30, 'https://alice.example/'));
        if ((method === 'PATCH' || method === 'POST') && res.statusCode === 200 && !namesB) {
          const again = await t.request(alice.key, { method: 'PATCH', url: `/api/projects/${alice.projectId}/session_recordings/alice-session/sharing/`, payload: { enabled: true } });
          aliceToken = again.json().access_token;
          callers['aliceShareToken'] = (options) => t.request(null, { ...options, url: `${options.url}${String(options.url).includes('?') ? '&' : '?'}sharing_access_token=${encodeURIComponent(aliceToken)}` });
        }
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true },
    );
    expect(refused).toBeGreaterThan(RUNS / 3);
    expect(await snapshotOfB()).toEqual(before);
  });
});
