// Property filters -> conditions, with PostHog's null semantics: a missing property (or JSON null,
// or "") fails positive operators and passes negative ones (is_not, not_icontains, not_regex).
import { DateTime } from 'luxon';
import { and, binary, call, constant, isNotNull, isNull, not, or, TRUE } from '../ast/build.js';
import type { Expr } from '../ast/nodes.js';
import { InternalError } from '../../errors.js';
import { HogQLQueryError } from '../hogql/errors.js';
import type { PathCleaningRule, PropertyFilter, PropertyGroup } from '../nodes/schema.js';
import type { PropertyType } from '../catalog/property-type.js';
import type { PropertyOwner } from '../hogql/property-types.js';
import { CLEANED_PATH_OPERATOR, cleanPath } from './cleaned-path.js';

/**
 * What property filters read: an event's own, its person's and groups' properties, and HogQL
 * conditions. A runner's EventSource is one; a listing of persons is another (person filters only).
 */
export interface PropertySource {
  eventProperty(key: string): Expr;
  personProperty(key: string): Expr;
  groupProperty(index: number, key: string): Expr;
  hogqlExpr(text: string): Expr;
  /** Whether the person is in the cohort (as of the query). */
  inCohort(cohortId: number): Expr;
  /** A field of the session (only HogQL's {filters} read session filters; see read-properties.ts). */
  sessionProperty?(key: string): Expr;
  /** The project's path cleaning rules (is_cleaned_path_exact); absent where a query cannot know them. */
  readonly pathCleaningRules?: readonly PathCleaningRule[];
  /** The type a person set on a property (Data management); absent or undefined: none. */
  propertyType?(owner: PropertyOwner, key: string): PropertyType | undefined;
}

/** Whose property a filter reads, for its set type; null for HogQL, cohort and session filters. */
function ownerOf(filter: Pick<PropertyFilter, 'type' | 'group_type_index'>): PropertyOwner | null {
  if (filter.type === 'person') return 'person';
  if (filter.type === 'group') return { group: filter.group_type_index ?? 0 };
  return filter.type === undefined || filter.type === 'event' ? 'event' : null;
}

const isNumberText = (value: string): boolean => value.trim() !== '' && Number.isFinite(Number(value));

export function propertyGroupExpr(group: PropertyGroup, source: PropertySource, timezone: string): Expr | undefined {
  const parts = group.values
    .map((v) => ('key' in v ? propertyFilterExpr(v, source, timezone) : propertyGroupExpr(v, source, timezone)))
    .filter((e): e is Expr => e !== undefined);
  if (parts.length === 0) return undefined;
  return group.type === 'OR' ? or(...parts) : and(...parts);
}

export function propertySource(filter: Pick<PropertyFilter, 'key' | 'type' | 'group_type_index'>, source: PropertySource): Expr {
  switch (filter.type) {
    case 'hogql':
      return source.hogqlExpr(filter.key);
    case 'person':
      return source.personProperty(filter.key);
    case 'group':
      return source.groupProperty(filter.group_type_index ?? 0, filter.key);
    case 'session':
      if (!source.sessionProperty) throw new InternalError('session_filter', 'a session property filter reached a source without sessions');
      return source.sessionProperty(filter.key);
    default:
      return source.eventProperty(filter.key);
  }
}

const NEGATIVE = new Set(['is_not', 'not_icontains', 'not_regex', 'not_in', 'not_between']);

export function propertyFilterExpr(filter: PropertyFilter, source: PropertySource, timezone: string): Expr | undefined {
  // A HogQL filter is its own condition (PostHog ignores operator and value).
  if (filter.type === 'hogql') return source.hogqlExpr(filter.key);
  // PostHog's `person_id IN COHORT n`; not_in (or the older negation) is NOT IN.
  if (filter.type === 'cohort') {
    const member = source.inCohort(Number(filter.value));
    return filter.operator === 'not_in' ? not(member) : member;
  }
  const value = propertySource(filter, source);
  const op = filter.operator;
  if (op === 'is_set') return isNotNull(value);
  if (op === 'is_not_set') return isNull(value);
  if (op === 'between' || op === 'not_between') {
    const [low, high] = filter.value as readonly number[];
    const number = call('toFloat64OrNull', value);
    const inside = and(binary('>=', number, constant(low!, 'Float64')), binary('<=', number, constant(high!, 'Float64')));
    return op === 'between' ? call('ifNull', inside, constant(false)) : call('ifNull', not(inside), constant(true));
  }
  const values = Array.isArray(filter.value) ? (filter.value as (string | number | boolean)[]) : [filter.value as string | number | boolean];
  if (values.length === 0) return undefined;
  if (op === 'exact' || op === 'in' || op === 'is_not' || op === 'not_in') {
    const strings = values.map(String);
    const positive = op === 'exact' || op === 'in';
    const owner = ownerOf(filter);
    if (owner && source.propertyType?.(owner, filter.key) === 'Numeric' && strings.every(isNumberText)) {
      // Set Numeric: compared as numbers, so "10.0" equals 10 (PostHog reads the property as a Float).
      const number = call('toFloat64OrNull', value);
      const numbers = strings.map(Number);
      const test = numbers.length === 1
        ? binary(positive ? '=' : '!=', number, constant(numbers[0]!, 'Float64'))
        : binary(positive ? 'IN' : 'NOT IN', number, constant(numbers, 'Array(Float64)'));
      return call('ifNull', test, constant(!positive));
    }
    const test = strings.length === 1
      ? binary(positive ? '=' : '!=', value, constant(strings[0]!))
      : binary(positive ? 'IN' : 'NOT IN', value, constant(strings, 'Array(String)'));
    return call('ifNull', test, constant(!positive));
  }
  if (op === CLEANED_PATH_OPERATOR) return or(...values.map((v) => cleanedPathEquals(value, String(v), source)));
  const each = values.map((v) => scalarCondition(op, value, v, timezone));
  return NEGATIVE.has(op) ? and(...each) : or(...each);
}

function scalarCondition(op: PropertyFilter['operator'], value: Expr, operand: string | number | boolean, timezone: string): Expr {
  const orFalse = (e: Expr) => call('ifNull', e, constant(false));
  const orTrue = (e: Expr) => call('ifNull', e, constant(true));
  const number = call('toFloat64OrNull', value);
  switch (op) {
    case 'icontains':
      return orFalse(binary('ILIKE', value, constant(likePattern(String(operand)))));
    case 'not_icontains':
      return orTrue(binary('NOT ILIKE', value, constant(likePattern(String(operand)))));
    case 'regex':
      return orFalse(call('match', value, constant(String(operand))));
    case 'not_regex':
      return orTrue(not(call('match', value, constant(String(operand)))));
    case 'gt':
      return orFalse(binary('>', number, constant(Number(operand), 'Float64')));
    case 'gte':
    case 'min':
      return orFalse(binary('>=', number, constant(Number(operand), 'Float64')));
    case 'lt':
      return orFalse(binary('<', number, constant(Number(operand), 'Float64')));
    case 'lte':
    case 'max':
      return orFalse(binary('<=', number, constant(Number(operand), 'Float64')));
    case 'is_date_before':
    case 'is_date_after':
    case 'is_date_exact': {
      const parsed = call('parseDateTime64BestEffortOrNull', value, constant(6, 'UInt8'), constant(timezone));
      const bound = dateOperand(String(operand), timezone);
      const sign = op === 'is_date_before' ? '<' : op === 'is_date_after' ? '>' : '=';
      return orFalse(binary(sign, parsed, bound));
    }
    default:
      return TRUE;
  }
}

/** PostHog's is_cleaned_path_exact: the value and the operand, both cleaned by the project's rules, are equal. */
function cleanedPathEquals(value: Expr, operand: string, source: PropertySource): Expr {
  const rules = source.pathCleaningRules;
  if (!rules) throw new HogQLQueryError(`The ${CLEANED_PATH_OPERATOR} operator is not supported in this filter.`);
  return call('ifNull', binary('=', cleanPath(value, rules), cleanPath(constant(operand), rules)), constant(false));
}

/** A date operand, read in the project's timezone when it has no offset of its own. */
function dateOperand(text: string, timezone: string): Expr {
  const parsed = DateTime.fromISO(text, { zone: timezone, setZone: true });
  const instant = parsed.isValid ? parsed : DateTime.fromJSDate(new Date(text));
  return call('toDateTime64', constant(instant.toUTC().toFormat('yyyy-MM-dd HH:mm:ss.SSS')), constant(6, 'UInt8'), constant('UTC'));
}

/** `%value%` with the value's own % _ and \ escaped, so they match literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
