// The property definitions list's query parameters, as PostHog's clients send them, checked with
// DRF's messages, and turned into what the listing keeps.
import { ValidationError } from '../../errors.js';
import type { PropertyKeyFilter } from '../../storage/events/definitions-repository.js';
import { searchParam } from './search.js';

export type PropertyDefinitionType = 'event' | 'person' | 'group';

export interface PropertyListParams {
  type: PropertyDefinitionType;
  /** The group type whose properties `type=group` lists (0-4); null for other types. */
  groupTypeIndex: number | null;
  search: string | null;
  /** Named events (`event_names`), or null when none were named. */
  eventNames: string[] | null;
  /** Keep only keys seen on the named events. */
  filterByEventNames: boolean;
  excludeCoreProperties: boolean;
  /** Leave out the definitions someone hid (PostHog's pickers ask for this). */
  excludeHidden: boolean;
  /** `properties`: only these names (comma-separated in the request); null: any. */
  names: string[] | null;
  /** `is_numerical=true`: only numerical properties. */
  numerical: boolean;
  /** true: only `$feature/...` keys; false: none of them; null: either. */
  isFeatureFlag: boolean | null;
}

/** Types PostHog has that Hoglet does not list yet. */
const UNSUPPORTED_TYPES = new Set(['session']);

// DRF's BooleanField words (compared without case here).
const TRUE_WORDS = new Set(['t', 'y', 'yes', 'true', 'on', '1']);
const FALSE_WORDS = new Set(['f', 'n', 'no', 'false', 'off', '0']);
const NULL_WORDS = new Set(['null', '']);

const MAX_EVENT_NAMES = 1000;

/**
 * Event properties PostHog never lists (ingestion details): distinct ids some libraries copy into
 * properties, person and group updates, and posthog-js's retired initial-referrer and
 * session-entry copies.
 */
const ALWAYS_HIDDEN_EVENT_PROPERTIES = [
  'distinct_id',
  '$set',
  '$set_once',
  '$groups',
  '$group_type',
  '$group_key',
  '$group_set',
  '$group_0',
  '$group_1',
  '$group_2',
  '$group_3',
  '$group_4',
  '$initial_referrer',
  '$initial_referring_domain',
];
const ALWAYS_HIDDEN_EVENT_PREFIXES = ['$session_entry_'];

/**
 * PostHog's "core" properties are the ones its taxonomy defines. Hoglet approximates them as every
 * key starting with `$` (all of PostHog's own SDK properties); the few taxonomy names without `$`
 * (utm_source, gclid, ...) stay listed.
 */
const CORE_PROPERTY_PREFIX = '$';
const FEATURE_FLAG_PREFIX = '$feature/';

export function text(query: Record<string, unknown>, key: string): string | undefined {
  const value = query[key];
  return typeof value === 'string' ? value : undefined;
}

/** A DRF BooleanField: its words for true and false; null (or blank) only where the field allows it. */
export function booleanParam(raw: string | undefined, attr: string, fallback: boolean | null): boolean | null {
  if (raw === undefined) return fallback;
  const word = raw.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  if (fallback === null && NULL_WORDS.has(word)) return null;
  throw new ValidationError('Must be a valid boolean.', attr, 'invalid_input');
}

function typeParam(raw: string | undefined): PropertyDefinitionType {
  if (raw === undefined) return 'event';
  if (raw === 'event' || raw === 'person' || raw === 'group') return raw;
  if (UNSUPPORTED_TYPES.has(raw)) {
    throw new ValidationError(`Property definitions of type "${raw}" are not supported yet; use event, person or group.`, 'type', 'invalid_choice');
  }
  throw new ValidationError(`"${raw.slice(0, 100)}" is not a valid choice.`, 'type', 'invalid_choice');
}

/** `event_names` is JSON text (PostHog's clients send `["$pageview"]`); an empty list names none. */
function eventNamesParam(raw: string | undefined): string[] | null {
  if (raw === undefined || raw === '') return null;
  const fail = () => new ValidationError('event_names must be a JSON list of event names, e.g. ["$pageview"].', 'event_names', 'invalid_input');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw fail();
  }
  if (!Array.isArray(value) || value.length > MAX_EVENT_NAMES || !value.every((name) => typeof name === 'string')) throw fail();
  return value.length > 0 ? (value as string[]) : null;
}

/** `group_type_index`, required with type=group (PostHog's message), 0 to 4. */
function groupTypeIndexParam(type: PropertyDefinitionType, raw: string | undefined): number | null {
  if (type !== 'group') return null;
  if (raw === undefined || raw === '') throw new ValidationError('`group_type_index` must be set for `group` type', 'group_type_index', 'invalid_input');
  const index = /^[0-4]$/.test(raw) ? Number(raw) : null;
  if (index === null) throw new ValidationError('Ensure this value is between 0 and 4.', 'group_type_index', 'invalid_input');
  return index;
}

/** A comma-separated list of names (`properties=a,b`); null when absent or empty. */
export function namesParam(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const names = raw.split(',').map((name) => name.trim()).filter((name) => name !== '');
  return names.length > 0 ? names.slice(0, MAX_EVENT_NAMES) : null;
}

export function parsePropertyListParams(query: Record<string, unknown>): PropertyListParams {
  const type = typeParam(text(query, 'type'));
  const eventNamesText = text(query, 'event_names');
  if (type !== 'event' && eventNamesText) {
    throw new ValidationError('`event_names` can only be set for `event` type', null, 'invalid_input');
  }
  return {
    type,
    groupTypeIndex: groupTypeIndexParam(type, text(query, 'group_type_index')),
    search: searchParam(query.search),
    eventNames: eventNamesParam(eventNamesText),
    filterByEventNames: booleanParam(text(query, 'filter_by_event_names'), 'filter_by_event_names', null) === true,
    excludeCoreProperties: booleanParam(text(query, 'exclude_core_properties'), 'exclude_core_properties', false)!,
    excludeHidden: booleanParam(text(query, 'exclude_hidden'), 'exclude_hidden', false)!,
    isFeatureFlag: booleanParam(text(query, 'is_feature_flag'), 'is_feature_flag', null),
    names: namesParam(text(query, 'properties')),
    numerical: booleanParam(text(query, 'is_numerical'), 'is_numerical', false)!,
  };
}

/**
 * Which keys the listing keeps. As in PostHog, the always-hidden ingestion properties and
 * `exclude_core_properties` concern event properties only.
 */
export function propertyKeyFilter(params: PropertyListParams): PropertyKeyFilter {
  const excludeNames: string[] = [];
  const excludePrefixes: string[] = [];
  if (params.type === 'event') {
    excludeNames.push(...ALWAYS_HIDDEN_EVENT_PROPERTIES);
    excludePrefixes.push(...ALWAYS_HIDDEN_EVENT_PREFIXES);
    if (params.excludeCoreProperties) excludePrefixes.push(CORE_PROPERTY_PREFIX);
  }
  if (params.isFeatureFlag === false) excludePrefixes.push(FEATURE_FLAG_PREFIX);
  return {
    search: params.search,
    excludeNames,
    excludePrefixes,
    requirePrefix: params.isFeatureFlag === true ? FEATURE_FLAG_PREFIX : null,
  };
}
