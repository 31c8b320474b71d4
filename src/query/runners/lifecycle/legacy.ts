// Legacy lifecycle filters (`insight: "LIFECYCLE"`, or trends with `shown_as: "Lifecycle"` on
// /insights/trend/) as a LifecycleQuery: the first entity, interval, date range, properties.
import { dateRange, seriesFromEntities, withLegacyAttrs } from '../../nodes/legacy-filters.js';
import type { JsonObject } from '../../nodes/read-json.js';
import type { LifecycleQuery } from '../../nodes/schema.js';
import { readLifecycleQuery } from './read.js';

export function lifecycleQueryFromFilters(filters: JsonObject): LifecycleQuery {
  const { series, origins } = seriesFromEntities(filters);
  return withLegacyAttrs(origins, () => readLifecycleQuery({
    kind: 'LifecycleQuery',
    series,
    dateRange: dateRange(filters),
    interval: filters.interval === 'minute' ? 'hour' : filters.interval,
    properties: filters.properties,
    filterTestAccounts: filters.filter_test_accounts,
    ...([undefined, null, 0, '0'].includes(filters.aggregation_group_type_index as never) ? {} : { aggregation_group_type_index: filters.aggregation_group_type_index }),
  }, ''));
}
