// FROM and JOIN: each item a HogQL table, a CTE, a subquery or a table function, under its alias
// (and `AS e (a, b)` column names); a join's type and its ON or USING constraint.
import { call, constant, field, subquery } from '../../ast/build.js';
import type { FromItem, Join, JoinType } from '../../ast/nodes.js';
import { isPrintableIdentifier } from '../../printer/print.js';
import { HogQLNotSupportedError, HogQLQueryError } from '../errors.js';
import { CTE_LOOP } from './budget.js';
import { checkAlias } from './fields.js';
import { chainOf, child, children, isNode, type HogQLNode } from './hogql-ast.js';
import { numbersTable, type TranslateBound } from './numbers-table.js';
import { SAMPLE_TABLES_ONLY, sampleOf } from './sample.js';
import { Scope, type CteMap, type Translator } from './scope.js';
import { isHogQLTable, scopedTable, type Chain, type ScopedTable } from './tables.js';

const JOIN_TYPES: Record<string, JoinType> = {
  JOIN: 'INNER', 'INNER JOIN': 'INNER', 'LEFT JOIN': 'LEFT', 'LEFT OUTER JOIN': 'LEFT', 'RIGHT JOIN': 'RIGHT',
  'RIGHT OUTER JOIN': 'RIGHT', 'FULL JOIN': 'FULL OUTER', 'FULL OUTER JOIN': 'FULL OUTER', 'CROSS JOIN': 'CROSS',
  'LEFT ANY JOIN': 'LEFT ANY', 'ANY LEFT JOIN': 'LEFT ANY', 'INNER ANY JOIN': 'INNER ANY', 'ANY INNER JOIN': 'INNER ANY',
  'ANY JOIN': 'INNER ANY', 'RIGHT ANY JOIN': 'RIGHT ANY', 'LEFT SEMI JOIN': 'LEFT SEMI', 'RIGHT SEMI JOIN': 'RIGHT SEMI',
  'LEFT ANTI JOIN': 'LEFT ANTI', 'RIGHT ANTI JOIN': 'RIGHT ANTI', 'LEFT ASOF JOIN': 'LEFT ASOF', 'ASOF JOIN': 'ASOF',
  'ASOF LEFT JOIN': 'LEFT ASOF', 'SEMI LEFT JOIN': 'LEFT SEMI', 'ANTI LEFT JOIN': 'LEFT ANTI',
};
/** Table functions a query may read (PostHog's): generated rows only, never the store. */
const TABLE_FUNCTIONS: Record<string, (args: readonly HogQLNode[] | null, alias: string, translate: TranslateBound) => ScopedTable> = { numbers: numbersTable };

/** The `groups` tables of the queries translated: {filters} over them bounds created_at. */
export const GROUPS_TABLES = new WeakSet<ScopedTable>();

/** `joined`: a table after the first, whose own ON clause must read its lazy joins too. */
export function fromItem(t: Translator, join: HogQLNode, scope: Scope, joined: boolean): FromItem {
  if (join['table_final']) throw new HogQLQueryError('The FINAL keyword is not supported in HogQL as it causes slow queries');
  // `AS e (a, b, c)`: the source as usual, its first columns then answering to the new names.
  if (Array.isArray(join['column_aliases'])) {
    const names = join['column_aliases'].map(String);
    const from = fromItem(t, { ...join, column_aliases: undefined }, scope, joined);
    const table = [...scope.tables.values()].find((x) => x.from === from)!;
    for (const name of names) checkAlias(name, scope);
    scope.tables.set(table.alias, renamedColumns(table, names));
    return from;
  }
  const source = child(join, 'table');
  if (!source) throw new HogQLQueryError('A join needs a table');
  const given = typeof join['alias'] === 'string' ? join['alias'] : undefined;
  // `name(...)`: null when the table was written without parentheses.
  const tableArgs = Array.isArray(join['table_args']) ? join['table_args'].filter(isNode) : null;
  // Only the events table samples: PostHog declares it SAMPLE BY cityHash64(distinct_id).
  const sample = sampleOf(join);
  const isEventsTable = source.node === 'Field' && tableArgs === null && chainOf(source).join('.') === 'events' && !scope.ctes.has('events');
  if (sample && !isEventsTable) throw new HogQLQueryError(SAMPLE_TABLES_ONLY);
  if (source.node === 'Field') {
    const name = chainOf(source).join('.');
    // posthog.cohort_membership reads as cohort_membership, as PostHog names it.
    const alias = tableAlias(given ?? (name === 'posthog.cohort_membership' ? 'cohort_membership' : name), scope);
    const cte = tableArgs === null ? scope.ctes.get(name) : undefined;
    if (cte && !cte.column) return t.budget.expandingCte(name, () => subqueryTable(t, cte.node, alias, scope, cte.visible));
    const tableFunction = Object.hasOwn(TABLE_FUNCTIONS, name) ? TABLE_FUNCTIONS[name] : undefined;
    if (tableFunction) {
      // Its arguments see no table and no alias of this SELECT: constants the engine folds.
      const generated = tableFunction(tableArgs, alias, (arg) => t.expr(arg, new Scope(new Map())));
      scope.tables.set(alias, generated);
      return generated.from;
    }
    if (tableArgs !== null && (name === 'range' || name === 'generate_series')) throw new HogQLQueryError(`${name}() is not supported in ClickHouse dialect`);
    if (tableArgs !== null) throw new HogQLQueryError(`Table '${name}' does not accept arguments`);
    if (!isHogQLTable(name)) throw new HogQLQueryError(t.budget.isExpanding(name) ? CTE_LOOP : `Unknown table \`${name}\`.`);
    const cohortPeople = t.context.cohortPeople;
    const table = scopedTable(name, alias, { timezone: t.context.timezone, joined, propertyType: t.propertyType, ...(sample ? { sample } : {}), ...(cohortPeople ? { cohortPeople } : {}) });
    if (name === 'groups') GROUPS_TABLES.add(table);
    scope.tables.set(alias, table);
    return table.from;
  }
  if (source.node === 'SelectQuery' || source.node === 'SelectSetQuery') {
    return subqueryTable(t, source, tableAlias(given ?? `_subquery${++t.aliasCount}`, scope), scope);
  }
  if (source.node === 'Call') throw new HogQLQueryError(`Unknown table function \`${String(source['name'])}\`.`);
  throw new HogQLNotSupportedError(`Selecting from ${source.node}`);
}

function tableAlias(name: string, scope: Scope): string {
  if (!isPrintableIdentifier(name) || name.includes('__')) throw new HogQLQueryError(`Invalid table alias: ${name}`);
  if (scope.tables.has(name)) throw new HogQLQueryError(`Already have joined a table called "${name}". Can't redefine.`);
  return name;
}

function subqueryTable(t: Translator, node: HogQLNode, tableAlias: string, scope: Scope, ctes: CteMap = scope.ctes): FromItem {
  const inner = t.query(node, ctes);
  const columns = new Map(t.columnsOf(node).map((name) => [name, true] as const));
  const from = subquery(inner, tableAlias);
  scope.tables.set(tableAlias, {
    alias: tableAlias,
    from,
    asterisk: () => [...columns.keys()],
    resolve: (chain: Chain) => {
      const [head, ...rest] = chain;
      if (typeof head !== 'string' || !columns.has(head)) return undefined;
      const value = field(head, tableAlias);
      return rest.length === 0 ? value : call('replaceRegexpAll', call('nullIf', call('nullIf', call('JSONExtractRaw', value, ...rest.map((k) => constant(k))), constant('')), constant('null')), constant('^"|"$'), constant(''));
    },
    joins: () => [],
  });
  return from;
}

export function join(t: Translator, node: HogQLNode, from: FromItem, scope: Scope): Join {
  const type = JOIN_TYPES[String(node['join_type'] ?? 'JOIN').toUpperCase().replace(/\s+/g, ' ')];
  if (!type) throw new HogQLNotSupportedError(String(node['join_type']));
  const constraint = child(node, 'constraint');
  if (!constraint) {
    if (type !== 'CROSS') throw new HogQLQueryError(`${String(node['join_type'])} needs an ON or USING constraint`);
    return Object.freeze({ type, from });
  }
  const expr = child(constraint, 'expr')!;
  if (constraint['constraint_type'] === 'USING') {
    const names = (expr.node === 'Tuple' ? children(expr, 'exprs') : [expr]).map((x) => (x.node === 'Field' && chainOf(x).length === 1 ? String(chainOf(x)[0]) : ''));
    if (names.some((n) => !isPrintableIdentifier(n))) throw new HogQLQueryError('USING takes column names');
    for (const table of scope.tables.values()) for (const name of names) table.markRead?.(name);
    return Object.freeze({ type, from, using: Object.freeze(names) });
  }
  t.inJoinConstraint += 1;
  try {
    return Object.freeze({ type, from, on: t.expr(expr, scope) });
  } finally {
    t.inJoinConstraint -= 1;
  }
}

/**
 * A table read under `AS e (a, b, c)`: its first columns (in `select *` order) answer to the new
 * names only; the rest keep theirs. The FROM item is unchanged, so the team guard stays put.
 */
function renamedColumns(table: ScopedTable, names: readonly string[]): ScopedTable {
  const columns = table.asterisk();
  if (names.length > columns.length) throw new HogQLQueryError(`Table '${table.alias}' has ${columns.length} column(s) but ${names.length} column name(s) were provided`);
  if (new Set(names).size !== names.length) throw new HogQLQueryError(`Cannot redefine an alias with the name: ${names.find((n, i) => names.indexOf(n) !== i)}`);
  const renamed = new Map(names.map((name, i) => [name, columns[i]!] as const));
  const hidden = new Set(columns.slice(0, names.length));
  // Delegating (the tables are classes whose methods keep state): the table itself does the reading.
  return {
    alias: table.alias,
    get from() { return table.from; },
    get events() { return table.events; },
    get personProperties() { return table.personProperties; },
    get personIdField() { return table.personIdField; },
    ...(table.markRead ? { markRead: (column: string) => table.markRead!(renamed.get(column) ?? column) } : {}),
    ...(table.finalFrom ? { finalFrom: () => table.finalFrom!() } : {}),
    asterisk: () => columns.map((column, i) => names[i] ?? column),
    resolve: (chain: Chain) => {
      const [head, ...rest] = chain;
      if (typeof head !== 'string') return table.resolve(chain);
      if (renamed.has(head)) return table.resolve([renamed.get(head)!, ...rest]);
      if (hidden.has(head)) throw new HogQLQueryError(`Field not found: ${head}`);
      return table.resolve(chain);
    },
    joins: () => table.joins(),
  };
}
