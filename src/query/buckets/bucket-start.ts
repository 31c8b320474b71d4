// Bucket starts in SQL: the event time moved to the project's timezone, truncated to the
// interval (weeks start on the project's week_start_day), as a unix timestamp so JavaScript can
// match it to the bucket list without parsing dates.
import { call, constant } from '../ast/build.js';
import type { Expr } from '../ast/nodes.js';
import type { Interval } from '../nodes/schema.js';

export function bucketStart(timestamp: Expr, interval: Interval, timezone: string, weekStartDay: 0 | 1): Expr {
  const local = call('toTimeZone', timestamp, constant(timezone));
  switch (interval) {
    case 'minute':
      return call('toStartOfMinute', local);
    case 'hour':
      return call('toStartOfHour', local);
    case 'day':
      return call('toStartOfDay', local);
    case 'week':
      return call('toDateTime', call('toStartOfWeek', local, constant(weekStartDay, 'UInt8')), constant(timezone));
    case 'month':
      return call('toDateTime', call('toStartOfMonth', local), constant(timezone));
  }
}

export function bucketTimestamp(timestamp: Expr, interval: Interval, timezone: string, weekStartDay: 0 | 1): Expr {
  return call('toUnixTimestamp', bucketStart(timestamp, interval, timezone, weekStartDay));
}

/** A UTC instant as the DateTime64 the events table stores. */
export function instant(utcText: string): Expr {
  return call('toDateTime64', constant(utcText), constant(6, 'UInt8'), constant('UTC'));
}
