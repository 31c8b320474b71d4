// Builders for the evaluator tests: a flag from just its filters, a subject from just its properties.
import type { FlagDefinition, FlagFilters } from '../../src/core/flags/types.js';
import type { FlagEvaluationContext, FlagSubject } from '../../src/core/flags/evaluation/index.js';
import type { CohortDefinition } from '../../src/query/cohorts/schema.js';

let nextId = 100_000; // above the ids tests give explicitly

export function flag(key: string, filters: FlagFilters, extra: Partial<FlagDefinition> = {}): FlagDefinition {
  return {
    id: nextId++, projectId: 1, key, name: '', filters, active: true, deleted: false, ensureExperienceContinuity: false,
    version: 1, evaluationRuntime: 'all', bucketingIdentifier: 'distinct_id', evaluationTags: [], isRemoteConfiguration: false,
    hasEncryptedPayloads: false, ...extra,
  };
}

export function subject(distinctId: string, extra: Partial<FlagSubject> = {}): FlagSubject {
  return { distinctId, personProperties: {}, groups: {}, groupProperties: {}, staticCohortIds: new Set(), ...extra };
}

export function context(extra: Partial<FlagEvaluationContext> & { cohortList?: CohortDefinition[] } = {}): FlagEvaluationContext {
  const { cohortList = [], ...rest } = extra;
  return {
    groupTypeMapping: new Map([[0, 'organization'], [1, 'project']]),
    cohorts: new Map(cohortList.map((cohort) => [cohort.id, cohort])),
    timezone: 'UTC',
    now: new Date('2026-11-29T12:00:00Z'),
    ...rest,
  };
}
