// Reads and validates WebAnalyticsQueryBase. PostHog's web query models forbid unknown keys
// (pydantic extra="forbid"), so a key neither the base nor the kind knows is a 400, as there.
import { readCompareFilter, readDateRange } from '../../nodes/read-query.js';
import { readProperties } from '../../nodes/read-properties.js';
import {
  fail, isObject, join, readArray, readBoolean, readChoice, readOptionalInteger, readOptionalObject, readString,
  type Json, type JsonObject,
} from '../../nodes/read-json.js';
import type { PropertyFilter, PropertyGroup } from '../../nodes/schema.js';
import {
  BOUNCE_MODES, WEB_ORDER_BY_FIELDS,
  type ConversionGoal, type WebAnalyticsQueryBase, type WebModifiers, type WebOrderBy,
} from './types.js';

/** Keys of WebAnalyticsQueryBase and of DataNode (PostHog's frontend base of every query node). */
const BASE_KEYS = [
  'kind', 'dateRange', 'properties', 'conversionGoal', 'compareFilter', 'doPathCleaning', 'sampling',
  'filterTestAccounts', 'includeRevenue', 'orderBy', 'useSessionsTable', 'modifiers', 'response', 'tags', 'version',
] as const;

/** The property filter types a web query takes (PostHog's WebAnalyticsPropertyFilter, cohorts included). */
const WEB_FILTER_TYPES: ReadonlySet<string> = new Set(['event', 'person', 'session', 'cohort']);

const EVENT_NAME_LENGTH = 400;
const DEFAULT_BOUNCE_SECONDS = 10;

/**
 * The base fields of a web query node, validated (attrs under `path`); `ownKeys` are the fields
 * of the kind itself (breakdownBy, limit...), so every other key is refused.
 */
export function readWebAnalyticsBase(node: JsonObject, path: string, ownKeys: readonly string[] = []): WebAnalyticsQueryBase {
  refuseUnknownKeys(node, path, [...BASE_KEYS, ...ownKeys]);
  readSampling(node.sampling, join(path, 'sampling'));
  readBoolean(node.useSessionsTable, join(path, 'useSessionsTable'), true); // deprecated, always on
  return Object.freeze({
    dateRange: readWebDateRange(node.dateRange, join(path, 'dateRange')),
    properties: readWebProperties(node.properties, join(path, 'properties')),
    compareFilter: readWebCompareFilter(node.compareFilter, join(path, 'compareFilter')),
    filterTestAccounts: readBoolean(node.filterTestAccounts, join(path, 'filterTestAccounts'), false),
    conversionGoal: readConversionGoal(node.conversionGoal, join(path, 'conversionGoal')),
    doPathCleaning: readBoolean(node.doPathCleaning, join(path, 'doPathCleaning'), false),
    orderBy: readOrderBy(node.orderBy, join(path, 'orderBy')),
    includeRevenue: readBoolean(node.includeRevenue, join(path, 'includeRevenue'), false),
    modifiers: readModifiers(node.modifiers, join(path, 'modifiers')),
  });
}

/** pydantic's extra="forbid": "Extra inputs are not permitted" at the key's path. */
export function refuseUnknownKeys(node: JsonObject, path: string, known: readonly string[]): void {
  for (const key of Object.keys(node)) {
    if (!known.includes(key)) fail(join(path, key.slice(0, 100)), 'Extra inputs are not permitted', 'extra_forbidden');
  }
}

function readWebDateRange(value: Json, path: string) {
  const range = readOptionalObject(value, path);
  if (range) refuseUnknownKeys(range, path, ['date_from', 'date_to', 'explicitDate']);
  return readDateRange(value, path);
}

function readWebCompareFilter(value: Json, path: string) {
  const filter = readOptionalObject(value, path);
  if (filter) refuseUnknownKeys(filter, path, ['compare', 'compare_to']);
  return readCompareFilter(value, path);
}

/** `properties` is required (an empty list is fine): a flat list of event, person, session or cohort filters. */
function readWebProperties(value: Json, path: string): PropertyGroup {
  if (value === undefined || value === null) fail(path, 'Field required', 'required');
  const list = readArray(value, path);
  list.forEach((item, i) => {
    const type = isObject(item) ? item.type ?? 'event' : undefined;
    if (type !== undefined && !WEB_FILTER_TYPES.has(String(type))) {
      fail(join(join(path, i), 'type'), `Property filters of type "${String(type).slice(0, 50)}" are not supported in web analytics; use event, person, session or cohort.`, 'invalid_choice');
    }
  });
  return readProperties(list, path, { sessions: true });
}

function readConversionGoal(value: Json, path: string): ConversionGoal | null {
  const goal = readOptionalObject(value, path);
  if (!goal) return null;
  if (goal.actionId !== undefined) {
    refuseUnknownKeys(goal, path, ['actionId']);
    const id = readOptionalInteger(goal.actionId, join(path, 'actionId'), 1, Number.MAX_SAFE_INTEGER);
    if (id === null) fail(join(path, 'actionId'), 'Field required', 'required');
    return Object.freeze({ actionId: id });
  }
  if (goal.customEventName !== undefined) {
    refuseUnknownKeys(goal, path, ['customEventName']);
    return Object.freeze({ customEventName: readString(goal.customEventName, join(path, 'customEventName'), EVENT_NAME_LENGTH) });
  }
  return fail(path, 'A conversion goal is {"actionId": <id>} or {"customEventName": <event>}.', 'required');
}

function readOrderBy(value: Json, path: string): WebOrderBy | null {
  if (value === undefined || value === null) return null;
  const pair = readArray(value, path);
  if (pair.length !== 2) fail(path, 'orderBy is a [field, direction] pair.');
  const field = readChoice(pair[0], join(path, 0), WEB_ORDER_BY_FIELDS, null);
  const direction = readChoice(pair[1], join(path, 1), ['ASC', 'DESC'] as const, null);
  if (field === null) fail(join(path, 0), 'Field required', 'required');
  if (direction === null) fail(join(path, 1), 'Field required', 'required');
  return Object.freeze([field, direction] as const);
}

/** Sampling is accepted and ignored: Hoglet answers exactly (samplingRate 1). */
function readSampling(value: Json, path: string): void {
  const sampling = readOptionalObject(value, path);
  if (!sampling) return;
  refuseUnknownKeys(sampling, path, ['enabled', 'forceSamplingRate']);
  readBoolean(sampling.enabled, join(path, 'enabled'), false);
  const rate = readOptionalObject(sampling.forceSamplingRate, join(path, 'forceSamplingRate'));
  if (rate) {
    refuseUnknownKeys(rate, join(path, 'forceSamplingRate'), ['numerator', 'denominator']);
    for (const key of ['numerator', 'denominator'] as const) {
      const n = rate[key];
      if (n !== undefined && n !== null && (typeof n !== 'number' || !Number.isFinite(n))) fail(join(join(path, 'forceSamplingRate'), key), 'Input should be a valid number');
    }
  }
}

/**
 * HogQLQueryModifiers: the bounce-rate ones change the numbers and are applied; the rest switch
 * PostHog's engine (session table versions, pre-aggregated tables...) and mean nothing here.
 */
function readModifiers(value: Json, path: string): WebModifiers {
  const modifiers = readOptionalObject(value, path) ?? {};
  if (modifiers.bounceRatePageViewMode === 'uniq_urls') {
    fail(join(path, 'bounceRatePageViewMode'), 'The uniq_urls bounce rate mode is not supported; use count_pageviews or uniq_page_screen_autocaptures.', 'invalid_choice');
  }
  const seconds = modifiers.bounceRateDurationSeconds;
  if (seconds !== undefined && seconds !== null && (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > 86_400)) {
    fail(join(path, 'bounceRateDurationSeconds'), 'Give a number of seconds from 0 to 86400.');
  }
  return Object.freeze({
    bounceRatePageViewMode: readChoice(modifiers.bounceRatePageViewMode, join(path, 'bounceRatePageViewMode'), BOUNCE_MODES, 'count_pageviews'),
    bounceRateDurationSeconds: typeof seconds === 'number' ? seconds : DEFAULT_BOUNCE_SECONDS,
  });
}

/** The filters of a web query that are event property filters on `key` (PostHog treats $pathname apart). */
export function eventFiltersOn(properties: PropertyGroup, key: string): PropertyFilter[] {
  return properties.values.filter((f): f is PropertyFilter => 'key' in f && f.type === 'event' && f.key === key);
}
