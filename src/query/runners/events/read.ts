// Reads an EventsQuery node: its HogQL strings (columns, conditions, order), its filters and its
// page. `after`/`before` become the dateRange (PostHog's defaults: the last 24 hours, up to 5
// seconds from now) so dashboards override them as on other kinds.
import { EMPTY_GROUP, MAX_HOGQL_EXPRESSION, readProperties } from '../../nodes/read-properties.js';
import { readDate } from '../../nodes/read-query.js';
import { fail, join, readArray, readBoolean, readOptionalInteger, readOptionalString, readString, type Json, type JsonObject } from '../../nodes/read-json.js';
import type { EventsQuery } from '../../nodes/schema.js';

const MAX_ITEMS = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A list of HogQL strings (columns, conditions, order items); null when absent. */
export function readHogQLStrings(value: Json, path: string): string[] | null {
  if (value === undefined || value === null) return null;
  const list = readArray(value, path);
  if (list.length > MAX_ITEMS) fail(path, `At most ${MAX_ITEMS} items.`, 'max_length');
  return list.map((item, i) => {
    const text = readString(item, join(path, i), MAX_HOGQL_EXPRESSION);
    if (text.trim() === '') fail(join(path, i), 'This field may not be blank.', 'blank');
    return text;
  });
}

/** A page size: absent or not positive means the default; anything larger than PostHog's maximum is cut to it. */
export function readPage(node: JsonObject, path: string): { limit: number | null; offset: number } {
  const limit = readOptionalInteger(node.limit, join(path, 'limit'), Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const offset = readOptionalInteger(node.offset, join(path, 'offset'), Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  return { limit: limit !== null && limit > 0 ? limit : null, offset: offset !== null && offset > 0 ? offset : 0 };
}

export function readEventsQuery(node: JsonObject, path: string): EventsQuery {
  const event = readOptionalString(node.event, join(path, 'event'), 400);
  const events = readHogQLStrings(node.events, join(path, 'events')) ?? [];
  const personId = readOptionalString(node.personId, join(path, 'personId'), 100);
  if (personId !== null && !UUID.test(personId)) fail(join(path, 'personId'), 'Must be a valid UUID.', 'invalid');
  const optionalProperties = (key: string) => (node[key] === undefined || node[key] === null ? EMPTY_GROUP : readProperties(node[key], join(path, key)));
  return Object.freeze({
    kind: 'EventsQuery',
    select: readHogQLStrings(node.select, join(path, 'select')) ?? [],
    where: readHogQLStrings(node.where, join(path, 'where')) ?? [],
    orderBy: readHogQLStrings(node.orderBy, join(path, 'orderBy')),
    dateRange: Object.freeze({
      date_from: readDate(node.after, join(path, 'after'), true) || '-24h',
      date_to: readDate(node.before, join(path, 'before'), false) || null,
      explicitDate: true,
    }),
    event: [...(event ? [event] : []), ...events],
    properties: optionalProperties('properties'),
    fixedProperties: optionalProperties('fixedProperties'),
    filterTestAccounts: readBoolean(node.filterTestAccounts, join(path, 'filterTestAccounts'), false),
    personId,
    actionId: readOptionalInteger(node.actionId, join(path, 'actionId'), 1, 2 ** 31 - 1),
    ...readPage(node, path),
  });
}
