// Reads a RetentionQuery node with PostHog's defaults (retention_query_runner.py, schema.py):
// Day periods, 7 intervals, $pageview as both entities, recurring retention.
import { fail, join, readBoolean, readChoice, readObject, readOptionalInteger, readOptionalObject, readOptionalString, type Json, type JsonObject } from '../../nodes/read-json.js';
import { readAggregationGroup } from '../../nodes/read-funnel-fields.js';
import { readProperties } from '../../nodes/read-properties.js';
import { readBreakdownFilter, readDateRange } from '../../nodes/read-query.js';
import { RETENTION_PERIODS, RETENTION_TYPES, type RetentionEntity, type RetentionQuery } from '../../nodes/schema.js';

/** PostHog's RetentionQuery default since 2025 (older runners defaulted to 11). */
export const DEFAULT_TOTAL_INTERVALS = 7;
/** Each row carries this many offsets and the query reads that far ahead: bounded like trends' buckets. */
const MAX_TOTAL_INTERVALS = 1000;
/** PostHog's retention breakdown limit (BREAKDOWN_VALUES_LIMIT). */
export const RETENTION_BREAKDOWN_LIMIT = 25;
const NAME_LENGTH = 400;
const DEFAULT_ENTITY: JsonObject = { id: '$pageview', type: 'events' };

export function readRetentionQuery(node: JsonObject, path: string): RetentionQuery {
  const filterPath = join(path, 'retentionFilter');
  const filter = readOptionalObject(node.retentionFilter, filterPath) ?? {};
  refuseUnsupported(filter, filterPath);
  const minimumOccurrences = readOptionalInteger(filter.minimumOccurrences, join(filterPath, 'minimumOccurrences'), 1, 10_000) ?? 1;
  return Object.freeze({
    kind: 'RetentionQuery',
    dateRange: readDateRange(node.dateRange, join(path, 'dateRange')),
    properties: readProperties(node.properties, join(path, 'properties'), { sessions: true }),
    filterTestAccounts: readBoolean(node.filterTestAccounts, join(path, 'filterTestAccounts'), false),
    retentionFilter: Object.freeze({
      period: readChoice(filter.period, join(filterPath, 'period'), RETENTION_PERIODS, 'Day'),
      totalIntervals: readOptionalInteger(filter.totalIntervals, join(filterPath, 'totalIntervals'), 1, MAX_TOTAL_INTERVALS) ?? DEFAULT_TOTAL_INTERVALS,
      targetEntity: readEntity(filter.targetEntity, join(filterPath, 'targetEntity')),
      returningEntity: readEntity(filter.returningEntity, join(filterPath, 'returningEntity')),
      retentionType: readChoice(filter.retentionType, join(filterPath, 'retentionType'), RETENTION_TYPES, 'retention_recurring'),
      cumulative: readBoolean(filter.cumulative, join(filterPath, 'cumulative'), false),
      minimumOccurrences,
    }),
    breakdownFilter: readBreakdownFilter(node.breakdownFilter, join(path, 'breakdownFilter'), { defaultLimit: RETENTION_BREAKDOWN_LIMIT, oneItemList: true, cohorts: true }),
    ...readAggregationGroup(node, path),
  });
}

/**
 * PostHog's RetentionEntity: `type` events (id = event name, null = any event) or actions (id =
 * action id); a `kind` of EventsNode/ActionsNode says the same. Absent: $pageview.
 */
export function readEntity(value: Json, path: string): RetentionEntity {
  const entity = value === undefined || value === null ? DEFAULT_ENTITY : readObject(value, path);
  const kindType = entity.kind === 'ActionsNode' ? 'actions' : entity.kind === 'EventsNode' ? 'events' : null;
  const type = readChoice(entity.type, join(path, 'type'), ['events', 'actions'] as const, kindType ?? 'events');
  const common = {
    name: readOptionalString(entity.name, join(path, 'name'), NAME_LENGTH),
    custom_name: readOptionalString(entity.custom_name, join(path, 'custom_name'), NAME_LENGTH),
    properties: readProperties(entity.properties, join(path, 'properties'), { sessions: true }),
  };
  if (type === 'actions') {
    const id = readOptionalInteger(typeof entity.id === 'string' && /^\d+$/.test(entity.id) ? Number(entity.id) : entity.id, join(path, 'id'), 1, Number.MAX_SAFE_INTEGER);
    if (id === null) fail(join(path, 'id'), 'An actions entity needs the id of an action.', 'required');
    return Object.freeze({ kind: 'ActionsNode', id, ...common });
  }
  // An events entity names its event in id (PostHog's entities), or in `event` as an EventsNode does.
  const event = entity.id !== undefined ? entity.id : entity.event;
  return Object.freeze({ kind: 'EventsNode', event: readOptionalString(event, join(path, 'id'), NAME_LENGTH), ...common });
}

const set = (value: Json): boolean => value !== undefined && value !== null && value !== false && value !== '';

/** Newer RetentionFilter fields that change PostHog's answer and that Hoglet does not compute yet. */
function refuseUnsupported(filter: JsonObject, path: string): void {
  if (set(filter.timeWindowMode) && filter.timeWindowMode !== 'strict_calendar_dates') {
    fail(join(path, 'timeWindowMode'), 'Only calendar intervals (strict_calendar_dates) are supported for retention yet.');
  }
  if (set(filter.aggregationType) && filter.aggregationType !== 'count') {
    fail(join(path, 'aggregationType'), 'Only counting actors (aggregationType "count") is supported for retention yet.');
  }
  if (set(filter.retentionCustomBrackets)) fail(join(path, 'retentionCustomBrackets'), 'Custom retention brackets are not supported yet.');
}
