// Paths as one statement:
//
//   events:   actor, ms, path item (URL, screen or event name; cleaned; grouped)   (range, types, filters)
//   sessions: per actor the items in time order, split at 30 minutes of inactivity
//   paths:    per session: repeats collapsed (the last of a run stays), start/end points, step limit
//   edges:    each consecutive pair as "<position>_<item>" nodes -> count and average milliseconds
//
// Weights, order, limit and reachability are applied to the (few) edges in JavaScript.
import { alias, allOf, and, array, asc, binary, call, constant, desc, eq, field, innerJoin, lambda, not, or, select, subquery, tuple } from '../../ast/build.js';
import type { Expr, Join, Select } from '../../ast/nodes.js';
import { instant } from '../../buckets/bucket-start.js';
import type { QueryContext } from '../../context.js';
import type { ResolvedDateRange } from '../../dates/index.js';
import { EventSource } from '../../filters/event-source.js';
import { eventSourceFor } from '../../hogql/expressions.js';
import { propertyGroupExpr } from '../../filters/properties.js';
import type { FunnelPaths, PathCleaningRule, PathsQuery } from '../../nodes/schema.js';
import { personQuery } from '../funnels/person-query.js';
import type { FunnelRange } from '../funnels/range.js';
import { windowMicros } from '../funnels/spec.js';
import { utcText } from '../event-range.js';

/** PostHog's session gap for paths: 30 minutes, in milliseconds. */
const SESSION_GAP_MS = 30 * 60 * 1000;
/** The middle of a path cut between a start and an end point. */
export const ELLIPSIS = '...';

const num = (n: number) => constant(n, 'Int64');
const text = (s: string) => constant(s);
const item = (x: Expr) => call('tupleElement', x, num(2));
const ms = (x: Expr) => call('tupleElement', x, num(1));

/** One trailing slash off a URL ('/' stays), as PostHog's paths compare URLs. */
function withoutTrailingSlash(url: Expr): Expr {
  return call('replaceRegexpOne', url, text('^(.+)/$'), text('\\1'));
}

/** A glob ('/product/*'): every character literal but `*`, which matches anything. */
export function globToRegex(glob: string): string {
  return glob.split('*').map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, (c) => `\\${c}`)).join('.*');
}

/** The path item of an event: cleaned by each rule in turn, then replaced by the first grouping it matches. */
function pathItem(source: EventSource, rules: readonly PathCleaningRule[], groupings: readonly string[], hogql: string | null): Expr {
  const orEmpty = (value: Expr) => call('ifNull', value, text(''));
  // A HogQL item expression names every event's item (PostHog's `hogql` path type).
  let value: Expr = hogql !== null ? orEmpty(call('toString', source.hogqlExpr(hogql))) : call('multiIf',
    eq(source.event, text('$pageview')), withoutTrailingSlash(orEmpty(source.eventProperty('$current_url'))),
    eq(source.event, text('$screen')), orEmpty(source.eventProperty('$screen_name')),
    source.event);
  for (const rule of rules) value = call('replaceRegexpAll', value, text(rule.regex), text(rule.alias));
  if (groupings.length === 0) return value;
  const index = call('multiMatchAnyIndex', value, constant(groupings.map(globToRegex), 'Array(String)'));
  return call('if', binary('>', index, num(0)), call('arrayElement', constant([...groupings], 'Array(String)'), index), value);
}

function typeFilter(source: EventSource, query: PathsQuery): Expr | undefined {
  const types = query.pathsFilter.includeEventTypes;
  if (types.length === 0) return undefined;
  if (types.includes('hogql')) return undefined;
  return or(...types.map((type) => (type === 'custom_event'
    ? not(call('startsWith', source.event, text('$')))
    : eq(source.event, text(type)))));
}

/** A funnel's actors of the step funnel paths follow, with the µs of that step and the one before. */
function funnelStepActors(funnel: FunnelPaths, context: QueryContext, window: FunnelRange): Select {
  const { select: persons } = personQuery({ query: funnel.funnelSource, context, fromUtc: window.fromUtc, toUtc: window.toUtc, stepTimes: true });
  const step = funnel.funnelStep;
  return select({
    select: [
      alias(field('actor'), 'fp_actor'),
      alias(call('arrayElement', field('step_times'), num(step)), 'fp_step_us'),
      alias(call('arrayElement', field('step_times'), num(Math.max(1, step - 1))), 'fp_previous_us'),
    ],
    from: subquery(persons, 'funnel_persons'),
    where: binary('>=', field('reached'), num(step)),
  });
}

/** Funnel paths: only the step's actors, only their events before, after or between the step events. */
function funnelPathsJoin(funnel: FunnelPaths, context: QueryContext, window: FunnelRange, source: EventSource): { join: Join; where: Expr } {
  const micros = call('toUnixTimestamp64Micro', source.timestamp);
  const step = field('fp_step_us', 'funnel_actor');
  const where = funnel.funnelPathType === 'funnel_path_after_step'
    ? binary('>=', micros, step)
    : funnel.funnelPathType === 'funnel_path_before_step'
      ? binary('<=', micros, step)
      : and(binary('>=', micros, field('fp_previous_us', 'funnel_actor')), binary('<=', micros, step));
  return { join: innerJoin(subquery(funnelStepActors(funnel, context, window), 'funnel_actor'), eq(field('fp_actor', 'funnel_actor'), source.personId())), where };
}

/** Columns: pa_actor, pa_ms, pa_item. */
function pathEvents(query: PathsQuery, range: ResolvedDateRange, context: QueryContext, funnelWindow: FunnelRange | null): Select {
  const { timezone } = context.project;
  const filter = query.pathsFilter;
  const source = eventSourceFor(context);
  const funnel = query.funnelPathsFilter && funnelWindow ? funnelPathsJoin(query.funnelPathsFilter, context, funnelWindow, source) : null;
  const rules = filter.pathReplacements ? [...context.pathCleaningRules, ...filter.localPathCleaningFilters] : filter.localPathCleaningFilters;
  const columns = [
    alias(source.personId(), 'pa_actor'),
    alias(call('toUnixTimestamp64Milli', source.timestamp), 'pa_ms'),
    alias(pathItem(source, rules, filter.pathGroupings, filter.pathsHogQLExpression), 'pa_item'),
  ];
  const where = and(
    binary('>=', source.timestamp, instant(utcText(range.eventsFrom))),
    binary('<=', source.timestamp, instant(utcText(range.dateTo, true))),
    typeFilter(source, query),
    propertyGroupExpr(query.properties, source, timezone),
    query.filterTestAccounts ? propertyGroupExpr(context.testAccountFilters, source, timezone) : undefined,
    funnel?.where,
  );
  const events = select({ select: columns, from: source.from(), joins: [...source.joins(), ...(funnel ? [funnel.join] : [])], where });
  // PostHog leaves excluded items out only when event types are chosen.
  if (filter.excludeEvents.length === 0 || filter.includeEventTypes.length === 0) return events;
  return select({
    select: [field('pa_actor'), field('pa_ms'), field('pa_item')],
    from: subquery(events, 'path_events_all'),
    where: not(binary('IN', field('pa_item'), constant([...filter.excludeEvents], 'Array(String)'))),
  });
}

/** An empty path of the path's own type. */
const none = (path: Expr) => call('arraySlice', path, num(1), num(0));

/** One session's path after points and the step limit, as an Array((ms, item)). */
function limitedPath(path: Expr, query: PathsQuery): Expr {
  const { startPoint, endPoint, stepLimit } = query.pathsFilter;
  const items = call('arrayMap', lambda(['pa_x'], item(field('pa_x'))), path);
  if (startPoint !== null && endPoint !== null) {
    const from = call('indexOf', items, text(startPoint));
    const to = call('arrayFirstIndex', lambda(['pa_i', 'pa_n'], and(eq(field('pa_i'), text(endPoint)), binary('>', field('pa_n'), from))), items, call('arrayEnumerate', items));
    const between = call('if', and(binary('>', from, num(0)), binary('>', to, num(0))),
      call('arraySlice', path, from, binary('+', binary('-', to, from), num(1))), none(path));
    const half = Math.floor(stepLimit / 2);
    const middle = call('arrayElement', between, num(half + 1));
    return call('if', binary('>', call('length', between), num(stepLimit)),
      call('arrayConcat', call('arraySlice', between, num(1), num(half)), array(tuple(ms(middle), text(ELLIPSIS))), call('arraySlice', between, num(-half))),
      between);
  }
  if (startPoint !== null) {
    const from = call('indexOf', items, text(single(startPoint)));
    return call('if', binary('>', from, num(0)), call('arraySlice', path, from, num(stepLimit)), none(path));
  }
  if (endPoint !== null) {
    const to = call('indexOf', items, text(single(endPoint)));
    const upToEnd = call('arraySlice', path, num(1), to);
    return call('if', binary('>', to, num(0)), call('arraySlice', upToEnd, call('greatest', num(1), binary('-', binary('+', to, num(1)), num(stepLimit)))), none(path));
  }
  return call('arraySlice', path, num(1), num(stepLimit));
}

/** A start or end point alone loses one trailing slash, as URLs do. */
const single = (point: string) => (point.length > 1 && point.endsWith('/') ? point.slice(0, -1) : point);

/** Columns: pa_actor, pa_path (one row per session path, after points and the step limit). */
export function sessionPaths(query: PathsQuery, range: ResolvedDateRange, context: QueryContext, funnelWindow: FunnelRange | null): Select {
  const perActor = select({
    select: [
      alias(field('pa_actor'), 'pa_actor'),
      alias(call('arraySort', lambda(['pa_x'], ms(field('pa_x'))), call('groupArray', tuple(field('pa_ms'), field('pa_item')))), 'pa_events'),
    ],
    from: subquery(pathEvents(query, range, context, funnelWindow), 'path_events'),
    groupBy: [field('pa_actor')],
  });
  // A session starts at every gap of 30 minutes or more (funnel paths: of the funnel's window).
  const gapMs = query.funnelPathsFilter ? Math.round(windowMicros(query.funnelPathsFilter.funnelSource) / 1000) : SESSION_GAP_MS;
  const gaps = call('arrayDifference', call('arrayMap', lambda(['pa_x'], ms(field('pa_x'))), field('pa_events')));
  const sessions = call('arraySplit', lambda(['pa_x', 'pa_gap'], binary('>=', field('pa_gap'), num(gapMs))), field('pa_events'), gaps);
  const perSession = select({
    select: [field('pa_actor'), alias(call('arrayJoin', sessions), 'pa_session')],
    from: subquery(perActor, 'path_actors'),
  });
  // Within a session an item equal to the next one is dropped (so the last of a run stays), and a trailing ''.
  const session = field('pa_session');
  const nextItems = call('arrayPushBack', call('arrayPopFront', call('arrayMap', lambda(['pa_x'], item(field('pa_x'))), session)), text(''));
  const collapsed = call('arrayFilter', lambda(['pa_x', 'pa_next'], binary('!=', item(field('pa_x')), field('pa_next'))), session, nextItems);
  return select({
    select: [field('pa_actor'), alias(limitedPath(collapsed, query), 'pa_path')],
    from: subquery(perSession, 'path_sessions'),
  });
}

/** A path's node keys, "<position>_<item>", as the edges name them. */
export function pathNodes(path: Expr): Expr {
  return call('arrayMap', lambda(['pa_i'], call('concat', call('toString', field('pa_i')), text('_'), item(call('arrayElement', path, field('pa_i'))))), call('arrayEnumerate', path));
}

/**
 * Columns: source, target, value, average_conversion_time (ms): the edges within the weight bounds,
 * heaviest first (source, target by bytes), at most edgeLimit of them.
 */
export function pathEdges(paths: Select, query: PathsQuery): Select {
  const { minEdgeWeight, maxEdgeWeight, edgeLimit } = query.pathsFilter;
  const path = field('pa_path');
  const node = (i: Expr) => call('concat', call('toString', i), text('_'), item(call('arrayElement', path, i)));
  const steps = call('arrayMap', lambda(['pa_i'], tuple(
    node(field('pa_i')),
    node(binary('+', field('pa_i'), num(1))),
    binary('-', ms(call('arrayElement', path, binary('+', field('pa_i'), num(1)))), ms(call('arrayElement', path, field('pa_i')))),
  )), call('range', num(1), call('toInt64', call('length', path))));
  const edges = select({
    select: [alias(call('arrayJoin', steps), 'pa_edge')],
    from: subquery(paths, 'path_paths'),
    where: binary('>', call('length', path), num(1)),
  });
  return select({
    select: [
      alias(call('tupleElement', field('pa_edge'), num(1)), 'source'),
      alias(call('tupleElement', field('pa_edge'), num(2)), 'target'),
      alias(call('count'), 'value'),
      alias(call('avg', call('tupleElement', field('pa_edge'), num(3))), 'average_conversion_time'),
    ],
    from: subquery(edges, 'path_edges'),
    groupBy: [field('source'), field('target')],
    having: allOf(
      minEdgeWeight === null ? undefined : binary('>=', call('count'), num(minEdgeWeight)),
      maxEdgeWeight === null ? undefined : binary('<=', call('count'), num(maxEdgeWeight)),
    ),
    orderBy: [desc(field('value')), asc(field('source')), asc(field('target'))],
    limit: edgeLimit,
  });
}
