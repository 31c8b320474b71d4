// The shape of one entry in the HogQL function allow-list, and the small constructor the tables
// use to stay one line per function. Facts (names, arities, ClickHouse counterparts, time-zone
// awareness, case rules) follow PostHog's HogQL function tables; the structure is our own.
import type { Call, Expr } from '../../ast/nodes.js';

export interface HogQLFunction {
  /** The ClickHouse function printed for it (may differ from the HogQL name, e.g. HogQL `toFloat` -> `toFloat64OrNull`). */
  readonly clickhouse: string;
  readonly minArgs: number;
  /** undefined = unbounded */
  readonly maxArgs?: number;
  /**
   * Parametric aggregates: quantile(0.5)(x). When minParams is undefined the parameter list is not
   * checked at all (as in PostHog, which only validates parameters for functions that require them);
   * maxParams undefined = unbounded.
   */
  readonly minParams?: number;
  readonly maxParams?: number;
  /** An aggregate (count, sum, uniq, quantile...). */
  readonly aggregate?: boolean;
  /**
   * PostHog appends the project time zone as one more argument, after the caller's, unless the caller
   * already passed `maxArgs` arguments. So the time zone lands at index `args.length` (see
   * `timeZoneArgIndex` in index.ts); for a function whose minArgs === maxArgs it is never appended.
   */
  readonly tzAware?: boolean;
  /**
   * The name also matches case-insensitively (`COUNT`, `Sum`, `IFNULL`). The table key of such an
   * entry is lower-case whenever it has to be reachable through a lower-cased lookup (PostHog keys
   * `isnull`, `ifnull`, `nullif` this way).
   */
  readonly caseInsensitive?: boolean;
  /**
   * PostHog's "overload": when the first argument is already typed Date/DateTime (or an integer for
   * toDateTime), print this ClickHouse function instead of `clickhouse` (e.g. `toDate` rather than
   * `toDateOrNull`).
   */
  readonly typedFirstArgClickhouse?: string;
  /**
   * PostHog prints some functions from a SQL template (split_part, date_part, string_agg ...): the
   * same expression built as AST from the checked arguments. `clickhouse` is then its outer call.
   */
  readonly expand?: (args: readonly Expr[]) => Call;
  /** What `expand` writes, for the docs (`arrayStringConcat(groupArray(x), sep)`). */
  readonly shape?: string;
}

export type Family = 'scalar' | 'aggregate' | 'window';

/** Optional parts of one table line. */
export interface Extra {
  /** ClickHouse name when it differs from the HogQL name. */
  readonly ch?: string;
  readonly tz?: true;
  readonly ci?: true;
  /** [minParams, maxParams]; null = unbounded. */
  readonly params?: readonly [number, number | null];
  readonly typed?: string;
}

/** One table line: [minArgs, maxArgs (null = unbounded), extra?]. */
export type Spec = readonly [number, number | null, Extra?];

/** Builds a lookup table from compact specs; the ClickHouse name defaults to the HogQL name. */
export function defineTable(
  specs: Readonly<Record<string, Spec>>,
  common: { readonly aggregate?: boolean } = {},
): ReadonlyMap<string, HogQLFunction> {
  const table = new Map<string, HogQLFunction>();
  for (const [name, [minArgs, maxArgs, extra]] of Object.entries(specs)) {
    const fn: {
      -readonly [K in keyof HogQLFunction]: HogQLFunction[K];
    } = { clickhouse: extra?.ch ?? name, minArgs };
    if (maxArgs !== null) fn.maxArgs = maxArgs;
    if (extra?.params) {
      fn.minParams = extra.params[0];
      if (extra.params[1] !== null) fn.maxParams = extra.params[1];
    }
    if (common.aggregate) fn.aggregate = true;
    if (extra?.tz) fn.tzAware = true;
    if (extra?.ci) fn.caseInsensitive = true;
    if (extra?.typed) fn.typedFirstArgClickhouse = extra.typed;
    table.set(name, Object.freeze(fn));
  }
  return table;
}
