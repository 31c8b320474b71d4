// Prints an AST as ClickHouse SQL plus its parameters. The text holds only identifiers from our own
// code (checked against a strict pattern), functions from the allow-list and `{pN:Type}`
// placeholders; every table carries the project guard, or printing fails.
import { InternalError, QueryRejectedError } from '../../errors.js';
import type { Expr, FrameBound, FromItem, Join, NumbersRef, OrderItem, Query, Select, TableName, TableRef, TableSample, WindowFrame } from '../ast/nodes.js';
import { isAllowedFunction } from './functions.js';

/** The type names a keyword may print (KeywordText), checked again here since it is printed as text. */
const KEYWORD_TEXT = /^(Nullable\(String\)|Nullable\(Float64\)|String|Float64|Decimal64\((1[0-8]|[0-9])\))$/;
import { ParamBag } from './params.js';
import { sampleCondition } from './sample.js';

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

/** Rows one numbers() may generate: about a second of work for the engine. */
export const MAX_NUMBERS_ROWS = 1_000_000_000;
export const NUMBERS_COUNT_REFUSAL = `Table function 'numbers' takes a whole number of rows from 0 to ${MAX_NUMBERS_ROWS}`;
export const NUMBERS_START_REFUSAL = "Table function 'numbers' starts at a whole number, 0 or more";

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
  static_cohort_people: 'static_cohort_people',
  // Aggregate states per session (event-store migration 4), read by HogQL's sessions with FINAL.
  sessions: 'sessions',
  // A recording's summary rows (event-store migration 6), read by the recordings list (core/replay/).
  session_replay_events: 'session_replay_events',
};

const PLAIN_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Names a HogQL user chose (aliases like `my count`): any printable text, escaped inside backticks. */
const MAX_IDENTIFIER_LENGTH = 256;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Whether a name can be printed as an identifier at all (the HogQL translator checks user names with it). */
export function isPrintableIdentifier(name: string): boolean {
  return name.length > 0 && name.length <= MAX_IDENTIFIER_LENGTH && !CONTROL_CHARACTERS.test(name);
}

export function quoteIdentifier(name: string): string {
  if (!isPrintableIdentifier(name)) throw new PrintError(`not an identifier: ${JSON.stringify(name)}`);
  if (PLAIN_IDENTIFIER.test(name)) return `\`${name}\``;
  return `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;
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

/**
 * Nodes one statement may print. Translation and cohort expansion have budgets of their own; this
 * one holds for every runner, so no tree (shared subtrees included) prints without end.
 */
export const PRINT_BUDGET = 2_000_000;

/** A statement past the print budget: too large to send, the request's fault (a 400). */
export class QueryTooLargeError extends QueryRejectedError {
  constructor() {
    super('query_too_large', `The query is too large to run (more than ${PRINT_BUDGET} SQL expressions); narrow it: fewer series, breakdown values, cohorts or CTE references.`);
  }
}

class Printer {
  readonly bag = new ParamBag();
  private readonly database: string;
  private printed = 0;

  private spend(): void {
    this.printed += 1;
    if (this.printed > PRINT_BUDGET) throw new QueryTooLargeError();
  }

  constructor(database: string) {
    if (!PLAIN_IDENTIFIER.test(database)) throw new PrintError(`not a database name: ${JSON.stringify(database)}`);
    this.database = quoteIdentifier(database);
  }

  query(query: Query): string {
    if (query.kind === 'select') return this.select(query);
    return query.selects.map((member, i) => {
      const text = member.kind === 'union' ? `(${this.query(member)})` : this.select(member);
      return i === 0 ? text : `${query.operators?.[i - 1] ?? 'UNION ALL'} ${text}`;
    }).join(' ');
  }

  private select(s: Select): string {
    this.spend();
    const parts = [`SELECT ${s.distinct ? 'DISTINCT ' : ''}${s.select.map((e) => this.expr(e)).join(', ')}`];
    if (s.from) {
      parts.push(`FROM ${this.fromItem(s.from)}`);
      if (s.arrayJoin) parts.push(`ARRAY JOIN ${this.expr(s.arrayJoin)}`);
      for (const join of s.joins ?? []) parts.push(this.join(join));
    }
    if (s.where) parts.push(`WHERE ${this.expr(s.where)}`);
    if (s.groupBy?.length) parts.push(`GROUP BY ${this.groupBy(s.groupBy, s.groupByMode)}`);
    if (s.having) parts.push(`HAVING ${this.expr(s.having)}`);
    if (s.orderBy?.length) parts.push(`ORDER BY ${this.orderItems(s.orderBy)}`);
    if (s.limitBy) parts.push(`LIMIT ${this.count(s.limitBy.count)} BY ${s.limitBy.exprs.map((e) => this.expr(e)).join(', ')}`);
    if (s.limitFraction !== undefined) return this.fractionLimited(s, parts);
    if (s.limit !== undefined) parts.push(`LIMIT ${this.limit(s)}${s.withTies ? ' WITH TIES' : ''}`);
    if (s.offset !== undefined && s.offset > 0) parts.push(`OFFSET ${this.count(s.offset)}`);
    return parts.join(' ');
  }

  /** A fractional LIMIT (a share of the rows) takes no row count beside it: the count caps it from outside. */
  private fractionLimited(s: Select, parts: string[]): string {
    const fraction = s.limitFraction!;
    if (!(fraction > 0 && fraction < 1)) throw new OutOfRangeNumberError('a LIMIT fraction');
    parts.push(`LIMIT ${fraction}${s.withTies ? ' WITH TIES' : ''}`);
    if (s.offset !== undefined && s.offset > 0) parts.push(`OFFSET ${this.count(s.offset)}`);
    const inner = parts.join(' ');
    return s.limit === undefined || s.limit === Number.MAX_SAFE_INTEGER ? inner : `SELECT * FROM (${inner}) LIMIT ${this.limit(s)}`;
  }

  private groupBy(exprs: readonly Expr[], mode: Select['groupByMode']): string {
    if (mode === 'grouping_sets') {
      // Each set is held as a tuple; printed as tuple(...) it would group by one tuple value instead.
      const set = (e: Expr) => `(${(e.kind === 'tuple' ? e.items : [e]).map((x) => this.expr(x)).join(', ')})`;
      return `GROUPING SETS (${exprs.map(set).join(', ')})`;
    }
    const list = exprs.map((e) => this.expr(e)).join(', ');
    return mode === 'rollup' ? `ROLLUP(${list})` : mode === 'cube' ? `CUBE(${list})` : list;
  }

  /**
   * Every table, in FROM or JOIN at any depth, is read through its own guarded SELECT. The guard
   * lives inside a subquery whose text is ours alone: no alias, column or table name a query
   * defines outside it can stand between the guard and the table (ClickHouse resolves an
   * expression alias before a table alias, so a guard printed in the user's own SELECT could be
   * turned into a comparison of constants). The engine pushes the outer filters down into it, so
   * the primary key and PREWHERE work as on the bare table.
   */
  private fromItem(item: FromItem): string {
    if (item.kind === 'subquery') return `(${this.query(item.query)}) AS ${quoteIdentifier(item.alias)}`;
    if (item.kind === 'numbers') return this.numbers(item);
    const guard = `team_id = ${this.teamParam(item)}`;
    const sampled = item.sample ? this.sample(item, item.sample) : undefined;
    // SELECT * leaves MATERIALIZED columns out: the ones the query reads are named.
    const columns = ['*', ...(item.materialized ?? []).map(quoteIdentifier)].join(', ');
    return `(SELECT ${columns} FROM ${this.tableName(item)}${this.final(item)} WHERE ${guard}${sampled ? ` AND ${sampled}` : ''}) AS ${quoteIdentifier(item.alias)}`;
  }

  /** FINAL, on the one table whose rows are aggregate states to merge per key. */
  private final(item: TableRef): string {
    if (!item.final) return '';
    if (item.table !== 'sessions') throw new PrintError(`FINAL on table "${item.table}"`);
    return ' FINAL';
  }

  /** SAMPLE on the events table: its rows by ClickHouse's rule for `SAMPLE BY cityHash64(distinct_id)`, inside the guard. */
  private sample(item: TableRef, sample: TableSample): string | undefined {
    if (item.table !== 'events') throw new PrintError(`SAMPLE on table "${item.table}"`);
    const teamRows = () => `(SELECT count() FROM ${this.tableName(item)} WHERE team_id = ${this.teamParam(item)})`;
    return sampleCondition(sample, 'cityHash64(distinct_id)', this.bag, teamRows);
  }

  /**
   * numbers(): generated rows, not stored ones, so no guard. Bounds our translator checked are
   * parameters. A bound that is an expression the engine folds to a constant is checked by the
   * engine: the statement generates at most the budget, and a filter on its rows refuses it with
   * our text on the first row when a bound is not a whole number in range (the engine does not
   * fold throwIf, so the check cannot sit in the table function's arguments).
   */
  private numbers(item: NumbersRef): string {
    const alias = quoteIdentifier(item.alias);
    if (typeof item.start === 'number' && typeof item.count === 'number') return `numbers(${this.checkedBound(item.start)}, ${this.checkedBound(item.count)}) AS ${alias}`;
    const checks: string[] = [];
    const bound = (b: number | Expr, most: number | undefined, refusal: string): string => {
      if (typeof b === 'number') return this.checkedBound(b);
      const value = () => `(${this.expr(b)})`;
      const range = `${value()} >= 0 AND toUInt64(${value()}) = ${value()}${most === undefined ? '' : ` AND ${value()} <= ${this.bag.add(most, 'UInt64')}`}`;
      checks.push(`throwIf(NOT ifNull(${range}, 0), ${this.bag.add(refusal, 'String')})`);
      const whole = `toUInt64(assumeNotNull(${value()}))`;
      return most === undefined ? whole : `least(${whole}, ${this.bag.add(most, 'UInt64')})`;
    };
    const start = bound(item.start, undefined, NUMBERS_START_REFUSAL);
    const count = bound(item.count, MAX_NUMBERS_ROWS, NUMBERS_COUNT_REFUSAL);
    return `(SELECT number FROM numbers(${start}, ${count}) WHERE ${checks.map((c) => `${c} = 0`).join(' AND ')}) AS ${alias}`;
  }

  /** A bound our translator worked out: a whole number, printed as a parameter. */
  private checkedBound(n: number): string {
    if (!Number.isSafeInteger(n) || n < 0) throw new PrintError(`numbers() bound ${n} is not a checked whole number`);
    return this.bag.add(n, 'UInt64');
  }

  private join(join: Join): string {
    const from = this.fromItem(join.from);
    if (join.using?.length) return `${join.type} JOIN ${from} USING (${join.using.map(quoteIdentifier).join(', ')})`;
    if (join.on) return `${join.type} JOIN ${from} ON ${this.expr(join.on)}`;
    if (join.type !== 'CROSS') throw new PrintError(`${join.type} JOIN needs a condition`);
    return `CROSS JOIN ${from}`;
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

  private frame(frame: WindowFrame): string {
    const bound = (b: FrameBound) => (b.type === 'CURRENT ROW' ? b.type : `${b.offset === undefined ? 'UNBOUNDED' : this.count(b.offset)} ${b.type}`);
    return frame.end ? `${frame.method} BETWEEN ${bound(frame.start)} AND ${bound(frame.end)}` : `${frame.method} ${bound(frame.start)}`;
  }

  /** A computed LIMIT never exceeds the whole-number one; the engine refuses one that is not a count. */
  private limit(s: Select): string {
    const cap = this.count(s.limit!);
    return s.limitExpr ? `least(${cap}, ${this.expr(s.limitExpr)})` : cap;
  }

  private count(n: number): string {
    if (!Number.isSafeInteger(n) || n < 0) throw new OutOfRangeNumberError('a row count');
    return String(n);
  }

  private call(name: string, args: readonly Expr[], params?: readonly Expr[], distinct?: boolean): string {
    if (!isAllowedFunction(name)) throw new PrintError(`function not allowed: ${JSON.stringify(name)}`);
    const head = params ? `${name}(${params.map((p) => this.expr(p)).join(', ')})` : name;
    return `${head}(${distinct ? 'DISTINCT ' : ''}${args.map((a) => this.expr(a)).join(', ')})`;
  }

  expr(e: Expr): string {
    this.spend();
    switch (e.kind) {
      case 'constant':
        return this.bag.add(e.value, e.type);
      case 'field':
        return e.table ? `${quoteIdentifier(e.table)}.${quoteIdentifier(e.name)}` : quoteIdentifier(e.name);
      case 'call':
        return this.call(e.name, e.args, e.params, e.distinct);
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
        return e.table ? `${quoteIdentifier(e.table)}.*` : '*';
      case 'interval':
        if (!Number.isSafeInteger(e.count)) throw new OutOfRangeNumberError('an interval');
        return `${INTERVAL_FUNCTIONS[e.unit]}(${this.bag.add(e.count, 'Int64')})`;
      case 'keyword':
        if (!KEYWORD_TEXT.test(e.text)) throw new PrintError(`not a keyword: ${JSON.stringify(e.text)}`);
        return `'${e.text}'`;
      case 'window': {
        const over = [
          e.partitionBy.length ? `PARTITION BY ${e.partitionBy.map((x) => this.expr(x)).join(', ')}` : '',
          e.orderBy.length ? `ORDER BY ${this.orderItems(e.orderBy)}` : '',
          e.frame ? this.frame(e.frame) : '',
        ].filter(Boolean).join(' ');
        return `${this.call(e.call.name, e.call.args, e.call.params, e.call.distinct)} OVER (${over})`;
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
