// What the clause modules (select.ts, from.ts, expr.ts ...) are given: one SELECT's names, and the
// translator whose state they share and through which they translate what they contain.
import type { Expr, Query, Select } from '../../ast/nodes.js';
import { HogQLNotSupportedError } from '../errors.js';
import type { PropertyType } from '../../catalog/property-type.js';
import type { PropertyOwner } from '../property-types.js';
import type { TranslationBudget } from './budget.js';
import { child, children, type HogQLNode } from './hogql-ast.js';
import type { ScopedTable } from './tables.js';
import type { TranslateContext } from './translate.js';
import type { Typed } from './types.js';

/** A CTE: its query (or, `WITH expr AS name`, its expression), and the CTEs its body may name (those defined before it). */
export interface Cte {
  readonly node: HogQLNode;
  readonly visible: CteMap;
  readonly column?: boolean;
}
export type CteMap = ReadonlyMap<string, Cte>;

/** One SELECT's names: its tables by alias, its CTEs, the aliases its select list defined. */
export class Scope {
  readonly tables = new Map<string, ScopedTable>();
  /** Aliases defined so far in this SELECT (anywhere in its expressions), with what they hold. */
  readonly aliases = new Map<string, Typed>();
  /** The WINDOW clause's named windows, inlined into each `OVER name`. */
  readonly windows = new Map<string, HogQLNode>();
  /** While the ARRAY JOIN is read: the select list's aliases, not yet translated, by name. */
  readonly selectAliases = new Map<string, HogQLNode>();

  constructor(readonly ctes: CteMap) {}
}

/** A SELECT's CTEs added to those it sees from outside. A CTE's body sees the CTEs before it, never
 * itself: its own name there is the table of that name. */
export function withCtes(node: HogQLNode, outer: CteMap): CteMap {
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

/** The translator of one statement (HogQLTranslator): its state, and the entry points the clauses call back into. */
export interface Translator {
  readonly context: TranslateContext;
  readonly budget: TranslationBudget;
  /** The lambdas' argument names in scope, innermost last. */
  readonly lambdaArgs: string[];
  /** Numbers the `_subqueryN` aliases of unnamed subqueries. */
  aliasCount: number;
  /** Inside a JOIN's ON clause (at any depth, as PostHog's printer stack): comparisons are plain there. */
  inJoinConstraint: number;
  /** The comparisons being translated: an open `{filters.dateRange.*}` bound makes the innermost TRUE. */
  readonly comparisons: { skip: boolean }[];
  /** Inside the arguments of a call that parses text itself (toFloatOrZero): properties stay text, as PostHog's. */
  propertiesAsText: boolean;
  /** The aggregations whose arguments are being translated in this SELECT, outermost first. */
  readonly aggregations: string[];
  /** The column names each `*` item of a SELECT expanded to. */
  readonly lastStar: WeakMap<HogQLNode, string[]>;
  /** A property's type for the tables in scope (none inside a STRING_PARSERS call). */
  readonly propertyType: (owner: PropertyOwner, name: string) => PropertyType | undefined;
  /** A cohort's members; a query without resolved cohorts cannot name one. */
  readonly cohortMembers: (id: number) => Select;
  expr(node: HogQLNode, scope: Scope): Expr;
  query(node: HogQLNode, ctes: CteMap): Query;
  columnsOf(node: HogQLNode): string[];
}
