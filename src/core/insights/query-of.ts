// Which query an insight runs: its query node when that is a kind Hoglet calculates, else its
// legacy filters converted; and a dashboard's filters laid over it (from_dashboard).
import { ValidationError } from '../../errors.js';
import { jsonDepth } from '../json-depth.js';

/** How deeply stored JSON (filters, query nodes, tile layouts) may nest. */
export const MAX_JSON_DEPTH = 64;
import { isObject, type JsonObject } from '../../query/nodes/read-json.js';
import { readProperties } from '../../query/nodes/read-properties.js';
import type { InsightQuery } from '../../query/nodes/schema.js';
import { isCalculatedKind, isWrapperNode, kindOfLegacyInsight, legacyInsightOf, readInsightQuery, withRangedPart } from '../../query/runners/registry.js';

/** Query kinds an insight may store; the ones not calculated yet are kept and shown as sent. */
export const STORABLE_QUERY_KINDS = new Set([
  'InsightVizNode', 'DataTableNode', 'DataVisualizationNode', 'SavedInsightNode', 'HogQLQuery', 'HogQuery', 'EventsQuery',
  'TrendsQuery', 'FunnelsQuery', 'RetentionQuery', 'PathsQuery', 'StickinessQuery', 'LifecycleQuery', 'FunnelCorrelationQuery',
  'WebOverviewQuery', 'WebStatsTableQuery',
]);
export const INSIGHT_SOURCE_KINDS = new Set(['TrendsQuery', 'FunnelsQuery', 'RetentionQuery', 'PathsQuery', 'StickinessQuery', 'LifecycleQuery', 'FunnelCorrelationQuery']);

/** The calculated source of a stored query node, or null when it is not one Hoglet calculates. */
function calculatedSource(query: JsonObject): JsonObject | null {
  const source = isWrapperNode(query) && isObject(query.source) ? query.source : query;
  return isCalculatedKind(source.kind) ? source : null;
}

/**
 * Validates what a client stores, so that a saved insight that Hoglet calculates always can be:
 * a calculated query kind must pass the query reader, legacy filters of a calculated kind must convert.
 */
export function checkStoredQuery(query: JsonObject | null, filters: JsonObject | null): void {
  if (query) {
    const source = calculatedSource(query);
    if (source) readInsightQuery(source, 'query');
    return;
  }
  if (filters) convertFilters(filters);
}

function convertFilters(filters: JsonObject): InsightQuery | null {
  const name = legacyInsightOf(filters);
  const kind = name === null ? null : kindOfLegacyInsight(name);
  return kind ? kind.fromFilters(filters) : null;
}

/** The query an insight calculates, or null when its kind is not calculated (yet). */
export function insightQueryOf(query: unknown, filters: unknown): InsightQuery | null {
  try {
    if (isObject(query)) {
      const source = calculatedSource(query);
      return source ? readInsightQuery(source, 'query') : null;
    }
    return isObject(filters) ? convertFilters(filters) : null;
  } catch {
    // Stored before a validation rule existed: shown without a result rather than failing the read.
    return null;
  }
}

/**
 * A dashboard's overrides: its date range replaces the insight's, its properties are added (to the
 * part of the query that has them: a correlation's funnel).
 */
export function withDashboardFilters(query: InsightQuery, filters: JsonObject): InsightQuery {
  const dateFrom = filters.date_from;
  const extra = readProperties(filters.properties ?? null, 'filters.properties');
  return withRangedPart(query, (ranged) => {
    let result = ranged;
    if (typeof dateFrom === 'string' && dateFrom !== '') {
      const dateTo = typeof filters.date_to === 'string' && filters.date_to !== '' ? filters.date_to : null;
      result = { ...result, dateRange: { date_from: dateFrom, date_to: dateTo, explicitDate: filters.explicitDate === true } };
    }
    if (extra.values.length > 0) result = { ...result, properties: { type: 'AND', values: [result.properties, extra] } };
    return result;
  });
}

/** Checks a dashboard's `filters` when it is written. */
export function checkDashboardFilters(filters: unknown): JsonObject {
  if (!isObject(filters)) throw new ValidationError('Expected a dictionary of items.', 'filters', 'not_a_dict');
  if (jsonDepth(filters, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new ValidationError(`Nested deeper than ${MAX_JSON_DEPTH} levels.`, 'filters');
  for (const key of ['date_from', 'date_to'] as const) {
    const value = filters[key];
    if (value !== undefined && value !== null && typeof value !== 'string') throw new ValidationError('Not a valid string.', `filters__${key}`);
  }
  readProperties(filters.properties ?? null, 'filters.properties');
  return filters;
}
