// The funnel's date range: PostHog's QueryDateRange with the query interval; every step event must
// lie in [date_from, date_to] (reference §4.1), bounds inclusive.
import { DateTime } from 'luxon';
import { alias, binary, call, field, select, table } from '../../ast/build.js';
import type { QueryContext } from '../../context.js';
import { resolveDateRange, type ResolvedDateRange } from '../../dates/index.js';
import type { QueryRun } from '../../execute.js';
import type { FunnelsQuery } from '../../nodes/schema.js';
import { instant } from '../trends/buckets.js';

export interface FunnelRange {
  readonly range: ResolvedDateRange;
  readonly fromUtc: string;
  readonly toUtc: string;
}

const utcText = (t: DateTime, end: boolean): string => {
  const text = t.toUTC().toFormat('yyyy-MM-dd HH:mm:ss.SSS');
  // luxon stops at milliseconds; an inclusive end of .999 means .999999 for microsecond timestamps.
  return end && t.millisecond === 999 ? `${text}999` : text;
};

export async function funnelRange(query: FunnelsQuery, context: QueryContext, run: QueryRun): Promise<FunnelRange> {
  const clock = { timezone: context.project.timezone, weekStartDay: context.project.weekStartDay, now: context.now };
  const earliest = query.dateRange.date_from?.trim() === 'all' ? await earliestEvent(run) : null;
  const range = resolveDateRange(query.dateRange, clock, { interval: query.interval, earliest });
  return { range, fromUtc: utcText(range.dateFrom, false), toUtc: utcText(range.dateTo, true) };
}

async function earliestEvent(run: QueryRun): Promise<DateTime | null> {
  const rows = await run.rows<{ earliest: string; events: string | number }>(select({
    select: [alias(call('toString', call('min', field('timestamp', 'e'))), 'earliest'), alias(call('count'), 'events')],
    from: table('events', 'e'),
    where: binary('>=', field('timestamp', 'e'), instant('2015-01-01 00:00:00.000')),
  }));
  const row = rows[0];
  if (!row || Number(row.events) === 0) return null;
  return DateTime.fromSQL(row.earliest, { zone: 'UTC' });
}
