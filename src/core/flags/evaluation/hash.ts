// PostHog's bucketing hash (reference feature-flags.md 2.2): the first 15 hex digits of
// SHA-1("<flag key>.<identifier><salt>") over 0xFFFFFFFFFFFFFFF, a number in [0, 1).
import { createHash } from 'node:crypto';

const LONG_SCALE = Number(0xfffffffffffffffn);

/** The same integer-to-double rounding as the Rust service (`u64 as f64`), so boundaries agree. */
function hashToUnit(input: string): number {
  const hex = createHash('sha1').update(input, 'utf8').digest('hex').slice(0, 15);
  return Number(BigInt(`0x${hex}`)) / LONG_SCALE;
}

/** Rollout (salt "") and variant (salt "variant") hash of one flag for one identifier. */
export function flagHash(flagKey: string, identifier: string, salt = ''): number {
  return hashToUnit(`${flagKey}.${identifier}${salt}`);
}

/** Experiment holdouts hash "holdout-<identifier>" (no flag key, no dot). */
export function holdoutHash(identifier: string): number {
  return hashToUnit(`holdout-${identifier}`);
}
