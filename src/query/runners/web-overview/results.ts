// The overview's items as PostHog's to_data shapes them: NaN as null, percentages times 100, and
// the change from the previous period rounded as Python's round() does (half to even).

export type WebOverviewItemKind = 'unit' | 'duration_s' | 'percentage' | 'currency';

export interface WebOverviewItem {
  readonly key: string;
  readonly kind: WebOverviewItemKind;
  readonly isIncreaseBad: boolean | null;
  readonly value: number | null;
  readonly previous: number | null;
  readonly changeFromPreviousPct: number | null;
}

/** Python's round(x) to an integer: halves go to the even neighbour (12.5 -> 12, 13.5 -> 14). */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const rounded = x - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(x);
  return rounded === 0 ? 0 : rounded; // no -0
}

/** A number the engine answered (64-bit integers come as text), NaN and NULL as null. */
export function numberOrNull(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isNaN(n) ? null : n;
}

export function toItem(key: string, kind: WebOverviewItemKind, rawValue: number | null, rawPrevious: number | null, isIncreaseBad: boolean | null = null): WebOverviewItem {
  const scale = (n: number | null) => (n === null || kind !== 'percentage' ? n : n * 100);
  const value = scale(rawValue);
  const previous = scale(rawPrevious);
  const change = value !== null && previous !== null && previous !== 0 && Number.isFinite(value) && Number.isFinite(previous)
    ? roundHalfEven((100 * (value - previous)) / previous)
    : null;
  return { key, kind, isIncreaseBad, value, previous, changeFromPreviousPct: change };
}
