// Public surface of the date-range module; the query engine imports from here only.
export { alignToInterval, bucketStarts, MAX_BUCKETS } from './align.js';
export { previousPeriod } from './compare.js';
export {
  DEFAULT_DATE_FROM_DAYS,
  EARLIEST_TIMESTAMP_FLOOR,
  NO_EVENTS_LOOKBACK_DAYS,
  resolveDateFrom,
  resolveDateRange,
  resolveDateTo,
  useStartOfInterval,
} from './date-range.js';
export { stepIntervals } from './step.js';
export { formatBucketDay, formatBucketLabel, formatSqlDateTime, formatWeekSpan } from './labels.js';
export {
  type DeltaMapping,
  MAX_YEAR,
  MIN_YEAR,
  type ParseDateOptions,
  type ParsedDate,
  parseDate,
} from './parse-date.js';
export {
  type CompareOptions,
  type DateRangeInput,
  type DateRangeOptions,
  INTERVALS,
  type Interval,
  type ProjectClock,
  type ResolvedDateRange,
} from './types.js';
