// Everything Hoglet knows about one insight kind, in one module: how its node is read and
// defaulted, how PostHog's legacy filter dict spells it, which definitions it names, how long its
// results stay fresh, how it runs, and how its result reads as a spreadsheet. The registry lists
// these modules; nothing outside a kind's folder switches on the kind.
import type { QueryContext } from '../context.js';
import type { Interval } from '../dates/index.js';
import type { QueryRun } from '../execute.js';
import type { JsonObject } from '../nodes/read-json.js';
import type { FunnelCorrelationQuery, InsightQuery, PersonsListQuery } from '../nodes/schema.js';

/** The kinds that carry their own date range, properties and test-account switch. */
export type RangedQuery = Exclude<InsightQuery, FunnelCorrelationQuery | PersonsListQuery>;

/** What a run answers: PostHog's `results`, and the response fields it adds beside them. */
export interface RunOutput {
  readonly results: unknown;
  readonly hasMore?: boolean;
  /** The instants the run read, for the cache's staleness marks (absent: unknown). */
  readonly resolved_date_range?: { readonly date_from: string; readonly date_to: string };
  readonly [extra: string]: unknown;
}

export interface ActorsPageRequest {
  readonly limit: number;
  readonly offset: number;
}

/** Rows of actors in PostHog's ActorsQuery shape: `person` first, then the kind's own columns. */
export interface ActorsOutput {
  readonly columns: readonly string[];
  readonly results: readonly unknown[][];
  readonly hasMore: boolean;
}

/** How the results cache treats a query of this kind. */
export interface CachePolicy {
  /** The bucket width its freshness thresholds follow (PostHog's per-interval targets). */
  readonly interval: Interval;
  /** The answer depends on events before its date range (all-time ranges, first-time logic). */
  readonly readsFromStart: boolean;
}

export interface QueryKind<Q extends InsightQuery> {
  readonly kind: Q['kind'];
  /** PostHog's legacy `filters.insight` for this kind (TRENDS, FUNNELS, RETENTION...). */
  readonly legacyInsight: string;
  /**
   * Its legacy calculation endpoint, /insights/<legacyEndpoint>/ (filters in the body or query
   * string); null when legacy clients reach it through another kind's (stickiness through trend/).
   */
  readonly legacyEndpoint: string | null;
  /** Validates a node of this kind (attrs under `path`) and fills PostHog's defaults. */
  read(node: JsonObject, path: string): Q;
  /** The legacy filter dict in this kind's spelling, as the node it means. */
  fromFilters(filters: JsonObject): Q;
  /** Actions the query names, fetched before it runs (and covered by its cache key). */
  actionIds(query: Q): readonly number[];
  /**
   * The query with `change` applied to the part that has a date range and filters (a dashboard's
   * overrides, test accounts); absent: the query itself is that part; null: it has none (a
   * persons listing), so dashboards leave it as it is.
   */
  ranged?(query: Q): RangedQuery | null;
  withRanged?(query: Q, change: (ranged: RangedQuery) => RangedQuery): Q;
  /** Whether it applies the project's path cleaning rules (read into the context, and keyed). */
  appliesPathCleaning?(query: Q): boolean;
  cachePolicy(query: Q): CachePolicy;
  run(query: Q, context: QueryContext, run: QueryRun): Promise<RunOutput>;
  /**
   * The actors behind one number of the result (PostHog's InsightActorsQuery: `target` holds its
   * fields for this kind, e.g. a retention `interval` or a funnel `funnelStep`); absent when the
   * kind has none.
   */
  actors?(query: Q, target: JsonObject, context: QueryContext, run: QueryRun, page: ActorsPageRequest): Promise<ActorsOutput>;
  /** The result as spreadsheet rows, header first (PostHog's legacy export shape). */
  csv(result: unknown): string[][];
  /**
   * Representative nodes with one text a request chooses at `value`, each place a request can put
   * text: the SQL-safety test runs every kind's shapes with hostile values.
   */
  readonly safetyShapes: Readonly<Record<string, (value: string) => JsonObject>>;
}

/** The actions series nodes name (ActionsNode ids), once each. */
export function seriesActionIds(series: readonly { kind: string; id?: number }[]): number[] {
  return [...new Set(series.filter((s) => s.kind === 'ActionsNode' && s.id !== undefined).map((s) => s.id!))];
}
