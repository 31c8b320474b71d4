// Stickiness as a kind: StickinessQuery nodes, legacy STICKINESS filters (and `shown_as:
// "Stickiness"` on /insights/trend/), the actions its series name.
import type { StickinessQuery } from '../../nodes/schema.js';
import { seriesActionIds, type QueryKind } from '../kind.js';
import { stickinessActorsOf } from './actors.js';
import { stickinessTable } from './csv.js';
import { stickinessQueryFromFilters } from './legacy.js';
import { readStickinessQuery } from './read.js';
import { runStickiness } from './runner.js';

const stickiness = (series: unknown[], extra: Record<string, unknown> = {}) =>
  ({ kind: 'StickinessQuery', series, dateRange: { date_from: '2024-01-01', date_to: '2024-01-07' }, ...extra });

export const stickinessKind: QueryKind<StickinessQuery> = {
  kind: 'StickinessQuery',
  legacyInsight: 'STICKINESS',
  legacyEndpoint: null,
  read: readStickinessQuery,
  fromFilters: stickinessQueryFromFilters,
  actionIds: (query) => seriesActionIds(query.series),
  cachePolicy: (query) => ({
    interval: query.interval,
    readsFromStart: query.dateRange.date_from?.trim() === 'all' || query.compareFilter !== null,
  }),
  run: runStickiness,
  actors: stickinessActorsOf,
  csv: stickinessTable,
  safetyShapes: {
    'stickiness with series and person property filters': (v) => stickiness([{ kind: 'EventsNode', event: v, properties: [{ key: v, value: v, operator: 'exact', type: 'event' }] }], { properties: [{ key: v, value: v, operator: 'icontains', type: 'person' }] }),
    'stickiness of groups in groups of intervals, with criteria': (v) => stickiness([{ kind: 'EventsNode', event: v, math: 'unique_group', math_group_type_index: 1 }], { intervalCount: 2, stickinessFilter: { stickinessCriteria: { operator: 'gte', value: 3 } } }),
  },
};
