// Which interval an event falls in, counted from a range's first interval: 0 for the first, 1
// for the next, negative before it. Computed on the project's wall clock (weeks start on its
// week_start_day), so kinds that compare intervals (retention offsets, stickiness counts) do
// integer arithmetic instead of matching timestamps.
import type { DateTime } from 'luxon';
import { binary, call, constant } from '../ast/build.js';
import type { Expr } from '../ast/nodes.js';
import type { Interval } from '../nodes/schema.js';

const SECONDS_PER: Partial<Record<Interval, number>> = { minute: 60, hour: 3600 };

/** `first` is the start of the range's first interval, in the project's zone. */
export function intervalIndex(timestamp: Expr, first: DateTime, interval: Interval, timezone: string, weekStartDay: 0 | 1): Expr {
  const local = call('toTimeZone', timestamp, constant(timezone));
  const firstDate = () => call('toDate', constant(first.toFormat('yyyy-MM-dd')));
  switch (interval) {
    case 'minute':
    case 'hour': {
      // Whole minutes and hours are the same length everywhere but in half-hour DST zones.
      const seconds = SECONDS_PER[interval]!;
      const start = call(interval === 'hour' ? 'toStartOfHour' : 'toStartOfMinute', local);
      return call('intDiv', binary('-', call('toInt64', call('toUnixTimestamp', start)), constant(Math.round(first.toSeconds()), 'Int64')), constant(seconds, 'Int64'));
    }
    case 'day':
      return binary('-', call('toInt64', call('toRelativeDayNum', local)), call('toInt64', call('toRelativeDayNum', firstDate())));
    case 'week':
      return call('intDiv', binary('-',
        call('toInt64', call('toRelativeDayNum', call('toStartOfWeek', local, constant(weekStartDay, 'UInt8')))),
        call('toInt64', call('toRelativeDayNum', firstDate()))), constant(7, 'Int64'));
    case 'month':
      return binary('-', call('toInt64', call('toRelativeMonthNum', local)), call('toInt64', call('toRelativeMonthNum', firstDate())));
  }
}
