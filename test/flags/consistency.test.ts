// PostHog's published consistency vectors (the same 1000 ids every PostHog SDK and server checks):
// the rollout hash and the variant walk must put every id exactly where PostHog does.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateFlags, flagHash } from '../../src/core/flags/evaluation/index.js';
import type { FlagFilters } from '../../src/core/flags/types.js';
import { context, flag, subject } from './support.js';

interface Vector { key: string; filters: FlagFilters; expected: (boolean | string)[] }
const vectors = JSON.parse(readFileSync(new URL('./consistency-vectors.json', import.meta.url), 'utf8')) as { simpleFlag: Vector; multivariateFlag: Vector };

function valuesFor(vector: Vector): (boolean | string)[] {
  const definition = flag(vector.key, vector.filters);
  return vector.expected.map((_, index) => {
    const result = evaluateFlags([definition], subject(`distinct_id_${index}`), context()).get(vector.key)!;
    return result.enabled ? (result.variant ?? true) : false;
  });
}

describe('PostHog consistency vectors', () => {
  it('hashes the reference examples of feature-flags.md 2.2', () => {
    expect(flagHash('simple-flag', 'distinct_id_0')).toBeCloseTo(0.78370, 5);
    expect(flagHash('simple-flag', 'distinct_id_1')).toBeCloseTo(0.33971, 5);
    expect(flagHash('multivariate-flag', 'distinct_id_0')).toBeCloseTo(0.50204, 5);
    expect(flagHash('multivariate-flag', 'distinct_id_0', 'variant')).toBeCloseTo(0.61865, 5);
  });

  it('simple-flag at 45%: all 1000 ids as PostHog (446 in)', () => {
    const actual = valuesFor(vectors.simpleFlag);
    expect(actual.filter(Boolean)).toHaveLength(446);
    expect(actual).toEqual(vectors.simpleFlag.expected);
  });

  it('multivariate-flag at 55% with variants 50/20/20/5/5: all 1000 ids as PostHog', () => {
    expect(valuesFor(vectors.multivariateFlag)).toEqual(vectors.multivariateFlag.expected);
  });
});
