// WebOverviewQuery: the five overview numbers (or the four of a conversion goal) for the current
// period and, when compared, the previous one; PostHog's response fields around them.
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import type { WebOverviewQuery } from '../../nodes/schema.js';
import { bounceFields, filterSessionFields, withSessionFields } from '../web-shared/filters.js';
import { periodText, webPeriods } from '../web-shared/periods.js';
import type { RunOutput } from '../kind.js';
import { numberOrNull, toItem, type WebOverviewItem } from './results.js';
import { overviewSelect } from './sql.js';

export async function runWebOverview(query: WebOverviewQuery, context: QueryContext, run: QueryRun): Promise<RunOutput> {
  const periods = await webPeriods(query, context, run);
  const fields = ['$start_timestamp', '$session_duration', ...bounceFields(query.modifiers), ...filterSessionFields(query, context)];
  const withFields = await withSessionFields(context, fields);
  const rows = await run.rows<Record<string, unknown>>(overviewSelect(query, withFields, periods));
  const row = rows[0] ?? {};
  const pair = (i: number): [number | null, number | null] => [numberOrNull(row[`m${i}_current`]) ?? 0, periods.previous ? numberOrNull(row[`m${i}_previous`]) : null];
  const average = (i: number): [number | null, number | null] => [numberOrNull(row[`m${i}_current`]), periods.previous ? numberOrNull(row[`m${i}_previous`]) : null];
  const items: WebOverviewItem[] = [];
  if (query.conversionGoal) {
    const [visitors, previousVisitors] = pair(0);
    const [unique, previousUnique] = pair(2);
    items.push(
      toItem('visitors', 'unit', visitors, previousVisitors),
      toItem('total conversions', 'unit', ...pair(1)),
      toItem('unique conversions', 'unit', unique, previousUnique),
      toItem('conversion rate', 'percentage', ratio(unique, visitors), periods.previous ? ratio(previousUnique, previousVisitors) : null),
    );
  } else {
    items.push(
      toItem('visitors', 'unit', ...pair(0)),
      toItem('views', 'unit', ...pair(1)),
      toItem('sessions', 'unit', ...pair(2)),
      toItem('session duration', 'duration_s', ...average(3)),
      toItem('bounce rate', 'percentage', ...average(4), true),
    );
  }
  // Hoglet keeps no revenue settings: PostHog's answer for a project without them, an empty currency item.
  if (query.includeRevenue) items.push(toItem(query.conversionGoal ? 'conversion revenue' : 'revenue', 'currency', null, null));
  return {
    results: items,
    samplingRate: { numerator: 1 },
    dateFrom: periodText(periods.current.from),
    dateTo: periodText(periods.current.to),
    usedPreAggregatedTables: false,
  };
}

/** unique / visitors as ClickHouse divides: 0/0 is NaN (null in the answer). */
function ratio(part: number | null, whole: number | null): number | null {
  if (part === null || whole === null) return null;
  const result = part / whole;
  return Number.isNaN(result) ? null : result;
}
