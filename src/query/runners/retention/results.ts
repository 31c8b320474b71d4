// Counts per (breakdown value, cohort, offset) -> PostHog's retention rows: one row per cohort
// ("Day 0", "Day 1"...), each with totalIntervals values, zero where nobody came back. Broken down,
// the rows repeat per value, values ranked by cohort size; values past the limit are summed into
// Other, as PostHog sums them (so Other's counts are not distinct actors).
import type { DateTime } from 'luxon';
import { OTHER_BREAKDOWN } from '../../filters/breakdown-labels.js';
import type { RetentionPeriod, RetentionQuery } from '../../nodes/schema.js';
import type { RetentionRange } from './range.js';

export interface RetentionCellRow {
  /** Absent without a breakdown. */
  breakdown_value?: string;
  start_index: number | string;
  offset: number | string;
  actors: number | string;
}

export interface RetentionValue {
  count: number;
  label: string;
}

export interface RetentionRow {
  values: RetentionValue[];
  label: string;
  date: string;
  /** null without a breakdown, as PostHog's current runner sends it. */
  breakdown_value: string | null;
}

/** A cohort count matrix: counts[cohort][offset]. */
type Matrix = number[][];

function matricesOf(query: RetentionQuery, range: RetentionRange, cells: readonly RetentionCellRow[]) {
  const { totalIntervals } = query.retentionFilter;
  const cohorts = range.cohortStarts.length;
  const empty = (): Matrix => Array.from({ length: cohorts }, () => new Array<number>(totalIntervals).fill(0));
  const matrices = new Map<string, Matrix>();
  for (const cell of cells) {
    const start = Number(cell.start_index);
    const offset = Number(cell.offset);
    if (start < 0 || start >= cohorts || offset < 0 || offset >= totalIntervals) continue;
    const value = cell.breakdown_value ?? '';
    let matrix = matrices.get(value);
    if (!matrix) matrices.set(value, (matrix = empty()));
    matrix[start]![offset] = Number(cell.actors);
  }
  return { matrices, empty };
}

/** The breakdown values that keep their own rows (the rest make up Other). */
export function shownValues(query: RetentionQuery, range: RetentionRange, cells: readonly RetentionCellRow[]): string[] {
  const { matrices, empty } = matricesOf(query, range, cells);
  return rankedValues(matrices, query.breakdownFilter?.breakdown_limit ?? 25, empty).map(([value]) => value).filter((value) => value !== OTHER_BREAKDOWN);
}

export function retentionRows(query: RetentionQuery, range: RetentionRange, cells: readonly RetentionCellRow[]): RetentionRow[] {
  const { period } = query.retentionFilter;
  const { matrices, empty } = matricesOf(query, range, cells);
  const rowsOf = (matrix: Matrix, breakdownValue?: string): RetentionRow[] => matrix.map((counts, i) => ({
    values: counts.map((count, k) => ({ count, label: periodLabel(period, k) })),
    label: periodLabel(period, i),
    date: cohortDate(range.cohortStarts[i]!),
    breakdown_value: breakdownValue ?? null,
  }));
  if (!query.breakdownFilter) return rowsOf(matrices.get('') ?? empty());
  return rankedValues(matrices, query.breakdownFilter.breakdown_limit ?? 25, empty)
    .flatMap(([value, matrix]) => rowsOf(matrix, value));
}

/** Values by cohort size (the sum of offset-0 counts) then value; past the limit summed into Other. */
function rankedValues(matrices: Map<string, Matrix>, limit: number, empty: () => Matrix): [string, Matrix][] {
  const size = (m: Matrix) => m.reduce((total, counts) => total + counts[0]!, 0);
  const ranked = [...matrices.entries()]
    .filter(([, m]) => size(m) > 0)
    .sort(([a, ma], [b, mb]) => size(mb) - size(ma) || (a < b ? -1 : a > b ? 1 : 0));
  if (ranked.length <= limit) return ranked;
  const other = empty();
  for (const [, matrix] of ranked.slice(limit)) {
    matrix.forEach((counts, i) => counts.forEach((count, k) => { other[i]![k]! += count; }));
  }
  return [...ranked.slice(0, limit), [OTHER_BREAKDOWN, other]];
}

/** The cohort's start in the project's zone, as PostHog serialises it ("…T00:00:00Z" in UTC). */
export function cohortDate(start: DateTime): string {
  return start.toISO({ suppressMilliseconds: true, includeOffset: true })!.replace(/\+00:00$/, 'Z');
}

export const periodLabel = (period: RetentionPeriod, k: number): string => `${period} ${k}`;
