// PostHog's HogQL AST (the parser's JSON) -> Hoglet's query AST. Names resolve against the HogQL
// tables (tables.ts) in scope; functions against the user allow-list; values become constants (bound
// parameters when printed). What comes out is an ordinary tree: the team guard, the printer's
// parameters and its allow-list apply to it as to every runner's query.
import { alias, and, array, binary, call, constant, field, lambda, not, or, select, STAR, subquery, tuple, union } from '../../ast/build.js';
import type { Expr, FromItem, Join, JoinType, OrderItem, ParamType, Query, Select, SetOperator, TableName, Union, WindowCall, WindowFrame, FrameBound } from '../../ast/nodes.js';
import type { EventSource } from '../../filters/event-source.js';
import type { PropertySource } from '../../filters/properties.js';
import { InternalError } from '../../../errors.js';
import { jsonProperty } from '../../catalog/fields.js';
import type { ActionDefinition } from '../../context.js';
import { actionExpr } from '../../filters/actions.js';
import { isPrintableIdentifier } from '../../printer/print.js';
import { IN_COHORT_OPERATORS } from '../cohort-mentions.js';
import { STRING_PARSERS, type PropertyOwner, type PropertyTypeLookup } from '../property-types.js';
import { HogQLNotSupportedError, HogQLQueryError } from '../errors.js';
import { lookupHogQLFunction } from '../functions/index.js';
import { userCall } from './calls.js';
import { SAMPLE_TABLES_ONLY, sampleOf } from './sample.js';
import { compare, compareInJoin } from './compare.js';
import { isPropertyRead } from './property-equality.js';
import { filterBeforeJoins } from './filter-first.js';
import { lookupsAsSemiJoins } from './lookup-semi-join.js';
import { numbersTable, type TranslateBound } from './numbers-table.js';
import { chainOf, child, children, isNode, type HogQLNode } from './hogql-ast.js';
import { columnName, withValues } from './print-hogql.js';
import { SessionsTable } from './sessions.js';
import { hogqlProperty, isHogQLTable, scopedTable, type Chain, type ScopedTable, type TableContext } from './tables.js';
import { typed, typeOf, type Typed } from './types.js';

export type PlaceholderValue = string | number | boolean | null | readonly (string | number)[];

export interface TranslateContext {
  readonly timezone: string;
  /** The project's week start (0 Sunday, 1 Monday): `toStartOfWeek(x)` without a mode follows it. */
  readonly weekStartDay?: 0 | 1;
  /** `{name}` placeholders (HogQLQuery.values). */
  readonly values: Readonly<Record<string, PlaceholderValue>>;
  /** What `{filters}` stands for over the SELECT's table; TRUE when no filters were given. */
  readonly filters?: (target: FilterTarget) => Expr | undefined;
  /** `{filters.dateRange.from}` / `.to`: the bound as a DateTime; undefined when the range leaves it open. */
  readonly filterDate?: (bound: 'from' | 'to') => Expr | undefined;
  /** HogQL filter texts of the query, parsed (QueryContext.hogql): read in the scope of `{filters}`. */
  readonly hogql?: ReadonlyMap<string, HogQLNode>;
  /** A cohort's members (QueryContext.cohorts), for cohort filters and IN COHORT. */
  readonly cohortMembers?: (cohortId: number) => Select;
  /** IN COHORT 'name': the live cohort of that name (QueryContext.cohortNames). */
  readonly cohortIdByName?: (name: string) => number | undefined;
  /** Property definitions' types: a typed property reads as its type (property-types.ts). */
  readonly propertyTypes?: PropertyTypeLookup;
  /** matchesAction: the actions the query names, resolved before the run (QueryContext.actions). */
  readonly actions?: ReadonlyMap<number, ActionDefinition>;
}

/** The table `{filters}` stands over: its events (when it is the events table) and its properties. */
export interface FilterTarget {
  readonly events?: EventSource;
  /** The session's $start_timestamp, when the SELECT reads the sessions table and no events table. */
  readonly sessionStart?: Expr;
  /** The group's created_at, when the SELECT reads the groups table (PostHog's {filters} over groups). */
  readonly groupCreatedAt?: Expr;
  readonly properties: PropertySource;
  /** What the project's test-account filters read, when not `properties` (over the sessions table alone). */
  readonly testAccountProperties?: PropertySource;
}

export interface Translated {
  readonly query: Query;
  /** Output column names as PostHog gives them. */
  readonly columns: string[];
}

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
const SET_OPERATORS: ReadonlySet<string> = new Set(['UNION ALL', 'UNION DISTINCT', 'INTERSECT', 'INTERSECT DISTINCT', 'EXCEPT', 'EXCEPT DISTINCT']);
const ARITHMETIC: Record<string, string> = { '+': 'plus', '-': 'minus', '*': 'multiply', '/': 'divide', '%': 'modulo' };
const CASTS: Record<string, string> = {
  // Strict, as PostHog prints them (test_postgres_style_cast): a text that is no number is an error, not NULL.
  int: 'toInt64', integer: 'toInt64', float: 'toFloat64', double: 'toFloat64', 'double precision': 'toFloat64', real: 'toFloat64',
  string: 'toString', text: 'toString', varchar: 'toString', char: 'toString', date: 'toDate', datetime: 'toDateTime',
  timestamp: 'toDateTime', timestamptz: 'toDateTime', boolean: 'toBool', bool: 'toBool', uuid: 'toUUIDOrNull',
};

const LIKE_CALLS: Record<string, string> = { like: 'like', notLike: 'not like', ilike: 'ilike', notILike: 'not ilike' };

/** A CTE: its query (or, `WITH expr AS name`, its expression), and the CTEs its body may name (those defined before it). */
interface Cte {
  readonly node: HogQLNode;
  readonly visible: CteMap;
  readonly column?: boolean;
}
type CteMap = ReadonlyMap<string, Cte>;

/**
 * How many expressions and queries one statement may translate to. A page of HogQL is a few
 * thousand; chained CTEs that each name the previous one twice double at every link.
 */
export const TRANSLATION_BUDGET = 100_000;

/** One SELECT's names: its tables by alias, its CTEs, the aliases its select list defined. */
class Scope {
  readonly tables = new Map<string, ScopedTable>();
  /** Aliases defined so far in this SELECT (anywhere in its expressions), with what they hold. */
  readonly aliases = new Map<string, Typed>();
  /** The WINDOW clause's named windows, inlined into each `OVER name`. */
  readonly windows = new Map<string, HogQLNode>();
  /** While the ARRAY JOIN is read: the select list's aliases, not yet translated, by name. */
  readonly selectAliases = new Map<string, HogQLNode>();

  constructor(readonly ctes: CteMap) {}
}

const CTE_LOOP = 'Too many CTE expansions (50+). Probably a CTE loop.';
/** PostHog's MAX_PLACEHOLDER_MACRO_EXPANSION_DEPTH: how deep template functions (date_part ...) may nest. */
const MAX_MACRO_DEPTH = 8;
const WHOLE_PARTITION: WindowFrame = { method: 'ROWS', start: { type: 'PRECEDING' }, end: { type: 'FOLLOWING' } };

/** An argument as PostHog's messages name it: a constant by its type and value, anything else by its node. */
function describeArg(node: HogQLNode, value: unknown): string {
  if (node.node !== 'Constant' && node.node !== 'Placeholder') return node.node;
  const type = typeof value === 'number' ? (Number.isInteger(value) ? 'IntegerType' : 'FloatType') : typeof value === 'boolean' ? 'BooleanType' : value === null || value === undefined ? 'UnknownType' : 'ConstantType';
  return `${type} '${String(value)}'`;
}

const ARRAY_JOINS: ReadonlySet<string> = new Set(['ARRAY JOIN', 'INNER ARRAY JOIN', 'LEFT ARRAY JOIN']);

/** LEFT ARRAY JOIN x as ARRAY JOIN of x, or of [default] when x is empty (what ClickHouse's LEFT form gives). */
function leftArrayJoin(item: HogQLNode): HogQLNode {
  const array = item.node === 'Alias' ? child(item, 'expr')! : item;
  const fn = (name: string, ...args: HogQLNode[]): HogQLNode => ({ node: 'Call', name, args });
  const kept = fn('if', fn('empty', array), fn('arrayResize', array, { node: 'Constant', value: 1 }), array);
  return item.node === 'Alias' ? { ...item, expr: kept } : kept;
}

/** A SELECT's CTEs added to those it sees from outside. A CTE's body sees the CTEs before it, never
 * itself: its own name there is the table of that name. */
function withCtes(node: HogQLNode, outer: CteMap): CteMap {
  const ctes = new Map(outer);
  for (const cte of children(node, 'ctes')) {
    const type = cte['cte_type'];
    if (type !== 'subquery' && type !== 'column') throw new HogQLNotSupportedError(`A CTE of type ${String(type)}`);
    // PostHog's ClickHouse printer refuses these (ImpossibleASTError); read silently they would change nothing or loop.
    if (cte['recursive']) throw new HogQLNotSupportedError('WITH RECURSIVE');
    if (cte['materialized'] != null) throw new HogQLNotSupportedError('A CTE materialization hint');
    if (cte['using_key'] != null) throw new HogQLNotSupportedError('USING KEY in a CTE');
    ctes.set(String(cte['name']), { node: child(cte, 'expr')!, visible: new Map(ctes), column: type === 'column' });
  }
  return ctes;
}

export class HogQLTranslator {
  private readonly lambdaArgs: string[] = [];
  private aliasCount = 0;
  /** Inside a JOIN's ON clause (at any depth, as PostHog's printer stack): comparisons are plain there. */
  private inJoinConstraint = 0;
  /** The comparisons being translated: an open `{filters.dateRange.*}` bound makes the innermost TRUE. */
  private readonly comparisons: { skip: boolean }[] = [];
  /** Nodes translated so far: a CTE is translated again at each use, so text can grow exponentially here. */
  private work = 0;
  /** Inside the arguments of a call that parses text itself (toFloatOrZero): properties stay text, as PostHog's. */
  private propertiesAsText = false;
  /** Template functions (PostHog's placeholder macros) open around the expression being translated. */
  private macroDepth = 0;
  /** A property's type for the tables in scope (none inside a STRING_PARSERS call). */
  private readonly propertyType = (owner: PropertyOwner, name: string) =>
    (this.propertiesAsText ? undefined : this.context.propertyTypes?.typeOf(owner, name));

  constructor(private readonly context: TranslateContext) {}

  /** One more node translated; past the budget the query is refused before it can grow any further. */
  private spend(): void {
    this.work += 1;
    if (this.work > TRANSLATION_BUDGET) {
      throw new HogQLQueryError(`The query expands to more than ${TRANSLATION_BUDGET} expressions once its CTEs and subqueries are written out; simplify it or use fewer references to each CTE`);
    }
  }

  /** A cohort's members; a query without resolved cohorts cannot name one. */
  private readonly cohortMembers = (id: number): Select => {
    if (!this.context.cohortMembers) throw new InternalError('cohort_unresolved', `cohort ${id} was read without being resolved first`);
    return this.context.cohortMembers(id);
  };

  /** A whole statement: a SELECT or a set of SELECTs. */
  statement(node: HogQLNode): Translated {
    const query = this.query(node, new Map());
    return { query, columns: this.columnsOf(node) };
  }

  /** A standalone expression over the events of `events` (HogQL inside insights). */
  expression(node: HogQLNode, events: EventSource): Expr {
    const scope = new Scope(new Map());
    scope.tables.set(events.names.events, eventsScope(events, { timezone: this.context.timezone, propertyType: this.propertyType }));
    return this.expr(node, scope);
  }

  private columnsOf(node: HogQLNode): string[] {
    if (node.node === 'SelectSetQuery') return this.columnsOf(child(node, 'initial_select_query')!);
    return children(node, 'select').flatMap((item) => {
      if (item.node === 'Field' && chainOf(item).at(-1) === '*') return this.starNames(item);
      return [columnName(withValues(item, this.context.values))];
    });
  }

  private starNames(item: HogQLNode): string[] {
    // Names only; the expansion itself happens in the select (where the tables are known).
    return this.lastStar.get(item) ?? [];
  }

  private readonly lastStar = new WeakMap<HogQLNode, string[]>();
  /** The CTEs whose bodies are being translated, innermost last. */
  private readonly expanding: string[] = [];
  /** The aggregations whose arguments are being translated in this SELECT, outermost first. */
  private readonly aggregations: string[] = [];

  private query(node: HogQLNode, ctes: CteMap): Query {
    this.spend();
    // An aggregation in a subquery is not nested in the aggregation around the subquery.
    const outerAggregations = this.aggregations.splice(0);
    try {
      if (node.node === 'SelectQuery') return this.select(node, ctes);
      if (node.node === 'SelectSetQuery') return this.setQuery(node, ctes);
      throw new HogQLQueryError(`Expected a SELECT query, got ${node.node}`);
    } finally {
      this.aggregations.splice(0, this.aggregations.length, ...outerAggregations);
    }
  }

  private setQuery(node: HogQLNode, ctes: CteMap): Union {
    const first = child(node, 'initial_select_query');
    if (!first) throw new HogQLQueryError('A set of queries needs a first query');
    const selects: (Select | Union)[] = [this.query(first, ctes)];
    // The first SELECT's WITH names CTEs the later parts of the set read too, as in PostHog (test_ctes_with_union_all).
    if (first.node === 'SelectQuery') ctes = withCtes(first, ctes);
    const operators: SetOperator[] = [];
    for (const next of children(node, 'subsequent_select_queries')) {
      let operator = String(next['set_operator'] ?? '');
      let query = child(next, 'select_query')!;
      // ClickHouse has no BY NAME: the later side's columns are put in the first side's order instead.
      const byName = /^UNION(?: (ALL|DISTINCT))? BY NAME$/.exec(operator);
      if (byName) {
        operator = `UNION ${byName[1] ?? 'DISTINCT'}`;
        query = this.inOrderOf(query, this.columnsOf(first));
      }
      if (!SET_OPERATORS.has(operator)) throw new HogQLNotSupportedError(`Set operator ${operator}`);
      operators.push(operator as SetOperator);
      selects.push(this.query(query, ctes));
    }
    return Object.freeze({ ...union(), selects: Object.freeze(selects), operators: Object.freeze(operators) });
  }

  /** A UNION BY NAME side, its select items reordered to `names` (the same names, each once, on both sides). */
  private inOrderOf(query: HogQLNode, names: readonly string[]): HogQLNode {
    if (query.node !== 'SelectQuery') throw new HogQLNotSupportedError('UNION BY NAME of a nested set');
    const items = children(query, 'select');
    if (items.some(isStarField)) throw new HogQLNotSupportedError('UNION BY NAME of a SELECT *');
    const own = items.map((item) => columnName(withValues(item, this.context.values)));
    const same = new Set(names).size === names.length && new Set(own).size === own.length && own.length === names.length && names.every((n) => own.includes(n));
    if (!same) throw new HogQLQueryError(`UNION BY NAME needs the same column names on both sides, each once: (${names.join(', ')}) and (${own.join(', ')})`);
    return { ...query, select: names.map((name) => items[own.indexOf(name)]!) };
  }

  private select(node: HogQLNode, outerCtes: CteMap): Select {
    if (node['qualify']) throw new HogQLQueryError("QUALIFY is not supported in the 'clickhouse' dialect");
    if (node['settings']) throw new HogQLNotSupportedError('SETTINGS');
    const scope = new Scope(withCtes(node, outerCtes));
    const windows = node['window_exprs'];
    if (windows && typeof windows === 'object') {
      for (const [name, window] of Object.entries(windows)) if (isNode(window)) scope.windows.set(name, window);
    }
    const from = child(node, 'select_from');
    const joinNodes: HogQLNode[] = [];
    for (let join = from; join; join = child(join, 'next_join')) joinNodes.push(join);
    const fromItems = joinNodes.map((join, i) => this.fromItem(join, scope, i > 0));
    const joins: Join[] = joinNodes.slice(1).map((join, i) => this.join(join, fromItems[i + 1]!, scope));

    let arrayJoin: Expr | undefined;
    const arrayJoins = children(node, 'array_join_list');
    if (arrayJoins.length > 0) {
      const op = String(node['array_join_op'] ?? 'ARRAY JOIN');
      if (!ARRAY_JOINS.has(op) || arrayJoins.length !== 1) throw new HogQLNotSupportedError(`${op} of several arrays`);
      for (const item of children(node, 'select')) if (item.node === 'Alias') scope.selectAliases.set(String(item['alias']), child(item, 'expr')!);
      try {
        arrayJoin = this.expr(op === 'LEFT ARRAY JOIN' ? leftArrayJoin(arrayJoins[0]!) : arrayJoins[0]!, scope);
      } finally {
        scope.selectAliases.clear();
      }

    }

    const items = children(node, 'select');
    const selected: Expr[] = [];
    const names: string[] = [];
    for (const item of items) {
      if (item.node === 'Field' && chainOf(item).at(-1) === '*') {
        const expanded = this.star(item, scope);
        this.lastStar.set(item, expanded.map(([name]) => name));
        for (const [name, expr] of expanded) {
          selected.push(alias(expr, name));
          names.push(name);
        }
        continue;
      }
      const expr = this.expr(item, scope);
      selected.push(expr);
      names.push(columnName(withValues(item, this.context.values)));
    }
    // Unaliased items are named as PostHog names their columns, so an outer query can read them
    // by that name; of items that share a name only the last takes it, as in PostHog.
    const named = selected.map((expr, i) => {
      const name = names[i]!;
      if (expr.kind === 'alias' || !isPrintableIdentifier(name) || names.lastIndexOf(name) !== i || scope.aliases.has(name)) return expr;
      return alias(expr, name);
    });

    const where = [child(node, 'prewhere'), child(node, 'where')].filter((x): x is HogQLNode => x !== undefined).map((x) => this.expr(x, scope));
    const groupKey = (x: HogQLNode) => positional(x, named) ?? this.expr(x, scope);
    // GROUPING SETS ((a), (b), ()): each set a tuple of its keys (the printer prints it as a set).
    const groupBy = children(node, 'group_by').map((x) => (x.node === 'GroupingSet' ? tuple(...children(x, 'exprs').map(groupKey)) : groupKey(x)));
    const groupByMode = node['group_by_mode'] === 'rollup' || node['group_by_mode'] === 'cube' || node['group_by_mode'] === 'grouping_sets' ? node['group_by_mode'] : undefined;
    const havingNode = child(node, 'having');
    const having = havingNode ? this.expr(havingNode, scope) : undefined;
    const orderBy = children(node, 'order_by').map((x) => this.orderItem(x, scope, named));
    const limitByNode = child(node, 'limit_by');
    const limitBy = limitByNode
      ? { count: this.count(child(limitByNode, 'n'), 'LIMIT BY'), exprs: children(limitByNode, 'exprs').map((x) => this.expr(x, scope)) }
      : undefined;
    // Last: the joins the fields read above needed, each right after its table's own place, so
    // a later ON clause can read them (`join persons p on p.id = e.person_id`).
    const lazyJoinsOf = (item: FromItem | undefined) => (item ? scope.tables.get(item.alias)?.joins() ?? [] : []);
    // Tables read as subqueries now know which of their columns were read.
    const finalOf = (item: FromItem): FromItem => scope.tables.get(item.alias)?.finalFrom?.() ?? item;
    const allJoins = [...lazyJoinsOf(fromItems[0]), ...joins.flatMap((join, i) => [{ ...join, from: finalOf(join.from) }, ...lazyJoinsOf(fromItems[i + 1])])];

    return filterBeforeJoins(lookupsAsSemiJoins(select({
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
      ...this.limit(node, orderBy.length > 0, scope.ctes),
      ...(child(node, 'offset') ? { offset: this.count(child(node, 'offset'), 'OFFSET') } : {}),
    })));
  }

  /**
   * LIMIT n, or LIMIT (expression) as PostHog takes it: the engine computes the expression before
   * the query (it may read no column of the query's own tables), capped by a whole number the
   * runner lowers to its 50,000-row cap. A subquery in it is translated like any other.
   */
  private limit(node: HogQLNode, ordered: boolean, ctes: CteMap): Pick<Select, 'limit' | 'limitExpr' | 'withTies' | 'limitFraction'> {
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
    if (given.node === 'Constant') return { limit: this.count(given, 'LIMIT'), ...withTies };
    return { limit: Number.MAX_SAFE_INTEGER, limitExpr: this.expr(given, new Scope(ctes)), ...withTies };
  }

  private count(node: HogQLNode | undefined, what: string): number {
    const value = node?.node === 'Constant' ? node['value'] : undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new HogQLQueryError(`${what} must be a whole number`);
    return value;
  }

  /** `joined`: a table after the first, whose own ON clause must read its lazy joins too. */
  private fromItem(join: HogQLNode, scope: Scope, joined: boolean): FromItem {
    if (join['table_final']) throw new HogQLQueryError('The FINAL keyword is not supported in HogQL as it causes slow queries');
    // `AS e (a, b, c)`: the source as usual, its first columns then answering to the new names.
    if (Array.isArray(join['column_aliases'])) {
      const names = join['column_aliases'].map(String);
      const from = this.fromItem({ ...join, column_aliases: undefined }, scope, joined);
      const table = [...scope.tables.values()].find((t) => t.from === from)!;
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
      const tableAlias = this.tableAlias(given ?? name, scope);
      const cte = tableArgs === null ? scope.ctes.get(name) : undefined;
      if (cte && !cte.column) return this.expandingCte(name, () => this.subqueryTable(cte.node, tableAlias, scope, cte.visible));
      const tableFunction = Object.hasOwn(TABLE_FUNCTIONS, name) ? TABLE_FUNCTIONS[name] : undefined;
      if (tableFunction) {
        // Its arguments see no table and no alias of this SELECT: constants the engine folds.
        const generated = tableFunction(tableArgs, tableAlias, (arg) => this.expr(arg, new Scope(new Map())));
        scope.tables.set(tableAlias, generated);
        return generated.from;
      }
      if (tableArgs !== null && (name === 'range' || name === 'generate_series')) throw new HogQLQueryError(`${name}() is not supported in ClickHouse dialect`);
      if (tableArgs !== null) throw new HogQLQueryError(`Table '${name}' does not accept arguments`);
      if (!isHogQLTable(name)) throw new HogQLQueryError(this.expanding.includes(name) ? CTE_LOOP : `Unknown table \`${name}\`.`);
      const table = scopedTable(name, tableAlias, { timezone: this.context.timezone, joined, propertyType: this.propertyType, ...(sample ? { sample } : {}) });
      if (name === 'groups') GROUPS_TABLES.add(table);
      scope.tables.set(tableAlias, table);
      return table.from;
    }
    if (source.node === 'SelectQuery' || source.node === 'SelectSetQuery') {
      return this.subqueryTable(source, this.tableAlias(given ?? `_subquery${++this.aliasCount}`, scope), scope);
    }
    if (source.node === 'Call') throw new HogQLQueryError(`Unknown table function \`${String(source['name'])}\`.`);
    throw new HogQLNotSupportedError(`Selecting from ${source.node}`);
  }

  private tableAlias(name: string, scope: Scope): string {
    if (!isPrintableIdentifier(name) || name.includes('__')) throw new HogQLQueryError(`Invalid table alias: ${name}`);
    if (scope.tables.has(name)) throw new HogQLQueryError(`Already have joined a table called "${name}". Can't redefine.`);
    return name;
  }

  private subqueryTable(node: HogQLNode, tableAlias: string, scope: Scope, ctes: CteMap = scope.ctes): FromItem {
    const inner = this.query(node, ctes);
    const columns = new Map(this.columnsOf(node).map((name) => [name, true] as const));
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

  private join(node: HogQLNode, from: FromItem, scope: Scope): Join {
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
    this.inJoinConstraint += 1;
    try {
      return Object.freeze({ type, from, on: this.expr(expr, scope) });
    } finally {
      this.inJoinConstraint -= 1;
    }
  }

  private star(item: HogQLNode, scope: Scope): [string, Expr][] {
    const chain = chainOf(item);
    const tables = chain.length === 1 ? [...scope.tables.values()] : [scope.tables.get(String(chain[0]))].filter((t): t is ScopedTable => !!t);
    if (tables.length === 0) throw new HogQLQueryError(chain.length === 1 ? "Cannot use '*' when there are no tables in the query" : `Unable to resolve field: ${chain.join('.')}`);
    if (tables.length > 1) throw new HogQLQueryError("Cannot use '*' without table name when there are multiple tables in the query");
    const table = tables[0]!;
    return table.asterisk().map((name) => [name, table.resolve([name])!] as [string, Expr]);
  }

  /** `selected`: the SELECT's items, when an integer here names one (ORDER BY 2; not in a window's ORDER BY). */
  private orderItem(node: HogQLNode, scope: Scope, selected?: readonly Expr[]): OrderItem {
    // PostHog's parser keeps WITH FILL (and drops NULLS FIRST and COLLATE, as PostHog does).
    if (node['with_fill']) throw new HogQLNotSupportedError('WITH FILL');
    const expr = node.node === 'OrderExpr' ? child(node, 'expr')! : node;
    const value = (selected && positional(expr, selected)) ?? this.expr(expr, scope);
    return Object.freeze({ expr: value, direction: node['order'] === 'DESC' ? 'DESC' : 'ASC' });
  }

  private field(node: HogQLNode, scope: Scope): Expr {
    const chain = chainOf(node);
    const [head] = chain;
    if (typeof head !== 'string' || chain.length === 0) throw new HogQLQueryError(`Unable to resolve field: ${chain.join('.')}`);
    if (chain.length === 1 && this.lambdaArgs.includes(head)) return field(head);
    const defined = scope.aliases.get(head);
    if (defined && !scope.tables.has(head)) return typed(this.path(field(head), defined, chain.slice(1)), chain.length === 1 ? defined.type : 'unknown', true);
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
      return this.expandingCte(head, () => this.expr(cte.node, scope));
    }
    // `ARRAY JOIN nums AS a` where the select list says `[1, 2, 3] AS nums`: that expression, as ClickHouse reads it.
    const aliased = chain.length === 1 ? scope.selectAliases.get(head) : undefined;
    if (aliased) return this.expandingCte(head, () => this.expr(aliased, scope));
    throw new HogQLQueryError(`Unable to resolve field: ${chain.join('.')}`);
  }

  /** Translates a CTE's body; a CTE read again inside its own body is PostHog's loop refusal. */
  private expandingCte<T>(name: string, body: () => T): T {
    if (this.expanding.includes(name)) throw new HogQLQueryError(CTE_LOOP);
    this.expanding.push(name);
    try {
      return body();
    } finally {
      this.expanding.pop();
    }
  }

  /**
   * `properties.list[1].id`, `properties.list.1`: constant indexes and keys after a property extend
   * its JSON path (PostHog's resolver does the same), so they read inside the property's JSON.
   */
  private propertyPath(node: HogQLNode, scope: Scope): Expr | undefined {
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
    const read = this.field(base, scope);
    if (!isPropertyRead(read) && typeOf(read).type !== 'json') return undefined;
    return this.field({ ...base, chain: [...chainOf(base), ...keys] }, scope);
  }

  /** The rest of a chain after an alias: tuple positions (x.1), or a property path when it holds JSON. */
  private path(base: Expr, holds: Typed, rest: Chain): Expr {
    if (rest.length === 0) return base;
    if (holds.type === 'json') return hogqlProperty(base, rest);
    return rest.reduce<Expr>((value, part) => {
      if (typeof part !== 'number') throw new HogQLQueryError(`Unable to resolve field: ${String(part)}`);
      if (part < 1) throw new HogQLQueryError('SQL indexes start from one, not from zero. E.g: array.1');
      return call('tupleElement', value, constant(part, 'UInt64'));
    }, base);
  }

  private expr(node: HogQLNode, scope: Scope): Expr {
    this.spend();
    const e = (x: HogQLNode | undefined) => {
      if (!x) throw new HogQLQueryError(`Incomplete ${node.node}`);
      return this.expr(x, scope);
    };
    const all = (key: string) => children(node, key).map((x) => this.expr(x, scope));
    switch (node.node) {
      case 'Constant':
        return constantOf(node['value']);
      case 'Field':
        // `*` as a value would read the stored columns themselves: only count(*) may name it (call()).
        if (chainOf(node).at(-1) === '*') throw new HogQLQueryError("Cannot use '*' here: select it, or name the fields");
        return this.field(node, scope);
      case 'Alias': {
        const name = String(node['alias']);
        checkAlias(name, scope);
        const inner = e(child(node, 'expr'));
        // Defined from here on, anywhere in the SELECT (ClickHouse's aliases are not scoped to a clause).
        scope.aliases.set(name, typeOf(inner));
        return typed(alias(inner, name), typeOf(inner).type, typeOf(inner).nullable);
      }
      case 'Call':
        return this.call(node, scope);
      case 'ExprCall':
        throw new HogQLQueryError('You can only call simple functions in HogQL, not expressions');
      case 'Dict':
      case 'HogQLXTag':
        return this.hogqlx(node, scope);
      case 'CompareOperation':
        if (IN_COHORT_OPERATORS.has(String(node['op']))) return this.inCohort(node, scope);
        return this.comparison(() => (this.inJoinConstraint > 0 ? compareInJoin : compare)(String(node['op']), e(child(node, 'left')), this.compareRight(child(node, 'right'), scope)));
      case 'ArithmeticOperation': {
        const fn = ARITHMETIC[String(node['op'])];
        if (!fn) throw new HogQLQueryError(`Unsupported arithmetic operator: ${String(node['op'])}`);
        return call(fn, e(child(node, 'left')), e(child(node, 'right')));
      }
      case 'And':
        return typed(and(...all('exprs')), 'boolean', false);
      case 'Or':
        return typed(or(...all('exprs')), 'boolean', false);
      case 'Not':
        return typed(not(e(child(node, 'expr'))), 'boolean', false);
      case 'Tuple':
        return tuple(...all('exprs'));
      case 'Array':
        return array(...all('exprs'));
      case 'Lambda': {
        const args = Array.isArray(node['args']) ? node['args'].map(String) : [];
        if (args.some((a) => !isPrintableIdentifier(a))) throw new HogQLQueryError('Invalid lambda argument');
        this.lambdaArgs.push(...args);
        try {
          return lambda(args, e(child(node, 'expr')));
        } finally {
          this.lambdaArgs.splice(this.lambdaArgs.length - args.length, args.length);
        }
      }
      case 'Placeholder':
        return this.placeholder(node, scope);
      case 'BetweenExpr': {
        const value = e(child(node, 'expr'));
        const inside = and(compare('>=', value, e(child(node, 'low'))), compare('<=', value, e(child(node, 'high'))));
        return typed(node['negated'] ? not(inside) : inside, 'boolean', false);
      }
      case 'ArrayAccess': {
        const index = child(node, 'property');
        if (index?.node === 'Constant' && index['value'] === 0) throw new HogQLQueryError('SQL indexes start from one, not from zero. E.g: array[1]');
        return this.propertyPath(node, scope) ?? call('arrayElement', e(child(node, 'array')), e(index));
      }
      case 'TupleAccess': {
        const index = Number(node['index']);
        if (!Number.isSafeInteger(index) || index < 1) throw new HogQLQueryError('SQL indexes start from one, not from zero. E.g: array.1');
        return this.propertyPath(node, scope) ?? call('tupleElement', e(child(node, 'tuple')), constant(index, 'UInt64'));
      }
      case 'TypeCast': {
        const fn = CASTS[String(node['type_name']).toLowerCase()];
        if (!fn) throw new HogQLQueryError(`Unsupported type cast: ${String(node['type_name'])}`);
        return call(fn, e(child(node, 'expr')));
      }
      case 'ArraySlice': {
        // arr[start:end] as PostHog prints it: arraySlice(arr, start, end - start + 1), both ends inclusive.
        const array = e(child(node, 'array'));
        const start = child(node, 'start_expr');
        const end = child(node, 'end_expr');
        if (!end) return start ? call('arraySlice', array, e(start)) : array;
        const from = start ? e(start) : constant(1, 'UInt8');
        return call('arraySlice', array, from, call('plus', call('minus', e(end), from), constant(1, 'UInt8')));
      }
      case 'TryCast':
        throw new HogQLQueryError('TRY_CAST is not allowed in clickhouse dialect');
      case 'WindowFunction':
        return this.window(node, scope);
      case 'SelectQuery':
      case 'SelectSetQuery':
        return this.subqueryExpr(node, scope);
      default:
        throw new HogQLNotSupportedError(`The expression ${node.node}`);
    }
  }

  /** The right side of IN may name a CTE: it reads as that subquery. */
  /** `x IN COHORT 5` / `x NOT IN COHORT 'name'`: x among the cohort's persons as of the query. */
  private inCohort(node: HogQLNode, scope: Scope): Expr {
    const right = child(node, 'right');
    // A `{placeholder}` there stands for its value, as a constant would (PostHog's property_to_expr writes one).
    const value = right?.node === 'Constant' ? right['value'] : right?.node === 'Placeholder' ? this.placeholderValue(right) : undefined;
    if ((typeof value !== 'number' || !Number.isInteger(value)) && typeof value !== 'string') {
      throw new HogQLQueryError('cohort() takes exactly one string or integer argument');
    }
    const id = typeof value === 'number' ? value : this.context.cohortIdByName?.(value);
    if (id === undefined) throw new HogQLQueryError(`Could not find a cohort with the name '${String(value)}'`);
    if (!Number.isSafeInteger(id) || id <= 0) throw new HogQLQueryError(`Could not find cohort with ID ${id}`);
    const member = binary('IN', this.expr(child(node, 'left')!, scope), this.cohortMembers(id));
    return typed(String(node['op']) === 'in cohort' ? member : not(member), 'boolean', false);
  }

  private compareRight(node: HogQLNode | undefined, scope: Scope): Expr {
    if (!node) throw new HogQLQueryError('Incomplete comparison');
    if (node.node === 'Field') {
      const chain = chainOf(node);
      const cte = chain.length === 1 ? scope.ctes.get(String(chain[0])) : undefined;
      if (cte && !cte.column && !scope.tables.has(String(chain[0]))) return this.subqueryExpr(cte.node, scope, cte.visible);
    }
    return this.expr(node, scope);
  }

  private subqueryExpr(node: HogQLNode, scope: Scope, ctes: CteMap = scope.ctes): Expr {
    const inner = this.query(node, ctes);
    // A set of queries used as a value reads as one SELECT over it.
    return inner.kind === 'select' ? inner : select({ select: [STAR], from: subquery(inner, `_subquery${++this.aliasCount}`) });
  }

  private call(node: HogQLNode, scope: Scope): Expr {
    const name = String(node['name'] ?? '');
    if (node['filter_expr'] || node['order_by']) throw new HogQLNotSupportedError('FILTER and ORDER BY inside a function call');
    const argNodes = children(node, 'args');
    if (name === 'matchesAction') return this.matchesAction(argNodes, scope);
    // like(a, b) and its kin read as their operators, with PostHog's NULL handling (test_field_nullable_like, test_ilike_and_not_ilike_…).
    const operator = Object.hasOwn(LIKE_CALLS, name) ? LIKE_CALLS[name] : undefined;
    if (operator && argNodes.length === 2 && !node['params']) return this.expr({ node: 'CompareOperation', op: operator, left: argNodes[0], right: argNodes[1] }, scope);
    if (name === 'percentile_cont' || name === 'percentile_disc') {
      throw new HogQLQueryError(node['within_group'] ? `Aggregation '${name}' with WITHIN GROUP is not supported in ClickHouse dialect` : `Aggregation '${name}' requires WITHIN GROUP`);
    }
    if (name === 'arrayReduce') return this.arrayReduce(argNodes, scope);
    // count(*) counts rows; `*` anywhere else would read the stored columns themselves.
    if (isCountStar(name, argNodes)) return userCall({ name, args: [STAR], distinct: node['distinct'] === true }, this.context).call;
    const outerAsText = this.propertiesAsText;
    this.propertiesAsText = STRING_PARSERS.has(name);
    const match = lookupHogQLFunction(name);
    const aggregate = match?.family === 'aggregate';
    if (aggregate && this.aggregations.length > 0) throw new HogQLQueryError(`Aggregation '${name}' cannot be nested inside another aggregation '${this.aggregations[0]}'.`);
    // A template call writes its arguments into a larger expression: PostHog caps how deep they nest.
    const macro = match?.fn.expand !== undefined;
    if (macro && this.macroDepth >= MAX_MACRO_DEPTH) throw new HogQLQueryError(`Function '${name}' exceeded maximum placeholder macro depth of ${MAX_MACRO_DEPTH}.`);
    if (aggregate) this.aggregations.push(name);
    if (macro) this.macroDepth++;
    let args: Expr[];
    let params: Expr[] | undefined;
    try {
      args = argNodes.map((x) => this.expr(x, scope));
      params = Array.isArray(node['params']) ? node['params'].filter(isNode).map((x) => this.expr(x, scope)) : undefined;
    } finally {
      this.propertiesAsText = outerAsText;
      if (aggregate) this.aggregations.pop();
      if (macro) this.macroDepth--;
    }
    const resolved = userCall({ name, args, ...(params ? { params } : {}), distinct: node['distinct'] === true }, this.context);
    if (resolved.family === 'window') throw new HogQLQueryError(`Window function '${name}' needs an OVER clause`);
    return resolved.call;
  }

  /** `matchesAction(id)` / `matchesAction('name')`: the action's steps as a condition on this SELECT's events (PostHog's messages). */
  private matchesAction(argNodes: HogQLNode[], scope: Scope): Expr {
    if (argNodes.length !== 1) throw new HogQLQueryError(`Function 'matchesAction' expects 1 argument, found ${argNodes.length}`);
    const arg = argNodes[0]!;
    if (arg.node !== 'Constant' && arg.node !== 'Placeholder') throw new HogQLQueryError('action() takes only constant arguments');
    const value = arg.node === 'Constant' ? arg['value'] : this.valueOfPlaceholder(arg);
    const actions = [...(this.context.actions?.values() ?? [])];
    let action: ActionDefinition | undefined;
    if (typeof value === 'number') {
      action = this.context.actions?.get(Math.trunc(value));
      if (!action) throw new HogQLQueryError(`Could not find an action with the ID ${value}`);
    } else if (typeof value === 'string') {
      action = actions.find((a) => a.name === value);
      if (!action) throw new HogQLQueryError(`Could not find an action with the name '${value}'`);
    } else {
      throw new HogQLQueryError('action() takes exactly one string or integer argument');
    }
    const events = [...scope.tables.values()].find((t) => t.events)?.events;
    if (!events) throw new HogQLQueryError('matchesAction() can only be used in a SELECT from the events table');
    return typed(actionExpr(action, events, this.context.timezone), 'boolean', false);
  }

  /**
   * `arrayReduce('sum', arr)`: the aggregation's name must be a constant (or a `values` entry)
   * naming one of the allow-list's aggregations, checked here as PostHog's printer checks it.
   */
  private arrayReduce(argNodes: HogQLNode[], scope: Scope): Expr {
    const [first, ...rest] = argNodes;
    if (!first) throw new HogQLQueryError("Missing arguments in function 'arrayReduce'");
    const value = first.node === 'Constant' ? first['value'] : first.node === 'Placeholder' ? this.valueOfPlaceholder(first) : undefined;
    if (typeof value !== 'string') throw new HogQLQueryError(`Expected constant string as first arg in function 'arrayReduce', got ${describeArg(first, value)}`);
    const match = lookupHogQLFunction(value);
    // ClickHouse reads the name itself: only an aggregation printed under its own name (not array_agg's groupArray).
    if (match?.family !== 'aggregate' || match.fn.clickhouse !== value || match.fn.expand || match.fn.minParams) throw new HogQLQueryError(`Invalid parametric function in 'arrayReduce', '${value}' is not supported.`);
    return call('arrayReduce', constant(match.fn.clickhouse), ...rest.map((x) => this.expr(x, scope)));
  }

  /**
   * A HogQLX tag (`<Sparkline data={[1,2,3]} />`) or an object (`{'key': 'value'}`) as PostHog's
   * resolver writes it for the frontend: a tuple that starts '__hx_tag', then the tag's kind (or
   * '__hx_obj'), then name, value, name, value; arrays inside become tuples too.
   */
  private hogqlx(node: HogQLNode, scope: Scope): Expr {
    if (node.node === 'Array') return tuple(...children(node, 'exprs').map((x) => this.hogqlx(x, scope)));
    if (node.node === 'Dict') {
      const pairs = Array.isArray(node['items']) ? node['items'] : [];
      return tuple(constant('__hx_tag'), constant('__hx_obj'), ...pairs.flatMap((pair) => (Array.isArray(pair) ? pair.filter(isNode).map((x) => this.hogqlx(x, scope)) : [])));
    }
    if (node.node === 'HogQLXTag') {
      const kind = String(node['kind'] ?? '');
      if (kind.endsWith('Query')) throw new HogQLNotSupportedError(`The HogQLX tag <${kind}>`);
      const attributes = children(node, 'attributes').flatMap((a) => [constant(String(a['name'])), this.hogqlx(child(a, 'value')!, scope)]);
      return tuple(constant('__hx_tag'), constant(kind), ...attributes);
    }
    return this.expr(node, scope);
  }

  /** The `values` entry a `{name}` placeholder names; undefined for any other placeholder. */
  private valueOfPlaceholder(node: HogQLNode): unknown {
    const inner = child(node, 'expr');
    const chain = inner?.node === 'Field' ? chainOf(inner) : [];
    return chain.length === 1 && Object.hasOwn(this.context.values, String(chain[0])) ? this.context.values[String(chain[0])] : undefined;
  }

  private window(node: HogQLNode, scope: Scope): WindowCall {
    const name = String(node['name'] ?? '');
    const named = node['over_identifier'];
    const postgresStyle = name === 'lag' || name === 'lead';
    const args = children(node, 'exprs').map((x, i) => (postgresStyle && i === 0 ? call('toNullable', this.expr(x, scope)) : this.expr(x, scope)));
    const params = children(node, 'args').map((x) => this.expr(x, scope));
    const resolved = userCall({ name, args, ...(params.length ? { params } : {}), distinct: false }, this.context);
    const over = named ? this.namedWindow(String(named), scope) : child(node, 'over_expr');
    // PostgreSQL's lag/lead see the whole partition (NULL past its edges): PostHog's frame when none is given.
    const frame = (over ? this.frame(over) : undefined) ?? (postgresStyle ? WHOLE_PARTITION : undefined);
    return Object.freeze({
      kind: 'window' as const,
      call: resolved.call,
      partitionBy: Object.freeze(over ? children(over, 'partition_by').map((x) => this.expr(x, scope)) : []),
      orderBy: Object.freeze(over ? children(over, 'order_by').map((x) => this.orderItem(x, scope)) : []),
      ...(frame ? { frame } : {}),
    });
  }

  /** `OVER name`: the WINDOW clause's definition of that name, read as if written in place. */
  private namedWindow(name: string, scope: Scope): HogQLNode {
    const window = scope.windows.get(name);
    if (!window) throw new HogQLQueryError(`Window "${name}" is not defined in the query's WINDOW clause`);
    return window;
  }

  private frame(over: HogQLNode): WindowFrame | undefined {
    const method = over['frame_method'];
    if (method !== 'ROWS' && method !== 'RANGE') return undefined;
    const bound = (b: HogQLNode | undefined): FrameBound | undefined => {
      if (!b) return undefined;
      const type = String(b['frame_type']);
      if (type === 'CURRENT ROW') return { type: 'CURRENT ROW' };
      if (type !== 'PRECEDING' && type !== 'FOLLOWING') throw new HogQLNotSupportedError(`Window frame ${type}`);
      const value = b['frame_value'];
      if (value === null || value === undefined) return { type };
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new HogQLQueryError('A window frame offset must be a whole number');
      return { type, offset: value };
    };
    const start = bound(child(over, 'frame_start'));
    if (!start) return undefined;
    const end = bound(child(over, 'frame_end'));
    return end ? { method, start, end } : { method, start };
  }

  /** What `{filters}` reads in this SELECT: its events table, else its persons table; HogQL filters read in this scope. */
  private filterTarget(scope: Scope): FilterTarget | undefined {
    const hogqlExpr = (text: string): Expr => {
      const parsed = this.context.hogql?.get(text);
      if (!parsed) throw new InternalError('hogql_unparsed', 'a HogQL filter of the query was not parsed before the run');
      return this.expr(parsed, scope);
    };
    const tables = [...scope.tables.values()];
    const eventsTable = tables.find((t) => t.events);
    const events = eventsTable?.events;
    if (events) {
      return {
        events,
        properties: {
          // PostHog's session filter over events reads `session.<key>`.
          sessionProperty: (key) => sessionFilterField(eventsTable!.resolve(['session', key]), key),
          eventProperty: (key) => events.eventProperty(key),
          personProperty: (key) => events.personProperty(key),
          groupProperty: (index, key) => events.groupProperty(index, key),
          hogqlExpr,
          inCohort: (id) => binary('IN', events.personId(), this.cohortMembers(id)),
        },
      };
    }
    const groups = tables.find((t) => GROUPS_TABLES.has(t));
    if (groups && !tables.some((t) => t instanceof SessionsTable)) {
      return { groupCreatedAt: groups.resolve(['created_at'])!, properties: groupRowsSource(groups.resolve(['properties'])!, hogqlExpr) };
    }
    const sessions = tables.find((t) => t instanceof SessionsTable);
    if (sessions) {
      const sessionProperty = (key: string) => sessionFilterField(sessions.resolve([key]), key);
      return {
        sessionStart: sessions.resolve(['$start_timestamp'])!,
        properties: { ...SESSION_ROWS_SOURCE, sessionProperty },
        testAccountProperties: { ...SESSION_TEST_ACCOUNT_SOURCE, hogqlExpr },
      };
    }
    const personsTable = tables.find((t) => t.personProperties);
    const persons = personsTable?.personProperties;
    return persons ? { properties: personRowsSource(persons, personsTable!.personIdField!, hogqlExpr, this.cohortMembers) } : undefined;
  }

  /** A comparison, or TRUE when a date-range placeholder in it has no bound (PostHog's `true = true`). */
  private comparison(translate: () => Expr): Expr {
    const frame = { skip: false };
    this.comparisons.push(frame);
    try {
      const expr = translate();
      return frame.skip ? constant(true) : expr;
    } finally {
      this.comparisons.pop();
    }
  }

  /** `{filters.dateRange.from}` and `{filters.dateRange.to}`, PostHog's only other `filters` placeholders. */
  private filterDatePlaceholder(name: string): Expr {
    if (name !== 'filters.dateRange.from' && name !== 'filters.dateRange.to') {
      throw new HogQLQueryError(`Unsupported filters placeholder \`{${name}}\`. Supported filters placeholders are: \`{filters}\`, \`{filters.dateRange.from}\`, \`{filters.dateRange.to}\`.`);
    }
    const bound = this.context.filterDate?.(name.endsWith('from') ? 'from' : 'to');
    if (bound) return bound;
    const comparison = this.comparisons.at(-1);
    if (!comparison) {
      throw new HogQLQueryError(`The \`{${name}}\` placeholder must be used directly in a comparison (e.g. \`timestamp > {${name}}\`), not nested inside a function call, when the date range is not set.`);
    }
    comparison.skip = true;
    return constant(true);
  }

  /** The `values` entry a plain `{name}` placeholder names (undefined for any other). */
  private placeholderValue(node: HogQLNode): unknown {
    const inner = child(node, 'expr');
    const chain = inner?.node === 'Field' ? chainOf(inner) : [];
    const name = String(chain[0]);
    return chain.length === 1 && Object.hasOwn(this.context.values, name) ? this.context.values[name] : undefined;
  }

  private placeholder(node: HogQLNode, scope: Scope): Expr {
    const inner = child(node, 'expr');
    const chain = inner?.node === 'Field' ? chainOf(inner) : [];
    const name = chain.join('.');
    if (chain.length > 1 && chain[0] === 'filters') return this.filterDatePlaceholder(name);
    if (name === 'filters') {
      const target = this.filterTarget(scope);
      if (!target) throw new HogQLQueryError("Cannot use 'filters' placeholder in a SELECT clause that does not select from the events, sessions, logs, traces or groups table.");
      return this.context.filters?.(target) ?? constant(true);
    }
    if (chain.length === 1 && Object.hasOwn(this.context.values, name)) return constantOf(this.context.values[name]);
    // PostHog's two messages: no values at all, or values that do not include this one.
    const given = Object.keys(this.context.values);
    // A placeholder holding an expression, not a name (`a -> { print(2) }`): PostHog's printer has no field to name.
    if (!name) throw new HogQLQueryError('You can not use placeholders here');
    if (given.length === 0) throw new HogQLQueryError(`Unresolved placeholder: {${name}}`);
    throw new HogQLQueryError(`Placeholder {${name}} is not available in this context. You can use the following: ${given.join(', ')}`);
  }
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

/** The event store's own table names (the printer's catalog), never a column alias either. */
const STORE_TABLES: ReadonlySet<string> = new Set<TableName>(['events', 'persons', 'person_distinct_ids', 'person_distinct_id_overrides', 'groups', 'static_cohort_people']);
const isTableName = (name: string) => STORE_TABLES.has(name);

const isStarField = (node: HogQLNode) => node.node === 'Field' && chainOf(node).length === 1 && chainOf(node)[0] === '*';
const isCountStar = (name: string, args: readonly HogQLNode[]) => name.toLowerCase() === 'count' && args.length === 1 && isStarField(args[0]!);

/**
 * A column alias may not take a name the query's tables answer to: ClickHouse resolves an
 * expression alias before a table alias, so such an alias would change what every reference
 * to that table reads (the joins' conditions included). Refused, as are redefinitions in one
 * SELECT (PostHog's resolver) and the names of tables, CTEs and the joins Hoglet adds.
 */
function checkAlias(name: string, scope: Scope): void {
  if (name.includes('%')) throw new HogQLQueryError(`The HogQL identifier "${name}" is not permitted as it contains the "%" character`);
  if (!isPrintableIdentifier(name)) throw new HogQLQueryError(`Invalid alias: ${name}`);
  if (name === 'team_id') throw new HogQLQueryError('Alias "team_id" is reserved');
  if (scope.aliases.has(name)) throw new HogQLQueryError(`Cannot redefine an alias with the name: ${name}`);
  const taken = scope.tables.has(name) || scope.ctes.has(name) || isHogQLTable(name) || isTableName(name)
    || [...scope.tables.keys()].some((table) => name.startsWith(`${table}__`)) || /^_subquery\d*$/.test(name);
  if (taken) throw new HogQLQueryError(`Cannot use "${name}" as an alias: it names a table of the query`);
}

/** Over the sessions table alone PostHog takes only session property filters, which Hoglet does not have. */
const refuseOnSessions = (): never => {
  throw new HogQLQueryError('Can only use session properties in a filter when selecting from only the sessions table.');
};
/** A session field a session property filter compares: as text, since filter values are (PostHog compares the field itself). */
function sessionFilterField(resolved: Expr | undefined, key: string): Expr {
  if (!resolved) throw new HogQLQueryError(`Unable to resolve field: ${key}`);
  return typeOf(resolved).type === 'string' ? resolved : call('toString', resolved);
}

/**
 * The project's test-account filters over the sessions table alone: PostHog prints each as over
 * events (properties.x, person.properties.x, session.x) and resolves it against the sessions
 * table, which has none of those, so it is refused with its resolver's message; a HogQL filter
 * reads the session's own fields.
 */
const unresolved = (name: string) => (): never => {
  throw new HogQLQueryError(`Unable to resolve field: ${name}`);
};
const SESSION_TEST_ACCOUNT_SOURCE: Omit<PropertySource, 'hogqlExpr'> = {
  eventProperty: unresolved('properties'), personProperty: unresolved('person'), sessionProperty: unresolved('session'),
  groupProperty: (index) => unresolved(`group_${index}`)(), inCohort: unresolved('person_id'),
};

const SESSION_ROWS_SOURCE: PropertySource = {
  eventProperty: refuseOnSessions, personProperty: refuseOnSessions, groupProperty: refuseOnSessions, hogqlExpr: refuseOnSessions, inCohort: refuseOnSessions,
};

/** The `groups` tables of the queries translated: {filters} over them bounds created_at. */
const GROUPS_TABLES = new WeakSet<ScopedTable>();

/** Group filters over a groups table read the row's properties (PostHog's group scope ignores the type index). */
function groupRowsSource(properties: Expr, hogqlExpr: (text: string) => Expr): PropertySource {
  const refuse = (kind: string) => (): never => {
    throw new HogQLQueryError(`The '${kind}' property filter does not work in 'group' scope`);
  };
  return {
    groupProperty: (_index, key) => jsonProperty(properties, key),
    eventProperty: refuse('event'),
    personProperty: refuse('person'),
    hogqlExpr,
    inCohort: refuse('cohort'),
  };
}

/** Person filters over a persons table; the other kinds name what a person does not have. */
function personRowsSource(properties: Expr, personId: Expr, hogqlExpr: (text: string) => Expr, cohortMembers: (id: number) => Select): PropertySource {
  const refuse = (kind: string) => (): never => {
    throw new HogQLQueryError(`The '${kind}' property filter does not work in 'person' scope`);
  };
  return {
    personProperty: (key) => jsonProperty(properties, key),
    eventProperty: refuse('event'),
    groupProperty: refuse('group'),
    hogqlExpr,
    inCohort: (id) => binary('IN', personId, cohortMembers(id)),
  };
}

/** The insight's own events table, read through HogQL's field names. */
function eventsScope(events: EventSource, context: TableContext): ScopedTable {
  return scopedTable('events', events.names.events, context, events);
}

/** The type ClickHouse gives an integer literal (the smallest that holds it), so `if(1, ...)` and `select 1` behave as in PostHog. */
function literalIntegerType(value: number): ParamType {
  if (value >= 0) return value < 2 ** 8 ? 'UInt8' : value < 2 ** 16 ? 'UInt16' : value < 2 ** 32 ? 'UInt32' : 'UInt64';
  return value >= -(2 ** 7) ? 'Int8' : value >= -(2 ** 15) ? 'Int16' : value >= -(2 ** 31) ? 'Int32' : 'Int64';
}

function constantOf(value: unknown): Expr {
  // NULL as ClickHouse types the literal (Nullable(Nothing)): it mixes with any type (`1 + null`, `null ?? 'x'`).
  if (value === null || value === undefined) return constant(null, 'Nullable(Nothing)');
  if (typeof value === 'string') return constant(value);
  // PostHog prints true and false as 1 and 0 (UInt8), so `select true` answers 1 and `not true` 0.
  if (typeof value === 'boolean') return typed(constant(value ? 1 : 0, 'UInt8'), 'boolean', false);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new HogQLQueryError('A number in the query is out of range');
    // JSON carried the literal as a double: past 2^53 its digits are already lost, so say so rather than round.
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      throw new HogQLQueryError('Integers beyond ±2^53 (9007199254740991) lose precision; write a smaller number, or a string with toUInt64(\'…\') / toInt128(\'…\')');
    }
    return constant(value, Number.isSafeInteger(value) ? literalIntegerType(value) : 'Float64');
  }
  if (Array.isArray(value)) return array(...value.map(constantOf));
  throw new HogQLQueryError('Unsupported constant');
}
