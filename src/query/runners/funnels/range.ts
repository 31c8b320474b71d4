// The funnel's date range: PostHog's QueryDateRange with the query interval; every step event must
// lie in [date_from, date_to] (reference §4.1), bounds inclusive.
import type { QueryContext } from '../../context.js';
import { resolveDateRange, type ResolvedDateRange } from '../../dates/index.js';
import type { QueryRun } from '../../execute.js';
import type { FunnelsQuery } from '../../nodes/schema.js';
import { earliestEvent, utcText } from '../event-range.js';

export interface FunnelRange {
  readonly range: ResolvedDateRange;
  readonly fromUtc: string;
  readonly toUtc: string;
}

export async function funnelRange(query: FunnelsQuery, context: QueryContext, run: QueryRun): Promise<FunnelRange> {
  const clock = { timezone: context.project.timezone, weekStartDay: context.project.weekStartDay, now: context.now };
  const earliest = query.dateRange.date_from?.trim() === 'all' ? await earliestEvent(run) : null;
  const range = resolveDateRange(query.dateRange, clock, { interval: query.interval, earliest });
  return { range, fromUtc: utcText(range.dateFrom, false), toUtc: utcText(range.dateTo, true) };
}
