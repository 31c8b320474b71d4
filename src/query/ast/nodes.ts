// The query AST: plain, frozen data with a `kind` discriminant. Runners build trees of these;
// only the printer turns them into SQL text, and user values only ever live in `constant` nodes.

/** A value from the outside world. Printed as a bound `{pN:Type}` parameter, never as text. */
export interface Constant {
  readonly kind: 'constant';
  readonly value: ConstantValue;
  /** The ClickHouse type of the parameter; inferred from the value when absent. */
  readonly type?: ParamType;
}
export type ConstantValue = string | number | boolean | null | readonly ConstantValue[];

/** Parameter types the printer may declare. A fixed list, so no type text comes from input. */
export type ParamType =
  | 'String' | 'Int64' | 'UInt64' | 'UInt8' | 'UInt16' | 'UInt32' | 'Int8' | 'Int16' | 'Int32' | 'Float64' | 'Bool' | 'Date' | 'UUID' | "DateTime64(6, 'UTC')"
  | 'Nullable(String)' | 'Nullable(Nothing)' | 'Array(String)' | 'Array(Int64)' | 'Array(Float64)' | 'Array(Nullable(String))'
  | 'Array(Array(String))' | 'Array(Array(Int64))' | 'Array(Array(Float64))';

/** A column (or an alias defined in the query), optionally qualified by a table alias. */
export interface Field {
  readonly kind: 'field';
  readonly name: string;
  readonly table?: string;
}

/** A function call; `name` must be on the printer's allow-list. `params` for parametric aggregates: quantile(0.9)(x). */
export interface Call {
  readonly kind: 'call';
  readonly name: string;
  readonly args: readonly Expr[];
  readonly params?: readonly Expr[];
  /** An aggregate over distinct values: count(DISTINCT x). */
  readonly distinct?: boolean;
}

export type BinaryOperator =
  | '=' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%'
  | 'LIKE' | 'NOT LIKE' | 'ILIKE' | 'NOT ILIKE' | 'IN' | 'NOT IN';

export interface Binary {
  readonly kind: 'binary';
  readonly op: BinaryOperator;
  readonly left: Expr;
  readonly right: Expr;
}

export interface And { readonly kind: 'and'; readonly exprs: readonly Expr[] }
export interface Or { readonly kind: 'or'; readonly exprs: readonly Expr[] }
export interface Not { readonly kind: 'not'; readonly expr: Expr }
export interface IsNull { readonly kind: 'isNull'; readonly expr: Expr; readonly negated: boolean }
export interface Alias { readonly kind: 'alias'; readonly expr: Expr; readonly alias: string }
export interface Lambda { readonly kind: 'lambda'; readonly args: readonly string[]; readonly body: Expr }
export interface Tuple { readonly kind: 'tuple'; readonly items: readonly Expr[] }
export interface ArrayLiteral { readonly kind: 'array'; readonly items: readonly Expr[] }
/** `*`, or `alias.*` for one table's columns. */
export interface Star { readonly kind: 'star'; readonly table?: string }

export type IntervalUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';
/** `INTERVAL n unit`; n is a number our code computed and checked, printed as a parameter. */
export interface IntervalLiteral { readonly kind: 'interval'; readonly count: number; readonly unit: IntervalUnit }

/** A literal from a fixed vocabulary where ClickHouse demands a literal (e.g. JSONExtract's type argument). */
export interface Keyword { readonly kind: 'keyword'; readonly text: KeywordText }
export type KeywordText = 'Nullable(String)' | 'Nullable(Float64)' | 'String' | 'Float64' | `Decimal64(${DecimalScale})`;
/** The scales ClickHouse's Decimal64 takes. */
export type DecimalScale = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18;

/** A window function: fn(args) OVER (PARTITION BY ... ORDER BY ... [frame]). */
export interface WindowCall {
  readonly kind: 'window';
  readonly call: Call;
  readonly partitionBy: readonly Expr[];
  readonly orderBy: readonly OrderItem[];
  readonly frame?: WindowFrame;
}

/** `ROWS|RANGE BETWEEN <start> AND <end>` (or just `<start>`); offsets are checked whole numbers. */
export interface WindowFrame {
  readonly method: 'ROWS' | 'RANGE';
  readonly start: FrameBound;
  readonly end?: FrameBound;
}
export type FrameBound =
  | { readonly type: 'CURRENT ROW' }
  | { readonly type: 'PRECEDING' | 'FOLLOWING'; readonly offset?: number };

export interface OrderItem { readonly expr: Expr; readonly direction: 'ASC' | 'DESC' }

export type Expr =
  | Constant | Field | Call | Binary | And | Or | Not | IsNull | Alias | Lambda | Tuple | ArrayLiteral
  | Star | IntervalLiteral | Keyword | WindowCall | Select;

/** Tables a query may name: the event store's catalog. */
export type TableName = 'events' | 'persons' | 'person_distinct_ids' | 'person_distinct_id_overrides' | 'groups' | 'static_cohort_people' | 'sessions' | 'session_replay_events';

/**
 * A table in FROM or JOIN. `teamId` is set only by the team guard pass; the printer refuses a
 * table without it, so no runner can forget the project scope.
 */
export interface TableRef {
  readonly kind: 'table';
  readonly table: TableName;
  readonly alias: string;
  readonly teamId?: number;
  /** HogQL's `SAMPLE size OFFSET offset`, on the events table only (printer/sample.ts). */
  readonly sample?: TableSample;
  /** Columns the guard's SELECT * leaves out that the query reads (the events' MATERIALIZED property columns). */
  readonly materialized?: readonly string[];
  /**
   * Read with FINAL: the engine merges the rows of each sorting key (the sessions' aggregate
   * states) as it reads, and skips the merge for ranges no other part overlaps.
   */
  readonly final?: boolean;
}

/** A ratio ClickHouse's SAMPLE takes, exact: whole numbers as decimal text (0.1 is 1/10). */
export interface SampleRatio {
  readonly numerator: string;
  readonly denominator: string;
}

export interface TableSample {
  readonly size: SampleRatio;
  readonly offset?: SampleRatio;
}

export interface SubqueryRef {
  readonly kind: 'subquery';
  readonly query: Select | Union;
  readonly alias: string;
}

/**
 * `numbers(start, count)`: the engine's generated integers (column `number`), no stored rows, so no
 * team guard. A bound is a checked whole number printed as a parameter, or an expression without
 * tables the engine folds to a constant, printed with the same checks made by the engine.
 */
export interface NumbersRef {
  readonly kind: 'numbers';
  readonly start: number | Expr;
  readonly count: number | Expr;
  readonly alias: string;
}

export type FromItem = TableRef | SubqueryRef | NumbersRef;

/** Join kinds from a fixed list, so no join text comes from input. */
export type JoinType =
  | 'LEFT' | 'INNER' | 'RIGHT' | 'FULL OUTER' | 'CROSS'
  | 'LEFT ANY' | 'INNER ANY' | 'RIGHT ANY' | 'LEFT SEMI' | 'RIGHT SEMI' | 'LEFT ANTI' | 'RIGHT ANTI' | 'LEFT ASOF' | 'ASOF';

export interface Join {
  readonly type: JoinType;
  readonly from: FromItem;
  /** Absent only for CROSS joins and joins with `using`. */
  readonly on?: Expr;
  readonly using?: readonly string[];
}

export interface Select {
  readonly kind: 'select';
  readonly select: readonly Expr[];
  readonly distinct?: boolean;
  readonly from?: FromItem;
  readonly joins?: readonly Join[];
  readonly arrayJoin?: Expr;
  readonly where?: Expr;
  readonly groupBy?: readonly Expr[];
  /** `GROUP BY ROLLUP(...)`, `CUBE(...)` or `GROUPING SETS (...)`; for grouping sets each groupBy item is a tuple, one set. */
  readonly groupByMode?: 'rollup' | 'cube' | 'grouping_sets';
  readonly having?: Expr;
  readonly orderBy?: readonly OrderItem[];
  readonly limit?: number;
  /** A LIMIT the statement computes (HogQL's `LIMIT (SELECT ...)`): printed as the least of it and `limit`, which caps it. */
  readonly limitExpr?: Expr;
  /** `LIMIT n WITH TIES`: rows that tie with the last one under ORDER BY come too (needs orderBy and limit). */
  readonly withTies?: boolean;
  /** `LIMIT n %`: ClickHouse's fractional LIMIT (0 < f < 1), that share of the rows; `limit` still caps their count. */
  readonly limitFraction?: number;
  /** Rows skipped before the LIMIT ones (needs a limit). */
  readonly offset?: number;
  /** `LIMIT n BY exprs`, applied before LIMIT. */
  readonly limitBy?: { readonly count: number; readonly exprs: readonly Expr[] };
}

export type SetOperator = 'UNION ALL' | 'UNION DISTINCT' | 'INTERSECT' | 'INTERSECT DISTINCT' | 'EXCEPT' | 'EXCEPT DISTINCT';

/** Queries combined left to right; `operators[i]` joins `selects[i]` and `selects[i + 1]` (UNION ALL when absent). */
export interface Union {
  readonly kind: 'union';
  readonly selects: readonly (Select | Union)[];
  readonly operators?: readonly SetOperator[];
}

export type Query = Select | Union;
