// The legacy retention filter (/insights/retention/, `filters.insight: "RETENTION"`) as a
// RetentionQuery, following PostHog's legacy RetentionFilter and filter_to_query: 11 intervals by
// default, the returning entity defaults to the target entity, date_from is derived from date_to
// (a sent one is ignored), and entities keep only id, type, name and custom_name (their property
// filters are dropped, as PostHog drops them). Hoglet also reads breakdown/breakdown_type.
import { ValidationError } from '../../../errors.js';
import { isObject, type JsonObject } from '../../nodes/read-json.js';
import type { RetentionQuery } from '../../nodes/schema.js';
import { readRetentionQuery } from './read.js';

const LEGACY_TOTAL_INTERVALS = 11;

const LEGACY_NAMES: Record<string, string> = {
  'retentionFilter.period': 'period',
  'retentionFilter.totalIntervals': 'total_intervals',
  'retentionFilter.retentionType': 'retention_type',
  'retentionFilter.cumulative': 'cumulative',
  'retentionFilter.targetEntity': 'target_entity',
  'retentionFilter.returningEntity': 'returning_entity',
  'dateRange.date_to': 'date_to',
  filterTestAccounts: 'filter_test_accounts',
};

export function retentionQueryFromFilters(filters: JsonObject): RetentionQuery {
  const target = legacyEntity(filters.target_entity);
  const returning = filters.returning_entity === undefined || filters.returning_entity === null ? target : legacyEntity(filters.returning_entity);
  const node: JsonObject = {
    kind: 'RetentionQuery',
    dateRange: { date_to: filters.date_to },
    properties: filters.properties,
    filterTestAccounts: filters.filter_test_accounts,
    retentionFilter: {
      period: typeof filters.period === 'string' ? capitalised(filters.period) : filters.period,
      totalIntervals: filters.total_intervals ?? LEGACY_TOTAL_INTERVALS,
      targetEntity: target,
      returningEntity: returning,
      retentionType: filters.retention_type,
      cumulative: filters.cumulative,
    },
    breakdownFilter: filters.breakdown === undefined || filters.breakdown === null ? null : {
      breakdown: filters.breakdown,
      breakdown_type: filters.breakdown_type === 'events' ? 'event' : filters.breakdown_type,
      breakdown_limit: filters.breakdown_limit,
      breakdown_group_type_index: filters.breakdown_group_type_index,
    },
    // Legacy bodies read aggregation_group_type_index 0 as "users"; N > 0 is group type N.
    ...([undefined, null, 0, '0'].includes(filters.aggregation_group_type_index as never) ? {} : { aggregation_group_type_index: filters.aggregation_group_type_index }),
  };
  try {
    return readRetentionQuery(node, '');
  } catch (error) {
    if (!(error instanceof ValidationError) || error.attr === null) throw error;
    const attr = error.attr;
    const prefix = Object.keys(LEGACY_NAMES).find((name) => attr === name || attr.startsWith(`${name}.`));
    throw new ValidationError(error.detail, prefix ? `${LEGACY_NAMES[prefix]}${attr.slice(prefix.length)}` : attr, error.code);
  }
}

/** An entity as filter_to_query keeps it: id, type, name, custom_name (no property filters). */
function legacyEntity(value: unknown): unknown {
  if (!isObject(value)) return value;
  const { id, type, name, custom_name: customName } = value;
  return { id, type, name, custom_name: customName };
}

function capitalised(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1).toLowerCase();
}
