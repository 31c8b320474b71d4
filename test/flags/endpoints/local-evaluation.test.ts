// posthog-node's local-evaluation definitions on the three paths (reference feature-flags.md 3.3):
// every non-deleted flag but remote-config ones, inactive included; the group type mapping; with
// send_cohorts the trees of the dynamic cohorts the flags name, transitively; a weak ETag and 304;
// the key's scope and organization; the remote-config payload route (3.4); and /flags/ of one
// organization never evaluating another's flags.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { META_STORES } from '../../helpers/stores.js';
import { createFlag, eventually, flagsFor, personCondition, postJson, updateFlag, type CreatedFlag } from './helpers.js';

describe.each(META_STORES)('flag definitions for local evaluation on %s', (store) => {
  let t: TestApp;
  let owner: Credentials;
  let stranger: Credentials;
  const flags: Record<string, CreatedFlag> = {};
  const cohorts: Record<string, number> = {};
  const planLeaf = { key: 'plan', type: 'person', operator: 'exact', value: 'pro' };
  const plan = { type: 'OR', values: [{ type: 'AND', values: [planLeaf] }] };
  const emailLeaf = { key: 'email', type: 'person', operator: 'icontains', value: '@corp' };
  const ageLeaf = { key: 'age', type: 'person', operator: 'gt', value: '30' };

  const get = (key: string | null, url: string, headers: Record<string, string> = {}) => t.request(key, { method: 'GET', url, headers });
  const cohort = async (payload: Record<string, unknown>): Promise<number> => {
    const res = await t.request(owner.key, { method: 'POST', url: `/api/projects/${owner.projectId}/cohorts/`, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    owner = await t.bootstrap('local-eval@example.com');
    stranger = await t.bootstrap('stranger@example.com');
    const batch = [{ event: '$groupidentify', distinct_id: 'x', timestamp: new Date().toISOString(), properties: { $group_type: 'company', $group_key: 'acme' } }];
    expect((await postJson(t, '/batch/', { api_key: owner.projectApiToken, batch })).statusCode).toBe(200);
    cohorts.plan = await cohort({ name: 'Pro plan', filters: { properties: plan } });
    cohorts.nested = await cohort({
      name: 'Pro or corporate',
      filters: { properties: { type: 'OR', values: [{ type: 'AND', values: [{ key: 'id', type: 'cohort', value: cohorts.plan }] }, { type: 'AND', values: [{ key: 'email', type: 'person', operator: 'icontains', value: '@corp' }] }] } },
    });
    cohorts.unused = await cohort({ name: 'Unused', filters: { properties: plan } });
    cohorts.static = await cohort({ name: 'Listed', is_static: true });
    cohorts.either = await cohort({ name: 'Pro or corporate adults', filters: { properties: { type: 'OR', values: [{ type: 'AND', values: [planLeaf] }, { type: 'AND', values: [emailLeaf, ageLeaf] }] } } });
    flags.boolean = await createFlag(t, owner, { key: 'beta', name: 'Beta', filters: { groups: [personCondition('plan', 'pro', 'exact', 50)], payloads: { true: '{"x": 1}' } } });
    flags.inactive = await createFlag(t, owner, { key: 'paused', active: false });
    flags.cohort = await createFlag(t, owner, {
      key: 'cohorted',
      filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: cohorts.nested }], rollout_percentage: 100 }, { properties: [{ key: 'id', type: 'cohort', value: cohorts.static }], rollout_percentage: 100 }] },
    });
    flags.inlined = await createFlag(t, owner, {
      key: 'inlined',
      filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: cohorts.either }], rollout_percentage: 40 }, personCondition('beta', 'yes')] },
    });
    flags.remote = await createFlag(t, owner, { key: 'theme-config', is_remote_configuration: true, filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '{"theme": "dark"}' } } });
    flags.gone = await createFlag(t, owner, { key: 'gone' });
    await updateFlag(t, owner, flags.gone.id, { deleted: true });
    flags.strangers = await createFlag(t, stranger, { key: 'strangers-only' });
  });
  afterAll(() => t.close());

  it("answers every non-deleted flag but remote-config ones, in PostHog's entry shape, with the group type mapping", async () => {
    await eventually(async () => {
      const res = await get(owner.key, `/flags/definitions?token=${owner.projectApiToken}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.flags.map((f: { key: string }) => f.key).sort()).toEqual(['beta', 'cohorted', 'inlined', 'paused']);
      expect(body.group_type_mapping).toEqual({ 0: 'company' });
      expect(body.cohorts).toEqual({});
      expect(body.flags.find((f: { key: string }) => f.key === 'beta')).toEqual({
        id: flags.boolean!.id, team_id: owner.projectId, name: 'Beta', key: 'beta',
        filters: { groups: [personCondition('plan', 'pro', 'exact', 50)], payloads: { true: '{"x": 1}' } },
        deleted: false, active: true, ensure_experience_continuity: false, has_encrypted_payloads: false, version: 1,
        evaluation_runtime: 'all', bucketing_identifier: 'distinct_id', evaluation_tags: [],
      });
      expect(body.flags.find((f: { key: string }) => f.key === 'paused').active).toBe(false);
    });
  });

  it('with send_cohorts, carries the trees of the dynamic cohorts the flags name, nested ones too, and no static one', async () => {
    for (const url of [
      `/flags/definitions?token=${owner.projectApiToken}&send_cohorts`,
      `/api/feature_flag/local_evaluation/?token=${owner.projectApiToken}&send_cohorts`,
      '/api/feature_flag/local_evaluation/?send_cohorts=true',
      `/api/projects/${owner.projectId}/feature_flags/local_evaluation/?send_cohorts`,
      `/api/environments/${owner.projectId}/feature_flags/local_evaluation/?send_cohorts`,
      '/api/projects/@current/feature_flags/local_evaluation/?send_cohorts',
    ]) {
      const res = await get(owner.key, url);
      expect(res.statusCode, url).toBe(200);
      const { cohorts: trees, flags: entries } = res.json();
      expect(Object.keys(trees).sort(), url).toEqual([String(cohorts.plan), String(cohorts.nested), String(cohorts.either)].sort());
      expect(trees[String(cohorts.plan)]).toEqual(plan);
      expect(trees[String(cohorts.nested)].values[0].values[0]).toEqual({ key: 'id', type: 'cohort', value: cohorts.plan });
      expect(entries).toHaveLength(4);
      // With the trees at hand, filters go as stored.
      expect(entries.find((f: { key: string }) => f.key === 'inlined').filters.groups[0].properties[0]).toEqual({ key: 'id', type: 'cohort', value: cohorts.either });
    }
  });

  it("without send_cohorts, writes a flag's one plain person-property cohort out as condition sets, as PostHog does", async () => {
    const { flags: entries, cohorts: trees } = (await get(owner.key, `/api/feature_flag/local_evaluation/?token=${owner.projectApiToken}`)).json();
    expect(trees).toEqual({});
    // OR of ANDs: one set per branch, with the cohort condition's rollout, after the other sets.
    expect(entries.find((f: { key: string }) => f.key === 'inlined').filters.groups).toEqual([
      personCondition('beta', 'yes'),
      { properties: [planLeaf], rollout_percentage: 40 },
      { properties: [emailLeaf, ageLeaf], rollout_percentage: 40 },
    ]);
    // Two cohorts (one nested in the other) and a static one: left as stored.
    expect(entries.find((f: { key: string }) => f.key === 'cohorted').filters.groups[0].properties[0]).toEqual({ key: 'id', type: 'cohort', value: cohorts.nested });
  });

  it('sends a weak ETag and answers 304 to If-None-Match until a flag changes', async () => {
    const url = `/flags/definitions?token=${owner.projectApiToken}&send_cohorts`;
    const first = await get(owner.key, url);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]{40}"$/);
    const unchanged = await get(owner.key, url, { 'if-none-match': etag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    await updateFlag(t, owner, flags.inactive!.id, { active: true });
    await eventually(async () => {
      const changed = await get(owner.key, url, { 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(changed.json().flags.find((f: { key: string }) => f.key === 'paused').active).toBe(true);
    });
  });

  it("refuses no key (401), a key without feature_flag:read (403) and another organization's project (404)", async () => {
    expect((await get(null, `/flags/definitions?token=${owner.projectApiToken}`)).statusCode).toBe(401);
    const narrow = await t.key(owner.email, ['insight:read']);
    expect((await get(narrow, `/flags/definitions?token=${owner.projectApiToken}`)).statusCode).toBe(403);
    const reader = await t.key(owner.email, ['feature_flag:read']);
    expect((await get(reader, `/flags/definitions?token=${owner.projectApiToken}`)).statusCode).toBe(200);
    expect((await get(owner.key, `/flags/definitions?token=${stranger.projectApiToken}`)).statusCode).toBe(404);
    expect((await get(owner.key, `/api/feature_flag/local_evaluation/?token=${stranger.projectApiToken}`)).statusCode).toBe(404);
    expect((await get(owner.key, `/api/projects/${stranger.projectId}/feature_flags/local_evaluation/`)).statusCode).toBe(404);
    const theirs = (await get(stranger.key, '/flags/definitions?token=' + stranger.projectApiToken)).json();
    expect(theirs.flags.map((f: { key: string }) => f.key)).toEqual(['strangers-only']);
  });

  it("/flags/ with one organization's token evaluates only that project's flags", async () => {
    expect(Object.keys(await flagsFor(t, stranger, 'someone'))).toEqual(['strangers-only']);
    expect(Object.keys(await flagsFor(t, owner, 'someone'))).not.toContain('strangers-only');
  });

  it("answers a remote-config flag's payload by key or id, and 404 for other flags and projects", async () => {
    for (const ref of ['theme-config', String(flags.remote!.id)]) {
      const res = await get(owner.key, `/api/projects/${owner.projectId}/feature_flags/${ref}/remote_config?token=${owner.projectApiToken}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toBe('{"theme": "dark"}');
    }
    expect((await get(owner.key, '/api/projects/@current/feature_flags/theme-config/remote_config')).json()).toBe('{"theme": "dark"}');
    expect((await get(owner.key, `/api/projects/${owner.projectId}/feature_flags/beta/remote_config`)).statusCode).toBe(404);
    expect((await get(owner.key, `/api/projects/${owner.projectId}/feature_flags/nope/remote_config`)).statusCode).toBe(404);
    expect((await get(stranger.key, `/api/projects/${owner.projectId}/feature_flags/theme-config/remote_config`)).statusCode).toBe(404);
  });
});
