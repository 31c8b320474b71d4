// Retention as a kind: RetentionQuery nodes, legacy RETENTION filters (/insights/retention/), the
// actions its two entities name.
import type { RetentionQuery } from '../../nodes/schema.js';
import type { QueryKind } from '../kind.js';
import { retentionCohortActors } from './actors.js';
import { retentionTable } from './csv.js';
import { retentionQueryFromFilters } from './legacy.js';
import { PERIOD_INTERVAL } from './range.js';
import { readRetentionQuery } from './read.js';
import { runRetention } from './runner.js';

const retention = (filter: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ kind: 'RetentionQuery', dateRange: { date_to: '2024-01-07' }, retentionFilter: { totalIntervals: 5, ...filter }, ...extra });

export const retentionKind: QueryKind<RetentionQuery> = {
  kind: 'RetentionQuery',
  legacyInsight: 'RETENTION',
  legacyEndpoint: 'retention',
  read: readRetentionQuery,
  fromFilters: retentionQueryFromFilters,
  actionIds: (query) => [query.retentionFilter.targetEntity, query.retentionFilter.returningEntity]
    .flatMap((entity) => (entity.kind === 'ActionsNode' ? [entity.id] : [])),
  cachePolicy: (query) => ({
    interval: PERIOD_INTERVAL[query.retentionFilter.period],
    // First-time retention looks for each actor's first start event in all history.
    readsFromStart: query.retentionFilter.retentionType !== 'retention_recurring' || query.dateRange.date_from?.trim() === 'all',
  }),
  run: runRetention,
  actors: retentionCohortActors,
  csv: retentionTable,
  safetyShapes: {
    'retention of an event with entity properties': (v) => retention({
      targetEntity: { id: v, type: 'events', properties: [{ key: v, value: v, operator: 'exact', type: 'event' }] },
      returningEntity: { id: v, type: 'events' },
    }),
    'retention first time by person breakdown': (v) => retention({ targetEntity: { id: v, type: 'events' }, retentionType: 'retention_first_time' }, { breakdownFilter: { breakdown: v, breakdown_type: 'person' } }),
    'retention first ever with minimum occurrences and event breakdown': (v) => retention({
      targetEntity: { id: v, type: 'events', properties: [{ key: v, value: v, operator: 'icontains', type: 'person' }] },
      retentionType: 'retention_first_ever_occurrence',
      minimumOccurrences: 2,
    }, { breakdownFilter: { breakdown: v }, properties: [{ key: v, value: v, operator: 'not_icontains' }] }),
    'retention of groups, weekly, cumulative': (v) => retention({ period: 'Week', cumulative: true, returningEntity: { id: v, type: 'events' } }, { aggregation_group_type_index: 1 }),
  },
};
