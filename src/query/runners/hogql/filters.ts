// What `{filters}` stands for in a HogQL query over one events table: the query's date range,
// property filters and (when asked) the project's test-account filters, PostHog's way. A date range
// left out means the last 7 days, as PostHog's HogQL filters read it.
import { binary, constant } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import { instant } from '../../buckets/bucket-start.js';
import type { QueryContext } from '../../context.js';
import { resolveDateFrom, resolveDateTo } from '../../dates/date-range.js';
import { propertyGroupExpr } from '../../filters/properties.js';
import type { FilterTarget } from '../../hogql/translate/translate.js';
import { HogQLQueryError } from '../../hogql/errors.js';
import type { HogQLQuery } from '../../nodes/schema.js';
import { utcText } from '../event-range.js';

export function hogqlFiltersExpr(query: HogQLQuery, context: QueryContext, { events, properties: source }: FilterTarget): Expr {
  if (!events) throw new HogQLQueryError("Cannot use 'filters' placeholder in a SELECT clause that does not select from the events table.");
  const { timezone, weekStartDay } = context.project;
  const clock = { timezone, weekStartDay, now: context.now };
  const options = { interval: 'day' as const };
  const parts: Expr[] = [];
  if (query.dateRange.date_from?.trim() !== 'all') {
    parts.push(binary('>=', events.timestamp, instant(utcText(resolveDateFrom(query.dateRange, clock, options)))));
  }
  parts.push(binary('<', events.timestamp, instant(utcText(resolveDateTo(query.dateRange, clock, options), true))));
  const properties = propertyGroupExpr(query.properties, source, timezone);
  if (properties) parts.push(properties);
  if (query.filterTestAccounts) {
    const testAccounts = propertyGroupExpr(context.testAccountFilters, source, timezone);
    if (testAccounts) parts.push(testAccounts);
  }
  return parts.length === 0 ? constant(true) : parts.length === 1 ? parts[0]! : { kind: 'and', exprs: Object.freeze(parts) };
}
