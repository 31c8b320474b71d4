// PostHog's list queries (EventsQuery, ActorsQuery) describe a SELECT as lists of HogQL strings:
// columns (with `-- label` comments), WHERE conditions and ORDER BY items. These helpers parse
// those strings and assemble the SelectQuery node (PostHog's AST) the translator reads, so the
// list queries go through the same tables, allow-list and team guard as HogQLQuery.
import { lookupHogQLFunction } from './functions/index.js';
import { HogQLSyntaxError, sharedHogQLParser } from './parse/index.js';
import { walkObjects } from '../tree/walk.js';
import { child, children, type HogQLNode } from './translate/hogql-ast.js';

/** A column string without its `-- label`: what PostHog compares against `count()`, `person`... */
export const withoutLabel = (text: string): string => text.split('--')[0]!.trim();

export function parseExprs(texts: readonly string[], projectId: number): Promise<HogQLNode[]> {
  const parser = sharedHogQLParser();
  return Promise.all(texts.map((text) => parser.parse('expr', text, projectId)));
}

const ORDER_PREFIX = 'SELECT 1 ORDER BY ';
const SELECT_CLAUSES = ['select_from', 'where', 'prewhere', 'having', 'group_by', 'limit', 'offset', 'limit_by', 'array_join_list', 'window_exprs', 'settings', 'ctes'];

/**
 * One ORDER BY item (`timestamp DESC`, `count()`), as an OrderExpr node. The npm parser has no
 * order-expression entry, so the item is parsed as the ORDER BY of a one-column SELECT and refused
 * unless that is all the text made.
 */
export async function parseOrderItem(text: string, projectId: number): Promise<HogQLNode> {
  let root: HogQLNode;
  try {
    root = await sharedHogQLParser().parse('select', `${ORDER_PREFIX}${text}\n`, projectId);
  } catch (error) {
    // The parser's position would count the prefix; the item is named instead.
    if (error instanceof HogQLSyntaxError) throw new HogQLSyntaxError(`invalid ORDER BY item "${text.slice(0, 200)}"`, null, null);
    throw error;
  }
  const items = children(root, 'order_by');
  const extra = root.node !== 'SelectQuery' || items.length !== 1 || SELECT_CLAUSES.some((key) => root[key] !== undefined && root[key] !== null && !(Array.isArray(root[key]) && (root[key] as unknown[]).length === 0));
  if (extra) throw new HogQLSyntaxError(`invalid ORDER BY item "${text.slice(0, 200)}": one expression, optionally followed by ASC or DESC`, null, null);
  return items[0]!;
}

export const parseOrderItems = (texts: readonly string[], projectId: number): Promise<HogQLNode[]> => Promise.all(texts.map((text) => parseOrderItem(text, projectId)));

/** Whether an expression aggregates at its own level (calls inside subqueries do not count), as PostHog's has_aggregation. */
export function hasAggregation(node: HogQLNode): boolean {
  return !walkObjects(node, (value) => {
    if (value.node === 'SelectQuery' || value.node === 'SelectSetQuery') return 'skip';
    return value.node === 'Call' && typeof value.name === 'string' && lookupHogQLFunction(value.name)?.family === 'aggregate' ? 'stop' : 'descend';
  });
}

export const orderItem = (expr: HogQLNode, order: 'ASC' | 'DESC'): HogQLNode => ({ node: 'OrderExpr', expr, order });

/** An Alias's expression (PostHog orders by the aggregate itself, not its alias). */
export const unaliased = (node: HogQLNode): HogQLNode => (node.node === 'Alias' ? unaliased(child(node, 'expr') ?? node) : node);

/**
 * PostHog's order when a list query gives none: `count()` descending when it is a column, else the
 * first aggregate descending, else `timeColumn` descending when it is a column, else the first
 * column ascending.
 */
export function defaultOrder(columns: readonly string[], select: readonly HogQLNode[], timeColumn: string): HogQLNode[] {
  const aggregates = select.filter(hasAggregation);
  if (columns.includes('count()')) return [orderItem({ node: 'Call', name: 'count', args: [] }, 'DESC')];
  if (aggregates.length > 0) return [orderItem(unaliased(aggregates[0]!), 'DESC')];
  if (columns.includes(timeColumn)) return [orderItem({ node: 'Field', chain: [timeColumn] }, 'DESC')];
  return select.length > 0 ? [orderItem(unaliased(select[0]!), 'ASC')] : [];
}

export interface SelectParts {
  readonly select: readonly HogQLNode[];
  readonly table: string;
  readonly where: readonly HogQLNode[];
  readonly having: readonly HogQLNode[];
  readonly groupBy: readonly HogQLNode[] | null;
  readonly orderBy: readonly HogQLNode[];
  readonly limit: number;
  readonly offset: number;
}

const conjunction = (exprs: readonly HogQLNode[]): HogQLNode | null =>
  exprs.length === 0 ? null : exprs.length === 1 ? exprs[0]! : { node: 'And', exprs };

/** A SelectQuery node (PostHog's AST) from its parts. */
export function selectQueryNode(parts: SelectParts): HogQLNode {
  return {
    node: 'SelectQuery',
    select: parts.select,
    select_from: { node: 'JoinExpr', table: { node: 'Field', chain: [parts.table] } },
    where: conjunction(parts.where),
    having: conjunction(parts.having),
    group_by: parts.groupBy,
    order_by: parts.orderBy,
    limit: { node: 'Constant', value: parts.limit },
    offset: { node: 'Constant', value: parts.offset },
  };
}

/** `{filters}`: where a list query's own filters (properties, dates, test accounts...) go. */
export const FILTERS_PLACEHOLDER: HogQLNode = { node: 'Placeholder', expr: { node: 'Field', chain: ['filters'] } };
