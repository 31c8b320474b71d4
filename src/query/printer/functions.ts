// The functions a printed query may call. Anything else is refused, so a name can never smuggle
// SQL in, and a runner cannot reach functions with side effects (url(), file(), remote() ...).
// Two lists: the functions Hoglet's own runners use (below), and the ClickHouse counterparts of
// the functions a HogQL user may call (hogql/functions, kept apart and checked on its own).
import { allHogQLFunctions } from '../hogql/functions/index.js';

const ALLOWED = [
  // comparison, logic, conditionals
  'if', 'multiIf', 'ifNull', 'nullIf', 'coalesce', 'isNull', 'isNotNull', 'assumeNotNull', 'greatest', 'least',
  'equals', 'notEquals', 'has', 'hasAny', 'hasAll', 'in', 'notIn', 'and', 'or', 'not',
  // strings and JSON
  'toString', 'lower', 'upper', 'length', 'empty', 'notEmpty', 'concat', 'substring', 'position',
  'match', 'like', 'ilike', 'notLike', 'notILike', 'replaceRegexpAll', 'replaceRegexpOne', 'trimRight',
  'multiMatchAnyIndex', 'startsWith',
  'JSONExtract', 'JSONExtractString', 'JSONExtractRaw', 'JSONHas', 'JSONType', 'JSONExtractFloat', 'JSONExtractKeysAndValues',
  // numbers
  'toFloat64', 'toFloat64OrNull', 'toInt64', 'toUInt64', 'toInt64OrNull', 'round', 'floor', 'ceil', 'abs',
  'intDiv', 'plus', 'minus', 'multiply', 'divide', 'modulo', 'pow', 'isFinite', 'isNaN',
  // dates
  'toDateTime', 'toDateTime64', 'toDate', 'toTimeZone', 'parseDateTime64BestEffortOrNull', 'parseDateTimeBestEffortOrNull',
  'toStartOfMinute', 'toStartOfHour', 'toStartOfDay', 'toStartOfWeek', 'toStartOfMonth', 'toStartOfInterval',
  'toUnixTimestamp', 'toUnixTimestamp64Micro', 'dateDiff', 'age', 'dateAdd', 'dateSub', 'addDays', 'subtractDays',
  'toIntervalSecond', 'toIntervalMinute', 'toIntervalHour', 'toIntervalDay', 'toIntervalWeek', 'toIntervalMonth',
  'toIntervalYear', 'now64', 'formatDateTime', 'fromUnixTimestamp64Micro',
  // arrays and tuples
  'tuple', 'tupleElement', 'array', 'arrayJoin', 'arrayMap', 'arrayFilter', 'arraySort', 'arrayReverseSort',
  'arrayEnumerate', 'arrayCount', 'arraySum', 'arrayMax', 'arrayMin', 'arrayExists', 'arrayFirst',
  'arrayFirstIndex', 'arrayLastIndex', 'arrayFold', 'arraySlice', 'arrayConcat', 'arrayDistinct',
  'arrayCompact', 'arrayZip', 'arrayPushBack', 'arrayElement', 'indexOf', 'range', 'emptyArrayString',
  'arrayCumSum', 'arrayDifference', 'arraySplit', 'toUnixTimestamp64Milli', 'countEqual', 'toRelativeDayNum', 'toRelativeMonthNum', 'arrayResize', 'arrayPopBack', 'arrayPopFront',
  'arrayWithConstant', 'arrayFlatten', 'arrayPushFront', 'emptyArrayInt64', 'toUInt8', 'bitTest', 'bitOr', 'bitXor', 'bitCount',
  'bitAnd', 'bitShiftLeft', 'bitShiftRight', 'toUInt32', 'toUInt128', 'toUInt256',
  // aggregates
  'count', 'countIf', 'sum', 'sumIf', 'avg', 'avgIf', 'min', 'minIf', 'max', 'maxIf', 'any', 'anyIf',
  'argMin', 'argMax', 'uniqExact', 'uniqExactIf', 'quantile', 'quantileIf', 'quantiles', 'median', 'groupArray',
  'groupArrayIf', 'groupUniqArray', 'groupUniqArrayIf', 'groupUniqArrayArray', 'groupArraySorted', 'windowFunnel', 'medianArray', 'avgArray',
  'argMinIf', 'argMaxIf', 'medianIf', 'quantileExactInclusiveIf',
  // stored aggregate states: the sessions table's, read with FINAL (hogql/translate/sessions.ts),
  // and the recordings' summary rows (core/replay/)
  'finalizeAggregation', 'argMinMerge', 'argMaxMerge', 'groupUniqArrayMerge', 'uniqExactMerge', 'uniqUpToMerge',
  // window functions
  'row_number', 'rank', 'dense_rank', 'lagInFrame', 'leadInFrame', 'first_value', 'last_value',
  // what the HogQL translator itself writes (CASE x WHEN ..., null-safe comparisons; md5's template)
  'caseWithExpression', 'MD5',
  // arrayReduce's first argument is checked to name an allowed aggregation (hogql/translate).
  'arrayReduce',
] as const;

const HOGQL_TARGETS = allHogQLFunctions().flatMap(({ fn }) => [fn.clickhouse, ...(fn.typedFirstArgClickhouse ? [fn.typedFirstArgClickhouse] : [])]);

const ALLOWED_SET: ReadonlySet<string> = new Set([...ALLOWED, ...HOGQL_TARGETS]);

export function isAllowedFunction(name: string): boolean {
  return ALLOWED_SET.has(name);
}
