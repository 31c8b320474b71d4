// A flag's `filters` read strictly, as PostHog's FeatureFlagSerializer.validate_filters checks
// them (its messages, codes and attr "filters"), plus what PostHog answers with a 500 or lets
// through unchecked: every malformed shape is a 400 naming `filters`, and sizes are bounded.
// Checks that need the store (cohorts, flag dependencies) are in references.ts.
import { ValidationError } from '../../errors.js';
import { pythonJsonDumps, pythonRepr } from './python-text.js';
import type { FlagConditionSet, FlagFilters, FlagPropertyFilter, FlagVariant } from './types.js';

/** PostHog's MAX_PROPERTY_VALUES for a list value. */
export const MAX_LIST_VALUES = 1000;
/** Hoglet's budgets (PostHog has none; these keep evaluation and storage bounded). */
export const MAX_CONDITION_SETS = 1000;
export const MAX_PROPERTIES_PER_SET = 1000;
export const MAX_VARIANTS = 1000;
export const MAX_FILTERS_BYTES = 512 * 1024;

const STRING_VALUE_OPERATORS = new Set(['regex', 'icontains', 'not_regex', 'not_icontains', 'gt', 'gte', 'lt', 'lte']);
const DATE_OPERATORS = new Set(['is_date_before', 'is_date_after']);
const KNOWN_OPERATORS = new Set([
  'exact', 'is_not', 'icontains', 'not_icontains', 'regex', 'not_regex', 'gt', 'gte', 'lt', 'lte', 'is_set', 'is_not_set',
  'is_date_exact', 'is_date_before', 'is_date_after', 'in', 'not_in', 'flag_evaluates_to', 'icontains_multi', 'not_icontains_multi',
  'semver_eq', 'semver_neq', 'semver_gt', 'semver_gte', 'semver_lt', 'semver_lte', 'semver_tilde', 'semver_caret', 'semver_wildcard',
]);
/** PostHog's relative dates ("-7d", "1w", "-2mo", "3y", "12h"), besides absolute ones. */
const RELATIVE_DATE = /^-?\d+(h|d|w|m|mo|y)$/;

export interface ReadFilters {
  filters: FlagFilters;
  /** Cohorts the conditions name (checked against the store). */
  cohortIds: number[];
  /** Flags the conditions depend on, by id (checked against the store). */
  flagIds: number[];
}

const invalid = (detail: string, code = 'invalid_input') => new ValidationError(detail, 'filters', code);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads a request's `filters`; `creating`: PostHog refuses an empty `groups` list on create only. */
export function readFilters(raw: unknown, creating: boolean): ReadFilters {
  if (!isObject(raw)) throw invalid('Filters must be an object.');
  if (JSON.stringify(raw).length > MAX_FILTERS_BYTES) throw invalid(`Filters are too large: at most ${MAX_FILTERS_BYTES} bytes of JSON.`);
  const aggregation = groupTypeIndex(raw.aggregation_group_type_index, 'aggregation_group_type_index');
  const groups = raw.groups === undefined || raw.groups === null ? [] : raw.groups;
  if (!Array.isArray(groups)) throw invalid('Filters are not valid (groups must be a list of condition sets)');
  if (creating && raw.groups !== undefined && groups.length === 0) throw invalid('Feature flags must have at least one condition set (group).');
  if (groups.length > MAX_CONDITION_SETS) throw invalid(`Feature flags can have at most ${MAX_CONDITION_SETS} condition sets.`);
  const variants = readVariants(raw.multivariate);
  const variantKeys = new Set(variants?.map((v) => v.key) ?? []);
  const cohortIds: number[] = [];
  const flagIds: number[] = [];
  const readSets = (sets: unknown[]) => sets.map((set) => readConditionSet(set, aggregation, variantKeys, cohortIds, flagIds));
  const filters: FlagFilters = { ...raw };
  if (raw.groups !== undefined) filters.groups = readSets(groups);
  if (raw.multivariate !== undefined) filters.multivariate = variants === null ? null : { ...(raw.multivariate as object), variants };
  for (const name of ['super_groups', 'holdout_groups'] as const) {
    if (raw[name] === undefined || raw[name] === null) continue;
    if (!Array.isArray(raw[name])) throw invalid(`Filters are not valid (${name} must be a list of condition sets)`);
    filters[name] = readSets(raw[name] as unknown[]);
  }
  if (raw.payloads !== undefined) filters.payloads = readPayloads(raw.payloads, variants);
  if (raw.feature_enrollment !== undefined && raw.feature_enrollment !== null && typeof raw.feature_enrollment !== 'boolean') {
    throw invalid('Filters are not valid (feature_enrollment must be true or false)');
  }
  return { filters, cohortIds: [...new Set(cohortIds)], flagIds: [...new Set(flagIds)] };
}

function groupTypeIndex(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 4) {
    throw invalid(`Filters are not valid (${field} must be a group type index from 0 to 4)`);
  }
  return value;
}

function readVariants(multivariate: unknown): FlagVariant[] | null {
  if (multivariate === undefined || multivariate === null) return null;
  if (!isObject(multivariate) || !Array.isArray(multivariate.variants)) throw invalid('Invalid variant definitions: multivariate must be {"variants": [...]}.');
  const variants = multivariate.variants;
  if (variants.length > MAX_VARIANTS) throw invalid(`Invalid variant definitions: at most ${MAX_VARIANTS} variants.`);
  const seen = new Set<string>();
  let total = 0;
  for (const variant of variants) {
    if (!isObject(variant) || typeof variant.key !== 'string' || variant.key === '') throw invalid('Invalid variant definitions: every variant needs a key (a non-empty string).');
    if (seen.has(variant.key)) throw invalid(`Invalid variant definitions: the key '${variant.key}' is used twice.`);
    seen.add(variant.key);
    const share = variant.rollout_percentage;
    if (typeof share !== 'number' || !Number.isFinite(share) || share < 0 || share > 100) {
      throw invalid('Invalid variant definitions: every variant needs a rollout_percentage from 0 to 100.');
    }
    if (variant.name !== undefined && variant.name !== null && typeof variant.name !== 'string') throw invalid('Invalid variant definitions: a variant name must be a string.');
    total += share;
  }
  // PostHog compares the sum with 100 exactly.
  if (total !== 100) throw invalid('Invalid variant definitions: Variant rollout percentages must sum to 100.');
  return variants as unknown as FlagVariant[];
}

function readConditionSet(set: unknown, aggregation: number | null, variantKeys: Set<string>, cohortIds: number[], flagIds: number[]): FlagConditionSet {
  if (!isObject(set)) throw invalid('Filters are not valid (each condition set must be an object)');
  const rollout = set.rollout_percentage;
  if (rollout !== undefined && rollout !== null && (typeof rollout !== 'number' || !Number.isFinite(rollout) || rollout < 0 || rollout > 100)) {
    throw invalid('Filters are not valid (rollout_percentage must be a number from 0 to 100)');
  }
  if (set.variant !== undefined && set.variant !== null && (typeof set.variant !== 'string' || !variantKeys.has(set.variant))) {
    throw invalid('Filters are not valid (variant override does not exist)');
  }
  const setAggregation = set.aggregation_group_type_index === undefined ? aggregation : groupTypeIndex(set.aggregation_group_type_index, 'aggregation_group_type_index');
  const properties = set.properties === undefined || set.properties === null ? [] : set.properties;
  if (!Array.isArray(properties)) throw invalid('Filters are not valid (properties must be a list)');
  if (properties.length > MAX_PROPERTIES_PER_SET) throw invalid(`Filters are not valid (at most ${MAX_PROPERTIES_PER_SET} properties in a condition set)`);
  for (const property of properties) readProperty(property, setAggregation, cohortIds, flagIds);
  return set as FlagConditionSet;
}

function readProperty(raw: unknown, aggregation: number | null, cohortIds: number[], flagIds: number[]): void {
  if (!isObject(raw)) throw invalid('Filters are not valid (each property must be an object)');
  const property = raw as unknown as FlagPropertyFilter;
  if (typeof property.key !== 'string' || property.key === '') throw invalid('Filters are not valid (every property needs a key)');
  if (aggregation === null) {
    if (!['person', 'cohort', 'flag'].includes(property.type)) throw invalid('Filters are not valid (can only use person, cohort, and flag properties)');
  } else if (property.type !== 'group' || property.group_type_index !== aggregation) {
    throw invalid('Filters are not valid (can only use group properties)');
  }
  if (property.operator !== undefined && property.operator !== null && typeof property.operator !== 'string') throw invalid('Filters are not valid (operator must be a string)');
  const operator = property.operator ?? 'exact';
  if (property.negation !== undefined && property.negation !== null && typeof property.negation !== 'boolean') throw invalid('Filters are not valid (negation must be true or false)');
  if (property.type === 'flag') {
    if (operator !== 'flag_evaluates_to') throw invalid("Flag properties must use the 'flag_evaluates_to' operator");
    if (!/^[1-9]\d{0,9}$/.test(property.key)) throw invalid(`Flag dependency key must be the id of a flag, not '${property.key}'`);
    if (typeof property.value !== 'boolean' && typeof property.value !== 'string') throw invalid('Flag dependency value must be true, false or a variant key');
    flagIds.push(Number(property.key));
    return;
  }
  if (property.type === 'cohort') {
    const id = typeof property.value === 'number' ? property.value : typeof property.value === 'string' && /^\d{1,10}$/.test(property.value) ? Number(property.value) : NaN;
    if (!Number.isSafeInteger(id)) throw invalid(`Cohort with id ${pythonRepr(property.value)} does not exist`, 'cohort_does_not_exist');
    // Absent (older clients) and exact read as 'in'.
    if (!['exact', 'in', 'not_in'].includes(operator)) throw invalid(`Cohort properties take the 'in' or 'not_in' operator, not '${operator}'`, 'invalid_operator');
    cohortIds.push(id);
    return;
  }
  if (!KNOWN_OPERATORS.has(operator) || operator === 'flag_evaluates_to') throw invalid(`Unknown operator '${operator}'`, 'invalid_operator');
  if (operator === 'in' || operator === 'not_in') {
    throw invalid(`The '${operator}' operator is only valid for cohort properties, not '${property.type}' properties.`, 'invalid_operator');
  }
  const value = property.value;
  if (Array.isArray(value) && value.length > MAX_LIST_VALUES) {
    throw invalid(`Property group expressions of type ${property.key} cannot contain more than ${MAX_LIST_VALUES} values.`);
  }
  if (STRING_VALUE_OPERATORS.has(operator) && typeof value !== 'string') {
    throw invalid(`Invalid value for operator ${operator}: ${pythonRepr(value)}`, 'invalid_value');
  }
  if (DATE_OPERATORS.has(operator) && !isDate(value)) throw invalid(`Invalid date value: ${typeof value === "string" ? value : pythonRepr(value)}`, "invalid_date");
  if (operator !== 'is_set' && operator !== 'is_not_set' && value !== undefined && !isPropertyValue(value)) {
    throw invalid(`Filters are not valid (the value of '${property.key}' must be a string, number, boolean or a list of them)`);
  }
}

function isDate(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  return RELATIVE_DATE.test(value) || !Number.isNaN(Date.parse(value));
}

function isPropertyValue(value: unknown): boolean {
  const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  return scalar(value) || (Array.isArray(value) && value.every(scalar));
}

/** Payloads are stored as JSON strings: a string must be JSON, anything else is serialized. */
function readPayloads(raw: unknown, variants: FlagVariant[] | null): Record<string, string> {
  if (raw === null) return {};
  if (!isObject(raw)) throw invalid('Payloads must be passed as a dictionary');
  const payloads: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (variants === null && key !== 'true') throw invalid("Payload keys must be 'true' for boolean flags");
    if (variants !== null && !variants.some((v) => v.key === key)) throw invalid('Payload keys must match a variant key for multivariate flags');
    if (value === null || value === undefined) continue;
    if (typeof value === 'string') {
      try {
        JSON.parse(value);
      } catch {
        throw invalid('Payload value is not valid JSON');
      }
      payloads[key] = value;
    } else {
      payloads[key] = pythonJsonDumps(value);
    }
  }
  return payloads;
}
