// Funnels as a kind: FunnelsQuery nodes, legacy FUNNELS filters (/insights/funnel/), the actions
// of steps and exclusions.
import { funnelsQueryFromFilters } from '../../nodes/legacy-filters.js';
import { readFunnelsQuery } from '../../nodes/read-query.js';
import type { FunnelsQuery } from '../../nodes/schema.js';
import { seriesActionIds, type QueryKind } from '../kind.js';
import { funnelTable } from './csv.js';
import { funnelStepActors } from './insight-actors.js';
import { funnelsRunner } from './runner.js';

const funnel = (series: unknown[], extra: Record<string, unknown> = {}) =>
  ({ kind: 'FunnelsQuery', series, dateRange: { date_from: '2024-01-01', date_to: '2024-01-07' }, ...extra });

export const funnelsKind: QueryKind<FunnelsQuery> = {
  kind: 'FunnelsQuery',
  legacyInsight: 'FUNNELS',
  legacyEndpoint: 'funnel',
  read: readFunnelsQuery,
  fromFilters: funnelsQueryFromFilters,
  actionIds: (query) => seriesActionIds([...query.series, ...query.funnelsFilter.exclusions]),
  cachePolicy: (query) => ({ interval: query.interval, readsFromStart: query.dateRange.date_from?.trim() === 'all' }),
  run: (query, context, run) => funnelsRunner.run(query, context, run),
  actors: funnelStepActors,
  csv: funnelTable,
  safetyShapes: {
    'funnel steps with a property step and breakdown': (v) => funnel([{ kind: 'EventsNode', event: v }, { kind: 'EventsNode', event: v, properties: [{ key: v, value: v }] }], { breakdownFilter: { breakdown: v } }),
    'funnel with exclusion, strict': (v) => funnel([{ kind: 'EventsNode', event: v }, { kind: 'EventsNode', event: 'b' }], { funnelsFilter: { funnelOrderType: 'strict', exclusions: [{ kind: 'EventsNode', event: `not ${String(v)}`, funnelFromStep: 0, funnelToStep: 1 }] } }),
    'funnel trends by person property': (v) => funnel([{ kind: 'EventsNode', event: v }, { kind: 'EventsNode', event: v }], { funnelsFilter: { funnelVizType: 'trends' }, properties: [{ key: v, value: v, type: 'person', operator: 'not_icontains' }] }),
  },
};
