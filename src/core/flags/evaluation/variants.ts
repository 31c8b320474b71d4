// Which variant a hashed identifier lands in (reference 2.2): the variants' percentages stacked in
// stored order; the first whose running total exceeds the "variant"-salted hash wins.
import type { FlagFilters } from '../types.js';

export function variantKeys(filters: FlagFilters): string[] {
  return (filters.multivariate?.variants ?? []).map((variant) => variant.key);
}

/** The variant for a "variant"-salted hash, or null when the flag has none (or the hash falls past them). */
export function variantForHash(hash: number, filters: FlagFilters): string | null {
  let upper = 0;
  for (const variant of filters.multivariate?.variants ?? []) {
    upper += Number(variant.rollout_percentage) / 100;
    if (hash < upper) return variant.key;
  }
  return null;
}
