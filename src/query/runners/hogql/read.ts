// Reads a HogQLQuery node: the query text (bounded), its `values` for `{name}` placeholders, and
// its `filters` (dateRange, properties, filterTestAccounts), kept at the top level like the other
// kinds' so dashboards and test accounts reach them.
import { EMPTY_GROUP, readProperties } from '../../nodes/read-properties.js';
import { readDateRange } from '../../nodes/read-query.js';
import { fail, isObject, join, readBoolean, readOptionalObject, readString, type JsonObject } from '../../nodes/read-json.js';
import type { HogQLQuery, HogQLValue } from '../../nodes/schema.js';

/** Longer texts are refused before parsing (the parser's own guard repeats it). */
export const MAX_HOGQL_LENGTH = 50_000;
const MAX_VALUES = 100;

export function readHogQLQuery(node: JsonObject, path: string): HogQLQuery {
  const query = readString(node.query, join(path, 'query'), MAX_HOGQL_LENGTH);
  if (query.trim() === '') fail(join(path, 'query'), 'This field may not be blank.', 'blank');
  const filters = readOptionalObject(node.filters ?? null, join(path, 'filters')) ?? {};
  const values = readValues(node.values, join(path, 'values'));
  // PostHog's execute_hogql_query: {filters} stands for one or the other, never both.
  if (node.filters !== undefined && node.filters !== null && Object.hasOwn(values, 'filters')) {
    fail(join(path, 'values'), "Query contains 'filters' both as placeholder and as a query parameter.");
  }
  return Object.freeze({
    kind: 'HogQLQuery',
    query,
    values,
    dateRange: readDateRange(filters.dateRange ?? null, join(join(path, 'filters'), 'dateRange')),
    properties: filters.properties === undefined || filters.properties === null
      ? EMPTY_GROUP
      : readProperties(filters.properties, join(join(path, 'filters'), 'properties'), { sessions: true }),
    filterTestAccounts: readBoolean(filters.filterTestAccounts, join(join(path, 'filters'), 'filterTestAccounts'), false),
  });
}

function readValues(value: unknown, path: string): Readonly<Record<string, HogQLValue>> {
  if (value === undefined || value === null) return Object.freeze({});
  if (!isObject(value)) fail(path, 'Expected a dictionary of items.', 'not_a_dict');
  const entries = Object.entries(value);
  if (entries.length > MAX_VALUES) fail(path, `At most ${MAX_VALUES} values.`);
  const values: Record<string, HogQLValue> = {};
  for (const [name, item] of entries) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,99}$/.test(name)) fail(join(path, name), 'A placeholder name is letters, digits and underscores.');
    values[name] = readValue(item, join(path, name));
  }
  return Object.freeze(values);
}

function readValue(item: unknown, path: string): HogQLValue {
  if (item === null || typeof item === 'boolean') return item;
  if (typeof item === 'string') {
    if (item.length > 65_535) fail(path, 'Ensure this value has at most 65535 characters.', 'max_length');
    return item;
  }
  if (typeof item === 'number' && Number.isFinite(item)) return item;
  if (Array.isArray(item) && item.length <= 10_000 && (item.every((v) => typeof v === 'string') || item.every((v) => typeof v === 'number' && Number.isFinite(v)))) {
    return Object.freeze([...item]) as readonly string[] | readonly number[];
  }
  return fail(path, 'A value is a string, a number, a boolean, null, or a list of strings or of numbers.');
}
