// Small readers for untrusted JSON: each either returns a typed value or throws a
// ValidationError whose attr is the path of the offending value (e.g. "series[1].math").
import { ValidationError } from '../../errors.js';

export type Json = unknown;
export type JsonObject = Record<string, unknown>;

export function fail(path: string, detail: string, code = 'invalid_input'): never {
  throw new ValidationError(detail, path, code);
}

export const join = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

export function isObject(value: Json): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readObject(value: Json, path: string): JsonObject {
  if (!isObject(value)) fail(path, 'Expected an object.');
  return value;
}

export function readOptionalObject(value: Json, path: string): JsonObject | null {
  return value === undefined || value === null ? null : readObject(value, path);
}

export function readArray(value: Json, path: string): unknown[] {
  if (!Array.isArray(value)) fail(path, 'Expected a list of items.', 'not_a_list');
  return value;
}

export function readOptionalString(value: Json, path: string, maxLength = 65_535): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') fail(path, 'Not a valid string.');
  if (value.length > maxLength) fail(path, `Ensure this field has no more than ${maxLength} characters.`, 'max_length');
  if (value.includes('\u0000')) fail(path, 'Null characters are not allowed.', 'null_characters_not_allowed');
  return value;
}

export function readString(value: Json, path: string, maxLength?: number): string {
  const text = readOptionalString(value, path, maxLength);
  if (text === null) fail(path, 'This field is required.', 'required');
  return text;
}

export function readBoolean(value: Json, path: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return fail(path, 'Must be a valid boolean.');
}

/** Integers arrive as numbers, or as strings from query strings. */
export function readOptionalInteger(value: Json, path: string, min: number, max: number): number | null {
  if (value === undefined || value === null || value === '') return null;
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) fail(path, 'A valid integer is required.');
  if (n < min) fail(path, `Ensure this value is greater than or equal to ${min}.`, 'min_value');
  if (n > max) fail(path, `Ensure this value is less than or equal to ${max}.`, 'max_value');
  return n;
}

export function readChoice<T extends string>(value: Json, path: string, choices: readonly T[], fallback: T): T;
export function readChoice<T extends string>(value: Json, path: string, choices: readonly T[], fallback: null): T | null;
export function readChoice<T extends string>(value: Json, path: string, choices: readonly T[], fallback: T | null): T | null {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    fail(path, `"${String(value).slice(0, 100)}" is not a valid choice.`, 'invalid_choice');
  }
  return value as T;
}
