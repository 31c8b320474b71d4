// Why a flag came out as it did (reference feature-flags.md 2.4, Rust flag_match_reason.rs): each
// reason has a score; over the condition sets the highest wins, a later set on equal scores.
import type { FlagReason, FlagReasonCode } from '../types.js';

const SCORES: Record<FlagReasonCode, number> = {
  super_condition_value: 6,
  holdout_condition_value: 5,
  condition_match: 4,
  out_of_rollout_bound: 3,
  no_condition_match: 2,
  no_group_type: 1,
  flag_disabled: 0,
  missing_dependency: -1,
};

export const GROUPS_NOT_EVALUATED = 'No matching condition set (group conditions were not evaluated because no group type was provided)';

const DESCRIPTIONS: Record<Exclude<FlagReasonCode, 'condition_match'>, string> = {
  super_condition_value: 'Super condition value',
  holdout_condition_value: 'Holdout condition value',
  out_of_rollout_bound: 'Out of rollout bound',
  no_condition_match: 'No matching condition set',
  no_group_type: 'No group type',
  flag_disabled: 'Feature flag is disabled',
  missing_dependency: 'Flag cannot be evaluated due to missing dependency',
};

export function reason(code: FlagReasonCode, conditionIndex: number | null): FlagReason {
  const description = code === 'condition_match' ? `Matched condition set ${(conditionIndex ?? 0) + 1}` : DESCRIPTIONS[code];
  return { code, condition_index: conditionIndex, description };
}

/** Whether `next` replaces `current` as the reported reason (Rust: `current <= new`). */
export function outranks(next: FlagReasonCode, current: FlagReasonCode): boolean {
  return SCORES[current] <= SCORES[next];
}
