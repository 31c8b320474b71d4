// What an EventsQuery's own fields add to its WHERE (through `{filters}`): property filters,
// fixed properties and test accounts, the event names, the action, the person, and the time
// window: after `after` (-24h unless told; "all" for no bound), before `before` (now + 5 s).
import { and, binary, call, constant, eq, or } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import { instant } from '../../buckets/bucket-start.js';
import type { QueryContext } from '../../context.js';
import { parseDate } from '../../dates/parse-date.js';
import { actionExpr } from '../../filters/actions.js';
import { propertyGroupExpr } from '../../filters/properties.js';
import { HogQLQueryError } from '../../hogql/errors.js';
import type { FilterTarget } from '../../hogql/translate/translate.js';
import type { EventsQuery } from '../../nodes/schema.js';
import { utcText } from '../event-range.js';

/** PostHog hides events stamped in the near future unless `before` says otherwise. */
const FUTURE_GRACE_SECONDS = 5;

export function eventsFiltersExpr(query: EventsQuery, context: QueryContext, { events, properties }: FilterTarget): Expr {
  if (!events) throw new HogQLQueryError('An events query reads the events table.');
  const { timezone, weekStartDay } = context.project;
  const clock = { timezone, weekStartDay, now: context.now };
  const parts: Expr[] = [];
  for (const group of [query.properties, query.fixedProperties, ...(query.filterTestAccounts ? [context.testAccountFilters] : [])]) {
    const condition = propertyGroupExpr(group, properties, timezone);
    if (condition) parts.push(condition);
  }
  if (query.event.length === 1) parts.push(eq(events.event, constant(query.event[0]!)));
  if (query.event.length > 1) parts.push(or(...query.event.map((name) => eq(events.event, constant(name)))));
  if (query.actionId !== null) {
    const action = context.actions.get(query.actionId);
    if (!action) throw new HogQLQueryError('Action does not exist');
    if (action.steps.length === 0) throw new HogQLQueryError('Action does not have any match groups');
    parts.push(actionExpr(action, events, timezone));
  }
  if (query.personId !== null) parts.push(eq(call('toString', events.personId()), constant(query.personId.toLowerCase())));
  const before = query.dateRange.date_to ? parseDate(query.dateRange.date_to, clock, { attr: 'before' }).value : context.now.plus({ seconds: FUTURE_GRACE_SECONDS });
  parts.push(binary('<', events.timestamp, instant(utcText(before))));
  const after = query.dateRange.date_from ?? '-24h';
  if (after.trim() !== 'all') parts.push(binary('>', events.timestamp, instant(utcText(parseDate(after, clock, { attr: 'after' }).value))));
  return and(...parts);
}
