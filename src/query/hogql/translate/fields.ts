// Names in expressions: a field (a lambda argument, an alias, a table's column, a column CTE),
// property paths into JSON, and the aliases a SELECT may define.
import { call, constant, field as fieldNode } from '../../ast/build.js';
import type { Expr, TableName } from '../../ast/nodes.js';
import { isPrintableIdentifier } from '../../printer/print.js';
import { HogQLQueryError } from '../errors.js';
import { chainOf, child, type HogQLNode } from './hogql-ast.js';
import { isPropertyRead } from './property-equality.js';
import type { Scope, Translator } from './scope.js';
import { hogqlProperty, isHogQLTable, type Chain } from './tables.js';
import { typed, typeOf, type Typed } from './types.js';

export function field(t: Translator, node: HogQLNode, scope: Scope): Expr {
  const chain = chainOf(node);
  const [head] = chain;
  if (typeof head !== 'string' || chain.length === 0) throw new HogQLQueryError(`Unable to resolve field: ${chain.join('.')}`);
  if (chain.length === 1 && t.lambdaArgs.includes(head)) return fieldNode(head);
  const defined = scope.aliases.get(head);
  if (defined && !scope.tables.has(head)) return typed(path(fieldNode(head), defined, chain.slice(1)), chain.length === 1 ? defined.type : 'unknown', true);
  const table = scope.tables.get(head);
  if (table) {
    if (chain.length === 1) throw new HogQLQueryError(`Can't select a table when a column is expected: ${head}`);
    const resolved = table.resolve(chain.slice(1));
    if (!resolved) throw new HogQLQueryError(`Unable to resolve field: ${chain.join('.')}`);
    return resolved;
  }
  const found: Expr[] = [];
  for (const candidate of scope.tables.values()) {
    const resolved = candidate.resolve(chain);
    if (resolved) found.push(resolved);
  }
  if (found.length > 1) throw new HogQLQueryError(`Ambiguous query. Found multiple sources for field: ${chain.join('.')}`);
  if (found.length === 1) return found[0]!;
  const cte = scope.ctes.get(head);
  if (cte?.column) {
    if (chain.length > 1) throw new HogQLQueryError(`Cannot access fields on CTE ${head} yet`);
    // `WITH expr AS name`: the expression itself, read where the name is (PostHog's resolver).
    return t.budget.expandingCte(head, () => t.expr(cte.node, scope));
  }
  // `ARRAY JOIN nums AS a` where the select list says `[1, 2, 3] AS nums`: that expression, as ClickHouse reads it.
  const aliased = chain.length === 1 ? scope.selectAliases.get(head) : undefined;
  if (aliased) return t.budget.expandingCte(head, () => t.expr(aliased, scope));
  throw new HogQLQueryError(`Unable to resolve field: ${chain.join('.')}`);
}

/**
 * `properties.list[1].id`, `properties.list.1`: constant indexes and keys after a property extend
 * its JSON path (PostHog's resolver does the same), so they read inside the property's JSON.
 */
export function propertyPath(t: Translator, node: HogQLNode, scope: Scope): Expr | undefined {
  const keys: (string | number)[] = [];
  let base: HogQLNode | undefined = node;
  while (base?.node === 'ArrayAccess' || base?.node === 'TupleAccess') {
    const index = child(base, 'property');
    const key = base.node === 'TupleAccess' ? Number(base['index']) : index?.node === 'Constant' ? index['value'] : undefined;
    if (typeof key !== 'string' && !(typeof key === 'number' && Number.isSafeInteger(key) && key >= 1)) return undefined;
    keys.unshift(key);
    base = child(base, base.node === 'ArrayAccess' ? 'array' : 'tuple');
  }
  if (base?.node !== 'Field') return undefined;
  const read = field(t, base, scope);
  if (!isPropertyRead(read) && typeOf(read).type !== 'json') return undefined;
  return field(t, { ...base, chain: [...chainOf(base), ...keys] }, scope);
}

/** The rest of a chain after an alias: tuple positions (x.1), or a property path when it holds JSON. */
function path(base: Expr, holds: Typed, rest: Chain): Expr {
  if (rest.length === 0) return base;
  if (holds.type === 'json') return hogqlProperty(base, rest);
  return rest.reduce<Expr>((value, part) => {
    if (typeof part !== 'number') throw new HogQLQueryError(`Unable to resolve field: ${String(part)}`);
    if (part < 1) throw new HogQLQueryError('SQL indexes start from one, not from zero. E.g: array.1');
    return call('tupleElement', value, constant(part, 'UInt64'));
  }, base);
}

export const isStarField = (node: HogQLNode) => node.node === 'Field' && chainOf(node).length === 1 && chainOf(node)[0] === '*';

/** The event store's own table names (the printer's catalog), never a column alias either. */
const STORE_TABLES: ReadonlySet<string> = new Set<TableName>(['events', 'persons', 'person_distinct_ids', 'person_distinct_id_overrides', 'groups', 'static_cohort_people', 'sessions', 'session_replay_events']);
const isTableName = (name: string) => STORE_TABLES.has(name);

/**
 * A column alias may not take a name the query's tables answer to: ClickHouse resolves an
 * expression alias before a table alias, so such an alias would change what every reference
 * to that table reads (the joins' conditions included). Refused, as are redefinitions in one
 * SELECT (PostHog's resolver) and the names of tables, CTEs and the joins Hoglet adds.
 */
export function checkAlias(name: string, scope: Scope): void {
  if (name.includes('%')) throw new HogQLQueryError(`The HogQL identifier "${name}" is not permitted as it contains the "%" character`);
  if (!isPrintableIdentifier(name)) throw new HogQLQueryError(`Invalid alias: ${name}`);
  if (name === 'team_id') throw new HogQLQueryError('Alias "team_id" is reserved');
  if (scope.aliases.has(name)) throw new HogQLQueryError(`Cannot redefine an alias with the name: ${name}`);
  const taken = scope.tables.has(name) || scope.ctes.has(name) || isHogQLTable(name) || isTableName(name)
    || [...scope.tables.keys()].some((table) => name.startsWith(`${table}__`)) || /^_subquery\d*$/.test(name);
  if (taken) throw new HogQLQueryError(`Cannot use "${name}" as an alias: it names a table of the query`);
}
