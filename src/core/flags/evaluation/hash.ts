// PostHog's bucketing hash (reference feature-flags.md 2.2): the first 15 hex digits of
// SHA-1("<flag key>.<identifier><salt>") over 0xFFFFFFFFFFFFFFF, a number in [0, 1).
import crypto from 'node:crypto';

const LONG_SCALE = Number(0xfffffffffffffffn);

/** One-shot SHA-1 (crypto.hash, Node >= 20.12: no Hash object per call; /flags/ hashes ~100 times a request). */
const sha1Hex: (input: string) => string =
  typeof crypto.hash === 'function'
    ? (input) => crypto.hash('sha1', input, 'hex')
    : (input) => crypto.createHash('sha1').update(input, 'utf8').digest('hex');

/**
 * The same integer-to-double rounding as the Rust service (`u64 as f64`), so boundaries agree:
 * the 60-bit value as high 32 bits times 2^28 (exact) plus the low 28 bits, rounded once.
 */
function hashToUnit(input: string): number {
  const hex = sha1Hex(input);
  return (parseInt(hex.slice(0, 8), 16) * 2 ** 28 + parseInt(hex.slice(8, 15), 16)) / LONG_SCALE;
}

/** Rollout (salt "") and variant (salt "variant") hash of one flag for one identifier. */
export function flagHash(flagKey: string, identifier: string, salt = ''): number {
  return hashToUnit(`${flagKey}.${identifier}${salt}`);
}

/** Experiment holdouts hash "holdout-<identifier>" (no flag key, no dot). */
export function holdoutHash(identifier: string): number {
  return hashToUnit(`holdout-${identifier}`);
}
