// Legacy paths filters (/insights/path/, `insight: "PATHS"`) as a PathsQuery, PostHog's
// filter_to_query: snake_case keys to pathsFilter, path_type as one event type.
import { ValidationError } from '../../../errors.js';
import { dateRange, funnelsQueryFromFilters } from '../../nodes/legacy-filters.js';
import { isObject, type JsonObject } from '../../nodes/read-json.js';
import type { PathsQuery } from '../../nodes/schema.js';
import { readPathsQuery } from './read.js';

const KEYS: Record<string, string> = {
  include_event_types: 'includeEventTypes',
  start_point: 'startPoint',
  end_point: 'endPoint',
  step_limit: 'stepLimit',
  path_groupings: 'pathGroupings',
  exclude_events: 'excludeEvents',
  path_replacements: 'pathReplacements',
  local_path_cleaning_filters: 'localPathCleaningFilters',
  edge_limit: 'edgeLimit',
  min_edge_weight: 'minEdgeWeight',
  max_edge_weight: 'maxEdgeWeight',
  paths_hogql_expression: 'pathsHogQLExpression',
};

export function pathsQueryFromFilters(filters: JsonObject): PathsQuery {
  const pathsFilter: JsonObject = {};
  for (const [legacy, modern] of Object.entries(KEYS)) if (filters[legacy] !== undefined) pathsFilter[modern] = filters[legacy];
  // The older single `path_type` names one event type.
  if (pathsFilter.includeEventTypes === undefined && typeof filters.path_type === 'string') pathsFilter.includeEventTypes = [filters.path_type];
  // Funnel paths: the funnel is the legacy filter's own events/actions and funnel keys (funnel_filter), at funnel_step.
  const funnel = filters.funnel_paths !== undefined && filters.funnel_paths !== null
    ? { funnelPathType: filters.funnel_paths, funnelStep: (filters.funnel_filter as JsonObject | undefined)?.funnel_step, funnelSource: isObject(filters.funnel_filter) ? funnelsQueryFromFilters(filters.funnel_filter) : undefined }
    : undefined;
  try {
    return readPathsQuery({
      kind: 'PathsQuery',
      dateRange: dateRange(filters),
      properties: filters.properties,
      filterTestAccounts: filters.filter_test_accounts,
      pathsFilter,
      ...(funnel ? { funnelPathsFilter: funnel } : {}),
    }, '');
  } catch (error) {
    if (!(error instanceof ValidationError) || error.attr === null) throw error;
    const legacy = Object.entries(KEYS).find(([, modern]) => error.attr === `pathsFilter.${modern}` || error.attr!.startsWith(`pathsFilter.${modern}[`));
    const attr = legacy ? `${legacy[0]}${error.attr.slice(`pathsFilter.${legacy[1]}`.length)}` : error.attr === 'funnelPathsFilter' ? 'funnel_paths' : error.attr.replace(/^dateRange\./, '');
    throw new ValidationError(error.detail, attr, error.code);
  }
}
