// Factories for AST nodes: every node is frozen at birth, so a printed tree cannot change later.
import type {
  Alias, And, ArrayLiteral, Binary, BinaryOperator, Call, Constant, ConstantValue, Expr, Field, FromItem,
  IntervalLiteral, IntervalUnit, IsNull, Join, Keyword, KeywordText, Lambda, Not, Or, OrderItem, ParamType,
  Select, SubqueryRef, TableName, TableRef, Tuple, Union, WindowCall,
} from './nodes.js';

const freeze = <T>(node: T): T => Object.freeze(node);

export const constant = (value: ConstantValue, type?: ParamType): Constant =>
  freeze(type ? { kind: 'constant', value, type } : { kind: 'constant', value });

export const field = (name: string, table?: string): Field =>
  freeze(table ? { kind: 'field', name, table } : { kind: 'field', name });

export const call = (name: string, ...args: Expr[]): Call => freeze({ kind: 'call', name, args: freeze(args) });

export const parametricCall = (name: string, params: Expr[], args: Expr[]): Call =>
  freeze({ kind: 'call', name, args: freeze(args), params: freeze(params) });

export const binary = (op: BinaryOperator, left: Expr, right: Expr): Binary => freeze({ kind: 'binary', op, left, right });

export const eq = (left: Expr, right: Expr) => binary('=', left, right);

/** AND of the given conditions; drops `undefined`, and one condition needs no AND. */
export function and(...exprs: (Expr | undefined)[]): Expr {
  const present = exprs.filter((e): e is Expr => e !== undefined);
  if (present.length === 1) return present[0]!;
  return freeze<And>({ kind: 'and', exprs: freeze(present) });
}

/** AND of whatever conditions are present, or undefined when there are none (no WHERE needed). */
export function allOf(...exprs: (Expr | undefined)[]): Expr | undefined {
  return exprs.some((e) => e !== undefined) ? and(...exprs) : undefined;
}

export function or(...exprs: (Expr | undefined)[]): Expr {
  const present = exprs.filter((e): e is Expr => e !== undefined);
  if (present.length === 1) return present[0]!;
  return freeze<Or>({ kind: 'or', exprs: freeze(present) });
}

export const not = (expr: Expr): Not => freeze({ kind: 'not', expr });
export const isNull = (expr: Expr): IsNull => freeze({ kind: 'isNull', expr, negated: false });
export const isNotNull = (expr: Expr): IsNull => freeze({ kind: 'isNull', expr, negated: true });
export const alias = (expr: Expr, name: string): Alias => freeze({ kind: 'alias', expr, alias: name });
export const lambda = (args: string[], body: Expr): Lambda => freeze({ kind: 'lambda', args: freeze(args), body });
export const tuple = (...items: Expr[]): Tuple => freeze({ kind: 'tuple', items: freeze(items) });
export const array = (...items: Expr[]): ArrayLiteral => freeze({ kind: 'array', items: freeze(items) });
export const interval = (count: number, unit: IntervalUnit): IntervalLiteral => freeze({ kind: 'interval', count, unit });
export const keyword = (text: KeywordText): Keyword => freeze({ kind: 'keyword', text });
export const STAR = freeze({ kind: 'star' as const });

/** Literal TRUE / FALSE conditions, as constants (for "matches everything" or "matches nothing"). */
export const TRUE = constant(true);
export const FALSE = constant(false);

export const asc = (expr: Expr): OrderItem => freeze({ expr, direction: 'ASC' });
export const desc = (expr: Expr): OrderItem => freeze({ expr, direction: 'DESC' });

export function over(fn: Call, partitionBy: Expr[], orderBy: OrderItem[] = [], frame?: WindowCall['frame']): WindowCall {
  return freeze(frame
    ? { kind: 'window', call: fn, partitionBy: freeze(partitionBy), orderBy: freeze(orderBy), frame }
    : { kind: 'window', call: fn, partitionBy: freeze(partitionBy), orderBy: freeze(orderBy) });
}

export const table = (name: TableName, tableAlias: string): TableRef => freeze({ kind: 'table', table: name, alias: tableAlias });
export const subquery = (query: Select | Union, subqueryAlias: string): SubqueryRef => freeze({ kind: 'subquery', query, alias: subqueryAlias });
export const leftJoin = (from: FromItem, on: Expr): Join => freeze({ type: 'LEFT', from, on });
export const innerJoin = (from: FromItem, on: Expr): Join => freeze({ type: 'INNER', from, on });

export const select = (parts: Omit<Select, 'kind'>): Select => freeze({ kind: 'select', ...parts });
export const union = (...selects: Select[]): Union => freeze({ kind: 'union', selects: freeze(selects) });
