// PostHog's local-evaluation cases (posthog/api/test/test_feature_flag.py at 00025c4, class
// TestFeatureFlag), each `it` named after its PostHog test: cohorts and flags made through the
// cohorts and flags APIs, the definitions read with a personal API key, PostHog's expected
// entries asserted as a subset of each flag (assertLessEqual over items) and `cohorts` exactly.
// PostHog's tests store cohorts through the ORM with person filters lacking `operator`; the
// cohorts API (Hoglet's, as PostHog's) requires it, so the ported leaves say `exact`, the default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { createFlag, eventually, updateFlag } from './helpers.js';

const threeVariants = {
  variants: [
    { key: 'first-variant', name: 'First Variant', rollout_percentage: 50 },
    { key: 'second-variant', name: 'Second Variant', rollout_percentage: 25 },
    { key: 'third-variant', name: 'Third Variant', rollout_percentage: 25 },
  ],
};

describe("PostHog's test_feature_flag.py local-evaluation cases", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  /** A fresh project per case (PostHog's tests delete every flag first). */
  let n = 0;
  const project = () => t.bootstrap(`local-eval-case-${++n}@example.com`);
  const cohort = async (who: Credentials, payload: Record<string, unknown>): Promise<number> => {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  };
  const definitions = async (who: Credentials, query: string) => {
    const res = await t.request(who.key, { method: 'GET', url: `/api/feature_flag/local_evaluation?token=${who.projectApiToken}${query}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['flags', 'group_type_mapping', 'cohorts']));
    return { ...body, flags: [...body.flags].sort((a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key)) };
  };
  const base = { name: 'Alpha feature', deleted: false, active: true, ensure_experience_continuity: false };

  it('test_local_evaluation_for_cohorts_with_variant_overrides', async () => {
    const who = await project();
    const cohortId = await cohort(who, {
      name: 'cohort1',
      filters: { properties: { type: 'OR', values: [{ type: 'AND', values: [{ key: '$some_prop', value: 'nomatchihope', type: 'person', operator: 'exact' }] }] } },
    });
    const filters = {
      groups: [
        { variant: 'test', properties: [{ key: 'id', type: 'cohort', value: cohortId }], rollout_percentage: 100 },
        { variant: 'test', properties: [{ key: 'email', type: 'person', value: '@posthog.com', operator: 'icontains' }], rollout_percentage: 100 },
      ],
      multivariate: { variants: [{ key: 'control', name: '', rollout_percentage: 100 }, { key: 'test', name: '', rollout_percentage: 0 }] },
    };
    await createFlag(t, who, { name: 'Alpha feature', key: 'alpha-feature', filters });
    // Without send_cohorts: a variant override keeps the cohort from being written out.
    const body = await definitions(who, '');
    expect(body.flags).toHaveLength(1);
    expect(body.flags[0]).toMatchObject({ ...base, key: 'alpha-feature', filters });
  });

  it('test_local_evaluation_for_static_cohorts', async () => {
    const who = await project();
    const cohortId = await cohort(who, { name: 'cohort1', is_static: true });
    const filters = { groups: [{ rollout_percentage: 20, properties: [{ key: 'id', type: 'cohort', value: cohortId }] }], multivariate: threeVariants };
    await createFlag(t, who, { name: 'Alpha feature', key: 'alpha-feature', filters });
    const body = await definitions(who, '&send_cohorts');
    expect(body.flags).toHaveLength(1);
    expect(body.flags[0]).toMatchObject({ ...base, key: 'alpha-feature', filters });
    expect(body.cohorts).toEqual({});
  });

  it('test_local_evaluation_for_arbitrary_cohorts', async () => {
    const who = await project();
    const someProps = [
      { key: '$some_prop', value: 'nomatchihope', type: 'person', operator: 'exact' },
      { key: '$some_prop2', value: 'nomatchihope2', type: 'person', operator: 'exact' },
    ];
    const first = await cohort(who, { name: 'cohort1', filters: { properties: { type: 'OR', values: [{ type: 'OR', values: someProps }] } } });
    const secondTree = { type: 'OR', values: [{ type: 'OR', values: [...someProps, { key: 'id', value: first, type: 'cohort', negation: true }] }] };
    const second = await cohort(who, { name: 'cohort2', filters: { properties: secondTree } });
    const alpha = { groups: [{ rollout_percentage: 20, properties: [{ key: 'id', type: 'cohort', value: second }] }], multivariate: threeVariants };
    const alpha2 = { groups: [{ rollout_percentage: 20, properties: [{ key: 'id', type: 'cohort', value: first }] }] };
    await createFlag(t, who, { name: 'Alpha feature', key: 'alpha-feature', filters: alpha });
    await createFlag(t, who, { name: 'Alpha feature', key: 'alpha-feature-2', filters: alpha2 });

    const body = await definitions(who, '&send_cohorts');
    expect(body.flags).toHaveLength(2);
    expect(body.cohorts).toEqual({
      [String(first)]: { type: 'OR', values: [{ type: 'OR', values: someProps }] },
      [String(second)]: secondTree,
    });
    expect(body.flags[0]).toMatchObject({ ...base, key: 'alpha-feature', filters: alpha });
    expect(body.flags[1]).toMatchObject({ ...base, key: 'alpha-feature-2', filters: alpha2 });
  });
  // The caching and ETag cases (PostHog clears its Redis/S3 caches first; Hoglet's cache follows
  // writes within a second, hence `eventually` after a change).
  const get = (who: Credentials, query: string, headers: Record<string, string> = {}) =>
    t.request(who.key, { method: 'GET', url: `/api/feature_flag/local_evaluation${query}`, headers });
  const emailLeaf = { key: 'email', value: 'test@example.com', type: 'person', operator: 'exact' };
  const emailCohort = (who: Credentials) => cohort(who, { name: 'Test Cohort', filters: { properties: { type: 'OR', values: [{ type: 'AND', values: [emailLeaf] }] } } });
  const cohortFlag = (id: number) => ({ groups: [{ properties: [{ key: 'id', value: id, type: 'cohort' }], rollout_percentage: 100 }] });
  const everyone = { groups: [{ properties: [], rollout_percentage: 100 }] };

  for (const name of ['test_local_evaluation_basic', 'test_local_evaluation_functionality']) {
    it(name, async () => {
      const who = await project();
      await createFlag(t, who, { key: 'test-flag', filters: everyone });
      const res = await get(who, `?token=${who.projectApiToken}`);
      expect(res.statusCode).toBe(200);
      const data = res.json();
      expect(Object.keys(data)).toEqual(expect.arrayContaining(['flags', 'group_type_mapping', 'cohorts']));
      expect(data.flags.map((f: { key: string }) => f.key)).toEqual(['test-flag']);
    });
  }

  it('test_local_evaluation_with_cohorts', async () => {
    const who = await project();
    const id = await emailCohort(who);
    await createFlag(t, who, { key: 'test-flag-cohort', filters: cohortFlag(id) });
    const data = (await get(who, `?token=${who.projectApiToken}&send_cohorts`)).json();
    expect(data.flags.map((f: { key: string }) => f.key)).toEqual(['test-flag-cohort']);
    expect(data.cohorts).toEqual({ [String(id)]: { type: 'OR', values: [{ type: 'AND', values: [emailLeaf] }] } });
  });

  it('test_local_evaluation_transformation_with_send_cohorts_true', async () => {
    const who = await project();
    const id = await emailCohort(who);
    await createFlag(t, who, { key: 'test-flag-cohort', filters: cohortFlag(id) });
    const data = (await get(who, `?token=${who.projectApiToken}&send_cohorts`)).json();
    expect(Object.keys(data.cohorts)).toEqual([String(id)]);
    expect(data.flags[0].filters.groups[0].properties[0]).toMatchObject({ type: 'cohort', value: id });
  });

  it('test_local_evaluation_transformation_with_send_cohorts_false', async () => {
    const who = await project();
    const id = await emailCohort(who);
    await createFlag(t, who, { key: 'test-flag-cohort', filters: cohortFlag(id) });
    const data = (await get(who, `?token=${who.projectApiToken}`)).json();
    expect(data.cohorts).toEqual({});
    expect(data.flags[0].key).toBe('test-flag-cohort');
    expect(data.flags[0].filters.groups[0].properties.some((p: { type: string }) => p.type === 'person')).toBe(true);
  });

  it('test_local_evaluation_cache_invalidation_on_cohort_change', async () => {
    const who = await project();
    const id = await emailCohort(who);
    await createFlag(t, who, { key: 'test-flag-cohort', filters: cohortFlag(id) });
    for (const query of ['', '?send_cohorts']) expect((await get(who, query)).statusCode).toBe(200);
    const renamed = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/cohorts/${id}/`, payload: { name: 'Updated Test Cohort' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const without = (await get(who, '')).json();
    const withCohorts = (await get(who, '?send_cohorts')).json();
    expect(without.flags).toBeDefined();
    expect(withCohorts.flags).toBeDefined();
    expect(typeof withCohorts.cohorts).toBe('object');
  });

  it('test_local_evaluation_cache_invalidation_on_feature_flag_delete', async () => {
    const who = await project();
    const first = await createFlag(t, who, { key: 'test-flag-1', name: 'Test Flag 1', filters: everyone });
    await createFlag(t, who, { key: 'test-flag-2', name: 'Test Flag 2', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
    const keysOf = async (query: string) => (await get(who, `?token=${who.projectApiToken}${query}`)).json().flags.map((f: { key: string }) => f.key).sort();
    for (const query of ['', '&send_cohorts']) expect(await keysOf(query)).toEqual(['test-flag-1', 'test-flag-2']);
    // PostHog deletes the row through the ORM; the API's delete is a soft delete.
    await updateFlag(t, who, first.id, { deleted: true });
    await eventually(async () => {
      for (const query of ['', '&send_cohorts']) expect(await keysOf(query)).toEqual(['test-flag-2']);
    });
  });

  it('test_local_evaluation_cache_invalidation_on_cohort_delete', async () => {
    const who = await project();
    const id = await emailCohort(who);
    await createFlag(t, who, { key: 'test-flag-cohort', name: 'Test Flag with Cohort', filters: cohortFlag(id) });
    const before = (await get(who, `?token=${who.projectApiToken}&send_cohorts`)).json();
    expect(Object.keys(before.cohorts)).toContain(String(id));
    const deleted = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/cohorts/${id}/`, payload: { deleted: true } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await eventually(async () => {
      const after = (await get(who, `?token=${who.projectApiToken}&send_cohorts`)).json();
      expect(Object.keys(after.cohorts ?? {})).not.toContain(String(id));
    });
  });

  it('test_local_evaluation_returns_etag_header', async () => {
    const who = await project();
    await createFlag(t, who, { key: 'test-flag-etag', filters: everyone });
    const res = await get(who, '');
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^W\/".*"$/);
    expect(res.headers['cache-control']).toBe('private, must-revalidate');
  });

  it('test_local_evaluation_returns_304_when_etag_matches', async () => {
    const who = await project();
    await createFlag(t, who, { key: 'test-flag-304', filters: everyone });
    const etag = (await get(who, '')).headers.etag as string;
    const again = await get(who, '', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).toBe(etag);
  });

  it('test_local_evaluation_returns_200_when_etag_does_not_match', async () => {
    const who = await project();
    await createFlag(t, who, { key: 'test-flag-new-etag', filters: everyone });
    const res = await get(who, '', { 'if-none-match': '"wrong-etag"' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBeDefined();
    expect(res.json().flags).toBeDefined();
  });

  it('test_local_evaluation_etag_changes_when_flag_updated', async () => {
    const who = await project();
    const flag = await createFlag(t, who, { key: 'test-flag-update', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
    const first = (await get(who, '')).headers.etag;
    await updateFlag(t, who, flag.id, { filters: everyone });
    await eventually(async () => expect((await get(who, '')).headers.etag).not.toBe(first));
  });

  it('test_local_evaluation_etag_works_with_send_cohorts', async () => {
    const who = await project();
    const id = await emailCohort(who);
    await createFlag(t, who, { key: 'test-flag-cohort-etag', filters: cohortFlag(id) });
    const withCohorts = (await get(who, '?send_cohorts')).headers.etag as string;
    expect((await get(who, '?send_cohorts', { 'if-none-match': withCohorts })).statusCode).toBe(304);
    const without = await get(who, '');
    expect(without.statusCode).toBe(200);
    expect(without.headers.etag).not.toBe(withCohorts);
  });

  it('test_local_evaluation_304_response_has_empty_body', async () => {
    const who = await project();
    await createFlag(t, who, { key: 'test-flag-empty-body', filters: everyone });
    const etag = (await get(who, '')).headers.etag as string;
    const res = await get(who, '', { 'if-none-match': etag });
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
  });

  it('test_local_evaluation_etag_header_parsing_quoted', async () => {
    const who = await project();
    await createFlag(t, who, { key: 'test-flag-quoted', filters: everyone });
    const etag = (await get(who, '')).headers.etag as string;
    expect(etag.startsWith('W/"') && etag.endsWith('"')).toBe(true);
    expect((await get(who, '', { 'if-none-match': etag })).statusCode).toBe(304);
  });

  it('test_local_evaluation_etag_header_parsing_unquoted', async () => {
    const who = await project();
    await createFlag(t, who, { key: 'test-flag-unquoted', filters: everyone });
    const etag = (await get(who, '')).headers.etag as string;
    const raw = etag.replace(/^W\/"/, '').replace(/"$/, '');
    expect((await get(who, '', { 'if-none-match': raw })).statusCode).toBe(304);
  });

  it('test_local_evaluation_etag_idempotent_304_responses', async () => {
    const who = await project();
    await createFlag(t, who, { key: 'test-flag-idempotent', filters: everyone });
    const etag = (await get(who, '')).headers.etag as string;
    for (let i = 0; i < 5; i++) {
      const res = await get(who, '', { 'if-none-match': etag });
      expect(res.statusCode, `request ${i + 1}`).toBe(304);
      expect(res.headers.etag).toBe(etag);
    }
  });
  // remote_config (posthog-node's getRemoteConfigPayload). PostHog's tests use a logged-in user or
  // a project secret key; the ported ones use a personal API key.
  const remoteConfigFlag = (key: string, payload: string) => ({
    key, name: 'Remote Config Flag', is_remote_configuration: true,
    filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: payload } },
  });
  /** Another project of the same organization, with a remote-config flag. */
  const otherProjectWithFlag = async (who: Credentials, key: string) => {
    const created = await t.request(who.key, { method: 'POST', url: '/api/projects/', payload: { name: 'Other Team' } });
    expect(created.statusCode, created.body).toBe(201);
    const other = { ...who, projectId: created.json().id as number, projectApiToken: created.json().api_token as string };
    return createFlag(t, other, remoteConfigFlag(key, '{"leaked": true}'));
  };
  const remoteConfig = (who: Credentials, ref: string | number) =>
    t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/feature_flags/${ref}/remote_config` });

  it('test_remote_config_with_personal_api_key', async () => {
    const who = await project();
    await createFlag(t, who, remoteConfigFlag('my-remote-config-flag', '{"test": true}'));
    const res = await remoteConfig(who, 'my-remote-config-flag');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBe('{"test": true}');
  });

  it('test_remote_config_with_numeric_id_scopes_to_project', async () => {
    const who = await project();
    const other = await otherProjectWithFlag(who, 'other-flag-numeric');
    expect((await remoteConfig(who, other.id)).statusCode).toBe(404);
  });

  it('test_remote_config_with_string_key_scopes_to_project', async () => {
    const who = await project();
    await otherProjectWithFlag(who, 'unique-other-flag-key');
    expect((await remoteConfig(who, 'unique-other-flag-key')).statusCode).toBe(404);
  });

  it('test_remote_config_returns_not_found_for_unknown_flag', async () => {
    const who = await project();
    expect((await remoteConfig(who, 'nonexistent_key')).statusCode).toBe(404);
  });
});
