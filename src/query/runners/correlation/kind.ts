// Funnel correlation as a kind: FunnelCorrelationQuery nodes, the legacy correlation body
// (/insights/funnel/correlation/), the actions of the funnel's steps; the funnel is the part
// with a date range and filters.
import type { FunnelCorrelationQuery } from '../../nodes/schema.js';
import { funnelsKind } from '../funnels/kind.js';
import type { QueryKind } from '../kind.js';
import { correlationActors } from './actors.js';
import { correlationTable } from './csv.js';
import { correlationQueryFromFilters } from './legacy.js';
import { readCorrelationQuery } from './read.js';
import { runCorrelation } from './runner.js';

const correlation = (type: string, extra: Record<string, unknown>) => ({
  kind: 'FunnelCorrelationQuery',
  funnelCorrelationType: type,
  source: { kind: 'FunnelsActorsQuery', source: { kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }, { kind: 'EventsNode', event: 'b' }], dateRange: { date_from: '2024-01-01', date_to: '2024-01-07' } } },
  ...extra,
});

export const correlationKind: QueryKind<FunnelCorrelationQuery> = {
  kind: 'FunnelCorrelationQuery',
  legacyInsight: 'FUNNEL_CORRELATION',
  legacyEndpoint: 'funnel/correlation',
  read: readCorrelationQuery,
  fromFilters: correlationQueryFromFilters,
  actionIds: (query) => funnelsKind.actionIds(query.source),
  ranged: (query) => query.source,
  withRanged: (query, change) => ({ ...query, source: change(query.source) as FunnelCorrelationQuery['source'] }),
  cachePolicy: (query) => funnelsKind.cachePolicy(query.source),
  run: runCorrelation,
  actors: correlationActors,
  csv: correlationTable,
  safetyShapes: {
    'event correlation leaving names out': (v) => correlation('events', { funnelCorrelationExcludeEventNames: [v] }),
    'property correlation of named properties': (v) => correlation('properties', { funnelCorrelationNames: [v, '$all'], funnelCorrelationExcludeNames: [v] }),
    'event property correlation': (v) => correlation('event_with_properties', { funnelCorrelationEventNames: [v], funnelCorrelationEventExcludePropertyNames: [v] }),
  },
};
