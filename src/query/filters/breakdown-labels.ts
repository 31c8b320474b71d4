// PostHog's placeholder breakdown values: the null bucket (no value, "" included) and Other (past the limit).
export const NULL_BREAKDOWN = '$$_posthog_breakdown_null_$$';
export const OTHER_BREAKDOWN = '$$_posthog_breakdown_other_$$';
