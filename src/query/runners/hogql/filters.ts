// What `{filters}` stands for in a HogQL query, PostHog's way (posthog/hogql/filters.py): over the
// events table (under any alias) its timestamp bounded by the date range, the property filters and
// (when asked) the project's test-account filters; over the sessions table alone, the session's
// $start_timestamp bounded by the date range; over groups, created_at and group properties. A range left out bounds nothing (no default period);
// date_to is exclusive; both read as resolveFilterDate says.
import { binary, call, constant } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import { instant } from '../../buckets/bucket-start.js';
import type { QueryContext } from '../../context.js';
import { propertyGroupExpr } from '../../filters/properties.js';
import type { FilterTarget } from '../../hogql/translate/translate.js';
import { HogQLQueryError } from '../../hogql/errors.js';
import { typed } from '../../hogql/translate/types.js';
import type { HogQLQuery, PropertyFilter, PropertyGroup } from '../../nodes/schema.js';
import { utcText } from '../event-range.js';
import { resolveFilterDate } from './filter-dates.js';

export const FILTERS_TABLE_ERROR = "Cannot use 'filters' placeholder in a SELECT clause that does not select from the events, sessions, logs, traces or groups table.";

export function hogqlFiltersExpr(query: HogQLQuery, context: QueryContext, target: FilterTarget): Expr {
  const { events, sessionStart, groupCreatedAt, properties: source } = target;
  const timestamp = events?.timestamp ?? sessionStart ?? groupCreatedAt;
  if (!timestamp) throw new HogQLQueryError(FILTERS_TABLE_ERROR);
  const { timezone } = context.project;
  const parts: Expr[] = [];
  const bound = (text: string) => {
    const date = resolveFilterDate(text, timezone, context.now);
    return instant(utcText(date.at, date.end));
  };
  const { date_from: from, date_to: to } = query.dateRange;
  if (to && to.trim() !== '') parts.push(binary('<', timestamp, bound(to)));
  if (from && from.trim() !== '' && from.trim() !== 'all') parts.push(binary('>=', timestamp, bound(from)));
  const testAccounts = query.filterTestAccounts ? context.testAccountFilters : undefined;
  if (sessionStart) {
    // Over the sessions table alone PostHog takes session property filters only.
    if (anyFilter(query.properties, (f) => f.type !== 'session')) {
      throw new HogQLQueryError('Can only use session properties in a filter when selecting from only the sessions table.');
    }
  } else if (!events && anyFilter(query.properties, (f) => f.type === 'session')) {
    throw new HogQLQueryError(`The 'session' property filter does not work in '${groupCreatedAt ? 'group' : 'person'}' scope`);
  }
  const properties = propertyGroupExpr(query.properties, source, timezone);
  if (properties) parts.push(properties);
  if (testAccounts) {
    const expr = propertyGroupExpr(testAccounts, target.testAccountProperties ?? source, timezone);
    if (expr) parts.push(expr);
  }
  return parts.length === 0 ? constant(true) : parts.length === 1 ? parts[0]! : { kind: 'and', exprs: Object.freeze(parts) };
}

const anyFilter = (group: PropertyGroup, test: (filter: PropertyFilter) => boolean): boolean =>
  group.values.some((v) => ('key' in v ? test(v) : anyFilter(v, test)));

/**
 * `{filters.dateRange.from}` / `{filters.dateRange.to}`: the bound as a DateTime in the project's
 * time zone (as PostHog prints it); undefined when the range leaves it open (date_from "all" too).
 */
export function hogqlFilterDate(query: HogQLQuery, context: QueryContext, bound: 'from' | 'to'): Expr | undefined {
  const text = (bound === 'from' ? query.dateRange.date_from : query.dateRange.date_to)?.trim();
  if (!text || (bound === 'from' && text === 'all')) return undefined;
  const { timezone } = context.project;
  const date = resolveFilterDate(text, timezone, context.now);
  const local = date.at.setZone(timezone).toFormat('yyyy-MM-dd HH:mm:ss.SSS') + (date.end ? '999' : '');
  return typed(call('toDateTime64', constant(local), constant(6, 'UInt8'), constant(timezone)), 'datetime', false);
}
