// The project's path cleaning rules as SQL, and whether a query needs them for PostHog's
// `is_cleaned_path_exact` property operator (property.py: both sides cleaned, then compared).
import { call, constant } from '../ast/build.js';
import type { Expr } from '../ast/nodes.js';
import type { PathCleaningRule } from '../nodes/schema.js';

export const CLEANED_PATH_OPERATOR = 'is_cleaned_path_exact';

/** PostHog's apply_path_cleaning: each rule replaces every match (RE2) in the previous rule's output. */
export function cleanPath(value: Expr, rules: readonly PathCleaningRule[]): Expr {
  return rules.reduce<Expr>((path, rule) => call('replaceRegexpAll', path, constant(rule.regex), constant(rule.alias)), value);
}

/**
 * Whether any property filter in `value` (a query node, filters, action steps) uses the operator:
 * such a query reads the project's rules, so its cache key covers them.
 */
export function mentionsCleanedPath(value: unknown, depth = 0): boolean {
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => mentionsCleanedPath(item, depth + 1));
  const record = value as Record<string, unknown>;
  if (record.operator === CLEANED_PATH_OPERATOR) return true;
  return Object.values(record).some((item) => mentionsCleanedPath(item, depth + 1));
}
