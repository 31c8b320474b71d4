// Property-based checks of the evaluator: arbitrary flags and subjects never throw, the answer is a
// function of its inputs, rollout is monotonic, and variants split ids in their stated shares.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateFlags } from '../../src/core/flags/evaluation/index.js';
import type { FlagFilters } from '../../src/core/flags/types.js';
import { context, flag, subject } from './support.js';

const OPERATORS = ['exact', 'is_not', 'icontains', 'not_icontains', 'regex', 'not_regex', 'gt', 'gte', 'lt', 'lte', 'is_set', 'is_not_set',
  'is_date_before', 'is_date_after', 'is_date_exact', 'starts_with', 'not_starts_with', 'ends_with', 'not_ends_with', 'icontains_multi',
  'not_icontains_multi', 'between', 'not_between', 'semver_gt', 'semver_eq', 'semver_tilde', 'semver_caret', 'semver_wildcard', 'in', 'bogus', null];
const KEYS = ['email', 'plan', 'age', '$browser', 'joined'];

const jsonValue = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: false }), fc.boolean(), fc.constant(null),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.boolean()), { maxLength: 3 }), fc.constantFrom('-7d', '2024-06-01', '1.2.3', '(a+)+$', '[', 'TRUE'));
const filter = fc.record({
  key: fc.constantFrom(...KEYS),
  type: fc.constantFrom('person' as const, 'group' as const, 'cohort' as const, 'flag' as const),
  operator: fc.constantFrom(...OPERATORS),
  value: jsonValue,
  group_type_index: fc.option(fc.integer({ min: 0, max: 2 })),
});
const filters: fc.Arbitrary<FlagFilters> = fc.record({
  groups: fc.array(fc.record({
    properties: fc.array(filter, { maxLength: 3 }),
    rollout_percentage: fc.option(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, max: 100, noNaN: true }))),
    variant: fc.option(fc.constantFrom('a', 'b', 'zzz')),
  }), { maxLength: 4 }),
  multivariate: fc.option(fc.record({ variants: fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c'), rollout_percentage: fc.integer({ min: 0, max: 100 }) }), { maxLength: 3 }) })),
  aggregation_group_type_index: fc.option(fc.integer({ min: 0, max: 2 })),
  feature_enrollment: fc.option(fc.boolean()),
});
const properties = fc.dictionary(fc.constantFrom(...KEYS, '$feature_enrollment/f0'), jsonValue);

describe('evaluator properties', () => {
  it('never throws on arbitrary flags and subjects, and answers the same twice', () => {
    fc.assert(fc.property(fc.array(filters, { minLength: 1, maxLength: 3 }), fc.string(), properties, fc.boolean(), (all, distinctId, props, hasGroup) => {
      const definitions = all.map((filtersOf, index) => flag(`f${index}`, filtersOf));
      const who = subject(distinctId, { personProperties: props, groups: hasGroup ? { organization: 'acme' } : {}, groupProperties: { organization: props } });
      const first = evaluateFlags(definitions, who, context());
      const second = evaluateFlags(definitions, who, context());
      expect([...second]).toEqual([...first]);
      for (const result of first.values()) expect(typeof result.enabled).toBe('boolean');
    }), { numRuns: 300 });
  });

  it('rollout is monotonic: an id in at p% is in at every q >= p', () => {
    fc.assert(fc.property(fc.string(), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (distinctId, p, extra) => {
      const q = Math.min(100, p + extra);
      const at = (pct: number) => evaluateFlags([flag('rollout', { groups: [{ rollout_percentage: pct }] })], subject(distinctId), context()).get('rollout')!.enabled;
      if (at(p)) expect(at(q)).toBe(true);
    }), { numRuns: 500 });
  });

  it('splits 10,000 ids across variants within 2 points of their shares', () => {
    const shares = { control: 50, test: 30, third: 20 };
    const definition = flag('split', { groups: [{}], multivariate: { variants: Object.entries(shares).map(([key, rollout_percentage]) => ({ key, rollout_percentage })) } });
    const counts: Record<string, number> = {};
    for (let i = 0; i < 10_000; i += 1) {
      const variant = evaluateFlags([definition], subject(`user-${i}`), context()).get('split')!.variant!;
      counts[variant] = (counts[variant] ?? 0) + 1;
    }
    for (const [key, share] of Object.entries(shares)) expect(Math.abs((counts[key] ?? 0) / 100 - share)).toBeLessThan(2);
  });
});
