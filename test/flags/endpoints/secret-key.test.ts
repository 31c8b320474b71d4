// A project's secret key (`phs_`, PostHog's Team.secret_api_token) on the real app: none until
// the first rotation; the key reads its own project's flag definitions on every local-evaluation
// path and remote_config (ETag/304 as with a personal key) and nothing else; a rotation keeps the
// old key as the backup until it is deleted or rotated out (activity logged with masked values,
// as team.py's rotate_secret_token_and_save / delete_secret_token_backup_and_save); another
// process's rotation is seen within a second; the unchanged posthog-node evaluates locally with it.
import type { AddressInfo } from 'node:net';
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MembershipLevel } from '../../../src/core/auth/principal.js';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { META_STORES } from '../../helpers/stores.js';
import { createFlag, eventually, flagsFor, personCondition, valueOf } from './helpers.js';

const SECRET = /^phs_[0-9A-Za-z]{48}$/;
const masked = (key: string) => `${key.slice(0, 4)}...${key.slice(-4)}`;
const invalidSecret = { type: 'authentication_error', code: 'authentication_failed', detail: 'Secret API token is invalid.', attr: null };
const unknownKey = { type: 'authentication_error', code: 'authentication_failed', detail: 'Personal API key found in request Authorization header is invalid.', attr: null };

/** The project's secret keys as the project serializer shows them. */
async function secrets(t: TestApp, who: Credentials) {
  const res = await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/` });
  expect(res.statusCode, res.body).toBe(200);
  const { secret_api_token, secret_api_token_backup } = res.json();
  return { primary: secret_api_token as string | null, backup: secret_api_token_backup as string | null };
}

async function rotate(t: TestApp, who: Credentials, prefix = '/api/projects') {
  const res = await t.request(who.key, { method: 'PATCH', url: `${prefix}/${who.projectId}/rotate_secret_token/` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe.each(META_STORES)('project secret keys on %s', (store) => {
  let t: TestApp;
  let owner: Credentials;
  let stranger: Credentials;

  /** The paths posthog-node and older SDKs poll, as a secret-key holder would call them. */
  const definitionPaths = (who: Credentials) => [
    `/flags/definitions?token=${who.projectApiToken}&send_cohorts`,
    `/api/feature_flag/local_evaluation?token=${who.projectApiToken}&send_cohorts`,
    '/api/feature_flag/local_evaluation',
    `/api/projects/${who.projectId}/feature_flags/local_evaluation?send_cohorts`,
    `/api/environments/${who.projectId}/feature_flags/local_evaluation`,
    '/api/projects/@current/feature_flags/local_evaluation',
  ];
  const get = (key: string, url: string, headers: Record<string, string> = {}) => t.request(key, { method: 'GET', url, headers });
  const flagKeys = (res: { json(): { flags: { key: string }[] } }) => res.json().flags.map((f) => f.key).sort();

  beforeAll(async () => {
    t = await createTestApp(store);
    owner = await t.bootstrap('secret-owner@example.com');
    stranger = await t.bootstrap('secret-stranger@example.com');
    await createFlag(t, owner, { key: 'everyone', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
    await createFlag(t, owner, { key: 'settings', is_remote_configuration: true, filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '{"colour": "green"}' } } });
    await createFlag(t, stranger, { key: 'strangers-flag', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
  });
  afterAll(() => t.close());

  it('has none until the first rotation; the key then reads every local-evaluation path and remote_config, with ETag and 304', async () => {
    expect(await secrets(t, owner)).toEqual({ primary: null, backup: null });
    const rotated = await rotate(t, owner);
    expect(rotated.secret_api_token).toMatch(SECRET);
    expect(rotated.secret_api_token_backup).toBeNull();
    expect(await secrets(t, owner)).toEqual({ primary: rotated.secret_api_token, backup: null });
    const key = rotated.secret_api_token as string;

    for (const url of definitionPaths(owner)) {
      const withPersonalKey = await get(owner.key, url);
      const res = await get(key, url);
      expect(res.statusCode, `${url} ${res.body}`).toBe(200);
      // A remote-config flag is not for evaluation (PostHog leaves it out of the definitions).
      expect(flagKeys(res)).toEqual(['everyone']);
      expect(res.body).toBe(withPersonalKey.body);
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^W\/"[0-9a-f]{40}"$/);
      const unchanged = await get(key, url, { 'if-none-match': etag });
      expect(unchanged.statusCode, url).toBe(304);
      expect(unchanged.body).toBe('');
    }
    for (const url of [`/api/projects/@current/feature_flags/settings/remote_config?token=${owner.projectApiToken}`, `/api/environments/${owner.projectId}/feature_flags/settings/remote_config`]) {
      const res = await get(key, url);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toBe('{"colour": "green"}');
    }
    expect((await get(key, `/api/projects/${owner.projectId}/feature_flags/everyone/remote_config`)).statusCode).toBe(404);
  });

  it('keeps the previous key as the backup until it is deleted or rotated out, and logs masked values', async () => {
    const first = (await secrets(t, owner)).primary ?? (await rotate(t, owner)).secret_api_token;
    const second = await rotate(t, owner, '/api/environments');
    expect(second.secret_api_token).toMatch(SECRET);
    expect(second.secret_api_token).not.toBe(first);
    expect(second.secret_api_token_backup).toBe(first);
    const url = `/flags/definitions?token=${owner.projectApiToken}`;
    expect((await get(first, url)).statusCode).toBe(200);
    expect((await get(second.secret_api_token, url)).statusCode).toBe(200);

    // A third rotation: the first key (the backup) stops working at once.
    const third = await rotate(t, owner, `/api/organizations/${owner.organizationId}/projects`);
    expect(third.secret_api_token_backup).toBe(second.secret_api_token);
    const gone = await get(first, url);
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toEqual(invalidSecret);
    expect((await get(second.secret_api_token, url)).statusCode).toBe(200);

    const deleted = await t.request(owner.key, { method: 'PATCH', url: `/api/projects/${owner.projectId}/delete_secret_token_backup/` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toMatchObject({ secret_api_token: third.secret_api_token, secret_api_token_backup: null });
    expect((await get(second.secret_api_token, url)).statusCode).toBe(401);
    expect((await get(third.secret_api_token, url)).statusCode).toBe(200);
    // Nothing to delete: the same project, nothing logged.
    const again = await t.request(owner.key, { method: 'PATCH', url: `/api/environments/${owner.projectId}/delete_secret_token_backup/` });
    expect(again.statusCode).toBe(200);

    const activity = await get(owner.key, `/api/projects/${owner.projectId}/activity/`);
    type Entry = { activity: string; scope: string; detail: { changes: { field: string }[] | null } };
    const ofSecrets = activity.json().results.filter((entry: Entry) => entry.detail.changes?.[0]?.field.startsWith('secret_api_token'));
    const changes = ofSecrets.map((entry: Entry) => {
      expect(entry).toMatchObject({ activity: 'updated', scope: 'Team' });
      expect(entry.detail.changes).toHaveLength(1);
      return entry.detail.changes![0];
    });
    const team = { type: 'Team' };
    expect(changes).toEqual([
      { ...team, action: 'deleted', field: 'secret_api_token_backup', before: masked(second.secret_api_token), after: null },
      {
        ...team, action: 'changed', field: 'secret_api_token',
        before: { secret_api_token: masked(second.secret_api_token), secret_api_token_backup: masked(first) },
        after: { secret_api_token: masked(third.secret_api_token), secret_api_token_backup: masked(second.secret_api_token) },
      },
      {
        ...team, action: 'changed', field: 'secret_api_token',
        before: { secret_api_token: masked(first), secret_api_token_backup: null },
        after: { secret_api_token: masked(second.secret_api_token), secret_api_token_backup: masked(first) },
      },
      { ...team, action: 'created', field: 'secret_api_token', before: { secret_api_token: null }, after: { secret_api_token: masked(first) } },
    ]);
    expect(JSON.stringify(activity.json())).not.toContain(first);
  });

  it('is the admin\'s: a member, or a key without project:write, may not rotate it or delete the backup', async () => {
    await t.addMember(owner.organizationId, 'secret-member@example.com', MembershipLevel.member);
    const member = await t.key('secret-member@example.com', ['*']);
    const readOnly = await t.key(owner.email, ['project:read']);
    for (const action of ['rotate_secret_token', 'delete_secret_token_backup']) {
      const url = `/api/projects/${owner.projectId}/${action}/`;
      const byMember = await t.request(member, { method: 'PATCH', url });
      expect(byMember.statusCode).toBe(403);
      expect(byMember.json().detail).toBe("You don't have sufficient permissions in the project.");
      const byReader = await t.request(readOnly, { method: 'PATCH', url });
      expect(byReader.statusCode).toBe(403);
      expect(byReader.json().detail).toBe("API key missing required scope 'project:write'");
      expect((await t.request(stranger.key, { method: 'PATCH', url })).statusCode).toBe(404);
    }
  });

  it('reads nothing else: other routes answer 401 as for an unknown key, another project 404, 401 or 403', async () => {
    const key = (await secrets(t, owner)).primary ?? (await rotate(t, owner)).secret_api_token;
    for (const url of [`/api/projects/${owner.projectId}/insights/`, `/api/projects/${owner.projectId}/`, `/api/projects/${owner.projectId}/feature_flags/`, '/api/users/@me/']) {
      const res = await get(key, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual(unknownKey);
    }
    const rotateWithIt = await t.request(key, { method: 'PATCH', url: `/api/projects/${owner.projectId}/rotate_secret_token/` });
    expect(rotateWithIt.statusCode).toBe(401);

    // Another project by path: not found, as a personal key finds another organization's project.
    for (const url of [`/api/projects/${stranger.projectId}/feature_flags/local_evaluation`, `/api/projects/${stranger.projectId}/feature_flags/strangers-flag/remote_config`]) {
      expect((await get(key, url)).statusCode, url).toBe(404);
    }
    // By token: PostHog's flags service refuses the key (401), its Django endpoint the permission (403).
    const viaFlags = await get(key, `/flags/definitions?token=${stranger.projectApiToken}`);
    expect(viaFlags.statusCode).toBe(401);
    expect(viaFlags.json()).toEqual(invalidSecret);
    const viaDjango = await get(key, `/api/feature_flag/local_evaluation?token=${stranger.projectApiToken}`);
    expect(viaDjango.statusCode).toBe(403);
    expect(viaDjango.json()).toMatchObject({ code: 'permission_denied', detail: 'You do not have permission to perform this action.' });
    // A key no project has, and the stranger's own key on the stranger's project, for contrast.
    expect((await get(`phs_${'x'.repeat(48)}`, `/flags/definitions?token=${owner.projectApiToken}`)).json()).toEqual(invalidSecret);
    const strangerKey = (await rotate(t, stranger)).secret_api_token as string;
    const own = await get(strangerKey, `/flags/definitions?token=${stranger.projectApiToken}`);
    expect(flagKeys(own)).toEqual(['strangers-flag']);
  });

  it("follows another process's rotation within a second (the project token epoch)", async () => {
    const key = (await secrets(t, owner)).primary ?? (await rotate(t, owner)).secret_api_token;
    const url = `/api/projects/${owner.projectId}/feature_flags/local_evaluation`;
    expect((await get(key, url)).statusCode).toBe(200);
    // What another process's rotation leaves in the shared store: new columns and a bumped epoch.
    await t.services.meta.db.updateTable('projects').set({ secret_api_token: `phs_${'y'.repeat(48)}`, secret_api_token_backup: null }).where('id', '=', owner.projectId).execute();
    await t.services.repositories.counters.bump('project_token_epoch');
    await eventually(async () => expect((await get(key, url)).statusCode).toBe(401), 2500);
    expect((await get(`phs_${'y'.repeat(48)}`, url)).statusCode).toBe(200);
  });
});

describe('posthog-node with a project secret key', () => {
  let t: TestApp;
  let owner: Credentials;
  let client: PostHog | undefined;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    owner = await t.bootstrap('secret-node@example.com');
    await createFlag(t, owner, { key: 'half', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
    await createFlag(t, owner, { key: 'pro', filters: { groups: [personCondition('plan', 'pro')] } });
    await createFlag(t, owner, {
      key: 'variants',
      filters: { groups: [{ properties: [], rollout_percentage: 70 }], multivariate: { variants: [{ key: 'a', rollout_percentage: 50 }, { key: 'b', rollout_percentage: 50 }] } },
    });
    await createFlag(t, owner, { key: 'config', is_remote_configuration: true, filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '{"limit": 3}' } } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await client?.shutdown();
    await t.close();
  });

  it('polls the definitions with it and evaluates locally as the server does', async () => {
    const rotated = await t.request(owner.key, { method: 'PATCH', url: `/api/projects/${owner.projectId}/rotate_secret_token/` });
    const host = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    client = new PostHog(owner.projectApiToken, { host, personalApiKey: rotated.json().secret_api_token, flushAt: 1, flushInterval: 0, fetchRetryCount: 0 });
    const errors: unknown[] = [];
    client.on('error', (error) => errors.push(error));
    const loaded = new Promise<number>((resolve) => client!.on('localEvaluationFlagsLoaded', resolve));
    expect(await loaded).toBe(3); // the remote-config flag is not among the definitions
    for (let i = 0; i < 100; i++) {
      const id = `node-secret-${i}`;
      const personProperties = { plan: i % 3 === 0 ? 'pro' : 'free' };
      const server = await flagsFor(t, owner, id, { person_properties: personProperties });
      const locally = await client.getAllFlags(id, { personProperties, onlyEvaluateLocally: true });
      const evaluated = Object.entries(server).filter(([key]) => key !== 'config');
      expect(locally, id).toEqual(Object.fromEntries(evaluated.map(([key, entry]) => [key, valueOf(entry)])));
    }
    expect(await client.getRemoteConfigPayload('config')).toEqual({ limit: 3 });
    expect(errors).toEqual([]);
  });
});
