// The web analytics breakdown tables as a kind: WebStatsTableQuery nodes (no legacy filters), the
// goal's action, the project's path cleaning when asked, cached as a day-interval query that reads
// before its range (a session's fields come from all its events).
import { fail } from '../../nodes/read-json.js';
import type { QueryKind } from '../kind.js';
import { goalActionIds } from '../web-shared/filters.js';
import { readWebStatsTableQuery } from './read.js';
import { runWebStatsTable } from './runner.js';
import type { WebStatsTableQuery } from './types.js';

const table = (extra: Record<string, unknown>) => ({ kind: 'WebStatsTableQuery', breakdownBy: 'Page', dateRange: { date_from: '2024-01-01', date_to: '2024-01-07' }, properties: [], ...extra });

const cell = (value: unknown): string => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

export const webStatsTableKind: QueryKind<WebStatsTableQuery> = {
  kind: 'WebStatsTableQuery',
  legacyInsight: 'WEB_STATS_TABLE',
  legacyEndpoint: null,
  read: readWebStatsTableQuery,
  fromFilters: () => fail('filters', 'The web stats table has no legacy filters; send a WebStatsTableQuery.'),
  actionIds: goalActionIds,
  appliesPathCleaning: (query) => query.doPathCleaning,
  cachePolicy: () => ({ interval: 'day', readsFromStart: true }),
  run: runWebStatsTable,
  csv: (result) => {
    const rows = result as unknown[][];
    return [['value', 'current', 'previous'], ...rows.map((row) => [cell(row[0]), cell((row[1] as unknown[])?.[0]), cell((row[1] as unknown[])?.[1])])];
  },
  safetyShapes: {
    'web stats table of pages with filters and path cleaning': (v) => table({ doPathCleaning: true, includeBounceRate: true, properties: [
      { key: v, value: v, operator: 'exact', type: 'event' },
      { key: '$pathname', value: v, operator: 'icontains', type: 'event' },
      { key: '$channel_type', value: v, operator: 'exact', type: 'session' },
    ] }),
    'web stats table of UTM sources compared, with a custom event goal': (v) => table({ breakdownBy: 'InitialUTMSourceMediumCampaign', compareFilter: { compare: true }, conversionGoal: { customEventName: v }, properties: [{ key: v, value: [v, v], operator: 'is_not', type: 'person' }] }),
    'web stats table of regions ordered by views': (v) => table({ breakdownBy: 'Region', orderBy: ['Views', 'ASC'], properties: [{ key: '$entry_utm_source', value: v, operator: 'not_icontains', type: 'session' }, { key: '$geoip_city_name', value: v, operator: 'exact', type: 'event' }] }),
  },
};
