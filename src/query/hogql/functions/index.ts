// The functions a HogQL user may call, as data: name -> ClickHouse counterpart, arity, family.
// Separate from the printer's internal allow-list (src/query/printer/functions.ts), which governs
// what Hoglet's own generated SQL may use. Facts follow PostHog's HogQL function tables
// (posthog/hogql/functions/mapping.py, aggregations.py, clickhouse/*.py); the tables are our own.
//
// Name rules (as PostHog's lookup does it): a name is looked up exactly; failing that, its lower-case
// form is looked up and accepted only if that entry is marked case-insensitive (`COUNT`, `Sum`,
// `IFNULL`, `NOW`, `If`, `Round` ...). Aggregates are searched before regular and window functions.
//
// Left out ON PURPOSE, although PostHog lists them:
// - PostHog-specific functions that expand into PostHog SQL or need PostHog data: sparkline,
//   recording_button, explain_csp_report, hogql_lookup*Type (channel-type lookups), convertCurrency
//   (exchange-rate dictionary), cohort membership (inCohort / notInCohort), survey
//   helpers (getSurveyResponse, uniqueSurveySubmissionsFilter), and the helpers in PostHog's
//   traffic_type.py, ip.py, flag_variant.py, embed_text.py, llm_complete.py, prompt_jev.py;
//   PostHog's deployed UDFs (versioned names that
//   exist only on PostHog's clusters).
// - Functions PostHog prints from a SQL template are built as AST in templates.ts (split_part,
//   date_part, string_agg ...); left-out.ts lists, with reasons, what is not offered at all (it is
//   rendered into docs/hogql-functions.md).
// - arrayReduce: takes an aggregate *name* as a string that must itself be checked against a list.
// - generateSeries (prints the table function generate_series).
// - Aggregate-state combinators (-State, -Merge, -StateIf, -MergeIf: countState, sumMerge,
//   uniqState, argMaxMerge, avgMapState, uniqUpToMerge ...): they read or produce ClickHouse's
//   internal aggregate-state binaries, which only make sense against pre-aggregated tables that
//   Hoglet does not expose.
//
// Never on the list, whatever PostHog does (things that reach outside the row data, or the server):
// - table functions: url, file, remote, remoteSecure, s3, hdfs, input, executable, cluster,
//   clusterAllReplicas, numbers, merge, mysql, postgresql, jdbc, odbc, sqlite, generate_series ...
// - dictionaries and joins by name: dictGet*, dictHas, joinGet;
// - server / session introspection: getSetting, currentDatabase, currentUser, hostName, version,
//   uptime, getMacro, filesystem*, serverUUID;
// - side effects and stalls: sleep, sleepEachRow, throwIf;
// - cross-block state: runningAccumulate, runningDifference, neighbor;
// - distributed variants: globalIn, globalNotIn.
// The test (test/query/hogql/functions.test.ts) keeps a deny-list of these.
//
// Time zones: see `timeZoneArgIndex`. PostHog's rule is "append the project time zone after the
// caller's arguments unless the caller passed maxArgs of them", so:
//   now() -> now64(tz)                             tz at index 0 (caller may pass it instead)
//   toDateTime(s) -> parseDateTime64BestEffortOrNull(s, tz)   index 1
//   toDateTimeUS(s), parseDateTimeBestEffort(s), toTimeZone(t) index 1
//   toDateTime64(x) -> index 1 (!), toDateTime64(x, p) -> index 2
//   parseDateTime(s, fmt), to_char(t, fmt) -> index 2
//   make_timestamp(y, m, d, h, mi, s) -> index 6
//   current_timestamp(), date_add, date_subtract, UUIDv7ToDateTime: marked tz-aware but their
//   minArgs === maxArgs, so nothing is ever appended.
// today(), yesterday() and toStartOfDay etc. are not time-zone aware in PostHog's table (ClickHouse's
// today() takes no time zone; toStartOf* use the column's / session's zone).

import { AGGREGATE_FUNCTIONS } from './aggregate.js';
import { DECIMAL_FUNCTIONS } from './decimal.js';
import { LANGUAGE_FUNCTIONS } from './language.js';
import { IP_FUNCTIONS } from './ip.js';
import { SCALAR_FUNCTIONS } from './scalar.js';
import type { Family, HogQLFunction } from './types.js';
import { WINDOW_FUNCTIONS } from './window.js';

export type { Family, HogQLFunction } from './types.js';
export { AGGREGATE_FUNCTIONS } from './aggregate.js';
export { SCALAR_FUNCTIONS } from './scalar.js';
export { WINDOW_FUNCTIONS } from './window.js';

export interface HogQLFunctionMatch {
  readonly fn: HogQLFunction;
  readonly family: Family;
}

/** Searched in this order, as PostHog tries aggregations before regular functions. */
const TABLES: readonly (readonly [Family, ReadonlyMap<string, HogQLFunction>])[] = [
  ['aggregate', AGGREGATE_FUNCTIONS],
  ['scalar', SCALAR_FUNCTIONS],
  ['scalar', IP_FUNCTIONS],
  ['scalar', DECIMAL_FUNCTIONS],
  ['scalar', LANGUAGE_FUNCTIONS],
  ['window', WINDOW_FUNCTIONS],
];

function find(name: string, table: ReadonlyMap<string, HogQLFunction>): HogQLFunction | undefined {
  const exact = table.get(name);
  if (exact) return exact;
  const folded = table.get(name.toLowerCase());
  return folded?.caseInsensitive ? folded : undefined;
}

/** The allow-list entry for a HogQL function name, or undefined when a user may not call it. */
export function lookupHogQLFunction(name: string): HogQLFunctionMatch | undefined {
  for (const [family, table] of TABLES) {
    const fn = find(name, table);
    if (fn) return { fn, family };
  }
  return undefined;
}

/**
 * Where the project time zone goes for a call with `argCount` arguments, PostHog's way: appended
 * (so at index argCount) when the function is time-zone aware and the caller did not already pass
 * maxArgs arguments; undefined when nothing is appended.
 */
export function timeZoneArgIndex(fn: HogQLFunction, argCount: number): number | undefined {
  if (!fn.tzAware) return undefined;
  if (fn.maxArgs !== undefined && argCount >= fn.maxArgs) return undefined;
  return argCount;
}

/**
 * ClickHouse's time-window functions want DateTime, not DateTime64, as their first argument; PostHog
 * wraps that argument in toDateTime() when printing these.
 */
export const FIRST_ARG_DATETIME_FUNCTIONS: ReadonlySet<string> = new Set([
  'tumble', 'tumbleStart', 'tumbleEnd', 'hop', 'hopStart', 'hopEnd',
]);

/** Every HogQL name on the list, with its family (for autocomplete, docs, and tests). */
export function allHogQLFunctions(): { name: string; family: Family; fn: HogQLFunction }[] {
  const all: { name: string; family: Family; fn: HogQLFunction }[] = [];
  for (const [family, table] of TABLES) {
    for (const [name, fn] of table) all.push({ name, family, fn });
  }
  return all;
}
