// Reads a WebStatsTableQuery node: the web base fields and the table's own (breakdownBy required;
// an unknown breakdown is a 400 naming the ones Hoglet answers).
import { fail, join, readBoolean, readChoice, readOptionalInteger, type JsonObject } from '../../nodes/read-json.js';
import { readWebAnalyticsBase } from '../web-shared/read.js';
import { WEB_STATS_BREAKDOWNS, type WebStatsTableQuery } from './types.js';

const OWN_KEYS = ['breakdownBy', 'includeBounceRate', 'includeScrollDepth', 'limit', 'offset'] as const;
const MAX_LIMIT = 10_000;

export function readWebStatsTableQuery(node: JsonObject, path: string): WebStatsTableQuery {
  const base = readWebAnalyticsBase(node, path, OWN_KEYS);
  if (node.breakdownBy === undefined || node.breakdownBy === null) fail(join(path, 'breakdownBy'), 'Field required', 'required');
  return Object.freeze({
    kind: 'WebStatsTableQuery',
    ...base,
    breakdownBy: readChoice(node.breakdownBy, join(path, 'breakdownBy'), WEB_STATS_BREAKDOWNS, null)!,
    includeBounceRate: readBoolean(node.includeBounceRate, join(path, 'includeBounceRate'), false),
    includeScrollDepth: readBoolean(node.includeScrollDepth, join(path, 'includeScrollDepth'), false),
    limit: readOptionalInteger(node.limit, join(path, 'limit'), 1, MAX_LIMIT),
    offset: readOptionalInteger(node.offset, join(path, 'offset'), 0, 1_000_000) ?? 0,
  });
}
