// WebStatsTableQuery as one statement (reference web-analytics.md §6.2-6.4). Inner: the page views
// (and goal events) of either period grouped by (session, breakdown value); outer: per value a
// [current, previous] pair of each metric, the fill fraction over all values, PostHog's order and
// one row more than the page (for hasMore). `Page` with bounce rate joins a second part: each page's
// bounce rate is that of the sessions that entered on it (§6.3).
import { alias, and, asc, binary, call, constant, desc, eq, field, isNotNull, leftJoin, or, over, select, subquery } from '../../ast/build.js';
import type { Expr, OrderItem, Select } from '../../ast/nodes.js';
import type { QueryContext } from '../../context.js';
import { eventSourceFor } from '../../hogql/expressions.js';
import type { PropertyFilter, PropertyGroup } from '../../nodes/schema.js';
import { bounceExpr, conversionGoalExpr, pageviewExpr, sessionField, webEventsExpr, webFilterExpr } from '../web-shared/filters.js';
import { inPeriod, inPeriods, type WebPeriod, type WebPeriods } from '../web-shared/periods.js';
import type { WebOrderByField } from '../web-shared/types.js';
import { BREAKDOWNS, cleanPath, languageRegion } from './breakdowns.js';
import type { WebStatsTableQuery } from './types.js';

export type Metric = 'visitors' | 'views' | 'bounce_rate' | 'average_scroll_percentage' | 'scroll_gt80_percentage' | 'total_conversions' | 'unique_conversions' | 'conversion_rate';

/** Metrics that are counts (the fill fraction is a share of their sum); the others are fractions. */
const COUNTS: ReadonlySet<Metric> = new Set(['visitors', 'views', 'total_conversions', 'unique_conversions']);

const ORDER_FIELDS: Partial<Record<WebOrderByField, Metric>> = {
  Visitors: 'visitors', Views: 'views', BounceRate: 'bounce_rate',
  AverageScrollPercentage: 'average_scroll_percentage', ScrollGt80Percentage: 'scroll_gt80_percentage',
  TotalConversions: 'total_conversions', UniqueConversions: 'unique_conversions', ConversionRate: 'conversion_rate',
};
/** After the chosen column, these (when present), in the chosen direction, then the value ascending. */
const TIE_BREAKS: readonly Metric[] = ['unique_conversions', 'total_conversions', 'visitors', 'views'];

/** The table's metric columns in PostHog's order. */
export function metricsOf(query: WebStatsTableQuery): Metric[] {
  if (query.conversionGoal) return ['visitors', 'total_conversions', 'unique_conversions', 'conversion_rate'];
  if (isPathScroll(query)) return ['visitors', 'views', 'bounce_rate', 'average_scroll_percentage', 'scroll_gt80_percentage'];
  return query.includeBounceRate ? ['visitors', 'views', 'bounce_rate'] : ['visitors', 'views'];
}

/** Page with bounce rate: counts conditioned on the session start and the entry-page bounce part. */
export const isPathBounce = (query: WebStatsTableQuery) => query.breakdownBy === 'Page' && (query.includeBounceRate || query.includeScrollDepth) && !query.conversionGoal;
/** Page with scroll depth (which implies the bounce rate): the scroll part reported by the next event. */
export const isPathScroll = (query: WebStatsTableQuery) => isPathBounce(query) && query.includeScrollDepth;
/** Metrics that answer 0, not null, as the previous value without compare (Page with bounce counts). */
export const zeroWithoutCompare = (query: WebStatsTableQuery, metric: Metric) => isPathBounce(query) && (metric === 'visitors' || metric === 'views');

const V = 'breakdown_value';
/** NULL as ClickHouse types the literal, so `if(..., NULL, x)` is a Nullable(x), not a Variant. */
const NULL = constant(null, 'Nullable(Nothing)');
const nullable = (value: Expr) => call('if', call('isNaN', value), NULL, value);

/** The session fields the statement reads (to parse before the run). */
export function statsSessionFields(query: WebStatsTableQuery): string[] {
  return ['$start_timestamp', ...BREAKDOWNS[query.breakdownBy].sessionFields, ...(isPathBounce(query) ? ['$entry_pathname'] : [])];
}

/**
 * The rules the breakdown's paths are cleaned by: only with doPathCleaning (the context holds the
 * project's rules also when only an is_cleaned_path_exact filter reads them).
 */
const cleaningRules = (query: WebStatsTableQuery, context: QueryContext) => (query.doPathCleaning ? context.pathCleaningRules : []);

/** One row per (session, breakdown value) of the counted events in either period. */
function perSession(query: WebStatsTableQuery, context: QueryContext, periods: WebPeriods): Select {
  const spec = BREAKDOWNS[query.breakdownBy];
  const source = eventSourceFor(context);
  const person = source.personId();
  const value = spec.value(source, cleaningRules(query, context));
  const goal = query.conversionGoal ? conversionGoalExpr(query.conversionGoal, context, source) : null;
  const columns: Expr[] = [
    alias(value, V),
    alias(call('any', person), 'filtered_person_id'),
    alias(call('countIf', pageviewExpr(source)), 'filtered_pageview_count'),
    alias(call('min', sessionField(source, '$start_timestamp')), 'start_timestamp'),
  ];
  if ((query.includeBounceRate || query.includeScrollDepth) && !goal) columns.push(alias(call('any', bounceExpr(source, query.modifiers)), 'is_bounce'));
  if (goal) {
    columns.push(alias(call('countIf', goal), 'conversion_count'));
    columns.push(alias(call('any', call('if', goal, person, constant(null, 'Nullable(Nothing)'))), 'conversion_person_id'));
  }
  if (query.breakdownBy === 'Language') columns.push(alias(call('any', languageRegion(source)), 'breakdown_region'));
  const where = and(inPeriods(source.timestamp, periods), webEventsExpr(query, context, source), webFilterExpr(query, context, source), spec.keep?.(value));
  return select({ select: columns, from: source.from(), joins: source.joins(), where, groupBy: [source.sessionId, field(V)] });
}

/** Per entry page (cleaned), the bounce rate of the sessions that entered on it, by the period of their start. */
function entryBounce(query: WebStatsTableQuery, context: QueryContext, periods: WebPeriods): Select {
  const source = eventSourceFor(context);
  // PostHog leaves the event $pathname filters out here: they would drop the sessions' other pages.
  const properties = withoutPathname(query.properties);
  const value = call('any', cleanPath(sessionField(source, '$entry_pathname'), cleaningRules(query, context)));
  const bounce = call('any', bounceExpr(source, query.modifiers));
  const started = call('min', sessionField(source, '$start_timestamp'));
  // Every expression is built before joins() is read: the source collects its joins as they are made.
  const where = and(inPeriods(source.timestamp, periods), pageviewExpr(source), webFilterExpr(query, context, source, properties));
  const sessions = select({
    select: [
      alias(value, V),
      alias(bounce, 'is_bounce'),
      alias(started, 'start_timestamp'),
    ],
    from: source.from(),
    joins: source.joins(),
    where,
    groupBy: [source.sessionId],
  });
  const start = field('start_timestamp');
  return select({
    select: [
      field(V),
      alias(constant(1), 'matched'),
      alias(nullable(call('avgIf', field('is_bounce'), inPeriod(start, periods.current))), 'bounce_current'),
      alias(nullable(call('avgIf', field('is_bounce'), inPeriod(start, periods.previous))), 'bounce_previous'),
    ],
    from: subquery(sessions, 'entry_sessions'),
    groupBy: [field(V)],
  });
}

/**
 * Per page (cleaned), its scroll depth as the next event reports it ($prev_pageview_pathname and
 * $prev_pageview_max_scroll_percentage of the following page view or the $pageleave): the average,
 * and the share above 80 %, by the period of the session's start.
 */
function pageScroll(query: WebStatsTableQuery, context: QueryContext, periods: WebPeriods): Select {
  const source = eventSourceFor(context);
  const path = cleanPath(source.eventProperty('$prev_pageview_pathname'), cleaningRules(query, context));
  const scroll = call('toFloat64OrNull', call('toString', source.eventProperty('$prev_pageview_max_scroll_percentage')));
  const started = sessionField(source, '$start_timestamp');
  const events = or(eq(source.event, constant('$pageview')), eq(source.event, constant('$pageleave')));
  const where = and(inPeriods(source.timestamp, periods), events, isNotNull(path), webFilterExpr(query, context, source, withoutPathname(query.properties)));
  const rows = select({
    select: [alias(path, V), alias(scroll, 'scroll'), alias(started, 'start_timestamp')],
    from: source.from(),
    joins: source.joins(),
    where,
  });
  const start = field('start_timestamp');
  const average = (period: WebPeriod | null) => nullable(call('avgIf', field('scroll'), and(inPeriod(start, period), isNotNull(field('scroll')))));
  const deep = (period: WebPeriod | null) => nullable(call('avgIf', binary('>', field('scroll'), constant(0.8, 'Float64')), and(inPeriod(start, period), isNotNull(field('scroll')))));
  return select({
    select: [
      field(V), alias(constant(1), 'matched'),
      alias(average(periods.current), 'average_scroll_percentage_current'), alias(average(periods.previous), 'average_scroll_percentage_previous'),
      alias(deep(periods.current), 'scroll_gt80_percentage_current'), alias(deep(periods.previous), 'scroll_gt80_percentage_previous'),
    ],
    from: subquery(rows, 'scroll_events'),
    groupBy: [field(V)],
  });
}

function withoutPathname(group: PropertyGroup): PropertyGroup {
  const keep = (entry: PropertyGroup | PropertyFilter): boolean => !('key' in entry && entry.type === 'event' && entry.key === '$pathname');
  return { ...group, values: group.values.filter(keep) } as PropertyGroup;
}

/** The aggregate of one metric for one period (`when`: the rows of that period; undefined: all rows). */
function aggregate(metric: Metric, when: Expr | undefined, table?: string): Expr {
  const f = (name: string) => field(name, table);
  const agg = (fn: string, column: string) => (when ? call(`${fn}If`, f(column), when) : call(fn, f(column)));
  switch (metric) {
    case 'visitors': return agg('uniqExact', 'filtered_person_id');
    case 'views': return agg('sum', 'filtered_pageview_count');
    case 'bounce_rate': return nullable(agg('avg', 'is_bounce'));
    case 'total_conversions': return agg('sum', 'conversion_count');
    case 'unique_conversions': return agg('uniqExact', 'conversion_person_id');
    // Only Page answers scroll depth, from its own part (pageScroll).
    case 'average_scroll_percentage':
    case 'scroll_gt80_percentage':
      throw new Error(`${metric} is read from the page scroll part`);
    case 'conversion_rate': {
      const visitors = aggregate('visitors', when, table);
      return call('if', eq(visitors, constant(0)), NULL, call('divide', aggregate('unique_conversions', when, table), visitors));
    }
  }
}

/** The statement: columns `value`, `<metric>_current`, `<metric>_previous` (when comparing), `fill`. */
export function statsSelect(query: WebStatsTableQuery, context: QueryContext, periods: WebPeriods): Select {
  const metrics = metricsOf(query);
  const pathBounce = isPathBounce(query);
  const pathScroll = isPathScroll(query);
  const rows = 'per_session';
  const start = field('start_timestamp', rows);
  // Without compare the main query counts every row (a session begun before the range too); the
  // Page + bounce counts always follow the session's start (PostHog's two query shapes).
  const current = periods.previous || pathBounce ? inPeriod(start, periods.current) : undefined;
  const previous = periods.previous || pathBounce ? inPeriod(start, periods.previous) : null;
  const columns = new Map<string, Expr>();
  for (const metric of metrics) {
    if ((metric === 'average_scroll_percentage' || metric === 'scroll_gt80_percentage') && pathScroll) {
      const matched = eq(field('matched', 'page_scroll'), constant(1));
      columns.set(`${metric}_current`, call('if', matched, field(`${metric}_current`, 'page_scroll'), NULL));
      if (periods.previous) columns.set(`${metric}_previous`, call('if', matched, field(`${metric}_previous`, 'page_scroll'), NULL));
      continue;
    }
    if (metric === 'bounce_rate' && pathBounce) {
      const matched = eq(field('matched', 'entry_bounce'), constant(1));
      columns.set(`${metric}_current`, call('if', matched, field('bounce_current', 'entry_bounce'), NULL));
      if (periods.previous) columns.set(`${metric}_previous`, call('if', matched, field('bounce_previous', 'entry_bounce'), NULL));
      continue;
    }
    columns.set(`${metric}_current`, aggregate(metric, current, rows));
    if (previous) columns.set(`${metric}_previous`, aggregate(metric, previous, rows));
  }
  const value = query.breakdownBy === 'Language'
    ? call('concat', field(V, rows), constant('-'), call('ifNull', call('arrayElement', call('topK', field('breakdown_region', rows)), constant(1)), constant('')))
    : field(V, rows);

  const chosen = query.orderBy ? ORDER_FIELDS[query.orderBy[0]] : undefined;
  const first = chosen && metrics.includes(chosen) ? chosen : undefined;
  const direction = query.orderBy?.[1] ?? 'DESC';
  const ordered = [...(first ? [first] : []), ...TIE_BREAKS.filter((m) => m !== first && metrics.includes(m))];
  const sort = (expr: Expr): OrderItem => (direction === 'ASC' ? asc(expr) : desc(expr));
  const orderBy: OrderItem[] = [
    ...ordered.flatMap((m) => [sort(field(`${m}_current`)), ...(columns.has(`${m}_previous`) ? [sort(field(`${m}_previous`))] : [])]),
    asc(field('value')),
  ];
  const lead = ordered[0]!;
  const leadExpr = columns.get(`${lead}_current`)!;
  const fill = COUNTS.has(lead) ? call('divide', leadExpr, over(call('sum', leadExpr), [])) : leadExpr;

  const joins = [
    ...(pathBounce ? [leftJoin(subquery(entryBounce(query, context, periods), 'entry_bounce'), eq(field(V, rows), field(V, 'entry_bounce')))] : []),
    ...(pathScroll ? [leftJoin(subquery(pageScroll(query, context, periods), 'page_scroll'), eq(field(V, rows), field(V, 'page_scroll')))] : []),
  ];
  const scrollColumns = ['matched', 'average_scroll_percentage_current', 'average_scroll_percentage_previous', 'scroll_gt80_percentage_current', 'scroll_gt80_percentage_previous'];
  const limit = query.limit ?? 100;
  return select({
    select: [alias(value, 'value'), ...[...columns].map(([name, expr]) => alias(expr, name)), alias(fill, 'fill')],
    from: subquery(perSession(query, context, periods), rows),
    joins,
    groupBy: [
      field(V, rows),
      ...(pathBounce ? [field('matched', 'entry_bounce'), field('bounce_current', 'entry_bounce'), field('bounce_previous', 'entry_bounce')] : []),
      ...(pathScroll ? scrollColumns.map((name) => field(name, 'page_scroll')) : []),
    ],
    orderBy,
    limit: limit + 1,
    offset: query.offset,
  });
}
