// Reads a cohort's `filters` (PostHog's CohortFilters: {"properties": group}) from untrusted JSON,
// strictly as PostHog's pydantic models do (unknown keys refused, required keys named), and
// converts the legacy `groups` list into the same shape.
import { readFilter } from '../nodes/read-properties.js';
import { fail, isObject, join, readArray, readChoice, readObject, readOptionalInteger, type Json, type JsonObject } from '../nodes/read-json.js';
import type { PropertyFilter } from '../nodes/schema.js';
import {
  BEHAVIOURS, COUNT_OPERATORS, TIME_INTERVALS, UNSUPPORTED_BEHAVIOURS,
  type Behaviour, type BehaviouralCondition, type CohortCondition, type CohortGroup, type TimeWindow,
} from './schema.js';

const MAX_DEPTH = 10;
const MAX_CONDITIONS = 200;
/** Keys PostHog adds to the leaves it stores (compiled bytecode); accepted back and dropped. */
const DERIVED_KEYS = new Set(['bytecode', 'bytecode_error', 'conditionHash']);
const MAX_WINDOW = 10_000;

const LEAF_KEYS: Record<string, readonly string[]> = {
  person: ['type', 'key', 'operator', 'value', 'negation'],
  cohort: ['type', 'key', 'value', 'negation'],
  behavioral: [
    'type', 'key', 'value', 'event_type', 'time_value', 'time_interval', 'negation', 'operator', 'operator_value',
    'seq_time_interval', 'seq_time_value', 'seq_event', 'seq_event_type', 'total_periods', 'min_periods', 'event_filters',
    'explicit_datetime', 'explicit_datetime_to',
  ],
};

/** Needed beyond key, value and event_type, per behaviour (PostHog's VALIDATE_BEHAVIORAL_PROP_TYPES). */
const REQUIRED_FOR: Record<Behaviour, readonly string[]> = {
  performed_event: [],
  performed_event_multiple: ['operator_value'],
  performed_event_first_time: ['time_value', 'time_interval'],
  stopped_performing_event: ['time_value', 'time_interval', 'seq_time_value', 'seq_time_interval'],
  restarted_performing_event: ['time_value', 'time_interval', 'seq_time_value', 'seq_time_interval'],
};

export const EMPTY_COHORT_GROUP: CohortGroup = Object.freeze({ type: 'AND', values: Object.freeze([]) });

/** `filters` as sent: must hold `properties`, a group. */
export function readCohortFilters(value: Json, path = 'filters'): CohortGroup {
  if (!isObject(value) || !('properties' in value)) fail(path, "Must contain a 'properties' key with type and values");
  const counter = { conditions: 0 };
  return readGroup(value.properties, join(path, 'properties'), 0, counter);
}

function readGroup(value: Json, path: string, depth: number, counter: { conditions: number }): CohortGroup {
  if (depth > MAX_DEPTH) fail(path, `Cohort groups may be nested at most ${MAX_DEPTH} deep.`);
  const group = readObject(value, path);
  // PostHog shows an empty cohort's criteria as {} (an empty group).
  if (Object.keys(group).length === 0) return EMPTY_COHORT_GROUP;
  if (group.type !== 'AND' && group.type !== 'OR') fail(join(path, 'type'), 'A cohort group needs type AND or OR.', 'invalid_choice');
  const values = readArray(group.values, join(path, 'values'));
  return Object.freeze({
    type: group.type,
    values: Object.freeze(values.map((entry, i) => {
      const at = join(join(path, 'values'), i);
      if (isObject(entry) && (entry.type === 'AND' || entry.type === 'OR')) return readGroup(entry, at, depth + 1, counter);
      if (++counter.conditions > MAX_CONDITIONS) fail(at, `A cohort may have at most ${MAX_CONDITIONS} conditions.`);
      return readCondition(entry, at);
    })),
  });
}

function readCondition(value: Json, path: string): CohortCondition {
  const leaf = readObject(value, path);
  const type = leaf.type;
  if (type !== 'person' && type !== 'cohort' && type !== 'behavioral') {
    fail(join(path, 'type'), `Cohort conditions are of type person, behavioral or cohort, not "${String(type).slice(0, 50)}".`, 'invalid_choice');
  }
  const allowed = LEAF_KEYS[type]!;
  const extra = Object.keys(leaf).find((key) => !allowed.includes(key) && !DERIVED_KEYS.has(key));
  if (extra !== undefined) fail(join(path, extra.slice(0, 100)), `Unknown key "${extra.slice(0, 100)}" in a ${type} filter.`);
  const negation = readNegation(leaf, path);
  if (type === 'person') return readPersonCondition(leaf, path, negation);
  if (type === 'cohort') return readCohortReference(leaf, path, negation);
  return readBehaviour(leaf, path, negation);
}

function missing(leaf: JsonObject, keys: readonly string[]): string[] {
  return keys.filter((key) => leaf[key] === undefined || leaf[key] === null);
}

function requireKeys(leaf: JsonObject, keys: readonly string[], kind: string, path: string): void {
  const absent = missing(leaf, keys);
  if (absent.length > 0) fail(join(path, absent[0]!), `Missing required keys for ${kind} filter: ${absent.join(', ')}`, 'required');
}

function readNegation(leaf: JsonObject, path: string): boolean {
  const value = leaf.negation;
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') fail(join(path, 'negation'), 'Must be a valid boolean.');
  return value;
}

function readPersonCondition(leaf: JsonObject, path: string, negation: boolean): CohortCondition {
  const operatorless = leaf.operator === 'is_set' || leaf.operator === 'is_not_set';
  requireKeys(leaf, operatorless ? ['key', 'operator'] : ['key', 'value', 'operator'], 'person', path);
  const filter = readFilter({ type: 'person', key: leaf.key, operator: leaf.operator, value: leaf.value }, path);
  return Object.freeze({ type: 'person', filter, negation });
}

function readCohortReference(leaf: JsonObject, path: string, negation: boolean): CohortCondition {
  requireKeys(leaf, ['value'], 'cohort', path);
  if (leaf.key !== undefined && leaf.key !== 'id') fail(join(path, 'key'), 'A cohort filter\'s key is "id".', 'invalid_choice');
  const id = readOptionalInteger(leaf.value, join(path, 'value'), 1, 2 ** 31 - 1)!;
  return Object.freeze({ type: 'cohort', cohortId: id, negation });
}

function readBehaviour(leaf: JsonObject, path: string, negation: boolean): BehaviouralCondition {
  requireKeys(leaf, ['key', 'value', 'event_type'], 'behavioral', path);
  if ((UNSUPPORTED_BEHAVIOURS as readonly unknown[]).includes(leaf.value)) {
    fail(join(path, 'value'), `The "${String(leaf.value)}" condition is not supported yet; use performed_event, performed_event_multiple, performed_event_first_time, stopped_performing_event or restarted_performing_event.`, 'not_supported');
  }
  const behaviour = readChoice(leaf.value, join(path, 'value'), BEHAVIOURS, 'performed_event');
  requireKeys(leaf, REQUIRED_FOR[behaviour], 'behavioral', path);
  const eventType = readChoice(leaf.event_type, join(path, 'event_type'), ['events', 'actions'] as const, 'events');
  const key = eventType === 'actions'
    ? readOptionalInteger(leaf.key, join(path, 'key'), 1, 2 ** 31 - 1)!
    : readEventName(leaf.key, join(path, 'key'));
  const window = readWindow(leaf, path, behaviour);
  const condition: BehaviouralCondition = {
    type: 'behavioral',
    behaviour,
    key,
    eventType,
    window,
    eventFilters: readEventFilters(leaf.event_filters, join(path, 'event_filters')),
    negation,
  };
  if (behaviour === 'stopped_performing_event' || behaviour === 'restarted_performing_event') {
    const earlier = readTimeWindow(leaf.seq_time_value, leaf.seq_time_interval, path, 'seq_time_value', 'seq_time_interval');
    return Object.freeze({ ...condition, earlierWindow: earlier });
  }
  if (behaviour === 'performed_event_multiple') {
    const count = readOptionalInteger(leaf.operator_value, join(path, 'operator_value'), 0, 1_000_000_000)!;
    const countOperator = readChoice(leaf.operator, join(path, 'operator'), COUNT_OPERATORS, 'gte');
    return Object.freeze({ ...condition, count, countOperator });
  }
  return Object.freeze(condition);
}

function readEventName(value: Json, path: string): string {
  if (typeof value !== 'string' && typeof value !== 'number') fail(path, 'Give the event name.');
  const name = String(value);
  if (name.length === 0 || name.length > 400) fail(path, 'An event name has 1 to 400 characters.');
  if (name.includes('\u0000')) fail(path, 'Null characters are not allowed.', 'null_characters_not_allowed');
  return name;
}

/** performed_event(_multiple) take time_value/time_interval or explicit_datetime; the others the time window. */
function readWindow(leaf: JsonObject, path: string, behaviour: Behaviour): TimeWindow | { since: string } {
  const hasWindow = leaf.time_value !== undefined && leaf.time_value !== null;
  if (!hasWindow && (behaviour === 'performed_event' || behaviour === 'performed_event_multiple')) {
    if (leaf.explicit_datetime === undefined || leaf.explicit_datetime === null) {
      fail(join(path, 'time_value'), 'Missing required keys for behavioral filter: time_value, time_interval (or explicit_datetime)', 'required');
    }
    return Object.freeze({ since: readExplicitDate(leaf.explicit_datetime, join(path, 'explicit_datetime')) });
  }
  return readTimeWindow(leaf.time_value, leaf.time_interval, path, 'time_value', 'time_interval');
}

function readTimeWindow(value: Json, interval: Json, path: string, valueKey: string, intervalKey: string): TimeWindow {
  const count = readOptionalInteger(value, join(path, valueKey), 1, MAX_WINDOW);
  if (count === null) fail(join(path, valueKey), `Missing required keys for behavioral filter: ${valueKey}`, 'required');
  if (interval === undefined || interval === null) fail(join(path, intervalKey), `Missing required keys for behavioral filter: ${intervalKey}`, 'required');
  return Object.freeze({ value: count, interval: readChoice(interval, join(path, intervalKey), TIME_INTERVALS, 'day') });
}

/** A relative date ("-30d", "-2w", "-1m", "-1y") or an ISO date. */
const RELATIVE_DATE = /^-?\d{1,5}[hdwmy]$/;
function readExplicitDate(value: Json, path: string): string {
  if (typeof value !== 'string' || (!RELATIVE_DATE.test(value) && Number.isNaN(Date.parse(value)))) {
    fail(path, "Expected a relative date (e.g. '-7d', '-30d') or an ISO 8601 date (e.g. '2024-01-15').");
  }
  return value;
}

function readEventFilters(value: Json, path: string): readonly PropertyFilter[] {
  if (value === undefined || value === null) return Object.freeze([]);
  const filters = readArray(value, path);
  if (filters.length > 50) fail(path, 'At most 50 event filters are allowed.');
  return Object.freeze(filters.map((entry, i) => {
    const filter = readFilter(entry, join(path, i));
    if (filter.type !== 'event') fail(join(join(path, i), 'type'), 'Event filters of a behavioral condition are of type event.', 'invalid_choice');
    return filter;
  }));
}

/**
 * The legacy `groups` list as filters (PostHog's Cohort.properties): groups OR-ed; a group's
 * properties become person conditions; an action or event with `days`/`count` a behavioural one.
 */
export function legacyGroupsAsFilters(groups: readonly unknown[], path = 'groups'): JsonObject {
  const values = groups.map((entry, i) => {
    const group = readObject(entry, join(path, i));
    if (group.properties !== undefined && group.properties !== null) {
      const list = Array.isArray(group.properties)
        ? group.properties
        : Object.entries(readObject(group.properties, join(join(path, i), 'properties'))).map(([key, v]) => ({ key, value: v, type: 'person' }));
      return {
        type: 'AND',
        values: list.map((p) => (isObject(p) ? { ...p, type: p.type === undefined || p.type === 'event' ? 'person' : p.type, operator: p.operator ?? 'exact' } : p)),
      };
    }
    const actionId = group.action_id ?? null;
    const eventId = group.event_id ?? null;
    if (actionId === null && eventId === null) fail(join(path, i), 'Cohort group needs properties or action_id or event_id');
    const counted = group.count !== undefined && group.count !== null;
    return {
      type: 'AND',
      values: [{
        type: 'behavioral',
        key: actionId ?? eventId,
        event_type: actionId !== null ? 'actions' : 'events',
        value: counted ? 'performed_event_multiple' : 'performed_event',
        time_interval: 'day',
        time_value: group.days ?? 365,
        ...(counted ? { operator: group.count_operator ?? 'gte', operator_value: group.count } : {}),
      }],
    };
  });
  return { properties: { type: 'OR', values } };
}
