// What trends and funnels both need to turn a resolved date range into event bounds: UTC instant
// text for the SQL, and the project's first event for date_from "all".
import { DateTime } from 'luxon';
import { alias, binary, call, field, select, table } from '../ast/build.js';
import type { QueryRun } from '../execute.js';
import { instant } from '../buckets/bucket-start.js';

/** PostHog's first-event floor when looking for the earliest event of "all time". */
const EARLIEST_FLOOR = '2015-01-01 00:00:00.000';

/** "yyyy-MM-dd HH:mm:ss.SSS[SSS]" in UTC; an inclusive end at .999 ms means .999999 µs. */
export function utcText(t: DateTime, end = false): string {
  const text = t.toUTC().toFormat('yyyy-MM-dd HH:mm:ss.SSS');
  return end && t.millisecond === 999 ? `${text}999` : text;
}

/** The project's first event since 2015, for date_from "all"; null when it has none. */
export async function earliestEvent(run: QueryRun): Promise<DateTime | null> {
  // min() of no rows is the zero date, not NULL, so the count tells an empty project apart.
  const rows = await run.rows<{ earliest: string; events: string | number }>(select({
    select: [alias(call('toString', call('min', field('timestamp', 'e'))), 'earliest'), alias(call('count'), 'events')],
    from: table('events', 'e'),
    where: binary('>=', field('timestamp', 'e'), instant(EARLIEST_FLOOR)),
  }));
  const row = rows[0];
  if (!row || Number(row.events) === 0) return null;
  return DateTime.fromSQL(row.earliest, { zone: 'UTC' });
}
