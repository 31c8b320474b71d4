// The legacy filter dict (the /insights/trend/ and /insights/funnel/ bodies and query strings)
// and the modern query node are one thing in two spellings: this turns the first into the second,
// and names errors by the legacy field the caller actually sent.
import { ValidationError } from '../../errors.js';
import { readFunnelsQuery, readTrendsQuery } from './read-query.js';
import { fail, isObject, readArray, readOptionalInteger, type Json, type JsonObject } from './read-json.js';
import type { FunnelsQuery, TrendsQuery } from './schema.js';

export type Origin = { list: 'events' | 'actions'; index: number };

/** Query-string values arrive as text; JSON-looking ones (lists, objects, booleans) are parsed. */
export function filtersFromQueryString(query: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [key, raw] of Object.entries(query)) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (typeof value !== 'string') { out[key] = value; continue; }
    const trimmed = value.trim();
    if (/^[[{]/.test(trimmed) || trimmed === 'true' || trimmed === 'false' || trimmed === 'null') {
      try { out[key] = JSON.parse(trimmed); continue; } catch {
        throw new ValidationError(`The ${key} parameter is not valid JSON.`, key, 'parse_error');
      }
    }
    out[key] = value;
  }
  return out;
}

/**
 * A series-based legacy filter (trends, stickiness, lifecycle) read as `read` reads its node: the
 * node fields they share (series, dates, interval, properties, test accounts) plus `extra`, with
 * errors named by the legacy field.
 */
export function fromSeriesFilters<T>(filters: JsonObject, kind: string, extra: JsonObject, read: (node: JsonObject, path: string) => T): T {
  const { series, origins } = seriesFromEntities(filters);
  return withLegacyAttrs(origins, () => read({
    kind,
    series,
    dateRange: dateRange(filters),
    // PostHog's filter_to_query downgrades the old minute interval to hour.
    interval: filters.interval === 'minute' ? 'hour' : filters.interval,
    properties: filters.properties,
    filterTestAccounts: filters.filter_test_accounts,
    ...extra,
  }, ''));
}

export function trendsQueryFromFilters(filters: JsonObject): TrendsQuery {
  return fromSeriesFilters(filters, 'TrendsQuery', {
    trendsFilter: {
      display: filters.display,
      formula: filters.formula,
      ...(filters.formulas !== undefined ? { formulas: filters.formulas } : {}),
      smoothingIntervals: filters.smoothing_intervals,
    },
    breakdownFilter: breakdownFilter(filters),
    compareFilter: filters.compare === undefined ? null : { compare: filters.compare, compare_to: filters.compare_to },
    // The spec's legacy bodies read aggregation_group_type_index 0 as "users", which trends count
    // anyway; any other index is passed on for the node reader to refuse.
    ...([0, '0'].includes(filters.aggregation_group_type_index as never) ? {} : { aggregation_group_type_index: filters.aggregation_group_type_index }),
  }, readTrendsQuery);
}

export function funnelsQueryFromFilters(filters: JsonObject): FunnelsQuery {
  const { series, origins } = seriesFromEntities(filters);
  // The spec's legacy funnel body: 0 (the default) aggregates by users, N > 0 by group type N.
  // The query node reads 0 as the first group type (PostHog's schema), so 0 is dropped here.
  const groupIndex = readOptionalInteger(filters.aggregation_group_type_index, 'aggregation_group_type_index', 0, 4);
  const windowDays = readOptionalInteger(filters.funnel_window_days, 'funnel_window_days', 1, 100_000);
  const unit = typeof filters.funnel_window_interval_type === 'string'
    ? filters.funnel_window_interval_type.toLowerCase().replace(/s$/, '')
    : filters.funnel_window_interval_type;
  return withLegacyAttrs(origins, () => readFunnelsQuery({
    kind: 'FunnelsQuery',
    series,
    dateRange: dateRange(filters),
    interval: filters.interval,
    properties: filters.properties,
    filterTestAccounts: filters.filter_test_accounts,
    funnelsFilter: {
      funnelVizType: filters.funnel_viz_type,
      funnelOrderType: filters.funnel_order_type,
      funnelWindowInterval: filters.funnel_window_interval ?? windowDays ?? undefined,
      funnelWindowIntervalUnit: filters.funnel_window_interval === undefined && windowDays !== null ? 'day' : unit,
      funnelFromStep: filters.funnel_from_step,
      funnelToStep: filters.funnel_to_step,
      exclusions: exclusions(filters.exclusions),
      breakdownAttributionType: filters.breakdown_attribution_type,
      breakdownAttributionValue: filters.breakdown_attribution_value,
      binCount: filters.bin_count,
    },
    breakdownFilter: breakdownFilter(filters),
    ...(groupIndex ? { aggregation_group_type_index: groupIndex } : {}),
  }, ''));
}

/** events and actions merged into one series list in `order` (PostHog's filter_to_query). */
export function seriesFromEntities(filters: JsonObject): { series: JsonObject[]; origins: Origin[] } {
  const entries: { entity: JsonObject; origin: Origin; order: number }[] = [];
  for (const list of ['events', 'actions'] as const) {
    if (filters[list] === undefined || filters[list] === null) continue;
    readArray(filters[list], list).forEach((item, index) => {
      if (!isObject(item)) fail(`${list}[${index}]`, 'Expected an object.');
      const order = typeof item.order === 'number' ? item.order : entries.length;
      entries.push({ entity: item, origin: { list, index }, order });
    });
  }
  entries.sort((a, b) => a.order - b.order);
  return {
    series: entries.map(({ entity, origin }) => origin.list === 'actions'
      ? { kind: 'ActionsNode', ...seriesFields(entity), id: entity.id }
      : { kind: 'EventsNode', ...seriesFields(entity), event: entity.id ?? null }),
    origins: entries.map((e) => e.origin),
  };
}

function seriesFields(entity: JsonObject): JsonObject {
  return {
    name: entity.name,
    custom_name: entity.custom_name,
    math: entity.math,
    math_property: entity.math_property,
    math_property_type: entity.math_property_type,
    // filter_to_query carries the hogql math's expression too; without it math "hogql" is refused.
    math_hogql: entity.math_hogql,
    math_group_type_index: entity.math_group_type_index,
    properties: entity.properties,
  };
}

export function dateRange(filters: JsonObject): JsonObject {
  return { date_from: filters.date_from, date_to: filters.date_to, explicitDate: filters.explicit_date };
}

function breakdownFilter(filters: JsonObject): JsonObject | null {
  if (filters.breakdown === undefined || filters.breakdown === null) return null;
  const type = filters.breakdown_type === 'events' ? 'event' : filters.breakdown_type;
  return {
    breakdown: filters.breakdown,
    breakdown_type: type,
    breakdown_limit: filters.breakdown_limit,
    breakdown_group_type_index: filters.breakdown_group_type_index,
    breakdown_hide_other_aggregation: filters.breakdown_hide_other_aggregation,
    breakdown_histogram_bin_count: filters.breakdown_histogram_bin_count,
  };
}

function exclusions(value: Json): Json {
  if (!Array.isArray(value)) return value;
  return value.map((e) => (isObject(e)
    ? { ...e, kind: e.type === 'actions' ? 'ActionsNode' : 'EventsNode', event: e.id ?? null, funnelFromStep: e.funnel_from_step, funnelToStep: e.funnel_to_step }
    : e));
}

const FIELD_NAMES: Record<string, string> = {
  'dateRange.date_from': 'date_from',
  'dateRange.date_to': 'date_to',
  'dateRange.explicitDate': 'explicit_date',
  filterTestAccounts: 'filter_test_accounts',
  'trendsFilter.display': 'display',
  'trendsFilter.formula': 'formula',
  'trendsFilter.smoothingIntervals': 'smoothing_intervals',
  'compareFilter.compare': 'compare',
  'compareFilter.compare_to': 'compare_to',
  'funnelsFilter.funnelVizType': 'funnel_viz_type',
  'funnelsFilter.funnelOrderType': 'funnel_order_type',
  'funnelsFilter.funnelWindowInterval': 'funnel_window_interval',
  'funnelsFilter.funnelWindowIntervalUnit': 'funnel_window_interval_type',
  'funnelsFilter.funnelFromStep': 'funnel_from_step',
  'funnelsFilter.funnelToStep': 'funnel_to_step',
  'funnelsFilter.breakdownAttributionType': 'breakdown_attribution_type',
  'funnelsFilter.breakdownAttributionValue': 'breakdown_attribution_value',
  'funnelsFilter.binCount': 'bin_count',
  series: 'events',
};

/** Renames a modern attr (series[2].math) to the legacy field it came from (actions[0].math). */
export function withLegacyAttrs<T>(origins: Origin[], read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ValidationError) || error.attr === null) throw error;
    throw new ValidationError(error.detail, legacyAttr(error.attr, origins), error.code);
  }
}

function legacyAttr(attr: string, origins: Origin[]): string {
  const series = /^series\[(\d+)\](.*)$/.exec(attr);
  if (series) {
    const origin = origins[Number(series[1])];
    return origin ? `${origin.list}[${origin.index}]${series[2]}` : attr;
  }
  if (FIELD_NAMES[attr]) return FIELD_NAMES[attr]!;
  const prefix = /^(breakdownFilter|funnelsFilter\.exclusions|trendsFilter)\.?(.*)$/.exec(attr);
  if (prefix) return prefix[1] === 'funnelsFilter.exclusions' ? `exclusions${prefix[2]}` : prefix[2] || attr;
  return attr;
}
