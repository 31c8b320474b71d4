// PostHog's local-evaluation cases (posthog/api/test/test_feature_flag.py at 00025c4, class
// TestFeatureFlag), each `it` named after its PostHog test: cohorts and flags made through the
// cohorts and flags APIs, the definitions read with a personal API key, PostHog's expected
// entries asserted as a subset of each flag (assertLessEqual over items) and `cohorts` exactly.
// PostHog's tests store cohorts through the ORM with person filters lacking `operator`; the
// cohorts API (Hoglet's, as PostHog's) requires it, so the ported leaves say `exact`, the default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { createFlag } from './helpers.js';

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
});
