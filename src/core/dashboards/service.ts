// Dashboards: named collections of insight tiles with filters and a date range that override
// their insights'. Soft-deleted only (PATCH {"deleted": true}); DELETE is refused like insights'.
import type { JsonObject } from '../../query/nodes/read-json.js';
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../../errors.js';
import { diffChanges, recordActivity, updateActivity, type Change } from '../activity.js';
import type { RefreshMode } from '../../query/cache/policy.js';
import type { DashboardChanges, DashboardRow } from '../../storage/meta/repositories/dashboards.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { AccessResolver } from '../access.js';
import { userView } from '../accounts/identity.js';
import { cleanTags } from '../actions/validate.js';
import type { Principal } from '../auth/principal.js';
import { cleanCharField } from '../insights/input.js';
import { checkDashboardFilters, MAX_JSON_DEPTH } from '../insights/query-of.js';
import { jsonDepth } from '../json-depth.js';
import type { InsightInput } from '../insights/input.js';
import { memberReader, type InsightReader, type InsightsService } from '../insights/service.js';
import { CAN_EDIT, CAN_VIEW, EVERYONE_IN_PROJECT_CAN_EDIT } from '../insights/view.js';
import { nowIso } from '../tokens.js';
import { sortTilesByLayout } from './tile-order.js';

const DASHBOARD_ID = /^[1-9]\d{0,9}$/;
/** PostHog's scope for a dashboard's entries (its model_activity_signal handler). */
export const DASHBOARD_ACTIVITY_SCOPE = 'Dashboard';
/** The dashboard's own fields; tiles are rows of their own, whose layout changes PostHog does not log. */
const LOGGED_FIELDS = ['name', 'description', 'pinned', 'filters', 'tags', 'deleted'];

function loggedValues(row: DashboardRow): Record<string, unknown> {
  return { name: row.name, description: row.description, pinned: row.pinned === 1, filters: JSON.parse(row.filters) as unknown, tags: JSON.parse(row.tags) as unknown, deleted: row.deleted === 1 };
}

const activityDetail = (row: DashboardRow, changes: Change[] | null) => ({ changes, trigger: null, name: row.name, short_id: null, type: 'dashboard' as const });

export interface DashboardInput {
  name?: string | null | undefined;
  description?: string | undefined;
  pinned?: boolean | undefined;
  filters?: unknown;
  tags?: string[] | undefined;
  deleted?: boolean | undefined;
  tiles?: { id: number; layouts?: unknown; color?: string | null; deleted?: boolean }[] | undefined;
  /** Create only: copy this dashboard's filters and live tiles (PostHog's duplicate). */
  use_dashboard?: number | undefined;
  /** Create only, with use_dashboard: each tile gets a copy of its insight named "<name> (Copy)". */
  duplicate_tiles?: boolean | undefined;
}

export function parseDashboardId(text: string): number {
  if (!DASHBOARD_ID.test(text) || Number(text) > 2 ** 31 - 1) throw new NotFoundError();
  return Number(text);
}

function changesOf(input: DashboardInput): DashboardChanges {
  const changes: DashboardChanges = {};
  if (input.name !== undefined) changes.name = cleanCharField(input.name)!;
  if (input.description !== undefined) changes.description = cleanCharField(input.description)!;
  if (input.pinned !== undefined) changes.pinned = input.pinned ? 1 : 0;
  if (input.filters !== undefined) changes.filters = JSON.stringify(input.filters === null ? {} : checkDashboardFilters(input.filters));
  if (input.tags !== undefined) changes.tags = JSON.stringify(cleanTags(input.tags));
  if (input.deleted !== undefined) changes.deleted = input.deleted ? 1 : 0;
  return changes;
}

export class DashboardsService {
  constructor(
    private readonly repositories: Repositories,
    private readonly access: AccessResolver,
    private readonly insights: InsightsService,
  ) {}

  /** Live dashboards, pinned first; `search` narrows them to a name or description containing it. */
  async list(principal: Principal, projectParam: string, search: string | null, page: { limit: number; offset: number }) {
    const project = await this.access.project(principal, projectParam);
    const { count, rows } = await this.repositories.dashboards.listLive(project.id, search, page);
    const users = await this.usersOf(project.organization_id, rows);
    const shared = await this.repositories.sharing.sharedDashboardIds(project.id, rows.map((row) => row.id));
    return { count, results: rows.map((row) => this.basicView(row, users, shared.has(row.id))) };
  }

  async create(principal: Principal, projectParam: string, input: DashboardInput) {
    const project = await this.access.project(principal, projectParam);
    const changes = changesOf(input);
    const now = nowIso();
    const { row, copied } = await this.repositories.transaction(async (repos) => {
      const source = input.use_dashboard === undefined ? null : await repos.dashboards.findById(project.id, input.use_dashboard);
      // PostHog looks the source up in the project, deleted or not; anything else is "Invalid value".
      if (input.use_dashboard !== undefined && !source) throw new ValidationError('Invalid value provided', 'use_dashboard');
      // The request's filters when it has some, else the source's (PostHog's `request_filters or existing.filters`).
      const filters = changes.filters !== undefined && changes.filters !== '{}' ? changes.filters : (source?.filters ?? changes.filters ?? '{}');
      const row = await repos.dashboards.insert({
        team_id: project.id,
        name: changes.name ?? null,
        description: changes.description ?? '',
        pinned: changes.pinned ?? 0,
        filters,
        tags: changes.tags ?? '[]',
        restriction_level: EVERYONE_IN_PROJECT_CAN_EDIT,
        deleted: changes.deleted ?? 0,
        created_by: principal.userId,
        created_at: now,
        last_accessed_at: null,
      });
      await recordActivity(repos.activityLog, {
        organizationId: project.organization_id,
        projectId: project.id,
        userId: principal.userId,
        scope: DASHBOARD_ACTIVITY_SCOPE,
        itemId: String(row.id),
        activity: 'created',
        detail: activityDetail(row, null),
      });
      const copied = source ? (await repos.dashboards.tilesOfDashboard(project.id, source.id)).filter((tile) => tile.deleted !== 1) : [];
      // A plain duplicate shares the insights: new tiles on the same insights, same places.
      if (!input.duplicate_tiles) {
        for (const tile of copied) await repos.dashboards.insertTile(project.id, { ...tile, dashboard_id: row.id, created_at: now });
      }
      return { row, copied: input.duplicate_tiles ? copied : [] };
    });
    // A deep duplicate: each live insight copied (through the insights service, so its activity is
    // logged) onto the new dashboard, its tile in the source tile's place.
    for (const tile of copied) {
      const insight = await this.repositories.insights.findById(project.id, tile.insight_id);
      if (!insight || insight.deleted === 1) continue;
      const copy = await this.insights.create(principal, projectParam, {
        name: insight.name ? `${insight.name} (Copy)` : null,
        derived_name: insight.derived_name,
        description: insight.description ?? undefined,
        filters: JSON.parse(insight.filters) as unknown,
        query: insight.query === null ? null : (JSON.parse(insight.query) as unknown),
        tags: JSON.parse(insight.tags) as string[],
        saved: insight.saved === 1,
        dashboards: [row.id],
      } satisfies InsightInput);
      const [placed] = (await this.repositories.dashboards.tilesOfDashboard(project.id, row.id)).filter((t) => t.insight_id === copy.id);
      if (placed) await this.repositories.dashboards.updateTile(project.id, row.id, placed.id, { layouts: tile.layouts, color: tile.color });
    }
    return this.fullView(memberReader(principal, project), row, 'force_cache');
  }

  /**
   * The dashboard and its tiles; `filtersOverride` (PostHog's `?filters_override=`) replaces some
   * of its filters for this answer only: the tiles and `filters` show them, `persisted_filters`
   * what is stored.
   */
  async get(principal: Principal, projectParam: string, idParam: string, refresh: RefreshMode, filtersOverride: unknown = null) {
    const override = filtersOverride === null ? null : checkDashboardFilters(filtersOverride);
    const project = await this.access.project(principal, projectParam);
    const row = await this.repositories.dashboards.findById(project.id, parseDashboardId(idParam));
    if (!row || row.deleted === 1) throw new NotFoundError();
    return this.fullView(memberReader(principal, project), row, refresh, override);
  }

  /**
   * The dashboard a sharing token opens, read-only: its tiles through its stored filters, no
   * user's details, no overrides. Any other dashboard is 404.
   */
  async getShared(reader: InsightReader, idParam: string, refresh: RefreshMode) {
    const row = await this.repositories.dashboards.findById(reader.project.id, parseDashboardId(idParam));
    if (!row || row.deleted === 1 || row.id !== reader.sharedDashboardId) throw new NotFoundError();
    return this.fullView(reader, row, refresh);
  }

  async update(principal: Principal, projectParam: string, idParam: string, input: DashboardInput) {
    const project = await this.access.project(principal, projectParam);
    const id = parseDashboardId(idParam);
    const row = await this.repositories.transaction(async (repos) => {
      const before = await repos.dashboards.findById(project.id, id);
      if (!before || (before.deleted === 1 && input.deleted !== false)) throw new NotFoundError();
      const changes = changesOf(input);
      if (Object.keys(changes).length > 0) await repos.dashboards.update(project.id, id, changes);
      if (input.tiles) {
        const tiles = new Map((await repos.dashboards.tilesOfDashboard(project.id, id)).map((t) => [t.id, t]));
        for (const [i, tile] of input.tiles.entries()) {
          if (!tiles.has(tile.id)) throw new ValidationError(`Tile ${tile.id} is not on this dashboard.`, `tiles__${i}__id`, 'does_not_exist');
          const tileChanges: { layouts?: string; color?: string | null; deleted?: number } = {};
          if (tile.layouts !== undefined) {
            if (jsonDepth(tile.layouts, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new ValidationError(`Nested deeper than ${MAX_JSON_DEPTH} levels.`, `tiles__${i}__layouts`);
            tileChanges.layouts = JSON.stringify(tile.layouts ?? {});
          }
          if (tile.color !== undefined) tileChanges.color = cleanCharField(tile.color) ?? null;
          if (tile.deleted !== undefined) tileChanges.deleted = tile.deleted ? 1 : 0;
          if (Object.keys(tileChanges).length > 0) await repos.dashboards.updateTile(project.id, id, tile.id, tileChanges);
        }
      }
      const after = { ...before, ...changes } as DashboardRow;
      const logged = diffChanges(DASHBOARD_ACTIVITY_SCOPE, LOGGED_FIELDS, loggedValues(before), loggedValues(after));
      if (logged.length > 0) {
        await recordActivity(repos.activityLog, {
          organizationId: project.organization_id,
          projectId: project.id,
          userId: principal.userId,
          scope: DASHBOARD_ACTIVITY_SCOPE,
          itemId: String(id),
          activity: updateActivity(before.deleted === 1, after.deleted === 1),
          detail: activityDetail(after, logged),
        });
      }
      return after;
    });
    return this.fullView(memberReader(principal, project), row, 'force_cache');
  }

  async refuseDelete(principal: Principal, projectParam: string, idParam: string): Promise<never> {
    const project = await this.access.project(principal, projectParam);
    const row = await this.repositories.dashboards.findById(project.id, parseDashboardId(idParam));
    if (!row || row.deleted === 1) throw new NotFoundError();
    throw new MethodNotAllowedError('DELETE', true);
  }

  private async usersOf(organizationId: string, rows: readonly DashboardRow[]) {
    const users = await this.repositories.users.findMembers(organizationId, rows.map((r) => r.created_by).filter((id): id is number => id !== null));
    return new Map(users.map((u) => [u.id, userView(u)]));
  }

  /** PostHog's DashboardBasicSerializer; read through a link (`viewer`), no user is shown. */
  private basicView(row: DashboardRow, users: Map<number, ReturnType<typeof userView>>, isShared: boolean, viewer = false) {
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      pinned: row.pinned === 1,
      created_at: row.created_at,
      created_by: row.created_by === null || viewer ? null : (users.get(row.created_by) ?? null),
      last_accessed_at: row.last_accessed_at,
      last_viewed_at: null,
      is_shared: isShared,
      deleted: row.deleted === 1,
      creation_mode: 'default',
      tags: JSON.parse(row.tags) as string[],
      restriction_level: row.restriction_level,
      effective_restriction_level: row.restriction_level,
      effective_privilege_level: viewer ? CAN_VIEW : CAN_EDIT,
      user_access_level: viewer ? 'viewer' : 'editor',
      // PostHog: "v1" only for dashboards restricted the old way (above everyone-can-edit).
      access_control_version: row.restriction_level > EVERYONE_IN_PROJECT_CAN_EDIT ? 'v1' : 'v2',
      last_refresh: null,
      team_id: row.team_id,
    };
  }

  /**
   * The dashboard with its filters and its live tiles in reading order, each tile's insight seen
   * through the dashboard's filters. Tiles have PostHog's DashboardTileSerializer fields; text and
   * button tiles, tile filter overrides and tile display options do not exist in Hoglet, so those
   * fields are always empty.
   */
  private async fullView(reader: InsightReader, row: DashboardRow, refresh: RefreshMode, filtersOverride: JsonObject | null = null) {
    const viewer = reader.sharedDashboardId !== null;
    const users = viewer ? new Map() : await this.usersOf(reader.project.organization_id, [row]);
    const isShared = viewer || (await this.repositories.sharing.sharedDashboardIds(row.team_id, [row.id])).has(row.id);
    const live = [];
    for (const tile of await this.repositories.dashboards.tilesOfDashboard(row.team_id, row.id)) {
      if (tile.deleted === 1) continue;
      const insight = await this.repositories.insights.findById(row.team_id, tile.insight_id);
      if (!insight || insight.deleted === 1) continue;
      live.push({ tile, insight, layouts: JSON.parse(tile.layouts) as unknown });
    }
    const tiles = [];
    for (const [order, { tile, insight, layouts }] of sortTilesByLayout(live).entries()) {
      const shown = await this.insights.show(reader, insight, refresh, row.deleted === 1 ? null : row.id, undefined, filtersOverride);
      tiles.push({
        id: tile.id,
        insight: shown,
        text: null,
        button_tile: null,
        layouts,
        color: tile.color,
        filters_overrides: {},
        show_description: null,
        transparent_background: null,
        order,
        last_refresh: shown.last_refresh,
        is_cached: shown.is_cached,
        deleted: tile.deleted === null ? null : false,
      });
    }
    const persisted = JSON.parse(row.filters) as Record<string, unknown>;
    return {
      ...this.basicView(row, users, isShared, viewer),
      filters: { ...persisted, ...filtersOverride },
      variables: {},
      persisted_filters: Object.keys(persisted).length > 0 ? persisted : null,
      persisted_variables: null,
      data_color_theme_id: null,
      quick_filter_ids: [],
      tiles,
    };
  }
}
