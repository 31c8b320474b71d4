// PostHog's RecordingsQuery as the list's query string carries it (each value JSON where it parses,
// as PostHog's query_as_params_to_dict): events, actions, properties, operand, filter_test_accounts,
// having_predicates (and the older session_recording_duration + duration_type_filter), order. The
// events, actions and properties are read by the trends reader (a TrendsQuery stands in for them),
// so they are validated, and their actions, cohorts and HogQL resolved, exactly as an insight's.
import { ValidationError } from '../../errors.js';
import { binary, call, constant, field, not } from '../../query/ast/build.js';
import type { Expr, OrderItem } from '../../query/ast/nodes.js';
import { fromSeriesFilters } from '../../query/nodes/legacy-filters.js';
import { readTrendsQuery } from '../../query/nodes/read-query.js';
import type { PropertyFilter, PropertyGroup, SeriesNode, TrendsQuery } from '../../query/nodes/schema.js';
import type { JsonObject } from '../../query/nodes/read-json.js';

/** PostHog's RecordingOrder values, as the merged summary's columns (default start_time, descending). */
const ORDER_FIELDS: Record<string, Expr> = {
  start_time: field('first_ms'),
  duration: field('duration'),
  recording_duration: field('duration'),
  active_seconds: field('active_seconds'),
  inactive_seconds: binary('-', field('duration'), field('active_seconds')),
  console_error_count: field('errors'),
  click_count: field('clicks'),
  keypress_count: field('keypresses'),
  mouse_activity_count: field('mouse'),
  activity_score: activityScore(),
  // Every recording of a project is kept the same period: the least time left is the oldest start.
  recording_ttl: field('first_ms'),
};

/**
 * PostHog's activity score: intent (active seconds, clicks, key presses, errors) over all activity
 * (mouse, duration, console lines), in percent with two decimals.
 */
function activityScore(): Expr {
  const sum = (...names: string[]) => names.map((name) => field(name) as Expr).reduce((a, b) => binary('+', a, b));
  const intent = binary('+', binary('/', field('active_ms'), constant(1000)), sum('clicks', 'keypresses', 'errors'));
  const all = sum('mouse', 'duration', 'errors', 'logs', 'warns');
  return call('round', binary('*', binary('/', intent, all), constant(100)), constant(2));
}

/** The recording fields `having_predicates` (type "recording") compare with a number. */
const PREDICATE_FIELDS: Record<string, Expr> = {
  duration: field('duration'),
  active_seconds: field('active_seconds'),
  inactive_seconds: binary('-', field('duration'), field('active_seconds')),
  click_count: field('clicks'),
  keypress_count: field('keypresses'),
  mouse_activity_count: field('mouse'),
  console_log_count: field('logs'),
  console_warn_count: field('warns'),
  console_error_count: field('errors'),
};
const PREDICATE_OPERATORS: Record<string, '>' | '>=' | '<' | '<=' | '=' | '!='> = { gt: '>', gte: '>=', lt: '<', lte: '<=', exact: '=', is_not: '!=' };

export interface RecordingsListParams {
  date_from?: string | undefined;
  date_to?: string | undefined;
  person_uuid?: string | undefined;
  distinct_ids?: string | undefined;
  session_ids?: string | undefined;
  limit?: string | undefined;
  offset?: string | undefined;
  order?: string | undefined;
  order_direction?: string | undefined;
  having_predicates?: string | undefined;
  events?: string | undefined;
  actions?: string | undefined;
  properties?: string | undefined;
  operand?: string | undefined;
  filter_test_accounts?: string | undefined;
  session_recording_duration?: string | undefined;
  duration_type_filter?: string | undefined;
  console_log_filters?: string | undefined;
}

export interface ReadRecordingFilters {
  readonly entities: readonly SeriesNode[];
  readonly properties: readonly PropertyFilter[];
  readonly operand: 'AND' | 'OR';
  readonly predicates: readonly Expr[];
  readonly orderBy: OrderItem;
  /** Stands in for the filters when the query context is resolved (actions, cohorts, HogQL, test accounts). */
  readonly proxy: TrendsQuery;
}

function json(raw: string | undefined): unknown {
  if (raw === undefined || raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    // PostHog keeps a value that is not JSON as the text itself.
    return raw;
  }
}

function list(raw: string | undefined, attr: string): unknown[] {
  const value = json(raw);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ValidationError(`${attr} must be a JSON list`, attr);
  return value;
}

export function readRecordingFilters(params: RecordingsListParams): ReadRecordingFilters {
  const operand = params.operand ?? 'AND';
  if (operand !== 'AND' && operand !== 'OR') throw new ValidationError(`Invalid operand: ${operand}`, 'operand');
  const order = params.order ?? 'start_time';
  if (!(order in ORDER_FIELDS)) throw new ValidationError(`Invalid order: ${order}`, 'order');
  const direction = (params.order_direction ?? 'DESC').toUpperCase();
  if (direction !== 'ASC' && direction !== 'DESC') throw new ValidationError(`Invalid order_direction: ${params.order_direction}`, 'order_direction');
  const testAccounts = json(params.filter_test_accounts) ?? false;
  if (typeof testAccounts !== 'boolean') throw new ValidationError('filter_test_accounts must be true or false', 'filter_test_accounts');

  // Console messages are not kept as text (only their counts): refused rather than ignored.
  if (list(params.console_log_filters, 'console_log_filters').length > 0) {
    throw new ValidationError('Filtering recordings by console log entries is not supported yet; filter on console_error_count (having_predicates) instead.', 'console_log_filters', 'invalid_choice');
  }
  // Recording filters in `properties` compare the summary's numbers, as having_predicates do.
  const properties = list(params.properties, 'properties');
  const recordingFilters = properties.filter((p) => (p as { type?: unknown })?.type === 'recording');
  const predicates = [...list(params.having_predicates, 'having_predicates'), ...recordingFilters, ...legacyDuration(params)]
    .map((item) => predicate(item, 'having_predicates'));

  const events = list(params.events, 'events');
  const actions = list(params.actions, 'actions');
  const hasEntities = events.length + actions.length > 0;
  const filters: JsonObject = {
    // A trends query needs a series; without entities one for any event stands in, unused.
    events: (hasEntities ? events : [{ id: null }]) as JsonObject[],
    actions: actions as JsonObject[],
    properties: properties.filter((p) => !recordingFilters.includes(p)) as JsonObject[],
    filter_test_accounts: testAccounts,
  };
  const proxy = fromSeriesFilters(filters, 'TrendsQuery', {}, readTrendsQuery);
  return {
    entities: hasEntities ? proxy.series : [],
    properties: flatFilters(proxy.properties, 'properties'),
    operand,
    predicates,
    orderBy: { expr: ORDER_FIELDS[order]!, direction },
    proxy,
  };
}

/** PostHog's RecordingsQuery.properties is a flat list of filters. */
export function flatFilters(group: PropertyGroup, attr: string): PropertyFilter[] {
  return group.values.map((value) => {
    if ('values' in value) throw new ValidationError('Recording filters are a flat list of property filters, not groups.', attr);
    return value;
  });
}

/** The older client's duration filter: a recording filter with the field in duration_type_filter. */
function legacyDuration(params: RecordingsListParams): unknown[] {
  const duration = json(params.session_recording_duration);
  if (duration === undefined || duration === null) return [];
  if (typeof duration !== 'object' || Array.isArray(duration)) throw new ValidationError('session_recording_duration must be a JSON object', 'session_recording_duration');
  const key = params.duration_type_filter ?? (duration as { key?: unknown }).key ?? 'duration';
  return [{ ...duration, key }];
}

function predicate(item: unknown, attr: string): Expr {
  const { key, operator, value } = (item ?? {}) as { key?: unknown; operator?: unknown; value?: unknown };
  const refuse = () => new ValidationError(`Unsupported recording filter: ${JSON.stringify(item)?.slice(0, 200)}`, attr);
  // The recording's snapshot source ("web", "mobile") is text, compared with one of the values.
  if (key === 'snapshot_source' && (operator === 'exact' || operator === 'is_not' || operator === undefined)) {
    const values = (Array.isArray(value) ? value : [value]).map(String);
    const inList = binary('IN', field('source'), constant(values, 'Array(String)'));
    return operator === 'is_not' ? not(inList) : inList;
  }
  const expression = PREDICATE_FIELDS[String(key)];
  const op = PREDICATE_OPERATORS[String(operator ?? 'exact')];
  const number = Number(Array.isArray(value) ? value[0] : value);
  if (!expression || !op || value === null || value === '' || !Number.isFinite(number)) throw refuse();
  return binary(op, expression, constant(number, 'Float64'));
}
