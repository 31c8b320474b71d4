// The legacy correlation body (/insights/funnel/correlation/): the funnel's legacy filter plus
// PostHog's funnel_correlation_* keys, as a FunnelCorrelationQuery.
import { ValidationError } from '../../../errors.js';
import { funnelsQueryFromFilters } from '../../nodes/legacy-filters.js';
import type { JsonObject } from '../../nodes/read-json.js';
import type { FunnelCorrelationQuery } from '../../nodes/schema.js';
import { readCorrelationQuery } from './read.js';

const KEYS: Record<string, string> = {
  funnel_correlation_type: 'funnelCorrelationType',
  funnel_correlation_names: 'funnelCorrelationNames',
  funnel_correlation_exclude_names: 'funnelCorrelationExcludeNames',
  funnel_correlation_event_names: 'funnelCorrelationEventNames',
  funnel_correlation_exclude_event_names: 'funnelCorrelationExcludeEventNames',
  funnel_correlation_event_exclude_property_names: 'funnelCorrelationEventExcludePropertyNames',
};

export function correlationQueryFromFilters(filters: JsonObject): FunnelCorrelationQuery {
  const funnel = funnelsQueryFromFilters(filters);
  const node: JsonObject = { kind: 'FunnelCorrelationQuery', source: { kind: 'FunnelsActorsQuery', source: funnel } };
  for (const [legacy, modern] of Object.entries(KEYS)) if (filters[legacy] !== undefined) node[modern] = filters[legacy];
  try {
    return readCorrelationQuery(node, '');
  } catch (error) {
    if (!(error instanceof ValidationError) || error.attr === null) throw error;
    const legacy = Object.entries(KEYS).find(([, modern]) => error.attr === modern || error.attr!.startsWith(`${modern}[`));
    throw new ValidationError(error.detail, legacy ? `${legacy[0]}${error.attr.slice(legacy[1].length)}` : error.attr.replace(/^source\.source\./, ''), error.code);
  }
}
