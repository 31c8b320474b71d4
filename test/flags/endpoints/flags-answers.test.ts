// /flags/ and /decide/ answered from the project's flags in every version's shape (reference
// feature-flags.md 3.1, 3.2): only active, non-deleted flags; payloads as the stored JSON strings;
// v2 metadata; flag_keys_to_evaluate (with dependencies), disable_flags, evaluation_runtime and
// evaluation_contexts; the request's field aliases; 400 for a field of the wrong JSON type and 401
// for a missing or unknown token; remote config's hasFeatureFlags.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { META_STORES } from '../../helpers/stores.js';
import { createFlag, eventually, flagsFor, postJson, updateFlag, type CreatedFlag } from './helpers.js';

describe.each(META_STORES)('/flags/ and /decide/ answers on %s', (store) => {
  let t: TestApp;
  let owner: Credentials;
  let flagless: Credentials;
  const ids: Record<string, CreatedFlag> = {};

  beforeAll(async () => {
    t = await createTestApp(store);
    owner = await t.bootstrap('flag-answers@example.com');
    flagless = await t.bootstrap('no-flags@example.com');
    ids.everyone = await createFlag(t, owner, {
      key: 'everyone', name: 'On for all',
      filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '{"a": 1}' } },
    });
    ids.variant = await createFlag(t, owner, {
      key: 'always-a',
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: { variants: [{ key: 'a', rollout_percentage: 100 }, { key: 'b', rollout_percentage: 0 }] },
        payloads: { a: '"payload of a"', b: '[1, 2]' },
      },
    });
    ids.nobody = await createFlag(t, owner, { key: 'nobody', filters: { groups: [{ properties: [], rollout_percentage: 0 }], payloads: { true: '{"never": true}' } } });
    ids.inactive = await createFlag(t, owner, { key: 'inactive', active: false });
    ids.server = await createFlag(t, owner, { key: 'server-only', evaluation_runtime: 'server' });
    ids.client = await createFlag(t, owner, { key: 'client-only', evaluation_runtime: 'client' });
    ids.tagged = await createFlag(t, owner, { key: 'web-tagged', tags: ['web'], evaluation_tags: ['web'] });
    ids.dependent = await createFlag(t, owner, {
      key: 'needs-everyone',
      filters: { groups: [{ properties: [{ key: String(ids.everyone!.id), type: 'flag', operator: 'flag_evaluates_to', value: true }], rollout_percentage: 100 }] },
    });
  });
  afterAll(() => t.close());

  const ALL_ACTIVE = ['everyone', 'always-a', 'nobody', 'server-only', 'client-only', 'web-tagged', 'needs-everyone'];

  it('answers v2 with each active flag: value, reason, metadata and the payload as its stored JSON string', async () => {
    const res = await postJson(t, '/flags/?v=2', { token: owner.projectApiToken, distinct_id: 'user-1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['errorsWhileComputingFlags', 'evaluatedAt', 'flags', 'requestId']);
    expect(body.errorsWhileComputingFlags).toBe(false);
    expect(Object.keys(body.flags).sort()).toEqual([...ALL_ACTIVE].sort());
    expect(body.flags.everyone).toEqual({
      key: 'everyone', enabled: true, variant: null,
      reason: { code: 'condition_match', condition_index: 0, description: 'Matched condition set 1' },
      metadata: { id: ids.everyone!.id, version: 1, description: null, payload: '{"a": 1}', has_experiment: false },
    });
    expect(body.flags['always-a']).toMatchObject({ enabled: true, variant: 'a', metadata: { payload: '"payload of a"', description: null } });
    expect(body.flags.nobody).toEqual({
      key: 'nobody', enabled: false, variant: null,
      reason: { code: 'out_of_rollout_bound', condition_index: 0, description: 'Out of rollout bound' },
      metadata: { id: ids.nobody!.id, version: 1, description: null, payload: null, has_experiment: false },
    });
    expect(body.flags['needs-everyone'].enabled).toBe(true);
  });

  it('answers the legacy shape for /flags/ v1 and /decide/ v3: values, and payloads of matched flags only', async () => {
    for (const url of ['/flags/?v=1', '/decide/?v=3']) {
      const body = (await postJson(t, url, { token: owner.projectApiToken, distinct_id: 'user-1' })).json();
      expect(body.featureFlags).toEqual({
        everyone: true, 'always-a': 'a', nobody: false, 'server-only': true, 'client-only': true, 'web-tagged': true, 'needs-everyone': true,
      });
      expect(body.featureFlagPayloads).toEqual({ everyone: '{"a": 1}', 'always-a': '"payload of a"' });
      expect(body.flags).toBeUndefined();
    }
  });

  it('answers /decide/ v1 with the enabled keys, v2 with the enabled values, v4 in the v2 shape, all with the config', async () => {
    const decide = async (v: number) => (await postJson(t, `/decide/?v=${v}`, { token: owner.projectApiToken, distinct_id: 'user-1' })).json();
    const v1 = await decide(1);
    expect([...v1.featureFlags].sort()).toEqual(ALL_ACTIVE.filter((k) => k !== 'nobody').sort());
    const v2 = await decide(2);
    expect(v2.featureFlags).toEqual({ everyone: true, 'always-a': 'a', 'server-only': true, 'client-only': true, 'web-tagged': true, 'needs-everyone': true });
    const v4 = await decide(4);
    expect(v4.flags.everyone.metadata.payload).toBe('{"a": 1}');
    for (const body of [v1, v2, v4]) {
      expect(body.hasFeatureFlags).toBe(true);
      expect(body.config).toEqual({ enable_collect_everything: true });
    }
  });

  it('answers v2 with the config when neither v nor config is given; hasFeatureFlags follows the project', async () => {
    const body = (await postJson(t, '/flags/', { token: owner.projectApiToken, distinct_id: 'user-1' })).json();
    expect(body.flags.everyone.enabled).toBe(true);
    expect(body.hasFeatureFlags).toBe(true);
    const none = (await postJson(t, '/flags/', { token: flagless.projectApiToken, distinct_id: 'user-1' })).json();
    expect(none.flags).toEqual({});
    expect(none.hasFeatureFlags).toBe(false);
    const config = await t.app.inject({ method: 'GET', url: `/array/${owner.projectApiToken}/config` });
    expect(config.json().hasFeatureFlags).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/array/${flagless.projectApiToken}/config` })).json().hasFeatureFlags).toBe(false);
  });

  it('evaluates only flag_keys_to_evaluate (alias flag_keys) and the flags they depend on', async () => {
    expect(Object.keys(await flagsFor(t, owner, 'user-1', { flag_keys_to_evaluate: ['nobody'] }))).toEqual(['nobody']);
    const withDependency = await flagsFor(t, owner, 'user-1', { flag_keys: ['needs-everyone'] });
    expect(Object.keys(withDependency).sort()).toEqual(['everyone', 'needs-everyone']);
    expect(withDependency['needs-everyone'].enabled).toBe(true);
    expect(await flagsFor(t, owner, 'user-1', { flag_keys_to_evaluate: ['no-such-flag'] })).toEqual({});
  });

  it('answers no flags with disable_flags', async () => {
    expect(await flagsFor(t, owner, 'user-1', { disable_flags: true })).toEqual({});
    const legacy = (await postJson(t, '/flags/?v=1', { token: owner.projectApiToken, distinct_id: 'user-1', disable_flags: true })).json();
    expect(legacy.featureFlags).toEqual({});
  });

  it('narrows by evaluation_runtime and evaluation_contexts (alias evaluation_environments)', async () => {
    const server = Object.keys(await flagsFor(t, owner, 'user-1', { evaluation_runtime: 'server' }));
    expect(server).toContain('server-only');
    expect(server).not.toContain('client-only');
    const client = Object.keys(await flagsFor(t, owner, 'user-1', { evaluation_runtime: 'client' }));
    expect(client).toContain('client-only');
    expect(client).not.toContain('server-only');
    expect(Object.keys(await flagsFor(t, owner, 'user-1', { evaluation_contexts: ['web'] }))).toContain('web-tagged');
    const ios = Object.keys(await flagsFor(t, owner, 'user-1', { evaluation_environments: ['ios'] }));
    expect(ios).not.toContain('web-tagged');
    // Untagged flags are evaluated in every context.
    expect(ios).toContain('everyone');
  });

  it("reads PostHog's field aliases: $token, api_key, ?token=, $distinct_id, a numeric distinct id", async () => {
    for (const body of [
      { $token: owner.projectApiToken, $distinct_id: 'user-1' },
      { api_key: owner.projectApiToken, distinct_id: 42 },
    ]) {
      const res = await postJson(t, '/flags/?v=2', body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().flags.everyone.enabled).toBe(true);
    }
    const byQuery = await postJson(t, `/flags/?v=2&token=${owner.projectApiToken}`, { distinct_id: 'user-1' });
    expect(byQuery.json().flags.everyone.enabled).toBe(true);
  });

  it('answers 400 for a field of the wrong JSON type and 401 for a missing or unknown token', async () => {
    for (const bad of [
      { groups: [1] }, { person_properties: 'x' }, { distinct_id: {} }, { flag_keys_to_evaluate: 'everyone' },
      { group_properties: { company: 5 } }, { disable_flags: 'yes' }, { $anon_distinct_id: 7 },
    ]) {
      const res = await postJson(t, '/flags/?v=2', { token: owner.projectApiToken, distinct_id: 'user-1', ...bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().type).toBe('validation_error');
    }
    expect((await postJson(t, '/flags/?v=2', { distinct_id: 'user-1' })).statusCode).toBe(401);
    expect((await postJson(t, '/decide/?v=3', { token: 'phc_unknown', distinct_id: 'user-1' })).statusCode).toBe(401);
    expect((await postJson(t, '/flags/?v=2', { token: owner.projectApiToken })).statusCode).toBe(400);
  });

  it('drops a flag once it is deactivated or deleted, and shows a change in the next answers', async () => {
    await updateFlag(t, owner, ids.server!.id, { active: false });
    await updateFlag(t, owner, ids.client!.id, { deleted: true });
    await updateFlag(t, owner, ids.nobody!.id, { filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '{"now": true}' } } });
    await eventually(async () => {
      const flags = await flagsFor(t, owner, 'user-1');
      expect(flags['server-only']).toBeUndefined();
      expect(flags['client-only']).toBeUndefined();
      expect(flags.nobody).toMatchObject({ enabled: true, metadata: { version: 2, payload: '{"now": true}' } });
    });
  });
});
