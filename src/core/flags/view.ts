// PostHog's FeatureFlagSerializer output for one stored flag (reference section 1.2). Links Hoglet
// does not have (experiments, surveys, early-access features, dashboards) are empty.
import { userView } from '../accounts/identity.js';
import type { FeatureFlagRow } from '../../storage/meta/repositories/feature-flags.js';
import type { UserRow } from '../../storage/meta/repositories/users.js';
import { storedFilters } from './definitions.js';
import type { FlagFilters } from './types.js';

/** PostHog's is_simple_flag: one set, no properties, no variants, not a group flag. */
function isSimple(filters: FlagFilters): boolean {
  const groups = filters.groups ?? [];
  return groups.length === 1 && (groups[0]!.properties ?? []).length === 0 && !filters.multivariate?.variants?.length
    && (filters.aggregation_group_type_index ?? null) === null;
}

/** Hoglet does not record evaluations, so STALE (fully rolled out, unused for 30 days) is never said. */
export function flagStatus(row: FeatureFlagRow): 'ACTIVE' | 'INACTIVE' | 'DELETED' {
  return row.deleted === 1 ? 'DELETED' : row.active === 1 ? 'ACTIVE' : 'INACTIVE';
}

/** Cohort ids a flag's conditions name (for their names in the view). */
export function cohortIdsOf(row: FeatureFlagRow): number[] {
  const filters = storedFilters(row);
  return (filters.groups ?? []).flatMap((set) => (set.properties ?? []).filter((p) => p.type === 'cohort').map((p) => Number(p.value)))
    .filter((id) => Number.isSafeInteger(id));
}

/** PostHog shows each cohort condition with the cohort's name (`cohort_name`). */
function withCohortNames(filters: FlagFilters, names: ReadonlyMap<number, string>): FlagFilters {
  if (names.size === 0 || !filters.groups) return filters;
  const groups = filters.groups.map((set) => ({
    ...set,
    ...(set.properties ? { properties: set.properties.map((p) => (p.type === 'cohort' && names.has(Number(p.value)) ? { ...p, cohort_name: names.get(Number(p.value)) } : p)) } : {}),
  }));
  return { ...filters, groups };
}

export function flagView(row: FeatureFlagRow, users: ReadonlyMap<number, UserRow>, cohortNames: ReadonlyMap<number, string> = new Map()) {
  const filters = withCohortNames(storedFilters(row), cohortNames);
  const user = (id: number | null) => (id === null ? null : users.get(id) ? userView(users.get(id)!) : null);
  const simple = isSimple(filters);
  return {
    id: row.id,
    name: row.name,
    key: row.key,
    filters,
    deleted: row.deleted === 1,
    active: row.active === 1,
    created_by: user(row.created_by),
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
    last_modified_by: user(row.last_modified_by),
    is_simple_flag: simple,
    rollout_percentage: simple ? (filters.groups![0]!.rollout_percentage ?? null) : null,
    ensure_experience_continuity: row.ensure_experience_continuity === 1,
    experiment_set: [] as number[],
    surveys: [] as unknown[],
    features: [] as unknown[],
    rollback_conditions: row.rollback_conditions === null ? null : (JSON.parse(row.rollback_conditions) as unknown),
    performed_rollback: row.performed_rollback === null ? null : row.performed_rollback === 1,
    can_edit: true,
    tags: JSON.parse(row.tags) as string[],
    evaluation_tags: JSON.parse(row.evaluation_tags) as string[],
    usage_dashboard: null,
    analytics_dashboards: [] as number[],
    has_enriched_analytics: row.has_enriched_analytics === 1,
    user_access_level: 'editor',
    is_remote_configuration: row.is_remote_configuration === 1,
    has_encrypted_payloads: row.has_encrypted_payloads === 1,
    status: flagStatus(row),
    evaluation_runtime: row.evaluation_runtime,
    bucketing_identifier: row.bucketing_identifier,
    last_called_at: row.last_called_at,
  };
}

export type FlagView = ReturnType<typeof flagView>;

/** Fields the activity log compares, in PostHog's model order; empty filters log as null. */
export const LOGGED_FIELDS = [
  'key', 'name', 'filters', 'deleted', 'active', 'version', 'rollback_conditions', 'performed_rollback', 'ensure_experience_continuity',
  'has_enriched_analytics', 'is_remote_configuration', 'has_encrypted_payloads', 'evaluation_runtime', 'bucketing_identifier', 'tags', 'evaluation_tags',
];

export function loggedValues(row: FeatureFlagRow): Record<string, unknown> {
  const filters = JSON.parse(row.filters) as Record<string, unknown>;
  return {
    key: row.key,
    name: row.name,
    filters: Object.keys(filters).length === 0 ? null : filters,
    deleted: row.deleted === 1,
    active: row.active === 1,
    version: row.version,
    rollback_conditions: row.rollback_conditions === null ? null : JSON.parse(row.rollback_conditions),
    performed_rollback: row.performed_rollback === null ? null : row.performed_rollback === 1,
    ensure_experience_continuity: row.ensure_experience_continuity === 1,
    has_enriched_analytics: row.has_enriched_analytics === 1,
    is_remote_configuration: row.is_remote_configuration === 1,
    has_encrypted_payloads: row.has_encrypted_payloads === 1,
    evaluation_runtime: row.evaluation_runtime,
    bucketing_identifier: row.bucketing_identifier,
    tags: JSON.parse(row.tags),
    evaluation_tags: JSON.parse(row.evaluation_tags),
  };
}
