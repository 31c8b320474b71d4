// Prints PostHog's HogQL AST back as HogQL text, PostHog's way (operators as functions:
// `equals(a, 1)`, `plus(a, b)`): the `hogql` of a response and the names of unaliased columns.
// Only for showing; what runs is always the translated tree.
import { child, children, chainOf, isNode, type HogQLNode } from './hogql-ast.js';

const COMPARE_FUNCTIONS: Record<string, string> = {
  '==': 'equals', '!=': 'notEquals', '<': 'less', '<=': 'lessOrEquals', '>': 'greater', '>=': 'greaterOrEquals',
  like: 'like', ilike: 'ilike', 'not like': 'notLike', 'not ilike': 'notILike', in: 'in', 'not in': 'notIn',
  '=~': 'match', 'global in': 'globalIn', 'global not in': 'globalNotIn',
};
/** The regex operators PostHog prints through match() itself. */
const REGEX_FORMS: Record<string, (left: string, right: string) => string> = {
  '!~': (l, r) => `not(match(${l}, ${r}))`,
  '=~*': (l, r) => `match(${l}, concat('(?i)', ${r}))`,
  '!~*': (l, r) => `not(match(${l}, concat('(?i)', ${r})))`,
  'in cohort': (l, r) => `${l} IN COHORT ${r}`,
  'not in cohort': (l, r) => `${l} NOT IN COHORT ${r}`,
};
const ARITHMETIC_FUNCTIONS: Record<string, string> = { '+': 'plus', '-': 'minus', '*': 'multiply', '/': 'divide', '%': 'modulo' };

const PLAIN = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** PostHog's escape_chars_map (clickhouse_driver's): what a quoted string or identifier spells with a backslash. */
const ESCAPES: Record<string, string> = { '\b': '\\b', '\f': '\\f', '\r': '\\r', '\n': '\\n', '\t': '\\t', '\0': '\\0', '\x07': '\\a', '\v': '\\v', '\\': '\\\\' };
const escaped = (text: string, quote: string, quoted: string) => [...text].map((c) => (c === quote ? quoted : ESCAPES[c] ?? c)).join('');

export function printIdentifier(name: string | number): string {
  if (typeof name === 'number' || name === '*') return String(name);
  // A backtick inside a quoted identifier is doubled, as PostHog's escape_hogql_identifier writes it.
  return PLAIN.test(name) ? name : `\`${escaped(name, '`', '``')}\``;
}

export function printString(text: string): string {
  return `'${escaped(text, "'", "\\'")}'`;
}

function constant(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return printString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : value === Infinity ? 'Inf' : value === -Infinity ? '-Inf' : String(value);
  if (Array.isArray(value)) return `[${value.map(constant).join(', ')}]`;
  return printString(JSON.stringify(value));
}

/** A query inside an expression or a FROM is printed in parentheses, as PostHog's printer does below the top. */
const isQuery = (node: HogQLNode | undefined) => node?.node === 'SelectQuery' || node?.node === 'SelectSetQuery';
const nested = (node: HogQLNode): string => (isQuery(node) ? `(${printHogQL(node)})` : printHogQL(node));

/** A TupleAccess prints `x.1` after a field, tuple or call, else `(x).1`. */
const TUPLE_BASES = new Set(['Field', 'Tuple', 'Call']);

export function printHogQL(node: HogQLNode): string {
  const p = (n: HogQLNode | undefined) => (n ? nested(n) : '');
  const list = (key: string) => children(node, key).map(nested).join(', ');
  switch (node.node) {
    case 'Constant':
      return constant(node['value']);
    case 'Field':
      return chainOf(node).map(printIdentifier).join('.');
    case 'Alias':
      return `${p(child(node, 'expr'))} AS ${printIdentifier(String(node['alias']))}`;
    case 'Call': {
      const params = node['params'] ? `(${list('params')})` : '';
      return `${String(node['name'])}${params}(${node['distinct'] ? 'DISTINCT ' : ''}${list('args')})`;
    }
    case 'CompareOperation': {
      const op = String(node['op']);
      const form = REGEX_FORMS[op];
      if (form) return form(p(child(node, 'left')), p(child(node, 'right')));
      return `${COMPARE_FUNCTIONS[op] ?? op}(${p(child(node, 'left'))}, ${p(child(node, 'right'))})`;
    }
    case 'ArithmeticOperation':
      return `${ARITHMETIC_FUNCTIONS[String(node['op'])] ?? String(node['op'])}(${p(child(node, 'left'))}, ${p(child(node, 'right'))})`;
    case 'And':
    case 'Or':
      // One operand prints as itself.
      return children(node, 'exprs').length === 1 ? p(children(node, 'exprs')[0]) : `${node.node === 'And' ? 'and' : 'or'}(${list('exprs')})`;
    case 'Not':
      return `not(${p(child(node, 'expr'))})`;
    case 'Tuple':
      return `tuple(${list('exprs')})`;
    case 'Array':
      return `[${list('exprs')}]`;
    case 'Lambda': {
      const args = (node['args'] as string[]).map(printIdentifier);
      return `${args.length === 1 ? args[0] : `(${args.join(', ')})`} -> ${p(child(node, 'expr'))}`;
    }
    case 'Placeholder':
      return `{${p(child(node, 'expr'))}}`;
    case 'BetweenExpr':
      return `${p(child(node, 'expr'))} ${node['negated'] ? 'NOT ' : ''}BETWEEN ${p(child(node, 'low'))} AND ${p(child(node, 'high'))}`;
    case 'ArrayAccess':
      return `${p(child(node, 'array'))}${node['nullish'] ? '?.' : ''}[${p(child(node, 'property'))}]`;
    case 'TupleAccess': {
      const tuple = child(node, 'tuple');
      const base = TUPLE_BASES.has(tuple?.node ?? '') ? p(tuple) : `(${p(tuple)})`;
      return `${base}${node['nullish'] ? '?.' : '.'}${String(node['index'])}`;
    }
    case 'TypeCast':
      return `${p(child(node, 'expr'))}::${String(node['type_name'])}`;
    case 'OrderExpr':
      return `${p(child(node, 'expr'))} ${String(node['order'] ?? 'ASC')}`;
    case 'WindowFunction': {
      const args = children(node, 'args');
      const over = node['over_identifier'] ? printIdentifier(String(node['over_identifier'])) : `(${windowText(child(node, 'over_expr'))})`;
      return `${printIdentifier(String(node['name']))}(${list('exprs')})${args.length ? `(${list('args')})` : ''} OVER ${over}`;
    }
    case 'SelectQuery':
      return printSelect(node);
    case 'SelectSetQuery':
      return printSelectSet(node);
    default:
      return node.node;
  }
}

function windowText(over: HogQLNode | undefined): string {
  if (!over) return '';
  const parts: string[] = [];
  const partition = children(over, 'partition_by');
  if (partition.length) parts.push(`PARTITION BY ${partition.map(nested).join(', ')}`);
  const order = children(over, 'order_by');
  if (order.length) parts.push(`ORDER BY ${order.map(nested).join(', ')}`);
  const method = over['frame_method'];
  const start = child(over, 'frame_start');
  const end = child(over, 'frame_end');
  if (method && start) parts.push(end ? `${String(method)} BETWEEN ${frameBound(start)} AND ${frameBound(end)}` : `${String(method)} ${frameBound(start)}`);
  return parts.join(' ');
}

function frameBound(bound: HogQLNode): string {
  const type = String(bound['frame_type']);
  if (type === 'CURRENT ROW') return type;
  const value = bound['frame_value'];
  return `${typeof value === 'number' ? value : 'UNBOUNDED'} ${type}`;
}

function printJoin(join: HogQLNode, first: boolean): string {
  const source = child(join, 'table');
  const name = source?.node === 'Field' ? chainOf(source).join('.') : undefined;
  // A table function keeps its arguments and is always aliased, as PostHog prints `numbers(1, 4) AS numbers`.
  const args = Array.isArray(join['table_args']) ? (join['table_args'] as unknown[]).filter(isNode) : undefined;
  const inner = source ? `${nested(source)}${args ? `(${args.map(nested).join(', ')})` : ''}` : '';
  const alias = join['alias'] ?? (args ? name : undefined);
  const aliasText = alias && (args || alias !== name) ? ` AS ${printIdentifier(String(alias))}` : '';
  const constraint = child(join, 'constraint');
  const on = constraint ? ` ${String(constraint['constraint_type'] ?? 'ON')} ${printHogQL(child(constraint, 'expr')!)}` : '';
  const head = first ? '' : `${String(join['join_type'] ?? 'JOIN')} `;
  const next = child(join, 'next_join');
  return `${head}${inner}${aliasText}${on}${next ? ` ${printJoin(next, false)}` : ''}`;
}

export function printSelect(node: HogQLNode): string {
  const exprs = (key: string) => children(node, key).map(nested).join(', ');
  const ctes = children(node, 'ctes').map((cte) => `${printIdentifier(String(cte['name']))} AS (${printHogQL(child(cte, 'expr')!)})`);
  const parts = [`${ctes.length ? `WITH ${ctes.join(', ')} ` : ''}SELECT ${node['distinct'] ? 'DISTINCT ' : ''}${exprs('select')}`];
  const from = child(node, 'select_from');
  if (from) parts.push(`FROM ${printJoin(from, true)}`);
  const where = child(node, 'where');
  if (where) parts.push(`WHERE ${nested(where)}`);
  if (children(node, 'group_by').length) parts.push(`GROUP BY ${exprs('group_by')}`);
  const having = child(node, 'having');
  if (having) parts.push(`HAVING ${nested(having)}`);
  const windows = node['window_exprs'];
  const named = windows && typeof windows === 'object' ? Object.entries(windows).filter((entry): entry is [string, HogQLNode] => isNode(entry[1])) : [];
  if (named.length) parts.push(`WINDOW ${named.map(([name, window]) => `${printIdentifier(name)} AS (${windowText(window)})`).join(', ')}`);
  if (children(node, 'order_by').length) parts.push(`ORDER BY ${exprs('order_by')}`);
  const limit = child(node, 'limit');
  if (limit) parts.push(`LIMIT ${nested(limit)}${node['limit_percent'] ? ' %' : ''}${node['limit_with_ties'] ? ' WITH TIES' : ''}`);
  const offset = child(node, 'offset');
  if (offset) parts.push(`OFFSET ${nested(offset)}`);
  return parts.join(' ');
}

function printSelectSet(node: HogQLNode): string {
  const first = child(node, 'initial_select_query');
  const rest = children(node, 'subsequent_select_queries');
  return [first ? printHogQL(first) : '', ...rest.map((r) => `${String(r['set_operator'])} ${printHogQL(child(r, 'select_query')!)}`)].join(' ');
}

/**
 * A property read written with brackets or positions (`properties['a'][1]`, `properties.a.1`) as
 * the field chain PostHog's resolver folds it into (properties.a.1); undefined for anything else.
 */
function foldedChain(node: HogQLNode): (string | number)[] | undefined {
  if (node.node === 'Field') return chainOf(node);
  const inner = node.node === 'ArrayAccess' ? child(node, 'array') : node.node === 'TupleAccess' ? child(node, 'tuple') : undefined;
  const chain = inner ? foldedChain(inner) : undefined;
  if (!chain?.includes('properties')) return undefined;
  if (node.node === 'TupleAccess') return typeof node['index'] === 'number' ? [...chain, node['index']] : undefined;
  const key = child(node, 'property');
  const value = key?.node === 'Constant' ? key['value'] : undefined;
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)) ? [...chain, value] : undefined;
}

/**
 * The name of a select item's column, as PostHog's HogQLQuery response names it: an alias; a field
 * by the hidden alias PostHog's resolver gives it (a property by its keys joined with `__`, any
 * other field by its last name); anything else by its HogQL as PostHog prints it.
 */
export function columnName(node: HogQLNode): string {
  if (node.node === 'Alias') return String(node['alias']);
  const chain = foldedChain(node);
  if (chain) {
    const at = chain.indexOf('properties');
    if (at >= 0 && at < chain.length - 1) return chain.slice(at + 1).join('__');
    return String(chain[chain.length - 1] ?? '');
  }
  return nested(node);
}

/**
 * The tree with each `{name}` that `values` gives replaced by its value, as PostHog replaces
 * placeholders before it prints a query or names its columns.
 */
export function withValues(node: HogQLNode, values: Readonly<Record<string, unknown>>): HogQLNode {
  const replace = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(replace);
    if (!isNode(value)) return value;
    const field = child(value, 'expr');
    const name = value.node === 'Placeholder' && field?.node === 'Field' ? chainOf(field) : [];
    if (name.length === 1 && typeof name[0] === 'string' && Object.hasOwn(values, name[0])) return { node: 'Constant', value: values[name[0]] };
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, replace(inner)]));
  };
  return replace(node) as HogQLNode;
}
