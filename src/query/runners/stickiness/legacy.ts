// Legacy stickiness filters (`insight: "STICKINESS"`, or trends with `shown_as: "Stickiness"` on
// /insights/trend/) as a StickinessQuery, as PostHog's filter_to_query converts them: the
// entities become series, the interval, date range, properties and compare carry over.
import { fromSeriesFilters } from '../../nodes/legacy-filters.js';
import type { JsonObject } from '../../nodes/read-json.js';
import type { StickinessQuery } from '../../nodes/schema.js';
import { readStickinessQuery } from './read.js';

export function stickinessQueryFromFilters(filters: JsonObject): StickinessQuery {
  return fromSeriesFilters(filters, 'StickinessQuery', {
    compareFilter: filters.compare === undefined ? null : { compare: filters.compare, compare_to: filters.compare_to },
  }, readStickinessQuery);
}
