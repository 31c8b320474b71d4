// Legacy lifecycle filters (`insight: "LIFECYCLE"`, or trends with `shown_as: "Lifecycle"` on
// /insights/trend/) as a LifecycleQuery: the first entity, interval, date range, properties.
import { fromSeriesFilters } from '../../nodes/legacy-filters.js';
import type { JsonObject } from '../../nodes/read-json.js';
import type { LifecycleQuery } from '../../nodes/schema.js';
import { readLifecycleQuery } from './read.js';

export function lifecycleQueryFromFilters(filters: JsonObject): LifecycleQuery {
  return fromSeriesFilters(filters, 'LifecycleQuery', {
    ...([undefined, null, 0, '0'].includes(filters.aggregation_group_type_index as never) ? {} : { aggregation_group_type_index: filters.aggregation_group_type_index }),
  }, readLifecycleQuery);
}
