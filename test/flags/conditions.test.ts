// Condition sets, variants, reasons and condition indexes as the current Rust service answers
// (reference feature-flags.md 2.3 and 2.4): stored order, later set wins on equal scores.
import { describe, expect, it } from 'vitest';
import { evaluateFlags } from '../../src/core/flags/evaluation/index.js';
import type { FlagDefinition, FlagFilters } from '../../src/core/flags/types.js';
import { context, flag, subject } from './support.js';

const person = (key: string, value: unknown, operator = 'exact') => ({ key, value, operator, type: 'person' as const });
const evaluate = (filters: FlagFilters, props: Record<string, unknown> = {}, id = 'user-1', extra: Partial<FlagDefinition> = {}) => (
  evaluateFlags([flag('f', filters, extra)], subject(id, { personProperties: props }), context()).get('f')!);

describe('condition sets and reasons', () => {
  it('a set with no properties and no rollout matches: condition_match, index 0', () => {
    expect(evaluate({ groups: [{ properties: [], rollout_percentage: null }] })).toEqual({
      key: 'f', enabled: true, variant: null, payload: null,
      reason: { code: 'condition_match', condition_index: 0, description: 'Matched condition set 1' },
    });
  });

  it('a set whose properties match but whose rollout excludes is out_of_rollout_bound; one whose properties fail is no_condition_match', () => {
    const filters = { groups: [{ properties: [person('plan', 'enterprise')], rollout_percentage: 0 }] };
    expect(evaluate(filters, { plan: 'enterprise' }).reason).toEqual({ code: 'out_of_rollout_bound', condition_index: 0, description: 'Out of rollout bound' });
    expect(evaluate(filters, { plan: 'pro' }).reason).toEqual({ code: 'no_condition_match', condition_index: 0, description: 'No matching condition set' });
  });

  it('keeps the highest-scoring reason, a later set winning ties', () => {
    const filters = {
      groups: [
        { properties: [person('plan', 'x')], rollout_percentage: 100 },
        { properties: [person('plan', 'pro')], rollout_percentage: 0 },
        { properties: [person('plan', 'y')], rollout_percentage: 100 },
      ],
    };
    expect(evaluate(filters, { plan: 'pro' }).reason).toMatchObject({ code: 'out_of_rollout_bound', condition_index: 1 });
    const ties = { groups: [{ properties: [person('a', 1)] }, { properties: [person('b', 1)] }] };
    expect(evaluate(ties, {}).reason).toMatchObject({ code: 'no_condition_match', condition_index: 1 });
  });

  it('first matching set in stored order wins, even when a later one has a variant override', () => {
    const filters = {
      groups: [{ properties: [], rollout_percentage: 100 }, { properties: [], rollout_percentage: 100, variant: 'test' }],
      multivariate: { variants: [{ key: 'control', rollout_percentage: 100 }, { key: 'test', rollout_percentage: 0 }] },
    };
    expect(evaluate(filters)).toMatchObject({ enabled: true, variant: 'control', reason: { condition_index: 0 } });
  });

  it('a valid variant override wins over the hash; an unknown one falls back to the hash', () => {
    const variants = { variants: [{ key: 'control', rollout_percentage: 100 }, { key: 'test', rollout_percentage: 0 }] };
    expect(evaluate({ groups: [{ variant: 'test' }], multivariate: variants }).variant).toBe('test');
    expect(evaluate({ groups: [{ variant: 'nope' }], multivariate: variants }).variant).toBe('control');
  });

  it('percentages summing under 100 leave some ids on with no variant', () => {
    const filters = { groups: [{}], multivariate: { variants: [{ key: 'a', rollout_percentage: 0 }] } };
    expect(evaluate(filters)).toMatchObject({ enabled: true, variant: null });
  });

  it('payloads follow the value: "true" for a boolean flag, the variant key otherwise, none when off', () => {
    expect(evaluate({ groups: [{}], payloads: { true: '{"a": 1}' } }).payload).toBe('{"a": 1}');
    const multi = { groups: [{ variant: 'b' }], multivariate: { variants: [{ key: 'a', rollout_percentage: 50 }, { key: 'b', rollout_percentage: 50 }] }, payloads: { a: '1', b: '"bee"' } };
    expect(evaluate(multi).payload).toBe('"bee"');
    expect(evaluate({ groups: [{ rollout_percentage: 0 }], payloads: { true: '1' } }).payload).toBeNull();
  });

  it('an inactive flag is flag_disabled', () => {
    expect(evaluate({ groups: [{}] }, {}, 'u', { active: false })).toMatchObject({
      enabled: false, reason: { code: 'flag_disabled', condition_index: null, description: 'Feature flag is disabled' },
    });
  });

  it('a flag without condition sets reports no_group_type with no index (the Rust seed reason)', () => {
    expect(evaluate({ groups: [] }).reason).toEqual({ code: 'no_group_type', condition_index: null, description: 'No group type' });
  });
});
