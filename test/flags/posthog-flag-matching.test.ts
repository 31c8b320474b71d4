// PostHog's flag-level cases, from the Rust service's rust/feature-flags/src/flags/test_flag_matching.rs:
// each `it` names the Rust test it ports. Rust sets persons up in Postgres; here the same properties
// arrive already merged on the subject (the caller's job), so only the evaluation is under test.
import { describe, expect, it } from 'vitest';
import { evaluateFlags } from '../../src/core/flags/evaluation/index.js';
import type { FlagDefinition, FlagFilters } from '../../src/core/flags/types.js';
import type { CohortDefinition, CohortGroup } from '../../src/query/cohorts/schema.js';
import { context, flag, subject } from './support.js';

const person = (key: string, value: unknown, operator = 'exact') => ({ key, value, operator, type: 'person' as const });
const dependsOn = (id: number, value: unknown) => ({ key: String(id), value, operator: 'flag_evaluates_to', type: 'flag' as const });
const value = (result: { enabled: boolean; variant: string | null }) => (result.enabled ? (result.variant ?? true) : false);
const run = (flags: FlagDefinition[], distinctId: string, props: Record<string, unknown> = {}, extra = {}) => (
  Object.fromEntries([...evaluateFlags(flags, subject(distinctId, { personProperties: props, ...extra }), context())].map(([key, r]) => [key, value(r)])));
const single = (filters: FlagFilters, distinctId: string, props: Record<string, unknown> = {}, key = 'test_flag') => (
  evaluateFlags([flag(key, filters)], subject(distinctId, { personProperties: props }), context()).get(key)!);

describe('rust/feature-flags test_flag_matching.rs', () => {
  it('test_fetch_properties_from_pg_to_match', () => {
    const filters = { groups: [{ properties: [{ key: 'email', value: 'a@b.com', type: 'person' as const }], rollout_percentage: 100 }] };
    expect(single(filters, 'user_distinct_id', { email: 'a@b.com' })).toMatchObject({ enabled: true, variant: null });
    expect(single(filters, 'not_matching_distinct_id', { email: 'a@x.com' })).toMatchObject({ enabled: false, variant: null });
    expect(single(filters, 'other_distinct_id').enabled).toBe(false);
  });

  it('test_person_property_overrides', () => {
    expect(single({ groups: [{ properties: [{ key: 'email', value: 'override@example.com', type: 'person' }], rollout_percentage: 100 }] }, 'test_user', { email: 'override@example.com' }).enabled).toBe(true);
  });

  it('test_group_property_overrides', () => {
    const definition = flag('test_flag', { aggregation_group_type_index: 1, groups: [{ properties: [{ key: 'industry', value: 'tech', type: 'group', group_type_index: 1 }], rollout_percentage: 100 }] });
    const who = subject('test_user', { groups: { organization: 'org_123' }, groupProperties: { organization: { industry: 'tech', $group_key: 'org_123' } } });
    expect(evaluateFlags([definition], who, context({ groupTypeMapping: new Map([[1, 'organization']]) })).get('test_flag')!.enabled).toBe(true);
  });

  const leaf = flag('leaf_flag', { groups: [{ properties: [person('email', 'override@example.com')], rollout_percentage: 100 }] }, { id: 23 });
  const independent = flag('independent_flag', { groups: [{ properties: [person('email', 'override@example.com')], rollout_percentage: 100 }] }, { id: 99 });
  const parent = flag('parent_flag', { groups: [{ properties: [dependsOn(23, true)], rollout_percentage: 100 }] }, { id: 42 });

  it('test_flags_that_depends_on_other_boolean_flag', () => {
    expect(run([independent, leaf, parent], 'test_user', { email: 'override@example.com' })).toEqual({ independent_flag: true, leaf_flag: true, parent_flag: true });
    expect(run([independent, leaf, parent], 'test_user')).toEqual({ independent_flag: false, leaf_flag: false, parent_flag: false });
  });

  const variantLeaf = (id: number, sets: [string, string][], extraSet: boolean) => flag('leaf_flag', {
    groups: [...sets.map(([email, variant]) => ({ properties: [person('email', email)], rollout_percentage: 100, variant })),
      ...(extraSet ? [{ properties: [], rollout_percentage: 100, variant: 'other' }] : [])],
    multivariate: { variants: ['control', 'test', ...(extraSet ? ['other'] : [])].map((key) => ({ key, rollout_percentage: 50 })) },
  }, { id });

  it('test_flags_that_depends_on_other_multivariate_flag_variant_match', () => {
    const leafFlag = variantLeaf(2, [['control@example.com', 'control'], ['test@example.com', 'test']], true);
    const parentFlag = flag('parent_flag', { groups: [{ properties: [dependsOn(2, 'control')], rollout_percentage: 100 }] }, { id: 1 });
    expect(run([leafFlag, parentFlag], 'test_user', { email: 'control@example.com' })).toEqual({ leaf_flag: 'control', parent_flag: true });
    expect(run([leafFlag, parentFlag], 'test_user', { email: 'test@example.com' })).toEqual({ leaf_flag: 'test', parent_flag: false });
    expect(run([leafFlag, parentFlag], 'test_user', { email: 'random@example.com' })).toEqual({ leaf_flag: 'other', parent_flag: false });
  });

  it('test_flags_with_deep_dependency_tree_only_calls_db_once_total (values; the DB call count has no counterpart)', () => {
    const isCool = flag('leaf_flag', { groups: [{ properties: [person('is-cool', true)], rollout_percentage: 100 }] }, { id: 23 });
    const notInDb = flag('independent_flag', { groups: [{ properties: [person('email', 'email-not-in-db@example.com')], rollout_percentage: 100 }] }, { id: 99 });
    const intermediate = flag('intermediate_flag', { groups: [{ properties: [person('email', 'email-in-db@example.com'), dependsOn(23, true)], rollout_percentage: 100 }] }, { id: 43 });
    const top = flag('parent_flag', { groups: [{ properties: [dependsOn(43, true)], rollout_percentage: 100 }] }, { id: 42 });
    expect(run([notInDb, isCool, intermediate, top], 'test_user_distinct_id', { email: 'email-in-db@example.com', 'is-cool': true }))
      .toEqual({ independent_flag: false, leaf_flag: true, intermediate_flag: true, parent_flag: true });
  });

  it('test_flags_with_dependency_cycle_and_missing_dependency_still_evaluates_independent_flags', () => {
    const cycleNode = flag('self_referencing_flag', { groups: [{ properties: [dependsOn(44, true)] }] }, { id: 43 });
    const cycleMiddle = flag('cycle_middle_flag', { groups: [{ properties: [dependsOn(45, true)] }] }, { id: 44 });
    const cycleStart = flag('cycle_start_flag', { groups: [{ properties: [dependsOn(43, true)] }] }, { id: 45 });
    const missing = flag('missing_dependency_flag', { groups: [{ properties: [dependsOn(999, true)] }] }, { id: 46 });
    const all = [independent, leaf, cycleNode, cycleMiddle, cycleStart, parent, missing];
    for (const [props, expected] of [[{ email: 'override@example.com' }, true], [{}, false]] as const) {
      const results = evaluateFlags(all, subject('test_user', { personProperties: props }), context());
      expect([results.get('independent_flag'), results.get('leaf_flag'), results.get('parent_flag')].map((r) => r!.enabled)).toEqual([expected, expected, expected]);
      expect(results.get('missing_dependency_flag')).toMatchObject({ enabled: false, reason: { code: 'missing_dependency' } });
      // Rust drops the cycle's flags from its answer; Hoglet reports them as missing_dependency (off).
      for (const key of ['self_referencing_flag', 'cycle_middle_flag', 'cycle_start_flag']) expect(results.get(key)!.reason.code).toBe('missing_dependency');
    }
  });

  it('test_flags_that_depends_on_other_multivariate_flag_boolean_match', () => {
    const leafFlag = variantLeaf(3, [['control@example.com', 'control'], ['test@example.com', 'test']], false);
    const parentFlag = flag('parent_flag', { groups: [{ properties: [dependsOn(3, true)], rollout_percentage: 100 }] }, { id: 2 });
    expect(run([leafFlag, parentFlag], 'test_user', { email: 'control@example.com' })).toEqual({ leaf_flag: 'control', parent_flag: true });
    expect(run([leafFlag, parentFlag], 'test_user', { email: 'test@example.com' })).toEqual({ leaf_flag: 'test', parent_flag: true });
    expect(run([leafFlag, parentFlag], 'test_user')).toEqual({ leaf_flag: false, parent_flag: false });
  });

  const withVariants = (shares: number[], aggregation: number | null): FlagFilters => ({
    groups: [{ rollout_percentage: 100 }], aggregation_group_type_index: aggregation,
    multivariate: { variants: ['control', 'test', 'test2'].map((key, i) => ({ key, rollout_percentage: shares[i]! })) },
  });

  it('test_get_matching_variant_with_cache / test_get_matching_variant_with_db', () => {
    const definition = flag('test_flag', withVariants([33, 33, 34], 1));
    const ctx = context({ groupTypeMapping: new Map([[1, 'group_type_1']]) });
    const result = evaluateFlags([definition], subject('test_user', { groups: { group_type_1: 'group_key_1' } }), ctx).get('test_flag')!;
    expect(['control', 'test', 'test2']).toContain(result.variant);
  });

  it('test_is_condition_match_empty_properties / test_evaluation_reasons', () => {
    expect(single({ groups: [{ properties: [], rollout_percentage: 100 }] }, 'test_user').reason.code).toBe('condition_match');
  });

  it('test_is_condition_match_flag_value_operator', () => {
    const target = flag('target', { groups: [{}] }, { id: 1 });
    const definition = flag('test_flag', { groups: [{ properties: [dependsOn(1, true)], rollout_percentage: 100 }] }, { id: 2 });
    expect(evaluateFlags([target, definition], subject('test_user'), context()).get('test_flag')!.reason.code).toBe('condition_match');
  });

  it('test_overrides_avoid_db_lookups (the value; lookups have no counterpart)', () => {
    expect(single({ groups: [{ properties: [person('email', 'test@example.com')], rollout_percentage: 100 }] }, 'test_user', { email: 'test@example.com' }).enabled).toBe(true);
  });

  it('test_concurrent_flag_evaluation', () => {
    const definition = flag('test_flag', { groups: [{ properties: [], rollout_percentage: 100 }] });
    const results = Array.from({ length: 100 }, (_, i) => evaluateFlags([definition], subject(`test_user_${i}`), context()).get('test_flag')!);
    expect(results).toHaveLength(100);
  });

  it('test_property_operators', () => {
    const filters = { groups: [{ properties: [person('age', 25, 'gte'), person('email', 'example@domain.com', 'icontains')], rollout_percentage: 100 }] };
    expect(single(filters, 'test_user', { email: 'user@example@domain.com', age: 30 }).enabled).toBe(true);
  });

  it('test_empty_hashed_identifier', () => {
    expect(single({ groups: [{ properties: [], rollout_percentage: 100 }] }, '').enabled).toBe(true);
  });

  it('test_rollout_percentage', () => {
    expect(single({ groups: [{ properties: [], rollout_percentage: 0 }] }, 'test_user').enabled).toBe(false);
    expect(single({ groups: [{ properties: [], rollout_percentage: 100 }] }, 'test_user').enabled).toBe(true);
  });

  it('test_uneven_variant_distribution', () => {
    const definition = flag('test_flag', withVariants([10, 30, 60], null));
    const counts: Record<string, number> = { control: 0, test: 0, test2: 0 };
    for (let i = 0; i < 1000; i += 1) counts[evaluateFlags([definition], subject(`user_${i}`), context()).get('test_flag')!.variant!]! += 1;
    expect(Math.abs(counts.control! / 1000 - 0.1)).toBeLessThan(0.05);
    expect(Math.abs(counts.test! / 1000 - 0.3)).toBeLessThan(0.05);
    expect(Math.abs(counts.test2! / 1000 - 0.6)).toBeLessThan(0.05);
  });

  it('test_missing_properties_in_db', () => {
    expect(single({ groups: [{ properties: [{ key: 'email', value: 'test@example.com', type: 'person' }], rollout_percentage: 100 }] }, 'test_user').enabled).toBe(false);
  });

  it('test_malformed_property_data', () => {
    expect(single({ groups: [{ properties: [person('age', 25, 'gte')], rollout_percentage: 100 }] }, 'test_user', { age: 'not_a_number' }).enabled).toBe(false);
  });

  it('test_complex_conditions', () => {
    const filters = { groups: [{ properties: [{ key: 'email', value: 'user1@example.com', type: 'person' as const }], rollout_percentage: 100 }, { properties: [person('age', 30, 'gte')], rollout_percentage: 100 }] };
    expect(single(filters, 'test_user', { email: 'user2@example.com', age: 35 }, 'complex_flag').enabled).toBe(true);
  });

  const leafOf = (key: string, value: unknown, operator: string) => ({ type: 'person' as const, negation: false, filter: { key, value: value as string, operator: operator as 'exact', type: 'person' as const } });
  const cohortFlag = (cohort: CohortDefinition, operator: string) => flag('test_flag', { groups: [{ properties: [{ key: 'id', value: cohort.id, operator, type: 'cohort' }], rollout_percentage: 100 }] });
  const dynamic = (id: number, properties: CohortGroup): CohortDefinition => ({ id, name: `c${id}`, isStatic: false, version: 1, properties });
  const inCohort = (definition: FlagDefinition, cohort: CohortDefinition, distinctId: string, props: Record<string, unknown>) => (
    evaluateFlags([definition], subject(distinctId, { personProperties: props }), context({ cohortList: [cohort] })).get('test_flag')!.enabled);

  it('test_complex_cohort_conditions', () => {
    const cohort = dynamic(1, { type: 'OR', values: [
      { type: 'AND', values: [leafOf('email', '@posthog\\.com$', 'regex')] },
      { type: 'AND', values: [leafOf('email', ['fuziontech@gmail.com'], 'exact')] },
      { type: 'AND', values: [leafOf('distinct_id', ['D_9eluZIT3gqjO9dJqo1aDeqTbAG4yLwXFhN0bz_Vfc'], 'exact')] },
      { type: 'OR', values: [leafOf('email', ['neil@posthog.com'], 'exact')] },
      { type: 'OR', values: [leafOf('email', ['corywatilo@gmail.com'], 'exact')] },
      { type: 'OR', values: [leafOf('email', '@leads\\.io$', 'regex')] },
      { type: 'OR', values: [leafOf('email', '@desertcart\\.io$', 'regex')] },
    ] });
    const definition = cohortFlag(cohort, 'in');
    for (const [id, email, expected] of [['test_user_1', 'test@posthog.com', true], ['test_user_2', 'fuziontech@gmail.com', true],
      ['D_9eluZIT3gqjO9dJqo1aDeqTbAG4yLwXFhN0bz_Vfc', 'other@example.com', true], ['test_user_4', 'neil@posthog.com', true],
      ['test_user_5', 'test@leads.io', true], ['test_user_6', 'random@example.com', false]] as const) {
      expect(inCohort(definition, cohort, id, { email, distinct_id: id })).toBe(expected);
    }
  });

  const superFlag = (superValue: unknown): FlagFilters => ({
    groups: [
      { properties: [person('email', 'fake@posthog.com')], rollout_percentage: 0 },
      { properties: [person('email', 'test@posthog.com')], rollout_percentage: 100 },
      { rollout_percentage: 50 },
    ],
    super_groups: [{ properties: [person('is_enabled', superValue)], rollout_percentage: 100 }],
  });

  it('test_super_condition_matches_boolean', () => {
    const filters = superFlag(['true']);
    expect(single(filters, 'test_id', { email: 'test@posthog.com', is_enabled: true }, 'super_condition_flag')).toMatchObject({ enabled: true, reason: { code: 'super_condition_value' } });
    expect(single(filters, 'lil_id', {}, 'super_condition_flag')).toMatchObject({ enabled: true, reason: { code: 'condition_match' } });
    expect(single(filters, 'another_id', {}, 'super_condition_flag')).toMatchObject({ enabled: false, reason: { code: 'out_of_rollout_bound' } });
  });

  it('test_super_condition_matches_string', () => {
    expect(single(superFlag('true'), 'test_id', { email: 'test@posthog.com', is_enabled: 'true' }, 'super_condition_flag'))
      .toMatchObject({ enabled: true, reason: { code: 'super_condition_value', condition_index: 0 } });
  });

  it('test_super_condition_matches_and_false', () => {
    const filters = superFlag(false);
    expect(single(filters, 'test_id', { email: 'test@posthog.com', is_enabled: true }, 'super_condition_flag')).toMatchObject({ enabled: false, reason: { code: 'super_condition_value', condition_index: 0 } });
    expect(single(filters, 'lil_id', {}, 'super_condition_flag')).toMatchObject({ enabled: true, reason: { code: 'condition_match', condition_index: 2 } });
    expect(single(filters, 'another_id', {}, 'super_condition_flag')).toMatchObject({ enabled: false, reason: { code: 'out_of_rollout_bound', condition_index: 2 } });
  });

  it('test_basic_cohort_matching', () => {
    const cohort = dynamic(1, { type: 'OR', values: [{ type: 'OR', values: [leafOf('$browser_version', '125', 'gt')] }] });
    expect(inCohort(cohortFlag(cohort, 'in'), cohort, 'test_user', { $browser_version: 126 })).toBe(true);
  });

  it('test_not_in_cohort_matching', () => {
    const cohort = dynamic(1, { type: 'OR', values: [{ type: 'OR', values: [leafOf('$browser_version', '130', 'gt')] }] });
    expect(inCohort(cohortFlag(cohort, 'not_in'), cohort, 'test_user', { $browser_version: 126 })).toBe(true);
  });

  const browserOver = (id: number, threshold: string) => dynamic(id, { type: 'OR', values: [{ type: 'OR', values: [leafOf('$browser_version', threshold, 'gt')] }] });

  it('test_not_in_cohort_matching_user_in_cohort', () => {
    const cohort = browserOver(1, '125');
    expect(inCohort(cohortFlag(cohort, 'not_in'), cohort, 'test_user', { $browser_version: 126 })).toBe(false);
  });

  it('test_cohort_dependent_on_another_cohort', () => {
    const base = browserOver(1, '125');
    const dependent = dynamic(2, { type: 'OR', values: [{ type: 'OR', values: [{ type: 'cohort', cohortId: 1, negation: false }] }] });
    const definition = cohortFlag(dependent, 'in');
    const who = subject('test_user', { personProperties: { $browser_version: 126 } });
    expect(evaluateFlags([definition], who, context({ cohortList: [base, dependent] })).get('test_flag')!.enabled).toBe(true);
  });

  it('test_in_cohort_matching_user_not_in_cohort', () => {
    const cohort = browserOver(1, '130');
    expect(inCohort(cohortFlag(cohort, 'in'), cohort, 'test_user', { $browser_version: 125 })).toBe(false);
  });

  const staticCohort: CohortDefinition = { id: 7, name: 'Static Cohort', isStatic: true, version: 1, properties: null };
  const staticCase = (operator: string, member: boolean) => evaluateFlags([cohortFlag(staticCohort, operator)],
    subject('static_user', { personProperties: { email: 'static@user.com' }, staticCohortIds: new Set(member ? [7] : []) }), context({ cohortList: [staticCohort] })).get('test_flag')!.enabled;

  it('test_static_cohort_matching_user_in_cohort / test_static_cohort_evaluation_skips_dependency_graph', () => {
    expect(staticCase('in', true)).toBe(true);
  });
  it('test_static_cohort_matching_user_not_in_cohort', () => expect(staticCase('in', false)).toBe(false));
  it('test_static_cohort_not_in_matching_user_not_in_cohort', () => expect(staticCase('not_in', false)).toBe(true));
  it('test_static_cohort_not_in_matching_user_in_cohort', () => expect(staticCase('not_in', true)).toBe(false));

  const emailFlag = (key: string, email: string, continuity: boolean) => flag(key, { groups: [{ properties: [{ key: 'email', value: email, type: 'person' }], rollout_percentage: 100 }] }, { ensureExperienceContinuity: continuity });

  it('test_evaluate_feature_flags_with_experience_continuity', () => {
    const who = subject('user3', { personProperties: { email: 'user3@example.com' }, hashKeyOverride: () => 'hash_key_continuity' });
    expect(evaluateFlags([emailFlag('flag_continuity', 'user3@example.com', true)], who, context()).get('flag_continuity')!.enabled).toBe(true);
  });

  it('test_evaluate_feature_flags_with_continuity_missing_override', () => {
    expect(evaluateFlags([emailFlag('flag_continuity_missing', 'user4@example.com', true)], subject('user4', { personProperties: { email: 'user4@example.com' } }), context())
      .get('flag_continuity_missing')!.enabled).toBe(true);
  });

  it('test_evaluate_all_feature_flags_mixed_continuity', () => {
    const noContinuity = flag('flag_no_continuity_mix', { groups: [{ properties: [person('age', 30, 'gt')], rollout_percentage: 100 }] });
    const who = subject('user5', { personProperties: { email: 'user5@example.com', age: 35 }, hashKeyOverride: () => 'hash_key_mixed' });
    expect(run([emailFlag('flag_continuity_mix', 'user5@example.com', true), noContinuity], 'user5', who.personProperties, { hashKeyOverride: who.hashKeyOverride }))
      .toEqual({ flag_continuity_mix: true, flag_no_continuity_mix: true });
  });

  it('test_variant_override_in_condition', () => {
    const base = { properties: [{ key: 'email', value: 'test@example.com', type: 'person' as const }], rollout_percentage: 100 };
    const valid = single({ groups: [{ ...base, variant: 'control' }], multivariate: { variants: [{ key: 'control', rollout_percentage: 25 }, { key: 'test', rollout_percentage: 25 }, { key: 'test2', rollout_percentage: 50 }] } }, 'test_user', { email: 'test@example.com' });
    expect(valid).toMatchObject({ enabled: true, variant: 'control' });
    const invalid = single({ groups: [{ ...base, variant: 'nonexistent_variant' }], multivariate: { variants: [{ key: 'control', rollout_percentage: 25 }, { key: 'test', rollout_percentage: 75 }] } }, 'test_user', { email: 'test@example.com' }, 'test_flag_invalid');
    expect(invalid.enabled).toBe(true);
    expect(['control', 'test']).toContain(invalid.variant);
  });

  it('test_feature_flag_with_holdout_filter (holdout in the current `holdout` form: the variant is holdout-<id>)', () => {
    const variants = { variants: [{ key: 'first-variant', rollout_percentage: 50 }, { key: 'second-variant', rollout_percentage: 25 }, { key: 'third-variant', rollout_percentage: 25 }] };
    const withHoldout = (key: string, percentage: number) => flag(key, { groups: [{ properties: [person('$some_prop', 4, 'gt')], rollout_percentage: 100 }], holdout: { id: 1, exclusion_percentage: percentage }, multivariate: variants });
    const flags = [withHoldout('flag-with-gt-filter', 70), withHoldout('other-flag-with-gt-filter', 70), withHoldout('other-flag-without-holdout-with-gt-filter', 0)];
    const outside = evaluateFlags(flags, subject('example_id', { personProperties: { $some_prop: 5 } }), context());
    const inside = evaluateFlags(flags, subject('example_id2', { personProperties: { $some_prop: 5 } }), context());
    expect(outside.get('flag-with-gt-filter')).toMatchObject({ enabled: true, variant: 'second-variant', reason: { code: 'condition_match' } });
    expect(inside.get('flag-with-gt-filter')).toMatchObject({ enabled: true, variant: 'holdout-1', reason: { code: 'holdout_condition_value' } });
    expect(inside.get('other-flag-with-gt-filter')).toMatchObject({ enabled: true, variant: 'holdout-1', reason: { code: 'holdout_condition_value' } });
    expect(outside.get('other-flag-with-gt-filter')).toMatchObject({ enabled: true, variant: 'third-variant', reason: { code: 'condition_match' } });
    expect(outside.get('other-flag-without-holdout-with-gt-filter')).toMatchObject({ variant: 'second-variant', reason: { code: 'condition_match' } });
    expect(inside.get('other-flag-without-holdout-with-gt-filter')).toMatchObject({ variant: 'second-variant', reason: { code: 'condition_match' } });
  });

  it('test_variants (ported by PostHog from posthog/test/test_feature_flag.py)', () => {
    const filters = { groups: [{ properties: [], rollout_percentage: null }], multivariate: { variants: [{ key: 'first-variant', rollout_percentage: 50 }, { key: 'second-variant', rollout_percentage: 25 }, { key: 'third-variant', rollout_percentage: 25 }] } };
    for (const [id, variant] of [['11', 'first-variant'], ['example_id', 'second-variant'], ['3', 'third-variant']]) {
      expect(single(filters, id!, {}, 'beta-feature')).toEqual({ key: 'beta-feature', enabled: true, variant, payload: null, reason: { code: 'condition_match', condition_index: 0, description: 'Matched condition set 1' } });
    }
  });

  it('test_no_person_id_with_overrides', () => {
    expect(single({ groups: [{ properties: [person('email', 'test@example.com')], rollout_percentage: 100 }] }, 'nonexistent_user', { email: 'test@example.com' }).enabled).toBe(true);
  });

  it('test_numeric_group_keys', () => {
    const definition = flag('test_flag', { groups: [{ properties: [], rollout_percentage: 100 }], aggregation_group_type_index: 1 });
    const ctx = context({ groupTypeMapping: new Map([[1, 'organization']]) });
    const forKey = (key: unknown) => evaluateFlags([definition], subject('test_user', { groups: { organization: key as string } }), ctx).get('test_flag')!;
    expect(forKey(123)).toMatchObject({ enabled: true, reason: { code: 'condition_match' } });
    expect(forKey('123')).toMatchObject({ enabled: true, reason: { code: 'condition_match' } });
    expect(forKey(123.0).enabled).toBe(true);
    expect(forKey(true).enabled).toBe(false);
  });

  it('test_complex_super_condition_matching', () => {
    const filters: FlagFilters = {
      groups: [
        { properties: [person('email', '@storytell.ai', 'icontains')], rollout_percentage: 100 },
        { properties: [person('email', ['simone.demarchi@outlook.com', 'djokovic.dav@gmail.com', 'dario.passarello@gmail.com', 'matt.amick@purplewave.com'])], rollout_percentage: 100 },
        { properties: [person('email', '@posthog.com', 'icontains')], rollout_percentage: 100 },
      ],
      super_groups: [{ properties: [person('$feature_enrollment/my-flag', ['true'])], rollout_percentage: 100 }],
    };
    expect(single(filters, 'super_user', { email: 'random@example.com', '$feature_enrollment/my-flag': true }, 'complex_flag')).toMatchObject({ enabled: true, reason: { code: 'super_condition_value' } });
    expect(single(filters, 'posthog_user', { email: 'test@posthog.com', '$feature_enrollment/my-flag': false }, 'complex_flag')).toMatchObject({ enabled: false, reason: { code: 'super_condition_value' } });
    expect(single(filters, 'regular_user', { email: 'regular@example.com' }, 'complex_flag')).toMatchObject({ enabled: false, reason: { code: 'no_condition_match' } });
  });

  it('test_filters_with_distinct_id_exact', () => {
    // PostHog matches `distinct_id` as a person property here (its test person has it stored); the caller supplies it.
    const filters = { groups: [{ properties: [person('distinct_id', ['user_distinct_id'])], rollout_percentage: 100 }] };
    expect(single(filters, 'user_distinct_id', { distinct_id: 'user_distinct_id' }, 'flag1')).toMatchObject({ enabled: true, variant: null });
  });

  const deviceFlag = (bucketing: 'device_id' | 'distinct_id') => flag('device-flag', { groups: [{ rollout_percentage: 50 }] }, { ensureExperienceContinuity: true, bucketingIdentifier: bucketing });
  const onDevice = (bucketing: 'device_id' | 'distinct_id', distinctId: string, deviceId: string | null) => (
    evaluateFlags([deviceFlag(bucketing)], subject(distinctId, { deviceId }), context()).get('device-flag')!.enabled);

  it('test_device_id_bucketing_uses_device_identifier', () => {
    expect(onDevice('device_id', 'distinct-alpha', 'device-high')).toBe(true);
    expect(onDevice('device_id', 'distinct-beta', 'device-high')).toBe(true);
    expect(onDevice('device_id', 'distinct-gamma', 'device-low')).toBe(false);
  });

  it('test_device_id_bucketing_returns_false_when_missing_device', () => {
    expect(onDevice('device_id', 'distinct-foo', null)).toBe(false);
    expect(onDevice('device_id', 'distinct-high', '')).toBe(false);
  });

  it('test_distinct_id_bucketing_ignores_device_id', () => {
    expect(onDevice('distinct_id', 'distinct-high', 'device-high')).toBe(false);
    expect(onDevice('distinct_id', 'distinct-foo', 'device-low')).toBe(true);
  });

  it('test_partial_property_overrides_fallback_behavior (the merged properties; merging is the caller\'s)', () => {
    const filters = { groups: [
      { properties: [person('app_version', '1\\.[23456789]\\.\\d{1,2}', 'regex'), person('focus', ['become-more-active', 'all-of-the-above']), person('os', ['iOS'])], rollout_percentage: 100 },
      { properties: [person('email', ['flag-test@example.com'])], rollout_percentage: 100 },
    ] };
    const stored = { app_version: '1.3.6', focus: 'all-of-the-above', os: 'iOS', email: 'test@example.com' };
    for (const overrides of [{ os: 'iOS', app_version: '1.3.6', email: 'override-test@example.com' }, { email: 'flag-test@example.com' }, { email: 'wrong@email.com' },
      { app_version: '1.3.6', focus: 'all-of-the-above', os: 'iOS' }]) {
      expect(single(filters, 'test_user', { ...stored, ...overrides }).enabled).toBe(true);
    }
  });

  it('test_partial_group_property_overrides_fallback_behavior (the merged group properties)', () => {
    const definition = flag('test_flag', { aggregation_group_type_index: 1, groups: [
      { properties: [{ key: 'plan', value: ['enterprise', 'pro'], operator: 'exact', type: 'group', group_type_index: 1 }, { key: 'region', value: 'us-.*', operator: 'regex', type: 'group', group_type_index: 1 },
        { key: 'feature_access', value: ['full', 'premium'], operator: 'exact', type: 'group', group_type_index: 1 }], rollout_percentage: 100 },
      { properties: [{ key: 'billing_email', value: ['special-billing@testorg.com'], operator: 'exact', type: 'group', group_type_index: 1 }], rollout_percentage: 100 },
    ] });
    const stored = { plan: 'enterprise', region: 'us-east-1', feature_access: 'full', billing_email: 'billing@testorg.com' };
    const ctx = context({ groupTypeMapping: new Map([[1, 'organization']]) });
    for (const overrides of [{ plan: 'enterprise', region: 'us-east-1', billing_email: 'override-billing@testorg.com' }, { billing_email: 'special-billing@testorg.com' },
      { billing_email: 'wrong-billing@testorg.com' }, { plan: 'enterprise', region: 'us-east-1', feature_access: 'full' },
      { plan: 'pro', region: 'us-west-2', billing_email: 'special-billing@testorg.com' }]) {
      const who = subject('test_user', { groups: { organization: 'test_org_123' }, groupProperties: { organization: { ...stored, ...overrides } } });
      expect(evaluateFlags([definition], who, ctx).get('test_flag')!.enabled).toBe(true);
    }
  });

  it('test_condition_evaluation_order_with_variant_overrides', () => {
    const filters = { groups: [{ properties: [person('email', 'specific@example.com')], rollout_percentage: 100 }, { variant: 'test', properties: [], rollout_percentage: 100 }],
      multivariate: { variants: [{ key: 'control', rollout_percentage: 100 }, { key: 'test', rollout_percentage: 0 }] } };
    expect(single(filters, 'specific_user', { email: 'specific@example.com' }, 'test_order_flag')).toMatchObject({ enabled: true, variant: 'control', reason: { condition_index: 0 } });
    expect(single(filters, 'other_user', { email: 'other@example.com' }, 'test_order_flag')).toMatchObject({ enabled: true, variant: 'test', reason: { condition_index: 1 } });
  });

  // Flags the endpoint filters out (inactive, or another runtime / evaluation tag) reach the evaluator as inactive: off, and read as false by dependants.
  const always = (key: string, id: number, extra: Partial<FlagDefinition> = {}) => flag(key, { groups: [{ properties: [], rollout_percentage: 100 }] }, { id, ...extra });
  const dependent = (key: string, id: number, on: number, value: boolean) => flag(key, { groups: [{ properties: [dependsOn(on, value)], rollout_percentage: 100 }] }, { id });

  it('test_flag_depending_on_disabled_flag_evaluates_to_false', () => {
    const results = evaluateFlags([always('base_flag', 1, { active: false }), dependent('dependent_flag', 2, 1, true)], subject('test_user'), context());
    expect(results.get('dependent_flag')!.enabled).toBe(false);
    expect(results.get('dependent_flag')!.reason.code).not.toBe('flag_disabled');
  });

  it('test_filtered_out_flag_satisfies_evaluates_to_false_dependency', () => {
    expect(run([always('flag_a', 1, { active: false }), dependent('flag_b', 2, 1, false)], 'test_user').flag_b).toBe(true);
  });

  it('test_filtered_out_flag_fails_evaluates_to_true_dependency', () => {
    expect(run([always('flag_a', 1, { active: false }), dependent('flag_b', 2, 1, true)], 'test_user').flag_b).toBe(false);
  });

  it('test_disabled_flags_not_dependencies_excluded_from_response (the evaluation; leaving it out of the answer is the endpoint\'s)', () => {
    const results = evaluateFlags([always('disabled_standalone', 1, { active: false }), always('active_flag', 2)], subject('test_user'), context());
    expect(results.get('disabled_standalone')!.reason.code).toBe('flag_disabled');
    expect(results.get('active_flag')!.enabled).toBe(true);
  });

  it('test_multi_level_dependency_with_filtered_out_intermediate', () => {
    const results = run([always('flag_a', 1), flag('flag_b', { groups: [{ properties: [dependsOn(1, true)], rollout_percentage: 100 }] }, { id: 2, active: false }), dependent('flag_c', 3, 2, false)], 'test_user');
    expect([results.flag_a, results.flag_c]).toEqual([true, true]);
  });

  // The optimization tests count hash-key lookups (storage); their evaluation results are ported.
  const continuity = (key: string, id: number, filters: FlagFilters) => flag(key, filters, { id, ensureExperienceContinuity: true });
  const anon = { hashKeyOverride: () => 'anon_distinct_id' };

  it('test_optimization_enabled_100_percent_rollout_evaluates_correctly / test_optimization_disabled_legacy_behavior', () => {
    expect(run([continuity('opt_100_percent', 1, { groups: [{ rollout_percentage: 100 }] })], 'optimization_user_1', {}, anon).opt_100_percent).toBe(true);
    expect(run([continuity('legacy_flag', 5, { groups: [{ rollout_percentage: 100 }] })], 'legacy_user', {}, anon).legacy_flag).toBe(true);
  });

  it('test_optimization_enabled_partial_rollout_evaluates_correctly', () => {
    const results = evaluateFlags([continuity('opt_partial_rollout', 2, { groups: [{ rollout_percentage: 50 }] })], subject('optimization_user_2', anon), context());
    expect(results.has('opt_partial_rollout')).toBe(true);
  });

  it('test_optimization_enabled_multivariate_evaluates_correctly / _with_100_percent_variant', () => {
    const half = continuity('opt_multivariate', 3, { groups: [{ rollout_percentage: 100 }], multivariate: { variants: [{ key: 'control', rollout_percentage: 50 }, { key: 'test', rollout_percentage: 50 }] } });
    const full = continuity('opt_multivariate_100', 4, { groups: [{ rollout_percentage: 100 }], multivariate: { variants: [{ key: 'control', rollout_percentage: 100 }, { key: 'test', rollout_percentage: 0 }] } });
    const results = evaluateFlags([half, full], subject('optimization_user_3', anon), context());
    expect(results.get('opt_multivariate')!.enabled).toBe(true);
    expect(results.get('opt_multivariate')!.variant).not.toBeNull();
    expect(results.get('opt_multivariate_100')).toMatchObject({ enabled: true, variant: 'control' });
  });

  it('test_optimization_mixed_flags / test_optimization_respects_flag_keys_filter / test_optimization_considers_dependencies_for_flag_keys', () => {
    const optimizable = continuity('flag_optimizable', 1, { groups: [{ rollout_percentage: 100 }] });
    const needsLookup = continuity('flag_needs_lookup', 2, { groups: [{ rollout_percentage: 50 }] });
    const noContinuity = flag('flag_no_continuity', { groups: [{ rollout_percentage: 100 }] }, { id: 3 });
    const results = evaluateFlags([optimizable, needsLookup, noContinuity], subject('mixed_user', anon), context());
    expect([...results.keys()]).toEqual(['flag_optimizable', 'flag_needs_lookup', 'flag_no_continuity']);
    expect([results.get('flag_optimizable')!.enabled, results.get('flag_no_continuity')!.enabled]).toEqual([true, true]);
    const dependsOnB = continuity('flag_depends_on_b', 12, { groups: [{ properties: [dependsOn(11, true)], rollout_percentage: 100 }] });
    const b = continuity('flag_needs_lookup', 11, { groups: [{ rollout_percentage: 50 }] });
    const withDependency = evaluateFlags([b, dependsOnB], subject('dependency_user', anon), context());
    expect(withDependency.get('flag_depends_on_b')!.enabled).toBe(withDependency.get('flag_needs_lookup')!.enabled);
  });

  const earlyAccess = (): FlagFilters => ({ groups: [{ rollout_percentage: 0 }], super_groups: [{ properties: [person('$feature_enrollment/my-flag', ['true'])], rollout_percentage: 100 }] });

  it('test_super_condition_matches_with_override_no_person_in_db', () => {
    expect(single(earlyAccess(), 'new_user_not_in_db', { '$feature_enrollment/my-flag': 'true' }, 'early_access_flag')).toMatchObject({ enabled: true, reason: { code: 'super_condition_value' } });
  });

  it('test_super_condition_override_takes_precedence_over_db (merged: the request wins)', () => {
    const merged = { ...{ email: 'test@example.com', '$feature_enrollment/my-flag': 'false' }, ...{ '$feature_enrollment/my-flag': 'true' } };
    expect(single(earlyAccess(), 'test_user', merged, 'early_access_flag')).toMatchObject({ enabled: true, reason: { code: 'super_condition_value' } });
  });

  it('test_super_condition_with_override_person_exists_without_property', () => {
    expect(single(earlyAccess(), 'test_user', { email: 'test@example.com', '$feature_enrollment/my-flag': 'true' }, 'early_access_flag')).toMatchObject({ enabled: true, reason: { code: 'super_condition_value' } });
  });
});
