// Request and response schemas of the Insights and sharing APIs (PostHog's serializers).
import { Type } from 'typebox';
import { AnyJson, Nullable } from './common.js';
import { UserBasic } from './identity.js';

/**
 * The writable fields; anything else (the read-only fields included) is dropped. The query node
 * and filters are checked in core/insights/input.ts.
 */
export const InsightWriteBody = Type.Object(
  {
    short_id: Type.Optional(Type.String({ maxLength: 12, description: 'on create only; 8 random characters when absent' })),
    name: Type.Optional(Nullable(Type.String({ maxLength: 400 }))),
    derived_name: Type.Optional(Nullable(Type.String({ maxLength: 400 }))),
    description: Type.Optional(Nullable(Type.String({ maxLength: 400 }))),
    filters: Type.Optional(AnyJson('legacy filters dict, e.g. {"insight": "TRENDS", "events": [...]}')),
    query: Type.Optional(AnyJson('a query node, e.g. {"kind": "InsightVizNode", "source": {"kind": "TrendsQuery", ...}}')),
    order: Type.Optional(Nullable(Type.Integer({ minimum: -2147483648, maximum: 2147483647 }))),
    deleted: Type.Optional(Type.Boolean({ description: 'true soft-deletes the insight, false restores it' })),
    dashboards: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { maxItems: 1000, description: 'DEPRECATED: dashboard ids; use dashboard_tiles' })),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1000 })),
    favorited: Type.Optional(Type.Boolean()),
    saved: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const Tile = Type.Object({ id: Type.Integer(), dashboard_id: Type.Integer(), deleted: Nullable(Type.Boolean()) });

const AccessLevel = Type.Union([Type.Literal('manager'), Type.Literal('editor'), Type.Literal('viewer')], {
  description: 'manager for the creator or an organization admin, editor for other members, viewer through a sharing token',
});

/** A background calculation's status (PostHog's QueryStatus), set while an async refresh runs. */
export const QueryStatus = Type.Object({
  id: Type.String({ description: 'the client_query_id, or one made up' }),
  team_id: Type.Integer(),
  insight_id: Nullable(Type.Integer()),
  dashboard_id: Nullable(Type.Integer()),
  query_async: Type.Literal(true),
  complete: Type.Boolean(),
  error: Type.Boolean(),
  error_message: Nullable(Type.String()),
  results: AnyJson('the finished response, once complete'),
  start_time: Type.String({ format: 'date-time' }),
  end_time: Nullable(Type.String({ format: 'date-time' })),
  expiration_time: Type.String({ format: 'date-time' }),
  pickup_time: Nullable(Type.String({ format: 'date-time' })),
  task_id: Type.String(),
  query_progress: Type.Null(),
});

const absentWhenShared = 'absent when read through a sharing token';

/**
 * PostHog's InsightSerializer, every field Hoglet answers (core/insights/view.ts insightView), in
 * its order. The answers hold exactly these keys: test/http/insight-response-schema.test.ts checks
 * it, so a field added to the view without being added here fails there, not in a client.
 */
export const Insight = Type.Object(
  {
    id: Type.Integer(),
    short_id: Type.String(),
    name: Nullable(Type.String()),
    derived_name: Nullable(Type.String()),
    filters: Type.Object({}, { additionalProperties: true, description: 'legacy filters dict ({} when the insight has a query)' }),
    query: AnyJson('the query node, e.g. {"kind": "InsightVizNode", "source": {"kind": "TrendsQuery", ...}}; null for a filters-only insight'),
    order: Nullable(Type.Integer()),
    deleted: Type.Boolean(),
    dashboards: Type.Array(Type.Integer(), { description: 'DEPRECATED: ids of the dashboards it is on; use dashboard_tiles' }),
    dashboard_tiles: Type.Array(Tile),
    result: AnyJson('the query result (trend series, funnel steps, ...); null when not calculated'),
    hasMore: Nullable(Type.Boolean()),
    columns: AnyJson('column names, for the kinds that have them; otherwise null'),
    types: AnyJson('column types, for the kinds that have them; otherwise null'),
    last_refresh: Nullable(Type.String({ format: 'date-time' })),
    cache_target_age: Nullable(Type.String({ format: 'date-time' })),
    next_allowed_client_refresh: Nullable(Type.String({ format: 'date-time' })),
    is_cached: Type.Boolean(),
    query_status: Nullable(QueryStatus),
    // Typed unknown: the view passes on a runner's extra field, which is the HogQL text or absent.
    hogql: Type.Unsafe<unknown>(Nullable(Type.String({ description: 'the HogQL the query ran as, for the kinds that have it' }))),
    timezone: Type.String(),
    resolved_date_range: AnyJson('{date_from, date_to} the result covers; null when not calculated'),
    created_at: Type.Optional(Type.String({ format: 'date-time', description: absentWhenShared })),
    created_by: Type.Optional(Nullable(UserBasic)),
    last_modified_at: Type.Optional(Type.String({ format: 'date-time', description: absentWhenShared })),
    last_modified_by: Type.Optional(Nullable(UserBasic)),
    description: Nullable(Type.String()),
    updated_at: Type.String({ format: 'date-time' }),
    tags: Type.Array(Type.String()),
    favorited: Type.Boolean(),
    saved: Type.Boolean(),
    is_sample: Type.Boolean(),
    effective_restriction_level: Type.Integer(),
    effective_privilege_level: Type.Integer(),
    user_access_level: AccessLevel,
    alerts: Type.Array(AnyJson(), { description: 'always empty: Hoglet has no alerts' }),
    last_viewed_at: Nullable(Type.String({ format: 'date-time', description: "the caller's last view" })),
  },
  { title: 'Insight' },
);

/** PostHog's InsightBasicSerializer (core/insights/view.ts basicInsightView): `?basic=true` and my_last_viewed. */
export const InsightBasic = Type.Object(
  {
    id: Type.Integer(),
    short_id: Type.String(),
    name: Nullable(Type.String()),
    derived_name: Nullable(Type.String()),
    favorited: Type.Boolean(),
    filters: Insight.properties.filters,
    query: Insight.properties.query,
    dashboards: Insight.properties.dashboards,
    dashboard_tiles: Type.Array(Tile),
    description: Nullable(Type.String()),
    last_refresh: Type.Null({ description: 'never calculated in this form' }),
    refreshing: Type.Boolean(),
    saved: Type.Boolean(),
    updated_at: Type.String({ format: 'date-time' }),
    created_by: Type.Optional(Nullable(UserBasic)),
    created_at: Type.Optional(Type.String({ format: 'date-time', description: absentWhenShared })),
    last_modified_at: Type.Optional(Type.String({ format: 'date-time', description: absentWhenShared })),
    tags: Type.Array(Type.String()),
    user_access_level: AccessLevel,
    last_viewed_at: Nullable(Type.String({ format: 'date-time', description: "the caller's last view" })),
  },
  { title: 'InsightBasic' },
);

/** The list: full insights, or the basic form with `?basic=true`. */
export const InsightListItem = Type.Union([Insight, InsightBasic]);

export const InsightListQuery = Type.Object({
  limit: Type.Optional(Type.String()),
  offset: Type.Optional(Type.String()),
  refresh: Type.Optional(Type.String({ description: 'force_cache (default), blocking, async, lazy_async, force_blocking, force_async' })),
  basic: Type.Optional(Type.String({ description: 'true: the basic fields, never calculated' })),
  format: Type.Optional(Type.String({ description: 'json (default) or csv' })),
  short_id: Type.Optional(Type.String()),
  created_by: Type.Optional(Type.String({ description: 'JSON list of user ids, e.g. [1,2]' })),
  user: Type.Optional(Type.String({ description: 'present: only insights created by the caller' })),
  favorited: Type.Optional(Type.String({ description: 'present: only favorited insights' })),
  saved: Type.Optional(Type.String({ description: 'true: saved or on a dashboard; false: unsaved' })),
  search: Type.Optional(Type.String({ description: 'case-insensitive, in name, derived name, description and tags' })),
  dashboards: Type.Optional(Type.String({ description: 'JSON list of dashboard ids, all of which the insight is on' })),
  tags: Type.Optional(Type.String({ description: 'JSON list of tags, any of which the insight has' })),
  order: Type.Optional(Type.String({ description: 'a field, optionally prefixed with -: order, name, created_at, updated_at, last_modified_at, id, short_id' })),
  sharing_access_token: Type.Optional(Type.String({ description: 'read a shared insight without a key' })),
});

export const InsightRetrieveQuery = Type.Object({
  refresh: Type.Optional(Type.String({ description: 'force_cache (default), blocking, async, lazy_async, force_blocking, force_async' })),
  from_dashboard: Type.Optional(Type.String({ description: "a dashboard id: apply that dashboard's filters and date range" })),
  format: Type.Optional(Type.String({ description: 'json (default) or csv' })),
  sharing_access_token: Type.Optional(Type.String({ description: 'read a shared insight without a key' })),
  client_query_id: Type.Optional(Type.String({ maxLength: 200, pattern: '^[^\\u0000]*$', description: 'names the calculation, for cancel and for polling /query/:id/' })),
});

export const SharingConfiguration = Type.Object({
  created_at: Nullable(Type.String({ format: 'date-time' })),
  enabled: Type.Boolean(),
  access_token: Type.String(),
  settings: AnyJson(),
  password_required: Type.Boolean(),
  share_passwords: Type.Array(AnyJson()),
});

export const SharingWriteBody = Type.Object({ enabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

export const ViewedBody = Type.Object(
  { insight_ids: Type.Array(Type.Integer({ minimum: -2147483648, maximum: 2147483647 }), { minItems: 1, maxItems: 2500 }) },
  { additionalProperties: false },
);
