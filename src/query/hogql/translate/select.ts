// One SELECT: its FROM and joins (from.ts), ARRAY JOIN, select list (`*` expanded), WHERE, GROUP BY,
// HAVING, ORDER BY, LIMIT BY, LIMIT and OFFSET; then the rewrites that keep its rows and save work.
import { alias, and, field, select as selectNode, tuple } from '../../ast/build.js';
import type { Expr, FromItem, Join, OrderItem, Select } from '../../ast/nodes.js';
import { isPrintableIdentifier } from '../../printer/print.js';
import { HogQLNotSupportedError, HogQLQueryError } from '../errors.js';
import { filterBeforeJoins } from './filter-first.js';
import { boundSessionJoins } from './session-bound.js';
import { fromItem, join } from './from.js';
import { chainOf, child, children, isNode, type HogQLNode } from './hogql-ast.js';
import { lookupsAsSemiJoins } from './lookup-semi-join.js';
import { columnName, withValues } from './print-hogql.js';
import { Scope, withCtes, type CteMap, type Translator } from './scope.js';
import type { ScopedTable } from './tables.js';

const ARRAY_JOINS: ReadonlySet<string> = new Set(['ARRAY JOIN', 'INNER ARRAY JOIN', 'LEFT ARRAY JOIN']);

/** LEFT ARRAY JOIN x as ARRAY JOIN of x, or of [default] when x is empty (what ClickHouse's LEFT form gives). */
function leftArrayJoin(item: HogQLNode): HogQLNode {
  const array = item.node === 'Alias' ? child(item, 'expr')! : item;
  const fn = (name: string, ...args: HogQLNode[]): HogQLNode => ({ node: 'Call', name, args });
  const kept = fn('if', fn('empty', array), fn('arrayResize', array, { node: 'Constant', value: 1 }), array);
  return item.node === 'Alias' ? { ...item, expr: kept } : kept;
}

export function select(t: Translator, node: HogQLNode, outerCtes: CteMap): Select {
  if (node['qualify']) throw new HogQLQueryError("QUALIFY is not supported in the 'clickhouse' dialect");
  if (node['settings']) throw new HogQLNotSupportedError('SETTINGS');
  const scope = new Scope(withCtes(node, outerCtes));
  const windows = node['window_exprs'];
  if (windows && typeof windows === 'object') {
    for (const [name, window] of Object.entries(windows)) if (isNode(window)) scope.windows.set(name, window);
  }
  const from = child(node, 'select_from');
  const joinNodes: HogQLNode[] = [];
  for (let next = from; next; next = child(next, 'next_join')) joinNodes.push(next);
  const fromItems = joinNodes.map((next, i) => fromItem(t, next, scope, i > 0));
  const joins: Join[] = joinNodes.slice(1).map((next, i) => join(t, next, fromItems[i + 1]!, scope));

  let arrayJoin: Expr | undefined;
  const arrayJoins = children(node, 'array_join_list');
  if (arrayJoins.length > 0) {
    const op = String(node['array_join_op'] ?? 'ARRAY JOIN');
    if (!ARRAY_JOINS.has(op) || arrayJoins.length !== 1) throw new HogQLNotSupportedError(`${op} of several arrays`);
    for (const item of children(node, 'select')) if (item.node === 'Alias') scope.selectAliases.set(String(item['alias']), child(item, 'expr')!);
    try {
      arrayJoin = t.expr(op === 'LEFT ARRAY JOIN' ? leftArrayJoin(arrayJoins[0]!) : arrayJoins[0]!, scope);
    } finally {
      scope.selectAliases.clear();
    }

  }

  const items = children(node, 'select');
  const selected: Expr[] = [];
  const names: string[] = [];
  for (const item of items) {
    if (item.node === 'Field' && chainOf(item).at(-1) === '*') {
      const expanded = star(item, scope);
      t.lastStar.set(item, expanded.map(([name]) => name));
      for (const [name, expr] of expanded) {
        selected.push(alias(expr, name));
        names.push(name);
      }
      continue;
    }
    const expr = t.expr(item, scope);
    selected.push(expr);
    names.push(columnName(withValues(item, t.context.values)));
  }
  // Unaliased items are named as PostHog names their columns, so an outer query can read them
  // by that name; of items that share a name only the last takes it, as in PostHog.
  const named = selected.map((expr, i) => {
    const name = names[i]!;
    if (expr.kind === 'alias' || !isPrintableIdentifier(name) || names.lastIndexOf(name) !== i || scope.aliases.has(name)) return expr;
    return alias(expr, name);
  });

  const where = [child(node, 'prewhere'), child(node, 'where')].filter((x): x is HogQLNode => x !== undefined).map((x) => t.expr(x, scope));
  const groupKey = (x: HogQLNode) => positional(x, named) ?? t.expr(x, scope);
  // GROUPING SETS ((a), (b), ()): each set a tuple of its keys (the printer prints it as a set).
  const groupBy = children(node, 'group_by').map((x) => (x.node === 'GroupingSet' ? tuple(...children(x, 'exprs').map(groupKey)) : groupKey(x)));
  const groupByMode = node['group_by_mode'] === 'rollup' || node['group_by_mode'] === 'cube' || node['group_by_mode'] === 'grouping_sets' ? node['group_by_mode'] : undefined;
  const havingNode = child(node, 'having');
  const having = havingNode ? t.expr(havingNode, scope) : undefined;
  const orderBy = children(node, 'order_by').map((x) => orderItem(t, x, scope, named));
  const limitByNode = child(node, 'limit_by');
  const limitBy = limitByNode
    ? { count: count(child(limitByNode, 'n'), 'LIMIT BY'), exprs: children(limitByNode, 'exprs').map((x) => t.expr(x, scope)) }
    : undefined;
  // Last: the joins the fields read above needed, each right after its table's own place, so
  // a later ON clause can read them (`join persons p on p.id = e.person_id`).
  const lazyJoinsOf = (item: FromItem | undefined) => (item ? scope.tables.get(item.alias)?.joins() ?? [] : []);
  // Tables read as subqueries now know which of their columns were read.
  const finalOf = (item: FromItem): FromItem => scope.tables.get(item.alias)?.finalFrom?.() ?? item;
  const allJoins = [...lazyJoinsOf(fromItems[0]), ...joins.flatMap((j, i) => [{ ...j, from: finalOf(j.from) }, ...lazyJoinsOf(fromItems[i + 1])])];

  return boundSessionJoins(filterBeforeJoins(lookupsAsSemiJoins(selectNode({
    select: named,
    ...(node['distinct'] ? { distinct: true } : {}),
    ...(fromItems[0] ? { from: finalOf(fromItems[0]) } : {}),
    ...(allJoins.length ? { joins: allJoins } : {}),
    ...(arrayJoin ? { arrayJoin } : {}),
    ...(where.length ? { where: where.length === 1 ? where[0]! : and(...where) } : {}),
    ...(groupBy.length ? { groupBy } : {}),
    ...(groupBy.length && groupByMode ? { groupByMode } : {}),
    ...(having ? { having } : {}),
    ...(orderBy.length ? { orderBy } : {}),
    ...(limitBy ? { limitBy } : {}),
    ...limit(t, node, orderBy.length > 0, scope.ctes),
    ...(child(node, 'offset') ? { offset: count(child(node, 'offset'), 'OFFSET') } : {}),
  }))));
}

/**
 * LIMIT n, or LIMIT (expression) as PostHog takes it: the engine computes the expression before
 * the query (it may read no column of the query's own tables), capped by a whole number the
 * runner lowers to its 50,000-row cap. A subquery in it is translated like any other.
 */
function limit(t: Translator, node: HogQLNode, ordered: boolean, ctes: CteMap): Pick<Select, 'limit' | 'limitExpr' | 'withTies' | 'limitFraction'> {
  const given = child(node, 'limit');
  if (!given) return {};
  if (node['limit_percent']) {
    const percent = given['value'];
    if (given.node !== 'Constant' || typeof percent !== 'number') throw new HogQLQueryError('LIMIT percent with expressions is not supported in clickhouse dialect');
    if (!(percent >= 0 && percent <= 100)) throw new HogQLQueryError('Limit percent must be between 0 and 100');
  }
  if (node['limit_with_ties'] && !ordered) throw new HogQLQueryError('LIMIT WITH TIES needs an ORDER BY');
  const withTies = node['limit_with_ties'] ? { withTies: true } : {};
  if (node['limit_percent']) {
    // ClickHouse's fractional LIMIT keeps that share of the rows (PostHog prints 40 % as LIMIT 0.4); 100 % keeps all.
    const percent = given['value'] as number;
    if (percent === 0) return { limit: 0, ...withTies };
    return { limit: Number.MAX_SAFE_INTEGER, ...(percent < 100 ? { limitFraction: percent / 100 } : {}), ...withTies };
  }
  if (given.node === 'Constant') return { limit: count(given, 'LIMIT'), ...withTies };
  return { limit: Number.MAX_SAFE_INTEGER, limitExpr: t.expr(given, new Scope(ctes)), ...withTies };
}

function count(node: HogQLNode | undefined, what: string): number {
  const value = node?.node === 'Constant' ? node['value'] : undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new HogQLQueryError(`${what} must be a whole number`);
  return value;
}

function star(item: HogQLNode, scope: Scope): [string, Expr][] {
  const chain = chainOf(item);
  const tables = chain.length === 1 ? [...scope.tables.values()] : [scope.tables.get(String(chain[0]))].filter((x): x is ScopedTable => !!x);
  if (tables.length === 0) throw new HogQLQueryError(chain.length === 1 ? "Cannot use '*' when there are no tables in the query" : `Unable to resolve field: ${chain.join('.')}`);
  if (tables.length > 1) throw new HogQLQueryError("Cannot use '*' without table name when there are multiple tables in the query");
  const table = tables[0]!;
  return table.asterisk().map((name) => [name, table.resolve([name])!] as [string, Expr]);
}

/** `selected`: the SELECT's items, when an integer here names one (ORDER BY 2; not in a window's ORDER BY). */
export function orderItem(t: Translator, node: HogQLNode, scope: Scope, selected?: readonly Expr[]): OrderItem {
  // PostHog's parser keeps WITH FILL (and drops NULLS FIRST and COLLATE, as PostHog does).
  if (node['with_fill']) throw new HogQLNotSupportedError('WITH FILL');
  const expr = node.node === 'OrderExpr' ? child(node, 'expr')! : node;
  const value = (selected && positional(expr, selected)) ?? t.expr(expr, scope);
  return Object.freeze({ expr: value, direction: node['order'] === 'DESC' ? 'DESC' : 'ASC' });
}

/**
 * `GROUP BY 1`, `ORDER BY -1`: an integer literal there names a select item (ClickHouse's positional
 * arguments, which PostHog's literal-printing relies on). Ours print as parameters, which the engine
 * would read as a constant, so the item is named here: by its alias, else as its expression.
 */
function positional(node: HogQLNode, selected: readonly Expr[]): Expr | undefined {
  const value = node.node === 'Constant' ? node['value'] : undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return undefined;
  const item = value > 0 ? selected[value - 1] : value < 0 ? selected[selected.length + value] : undefined;
  if (!item) throw new HogQLQueryError(`Positional argument number ${value} is out of bounds. Expected in range [1, ${selected.length}]`);
  return item.kind === 'alias' ? field(item.alias) : item;
}
