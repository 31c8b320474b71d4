// Request and response schemas of the Dashboards API (PostHog's DashboardBasicSerializer,
// DashboardSerializer and DashboardTileSerializer in posthog/api/dashboards/dashboard.py).
import { Type } from 'typebox';
import { AnyJson, Nullable } from './common.js';
import { UserBasic } from './identity.js';
import { Insight } from './insight.js';

export const DashboardWriteBody = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ maxLength: 400 }))),
    description: Type.Optional(Type.String({ maxLength: 4000 })),
    pinned: Type.Optional(Type.Boolean()),
    filters: Type.Optional(AnyJson('{date_from, date_to, properties}: override every tile')),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1000 })),
    deleted: Type.Optional(Type.Boolean({ description: 'true soft-deletes the dashboard, false restores it' })),
    use_dashboard: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'on create: duplicate this dashboard of the project (its filters and tiles)' })),
    duplicate_tiles: Type.Optional(Type.Boolean({ description: "on create with use_dashboard: copy each tile's insight (named \"<name> (Copy)\") instead of sharing it" })),
    tiles: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
            layouts: Type.Optional(AnyJson()),
            color: Type.Optional(Nullable(Type.String({ maxLength: 400 }))),
            deleted: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        { maxItems: 1000 },
      ),
    ),
  },
  { additionalProperties: false },
);

export const DashboardListQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'page size (default 100)' })),
  offset: Type.Optional(Type.String({ description: 'index of the first result (default 0)' })),
  search: Type.Optional(Type.String({ description: 'case-insensitive text in the name or description' })),
});

/** A dashboard as the list shows it (no filters, no tiles). */
export const DashboardBasic = Type.Object(
  {
    id: Type.Integer(),
    name: Nullable(Type.String()),
    description: Type.String(),
    pinned: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    created_by: Nullable(UserBasic),
    last_accessed_at: Nullable(Type.String()),
    last_viewed_at: Nullable(Type.String()),
    is_shared: Type.Boolean(),
    deleted: Type.Boolean(),
    creation_mode: Type.String(),
    tags: Type.Array(Type.String()),
    restriction_level: Type.Integer(),
    effective_restriction_level: Type.Integer(),
    effective_privilege_level: Type.Integer(),
    user_access_level: Type.String(),
    access_control_version: Type.String(),
    last_refresh: Nullable(Type.String()),
    team_id: Type.Integer(),
  },
  { additionalProperties: true },
);

export const DashboardTile = Type.Object(
  {
    id: Type.Integer(),
    insight: Insight,
    text: Type.Null({ description: 'text tiles do not exist in Hoglet' }),
    button_tile: Type.Null(),
    layouts: AnyJson('grid positions by breakpoint, e.g. {"sm": {"x": 0, "y": 0, "w": 6, "h": 5}}'),
    color: Nullable(Type.String()),
    filters_overrides: AnyJson(),
    show_description: Nullable(Type.Boolean()),
    transparent_background: Nullable(Type.Boolean()),
    order: Type.Integer({ description: 'index in reading order: by the "sm" layout, top to bottom, then left to right' }),
    last_refresh: Nullable(Type.String()),
    is_cached: Type.Boolean(),
    deleted: Nullable(Type.Boolean()),
  },
  { additionalProperties: true },
);

/** A dashboard as create, retrieve and update answer it: the basic fields, its filters and its tiles. */
export const Dashboard = Type.Object(
  {
    ...DashboardBasic.properties,
    filters: AnyJson(),
    variables: AnyJson(),
    persisted_filters: AnyJson(),
    persisted_variables: AnyJson(),
    data_color_theme_id: Nullable(Type.Integer()),
    quick_filter_ids: Type.Array(Type.String()),
    tiles: Type.Array(DashboardTile),
  },
  { additionalProperties: true },
);
