// PostHog's HogQL AST (the parser's JSON) -> Hoglet's query AST. Names resolve against the HogQL
// tables (tables.ts) in scope; functions against the user allow-list; values become constants (bound
// parameters when printed). What comes out is an ordinary tree: the team guard, the printer's
// parameters and its allow-list apply to it as to every runner's query.
//
// HogQLTranslator holds one statement's state; each clause is translated in its own module:
// select.ts (select list, limits, ORDER BY), set-query.ts, from.ts (tables and joins), fields.ts,
// expr.ts, function-call.ts, windows.ts, placeholders.ts; budget.ts bounds them all.
import type { Expr, Query, Select, Union } from '../../ast/nodes.js';
import type { EventSource } from '../../filters/event-source.js';
import type { PropertySource } from '../../filters/properties.js';
import { InternalError } from '../../../errors.js';
import type { ActionDefinition } from '../../context.js';
import type { PropertyOwner, PropertyTypeLookup } from '../property-types.js';
import { HogQLQueryError } from '../errors.js';
import { TranslationBudget } from './budget.js';
import { expr } from './expr.js';
import { chainOf, child, children, type HogQLNode } from './hogql-ast.js';
import { columnName, withValues } from './print-hogql.js';
import { Scope, type CteMap, type Translator } from './scope.js';
import { select } from './select.js';
import { setQuery } from './set-query.js';
import { scopedTable, type ScopedTable, type TableContext } from './tables.js';

export { TRANSLATION_BUDGET } from './budget.js';

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
  /** The cohort_people table's rows (query/cohorts/people-table.ts: QueryContext.cohortPeople). */
  readonly cohortPeople?: () => Select | Union;
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

/** One statement's translator. Its fields are the state the clause modules share (scope.ts's Translator). */
export class HogQLTranslator implements Translator {
  readonly budget = new TranslationBudget();
  readonly lambdaArgs: string[] = [];
  aliasCount = 0;
  inJoinConstraint = 0;
  readonly comparisons: { skip: boolean }[] = [];
  propertiesAsText = false;
  readonly aggregations: string[] = [];
  readonly lastStar = new WeakMap<HogQLNode, string[]>();
  readonly propertyType = (owner: PropertyOwner, name: string) =>
    (this.propertiesAsText ? undefined : this.context.propertyTypes?.typeOf(owner, name));

  constructor(readonly context: TranslateContext) {}

  readonly cohortMembers = (id: number): Select => {
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

  expr(node: HogQLNode, scope: Scope): Expr {
    return expr(this, node, scope);
  }

  query(node: HogQLNode, ctes: CteMap): Query {
    this.budget.spend();
    // An aggregation in a subquery is not nested in the aggregation around the subquery.
    const outerAggregations = this.aggregations.splice(0);
    try {
      if (node.node === 'SelectQuery') return select(this, node, ctes);
      if (node.node === 'SelectSetQuery') return setQuery(this, node, ctes);
      throw new HogQLQueryError(`Expected a SELECT query, got ${node.node}`);
    } finally {
      this.aggregations.splice(0, this.aggregations.length, ...outerAggregations);
    }
  }

  columnsOf(node: HogQLNode): string[] {
    if (node.node === 'SelectSetQuery') return this.columnsOf(child(node, 'initial_select_query')!);
    return children(node, 'select').flatMap((item) => {
      // Names only; the expansion itself happens in the select (where the tables are known).
      if (item.node === 'Field' && chainOf(item).at(-1) === '*') return this.lastStar.get(item) ?? [];
      return [columnName(withValues(item, this.context.values))];
    });
  }
}

/** The insight's own events table, read through HogQL's field names. */
function eventsScope(events: EventSource, context: TableContext): ScopedTable {
  return scopedTable('events', events.names.events, context, events);
}
