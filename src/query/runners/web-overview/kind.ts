// The web analytics overview as a kind: WebOverviewQuery nodes (no legacy filters), the goal's
// action, cached as a day-interval query that reads before its range (a session's fields come
// from all its events, and "all" and compare periods read earlier days).
import { fail } from '../../nodes/read-json.js';
import type { WebOverviewQuery } from '../../nodes/schema.js';
import type { QueryKind } from '../kind.js';
import { goalActionIds } from '../web-shared/filters.js';
import { readWebOverviewQuery } from './read.js';
import type { WebOverviewItem } from './results.js';
import { runWebOverview } from './runner.js';

const overview = (extra: Record<string, unknown>) => ({ kind: 'WebOverviewQuery', dateRange: { date_from: '2024-01-01', date_to: '2024-01-07' }, properties: [], ...extra });

const cell = (n: number | null) => (n === null ? '' : String(n));

export const webOverviewKind: QueryKind<WebOverviewQuery> = {
  kind: 'WebOverviewQuery',
  legacyInsight: 'WEB_OVERVIEW',
  legacyEndpoint: null,
  read: readWebOverviewQuery,
  fromFilters: () => fail('filters', 'The web overview has no legacy filters; send a WebOverviewQuery.'),
  actionIds: goalActionIds,
  cachePolicy: () => ({ interval: 'day', readsFromStart: true }),
  run: runWebOverview,
  csv: (result) => [
    ['key', 'value', 'previous', 'changeFromPreviousPct'],
    ...(result as WebOverviewItem[]).map((item) => [item.key, cell(item.value), cell(item.previous), cell(item.changeFromPreviousPct)]),
  ],
  safetyShapes: {
    'web overview with event, person and session filters': (v) => overview({ properties: [
      { key: v, value: v, operator: 'exact', type: 'event' },
      { key: v, value: [v, v], operator: 'is_not', type: 'person' },
      { key: '$entry_pathname', value: v, operator: 'icontains', type: 'session' },
    ] }),
    'web overview compared, with a custom event goal': (v) => overview({ compareFilter: { compare: true }, conversionGoal: { customEventName: v }, properties: [{ key: '$pathname', value: v, operator: 'not_icontains', type: 'event' }] }),
    'web overview bounce mode with a session filter': (v) => overview({ modifiers: { bounceRatePageViewMode: 'uniq_page_screen_autocaptures' }, properties: [{ key: '$entry_utm_source', value: v, operator: 'exact', type: 'session' }] }),
  },
};
