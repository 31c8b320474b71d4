// Breaking down by cohorts: each event counts once for every listed cohort its person is in (a
// person in two cohorts is in both series), and once for "all" (everyone). Values are the cohort
// ids as text, "0" for all users (PostHog's ALL_USERS_COHORT_ID); labels are the cohorts' names.
import { array, call, constant, lambda, field } from '../ast/build.js';
import type { Expr } from '../ast/nodes.js';
import type { QueryContext } from '../context.js';
import type { EventSource } from '../filters/event-source.js';
import type { BreakdownFilter, CohortBreakdownItem } from '../nodes/schema.js';

export const ALL_USERS_VALUE = '0';
export const ALL_USERS_LABEL = 'all users';

/** The cohorts of a cohort breakdown, or null for any other breakdown. */
export const breakdownCohorts = (breakdown: BreakdownFilter | null): readonly CohortBreakdownItem[] | null =>
  (breakdown?.breakdown_type === 'cohort' ? breakdown.breakdown_cohorts ?? [] : null);

/** One row per listed cohort the event's person is in: `arrayJoin` over the matching values. */
export function cohortBreakdownValue(cohorts: readonly CohortBreakdownItem[], source: EventSource): Expr {
  const candidates = cohorts.map((item) => (item === 'all'
    ? constant(ALL_USERS_VALUE)
    : call('if', source.inCohort(item), constant(String(item)), constant(''))));
  return call('arrayJoin', call('arrayFilter', lambda(['cohort_value'], call('notEmpty', field('cohort_value'))), array(...candidates)));
}

/** The events of one value of a cohort breakdown ("all" / "0": every event). */
export function cohortBreakdownMatch(value: string, source: EventSource): Expr | undefined {
  if (value === 'all' || value === ALL_USERS_VALUE) return undefined;
  return source.inCohort(Number(value));
}

/** The cohort's name, or "all users". */
export function cohortLabel(value: string, context: QueryContext): string {
  if (value === ALL_USERS_VALUE) return ALL_USERS_LABEL;
  return context.cohorts?.get(Number(value))?.name ?? value;
}

/**
 * Whether PostHog runs one query per listed cohort (a list with "all", or a single cohort): the
 * values keep the list's order, no limit applies, and labels name the series once there are
 * several queries. A list of several cohorts without "all" is one query ranked like any breakdown.
 */
export function cohortQueryPerItem(cohorts: readonly CohortBreakdownItem[]): boolean {
  return cohorts.length === 1 || cohorts.includes('all');
}
