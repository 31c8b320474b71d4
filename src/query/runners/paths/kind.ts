// Paths as a kind: PathsQuery nodes, legacy PATHS filters (/insights/path/), the project's path
// cleaning rules when pathReplacements asks for them.
import type { PathsQuery } from '../../nodes/schema.js';
import { funnelsKind } from '../funnels/kind.js';
import type { QueryKind } from '../kind.js';
import { pathActors } from './actors.js';
import { pathsTable } from './csv.js';
import { pathsQueryFromFilters } from './legacy.js';
import { readPathsQuery } from './read.js';
import { runPaths } from './runner.js';

const paths = (filter: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ kind: 'PathsQuery', dateRange: { date_from: '2024-01-01', date_to: '2024-01-07' }, pathsFilter: filter, ...extra });

export const pathsKind: QueryKind<PathsQuery> = {
  kind: 'PathsQuery',
  legacyInsight: 'PATHS',
  legacyEndpoint: 'path',
  read: readPathsQuery,
  fromFilters: pathsQueryFromFilters,
  actionIds: (query) => (query.funnelPathsFilter ? funnelsKind.actionIds(query.funnelPathsFilter.funnelSource) : []),
  appliesPathCleaning: (query) => query.pathsFilter.pathReplacements,
  cachePolicy: (query) => ({ interval: 'day', readsFromStart: query.dateRange.date_from?.trim() === 'all' }),
  run: runPaths,
  actors: pathActors,
  csv: pathsTable,
  safetyShapes: {
    'paths from a start point with cleaning, groupings and exclusions': (v) => paths({
      includeEventTypes: ['$pageview', 'custom_event'], startPoint: v, excludeEvents: [v], pathGroupings: [`${v.slice(0, 150)}*`],
      localPathCleaningFilters: [{ regex: 'a+', alias: v }],
    }, { properties: [{ key: v, value: v, operator: 'exact', type: 'event' }] }),
    'paths between two points': (v) => paths({ startPoint: v, endPoint: v, stepLimit: 4 }),
    'paths after a funnel step': (v) => paths({}, { funnelPathsFilter: { funnelPathType: 'funnel_path_between_steps', funnelStep: 2, funnelSource: { kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: v }, { kind: 'EventsNode', event: 'b' }] } } }),
  },
};
