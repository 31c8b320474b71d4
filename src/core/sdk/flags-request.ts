// A `/flags/` or `/decide/` body read as PostHog's flags service reads it (`flag_request.rs`):
// each field under its aliases, a field of the wrong JSON type a 400 (PostHog fails to
// deserialise it), `null` the same as absent.
import { ValidationError } from '../../errors.js';

export interface FlagsRequest {
  token: unknown;
  distinctId: string;
  /** Group type name -> group key (numbers as their text). */
  groups: Record<string, string>;
  personProperties: Record<string, unknown>;
  /** Group type name -> properties. */
  groupProperties: Record<string, Record<string, unknown>>;
  anonDistinctId: string | null;
  deviceId: string | null;
  /** null: every flag. */
  flagKeys: string[] | null;
  disableFlags: boolean;
  /** `geoip_disable: true`: the request's place is not added to the person properties. */
  geoipDisable: boolean;
  evaluationRuntime: string | null;
  evaluationContexts: string[] | null;
}

/** PostHog truncates distinct ids to 200 characters before evaluating. */
const MAX_DISTINCT_ID_CHARS = 200;

/** The value of the first alias present (not null). */
function field(body: Record<string, unknown>, ...names: string[]): { name: string; value: unknown } | null {
  for (const name of names) {
    const value = body[name];
    if (value !== undefined && value !== null) return { name, value };
  }
  return null;
}

function wrongType(name: string, expected: string): ValidationError {
  return new ValidationError(`Failed to decode request: invalid type for field \`${name}\`, expected ${expected}`, name, 'invalid_input');
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function object(body: Record<string, unknown>, ...names: string[]): Record<string, unknown> {
  const found = field(body, ...names);
  if (!found) return {};
  if (!isObject(found.value)) throw wrongType(found.name, 'a map');
  return found.value;
}

function text(body: Record<string, unknown>, ...names: string[]): string | null {
  const found = field(body, ...names);
  if (!found) return null;
  if (typeof found.value !== 'string') throw wrongType(found.name, 'a string');
  return found.value;
}

function strings(body: Record<string, unknown>, ...names: string[]): string[] | null {
  const found = field(body, ...names);
  if (!found) return null;
  if (!Array.isArray(found.value) || !found.value.every((item) => typeof item === 'string')) throw wrongType(found.name, 'a sequence of strings');
  return found.value as string[];
}

/** A key as text: PostHog accepts strings and numbers for distinct and group ids. */
function idText(value: unknown, name: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw wrongType(name, 'a string or a number');
}

/** Reads the decoded body; the token is checked by the caller (401 before any 400). */
export function readFlagsRequest(body: Record<string, unknown>): Omit<FlagsRequest, 'token'> {
  const distinct = field(body, 'distinct_id', '$distinct_id');
  if (!distinct) {
    throw new ValidationError('The distinct_id field is missing from the request. Please include a valid identifier.', 'distinct_id', 'required');
  }
  const distinctId = idText(distinct.value, distinct.name);
  if (distinctId.trim() === '') {
    throw new ValidationError('The distinct_id field cannot be empty. Please provide a valid identifier.', 'distinct_id', 'blank');
  }

  const groups: Record<string, string> = {};
  const groupsField = field(body, 'groups', '$groups');
  for (const [type, key] of Object.entries(object(body, 'groups', '$groups'))) {
    if (key === null || key === undefined) continue;
    groups[type] = idText(key, groupsField!.name);
  }
  const groupProperties: Record<string, Record<string, unknown>> = {};
  const groupPropertiesField = field(body, 'group_properties', '$group_properties');
  for (const [type, properties] of Object.entries(object(body, 'group_properties', '$group_properties'))) {
    if (properties === null || properties === undefined) continue;
    if (!isObject(properties)) throw wrongType(groupPropertiesField!.name, 'a map of maps');
    groupProperties[type] = properties;
  }
  const personProperties = object(body, 'person_properties', '$properties');
  const disable = field(body, 'disable_flags');
  if (disable && typeof disable.value !== 'boolean') throw wrongType('disable_flags', 'a boolean');
  const geoipDisable = field(body, 'geoip_disable');
  if (geoipDisable && typeof geoipDisable.value !== 'boolean') throw wrongType('geoip_disable', 'a boolean');
  const deviceId = text(body, '$device_id', 'device_id') ?? (typeof personProperties.$device_id === 'string' ? personProperties.$device_id : null);

  return {
    distinctId: distinctId.slice(0, MAX_DISTINCT_ID_CHARS),
    groups,
    personProperties,
    groupProperties,
    anonDistinctId: text(body, '$anon_distinct_id', 'anon_distinct_id'),
    deviceId,
    flagKeys: strings(body, 'flag_keys_to_evaluate', 'flag_keys'),
    disableFlags: disable?.value === true,
    geoipDisable: geoipDisable?.value === true,
    evaluationRuntime: text(body, 'evaluation_runtime'),
    evaluationContexts: strings(body, 'evaluation_contexts', 'evaluation_environments'),
  };
}
