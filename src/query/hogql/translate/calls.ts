// A HogQL function call checked against the user allow-list (hogql/functions) and turned into a
// call of its ClickHouse counterpart, with PostHog's argument checks and the project's defaults
// (time zone, week start).
import { call, constant, parametricCall } from '../../ast/build.js';
import type { Call, Expr } from '../../ast/nodes.js';
import { closestName } from '../functions/close-match.js';
import { allHogQLFunctions, FIRST_ARG_DATETIME_FUNCTIONS, lookupHogQLFunction, timeZoneArgIndex, type HogQLFunction } from '../functions/index.js';
import { HogQLQueryError } from '../errors.js';
import { typed, typeOf, type HogQLType } from './types.js';

/** Functions whose ClickHouse form wants a sub-second precision before the time zone. */
const PRECISION_BEFORE_ZONE = new Set(['now64', 'parseDateTime64BestEffortOrNull', 'parseDateTime64BestEffortUSOrNull', 'toDateTime64']);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function checkCount(what: string, name: string, count: number, min: number, max: number | undefined, unit: 'argument' | 'parameter'): void {
  if (max !== undefined && min === max && count !== min) {
    throw new HogQLQueryError(`${what} '${name}' expects ${plural(min, unit)}, found ${count}`);
  }
  if (count < min) throw new HogQLQueryError(`${what} '${name}' expects at least ${plural(min, unit)}, found ${count}`);
  if (max !== undefined && count > max) throw new HogQLQueryError(`${what} '${name}' expects at most ${plural(max, unit)}, found ${count}`);
}

export interface CallParts {
  readonly name: string;
  readonly args: Expr[];
  readonly params?: Expr[];
  readonly distinct: boolean;
}

/** What a call takes from the project when the query leaves it out. */
export interface CallDefaults {
  readonly timezone: string;
  /** 0: weeks start on Sunday, 1: on Monday; absent: ClickHouse's default (Sunday). */
  readonly weekStartDay?: 0 | 1;
}

export interface ResolvedCall {
  readonly call: Call;
  readonly family: 'scalar' | 'aggregate' | 'window';
}

let names: readonly string[] | undefined;
/** Every name a query may call, for PostHog's "Perhaps you meant" hint. */
const functionNames = (): readonly string[] => (names ??= allHogQLFunctions().map((f) => f.name));

/** The call of a user's function, or a 400 naming what is wrong with it. */
export function userCall(parts: CallParts, defaults: CallDefaults): ResolvedCall {
  if (parts.name === '_caseWithExpression') return { call: call('caseWithExpression', ...parts.args), family: 'scalar' };
  const match = lookupHogQLFunction(parts.name);
  if (!match) {
    const hint = closestName(parts.name, functionNames());
    throw new HogQLQueryError(`Unsupported function call '${parts.name}(...)'${hint ? `. Perhaps you meant '${hint}(...)'?` : ''}`);
  }
  const { fn, family } = match;
  const what = family === 'aggregate' ? 'Aggregation' : 'Function';
  checkCount(what, parts.name, parts.args.length, fn.minArgs, fn.maxArgs, 'argument');
  if (fn.minParams !== undefined) {
    if (!parts.params && fn.minParams > 0) throw new HogQLQueryError(`${what} '${parts.name}' requires parameters in addition to arguments`);
    checkCount(what, parts.name, parts.params?.length ?? 0, fn.minParams, fn.maxParams, 'parameter');
  } else if (parts.params) {
    throw new HogQLQueryError(`${what} '${parts.name}' does not take parameters`);
  }
  if (parts.distinct && family !== 'aggregate') throw new HogQLQueryError(`Function '${parts.name}' does not take DISTINCT`);
  if (fn.expand && parts.distinct) throw new HogQLQueryError(`${what} '${parts.name}' does not take DISTINCT`);
  if (fn.expand) return { call: typed(fn.expand(parts.args), resultType(fn.clickhouse), true), family };
  // PostHog's printer rewrites only `concat` spelled so (CONCAT keeps ClickHouse's NULL), and types it not nullable.
  if (parts.name === 'concat') return { call: typed(call('concat', ...parts.args.map(concatArg)), 'string', false), family };
  const name = clickhouseName(fn, parts.args);
  const args = withTimeZone(fn, name, withWeekMode(parts.name, withDateTimeFirst(parts.name, parts.args), defaults.weekStartDay), defaults.timezone);
  const built = parts.params ? parametricCall(name, parts.params, args) : call(name, ...args);
  const node = parts.distinct ? Object.freeze({ ...built, distinct: true }) : built;
  return { call: typed(node, resultType(name), true), family };
}

/**
 * A concat argument as PostHog prints it, so NULL reads as '' and the result is a String: a string
 * constant as it is, another constant through toString, NULL or toString(NULL) as '', any other
 * toString(...) as ifNull(toString(...), ''), anything else as ifNull(toString(x), '').
 */
function concatArg(arg: Expr): Expr {
  if (arg.kind === 'constant') {
    if (arg.value === null) return constant('');
    return typeof arg.value === 'string' ? arg : call('toString', arg);
  }
  if (arg.kind === 'call' && arg.name === 'toString') {
    const only = arg.args.length === 1 ? arg.args[0]! : undefined;
    if (only?.kind === 'constant') return only.value === null ? constant('') : arg;
    return call('ifNull', arg, constant(''));
  }
  return call('ifNull', call('toString', arg), constant(''));
}

function clickhouseName(fn: HogQLFunction, args: readonly Expr[]): string {
  if (!fn.typedFirstArgClickhouse || args.length === 0) return fn.clickhouse;
  const first = typeOf(args[0]!).type;
  // A typed property (property-types.ts) is a Float or a Bool: the -OrNull parsers take only text.
  return first === 'datetime' || first === 'integer' || first === 'float' || first === 'boolean' ? fn.typedFirstArgClickhouse : fn.clickhouse;
}

/**
 * PostHog's printer gives `toStartOfWeek(x)` the project's week mode: 3 (Monday, ISO 8601) or 0
 * (Sunday, ClickHouse's default). Only that function, only without a mode: toWeek, toYearWeek and
 * toLastDayOfWeek keep ClickHouse's default, as in PostHog.
 */
function withWeekMode(name: string, args: Expr[], weekStartDay: 0 | 1 | undefined): Expr[] {
  if (name !== 'toStartOfWeek' || args.length !== 1 || weekStartDay === undefined) return args;
  return [args[0]!, constant(weekStartDay === 1 ? 3 : 0, 'UInt8')];
}

/** tumble(), hop() and their bounds take a DateTime, where HogQL's times are DateTime64: cast, as PostHog does. */
function withDateTimeFirst(name: string, args: Expr[]): Expr[] {
  if (!FIRST_ARG_DATETIME_FUNCTIONS.has(name) || args.length === 0 || typeOf(args[0]!).type !== 'datetime') return args;
  return [typed(call('toDateTime', args[0]!), 'datetime', typeOf(args[0]!).nullable), ...args.slice(1)];
}

function withTimeZone(fn: HogQLFunction, name: string, args: Expr[], timezone: string): Expr[] {
  const at = timeZoneArgIndex(fn, args.length);
  // now(zone): now64 takes its precision before the zone, as PostHog prints it.
  if (name === 'now64' && args.length === 1) return [constant(6, 'UInt8'), args[0]!];
  if (at === undefined) return args;
  const zone = constant(timezone);
  // ClickHouse's 64-bit forms take a precision before the zone: now64(6, tz), parse...(s, 6, tz).
  if (PRECISION_BEFORE_ZONE.has(name)) {
    const precisionAt = name === 'now64' ? 0 : 1;
    if (args.length === precisionAt) return [...args, constant(6, 'UInt8'), zone];
  }
  return [...args.slice(0, at), zone, ...args.slice(at)];
}

const DATETIME_RESULTS = /^(now64|now|toDateTime|toDateTime64|parseDateTime|toTimeZone|toStartOf|dateTrunc|date_trunc|fromUnixTimestamp)/;

/** What Hoglet knows of a ClickHouse function's result (HogQLAutocomplete ranks functions by it too). */
export function resultType(name: string): HogQLType {
  if (DATETIME_RESULTS.test(name)) return 'datetime';
  if (name.startsWith('count') || name.startsWith('uniq')) return 'integer';
  return 'unknown';
}
