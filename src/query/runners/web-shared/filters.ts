// What a web query's events must satisfy and what it reads of their sessions: the property
// filters (event, person, session, cohort) and the project's test-account filters, applied per
// event as PostHog's web runners do; the conversion goal as an event condition; the session's
// fields (read through HogQL's `session.*`, so the engine joins the sessions once per query).
import { call, constant, eq, not, or, allOf, binary } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import type { QueryContext } from '../../context.js';
import { actionExpr } from '../../filters/actions.js';
import { isSessionFieldName, sessionFieldText, type EventSource } from '../../filters/event-source.js';
import { propertyGroupExpr } from '../../filters/properties.js';
import { sharedHogQLParser } from '../../hogql/parse/index.js';
import type { HogQLNode } from '../../hogql/translate/hogql-ast.js';
import type { PropertyFilter, PropertyGroup } from '../../nodes/schema.js';
import type { ConversionGoal, WebAnalyticsQueryBase, WebModifiers } from './types.js';

/** The query's property filters and (when asked) the project's test-account filters, ANDed; undefined when none. */
export function webFilterExpr(query: Pick<WebAnalyticsQueryBase, 'properties' | 'filterTestAccounts'>, context: QueryContext, source: EventSource, properties: PropertyGroup = query.properties): Expr | undefined {
  const { timezone } = context.project;
  return allOf(
    propertyGroupExpr(properties, source, timezone),
    query.filterTestAccounts ? propertyGroupExpr(context.testAccountFilters, source, timezone) : undefined,
  );
}

/** The events a web query counts as page views: `$pageview` and `$screen` (mobile). */
export function pageviewExpr(source: EventSource): Expr {
  return or(eq(source.event, constant('$pageview')), eq(source.event, constant('$screen')));
}

/** An event that reaches the conversion goal: the action's steps, or the custom event's name. */
export function conversionGoalExpr(goal: ConversionGoal, context: QueryContext, source: EventSource): Expr {
  if ('actionId' in goal) return actionExpr(context.actions.get(goal.actionId), source, context.project.timezone);
  return eq(source.event, constant(goal.customEventName));
}

/** The action a query's goal names (fetched before the run and covered by its cache key). */
export function goalActionIds(query: Pick<WebAnalyticsQueryBase, 'conversionGoal'>): number[] {
  const goal = query.conversionGoal;
  return goal && 'actionId' in goal ? [goal.actionId] : [];
}

/** The events a web query reads: page views and screens, and the goal's events when it has one. */
export function webEventsExpr(query: Pick<WebAnalyticsQueryBase, 'conversionGoal'>, context: QueryContext, source: EventSource): Expr {
  return query.conversionGoal ? or(pageviewExpr(source), conversionGoalExpr(query.conversionGoal, context, source)) : pageviewExpr(source);
}

/** An event that belongs to a session ($session_id set). */
export function hasSession(source: EventSource): Expr {
  return call('notEmpty', source.sessionId);
}

/**
 * The context able to read these session fields through `session.<name>`: HogQL texts are parsed
 * before a run (the parser is asynchronous, the runners' builders are not). Call it first in run().
 */
export async function withSessionFields(context: QueryContext, names: readonly string[]): Promise<QueryContext> {
  const known = new Map<string, HogQLNode>(context.hogql ?? []);
  const parser = sharedHogQLParser();
  for (const name of names) {
    const text = sessionFieldText(name);
    if (!known.has(text)) known.set(text, await parser.parse('expr', text, context.project.id));
  }
  return { ...context, hogql: known };
}

/** The session fields a query's filters read (and the test-account filters', when applied): for withSessionFields. */
export function filterSessionFields(query: Pick<WebAnalyticsQueryBase, 'properties' | 'filterTestAccounts'>, context: QueryContext): string[] {
  return [...sessionKeys(query.properties), ...(query.filterTestAccounts ? sessionKeys(context.testAccountFilters) : [])];
}

function sessionKeys(group: PropertyGroup): string[] {
  return group.values.flatMap((entry) => ('values' in entry ? sessionKeys(entry) : sessionKeyOf(entry)));
}

const sessionKeyOf = (filter: PropertyFilter): string[] => (filter.type === 'session' && isSessionFieldName(filter.key) ? [filter.key] : []);

/** A field of the event's session (typed as PostHog types it); the context must come from withSessionFields. */
export function sessionField(source: EventSource, name: string): Expr {
  return source.hogqlExpr(sessionFieldText(name));
}

/** The session fields bounceExpr reads for these modifiers (to pass to withSessionFields). */
export function bounceFields(modifiers: WebModifiers): string[] {
  if (modifiers.bounceRatePageViewMode === 'count_pageviews' && modifiers.bounceRateDurationSeconds === 10) return ['$is_bounce'];
  return modifiers.bounceRatePageViewMode === 'count_pageviews'
    ? ['$pageview_count', '$autocapture_count', '$session_duration']
    : ['$page_screen_autocapture_count_up_to', '$session_duration'];
}

/**
 * Whether the event's session bounced (NULL for a session without page views), by PostHog's
 * sessions-table rule for the modifiers: the session's own `$is_bounce` by default, else the
 * same rule over its counts with the mode's events and threshold.
 */
export function bounceExpr(source: EventSource, modifiers: WebModifiers): Expr {
  const seconds = modifiers.bounceRateDurationSeconds;
  if (modifiers.bounceRatePageViewMode === 'count_pageviews' && seconds === 10) return sessionField(source, '$is_bounce');
  const long = binary('>=', sessionField(source, '$session_duration'), constant(seconds, 'Float64'));
  const [count, engaged] = modifiers.bounceRatePageViewMode === 'count_pageviews'
    ? [sessionField(source, '$pageview_count'), or(binary('>', sessionField(source, '$pageview_count'), constant(1)), binary('>', sessionField(source, '$autocapture_count'), constant(0)))]
    : [sessionField(source, '$page_screen_autocapture_count_up_to'), binary('>', sessionField(source, '$page_screen_autocapture_count_up_to'), constant(1))];
  return call('if', eq(count, constant(0)), constant(null, 'Nullable(Nothing)'), not(or(engaged, long)));
}
