// Runs an EventsQuery, PostHog's way: the column strings parsed as HogQL, non-aggregate columns
// grouped by when any column aggregates, WHERE strings that aggregate moved to HAVING, the
// default order (count() or the first aggregate descending, else timestamp descending, else the
// first column), a page of `limit` rows (100 unless told, at most 50,000) with `hasMore`.
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import { defaultOrder, FILTERS_PLACEHOLDER, hasAggregation, parseExprs, parseOrderItems, selectQueryNode } from '../../hogql/select-list.js';
import type { EventsQuery } from '../../nodes/schema.js';
import { DEFAULT_ROWS, MAX_ROWS, roundedSeconds, runSelectPage } from '../hogql/run-select.js';
import type { RunOutput } from '../kind.js';
import { columnInput, displayNameObject, orderInput, roleOf, starObject } from './columns.js';
import { eventsFiltersExpr } from './filters.js';
import { personsOfDistinctIds } from './persons.js';

/** The columns asked for: `*` alone when none. */
export const selectedColumns = (query: EventsQuery): readonly string[] => (query.select.length === 0 ? ['*'] : query.select);

export async function runEvents(query: EventsQuery, context: QueryContext, run: QueryRun): Promise<RunOutput> {
  const { project } = context;
  const columns = selectedColumns(query);
  const limit = Math.min(query.limit ?? DEFAULT_ROWS, MAX_ROWS);
  const parseStarted = performance.now();
  const [select, where, order] = await Promise.all([
    parseExprs(columns.map((column) => columnInput(column, project)), project.id),
    parseExprs(query.where, project.id),
    query.orderBy ? parseOrderItems(query.orderBy.map((item) => orderInput(item, project)), project.id) : Promise.resolve(null),
  ]);
  const parseMs = performance.now() - parseStarted;
  const aggregations = select.filter(hasAggregation);
  const node = selectQueryNode({
    select,
    table: 'events',
    where: [...where.filter((w) => !hasAggregation(w)), FILTERS_PLACEHOLDER],
    having: where.filter(hasAggregation),
    groupBy: aggregations.length > 0 ? select.filter((s) => !hasAggregation(s)) : null,
    orderBy: order ?? defaultOrder(columns, select, 'timestamp'),
    limit: limit + 1,
    offset: query.offset,
  });
  const page = await runSelectPage(node, {
    timezone: project.timezone,
    weekStartDay: project.weekStartDay,
    values: {},
    filters: (target) => eventsFiltersExpr(query, context, target),
    ...(context.hogql ? { hogql: context.hogql } : {}),
  }, run, limit);

  const roles = columns.map(roleOf);
  const personAt = roles.indexOf('person');
  const persons = personAt < 0 ? new Map() : await personsOfDistinctIds(page.rows.map((row) => String(row[personAt])), context, run);
  const results = page.rows.map((row) => row.map((value, i) => {
    switch (roles[i]) {
      case 'star':
        return starObject(value, project);
      case 'display name':
        return displayNameObject(value);
      case 'person':
        return persons.get(String(value)) ?? { distinct_id: value };
      default:
        return value;
    }
  }));
  return {
    results,
    // PostHog names a column by the string asked for, or by its alias.
    columns: columns.map((column, i) => (select[i]?.node === 'Alias' ? page.columns[i] ?? column : column)),
    types: page.types,
    hogql: page.hogql,
    hasMore: page.hasMore,
    limit,
    offset: query.offset,
    timings: [{ k: './parse', t: roundedSeconds(parseMs) }, { k: './translate', t: roundedSeconds(page.translateMs) }],
  };
}
