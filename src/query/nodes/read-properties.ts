// Property filters as PostHog sends them: a list (AND) or a {type, values} group, nested.
import {
  PROPERTY_FILTER_TYPES, PROPERTY_OPERATORS,
  type PropertyFilter, type PropertyGroup, type PropertyValue,
} from './schema.js';
import { fail, isObject, join, readArray, readBoolean, readChoice, readObject, readOptionalInteger, readString, type Json, type JsonObject } from './read-json.js';

const MAX_DEPTH = 10;
const MAX_FILTERS = 500;
const MAX_KEY_LENGTH = 400;
/** A HogQL expression inside an insight (a hogql filter, math_hogql, a hogql breakdown) is at most this long. */
export const MAX_HOGQL_EXPRESSION = 10_000;
const MAX_VALUE_LENGTH = 10_000;

export const EMPTY_GROUP: PropertyGroup = Object.freeze({ type: 'AND', values: Object.freeze([]) });

/** `sessions`: session property filters are allowed too (a HogQLQuery's `filters`, as PostHog's HogQLFilters). */
export function readProperties(value: Json, path: string, options: { sessions?: boolean } = {}): PropertyGroup {
  const counter = { filters: 0, sessions: options.sessions === true };
  if (value === undefined || value === null) return EMPTY_GROUP;
  return readGroupOrList(value, path, 0, counter);
}

interface ReadState {
  filters: number;
  readonly sessions: boolean;
}

function readGroupOrList(value: Json, path: string, depth: number, counter: ReadState): PropertyGroup {
  if (depth > MAX_DEPTH) fail(path, `Property groups may be nested at most ${MAX_DEPTH} deep.`);
  if (Array.isArray(value)) return Object.freeze({ type: 'AND', values: Object.freeze(value.map((v, i) => readEntry(v, join(path, i), depth, counter))) });
  const group = readObject(value, path);
  if (group.type === 'AND' || group.type === 'OR') {
    const values = readArray(group.values ?? [], join(path, 'values'));
    return Object.freeze({ type: group.type, values: Object.freeze(values.map((v, i) => readEntry(v, join(join(path, 'values'), i), depth + 1, counter))) });
  }
  return fail(path, 'Expected a list of property filters or a group with type AND or OR.');
}

function readEntry(value: Json, path: string, depth: number, counter: ReadState): PropertyFilter | PropertyGroup {
  if (isObject(value) && (value.type === 'AND' || value.type === 'OR') && 'values' in value) {
    return readGroupOrList(value, path, depth + 1, counter);
  }
  if (++counter.filters > MAX_FILTERS) fail(path, `At most ${MAX_FILTERS} property filters are allowed.`);
  return readFilter(value, path, counter.sessions);
}

const SUPPORTED_TYPES = PROPERTY_FILTER_TYPES as readonly string[];

export function readFilter(value: Json, path: string, sessions = false): PropertyFilter {
  const raw = readObject(value, path);
  const type = raw.type ?? 'event';
  if (typeof type !== 'string' || !(SUPPORTED_TYPES.includes(type) || (sessions && type === 'session'))) {
    fail(join(path, 'type'), `Property filters of type "${String(type).slice(0, 50)}" are not supported; use event, person, group, cohort or hogql.`, 'invalid_choice');
  }
  if (type === 'hogql') {
    // The key is a boolean HogQL expression; operator and value mean nothing (PostHog's HogQLPropertyFilter).
    const expression = readString(raw.key, join(path, 'key'), MAX_HOGQL_EXPRESSION);
    if (expression.trim() === '') fail(join(path, 'key'), 'This field may not be blank.', 'blank');
    return Object.freeze({ key: expression, operator: 'exact', type: 'hogql' });
  }
  if (type === 'cohort') return readCohortFilter(raw, path);
  const key = readString(raw.key, join(path, 'key'), MAX_KEY_LENGTH);
  const operator = readChoice(raw.operator, join(path, 'operator'), PROPERTY_OPERATORS, 'exact');
  const filterValue = readValue(raw.value, join(path, 'value'), operator);
  const filter: PropertyFilter = { key, operator, type: type as PropertyFilter['type'], ...(filterValue === undefined ? {} : { value: filterValue }) };
  if (type === 'group') {
    const index = readOptionalInteger(raw.group_type_index, join(path, 'group_type_index'), 0, 4);
    if (index === null) fail(join(path, 'group_type_index'), 'Group property filters need a group_type_index from 0 to 4.', 'required');
    return Object.freeze({ ...filter, group_type_index: index });
  }
  return Object.freeze(filter);
}

/** `{"type": "cohort", "key": "id", "value": 5}`; operator not_in, or the older negation: true, inverts it. */
function readCohortFilter(raw: JsonObject, path: string): PropertyFilter {
  const id = readOptionalInteger(raw.value, join(path, 'value'), 1, 2 ** 31 - 1);
  if (id === null) fail(join(path, 'value'), 'Cohort property value must be a cohort ID', 'required');
  const operator = readChoice(raw.operator, join(path, 'operator'), ['in', 'not_in', 'exact'] as const, 'in');
  const negated = readBoolean(raw.negation, join(path, 'negation'), false);
  return Object.freeze({ key: 'id', type: 'cohort', value: id, operator: (operator === 'not_in') !== negated ? 'not_in' : 'in' });
}

function readValue(value: Json, path: string, operator: PropertyFilter['operator']): PropertyValue | undefined {
  if (operator === 'is_set' || operator === 'is_not_set') return undefined;
  if (value === undefined || value === null) fail(path, `The ${operator} operator needs a value.`, 'required');
  const scalar = (v: Json, p: string): string | number | boolean => {
    if (typeof v === 'string') {
      if (v.length > MAX_VALUE_LENGTH) fail(p, `Ensure this value has no more than ${MAX_VALUE_LENGTH} characters.`, 'max_length');
      if (v.includes('\u0000')) fail(p, 'Null characters are not allowed.', 'null_characters_not_allowed');
      return v;
    }
    if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') return v;
    return fail(p, 'Expected a string, number or boolean.');
  };
  if (operator === 'between' || operator === 'not_between') {
    const pair = Array.isArray(value) ? value : fail(path, 'The between operators need a list of two numbers.');
    if (pair.length !== 2 || pair.some((v) => !Number.isFinite(Number(v)) || v === '' || typeof v === 'boolean')) fail(path, 'The between operators need a list of two numbers.');
    return Object.freeze(pair.map(Number));
  }
  if (Array.isArray(value)) {
    if (value.length > MAX_FILTERS) fail(path, `At most ${MAX_FILTERS} values are allowed.`);
    return Object.freeze(value.map((v, i) => scalar(v, join(path, i))));
  }
  const one = scalar(value, path);
  if (['gt', 'gte', 'lt', 'lte', 'min', 'max'].includes(operator) && !Number.isFinite(Number(one))) {
    fail(path, `The ${operator} operator needs a number.`);
  }
  if (operator.startsWith('is_date_') && (typeof one !== 'string' || Number.isNaN(Date.parse(one)))) {
    fail(path, `The ${operator} operator needs a date such as 2024-01-31 or 2024-01-31T12:00:00Z.`);
  }
  if ((operator === 'regex' || operator === 'not_regex') && typeof one === 'string') checkRegex(one, path);
  return one;
}

/** ClickHouse uses RE2; refuse patterns that cannot compile at all before they reach the engine. */
function checkRegex(pattern: string, path: string): void {
  try {
    new RegExp(pattern);
  } catch {
    fail(path, 'Invalid regular expression.');
  }
  if (/\(\?[=!<]|\\[1-9]/.test(pattern)) fail(path, 'Look-around and back-references are not supported in regular expressions.');
}
