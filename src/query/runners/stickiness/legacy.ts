// Legacy stickiness filters (`insight: "STICKINESS"`, or trends with `shown_as: "Stickiness"` on
// /insights/trend/) as a StickinessQuery, as PostHog's filter_to_query converts them: the
// entities become series, the interval, date range, properties and compare carry over.
import { dateRange, seriesFromEntities, withLegacyAttrs } from '../../nodes/legacy-filters.js';
import type { JsonObject } from '../../nodes/read-json.js';
import type { StickinessQuery } from '../../nodes/schema.js';
import { readStickinessQuery } from './read.js';

export function stickinessQueryFromFilters(filters: JsonObject): StickinessQuery {
  const { series, origins } = seriesFromEntities(filters);
  return withLegacyAttrs(origins, () => readStickinessQuery({
    kind: 'StickinessQuery',
    series,
    dateRange: dateRange(filters),
    interval: filters.interval === 'minute' ? 'hour' : filters.interval,
    properties: filters.properties,
    filterTestAccounts: filters.filter_test_accounts,
    compareFilter: filters.compare === undefined ? null : { compare: filters.compare, compare_to: filters.compare_to },
  }, ''));
}
