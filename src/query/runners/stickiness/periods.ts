// The periods a stickiness query reads: the date range, and with compare the previous period
// (or compare_to's), as trends compute them.
import type { QueryContext } from '../../context.js';
import { previousPeriod, resolveDateRange, type ResolvedDateRange } from '../../dates/index.js';
import type { QueryRun } from '../../execute.js';
import type { StickinessQuery } from '../../nodes/schema.js';
import { earliestEvent } from '../event-range.js';

export interface StickinessPeriod {
  readonly range: ResolvedDateRange;
  /** null without compare. */
  readonly compareLabel: 'current' | 'previous' | null;
}

export async function stickinessPeriods(query: StickinessQuery, context: QueryContext, run: QueryRun): Promise<StickinessPeriod[]> {
  const clock = { timezone: context.project.timezone, weekStartDay: context.project.weekStartDay, now: context.now };
  const options = { interval: query.interval, earliest: query.dateRange.date_from?.trim() === 'all' ? await earliestEvent(run) : null };
  const current = resolveDateRange(query.dateRange, clock, options);
  if (!query.compareFilter) return [{ range: current, compareLabel: null }];
  const previous = previousPeriod(current, query.dateRange, clock, { ...options, compareTo: query.compareFilter.compare_to ?? null });
  return [{ range: current, compareLabel: 'current' }, { range: previous, compareLabel: 'previous' }];
}
