// PostHog's CohortSerializer output for one stored cohort.
import { userView } from '../accounts/identity.js';
import type { CohortRow } from '../../storage/meta/repositories/cohorts.js';
import type { UserRow } from '../../storage/meta/repositories/users.js';

/** The criteria as PostHog shows them: stored filters, else {"properties": {}} (a static cohort). */
export function filtersView(row: CohortRow): unknown {
  return row.filters === null ? { properties: {} } : JSON.parse(row.filters);
}

export function cohortView(row: CohortRow, creator: UserRow | undefined) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    groups: JSON.parse(row.groups) as unknown[],
    deleted: row.deleted === 1,
    filters: filtersView(row),
    query: null,
    is_calculating: row.is_calculating === 1,
    created_by: creator ? userView(creator) : null,
    created_at: row.created_at,
    last_calculation: row.last_calculation,
    errors_calculating: row.errors_calculating,
    last_error_message: row.last_error,
    count: row.count,
    is_static: row.is_static === 1,
    cohort_type: null,
    experiment_set: [] as number[],
  };
}

export type CohortView = ReturnType<typeof cohortView>;

/** The values the activity log compares (PostHog leaves out count and calculation state). */
export function loggedValues(row: CohortRow): Record<string, unknown> {
  return {
    name: row.name,
    description: row.description,
    groups: JSON.parse(row.groups),
    filters: row.filters === null ? null : JSON.parse(row.filters),
    is_static: row.is_static === 1,
    deleted: row.deleted === 1,
  };
}
