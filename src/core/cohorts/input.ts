// What a cohort request may say, read as PostHog's CohortSerializer reads it: ids, text fields,
// booleans (multipart bodies carry them as text) and the criteria (filters, or legacy groups
// converted), checked strictly.
import { NotFoundError, ValidationError } from '../../errors.js';
import { legacyGroupsAsFilters, readCohortFilters } from '../../query/cohorts/read.js';
import type { CohortGroup } from '../../query/cohorts/schema.js';

const COHORT_ID = /^[1-9]\d{0,9}$/;
export const MAX_NAME = 400;
export const MAX_DESCRIPTION = 1000;

export interface CohortInput {
  name?: unknown;
  description?: unknown;
  groups?: unknown;
  filters?: unknown;
  is_static?: unknown;
  deleted?: unknown;
  query?: unknown;
  _create_static_person_ids?: unknown;
  /** An uploaded CSV of distinct ids, person ids or emails (multipart `csv`). */
  csv?: Buffer | undefined;
}


export function parseCohortId(text: string): number {
  if (!COHORT_ID.test(text) || Number(text) > 2 ** 31 - 1) throw new NotFoundError();
  return Number(text);
}

/** Text fields PostHog's serializer takes: null or a string up to the limit. */
export function optionalText(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ValidationError('Not a valid string.', field);
  if (value.length > max) throw new ValidationError(`Ensure this field has no more than ${max} characters.`, field, 'max_length');
  if (value.includes('\u0000')) throw new ValidationError('Null characters are not allowed.', field, 'null_characters_not_allowed');
  return value;
}

export function flag(value: unknown, field: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === true || value === 'true' || value === 'True') return true;
  if (value === false || value === 'false' || value === 'False') return false;
  throw new ValidationError('Must be a valid boolean.', field);
}

/** The criteria a request sets: `filters` wins; legacy `groups` are converted; checked strictly. */
export function criteriaOf(input: CohortInput): { filters: string | null; groups: string | null; group: CohortGroup | null } {
  let groups: string | null = null;
  let source: unknown;
  if (input.groups !== undefined && input.groups !== null) {
    if (!Array.isArray(input.groups)) throw new ValidationError('Expected a list of items.', 'groups', 'not_a_list');
    groups = JSON.stringify(input.groups);
    if (input.groups.length > 0) source = legacyGroupsAsFilters(input.groups);
  }
  if (input.filters !== undefined && input.filters !== null) source = typeof input.filters === 'string' ? parseJsonField(input.filters, 'filters') : input.filters;
  if (source === undefined) return { filters: null, groups, group: null };
  const group = readCohortFilters(source);
  return { filters: JSON.stringify({ properties: source && typeof source === 'object' ? (source as { properties: unknown }).properties : {} }), groups, group };
}

/** Multipart bodies carry JSON fields as text. */
function parseJsonField(text: string, field: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError("Must contain a 'properties' key with type and values", field);
  }
}
