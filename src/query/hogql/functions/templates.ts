// The functions PostHog prints from a SQL template rather than one ClickHouse call (mostly its
// PostgreSQL-style names): the same expressions, built as AST from the checked arguments, so the
// printer's allow-list and parameter rules apply to every call inside them. Arities are PostHog's.
// An argument used more than once goes through a lambda, as PostHog's templates do, so it is
// written (and computed) once.
import { array, call, constant, field, lambda } from '../../ast/build.js';
import type { Call, Expr } from '../../ast/nodes.js';
import type { HogQLFunction } from './types.js';

type Template = readonly [minArgs: number, maxArgs: number, shape: string, expand: (args: readonly Expr[]) => Call];

const at = (args: readonly Expr[], i: number): Expr => args[i]!;

/** `arrayElement(arrayMap((a, b) -> body, [x], [y]), 1)`: body over x and y, each written once. */
function withNames(names: readonly [string, string], values: readonly [Expr, Expr], body: Expr): Call {
  return call('arrayElement', call('arrayMap', lambda([...names], body), array(values[0]), array(values[1])), constant(1, 'UInt8'));
}

/** date_part's units, as PostHog maps them; any other unit is NULL. */
const DATE_PARTS: readonly (readonly [string, string])[] = [
  ['year', 'toYear'], ['month', 'toMonth'], ['day', 'toDayOfMonth'], ['hour', 'toHour'], ['minute', 'toMinute'],
  ['second', 'toSecond'], ['dow', 'toDayOfWeek'], ['doy', 'toDayOfYear'], ['quarter', 'toQuarter'],
];

/** PostHog's strict X.Y.Z (no leading zeros); `extract` returns the first group, the version itself. */
const SEMVER = String.raw`^\s*v?((0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*))(?:[-+][^\s]*)?\s*$`;

const SCALAR_TEMPLATES: Record<string, Template> = {
  // split_part(text, delimiter, n): the n-th part (1-based, negative from the end), '' when there is none.
  split_part: [3, 3, "if(empty(parts), '', if(length(parts) >= n, parts[n], '')) with parts = splitByString(delimiter, text)", (a) => {
    const parts = field('__parts');
    const n = field('__n');
    const body = call('if', call('empty', parts), constant(''),
      call('if', call('greaterOrEquals', call('length', parts), n), call('arrayElement', parts, n), constant('')));
    return withNames(['__parts', '__n'], [call('splitByString', at(a, 1), at(a, 0)), at(a, 2)], body);
  }],
  // date_part(unit, t): year, month, day, hour, minute, second, dow, doy or quarter of t.
  date_part: [2, 2, "multiIf(unit = 'year', toYear(t), unit = 'month', toMonth(t), ..., NULL)", (a) => {
    const unit = field('__unit');
    const t = field('__t');
    const branches = DATE_PARTS.flatMap(([name, fn]) => [call('equals', unit, constant(name)), call(fn, t)]);
    return withNames(['__unit', '__t'], [at(a, 0), at(a, 1)], call('multiIf', ...branches, constant(null, 'Nullable(Nothing)')));
  }],
  // date_bin(stride, t, origin): the start of t's bin of `stride` counted from `origin`.
  date_bin: [3, 3, 'toStartOfInterval(t, stride, origin)', (a) => call('toStartOfInterval', at(a, 1), at(a, 0), at(a, 2))],
  // timezone(zone, t): t shown in `zone`.
  timezone: [2, 2, 'toTimeZone(t, zone)', (a) => call('toTimeZone', at(a, 1), at(a, 0))],
  // make_interval(years, months, days, hours, minutes, seconds)
  make_interval: [6, 6, 'toIntervalYear(y) + toIntervalMonth(m) + toIntervalDay(d) + toIntervalHour(h) + toIntervalMinute(mi) + toIntervalSecond(s)', (a) => {
    const units = ['toIntervalYear', 'toIntervalMonth', 'toIntervalDay', 'toIntervalHour', 'toIntervalMinute', 'toIntervalSecond'];
    return units.map((fn, i) => call(fn, at(a, i))).reduce((sum, next) => call('plus', sum, next)) as Call;
  }],
  // sortableSemver(v): [major, minor, patch] as integers, comparable as arrays; [NULL] when v is not
  // X.Y.Z (optionally v-prefixed, with a pre-release or build suffix), so it fails every comparison.
  sortablesemver: [1, 1, "arrayMap(x -> toInt64OrNull(x), splitByChar('.', coalesce(nullIf(extract(v, semver), ''), '_')))", (a) => {
    const version = call('extract', call('assumeNotNull', at(a, 0)), constant(SEMVER));
    const parts = call('splitByChar', constant('.'), call('coalesce', call('nullIf', version, constant('')), constant('_')));
    return call('arrayMap', lambda(['__x'], call('toInt64OrNull', field('__x'))), parts);
  }],
  // toFloatOrDefault(x, default): ClickHouse wants a Float64 default, so it is cast (an integer 0
  // works too); PostHog's one-argument form is toFloatOrZero (NULL stays NULL).
  toFloatOrDefault: [1, 2, 'toFloat64OrDefault(x, toFloat64(default)); toFloat64OrZero(x)', (a) =>
    (a.length === 1 ? call('toFloat64OrZero', at(a, 0)) : call('toFloat64OrDefault', at(a, 0), call('toFloat64', at(a, 1))))],
  // md5(s): the MD5 digest as upper-case hex (PostHog lists it among aggregations; it is per row).
  md5: [1, 1, 'hex(MD5(s))', (a) => call('hex', call('MD5', at(a, 0)))],
};

const AGGREGATE_TEMPLATES: Record<string, Template> = {
  json_agg: [1, 1, 'toJSONString(groupArray(x))', (a) => call('toJSONString', call('groupArray', at(a, 0)))],
  string_agg: [2, 2, 'arrayStringConcat(groupArray(x), separator)', (a) => call('arrayStringConcat', call('groupArray', at(a, 0)), at(a, 1))],
  every: [1, 1, 'toBool(min(x))', (a) => call('toBool', call('min', at(a, 0)))],
};

/** Names looked up in any case (PostHog: "people might not know SemVer is the right capitalization"). */
const ANY_CASE: ReadonlySet<string> = new Set(['sortablesemver']);

function table(templates: Record<string, Template>, aggregate: boolean): ReadonlyMap<string, HogQLFunction> {
  return new Map(Object.entries(templates).map(([name, [minArgs, maxArgs, shape, expand]]) => {
    const outer = expand(Array.from({ length: maxArgs }, () => constant(null))).name;
    const flags = { ...(aggregate ? { aggregate: true } : {}), ...(ANY_CASE.has(name) ? { caseInsensitive: true } : {}) };
    return [name, Object.freeze({ clickhouse: outer, minArgs, maxArgs, shape, expand, ...flags })];
  }));
}

export const SCALAR_TEMPLATE_FUNCTIONS = table(SCALAR_TEMPLATES, false);
export const AGGREGATE_TEMPLATE_FUNCTIONS = table(AGGREGATE_TEMPLATES, true);
