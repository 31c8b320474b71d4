// Lifecycle as a kind: LifecycleQuery nodes, legacy LIFECYCLE filters (and `shown_as:
// "Lifecycle"` on /insights/trend/), the action its series names.
import type { LifecycleQuery } from '../../nodes/schema.js';
import { seriesActionIds, type QueryKind } from '../kind.js';
import { lifecycleActorsOf } from './actors.js';
import { lifecycleTable } from './csv.js';
import { lifecycleQueryFromFilters } from './legacy.js';
import { readLifecycleQuery } from './read.js';
import { runLifecycle } from './runner.js';

const lifecycle = (series: unknown[], extra: Record<string, unknown> = {}) =>
  ({ kind: 'LifecycleQuery', series, dateRange: { date_from: '2024-01-01', date_to: '2024-01-07' }, ...extra });

export const lifecycleKind: QueryKind<LifecycleQuery> = {
  kind: 'LifecycleQuery',
  legacyInsight: 'LIFECYCLE',
  legacyEndpoint: null,
  read: readLifecycleQuery,
  fromFilters: lifecycleQueryFromFilters,
  actionIds: (query) => seriesActionIds(query.series.slice(0, 1)),
  // "New" depends on when each person was created, however long ago.
  cachePolicy: (query) => ({ interval: query.interval, readsFromStart: true }),
  run: runLifecycle,
  actors: lifecycleActorsOf,
  csv: lifecycleTable,
  safetyShapes: {
    'lifecycle with series and person property filters': (v) => lifecycle([{ kind: 'EventsNode', event: v, properties: [{ key: v, value: v, operator: 'exact', type: 'event' }] }], { properties: [{ key: v, value: v, operator: 'icontains', type: 'person' }] }),
    'lifecycle of groups by week': (v) => lifecycle([{ kind: 'EventsNode', event: v }], { interval: 'week', aggregation_group_type_index: 2 }),
  },
};
