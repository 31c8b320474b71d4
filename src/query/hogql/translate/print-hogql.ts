// Prints PostHog's HogQL AST back as HogQL text, PostHog's way (operators as functions:
// `equals(a, 1)`, `plus(a, b)`): the `hogql` of a response and the names of unaliased columns.
// Only for showing; what runs is always the translated tree.
import { child, children, chainOf, type HogQLNode } from './hogql-ast.js';

const COMPARE_FUNCTIONS: Record<string, string> = {
  '==': 'equals', '!=': 'notEquals', '<': 'less', '<=': 'lessOrEquals', '>': 'greater', '>=': 'greaterOrEquals',
  like: 'like', ilike: 'ilike', 'not like': 'notLike', 'not ilike': 'notILike', in: 'in', 'not in': 'notIn',
  '=~': 'match', '!~': 'notMatch', '=~*': 'imatch', '!~*': 'notImatch', 'global in': 'globalIn', 'global not in': 'globalNotIn',
};
const ARITHMETIC_FUNCTIONS: Record<string, string> = { '+': 'plus', '-': 'minus', '*': 'multiply', '/': 'divide', '%': 'modulo' };

const PLAIN = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function printIdentifier(name: string | number): string {
  if (typeof name === 'number' || name === '*') return String(name);
  return PLAIN.test(name) ? name : `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;
}

export function printString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function constant(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return printString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  return printString(JSON.stringify(value));
}

export function printHogQL(node: HogQLNode): string {
  const p = (n: HogQLNode | undefined) => (n ? printHogQL(n) : '');
  const list = (key: string) => children(node, key).map(printHogQL).join(', ');
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
    case 'CompareOperation':
      return `${COMPARE_FUNCTIONS[String(node['op'])] ?? String(node['op'])}(${p(child(node, 'left'))}, ${p(child(node, 'right'))})`;
    case 'ArithmeticOperation':
      return `${ARITHMETIC_FUNCTIONS[String(node['op'])] ?? String(node['op'])}(${p(child(node, 'left'))}, ${p(child(node, 'right'))})`;
    case 'And':
      return `and(${list('exprs')})`;
    case 'Or':
      return `or(${list('exprs')})`;
    case 'Not':
      return `not(${p(child(node, 'expr'))})`;
    case 'Tuple':
      return `tuple(${list('exprs')})`;
    case 'Array':
      return `[${list('exprs')}]`;
    case 'Lambda':
      return `(${(node['args'] as string[]).map(printIdentifier).join(', ')}) -> ${p(child(node, 'expr'))}`;
    case 'Placeholder':
      return `{${p(child(node, 'expr'))}}`;
    case 'BetweenExpr':
      return `${p(child(node, 'expr'))} ${node['negated'] ? 'NOT ' : ''}BETWEEN ${p(child(node, 'low'))} AND ${p(child(node, 'high'))}`;
    case 'ArrayAccess':
      return `${p(child(node, 'array'))}[${p(child(node, 'property'))}]`;
    case 'TupleAccess':
      return `${p(child(node, 'tuple'))}.${String(node['index'])}`;
    case 'TypeCast':
      return `${p(child(node, 'expr'))}::${String(node['type_name'])}`;
    case 'OrderExpr':
      return `${p(child(node, 'expr'))} ${String(node['order'] ?? 'ASC')}`;
    case 'WindowFunction':
      return `${String(node['name'])}(${list('exprs')})${node['args'] ? '' : ''} OVER (${windowText(child(node, 'over_expr'))})`;
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
  if (partition.length) parts.push(`PARTITION BY ${partition.map(printHogQL).join(', ')}`);
  const order = children(over, 'order_by');
  if (order.length) parts.push(`ORDER BY ${order.map(printHogQL).join(', ')}`);
  return parts.join(' ');
}

function printJoin(join: HogQLNode, first: boolean): string {
  const source = child(join, 'table');
  const inner = source ? (source.node === 'Field' ? printHogQL(source) : `(${printHogQL(source)})`) : '';
  const aliasText = join['alias'] && join['alias'] !== (source && source.node === 'Field' ? chainOf(source).join('.') : undefined)
    ? ` AS ${printIdentifier(String(join['alias']))}`
    : '';
  const constraint = child(join, 'constraint');
  const on = constraint ? ` ${String(constraint['constraint_type'] ?? 'ON')} ${printHogQL(child(constraint, 'expr')!)}` : '';
  const head = first ? '' : `${String(join['join_type'] ?? 'JOIN')} `;
  const next = child(join, 'next_join');
  return `${head}${inner}${aliasText}${on}${next ? ` ${printJoin(next, false)}` : ''}`;
}

export function printSelect(node: HogQLNode): string {
  const ctes = children(node, 'ctes').map((cte) => `${printIdentifier(String(cte['name']))} AS (${printHogQL(child(cte, 'expr')!)})`);
  const parts = [`${ctes.length ? `WITH ${ctes.join(', ')} ` : ''}SELECT ${node['distinct'] ? 'DISTINCT ' : ''}${children(node, 'select').map(printHogQL).join(', ')}`];
  const from = child(node, 'select_from');
  if (from) parts.push(`FROM ${printJoin(from, true)}`);
  const where = child(node, 'where');
  if (where) parts.push(`WHERE ${printHogQL(where)}`);
  const groupBy = children(node, 'group_by');
  if (groupBy.length) parts.push(`GROUP BY ${groupBy.map(printHogQL).join(', ')}`);
  const having = child(node, 'having');
  if (having) parts.push(`HAVING ${printHogQL(having)}`);
  const orderBy = children(node, 'order_by');
  if (orderBy.length) parts.push(`ORDER BY ${orderBy.map(printHogQL).join(', ')}`);
  const limit = child(node, 'limit');
  if (limit) parts.push(`LIMIT ${printHogQL(limit)}`);
  const offset = child(node, 'offset');
  if (offset) parts.push(`OFFSET ${printHogQL(offset)}`);
  return parts.join(' ');
}

function printSelectSet(node: HogQLNode): string {
  const first = child(node, 'initial_select_query');
  const rest = children(node, 'subsequent_select_queries');
  return [first ? printHogQL(first) : '', ...rest.map((r) => `${String(r['set_operator'])} ${printHogQL(child(r, 'select_query')!)}`)].join(' ');
}
