// Reads a LifecycleQuery node: PostHog's lifecycle follows its first series (the others are
// ignored, as PostHog ignores them), day intervals by default. `lifecycleFilter` only says which
// statuses a chart shows; every status is answered, as PostHog answers them.
import { join, type JsonObject } from '../../nodes/read-json.js';
import { readAggregationGroup } from '../../nodes/read-funnel-fields.js';
import { readCommon, readSeriesList } from '../../nodes/read-query.js';
import type { LifecycleQuery } from '../../nodes/schema.js';

const MAX_SERIES = 50;

export function readLifecycleQuery(node: JsonObject, path: string): LifecycleQuery {
  return Object.freeze({
    kind: 'LifecycleQuery',
    series: readSeriesList(node.series, join(path, 'series'), 1, MAX_SERIES),
    ...readCommon(node, path),
    ...readAggregationGroup(node, path),
  });
}
