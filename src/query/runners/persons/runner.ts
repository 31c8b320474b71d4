// Lists the project's persons for an ActorsQuery without a source, PostHog's way: columns are HogQL
// over the persons table (`person` is the person itself, looked up after the page with its distinct
// ids; `person.$delete` is 1), the search and person filters narrow them, the default order is
// count() or the first aggregate descending, else created_at descending, else the first column.
import { personsById } from '../../actors/load.js';
import { cohortMembers } from '../../cohorts/members.js';
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import { DISPLAY_NAME_COLUMN, displayNameExpr, displayNameOrderItem, DEFAULT_DISPLAY_NAME_PROPERTIES } from '../../hogql/display-name.js';
import { sharedHogQLParser } from '../../hogql/parse/index.js';
import { defaultOrder, FILTERS_PLACEHOLDER, hasAggregation, parseExprs, parseOrderItems, selectQueryNode, withoutLabel } from '../../hogql/select-list.js';
import type { PersonsListQuery } from '../../nodes/schema.js';
import { DEFAULT_ROWS, MAX_ROWS, roundedSeconds, runSelectPage } from '../hogql/run-select.js';
import { tupleValues } from '../hogql/values.js';
import type { RunOutput } from '../kind.js';
import { personsFiltersExpr, SEARCH_HOGQL, searchPattern } from './filters.js';

/** PostHog's PersonStrategy.input_columns. */
const DEFAULT_COLUMNS = ['person', 'id', 'person.$delete'];
const PERSON_COLUMNS = new Set(['person', 'actor']);

export const listedColumns = (query: PersonsListQuery): readonly string[] => query.select ?? DEFAULT_COLUMNS;

type Role = 'person' | 'display name' | 'expression';

const roleOf = (column: string): Role => {
  const bare = withoutLabel(column);
  return PERSON_COLUMNS.has(bare) ? 'person' : bare === DISPLAY_NAME_COLUMN ? 'display name' : 'expression';
};

function columnInput(column: string, query: PersonsListQuery, context: QueryContext): string {
  if (withoutLabel(column) === 'person.$delete') return '1';
  switch (roleOf(column)) {
    case 'person':
      return 'id';
    case 'display name':
      return `(${displayNameExpr(context.project, 'properties', 'toString(id)')}, toString(id))`;
    default:
      return column;
  }
}

/** PostHog sorts `person` by the first display-name property (email unless the project set its own). */
function orderInput(item: string, context: QueryContext): string {
  const person = /^(?:person|actor)(?:\s+(ASC|DESC))?$/i.exec(item.trim());
  if (person) {
    const key = context.project.personDisplayNameProperties?.[0] ?? DEFAULT_DISPLAY_NAME_PROPERTIES[0]!;
    return `properties.\`${key.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\` ${person[1]?.toUpperCase() ?? 'ASC'}`;
  }
  return displayNameOrderItem(item, displayNameExpr(context.project, 'properties', 'toString(id)'), 'toString(id)');
}

export async function runPersonsList(query: PersonsListQuery, context: QueryContext, run: QueryRun): Promise<RunOutput> {
  const columns = listedColumns(query);
  const limit = Math.min(query.limit ?? DEFAULT_ROWS, MAX_ROWS);
  const pattern = searchPattern(query);
  const parseStarted = performance.now();
  const [select, order, search] = await Promise.all([
    parseExprs(columns.map((column) => columnInput(column, query, context)), context.project.id),
    query.orderBy ? parseOrderItems(query.orderBy.map((item) => orderInput(item, context)), context.project.id) : Promise.resolve(null),
    pattern === null ? Promise.resolve(null) : sharedHogQLParser().parse('expr', SEARCH_HOGQL, context.project.id),
  ]);
  const parseMs = performance.now() - parseStarted;
  const aggregations = select.filter(hasAggregation);
  const node = selectQueryNode({
    select,
    table: 'persons',
    where: [FILTERS_PLACEHOLDER, ...(search ? [search] : [])],
    having: [],
    groupBy: aggregations.length > 0 ? select.filter((s) => !hasAggregation(s) && s.node !== 'Constant') : null,
    orderBy: order ?? defaultOrder(columns, select, 'created_at'),
    limit: limit + 1,
    offset: query.offset,
  });
  const page = await runSelectPage(node, {
    timezone: context.project.timezone,
    weekStartDay: context.project.weekStartDay,
    values: pattern === null ? {} : { search: pattern },
    filters: (target) => personsFiltersExpr(query, context, target),
    cohortMembers: (id) => cohortMembers(id, context),
    cohortIdByName: (name) => context.cohortNames?.get(name),
    ...(context.hogql ? { hogql: context.hogql } : {}),
  }, run, limit);

  const roles = columns.map(roleOf);
  const personAt = roles.indexOf('person');
  const persons = personAt < 0 ? new Map() : await personsById(run, page.rows.map((row) => String(row[personAt])));
  const results = page.rows.map((row) => row.map((value, i) => {
    if (roles[i] === 'person') return persons.get(String(value)) ?? { id: String(value) };
    if (roles[i] === 'display name') {
      const [displayName, id] = tupleValues(value);
      return { display_name: displayName, id: String(id) };
    }
    return value;
  }));
  return {
    results,
    columns,
    types: page.types,
    hogql: page.hogql,
    hasMore: page.hasMore,
    limit,
    offset: query.offset,
    missing_actors_count: personAt < 0 ? null : page.rows.length - persons.size,
    timings: [{ k: './parse', t: roundedSeconds(parseMs) }, { k: './translate', t: roundedSeconds(page.translateMs) }],
  };
}
