// Cohorts, groups, flag dependencies, early access, holdouts, experience continuity and device
// bucketing (reference feature-flags.md 2.2-2.10, the Rust service's flag_matching.rs).
import { describe, expect, it } from 'vitest';
import { evaluateFlags, flagHash } from '../../src/core/flags/evaluation/index.js';
import type { FlagDefinition } from '../../src/core/flags/types.js';
import type { CohortDefinition } from '../../src/query/cohorts/schema.js';
import { context, flag, subject } from './support.js';

const person = (key: string, value: unknown, operator = 'exact') => ({ key, value, operator, type: 'person' as const });
const cohortFilter = (id: number, operator = 'in') => ({ key: 'id', value: id, operator, type: 'cohort' as const });
const dependsOn = (target: FlagDefinition, value: unknown) => ({ key: String(target.id), value, operator: 'flag_evaluates_to', type: 'flag' as const });
const personLeaf = (key: string, value: unknown, operator = 'exact', negation = false) => (
  { type: 'person' as const, filter: { key, value: value as string, operator: operator as 'exact', type: 'person' as const }, negation });

const cohorts: CohortDefinition[] = [
  { id: 1, name: 'pros', isStatic: false, version: 1, properties: { type: 'OR', values: [{ type: 'AND', values: [personLeaf('plan', 'pro')] }] } },
  { id: 2, name: 'static', isStatic: true, version: 1, properties: null },
  { id: 3, name: 'pros not at acme', isStatic: false, version: 1, properties: { type: 'AND', values: [
    { type: 'cohort', cohortId: 1, negation: false }, personLeaf('email', '@acme.com', 'icontains', true)] } },
  { id: 4, name: 'behavioural', isStatic: false, version: 1, properties: { type: 'AND', values: [{
    type: 'behavioral', behaviour: 'performed_event', key: '$pageview', eventType: 'events', window: { value: 7, interval: 'day' }, eventFilters: [], negation: false }] } },
  { id: 5, name: 'cycle', isStatic: false, version: 1, properties: { type: 'AND', values: [{ type: 'cohort', cohortId: 5, negation: false }] } },
];
const withCohorts = context({ cohortList: cohorts });
const one = (definition: FlagDefinition, who = subject('u1'), ctx = withCohorts) => evaluateFlags([definition], who, ctx).get(definition.key)!;

describe('cohorts', () => {
  it('a dynamic cohort from the merged person properties, in and not_in', () => {
    const inPros = flag('c', { groups: [{ properties: [cohortFilter(1)] }] });
    expect(one(inPros, subject('u', { personProperties: { plan: 'pro' } })).enabled).toBe(true);
    expect(one(inPros, subject('u', { personProperties: { plan: 'free' } })).enabled).toBe(false);
    expect(one(flag('c', { groups: [{ properties: [cohortFilter(1, 'not_in')] }] }), subject('u', { personProperties: { plan: 'free' } })).enabled).toBe(true);
  });

  it('a static cohort by stored membership', () => {
    const definition = flag('c', { groups: [{ properties: [cohortFilter(2)] }] });
    expect(one(definition, subject('u', { staticCohortIds: new Set([2]) })).enabled).toBe(true);
    expect(one(definition).enabled).toBe(false);
  });

  it('nested cohorts and negated conditions', () => {
    const definition = flag('c', { groups: [{ properties: [cohortFilter(3)] }] });
    expect(one(definition, subject('u', { personProperties: { plan: 'pro', email: 'a@b.com' } })).enabled).toBe(true);
    expect(one(definition, subject('u', { personProperties: { plan: 'pro', email: 'a@acme.com' } })).enabled).toBe(false);
  });

  it('a behavioural, unknown or self-referencing cohort never matches, in or not_in', () => {
    for (const id of [4, 5, 99]) {
      for (const operator of ['in', 'not_in']) {
        expect(one(flag('c', { groups: [{ properties: [cohortFilter(id, operator)] }] })).enabled).toBe(false);
      }
    }
  });
});

describe('group flags', () => {
  const groupFlag = flag('g', { aggregation_group_type_index: 0, groups: [{ properties: [{ key: 'industry', value: 'tech', type: 'group', group_type_index: 0 }], rollout_percentage: 100 }] });

  it('matches on the group properties of the group named in the request', () => {
    const who = subject('u', { groups: { organization: 'org_123' }, groupProperties: { organization: { industry: 'tech' } } });
    expect(one(groupFlag, who)).toMatchObject({ enabled: true, reason: { code: 'condition_match', condition_index: 0 } });
  });

  it('without that group in the request: off, no_group_type', () => {
    expect(one(groupFlag).reason).toEqual({ code: 'no_group_type', condition_index: 0, description: 'No group type' });
  });

  it('hashes the group key, not the distinct id', () => {
    const rollout = flag('group-rollout', { aggregation_group_type_index: 1, groups: [{ rollout_percentage: 50 }] });
    for (const key of ['p1', 'p2', 'p3', 'p4', 'p5', 'p6']) {
      const expected = flagHash('group-rollout', key) <= 0.5;
      expect(one(rollout, subject('anyone', { groups: { project: key } })).enabled).toBe(expected);
      expect(one(rollout, subject('someone-else', { groups: { project: key } })).enabled).toBe(expected);
    }
  });

  it('mixed targeting: a skipped group set does not hide a person set that did not match', () => {
    const mixed = flag('m', { groups: [{ properties: [person('plan', 'pro')] }, { aggregation_group_type_index: 0, properties: [] }] });
    expect(one(mixed, subject('u', { personProperties: { plan: 'free' } })).reason).toEqual({
      code: 'no_condition_match', condition_index: 0,
      description: 'No matching condition set (group conditions were not evaluated because no group type was provided)',
    });
  });
});

describe('flag dependencies (Rust test_flags_that_depends_on_other_boolean_flag and friends)', () => {
  const leaf = flag('leaf_flag', { groups: [{ properties: [person('email', 'override@example.com')] }] }, { id: 23 });
  const independent = flag('independent_flag', { groups: [{ properties: [person('email', 'override@example.com')] }] }, { id: 99 });
  const parent = flag('parent_flag', { groups: [{ properties: [dependsOn(leaf, true)] }] }, { id: 42 });
  const all = [independent, parent, leaf];
  const values = (props: Record<string, unknown>) => Object.fromEntries([...evaluateFlags(all, subject('test_user', { personProperties: props }), context())].map(([key, r]) => [key, r.enabled]));

  it('a parent follows its boolean dependency, whatever the stored order', () => {
    expect(values({ email: 'override@example.com' })).toEqual({ independent_flag: true, parent_flag: true, leaf_flag: true });
    expect(values({})).toEqual({ independent_flag: false, parent_flag: false, leaf_flag: false });
  });

  it('flag_evaluates_to false and a variant value', () => {
    const multi = flag('multi', { groups: [{ variant: 'test' }], multivariate: { variants: [{ key: 'control', rollout_percentage: 50 }, { key: 'test', rollout_percentage: 50 }] } }, { id: 7 });
    const onTest = flag('on-test', { groups: [{ properties: [dependsOn(multi, 'test')] }] });
    const onControl = flag('on-control', { groups: [{ properties: [dependsOn(multi, 'control')] }] });
    const whenLeafOff = flag('when-leaf-off', { groups: [{ properties: [dependsOn(leaf, false)] }] });
    const results = evaluateFlags([onTest, onControl, whenLeafOff, multi, leaf], subject('u'), context());
    expect([results.get('on-test')!.enabled, results.get('on-control')!.enabled, results.get('when-leaf-off')!.enabled]).toEqual([true, false, true]);
  });

  it('a missing or cyclic dependency: missing_dependency for the flag and those above it', () => {
    const missing = flag('missing', { groups: [{ properties: [{ key: '12345', value: true, operator: 'flag_evaluates_to', type: 'flag' }] }] });
    const above = flag('above', { groups: [{ properties: [dependsOn(missing, true)] }] });
    const a = flag('cycle-a', { groups: [{}] });
    const b = flag('cycle-b', { groups: [{ properties: [dependsOn(a, true)] }] });
    a.filters.groups![0]!.properties = [dependsOn(b, true)];
    const results = evaluateFlags([missing, above, a, b, leaf], subject('u'), context());
    for (const key of ['missing', 'above', 'cycle-a', 'cycle-b']) {
      expect(results.get(key)).toMatchObject({ enabled: false, reason: { code: 'missing_dependency', condition_index: null, description: 'Flag cannot be evaluated due to missing dependency' } });
    }
    expect(results.get('leaf_flag')!.reason.code).toBe('no_condition_match');
  });
});

describe('early access, holdouts, continuity, device bucketing', () => {
  it('$feature_enrollment/<key> decides an early-access flag: super_condition_value, index 0', () => {
    const beta = flag('beta', { feature_enrollment: true, groups: [{ rollout_percentage: 0 }], payloads: { true: '"p"' } });
    expect(one(beta, subject('u', { personProperties: { '$feature_enrollment/beta': true } }))).toMatchObject({
      enabled: true, payload: '"p"', reason: { code: 'super_condition_value', condition_index: 0, description: 'Super condition value' } });
    expect(one(beta, subject('u', { personProperties: { '$feature_enrollment/beta': 'true' } })).enabled).toBe(true);
    expect(one(beta, subject('u', { personProperties: { '$feature_enrollment/beta': false } }))).toMatchObject({ enabled: false, reason: { code: 'super_condition_value' } });
    expect(one(beta).reason.code).toBe('out_of_rollout_bound');
  });

  it('a holdout at 100% puts everyone in holdout-<id>, no condition index', () => {
    const experiment = flag('exp', { groups: [{}], holdout: { id: 7, exclusion_percentage: 100 }, multivariate: { variants: [{ key: 'control', rollout_percentage: 100 }] } });
    expect(one(experiment)).toMatchObject({ enabled: true, variant: 'holdout-7', reason: { code: 'holdout_condition_value', condition_index: null } });
    const none = flag('exp', { groups: [{}], holdout: { id: 7, exclusion_percentage: 0 }, multivariate: { variants: [{ key: 'control', rollout_percentage: 100 }] } });
    expect(one(none).variant).toBe('control');
  });

  it('experience continuity: the hash key override buckets the person as the override', () => {
    const rollout = (continuity: boolean) => flag('cont', { groups: [{ rollout_percentage: 50 }] }, { ensureExperienceContinuity: continuity });
    const ids = Array.from({ length: 40 }, (_, i) => `id-${i}`);
    const anon = ids.find((id) => flagHash('cont', id) <= 0.5)!;
    const identified = ids.find((id) => flagHash('cont', id) > 0.5)!;
    const who = subject(identified, { hashKeyOverride: (key) => (key === 'cont' ? anon : undefined) });
    expect(one(rollout(true), who).enabled).toBe(true);
    expect(one(rollout(false), who).enabled).toBe(false);
  });

  it('device bucketing hashes $device_id; without one the set is skipped as out_of_rollout_bound', () => {
    const byDevice = flag('dev', { groups: [{ rollout_percentage: 50 }] }, { bucketingIdentifier: 'device_id' });
    const devices = Array.from({ length: 40 }, (_, i) => `device-${i}`);
    const inside = devices.find((id) => flagHash('dev', id) <= 0.5)!;
    const outside = devices.find((id) => flagHash('dev', id) > 0.5)!;
    expect(one(byDevice, subject('x', { deviceId: inside })).enabled).toBe(true);
    expect(one(byDevice, subject('x', { deviceId: outside })).enabled).toBe(false);
    expect(one(byDevice, subject('x')).reason).toMatchObject({ code: 'out_of_rollout_bound', condition_index: 0 });
  });

  it('$initial_<x> is filled from <x> when missing', () => {
    const definition = flag('init', { groups: [{ properties: [person('$initial_browser', 'Chrome'), person('$initial_utm_source', 'ads')] }] });
    expect(one(definition, subject('u', { personProperties: { $browser: 'Chrome', utm_source: 'ads' } })).enabled).toBe(true);
    expect(one(definition, subject('u', { personProperties: { $browser: 'Chrome', $initial_browser: 'Safari', utm_source: 'ads' } })).enabled).toBe(false);
  });
});
