// posthog/test/test_feature_flag.py, class TestFeatureFlagMatcher (the old Python evaluator's
// tests, commit 000cf15): one `it` per Python test. Persons and groups stored by the Python tests
// arrive here as the merged properties the caller passes. Where Python and the current Rust
// service disagree, Rust's answer is asserted and the comment says so (docs/flags-posthog-tests.md).
import { describe, expect, it } from 'vitest';
import { evaluateFlags } from '../../src/core/flags/evaluation/index.js';
import type { FlagDefinition, FlagFilters, FlagPropertyFilter, FlagReasonCode } from '../../src/core/flags/types.js';
import type { CohortDefinition, CohortGroup } from '../../src/query/cohorts/schema.js';
import { context, flag, subject } from './support.js';

const email = (value: string, operator?: string) => ({ key: 'email', type: 'person' as const, value, ...(operator ? { operator } : {}) });
const groupCtx = context({ groupTypeMapping: new Map([[0, 'organization'], [1, 'project']]) });
/** The Python test's stored groups (create_groups): organization foo / bar, project group_key. */
const GROUP_PROPERTIES: Record<string, Record<string, Record<string, unknown>>> = {
  organization: { foo: { name: 'foo.inc' }, bar: { name: 'var.inc' } },
  project: { group_key: { name: 'var.inc' } },
};

interface Who { id: string; props?: Record<string, unknown>; groups?: Record<string, string>; groupOverrides?: Record<string, Record<string, unknown>>; staticCohorts?: number[] }
function match(definition: FlagDefinition, who: Who, flags: FlagDefinition[] = [definition], ctx = groupCtx) {
  const groups = who.groups ?? {};
  const groupProperties = Object.fromEntries(Object.entries(groups).map(([type, key]) => [type, { ...(GROUP_PROPERTIES[type]?.[key] ?? {}), ...(who.groupOverrides?.[type] ?? {}) }]));
  const result = evaluateFlags(flags, subject(who.id, { personProperties: who.props ?? {}, groups, groupProperties, staticCohortIds: new Set(who.staticCohorts ?? []) }), ctx).get(definition.key)!;
  return [result.enabled, result.variant, result.reason.code, result.reason.condition_index] as const;
}
const M = (enabled: boolean, variant: string | null, code: FlagReasonCode, index: number | null) => [enabled, variant, code, index] as const;
const beta = (filters: FlagFilters, key = 'beta-feature') => flag(key, filters);
const threeVariants = { variants: [{ key: 'first-variant', rollout_percentage: 50 }, { key: 'second-variant', rollout_percentage: 25 }, { key: 'third-variant', rollout_percentage: 25 }] };
const TEST_ID = { email: 'test@posthog.com' };

describe('posthog/test/test_feature_flag.py TestFeatureFlagMatcher', () => {
  it('test_blank_flag', () => {
    const definition = beta({ groups: [{ properties: [], rollout_percentage: null }] });
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: 'another_id' })).toEqual(M(true, null, 'condition_match', 0));
  });

  it('test_coercion_of_strings_and_numbers (Rust compares text: 307 and "307" are equal everywhere)', () => {
    const organizer = beta({ groups: [{ properties: [{ key: 'Organizer Id', value: ['307'], operator: 'exact', type: 'person' }] }] });
    const distinct = beta({ groups: [{ properties: [{ key: 'Distinct Id', value: ['307'], operator: 'exact', type: 'person' }] }, { properties: [{ key: 'Distinct Id', value: [307], operator: 'exact', type: 'person' }] }] }, 'random');
    const stored = { 'Distinct Id': 307, 'Organizer Id': '307' };
    expect(match(organizer, { id: '307', props: stored })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(organizer, { id: '307', props: { ...stored, 'Organizer Id': '307' } })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(organizer, { id: '307', props: { ...stored, 'Organizer Id': 307 } })).toEqual(M(true, null, 'condition_match', 0)); // Python: no match
    expect(match(distinct, { id: '307', props: stored })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(distinct, { id: '307', props: { ...stored, 'Distinct Id': '307' } })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(distinct, { id: '307', props: { ...stored, 'Distinct Id': 307 } })).toEqual(M(true, null, 'condition_match', 0)); // Python: set 1
  });

  it('test_coercion_of_booleans (random4\'s quoted \'"true"\' is text to Rust, so it does not match)', () => {
    const stored = { enabled: true, string_enabled: 'true' };
    const f1 = beta({ groups: [{ properties: [{ key: 'enabled', value: ['true'], operator: 'exact', type: 'person' }] }] }, 'random1');
    const f2 = beta({ groups: [{ properties: [{ key: 'enabled', value: true, operator: 'exact', type: 'person' }] }, { properties: [{ key: 'enabled', value: [true], operator: 'exact', type: 'person' }] }] }, 'random2');
    const f3 = beta({ groups: [{ properties: [{ key: 'string_enabled', value: [true], operator: 'exact', type: 'person' }] }, { properties: [{ key: 'string_enabled', value: true, operator: 'exact', type: 'person' }] }] }, 'random3');
    const f4 = beta({ groups: [{ properties: [{ key: 'string_enabled', value: ['"true"'], operator: 'exact', type: 'person' }] }, { properties: [{ key: 'string_enabled', value: '"true"', operator: 'exact', type: 'person' }] }] }, 'random4');
    for (const props of [stored, { ...stored, enabled: true, string_enabled: true }, { ...stored, enabled: 'true', string_enabled: 'true' }]) {
      expect([f1, f2, f3].map((definition) => match(definition, { id: '307', props }))).toEqual([0, 0, 0].map(() => M(true, null, 'condition_match', 0)));
      expect(match(f4, { id: '307', props })).toEqual(M(false, null, 'no_condition_match', 1)); // Python: matches (its database compares JSON)
    }
  });

  it('test_db_matches_independent_of_string_or_number_type', () => {
    const stored = { 'Distinct Id': 307, 'Organizer Id': '307' };
    const f1 = beta({ groups: [{ properties: [{ key: 'Distinct Id', value: ['307'], operator: 'exact', type: 'person' }] }] });
    const f2 = beta({ groups: [{ properties: [{ key: 'Distinct Id', value: [307], operator: 'exact', type: 'person' }] }] }, 'random');
    const f3 = beta({ groups: [{ properties: [{ key: 'Distinct Id', value: 307, operator: 'exact', type: 'person' }] }] }, 'random2');
    expect(match(f1, { id: '307', props: stored })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(f1, { id: '307', props: { 'Distinct Id': 307 } })).toEqual(M(true, null, 'condition_match', 0)); // Python: no match for the override
    expect(match(f2, { id: '307', props: stored })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(f2, { id: '307', props: { 'Distinct Id': 307 } })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(f3, { id: '307', props: stored })).toEqual(M(true, null, 'condition_match', 0));
  });

  it('test_rollout_percentage', () => {
    const definition = beta({ groups: [{ rollout_percentage: 50 }] });
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: 'another_id' })).toEqual(M(false, null, 'out_of_rollout_bound', 0));
  });

  it('test_empty_group', () => {
    const definition = beta({ groups: [{}] });
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: 'another_id' })).toEqual(M(true, null, 'condition_match', 0));
  });

  it('test_null_rollout_percentage', () => {
    expect(match(beta({ groups: [{ properties: [], rollout_percentage: null }] }), { id: 'example_id' })).toEqual(M(true, null, 'condition_match', 0));
  });

  it('test_zero_rollout_percentage', () => {
    expect(match(beta({ groups: [{ properties: [], rollout_percentage: 0 }] }), { id: 'example_id' })).toEqual(M(false, null, 'out_of_rollout_bound', 0));
  });

  it('test_complicated_flag', () => {
    const definition = beta({ groups: [{ properties: [email('test@posthog.com', 'exact')], rollout_percentage: 100 }, { rollout_percentage: 50 }] });
    expect(match(definition, { id: 'test_id', props: TEST_ID })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, null, 'condition_match', 1));
    expect(match(definition, { id: 'another_id' })).toEqual(M(false, null, 'out_of_rollout_bound', 1));
  });

  const superFlag = (superProperties: FlagPropertyFilter[], superRollout = 100) => beta({
    groups: [{ properties: [email('fake@posthog.com', 'exact')], rollout_percentage: 0 }, { properties: [email('test@posthog.com', 'exact')], rollout_percentage: 100 }, { rollout_percentage: 50 }],
    super_groups: [{ properties: superProperties, rollout_percentage: superRollout }],
  });
  const isEnabled = (value: unknown) => [{ key: 'is_enabled', type: 'person' as const, operator: 'exact', value }];

  it('test_super_condition_matches_boolean', () => {
    const definition = superFlag(isEnabled(['true']));
    expect(match(definition, { id: 'test_id', props: { ...TEST_ID, is_enabled: true } })).toEqual(M(true, null, 'super_condition_value', 0));
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, null, 'condition_match', 2));
    expect(match(definition, { id: 'another_id' })).toEqual(M(false, null, 'out_of_rollout_bound', 2));
  });

  it('test_super_condition_matches_string', () => {
    expect(match(superFlag(isEnabled('true')), { id: 'test_id', props: { ...TEST_ID, is_enabled: 'true' } })).toEqual(M(true, null, 'super_condition_value', 0));
  });

  it('test_super_condition_matches_and_false', () => {
    const definition = superFlag(isEnabled(false));
    expect(match(definition, { id: 'test_id', props: { ...TEST_ID, is_enabled: true } })).toEqual(M(false, null, 'super_condition_value', 0));
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, null, 'condition_match', 2));
    expect(match(definition, { id: 'another_id' })).toEqual(M(false, null, 'out_of_rollout_bound', 2));
  });

  it('test_super_condition_is_not_set', () => {
    const definition = superFlag(isEnabled(true));
    expect(match(definition, { id: 'test_id', props: TEST_ID })).toEqual(M(true, null, 'condition_match', 1));
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, null, 'condition_match', 2));
    expect(match(definition, { id: 'another_id' })).toEqual(M(false, null, 'out_of_rollout_bound', 2));
  });

  it('test_super_condition_with_override_properties', () => {
    const definition = superFlag(isEnabled(true));
    expect(match(definition, { id: 'test_id', props: { ...TEST_ID, is_enabled: false } })).toEqual(M(false, null, 'super_condition_value', 0));
    expect(match(definition, { id: 'test_id', props: { ...TEST_ID, is_enabled: true } })).toEqual(M(true, null, 'super_condition_value', 0));
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, null, 'condition_match', 2));
    expect(match(definition, { id: 'example_id', props: { is_enabled: true } })).toEqual(M(true, null, 'super_condition_value', 0));
    expect(match(definition, { id: 'another_id' })).toEqual(M(false, null, 'out_of_rollout_bound', 2));
    expect(match(definition, { id: 'another_id', props: { is_enabled: true } })).toEqual(M(true, null, 'super_condition_value', 0));
  });

  it('test_super_condition_with_override_properties_with_property_not_ingested', () => {
    const definition = superFlag(isEnabled(true));
    expect(match(definition, { id: 'test_id', props: TEST_ID })).toEqual(M(true, null, 'condition_match', 1));
    expect(match(definition, { id: 'test_id', props: { ...TEST_ID, is_enabled: true } })).toEqual(M(true, null, 'super_condition_value', 0));
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, null, 'condition_match', 2));
    expect(match(definition, { id: 'example_id', props: { is_enabled: true } })).toEqual(M(true, null, 'super_condition_value', 0));
    expect(match(definition, { id: 'another_id' })).toEqual(M(false, null, 'out_of_rollout_bound', 2));
    expect(match(definition, { id: 'another_id', props: { is_enabled: true } })).toEqual(M(true, null, 'super_condition_value', 0));
  });

  it('test_flag_with_variant_overrides', () => {
    const definition = beta({ groups: [{ properties: [email('test@posthog.com', 'exact')], rollout_percentage: 100, variant: 'second-variant' }, { rollout_percentage: 50, variant: 'first-variant' }], multivariate: threeVariants });
    expect(match(definition, { id: 'test_id', props: TEST_ID })).toEqual(M(true, 'second-variant', 'condition_match', 0));
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, 'first-variant', 'condition_match', 1));
    expect(match(definition, { id: 'another_id' })).toEqual(M(false, null, 'out_of_rollout_bound', 1));
  });

  it('test_flag_with_clashing_variant_overrides', () => {
    const definition = beta({ groups: [
      { properties: [email('test@posthog.com', 'exact')], rollout_percentage: 100, variant: 'second-variant' },
      { properties: [email('test@posthog.com', 'exact')], rollout_percentage: 100, variant: 'first-variant' },
      { rollout_percentage: 50 },
    ], multivariate: threeVariants });
    expect(match(definition, { id: 'test_id', props: TEST_ID })).toEqual(M(true, 'second-variant', 'condition_match', 0));
    expect(match(definition, { id: 'example_id', props: TEST_ID })).toEqual(M(true, 'second-variant', 'condition_match', 0));
    expect(match(definition, { id: 'another_id' })).toEqual(M(false, null, 'out_of_rollout_bound', 2));
  });

  it('test_flag_with_invalid_variant_overrides', () => {
    const definition = beta({ groups: [{ properties: [email('test@posthog.com', 'exact')], rollout_percentage: 100, variant: 'second???' }, { rollout_percentage: 50, variant: 'first???' }], multivariate: threeVariants });
    expect(match(definition, { id: 'test_id', props: TEST_ID })).toEqual(M(true, 'third-variant', 'condition_match', 0));
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, 'second-variant', 'condition_match', 1));
    expect(match(definition, { id: 'another_id' })).toEqual(M(false, null, 'out_of_rollout_bound', 1));
  });

  it('test_multiple_flags (group flags without their group: no_group_type at the last skipped set, as the current Rust reports; Python: no index)', () => {
    const flags = [
      beta({ groups: [{ properties: [email('test@posthog.com', 'exact')], rollout_percentage: 100 }, { rollout_percentage: 50 }] }, 'one'),
      beta({ groups: [{ rollout_percentage: 100 }] }, 'always_match'),
      beta({ groups: [{ rollout_percentage: 0 }] }, 'never_match'),
      beta({ aggregation_group_type_index: 1, groups: [{ rollout_percentage: 100 }] }, 'group_match'),
      beta({ aggregation_group_type_index: 1, groups: [{ rollout_percentage: 0 }] }, 'group_no_match'),
      beta({ groups: [{ properties: [], rollout_percentage: null }], multivariate: threeVariants, payloads: { 'first-variant': '{"color": "blue"}', 'second-variant': '{"color": "green"}', 'third-variant': '{"color": "red"}' } }, 'variant'),
      beta({ aggregation_group_type_index: 0, groups: [{ rollout_percentage: 100, properties: [{ key: 'name', value: ['foo.inc'], operator: 'exact', type: 'group', group_type_index: 0 }] }] }, 'group_property_match'),
      beta({ aggregation_group_type_index: 0, groups: [{ rollout_percentage: 100, properties: [{ key: 'name', value: ['foo2.inc'], operator: 'exact', type: 'group', group_type_index: 0 }] }] }, 'group_property_different_match'),
    ];
    const all = (groups: Record<string, string>) => Object.fromEntries(flags.map((definition) => [definition.key, match(definition, { id: 'test_id', props: TEST_ID, groups }, flags)]));
    expect(all({ project: 'group_key', organization: 'foo' })).toEqual({
      one: M(true, null, 'condition_match', 0), always_match: M(true, null, 'condition_match', 0), never_match: M(false, null, 'out_of_rollout_bound', 0),
      group_match: M(true, null, 'condition_match', 0), group_no_match: M(false, null, 'out_of_rollout_bound', 0), variant: M(true, 'first-variant', 'condition_match', 0),
      group_property_match: M(true, null, 'condition_match', 0), group_property_different_match: M(false, null, 'no_condition_match', 0),
    });
    const payload = evaluateFlags(flags, subject('test_id', { personProperties: TEST_ID }), groupCtx).get('variant')!.payload;
    expect(JSON.parse(payload!)).toEqual({ color: 'blue' });
    GROUP_PROPERTIES.organization!.foo2 = { name: 'foo2.inc' };
    expect(all({ organization: 'foo2' })).toEqual({
      one: M(true, null, 'condition_match', 0), always_match: M(true, null, 'condition_match', 0), never_match: M(false, null, 'out_of_rollout_bound', 0),
      group_match: M(false, null, 'no_group_type', 0), group_no_match: M(false, null, 'no_group_type', 0), variant: M(true, 'first-variant', 'condition_match', 0),
      group_property_match: M(false, null, 'no_condition_match', 0), group_property_different_match: M(true, null, 'condition_match', 0),
    });
    delete GROUP_PROPERTIES.organization!.foo2;
  });

  const twoEmails = beta({ groups: [{ properties: [{ key: 'email', value: 'tim@posthog.com' }] }, { properties: [{ key: 'email', value: 'example@example.com' }] }] } as FlagFilters);

  it('test_multi_property_filters', () => {
    expect(match(twoEmails, { id: 'example_id', props: { email: 'tim@posthog.com' } })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(twoEmails, { id: 'another_id', props: { email: 'example@example.com' } })).toEqual(M(true, null, 'condition_match', 1));
    expect(match(twoEmails, { id: 'false_id', props: {} })).toEqual(M(false, null, 'no_condition_match', 1));
  });

  it('test_multi_property_filters_with_override_properties', () => {
    expect(match(twoEmails, { id: 'example_id', props: { email: 'tim@posthog.com' } })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(twoEmails, { id: 'example_id', props: { email: 'bzz' } })).toEqual(M(false, null, 'no_condition_match', 1));
    expect(match(twoEmails, { id: 'random_id', props: {} })).toEqual(M(false, null, 'no_condition_match', 1));
    expect(match(twoEmails, { id: 'random_id', props: { email: 'example@example.com' } })).toEqual(M(true, null, 'condition_match', 1));
  });

  it('test_multi_property_filters_with_override_group_properties', () => {
    const definition = beta({ aggregation_group_type_index: 0, groups: [{ properties: [
      { key: 'name', value: ['foo.inc'], type: 'group', group_type_index: 0 }, { key: 'not_ingested', value: 'example.com', type: 'group', group_type_index: 0 }] }] });
    expect(match(definition, { id: 'example1_id', groups: { organization: 'foo' } })).toEqual(M(false, null, 'no_condition_match', 0));
    expect(match(definition, { id: 'example2_id', groups: { organization: 'foo' }, groupOverrides: { organization: { not_ingested: 'example.com' } } })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: 'example3_id', groups: { organization: 'bar' }, groupOverrides: { organization: { not_ingested: 'example.com' } } })).toEqual(M(false, null, 'no_condition_match', 0));
    expect(match(definition, { id: 'random_id' })).toEqual(M(false, null, 'no_group_type', 0)); // Python: no index
    expect(match(definition, { id: 'random_id', groups: { organization: 'foo' }, groupOverrides: { organization: { not_ingested: 'example.com', name: 'foo.inc' } } })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: 'random_id', groups: { organization: 'bar' }, groupOverrides: { organization: { not_ingested: 'example.com', name: 'foo.inc' } } })).toEqual(M(true, null, 'condition_match', 0));
  });

  it('test_override_properties_where_person_doesnt_exist_yet', () => {
    const definition = beta({ groups: [{ properties: [email('tim@posthog.com')] }, { properties: [{ key: 'email', value: 'example@example.com' }] }] } as FlagFilters);
    expect(match(definition, { id: 'example_id', props: { email: 'tim@posthog.com' } })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: 'example_id', props: { email: 'bzz' } })).toEqual(M(false, null, 'no_condition_match', 1));
    expect(match(definition, { id: 'random_id' })).toEqual(M(false, null, 'no_condition_match', 1));
    expect(match(definition, { id: 'random_id', props: { email: 'example@example.com' } })).toEqual(M(true, null, 'condition_match', 1));
  });

  it('test_override_properties_where_person_doesnt_exist_yet_multiple_conditions', () => {
    const definition = beta({ groups: [{ properties: [{ key: 'email', value: 'tim@posthog.com' }, { key: 'another_prop', value: 'slow' }], rollout_percentage: 50 }] } as FlagFilters);
    expect(match(definition, { id: 'example_id', props: { email: 'tim@posthog.com' } })).toEqual(M(false, null, 'no_condition_match', 0));
    expect(match(definition, { id: 'example_id', props: { email: 'bzz' } })).toEqual(M(false, null, 'no_condition_match', 0));
    expect(match(definition, { id: 'random_id' })).toEqual(M(false, null, 'no_condition_match', 0));
    const full = { email: 'tim@posthog.com', another_prop: 'slow', blah: 'blah' };
    expect(match(definition, { id: 'random_id_without_rollout', props: full })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: 'random_id_within_rollout', props: full })).toEqual(M(false, null, 'out_of_rollout_bound', 0));
    expect(match(definition, { id: 'random_id_without_rollout', props: { ...full, another_prop: 'slow2' } })).toEqual(M(false, null, 'no_condition_match', 0));
    expect(match(definition, { id: 'random_id_without_rollout', props: { ...full, email: 'tim2@posthog.com' } })).toEqual(M(false, null, 'no_condition_match', 0));
  });

  it('test_multi_property_filters_with_override_properties_with_is_not_set (merged properties: a request email is set)', () => {
    const definition = beta({ groups: [{ properties: [{ key: 'email', operator: 'is_not_set' }] }] } as FlagFilters);
    expect(match(definition, { id: 'example_id', props: { email: 'tim@posthog.com' } })).toEqual(M(false, null, 'no_condition_match', 0));
    expect(match(definition, { id: 'example_id', props: { email: 'bzz' } })).toEqual(M(false, null, 'no_condition_match', 0));
    expect(match(definition, { id: 'random_id', props: {} })).toEqual(M(true, null, 'condition_match', 0));
    // Python answers true here (its database has no email for random_id); with the request's email merged in, Rust's is_not_set is false.
    expect(match(definition, { id: 'random_id', props: { email: 'example@example.com' } })).toEqual(M(false, null, 'no_condition_match', 0));
  });

  const cohortOf = (id: number, properties: CohortGroup, isStatic = false): CohortDefinition => ({ id, name: `cohort${id}`, isStatic, version: 1, properties: isStatic ? null : properties });
  const leaf = (key: string, value: unknown, operator = 'exact') => ({ type: 'person' as const, negation: false, filter: { key, value: value as string, operator: operator as 'exact', type: 'person' as const } });
  const regexCohort = cohortOf(1, { type: 'OR', values: [{ type: 'AND', values: [leaf('email', '@posthog\\.com$', 'regex')] }] });
  const icontainsCohort = cohortOf(2, { type: 'OR', values: [{ type: 'AND', values: [leaf('email', '@posthog.com', 'icontains')] }] });
  const inCohort = (id: number, key = 'beta-feature') => beta({ groups: [{ properties: [{ key: 'id', value: id, type: 'cohort' }] }] }, key);
  const cohortCtx = (...cohorts: CohortDefinition[]) => context({ cohortList: cohorts, groupTypeMapping: groupCtx.groupTypeMapping });

  it('test_cohort_cache_no_unnecessary_queries (the value)', () => {
    const flags = [inCohort(1, 'x1'), inCohort(2), beta({ groups: [{ properties: [{ key: 'id', value: 2, type: 'cohort' }] }, { properties: [{ key: 'id', value: 1, type: 'cohort' }] }] }, 'x2')];
    expect(match(flags[0]!, { id: 'example_id', props: { email: 'tim@posthog.com' } }, flags, cohortCtx(regexCohort, icontainsCohort))).toEqual(M(true, null, 'condition_match', 0));
  });

  it('test_cohort_filters_with_override_properties', () => {
    const flags = [inCohort(1, 'x1'), inCohort(2)];
    const ctx = cohortCtx(regexCohort, icontainsCohort);
    expect(match(flags[0]!, { id: 'example_id', props: { email: 'tim@posthog.com' } }, flags, ctx)).toEqual(M(true, null, 'condition_match', 0));
    expect(match(flags[0]!, { id: 'example_id', props: { email: 'bzz' } }, flags, ctx)).toEqual(M(false, null, 'no_condition_match', 0));
    expect(match(flags[0]!, { id: 'example_id', props: { email: 'neil@posthog.com' } }, flags, ctx)).toEqual(M(true, null, 'condition_match', 0));
    expect(match(flags[1]!, { id: 'random_id', props: { email: 'xxx' } }, flags, ctx)).toEqual(M(false, null, 'no_condition_match', 0));
    expect(match(flags[1]!, { id: 'random_id', props: { email: 'example@posthog.com' } }, flags, ctx)).toEqual(M(true, null, 'condition_match', 0));
  });

  it('test_cohort_filters_with_multiple_OR_override_properties', () => {
    const cohort = cohortOf(1, { type: 'OR', values: [{ type: 'AND', values: [leaf('email', '@posthog\\.com$', 'regex')] }, { type: 'AND', values: [leaf('email', ['fuzion@xyz.com'])] }] });
    const ctx = cohortCtx(cohort);
    expect(match(inCohort(1), { id: 'example_id', props: { email: 'tim@posthog.com' } }, undefined, ctx)).toEqual(M(true, null, 'condition_match', 0));
    expect(match(inCohort(1), { id: 'example_id', props: { email: 'neil@posthog.com' } }, undefined, ctx)).toEqual(M(true, null, 'condition_match', 0));
  });

  const someProp1 = cohortOf(1, { type: 'AND', values: [leaf('$some_prop_1', 'something_1')] });

  it('test_user_in_cohort / test_user_in_cohort_without_calculation', () => {
    const ctx = cohortCtx(someProp1);
    expect(match(inCohort(1), { id: 'example_id_1', props: { $some_prop_1: 'something_1' } }, undefined, ctx)).toEqual(M(true, null, 'condition_match', 0));
    expect(match(inCohort(1), { id: 'another_id' }, undefined, ctx)).toEqual(M(false, null, 'no_condition_match', 0));
  });

  it('test_cohort_expansion_returns_same_result_as_regular_flag', () => {
    const cohort = cohortOf(1, { type: 'AND', values: [{ type: 'OR', values: [leaf('$some_prop1', 'something1'), leaf('$some_prop2', 'something2')] }] });
    const definition = beta({ groups: [{ properties: [{ key: 'id', value: 1, type: 'cohort' }], rollout_percentage: 28 }] }, 'cohort-exp');
    const ctx = cohortCtx(cohort);
    const people: Record<string, Record<string, unknown>> = { example_id_4: { $some_prop1: 'something1' }, example_id_5: { $some_prop2: 'something2' }, example_id_6: { $some_prop: 'something' } };
    expect(match(definition, { id: 'example_id_4', props: people.example_id_4 }, undefined, ctx)).toEqual(M(false, null, 'out_of_rollout_bound', 0));
    expect(match(definition, { id: 'example_id_5', props: people.example_id_5 }, undefined, ctx)).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: 'another_id' }, undefined, ctx)).toEqual(M(false, null, 'no_condition_match', 0));
    const expanded = beta({ groups: [{ properties: [{ key: '$some_prop1', value: 'something1', type: 'person' }], rollout_percentage: 28 }, { properties: [{ key: '$some_prop2', value: 'something2', type: 'person' }], rollout_percentage: 28 }] }, 'cohort-exp');
    for (let i = 1; i < 7; i += 1) {
      const who = { id: `example_id_${i}`, props: people[`example_id_${i}`] ?? {} };
      expect(match(expanded, who, undefined, ctx)[0]).toBe(match(definition, who, undefined, ctx)[0]);
    }
  });

  it('test_user_in_static_cohort', () => {
    const ctx = cohortCtx(cohortOf(3, { type: 'AND', values: [] }, true));
    expect(match(inCohort(3), { id: 'example_id_1', staticCohorts: [3] }, undefined, ctx)).toEqual(M(true, null, 'condition_match', 0));
    expect(match(inCohort(3), { id: '3' }, undefined, ctx)).toEqual(M(false, null, 'no_condition_match', 0));
  });

  // The legacy top-level fields (rollout_percentage, filters.properties) reach the evaluator converted, as PostHog's get_filters converts them.
  it('test_legacy_rollout_percentage', () => {
    const definition = beta({ groups: [{ properties: [], rollout_percentage: 50 }] });
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: 'another_id' })).toEqual(M(false, null, 'out_of_rollout_bound', 0));
  });

  it('test_legacy_property_filters', () => {
    const definition = beta({ groups: [{ properties: [{ key: 'email', value: 'tim@posthog.com' }], rollout_percentage: null }] } as FlagFilters);
    expect(match(definition, { id: 'example_id', props: { email: 'tim@posthog.com' } })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: 'another_id', props: { email: 'example@example.com' } })).toEqual(M(false, null, 'no_condition_match', 0));
  });

  it('test_legacy_rollout_and_property_filter', () => {
    const definition = beta({ groups: [{ properties: [email('tim@posthog.com')], rollout_percentage: 50 }] });
    expect(match(definition, { id: 'example_id', props: { email: 'tim@posthog.com' } })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: 'another_id', props: { email: 'tim@posthog.com' } })).toEqual(M(false, null, 'out_of_rollout_bound', 0));
    expect(match(definition, { id: 'id_number_3', props: { email: 'example@example.com' } })).toEqual(M(false, null, 'no_condition_match', 0));
  });

  it('test_legacy_user_in_cohort', () => {
    const ctx = cohortCtx(cohortOf(2, { type: 'AND', values: [leaf('$some_prop_2', 'something_2')] }));
    expect(match(inCohort(2), { id: 'example_id_2', props: { $some_prop_2: 'something_2' } }, undefined, ctx)).toEqual(M(true, null, 'condition_match', 0));
    expect(match(inCohort(2), { id: 'another_id' }, undefined, ctx)).toEqual(M(false, null, 'no_condition_match', 0));
  });

  it('test_variants', () => {
    const definition = beta({ groups: [{ properties: [], rollout_percentage: null }], multivariate: threeVariants });
    expect(match(definition, { id: '11' })).toEqual(M(true, 'first-variant', 'condition_match', 0));
    expect(match(definition, { id: 'example_id' })).toEqual(M(true, 'second-variant', 'condition_match', 0));
    expect(match(definition, { id: '3' })).toEqual(M(true, 'third-variant', 'condition_match', 0));
  });

  it('test_flag_by_groups_with_rollout_100 (no_group_type at the skipped set; Python: no index)', () => {
    const definition = beta({ aggregation_group_type_index: 1, groups: [{ rollout_percentage: 100 }] });
    for (const groups of [{}, { unknown: 'group_key' }, { organization: 'group_key' }] as Record<string, string>[]) expect(match(definition, { id: '', groups })).toEqual(M(false, null, 'no_group_type', 0));
    expect(match(definition, { id: '', groups: { project: 'group_key' } })).toEqual(M(true, null, 'condition_match', 0));
  });

  it('test_flag_by_groups_with_rollout_50', () => {
    const definition = beta({ aggregation_group_type_index: 1, groups: [{ rollout_percentage: 50 }] });
    expect(match(definition, { id: '', groups: { project: '1' } })).toEqual(M(false, null, 'out_of_rollout_bound', 0));
    expect(match(definition, { id: '', groups: { project: '4' } })).toEqual(M(true, null, 'condition_match', 0));
  });

  it('test_flag_by_group_properties', () => {
    const definition = beta({ aggregation_group_type_index: 0, groups: [{ properties: [{ key: 'name', value: ['foo.inc'], type: 'group', group_type_index: 0 }] }] });
    expect(match(definition, { id: '', groups: { organization: 'foo' } })).toEqual(M(true, null, 'condition_match', 0));
    expect(match(definition, { id: '', groups: { organization: 'bar' } })).toEqual(M(false, null, 'no_condition_match', 0));
  });
});
