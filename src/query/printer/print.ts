// Prints an AST as ClickHouse SQL plus its parameters. The text holds only identifiers from our own
// code (checked against a strict pattern), functions from the allow-list and `{pN:Type}`
// placeholders; every table carries the project guard, or printing fails.
import { InternalError, QueryRejectedError } from '../../errors.js';
import type { Expr, FromItem, Join, OrderItem, Query, Select, TableName, TableRef } from '../ast/nodes.js';
import { isAllowedFunction } from './functions.js';
import { ParamBag } from './params.js';

export interface PrintedQuery {
  readonly sql: string;
  readonly params: Record<string, unknown>;
}

/** Thrown for a tree our own code built wrongly; never caused by user input, never shown (a 500). */
export class PrintError extends InternalError {
  constructor(message: string) {
    super('print_error', message);
  }
}

/** A table reached the printer without the project guard: a runner bypassed scopeToProject. */
export class UnscopedTableError extends PrintError {
  constructor(table: TableName) {
    super(`refusing to print table "${table}" without a project guard`);
  }
}

/**
 * A number the request chose (a page's limit and offset, a date range's count of units) that SQL
 * cannot take: the client's fault, so an exposed 400.
 */
export class OutOfRangeNumberError extends QueryRejectedError {
  constructor(what: string) {
    super('out_of_range', `The query needs ${what} that is too large or not a whole number; use a smaller limit, offset or range.`);
  }
}

/** Physical table names in the event store for each catalog name. */
const TABLE_NAMES: Record<TableName, string> = {
  events: 'events',
  persons: 'persons',
  person_distinct_ids: 'person_distinct_ids',
  person_distinct_id_overrides: 'person_distinct_id_overrides',
  groups: 'groups',
};

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function quoteIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new PrintError(`not an identifier: ${JSON.stringify(name)}`);
  return `\`${name}\``;
}

const INTERVAL_FUNCTIONS = {
  second: 'toIntervalSecond', minute: 'toIntervalMinute', hour: 'toIntervalHour', day: 'toIntervalDay',
  week: 'toIntervalWeek', month: 'toIntervalMonth', year: 'toIntervalYear',
} as const;

export function printQuery(query: Query, database: string): PrintedQuery {
  const printer = new Printer(database);
  const sql = printer.query(query);
  return { sql, params: printer.bag.params };
}

class Printer {
  readonly bag = new ParamBag();
  private readonly database: string;

  constructor(database: string) {
    this.database = quoteIdentifier(database);
  }

  query(query: Query): string {
    if (query.kind === 'union') return query.selects.map((s) => this.select(s)).join(' UNION ALL ');
    return this.select(query);
  }

  private select(s: Select): string {
    const parts = [`SELECT ${s.distinct ? 'DISTINCT ' : ''}${s.select.map((e) => this.expr(e)).join(', ')}`];
    const guards: string[] = [];
    if (s.from) {
      parts.push(`FROM ${this.fromItem(s.from, guards)}`);
      if (s.arrayJoin) parts.push(`ARRAY JOIN ${this.expr(s.arrayJoin)}`);
      for (const join of s.joins ?? []) parts.push(this.join(join));
    }
    const conditions = [...guards, ...(s.where ? [this.expr(s.where)] : [])];
    if (conditions.length > 0) parts.push(`WHERE ${conditions.join(' AND ')}`);
    if (s.groupBy?.length) parts.push(`GROUP BY ${s.groupBy.map((e) => this.expr(e)).join(', ')}`);
    if (s.having) parts.push(`HAVING ${this.expr(s.having)}`);
    if (s.orderBy?.length) parts.push(`ORDER BY ${this.orderItems(s.orderBy)}`);
    if (s.limit !== undefined) parts.push(`LIMIT ${this.count(s.limit)}`);
    if (s.offset !== undefined && s.offset > 0) parts.push(`OFFSET ${this.count(s.offset)}`);
    return parts.join(' ');
  }

  /** A FROM table adds its guard to the WHERE clause of the same SELECT. */
  private fromItem(item: FromItem, guards: string[]): string {
    if (item.kind === 'subquery') return `(${this.query(item.query)}) AS ${quoteIdentifier(item.alias)}`;
    guards.push(`${quoteIdentifier(item.alias)}.team_id = ${this.teamParam(item)}`);
    return `${this.tableName(item)} AS ${quoteIdentifier(item.alias)}`;
  }

  /** A joined table is wrapped in its own guarded SELECT, so an outer join keeps its meaning. */
  private join(join: Join): string {
    const from = join.from.kind === 'subquery'
      ? this.fromItem(join.from, [])
      : `(SELECT * FROM ${this.tableName(join.from)} WHERE team_id = ${this.teamParam(join.from)}) AS ${quoteIdentifier(join.from.alias)}`;
    return `${join.type} JOIN ${from} ON ${this.expr(join.on)}`;
  }

  private tableName(ref: TableRef): string {
    return `${this.database}.${quoteIdentifier(TABLE_NAMES[ref.table])}`;
  }

  private teamParam(ref: TableRef): string {
    if (ref.teamId === undefined || !Number.isSafeInteger(ref.teamId)) throw new UnscopedTableError(ref.table);
    return this.bag.add(ref.teamId, 'UInt64');
  }

  private orderItems(items: readonly OrderItem[]): string {
    return items.map((o) => `${this.expr(o.expr)} ${o.direction}`).join(', ');
  }

  private count(n: number): string {
    if (!Number.isSafeInteger(n) || n < 0) throw new OutOfRangeNumberError('a row count');
    return String(n);
  }

  private call(name: string, args: readonly Expr[], params?: readonly Expr[]): string {
    if (!isAllowedFunction(name)) throw new PrintError(`function not allowed: ${JSON.stringify(name)}`);
    const head = params ? `${name}(${params.map((p) => this.expr(p)).join(', ')})` : name;
    return `${head}(${args.map((a) => this.expr(a)).join(', ')})`;
  }

  expr(e: Expr): string {
    switch (e.kind) {
      case 'constant':
        return this.bag.add(e.value, e.type);
      case 'field':
        return e.table ? `${quoteIdentifier(e.table)}.${quoteIdentifier(e.name)}` : quoteIdentifier(e.name);
      case 'call':
        return this.call(e.name, e.args, e.params);
      case 'binary':
        return `(${this.expr(e.left)} ${e.op} ${this.expr(e.right)})`;
      case 'and':
        return e.exprs.length === 0 ? 'true' : `(${e.exprs.map((x) => this.expr(x)).join(' AND ')})`;
      case 'or':
        return e.exprs.length === 0 ? 'false' : `(${e.exprs.map((x) => this.expr(x)).join(' OR ')})`;
      case 'not':
        return `(NOT ${this.expr(e.expr)})`;
      case 'isNull':
        return `(${this.expr(e.expr)} IS ${e.negated ? 'NOT ' : ''}NULL)`;
      case 'alias':
        return `${this.expr(e.expr)} AS ${quoteIdentifier(e.alias)}`;
      case 'lambda':
        return `((${e.args.map(quoteIdentifier).join(', ')}) -> ${this.expr(e.body)})`;
      case 'tuple':
        return `tuple(${e.items.map((x) => this.expr(x)).join(', ')})`;
      case 'array':
        return `[${e.items.map((x) => this.expr(x)).join(', ')}]`;
      case 'star':
        return '*';
      case 'interval':
        if (!Number.isSafeInteger(e.count)) throw new OutOfRangeNumberError('an interval');
        return `${INTERVAL_FUNCTIONS[e.unit]}(${this.bag.add(e.count, 'Int64')})`;
      case 'keyword':
        return `'${e.text}'`;
      case 'window': {
        const over = [
          e.partitionBy.length ? `PARTITION BY ${e.partitionBy.map((x) => this.expr(x)).join(', ')}` : '',
          e.orderBy.length ? `ORDER BY ${this.orderItems(e.orderBy)}` : '',
          e.frame ?? '',
        ].filter(Boolean).join(' ');
        return `${this.call(e.call.name, e.call.args, e.call.params)} OVER (${over})`;
      }
      case 'select':
        return `(${this.select(e)})`;
      default:
        return assertNever(e);
    }
  }
}

function assertNever(e: never): never {
  throw new PrintError(`unknown node ${JSON.stringify(e)}`);
}
