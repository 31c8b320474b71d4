// Validates modern query nodes (TrendsQuery, FunnelsQuery, and the parts kinds share: series,
// date ranges, breakdowns) and fills PostHog's defaults, so runners receive complete, typed input.
// Which reader a node goes to is the registry's business (runners/registry.ts).
import {
  BREAKDOWN_ATTRIBUTIONS, BREAKDOWN_TYPES, DISPLAYS, FUNNEL_ORDER_TYPES, FUNNEL_VIZ_TYPES, FUNNEL_WINDOW_UNITS,
  GROUP_CAPABLE_MATHS, INTERVALS, MATHS, PROPERTY_MATHS,
  type BreakdownFilter, type CohortBreakdownItem, type CompareFilter, type DateRange, type FormulaNode, type FunnelExclusion, type FunnelsQuery,
  type SeriesNode, type TrendsQuery,
} from './schema.js';
import {
  fail, join, readArray, readBoolean, readChoice, readObject, readOptionalInteger, readOptionalObject,
  readOptionalString, type Json, type JsonObject,
} from './read-json.js';
import { MAX_HOGQL_EXPRESSION, readProperties } from './read-properties.js';
import { readAggregationGroup, refuseExclusionsOfOwnSteps, refuseUnsupportedFunnelFields } from './read-funnel-fields.js';
import { DateTime } from 'luxon';
import { parseDate } from '../dates/parse-date.js';
import { parseFormula } from '../runners/trends/formula.js';

const MAX_SERIES = 50;
const MAX_FUNNEL_STEPS = 40;
const NAME_LENGTH = 400;

export function readTrendsQuery(node: JsonObject, path: string): TrendsQuery {
  const filter = readOptionalObject(node.trendsFilter, join(path, 'trendsFilter')) ?? {};
  const filterPath = join(path, 'trendsFilter');
  const series = readSeriesList(node.series, join(path, 'series'), 1, MAX_SERIES);
  checkGroupMaths(series, join(path, 'series'));
  // PostHog's trends leave a query-level aggregation_group_type_index unused (groups are counted
  // per series); taking it silently would answer person counts to someone asking for groups.
  if (node.aggregation_group_type_index !== undefined && node.aggregation_group_type_index !== null) {
    fail(join(path, 'aggregation_group_type_index'), 'Trends count groups per series: set math "unique_group" (or dau, weekly_active, monthly_active) with math_group_type_index on the series instead of aggregation_group_type_index.');
  }
  return Object.freeze({
    kind: 'TrendsQuery',
    series,
    ...readCommon(node, path),
    trendsFilter: Object.freeze({
      display: readChoice(filter.display, join(filterPath, 'display'), DISPLAYS, 'ActionsLineGraph'),
      formulaNodes: readFormulas(filter, filterPath, series.length),
      smoothingIntervals: readOptionalInteger(filter.smoothingIntervals, join(filterPath, 'smoothingIntervals'), 1, 366) ?? 1,
    }),
    // No default limit here: trends' default depends on the display (25, or 250 for WorldMap).
    breakdownFilter: readBreakdownFilter(node.breakdownFilter, join(path, 'breakdownFilter'), { defaultLimit: null, histograms: true, cohorts: true }),
    compareFilter: readCompareFilter(node.compareFilter, join(path, 'compareFilter')),
  });
}

export function readFunnelsQuery(node: JsonObject, path: string): FunnelsQuery {
  const filterPath = join(path, 'funnelsFilter');
  const filter = readOptionalObject(node.funnelsFilter, filterPath) ?? {};
  const vizType = readChoice(filter.funnelVizType, join(filterPath, 'funnelVizType'), FUNNEL_VIZ_TYPES, 'steps');
  const series = readSeriesList(node.series, join(path, 'series'), vizType === 'steps' ? 1 : 2, MAX_FUNNEL_STEPS);
  const steps = series.length;
  const fromStep = readOptionalInteger(filter.funnelFromStep, join(filterPath, 'funnelFromStep'), 0, Math.max(0, steps - 2));
  const toStep = readOptionalInteger(filter.funnelToStep, join(filterPath, 'funnelToStep'), 1, Math.max(1, steps - 1));
  if (fromStep !== null && toStep !== null && fromStep >= toStep) fail(join(filterPath, 'funnelFromStep'), 'funnelFromStep must be before funnelToStep.');
  refuseUnsupportedFunnelFields(node, filter, series, path);
  const exclusions = readExclusions(filter.exclusions, join(filterPath, 'exclusions'), steps);
  refuseExclusionsOfOwnSteps(exclusions, series, join(filterPath, 'exclusions'));
  return Object.freeze({
    kind: 'FunnelsQuery',
    series,
    ...readCommon(node, path),
    funnelsFilter: Object.freeze({
      funnelVizType: vizType,
      funnelOrderType: readChoice(filter.funnelOrderType, join(filterPath, 'funnelOrderType'), FUNNEL_ORDER_TYPES, 'ordered'),
      funnelWindowInterval: readOptionalInteger(filter.funnelWindowInterval, join(filterPath, 'funnelWindowInterval'), 1, 100_000) ?? 14,
      funnelWindowIntervalUnit: readChoice(filter.funnelWindowIntervalUnit, join(filterPath, 'funnelWindowIntervalUnit'), FUNNEL_WINDOW_UNITS, 'day'),
      funnelFromStep: fromStep,
      funnelToStep: toStep,
      exclusions,
      breakdownAttributionType: readChoice(filter.breakdownAttributionType, join(filterPath, 'breakdownAttributionType'), BREAKDOWN_ATTRIBUTIONS, 'first_touch'),
      breakdownAttributionValue: readOptionalInteger(filter.breakdownAttributionValue, join(filterPath, 'breakdownAttributionValue'), 0, steps - 1),
      binCount: readOptionalInteger(filter.binCount, join(filterPath, 'binCount'), 1, 90),
    }),
    breakdownFilter: readBreakdownFilter(node.breakdownFilter, join(path, 'breakdownFilter'), { defaultLimit: 10, cohorts: true }),
    ...readAggregationGroup(node, path),
  });
}

/** The fields every insight query shares: date range, interval, properties, test accounts. */
export function readCommon(node: JsonObject, path: string) {
  return {
    dateRange: readDateRange(node.dateRange, join(path, 'dateRange')),
    interval: readChoice(node.interval, join(path, 'interval'), INTERVALS, 'day'),
    properties: readProperties(node.properties, join(path, 'properties'), { sessions: true }),
    filterTestAccounts: readBoolean(node.filterTestAccounts, join(path, 'filterTestAccounts'), false),
  };
}

export function readSeriesList(value: Json, path: string, min: number, max: number): readonly SeriesNode[] {
  const list = value === undefined || value === null ? [] : readArray(value, path);
  if (list.length < min) fail(path, min === 1 ? 'At least one series is required: give events or actions.' : `At least ${min} steps are required.`, 'min_length');
  if (list.length > max) fail(path, `At most ${max} series are allowed.`, 'max_length');
  return Object.freeze(list.map((item, i) => readSeries(item, join(path, i))));
}

export function readSeries(value: Json, path: string): SeriesNode {
  const node = readObject(value, path);
  const math = readChoice(node.math, join(path, 'math'), MATHS, 'total');
  const mathProperty = readOptionalString(node.math_property, join(path, 'math_property'), NAME_LENGTH);
  const mathHogQL = readOptionalString(node.math_hogql, join(path, 'math_hogql'), MAX_HOGQL_EXPRESSION);
  if (math === 'hogql' && !mathHogQL?.trim()) fail(join(path, 'math_hogql'), 'The hogql math needs a math_hogql expression.', 'required');
  if ((PROPERTY_MATHS as readonly string[]).includes(math) && !mathProperty) {
    fail(join(path, 'math_property'), `The ${math} math needs a math_property.`, 'required');
  }
  const common = {
    name: readOptionalString(node.name, join(path, 'name'), NAME_LENGTH),
    custom_name: readOptionalString(node.custom_name, join(path, 'custom_name'), NAME_LENGTH),
    math,
    math_property: mathProperty,
    math_property_type: readChoice(node.math_property_type, join(path, 'math_property_type'), ['event_properties', 'person_properties'] as const, null),
    ...(math === 'hogql' ? { math_hogql: mathHogQL } : {}),
    ...readMathGroup(node.math_group_type_index, join(path, 'math_group_type_index')),
    properties: readProperties(node.properties, join(path, 'properties'), { sessions: true }),
    optionalInFunnel: readBoolean(node.optionalInFunnel, join(path, 'optionalInFunnel'), false),
  };
  if (node.kind === 'ActionsNode') {
    const id = readOptionalInteger(node.id, join(path, 'id'), 1, Number.MAX_SAFE_INTEGER);
    if (id === null) fail(join(path, 'id'), 'An ActionsNode needs the id of an action.', 'required');
    return Object.freeze({ kind: 'ActionsNode', id, ...common });
  }
  if (node.kind !== 'EventsNode' && node.kind !== undefined) {
    fail(join(path, 'kind'), `Series kind "${String(node.kind).slice(0, 50)}" is not supported; use EventsNode or ActionsNode.`, 'invalid_choice');
  }
  return Object.freeze({ kind: 'EventsNode', event: readOptionalString(node.event, join(path, 'event'), NAME_LENGTH), ...common });
}

/** Only present when set, so nodes without it (and their cache keys) stay as they were. */
function readMathGroup(value: Json, path: string): { math_group_type_index?: number } {
  const index = readOptionalInteger(value, path, 0, 4);
  return index === null ? {} : { math_group_type_index: index };
}

/**
 * Trends count groups instead of persons per series: `unique_group` needs a group type index, and
 * the index only means something to maths that count actors (PostHog ignores it on the others;
 * Hoglet refuses it rather than answer as if it had been applied).
 */
function checkGroupMaths(series: readonly SeriesNode[], path: string): void {
  series.forEach((s, i) => {
    const at = join(join(path, i), 'math_group_type_index');
    if (s.math === 'unique_group' && s.math_group_type_index === undefined) {
      fail(at, 'The unique_group math needs a math_group_type_index from 0 to 4: the group type to count.', 'required');
    }
    if (s.math_group_type_index !== undefined && !GROUP_CAPABLE_MATHS.has(s.math)) {
      fail(at, `math_group_type_index applies to the unique_group, dau, weekly_active and monthly_active maths, not to ${s.math}.`);
    }
  });
}

export function readDateRange(value: Json, path: string): DateRange {
  const range = readOptionalObject(value, path) ?? {};
  return Object.freeze({
    date_from: readDate(range.date_from, join(path, 'date_from'), true),
    date_to: readDate(range.date_to, join(path, 'date_to'), false),
    explicitDate: readBoolean(range.explicitDate, join(path, 'explicitDate'), false),
  });
}

/**
 * A date string, checked here so a bad one is refused with the path the caller sent it at
 * (query.dateRange.date_from, or date_from on the legacy endpoints). It is resolved later, against
 * the project's clock; whether a string parses does not depend on the clock.
 */
export function readDate(value: Json, path: string, allowAll: boolean): string | null {
  const text = readOptionalString(value, path, 100);
  if (text === null || text.trim() === '' || (allowAll && text.trim() === 'all')) return text;
  parseDate(text, { timezone: 'UTC', weekStartDay: 0, now: DateTime.utc() }, { attr: path });
  return text;
}

/** PostHog sets no bound; every event is compared with the bins, so Hoglet keeps them to 100. */
const MAX_HISTOGRAM_BINS = 100;

export interface BreakdownReading {
  /** breakdown_limit when none is sent (null: the kind decides later). */
  readonly defaultLimit: number | null;
  /** The kind bins numeric breakdowns (breakdown_histogram_bin_count). */
  readonly histograms?: boolean;
  /** A `breakdowns` list of one item means that single breakdown. */
  readonly oneItemList?: boolean;
  /** The kind breaks down by cohorts (trends and funnels). */
  readonly cohorts?: boolean;
}

export function readBreakdownFilter(value: Json, path: string, reading: BreakdownReading): BreakdownFilter | null {
  const { defaultLimit, histograms = false, oneItemList = false } = reading;
  let filter = readOptionalObject(value, path);
  // Retention reads PostHog's list form with one item as the single breakdown it means.
  if (filter && oneItemList && Array.isArray(filter.breakdowns) && filter.breakdowns.length === 1 && (filter.breakdown === undefined || filter.breakdown === null)) {
    const item = readObject(filter.breakdowns[0], join(join(path, 'breakdowns'), 0));
    filter = { ...filter, breakdowns: undefined, breakdown: item.property, breakdown_type: item.type, breakdown_group_type_index: item.group_type_index };
  }
  // Fields that would change the answer and that Hoglet does not implement: refused, never ignored.
  if (filter && Array.isArray(filter.breakdowns) && filter.breakdowns.length > 0) {
    fail(join(path, 'breakdowns'), 'Breakdowns by several properties are not supported yet; give one property in breakdown.');
  }
  if (filter && filter.breakdown_normalize_url !== undefined && filter.breakdown_normalize_url !== null && filter.breakdown_normalize_url !== false) {
    fail(join(path, 'breakdown_normalize_url'), 'breakdown_normalize_url is not supported yet.');
  }
  if (!filter || filter.breakdown === undefined || filter.breakdown === null || filter.breakdown === '') return null;
  if (filter.breakdown_type === 'cohort') {
    if (!reading.cohorts) fail(join(path, 'breakdown_type'), 'Breakdowns by cohort are supported in trends and funnels.', 'invalid_choice');
    const cohorts = readCohortBreakdown(filter.breakdown, join(path, 'breakdown'));
    return Object.freeze({
      breakdown: JSON.stringify(cohorts),
      breakdown_type: 'cohort',
      breakdown_cohorts: cohorts,
      breakdown_limit: readOptionalInteger(filter.breakdown_limit, join(path, 'breakdown_limit'), 1, 1000) ?? defaultLimit,
      breakdown_group_type_index: null,
      breakdown_hide_other_aggregation: readBoolean(filter.breakdown_hide_other_aggregation, join(path, 'breakdown_hide_other_aggregation'), false),
    });
  }
  if (Array.isArray(filter.breakdown)) fail(join(path, 'breakdown'), 'Breakdowns by several values (cohorts) are not supported yet; give one property key.');
  const breakdown = readOptionalString(filter.breakdown, join(path, 'breakdown'), NAME_LENGTH)!;
  const type = readChoice(filter.breakdown_type, join(path, 'breakdown_type'), BREAKDOWN_TYPES, 'event');
  const groupIndex = readOptionalInteger(filter.breakdown_group_type_index, join(path, 'breakdown_group_type_index'), 0, 4);
  if (type === 'group' && groupIndex === null) fail(join(path, 'breakdown_group_type_index'), 'Group breakdowns need a breakdown_group_type_index from 0 to 4.', 'required');
  const bins = readOptionalInteger(filter.breakdown_histogram_bin_count, join(path, 'breakdown_histogram_bin_count'), 1, MAX_HISTOGRAM_BINS);
  if (bins !== null && !histograms) fail(join(path, 'breakdown_histogram_bin_count'), 'Histogram breakdowns (breakdown_histogram_bin_count) are for trends only.');
  return Object.freeze({
    breakdown,
    breakdown_type: type,
    breakdown_limit: readOptionalInteger(filter.breakdown_limit, join(path, 'breakdown_limit'), 1, 1000) ?? defaultLimit,
    breakdown_group_type_index: groupIndex,
    breakdown_hide_other_aggregation: readBoolean(filter.breakdown_hide_other_aggregation, join(path, 'breakdown_hide_other_aggregation'), false),
    ...(bins !== null ? { breakdown_histogram_bin_count: bins } : {}),
  });
}

const MAX_BREAKDOWN_COHORTS = 50;

/** A cohort breakdown: one id, or a list of ids and "all" (a JSON list in text, as query strings carry it). */
function readCohortBreakdown(value: Json, path: string): readonly CohortBreakdownItem[] {
  let list = value;
  if (typeof list === 'string' && list.trim().startsWith('[')) {
    try {
      list = JSON.parse(list);
    } catch {
      fail(path, 'Give a list of cohort ids (and "all").');
    }
  }
  const items = Array.isArray(list) ? list : [list];
  if (items.length === 0) fail(path, 'Give at least one cohort id (or "all").');
  if (items.length > MAX_BREAKDOWN_COHORTS) fail(path, `At most ${MAX_BREAKDOWN_COHORTS} cohorts are allowed in a breakdown.`);
  const read = items.map((item, i): CohortBreakdownItem => {
    if (item === 'all' || item === 0 || item === '0') return 'all';
    const id = readOptionalInteger(item, join(path, i), 1, 2 ** 31 - 1);
    if (id === null) fail(join(path, i), 'Give a cohort id or "all".');
    return id;
  });
  return Object.freeze([...new Set(read)]);
}

export function readCompareFilter(value: Json, path: string): CompareFilter | null {
  const filter = readOptionalObject(value, path);
  if (!filter || !readBoolean(filter.compare, join(path, 'compare'), false)) return null;
  const compareTo = readDate(filter.compare_to, join(path, 'compare_to'), true);
  if (compareTo?.trim() === 'all') fail(join(path, 'compare_to'), 'compare_to cannot be "all".');
  return Object.freeze({ compare: true, compare_to: compareTo });
}

const FORMULA_LENGTH = 1_000;
const MAX_FORMULAS = 20;

function readFormulas(filter: JsonObject, path: string, seriesCount: number): readonly FormulaNode[] {
  const nodes: (FormulaNode & { path: string })[] = [];
  if (filter.formulaNodes !== undefined && filter.formulaNodes !== null) {
    const list = readArray(filter.formulaNodes, join(path, 'formulaNodes'));
    list.forEach((item, i) => {
      const itemPath = join(join(path, 'formulaNodes'), i);
      const node = readObject(item, itemPath);
      const formula = readOptionalString(node.formula, join(itemPath, 'formula'), FORMULA_LENGTH);
      if (formula?.trim()) nodes.push({ formula, custom_name: readOptionalString(node.custom_name, join(itemPath, 'custom_name'), NAME_LENGTH), path: join(itemPath, 'formula') });
    });
  } else if (filter.formulas !== undefined && filter.formulas !== null) {
    readArray(filter.formulas, join(path, 'formulas')).forEach((f, i) => {
      const formula = readOptionalString(f, join(join(path, 'formulas'), i), FORMULA_LENGTH);
      if (formula?.trim()) nodes.push({ formula, path: join(join(path, 'formulas'), i) });
    });
  } else {
    const formula = readOptionalString(filter.formula, join(path, 'formula'), FORMULA_LENGTH);
    if (formula?.trim()) nodes.push({ formula, path: join(path, 'formula') });
  }
  if (nodes.length > MAX_FORMULAS) fail(join(path, 'formulaNodes'), `At most ${MAX_FORMULAS} formulas are allowed.`);
  // The whole grammar (and every letter against the series) is checked here, at the path the
  // formula was sent at, so a bad formula never reaches the runner.
  for (const node of nodes) parseFormula(node.formula, seriesCount, node.path);
  return Object.freeze(nodes.map(({ path: _path, ...n }) => Object.freeze(n)));
}

function readExclusions(value: Json, path: string, steps: number): readonly FunnelExclusion[] {
  if (value === undefined || value === null) return [];
  return Object.freeze(readArray(value, path).map((item, i) => {
    const itemPath = join(path, i);
    const series = readSeries(item, itemPath);
    const raw = readObject(item, itemPath);
    const from = readOptionalInteger(raw.funnelFromStep ?? raw.funnel_from_step, join(itemPath, 'funnelFromStep'), 0, steps - 1) ?? 0;
    const to = readOptionalInteger(raw.funnelToStep ?? raw.funnel_to_step, join(itemPath, 'funnelToStep'), 0, steps - 1) ?? steps - 1;
    if (from >= to) fail(join(itemPath, 'funnelToStep'), 'An exclusion must cover at least one step: funnelFromStep must be before funnelToStep.');
    return Object.freeze({
      kind: series.kind,
      ...(series.kind === 'EventsNode' ? { event: series.event } : { id: series.id }),
      name: series.name ?? null,
      funnelFromStep: from,
      funnelToStep: to,
      properties: series.properties,
    });
  }));
}
