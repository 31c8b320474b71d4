// Trends as a kind: TrendsQuery nodes, legacy TRENDS filters (/insights/trend/), series actions,
// the actors behind a number.
import { trendsQueryFromFilters } from '../../nodes/legacy-filters.js';
import { readTrendsQuery } from '../../nodes/read-query.js';
import type { TrendsQuery } from '../../nodes/schema.js';
import { seriesActionIds, type QueryKind } from '../kind.js';
import { trendsActorsOf } from './actors.js';
import { trendsTable } from './csv.js';
import { trendsRunner } from './runner.js';

const trends = (series: unknown[], extra: Record<string, unknown> = {}) =>
  ({ kind: 'TrendsQuery', series, dateRange: { date_from: '2024-01-01', date_to: '2024-01-07' }, ...extra });

export const trendsKind: QueryKind<TrendsQuery> = {
  kind: 'TrendsQuery',
  legacyInsight: 'TRENDS',
  legacyEndpoint: 'trend',
  read: readTrendsQuery,
  fromFilters: trendsQueryFromFilters,
  actionIds: (query) => seriesActionIds(query.series),
  cachePolicy: (query) => ({
    interval: query.interval,
    // A compare period reads before the range; "all" reads from the first event.
    readsFromStart: query.dateRange.date_from?.trim() === 'all' || query.compareFilter !== null,
  }),
  run: (query, context, run) => trendsRunner.run(query, context, run),
  actors: trendsActorsOf,
  csv: trendsTable,
  safetyShapes: {
    'trend total by event name': (v) => trends([{ kind: 'EventsNode', event: v }]),
    'trend dau with event property filter': (v) => trends([{ kind: 'EventsNode', event: '$pageview', math: 'dau', properties: [{ key: v, value: v, operator: 'exact', type: 'event' }] }]),
    'trend with person property filters': (v) => trends([{ kind: 'EventsNode', event: '$pageview' }], { properties: [{ key: v, value: v, operator: 'icontains', type: 'person' }, { key: v, value: [v, v], operator: 'is_not', type: 'person' }] }),
    'trend with event breakdown': (v) => trends([{ kind: 'EventsNode', event: '$pageview' }], { breakdownFilter: { breakdown: v, breakdown_type: 'event' } }),
    'trend with person breakdown and sum': (v) => trends([{ kind: 'EventsNode', event: v, math: 'sum', math_property: v }], { breakdownFilter: { breakdown: v, breakdown_type: 'person' } }),
    'trend weekly active': (v) => trends([{ kind: 'EventsNode', event: v, math: 'weekly_active' }]),
    'trend unique groups': (v) => trends([{ kind: 'EventsNode', event: v, math: 'unique_group', math_group_type_index: 2 }]),
    'trend with histogram breakdown': (v) => trends([{ kind: 'EventsNode', event: v, properties: [{ key: v, value: v }] }], { breakdownFilter: { breakdown: v, breakdown_histogram_bin_count: 5 } }),
    'trend count per actor': (v) => trends([{ kind: 'EventsNode', event: v, math: 'p90_count_per_actor', properties: [{ key: v, value: v, operator: 'not_icontains' }] }]),
    'trend first time for user': (v) => trends([{ kind: 'EventsNode', event: v, math: 'first_time_for_user', properties: [{ key: v, operator: 'is_set' }] }]),
    'trend date filter': (v) => trends([{ kind: 'EventsNode', event: v, properties: [{ key: v, value: '2024-01-01', operator: 'is_date_after' }] }]),
  },
};
