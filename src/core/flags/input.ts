// The fields of a flag create or update besides `filters`, read as PostHog's FeatureFlagSerializer
// reads them (DRF's messages and codes); unknown and read-only fields are ignored, as DRF does.
import { NotFoundError, ValidationError } from '../../errors.js';
import type { BucketingIdentifier, EvaluationRuntime } from './types.js';

export const MAX_KEY_LENGTH = 400;
const KEY = /^[a-zA-Z0-9_-]+$/;
const FLAG_ID = /^[1-9]\d{0,9}$/;
const MAX_NAME_LENGTH = 65_536;
const MAX_TAGS = 100;

export interface FlagInput {
  key?: unknown;
  name?: unknown;
  filters?: unknown;
  active?: unknown;
  deleted?: unknown;
  ensure_experience_continuity?: unknown;
  version?: unknown;
  original_flag?: unknown;
  tags?: unknown;
  evaluation_tags?: unknown;
  evaluation_runtime?: unknown;
  bucketing_identifier?: unknown;
  is_remote_configuration?: unknown;
  has_encrypted_payloads?: unknown;
  has_enriched_analytics?: unknown;
  rollback_conditions?: unknown;
  performed_rollback?: unknown;
  [other: string]: unknown;
}

export function parseFlagId(text: string): number {
  if (!FLAG_ID.test(text) || Number(text) > 2 ** 31 - 1) throw new NotFoundError();
  return Number(text);
}

export function readKey(value: unknown): string {
  if (value === undefined) throw new ValidationError('This field is required.', 'key', 'required');
  if (value === null) throw new ValidationError('This field may not be null.', 'key', 'null');
  if (typeof value !== 'string' && typeof value !== 'number') throw new ValidationError('Not a valid string.', 'key', 'invalid');
  const key = String(value);
  if (key.trim() === '') throw new ValidationError('This field may not be blank.', 'key', 'blank');
  if (key.length > MAX_KEY_LENGTH) throw new ValidationError(`Ensure this field has no more than ${MAX_KEY_LENGTH} characters.`, 'key', 'max_length');
  if (!KEY.test(key)) throw new ValidationError('Only letters, numbers, hyphens (-) & underscores (_) are allowed.', 'key', 'invalid_key');
  return key;
}

export function readName(value: unknown): string {
  if (value === null) throw new ValidationError('This field may not be null.', 'name', 'null');
  if (typeof value !== 'string') throw new ValidationError('Not a valid string.', 'name', 'invalid');
  if (value.length > MAX_NAME_LENGTH) throw new ValidationError(`Ensure this field has no more than ${MAX_NAME_LENGTH} characters.`, 'name', 'max_length');
  if (value.includes('\u0000')) throw new ValidationError('Null characters are not allowed.', 'name', 'null_characters_not_allowed');
  return value;
}

/** DRF's BooleanField: true/false and their usual spellings. */
export function readBoolean(value: unknown, field: string): boolean {
  if (value === true || value === 'true' || value === 'True' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 'False' || value === 0 || value === '0') return false;
  if (value === null) throw new ValidationError('This field may not be null.', field, 'null');
  throw new ValidationError('Must be a valid boolean.', field, 'invalid');
}

export function readChoice<T extends string>(value: unknown, field: string, choices: readonly T[]): T {
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  throw new ValidationError(`"${typeof value === 'string' ? value : JSON.stringify(value)}" is not a valid choice.`, field, 'invalid_choice');
}

export const readRuntime = (value: unknown) => readChoice<EvaluationRuntime>(value, 'evaluation_runtime', ['server', 'client', 'all']);
export const readBucketing = (value: unknown) => readChoice<BucketingIdentifier>(value, 'bucketing_identifier', ['distinct_id', 'device_id']);

export function readTags(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw new ValidationError('Expected a list of items but got type "' + typeof value + '".', field, 'not_a_list');
  if (value.length > MAX_TAGS) throw new ValidationError(`Ensure this field has no more than ${MAX_TAGS} elements.`, field, 'max_length');
  const tags = value.map((tag) => {
    if (typeof tag !== 'string' || tag.trim() === '' || tag.length > 255) throw new ValidationError('Each tag must be a non-empty string of at most 255 characters.', field);
    // PostHog stores tags trimmed and lower-cased.
    return tag.trim().toLowerCase();
  });
  return [...new Set(tags)];
}

/** `version` on update: an integer (PostHog reads a missing stored version as 0). */
export function readVersion(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,10}$/.test(value)) return Number(value);
  throw new ValidationError('A valid integer is required.', 'version', 'invalid');
}

/** rollback_conditions: any JSON, stored as text; null clears it. */
export function readJsonField(value: unknown, field: string): string | null {
  if (value === null) return null;
  const text = JSON.stringify(value);
  if (text.length > 64 * 1024) throw new ValidationError('This field is too large (at most 64 KB of JSON).', field);
  return text;
}
