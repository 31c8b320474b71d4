// Lifecycle: the date range as trends resolve it, one statement (sql.ts), PostHog's four items.
import { ValidationError } from '../../../errors.js';
import type { QueryContext } from '../../context.js';
import { resolveDateRange, type ResolvedDateRange } from '../../dates/index.js';
import type { QueryRun } from '../../execute.js';
import type { LifecycleQuery } from '../../nodes/schema.js';
import { earliestEvent } from '../event-range.js';
import type { RunOutput } from '../kind.js';
import { lifecycleItems, type LifecycleCountRow, type LifecycleItem } from './results.js';
import { lifecycleCounts, lifecycleStatuses } from './sql.js';

export interface LifecycleResult extends RunOutput {
  results: LifecycleItem[];
  resolved_date_range: { date_from: string; date_to: string };
}

/** PostHog refuses a lifecycle of an action the project does not have. */
export function lifecycleAction(query: LifecycleQuery, context: QueryContext) {
  const series = query.series[0]!;
  if (series.kind !== 'ActionsNode') return undefined;
  const action = context.actions.get(series.id);
  if (!action) throw new ValidationError(`Action ID ${series.id} does not exist!`, 'series[0].id', 'not_found');
  return action;
}

export async function lifecycleRange(query: LifecycleQuery, context: QueryContext, run: QueryRun): Promise<ResolvedDateRange> {
  const clock = { timezone: context.project.timezone, weekStartDay: context.project.weekStartDay, now: context.now };
  const earliest = query.dateRange.date_from?.trim() === 'all' ? await earliestEvent(run) : null;
  return resolveDateRange(query.dateRange, clock, { interval: query.interval, earliest });
}

export async function runLifecycle(query: LifecycleQuery, context: QueryContext, run: QueryRun): Promise<LifecycleResult> {
  const action = lifecycleAction(query, context);
  const range = await lifecycleRange(query, context, run);
  const rows = range.buckets.length === 0 ? [] : await run.rows<LifecycleCountRow>(lifecycleCounts(lifecycleStatuses(query, range, context)));
  return {
    results: lifecycleItems(query.series[0]!, action, range, rows),
    resolved_date_range: { date_from: range.dateFrom.toISO()!, date_to: range.dateTo.toISO()! },
  };
}
