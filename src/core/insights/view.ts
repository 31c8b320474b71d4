// PostHog's InsightSerializer output (full) and InsightBasicSerializer output (basic=true).
import type { InsightTileRow } from '../../storage/meta/repositories/dashboards.js';
import type { InsightRow } from '../../storage/meta/repositories/insights.js';
import type { UserRow } from '../../storage/meta/repositories/users.js';
import { parseJson } from '../../storage/meta/json.js';
import { userView, type UserView } from '../accounts/identity.js';
import type { ResultOutcome } from '../queries/results.js';
import { NO_HOGQL } from '../queries/service.js';

/** Dashboard.RestrictionLevel: everyone in the project can edit (Hoglet has no restricted dashboards). */
export const EVERYONE_IN_PROJECT_CAN_EDIT = 21;
/** Dashboard.PrivilegeLevel.CAN_EDIT. */
export const CAN_EDIT = 37;
/** Dashboard.PrivilegeLevel.CAN_VIEW. */
export const CAN_VIEW = 21;
/** What PostHog's shared view reports: Dashboard.RestrictionLevel.ONLY_COLLABORATORS_CAN_EDIT ... */
const SHARED_RESTRICTION_LEVEL = 37;
/** ... and Dashboard.PrivilegeLevel.CAN_VIEW. */
const SHARED_PRIVILEGE_LEVEL = 21;

/** What a page of insights is shown with, fetched once per page. */
export interface InsightViewContext {
  users: ReadonlyMap<number, UserRow>;
  tiles: ReadonlyMap<number, InsightTileRow[]>;
  lastViewed: ReadonlyMap<number, string>;
  timezone: string;
  /** Read through a sharing token: anyone holding the link sees it. */
  shared: boolean;
  /** 'manager' for the creator or an organization admin, 'editor' otherwise; 'viewer' when shared. */
  accessLevel: (row: InsightRow) => 'manager' | 'editor' | 'viewer';
}

const userOf = (users: ReadonlyMap<number, UserRow>, id: number | null): UserView | null => {
  const user = id === null ? undefined : users.get(id);
  return user ? userView(user) : null;
};

/** Live tiles of live dashboards, as `dashboard_tiles` and `dashboards` show them. */
export function liveTiles(tiles: readonly InsightTileRow[] | undefined): InsightTileRow[] {
  return (tiles ?? []).filter((t) => !t.deleted && !t.dashboard_deleted);
}

/** Both spellings of which dashboards an insight is on: the deprecated ids and the tiles. */
function dashboardFields(row: InsightRow, context: InsightViewContext) {
  const tiles = liveTiles(context.tiles.get(row.id));
  return {
    dashboards: tiles.map((t) => t.dashboard_id),
    dashboard_tiles: tiles.map((t) => ({ id: t.id, dashboard_id: t.dashboard_id, deleted: t.deleted === null ? null : t.deleted === 1 })),
  };
}

/**
 * Who made and last changed the insight, and when. A shared insight leaves them out, as PostHog's
 * shared view does with hideExtraDetails (posthog/api/insight.py): a link never shows a user's
 * email, name or ids to whoever holds it.
 */
function authorshipFields(row: InsightRow, context: InsightViewContext) {
  if (context.shared) return {};
  return {
    created_at: row.created_at,
    created_by: userOf(context.users, row.created_by),
    last_modified_at: row.last_modified_at,
    last_modified_by: userOf(context.users, row.last_modified_by),
  };
}

/** The calculation fields: the result and where it came from, or nulls when there is none. */
export function resultFields(outcome: ResultOutcome | null, timezone: string) {
  const response = outcome?.response ?? null;
  const extra = response?.extra ?? {};
  return {
    result: response ? response.results : null,
    hasMore: response ? response.hasMore : null,
    columns: (extra.columns as unknown) ?? null,
    types: (extra.types as unknown) ?? null,
    last_refresh: response?.last_refresh ?? null,
    cache_target_age: response?.cache_target_age ?? null,
    next_allowed_client_refresh: response?.next_allowed_client_refresh ?? null,
    is_cached: outcome?.isCached ?? false,
    query_status: outcome?.queryStatus ?? null,
    hogql: (extra.hogql as unknown) ?? NO_HOGQL,
    timezone: response?.timezone ?? timezone,
    resolved_date_range: (extra.resolved_date_range as unknown) ?? null,
  };
}

export function insightView(row: InsightRow, context: InsightViewContext, outcome: ResultOutcome | null) {
  return {
    id: row.id,
    short_id: row.short_id,
    name: row.name,
    derived_name: row.derived_name,
    filters: parseJson<Record<string, unknown>>(row.filters) ?? {},
    query: parseJson<unknown>(row.query),
    order: row.order,
    deleted: row.deleted === 1,
    ...dashboardFields(row, context),
    ...resultFields(outcome, context.timezone),
    ...authorshipFields(row, context),
    description: row.description,
    updated_at: row.updated_at,
    tags: JSON.parse(row.tags) as string[],
    favorited: row.favorited === 1,
    saved: row.saved === 1,
    is_sample: row.is_sample === 1,
    effective_restriction_level: context.shared ? SHARED_RESTRICTION_LEVEL : EVERYONE_IN_PROJECT_CAN_EDIT,
    effective_privilege_level: context.shared ? SHARED_PRIVILEGE_LEVEL : CAN_EDIT,
    user_access_level: context.accessLevel(row),
    alerts: [] as unknown[],
    last_viewed_at: context.lastViewed.get(row.id) ?? null,
  };
}

export type InsightView = ReturnType<typeof insightView>;

export function basicInsightView(row: InsightRow, context: InsightViewContext) {
  return {
    id: row.id,
    short_id: row.short_id,
    name: row.name,
    derived_name: row.derived_name,
    favorited: row.favorited === 1,
    filters: parseJson<Record<string, unknown>>(row.filters) ?? {},
    query: parseJson<unknown>(row.query),
    ...dashboardFields(row, context),
    description: row.description,
    last_refresh: null,
    refreshing: false,
    saved: row.saved === 1,
    updated_at: row.updated_at,
    ...(context.shared
      ? {}
      : { created_by: userOf(context.users, row.created_by), created_at: row.created_at, last_modified_at: row.last_modified_at }),
    tags: JSON.parse(row.tags) as string[],
    user_access_level: context.accessLevel(row),
    last_viewed_at: context.lastViewed.get(row.id) ?? null,
  };
}

/** An insight's display name, as PostHog's __str__ and activity logs use it. */
export const insightDisplayName = (row: Pick<InsightRow, 'name' | 'derived_name' | 'short_id'>): string =>
  row.name || row.derived_name || row.short_id;
