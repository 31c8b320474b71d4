// One property condition against a subject's properties, as the Rust service's match_property
// (property_matching.rs; reference feature-flags.md 2.6). A key that is absent matches only the
// negative operators; a filter the service would refuse (bad number, bad semver) never matches.
import { parseDateText, parsePropertyDate } from './dates.js';
import { regexFinds } from './regex.js';
import { parseVersion, compareVersions, requirementRange, satisfies } from './semver.js';
import { asciiLower, valueNumber, valueText } from './values.js';

export interface PropertyCondition {
  key: string;
  operator?: string | null;
  value?: unknown;
}

export interface MatchOptions {
  timezone: string;
  now: Date;
}

/** Operators that match when the property is absent (the complement of a condition that cannot hold). */
const MATCH_WHEN_MISSING = new Set(['is_not', 'not_icontains', 'not_regex', 'not_starts_with', 'not_ends_with', 'not_icontains_multi', 'not_between']);

const isBooleanLike = (value: unknown): boolean => (typeof value === 'boolean'
  || (typeof value === 'string' && ['true', 'false'].includes(value.toLowerCase()))
  || (Array.isArray(value) && value.every(isBooleanLike)));

const isTruthy = (value: unknown): boolean => (typeof value === 'boolean' ? value
  : typeof value === 'string' ? value.toLowerCase() === 'true'
    : Array.isArray(value) ? value.every(isTruthy) : false);

/** `exact`: booleans by truthiness, a list by any item, else case-insensitive text. */
function exactMatch(filterValue: unknown, actual: unknown): boolean {
  if (isBooleanLike(filterValue)) return isTruthy(filterValue) === isTruthy(actual);
  const target = valueText(actual).toLowerCase();
  if (Array.isArray(filterValue)) return filterValue.some((item) => valueText(item).toLowerCase() === target);
  return valueText(filterValue).toLowerCase() === target;
}

function numericMatch(operator: string, filterValue: unknown, actual: unknown): boolean {
  const [lhs, rhs] = [valueNumber(actual), valueNumber(filterValue)];
  if (lhs === null || rhs === null) return false;
  switch (operator) {
    case 'gt': return lhs > rhs;
    case 'gte': return lhs >= rhs;
    case 'lt': return lhs < rhs;
    default: return lhs <= rhs;
  }
}

function betweenMatch(operator: string, filterValue: unknown, actual: unknown): boolean {
  if (!Array.isArray(filterValue) || filterValue.length !== 2) return false;
  const [low, high] = [valueNumber(filterValue[0]), valueNumber(filterValue[1])];
  if (low === null || high === null || Number.isNaN(low) || Number.isNaN(high) || low > high) return false;
  const value = valueNumber(actual);
  if (value === null || Number.isNaN(value)) return false;
  const inside = value >= low && value <= high;
  return operator === 'between' ? inside : !inside;
}

function semverMatch(operator: string, filterValue: unknown, actual: unknown): boolean {
  const version = parseVersion(actual);
  if (!version) return false;
  if (operator === 'semver_tilde' || operator === 'semver_caret' || operator === 'semver_wildcard') {
    const range = requirementRange(operator, filterValue);
    return range !== null && satisfies(version, range);
  }
  const target = parseVersion(filterValue);
  if (!target) return false;
  const order = compareVersions(version, target);
  switch (operator) {
    case 'semver_gt': return order > 0;
    case 'semver_gte': return order >= 0;
    case 'semver_lt': return order < 0;
    case 'semver_lte': return order <= 0;
    case 'semver_eq': return order === 0;
    case 'semver_neq': return order !== 0;
    default: return false;
  }
}

function dateMatch(operator: string, filterValue: unknown, actual: unknown, options: MatchOptions): boolean {
  const actualDate = parsePropertyDate(actual, options.timezone, options.now);
  if (actualDate === null || typeof filterValue !== 'string') return false;
  const filterDate = parseDateText(filterValue, options.timezone, options.now);
  if (filterDate === null) return false;
  if (operator === 'is_date_before') return actualDate < filterDate;
  if (operator === 'is_date_after') return actualDate > filterDate;
  return actualDate === filterDate;
}

function textMatch(operator: string, filterValue: unknown, actual: unknown): boolean {
  const haystack = asciiLower(valueText(actual));
  const positive = operator.replace(/^not_/, '');
  let found: boolean;
  if (positive === 'icontains_multi') {
    const needles = Array.isArray(filterValue) ? filterValue : [filterValue];
    found = needles.some((needle) => haystack.includes(asciiLower(valueText(needle))));
  } else {
    const needle = asciiLower(valueText(filterValue));
    found = positive === 'icontains' ? haystack.includes(needle)
      : positive === 'starts_with' ? haystack.startsWith(needle) : haystack.endsWith(needle);
  }
  return operator.startsWith('not_') ? !found : found;
}

/** Whether one condition holds for these properties. */
export function matchProperty(condition: PropertyCondition, properties: Record<string, unknown>, options: MatchOptions): boolean {
  const operator = condition.operator ?? 'exact';
  const present = Object.hasOwn(properties, condition.key) && properties[condition.key] !== undefined;
  if (operator === 'is_set') return present;
  if (operator === 'is_not_set') return !present;
  const filterValue = condition.value;
  if (filterValue === undefined || filterValue === null) return false;
  if (!present) return MATCH_WHEN_MISSING.has(operator);
  const actual = properties[condition.key];
  switch (operator) {
    case 'exact': return exactMatch(filterValue, actual);
    case 'is_not': return !exactMatch(filterValue, actual);
    case 'icontains': case 'not_icontains': case 'starts_with': case 'not_starts_with':
    case 'ends_with': case 'not_ends_with': case 'icontains_multi': case 'not_icontains_multi':
      return textMatch(operator, filterValue, actual);
    case 'regex': case 'not_regex': {
      const found = regexFinds(valueText(filterValue), valueText(actual));
      if (found === null) return false;
      return operator === 'regex' ? found : !found;
    }
    case 'gt': case 'gte': case 'lt': case 'lte': return numericMatch(operator, filterValue, actual);
    case 'between': case 'not_between': return betweenMatch(operator, filterValue, actual);
    case 'is_date_before': case 'is_date_after': case 'is_date_exact': return dateMatch(operator, filterValue, actual, options);
    default:
      if (operator.startsWith('semver_')) return semverMatch(operator, filterValue, actual);
      // in / not_in belong to cohorts, flag_evaluates_to to dependencies; anything else is unknown.
      return false;
  }
}
