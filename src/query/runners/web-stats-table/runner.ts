// WebStatsTableQuery: one page of a breakdown's rows with PostHog's columns ([current, previous]
// pairs, the fill fraction, the empty cross_sell column) and the response fields around them.
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import { isSessionFieldName } from '../../filters/event-source.js';
import type { PropertyFilter, PropertyGroup } from '../../nodes/schema.js';
import type { RunOutput } from '../kind.js';
import { bounceFields, withSessionFields } from '../web-shared/filters.js';
import { periodText, resolvedRange, webPeriods } from '../web-shared/periods.js';
import { isPathBounce, metricsOf, statsSelect, statsSessionFields, zeroWithoutCompare } from './sql.js';
import type { WebStatsTableQuery } from './types.js';

export async function runWebStatsTable(query: WebStatsTableQuery, context: QueryContext, run: QueryRun): Promise<RunOutput> {
  const periods = await webPeriods(query, context, run);
  const fields = [
    ...statsSessionFields(query),
    ...(query.includeBounceRate || isPathBounce(query) ? bounceFields(query.modifiers) : []),
    ...sessionKeys(query.properties),
    ...(query.filterTestAccounts ? sessionKeys(context.testAccountFilters) : []),
  ];
  const withFields = await withSessionFields(context, [...new Set(fields)]);
  const rows = await run.rows<Record<string, unknown>>(statsSelect(query, withFields, periods));
  const limit = query.limit ?? 100;
  const metrics = metricsOf(query);
  const compared = periods.previous !== null;
  const results = rows.slice(0, limit).map((row) => [
    valueOf(row.value),
    ...metrics.map((m) => [numberOrNull(row[`${m}_current`]), compared ? numberOrNull(row[`${m}_previous`]) : zeroWithoutCompare(query, m) ? numberOrNull(row[`${m}_previous`]) ?? 0 : null]),
    numberOrNull(row.fill),
    '',
  ]);
  const columns = ['breakdown_value', ...metrics, 'ui_fill_fraction', 'cross_sell'].map((c) => `context.columns.${c}`);
  return {
    columns,
    results,
    types: columns.map((c) => [c, c.endsWith('breakdown_value') ? 'String' : c.endsWith('cross_sell') ? 'String' : 'Tuple(Float64, Float64)']),
    hogql: null,
    hasMore: rows.length > limit,
    limit,
    offset: query.offset,
    samplingRate: { numerator: 1 },
    usedPreAggregatedTables: false,
    dateFrom: periodText(periods.current.from),
    dateTo: periodText(periods.current.to),
    resolved_date_range: resolvedRange(periods),
  };
}

/** A number the engine answered (64-bit integers come as text); NaN, -0 and NULL as PostHog's JSON gives them. */
function numberOrNull(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'number' ? value : Number(value);
  if (Number.isNaN(n)) return null;
  return n === 0 ? 0 : n;
}

/** A breakdown value as PostHog answers it (-0 hours is UTC's 0). */
const valueOf = (value: unknown): unknown => (value === undefined ? null : value === 0 ? 0 : value);

/** Session fields the filters read (each needs its HogQL parsed before the run). */
function sessionKeys(group: PropertyGroup): string[] {
  return group.values.flatMap((entry) => ('values' in entry ? sessionKeys(entry) : sessionKeyOf(entry)));
}

const sessionKeyOf = (filter: PropertyFilter): string[] => (filter.type === 'session' && isSessionFieldName(filter.key) ? [filter.key] : []);
