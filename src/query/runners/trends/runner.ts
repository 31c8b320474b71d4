// Trends: one statement per series and period (series over the same events share one), shaped into PostHog's result items; formulas,
// cumulative, smoothing and compare labels are applied to the numbers afterwards.
import type { QueryContext } from '../../context.js';
import { previousPeriod, resolveDateRange, type ResolvedDateRange } from '../../dates/index.js';
import type { QueryRun } from '../../execute.js';
import { TOTAL_VALUE_DISPLAYS, type CohortBreakdownItem, type FormulaNode, type Interval, type SeriesNode, type TrendsQuery } from '../../nodes/schema.js';
import { earliestEvent, utcText } from '../event-range.js';
import { limitBreakdownValues } from './breakdown-limit.js';
import { evaluateFormula, parseFormula } from './formula.js';
import {
  actionDict, cumulative, densify, filterDict, seriesLabel, smooth,
  type SeriesRow, type SeriesValues, type TrendItem,
} from './results.js';
import { NULL_BREAKDOWN, OTHER_BREAKDOWN } from '../../filters/breakdown-labels.js';
import { ALL_USERS_VALUE, breakdownCohorts, cohortLabel, cohortQueryPerItem } from '../../cohorts/breakdown.js';
import { buildSeriesQuery, buildSharedScanQuery, sharedScanKey, type SeriesQueryInput } from './series-query.js';

export interface TrendsResult {
  [extra: string]: unknown;
  results: TrendItem[];
  hasMore: boolean;
  resolved_date_range: { date_from: string; date_to: string };
  interval: Interval;
}

interface Period {
  readonly range: ResolvedDateRange;
  readonly compareLabel: 'current' | 'previous' | null;
  /** The legacy filter dict, the same for every item of the period, so built once. */
  readonly filter: Record<string, unknown>;
}

/** PostHog's BREAKDOWN_VALUES_LIMIT, and the larger default of the world map (one value per country). */
const BREAKDOWN_LIMIT = 25;
const WORLD_MAP_BREAKDOWN_LIMIT = 250;

export const trendsRunner = {
  async run(query: TrendsQuery, context: QueryContext, run: QueryRun): Promise<TrendsResult> {
    const display = query.trendsFilter.display;
    const { totalValue, interval, periods } = await trendsPeriods(query, context, run);
    const current = periods[0]!.range;

    const cumulativeDisplay = display === 'ActionsLineGraphCumulative';
    const perPeriod = await Promise.all(periods.map((period) =>
      runPeriod(query, query.series.map((series) => activeMath(series, interval)), period.range, context, run, totalValue, cumulativeDisplay)));

    let hasMore = false;
    const builtPerPeriod = periods.map((period, p) => perPeriod[p]!.map((valuesList, s) => {
      const series = query.series[s]!;
      return valuesList.map((values) => {
        if (values.breakdownValue === OTHER_BREAKDOWN) hasMore = true;
        return buildItem(query, series, s, values, period, context, totalValue, cumulativeDisplay);
      }).filter((item) => !(query.breakdownFilter?.breakdown_hide_other_aggregation && item.breakdown_value === OTHER_BREAKDOWN));
    }));
    // PostHog's order: without formulas, every series of the current period, then of the previous
    // one; with formulas, formula by formula, each with its current then its previous results.
    const items: TrendItem[] = query.trendsFilter.formulaNodes.length
      ? query.trendsFilter.formulaNodes.flatMap((node, f) =>
        periods.flatMap((period, p) => applyFormula(query, node, f, builtPerPeriod[p]!, period, totalValue)))
      : builtPerPeriod.flatMap((built) => built.flat());
    return {
      results: items,
      hasMore,
      interval,
      resolved_date_range: { date_from: current.dateFrom.toISO()!, date_to: current.dateTo.toISO()! },
    };
  },
};

/** The periods a trend covers (its range, and the previous one when compared) and how it buckets them. */
export async function trendsPeriods(query: TrendsQuery, context: QueryContext, run: QueryRun) {
  const display = query.trendsFilter.display;
  const totalValue = TOTAL_VALUE_DISPLAYS.has(display);
  const interval: Interval = totalValue ? 'day' : query.interval;
  const clock = { timezone: context.project.timezone, weekStartDay: context.project.weekStartDay, now: context.now };
  const options = {
    interval,
    exactTimerange: display === 'BoldNumber',
    earliest: query.dateRange.date_from?.trim() === 'all' ? await earliestEvent(run) : null,
  };
  const current = resolveDateRange(query.dateRange, clock, options);
  const periods: Period[] = [{ range: current, compareLabel: query.compareFilter ? 'current' : null, filter: filterDict(query, current) }];
  if (query.compareFilter && query.dateRange.date_from?.trim() !== 'all') {
    const previous = previousPeriod(current, query.dateRange, clock, { ...options, compareTo: query.compareFilter.compare_to ?? null });
    periods.push({ range: previous, compareLabel: 'previous', filter: filterDict(query, previous) });
  }
  return { totalValue, interval, periods };
}

/** weekly_active / monthly_active over intervals as long as their window mean dau (PostHog's rewrite). */
export function activeMath(series: SeriesNode, interval: Interval): SeriesNode {
  const long = interval === 'week' || interval === 'month';
  if ((series.math === 'weekly_active' && long) || (series.math === 'monthly_active' && interval === 'month')) {
    return { ...series, math: 'dau' };
  }
  return series;
}

/** Every series of one period: series that can share a scan of the events run as one statement. */
async function runPeriod(
  query: TrendsQuery, seriesList: readonly SeriesNode[], range: ResolvedDateRange, context: QueryContext, run: QueryRun,
  totalValue: boolean, cumulativeDisplay: boolean,
): Promise<SeriesValues[][]> {
  // An inverted range (date_from after date_to) has no buckets and holds no event. PostHog neither
  // swaps nor refuses it: each series answers with empty data (a total of 0), breakdowns with none.
  const hasBreakdown = query.breakdownFilter !== null;
  if (range.buckets.length === 0) return seriesList.map(() => densify([], range, totalValue, hasBreakdown));
  const inputs = seriesList.map((series): SeriesQueryInput => ({
    series,
    properties: query.properties,
    testAccounts: query.filterTestAccounts ? context.testAccountFilters : null,
    breakdown: query.breakdownFilter,
    window: {
      fromUtc: utcText(range.eventsFrom),
      toUtc: utcText(range.dateTo, true),
      interval: range.interval,
      firstBucket: Math.round(range.buckets[0]!.toSeconds()),
      lastBucket: Math.round(range.buckets[range.buckets.length - 1]!.toSeconds()),
    },
    totalValue,
    // Cumulative unique actors (persons or groups) count each actor once, in their first bucket.
    firstBucketOnly: cumulativeDisplay && (series.math === 'dau' || series.math === 'unique_group'),
    context,
  }));
  const groups = new Map<string, number[]>();
  inputs.forEach((input, i) => {
    const key = sharedScanKey(input) ?? `alone:${i}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const limit = query.breakdownFilter?.breakdown_limit ?? (query.trendsFilter.display === 'WorldMap' ? WORLD_MAP_BREAKDOWN_LIMIT : BREAKDOWN_LIMIT);
  const results: SeriesValues[][] = seriesList.map(() => []);
  // Cohorts PostHog queries one by one keep the list's order and take no limit.
  const cohorts = breakdownCohorts(query.breakdownFilter);
  const perCohort = cohorts !== null && cohortQueryPerItem(cohorts);
  await Promise.all([...groups.values()].map(async (members) => {
    const shared = members.length > 1;
    const statement = shared ? buildSharedScanQuery(members.map((i) => inputs[i]!)) : buildSeriesQuery(inputs[members[0]!]!);
    const limited = hasBreakdown && !perCohort;
    const rows = await run.rows<SeriesRow & { series_index?: number | string }>(limited ? limitBreakdownValues(statement, limit, shared) : statement);
    members.forEach((seriesIndex, position) => {
      const own = shared ? rows.filter((row) => Number(row.series_index) === position) : rows;
      const values = densify(own, range, totalValue, hasBreakdown);
      results[seriesIndex] = perCohort ? inListOrder(values, cohorts!) : values;
    });
  }));
  return results;
}

/**
 * A breakdown value as an item shows it: its label, whether the label names the series too (more
 * than one series; for cohorts PostHog queries one by one, more than one query), and its value
 * (a cohort's id as a number, "all" for all users).
 */
function shownBreakdown(query: TrendsQuery, value: string | null, context: QueryContext): { label: string; value: string | number; withSeriesName: boolean } | null {
  if (value === null) return null;
  const cohorts = breakdownCohorts(query.breakdownFilter);
  if (!cohorts || value === OTHER_BREAKDOWN) return { label: value, value, withSeriesName: query.series.length > 1 };
  const queries = cohortQueryPerItem(cohorts) ? query.series.length * cohorts.length : query.series.length;
  return { label: cohortLabel(value, context), value: value === ALL_USERS_VALUE ? 'all' : Number(value), withSeriesName: queries > 1 };
}

/** Values in the order of the breakdown's list of cohorts (absent ones left out). */
function inListOrder(values: readonly SeriesValues[], cohorts: readonly CohortBreakdownItem[]): SeriesValues[] {
  const position = (value: string | null) => cohorts.findIndex((item) => (item === 'all' ? ALL_USERS_VALUE : String(item)) === value);
  return [...values].sort((a, b) => position(a.breakdownValue) - position(b.breakdownValue));
}

function buildItem(
  query: TrendsQuery, series: SeriesNode, order: number, values: SeriesValues, period: Period, context: QueryContext,
  totalValue: boolean, cumulativeDisplay: boolean,
): TrendItem {
  const { range } = period;
  const name = seriesLabel(series, context.actions);
  const shown = shownBreakdown(query, values.breakdownValue, context);
  const label = shown === null ? name : shown.withSeriesName ? `${name} - ${shown.label}` : shown.label;
  const base = {
    label,
    filter: period.filter,
    action: actionDict(series, order, name, range),
    order,
    ...(shown !== null ? { breakdown_value: shown.value } : {}),
    ...(period.compareLabel ? { compare: true, compare_label: period.compareLabel } : {}),
  };
  if (totalValue) return { data: [], labels: [], days: [], count: 0, aggregated_value: values.values[0] ?? 0, ...base };
  let data = smooth(values.values, query.trendsFilter.smoothingIntervals);
  if (cumulativeDisplay) data = cumulative(data);
  const count = cumulativeDisplay ? (data[data.length - 1] ?? 0) : data.reduce((a, b) => a + b, 0);
  return { data, labels: range.labels, days: range.days, count, ...base };
}

/**
 * One formula's items for one period: one per breakdown value (a series without that value counts
 * zeros), each based on the first series' item (its days, labels, filter, breakdown value and
 * compare label) with the formula's label and no action, as PostHog's apply_formula does.
 */
function applyFormula(
  query: TrendsQuery, node: FormulaNode, order: number, bySeries: TrendItem[][], period: Period, totalValue: boolean,
): TrendItem[] {
  const formula = parseFormula(node.formula, query.series.length, 'formula');
  const hasBreakdown = query.breakdownFilter !== null;
  const breakdownValues = hasBreakdown
    ? [...new Set(bySeries.flat().map((i) => i.breakdown_value ?? null))]
    : bySeries.some((items) => items.length > 0) ? [null] : [];
  const width = totalValue ? 1 : period.range.buckets.length;
  const label = node.custom_name || `Formula (${node.formula})`;
  const results = breakdownValues.map((value): TrendItem => {
    const matching = bySeries.map((items) => (hasBreakdown ? items.find((i) => (i.breakdown_value ?? null) === value) : items[0]));
    const inputs = matching.map((item) => (!item ? new Array<number>(width).fill(0) : totalValue ? [item.aggregated_value ?? 0] : item.data ?? []));
    const data = evaluateFormula(formula, inputs, width);
    const base = matching.find((i) => i !== undefined)!;
    const common = {
      label,
      filter: base.filter,
      action: null,
      order,
      ...(value !== null ? { breakdown_value: value } : {}),
      ...(period.compareLabel ? { compare: true, compare_label: period.compareLabel } : {}),
    };
    return totalValue
      ? { data: null, labels: [], days: [], count: 0, aggregated_value: data[0] ?? 0, ...common }
      : { data, labels: period.range.labels, days: period.range.days, count: data.reduce((a, b) => a + b, 0), ...common };
  });
  if (!hasBreakdown) return results;
  const cohorts = breakdownCohorts(query.breakdownFilter);
  // Cohorts queried one by one stay in the list's order (the values come in that order).
  if (cohorts && cohortQueryPerItem(cohorts)) return results;
  const total = (i: TrendItem) => (totalValue ? i.aggregated_value ?? 0 : i.count);
  const text = (i: TrendItem) => String(i.breakdown_value ?? '');
  if (period.compareLabel) {
    // PostHog: naturally sorted values, then (stably) by count descending.
    const natural = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
    return results
      .sort((a, b) => natural.compare(text(a), text(b)))
      .sort((a, b) => b.count - a.count);
  }
  const kind = (v: string) => (v === OTHER_BREAKDOWN ? 2 : v === NULL_BREAKDOWN ? 1 : 0);
  const desc = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
  return results.sort((a, b) => kind(text(a)) - kind(text(b)) || total(b) - total(a) || desc(text(a), text(b)));
}
