// Reads an ActorsQuery without a source (PostHog's persons page): columns, search, person property
// filters, order and page. An ActorsQuery with a source lists an insight's actors instead
// (query/actors/read.ts).
import { EMPTY_GROUP, readProperties } from '../../nodes/read-properties.js';
import { fail, join, readOptionalString, type JsonObject } from '../../nodes/read-json.js';
import type { PersonsListQuery } from '../../nodes/schema.js';
import { readHogQLStrings, readPage } from '../events/read.js';

export function readPersonsListQuery(node: JsonObject, path: string): PersonsListQuery {
  if (node.source !== undefined && node.source !== null) {
    fail(join(path, 'source'), 'An ActorsQuery with a source lists the actors of an insight: send it to /query/ as the query itself, not inside another node.');
  }
  const optionalProperties = (key: string) => (node[key] === undefined || node[key] === null ? EMPTY_GROUP : readProperties(node[key], join(path, key)));
  const select = readHogQLStrings(node.select, join(path, 'select'));
  return Object.freeze({
    kind: 'ActorsQuery',
    select: select && select.length > 0 ? select : null,
    search: readOptionalString(node.search, join(path, 'search'), 1_000),
    properties: optionalProperties('properties'),
    fixedProperties: optionalProperties('fixedProperties'),
    orderBy: readHogQLStrings(node.orderBy, join(path, 'orderBy')),
    ...readPage(node, path),
  });
}

/**
 * PostHog's PersonsNode (the persons page before ActorsQuery): a search, property filters and a
 * page, answered as the ActorsQuery it became.
 */
export function readPersonsNode(node: JsonObject, path: string): PersonsListQuery {
  return readPersonsListQuery({ ...node, kind: 'ActorsQuery', select: null, orderBy: null }, path);
}
