// A project's live flags as evaluation reads them (FlagDefinition), and the epoch that tells a
// cache of them it is stale: every change to a project's flags bumps it in the same transaction.
import type { FeatureFlagRow, FeatureFlagsRepository } from '../../storage/meta/repositories/feature-flags.js';
import type { BucketingIdentifier, EvaluationRuntime, FlagDefinition, FlagFilters } from './types.js';

/** What a flag created without `filters` (or legacy rows) evaluate: one set, on for everyone. */
export const DEFAULT_FILTERS: FlagFilters = { groups: [{ properties: [], rollout_percentage: null }] };

export function storedFilters(row: Pick<FeatureFlagRow, 'filters'>): FlagFilters {
  const filters = JSON.parse(row.filters) as FlagFilters;
  return Array.isArray(filters.groups) ? filters : { ...filters, ...DEFAULT_FILTERS };
}

export function flagDefinition(row: FeatureFlagRow): FlagDefinition {
  return {
    id: row.id,
    projectId: row.team_id,
    key: row.key,
    name: row.name,
    filters: storedFilters(row),
    active: row.active === 1,
    deleted: row.deleted === 1,
    ensureExperienceContinuity: row.ensure_experience_continuity === 1,
    version: row.version,
    evaluationRuntime: row.evaluation_runtime as EvaluationRuntime,
    bucketingIdentifier: row.bucketing_identifier as BucketingIdentifier,
    evaluationTags: JSON.parse(row.evaluation_tags) as string[],
    isRemoteConfiguration: row.is_remote_configuration === 1,
    hasEncryptedPayloads: row.has_encrypted_payloads === 1,
  };
}

/** For the /flags endpoints: a project's live flags and its flags epoch. */
export class FlagDefinitions {
  constructor(private readonly repository: FeatureFlagsRepository) {}

  /** Non-deleted flags (active or not), oldest first. */
  async live(projectId: number): Promise<FlagDefinition[]> {
    return (await this.repository.liveFlags(projectId)).map(flagDefinition);
  }

  /** Moves on every create, update, soft delete or restore of one of the project's flags. */
  epoch(projectId: number): Promise<number> {
    return this.repository.epoch(projectId);
  }
}
