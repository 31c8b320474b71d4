// The shapes of a feature flag as PostHog stores and serves it (`filters` is PostHog's JSON as
// sent by its API clients), shared by the flags API, the evaluator and the SDK endpoints.
// Facts: ../shared/reference/feature-flags.md sections 1.2, 1.3 and 2.

/** One property condition of a condition set (person, cohort, flag dependency or group). */
export interface FlagPropertyFilter {
  key: string;
  type: 'person' | 'cohort' | 'flag' | 'group';
  /** Absent means `exact`. */
  operator?: string | null;
  value?: unknown;
  /** Group conditions: which group type (the flag's aggregation index). */
  group_type_index?: number | null;
  negation?: boolean;
}

/** A condition set (PostHog's "group" in `filters.groups`): properties AND'ed, then the rollout. */
export interface FlagConditionSet {
  properties?: FlagPropertyFilter[];
  /** null or absent: 100. */
  rollout_percentage?: number | null;
  /** A variant override: must name one of `multivariate.variants`. */
  variant?: string | null;
  /** Newest PostHog: a per-set group type (mixed targeting). */
  aggregation_group_type_index?: number | null;
  description?: string | null;
}

export interface FlagVariant {
  key: string;
  name?: string | null;
  rollout_percentage: number;
}

export interface FlagFilters {
  groups?: FlagConditionSet[];
  multivariate?: { variants: FlagVariant[] } | null;
  /** JSON strings keyed by "true" (boolean flags) or by variant key. */
  payloads?: Record<string, string>;
  aggregation_group_type_index?: number | null;
  feature_enrollment?: boolean | null;
  super_groups?: FlagConditionSet[] | null;
  holdout?: { id: number; exclusion_percentage: number } | null;
  [other: string]: unknown;
}

export type EvaluationRuntime = 'server' | 'client' | 'all';
export type BucketingIdentifier = 'distinct_id' | 'device_id';

/** What evaluation needs of a stored flag (the API's full row has more: users, dates, tags...). */
export interface FlagDefinition {
  id: number;
  projectId: number;
  key: string;
  /** PostHog's `name`: the flag's description. */
  name: string;
  filters: FlagFilters;
  active: boolean;
  deleted: boolean;
  ensureExperienceContinuity: boolean;
  version: number;
  evaluationRuntime: EvaluationRuntime;
  bucketingIdentifier: BucketingIdentifier;
  evaluationTags: string[];
  isRemoteConfiguration: boolean;
  hasEncryptedPayloads: boolean;
}

/** PostHog's reason codes (flag_match_reason.rs), scored as in reference section 2.4. */
export type FlagReasonCode =
  | 'super_condition_value'
  | 'holdout_condition_value'
  | 'condition_match'
  | 'out_of_rollout_bound'
  | 'no_condition_match'
  | 'no_group_type'
  | 'flag_disabled'
  | 'missing_dependency';

export interface FlagReason {
  code: FlagReasonCode;
  condition_index: number | null;
  description: string;
}

/** One flag's answer for one subject: what `/flags` v2 puts under `flags[key]` (plus the payload). */
export interface FlagResult {
  key: string;
  enabled: boolean;
  variant: string | null;
  reason: FlagReason;
  /** The stored JSON string of the matched value's payload, or null. */
  payload: string | null;
}
