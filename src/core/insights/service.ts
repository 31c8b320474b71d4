// Insight use cases: list, create, retrieve (with its result under PostHog's refresh modes),
// update (soft delete and restore included), views and the activity log. Every read and write is
// by project AND id (or short_id).
import type { JsonObject } from '../../query/nodes/read-json.js';
import { LRUCache } from 'lru-cache';
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../../errors.js';
import { listRefreshMode, type RefreshMode } from '../../query/cache/policy.js';
import type { InsightQuery } from '../../query/nodes/schema.js';
import type { InsightChanges, InsightRow } from '../../storage/meta/repositories/insights.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { ProjectRow, VisibleProjectRow } from '../../storage/meta/repositories/projects.js';
import { parseJson } from '../../storage/meta/json.js';
import type { AccessResolver } from '../access.js';
import { activityPage, diffChanges, recordActivity, updateActivity, type Change } from '../activity.js';
import { MembershipLevel, type Principal } from '../auth/principal.js';
import type { InsightQueryService } from '../queries/service.js';
import type { QueryResults, ResultOutcome } from '../queries/results.js';
import { nowIso } from '../tokens.js';
import { setInsightDashboards } from './dashboard-links.js';
import { checkInsightInput, type CheckedInsightInput, type InsightInput } from './input.js';
import type { InsightListParams } from './list-params.js';
import { insightQueryOf, withDashboardFilters } from './query-of.js';
import { generateShortId } from './short-id.js';
import { basicInsightView, insightView, type InsightViewContext } from './view.js';

export const INSIGHT_ACTIVITY_SCOPE = 'Insight';
/** Fields whose presence in an update body marks the insight as modified (PostHog's MATERIAL_INSIGHT_FIELDS, plus query). */
const MATERIAL_FIELDS = ['name', 'description', 'filters', 'query'] as const;
const LOGGED_FIELDS = ['name', 'derived_name', 'description', 'filters', 'query', 'order', 'tags', 'favorited', 'saved', 'deleted'];
const MY_LAST_VIEWED = 5;
const INSIGHT_ID = /^[1-9]\d{0,9}$/;
/** Memory for remembered insight queries, in characters of the texts they were read from. */
const RESOLVED_QUERIES_CHARS = 16 * 1024 * 1024;

/** Who reads: a member of the project through their key, or anyone holding a sharing token. */
export interface InsightReader {
  project: ProjectRow;
  userId: number | null;
  isAdmin: boolean;
  /** Set for a sharing token: the insights it opens (an insight's link: that one; a dashboard's: its tiles'). */
  sharedInsightIds: readonly number[] | null;
  /** A dashboard's link: its insights are always seen through its filters. */
  sharedDashboardId: number | null;
}

export interface Page {
  limit: number;
  offset: number;
}

function loggedValues(row: InsightRow): Record<string, unknown> {
  return {
    name: row.name,
    derived_name: row.derived_name,
    description: row.description,
    filters: parseJson(row.filters),
    query: parseJson(row.query),
    order: row.order,
    tags: JSON.parse(row.tags),
    favorited: row.favorited === 1,
    saved: row.saved === 1,
    deleted: row.deleted === 1,
  };
}

function columnChanges(input: CheckedInsightInput): InsightChanges {
  const changes: InsightChanges = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.derivedName !== undefined) changes.derived_name = input.derivedName;
  if (input.description !== undefined) changes.description = input.description;
  if (input.filters !== undefined) changes.filters = JSON.stringify(input.filters);
  if (input.query !== undefined) changes.query = input.query === null ? null : JSON.stringify(input.query);
  if (input.order !== undefined) changes.order = input.order;
  if (input.deleted !== undefined) changes.deleted = input.deleted ? 1 : 0;
  if (input.tags !== undefined) changes.tags = JSON.stringify(input.tags);
  if (input.favorited !== undefined) changes.favorited = input.favorited ? 1 : 0;
  if (input.saved !== undefined) changes.saved = input.saved ? 1 : 0;
  return changes;
}

export function insightActivityDetail(row: InsightRow, changes: Change[] | null) {
  return { changes, trigger: null, type: null, name: row.name || row.derived_name || null, short_id: row.short_id };
}

/** The reader for a member's key in a project already resolved for them. */
export function memberReader(principal: Principal, project: VisibleProjectRow): InsightReader {
  return { project, userId: principal.userId, isAdmin: project.membership_level >= MembershipLevel.admin, sharedInsightIds: null, sharedDashboardId: null };
}

export class InsightsService {
  /** Queries by the texts they derive from; bounded by those texts' size, since they hold whole queries. */
  private readonly resolved = new LRUCache<string, { value: InsightQuery | null; size: number }>({
    maxSize: RESOLVED_QUERIES_CHARS,
    sizeCalculation: (entry) => entry.size,
  });

  constructor(
    private readonly repositories: Repositories,
    private readonly access: AccessResolver,
    private readonly queries: InsightQueryService,
    private readonly results: QueryResults,
  ) {}

  /** The reader for a member's key. */
  async reader(principal: Principal, projectParam: string): Promise<InsightReader> {
    return memberReader(principal, await this.access.project(principal, projectParam));
  }

  async list(reader: InsightReader, params: InsightListParams & { basic: boolean; refresh: RefreshMode }, page: Page): Promise<{ count: number; results: object[] }> {
    const filter = reader.sharedInsightIds === null ? params.filter : { ...params.filter, ids: [...reader.sharedInsightIds] };
    const { count, rows } = await this.repositories.insights.list(reader.project.id, filter, params.order, page);
    const context = await this.viewContext(reader, rows);
    if (params.basic) return { count, results: rows.map((row) => basicInsightView(row, context)) };
    // A list of several rows never waits for calculations (listRefreshMode): rows are read side by side.
    const mode = listRefreshMode(params.refresh, rows.length);
    const outcomes = await Promise.all(rows.map((row) => this.resultOf(reader, row, mode, reader.sharedDashboardId)));
    return { count, results: rows.map((row, i) => insightView(row, context, outcomes[i]!)) };
  }

  async create(principal: Principal, projectParam: string, input: InsightInput) {
    const reader = await this.reader(principal, projectParam);
    const { project } = reader;
    const checked = checkInsightInput(input);
    const now = nowIso();
    const row = await this.repositories.transaction(async (repos) => {
      const shortId = checked.shortId ?? (await this.freeShortId(repos, project.id));
      if (checked.shortId !== undefined && (await repos.insights.shortIdTaken(project.id, shortId))) {
        throw new ValidationError('An insight with this short_id already exists in this project.', 'short_id', 'unique');
      }
      const inserted = await repos.insights.insert({
        team_id: project.id,
        short_id: shortId,
        name: checked.name ?? null,
        derived_name: checked.derivedName ?? null,
        description: checked.description ?? null,
        filters: JSON.stringify(checked.filters ?? {}),
        query: checked.query ? JSON.stringify(checked.query) : null,
        order: checked.order ?? null,
        deleted: checked.deleted ? 1 : 0,
        saved: checked.saved ? 1 : 0,
        favorited: checked.favorited ? 1 : 0,
        is_sample: 0,
        tags: JSON.stringify(checked.tags ?? []),
        created_by: principal.userId,
        last_modified_by: principal.userId,
        created_at: now,
        updated_at: now,
        last_modified_at: now,
      });
      if (checked.dashboards && checked.dashboards.length > 0) await setInsightDashboards(repos, project.id, inserted.id, checked.dashboards, now);
      // The creator has seen it: it shows in their my_last_viewed.
      await repos.insightViews.record(project.id, principal.userId, [inserted.id], now);
      await recordActivity(repos.activityLog, {
        organizationId: project.organization_id,
        projectId: project.id,
        userId: principal.userId,
        scope: INSIGHT_ACTIVITY_SCOPE,
        itemId: String(inserted.id),
        activity: 'created',
        detail: insightActivityDetail(inserted, null),
      });
      return inserted;
    });
    return this.show(reader, row, 'force_cache', null);
  }

  async get(reader: InsightReader, idParam: string, options: { refresh: RefreshMode; fromDashboard: number | null; clientQueryId?: string | undefined }) {
    const row = await this.findLive(reader, idParam);
    return this.show(reader, row, options.refresh, reader.sharedDashboardId ?? options.fromDashboard, options.clientQueryId);
  }

  async update(principal: Principal, projectParam: string, idParam: string, input: InsightInput) {
    const reader = await this.reader(principal, projectParam);
    const { project } = reader;
    const checked = checkInsightInput({ ...input, short_id: undefined });
    const row = await this.repositories.transaction(async (repos) => {
      const before = await this.find(repos, project.id, idParam);
      // A deleted insight is only reachable by the request that restores it.
      if (!before || (before.deleted === 1 && checked.deleted !== false)) throw new NotFoundError();
      const now = nowIso();
      const changes: InsightChanges = { ...columnChanges(checked), updated_at: now, is_sample: 0 };
      // PostHog: `saved` is a leftover of a removed feature; any update saves unless told otherwise.
      if (checked.saved === undefined) changes.saved = 1;
      if (MATERIAL_FIELDS.some((field) => Object.hasOwn(input, field))) {
        changes.last_modified_at = now;
        changes.last_modified_by = principal.userId;
      }
      await repos.insights.update(project.id, before.id, changes);
      const after = { ...before, ...changes } as InsightRow;
      const activityChanges = diffChanges(INSIGHT_ACTIVITY_SCOPE, LOGGED_FIELDS, loggedValues(before), loggedValues(after));
      if (checked.dashboards !== undefined) {
        const linked = await setInsightDashboards(repos, project.id, before.id, checked.dashboards, now);
        if (linked) activityChanges.push({ type: INSIGHT_ACTIVITY_SCOPE, action: 'changed', field: 'dashboards', before: linked.before, after: linked.after });
      }
      if (after.deleted === 1 && before.deleted === 0) await repos.dashboards.deleteTilesOfInsight(project.id, before.id);
      if (activityChanges.length > 0) {
        const activity = updateActivity(before.deleted === 1, after.deleted === 1);
        await recordActivity(repos.activityLog, {
          organizationId: project.organization_id,
          projectId: project.id,
          userId: principal.userId,
          scope: INSIGHT_ACTIVITY_SCOPE,
          itemId: String(before.id),
          activity,
          detail: insightActivityDetail(after, activityChanges),
        });
      }
      return after;
    });
    return this.show(reader, row, 'force_cache', null);
  }

  /** PostHog never hard-deletes insights: DELETE is 405 (PATCH {"deleted": true} instead). */
  async refuseDelete(principal: Principal, projectParam: string, idParam: string): Promise<never> {
    await this.findLive(await this.reader(principal, projectParam), idParam);
    throw new MethodNotAllowedError('DELETE', true);
  }

  /** Records views of live insights of the project; other ids are skipped silently. */
  async viewed(principal: Principal, projectParam: string, insightIds: readonly number[]): Promise<void> {
    const { project } = await this.reader(principal, projectParam);
    const live = await this.repositories.insights.liveIds(project.id, insightIds);
    await this.repositories.insightViews.record(project.id, principal.userId, live, nowIso());
  }

  async viewedOne(principal: Principal, projectParam: string, idParam: string): Promise<void> {
    const reader = await this.reader(principal, projectParam);
    const row = await this.findLive(reader, idParam);
    await this.repositories.insightViews.record(reader.project.id, principal.userId, [row.id], nowIso());
  }

  async myLastViewed(principal: Principal, projectParam: string) {
    const reader = await this.reader(principal, projectParam);
    const recent = await this.repositories.insightViews.recent(reader.project.id, principal.userId, MY_LAST_VIEWED);
    const order = recent.map((view) => view.insight_id);
    const { rows: found } = await this.repositories.insights.list(reader.project.id, { ids: order }, null, { limit: MY_LAST_VIEWED, offset: 0 });
    const rows = found.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
    const context = await this.viewContext(reader, rows);
    return rows.map((row) => basicInsightView(row, context));
  }

  async activity(principal: Principal, projectParam: string, idParam: string | null, page: { limit: number; page: number }) {
    const reader = await this.reader(principal, projectParam);
    let itemId: string | null = null;
    if (idParam !== null) {
      const row = await this.find(this.repositories, reader.project.id, idParam);
      if (!row) throw new NotFoundError();
      itemId = String(row.id);
    }
    return activityPage(this.repositories.activityLog, reader.project.id, INSIGHT_ACTIVITY_SCOPE, itemId, page);
  }

  /** A live insight the reader may see, by id or short_id. */
  async findLive(reader: InsightReader, idParam: string): Promise<InsightRow> {
    const row = await this.find(this.repositories, reader.project.id, idParam);
    if (!row || row.deleted === 1) throw new NotFoundError();
    if (reader.sharedInsightIds !== null && !reader.sharedInsightIds.includes(row.id)) throw new NotFoundError();
    return row;
  }

  /** One insight as retrieve shows it, with its result under `refresh`. */
  async show(reader: InsightReader, row: InsightRow, refresh: RefreshMode, fromDashboard: number | null, clientQueryId?: string, filtersOverride: JsonObject | null = null) {
    const context = await this.viewContext(reader, [row]);
    return insightView(row, context, await this.resultOf(reader, row, refresh, fromDashboard, clientQueryId, filtersOverride));
  }

  /** A purely numeric value is tried as the id first, then as a short_id (PostHog's lookup). */
  private async find(repos: Repositories, teamId: number, idParam: string): Promise<InsightRow | undefined> {
    // No id holds a NUL (and PostgreSQL refuses one in any text it is sent).
    if (idParam.includes('\0')) return undefined;
    if (INSIGHT_ID.test(idParam) && Number(idParam) <= 2 ** 31 - 1) {
      const row = await repos.insights.findById(teamId, Number(idParam));
      if (row) return row;
    }
    return idParam.length <= 12 ? repos.insights.findByShortId(teamId, idParam) : undefined;
  }

  private async freeShortId(repos: Repositories, teamId: number): Promise<string> {
    for (;;) {
      const candidate = generateShortId();
      if (!(await repos.insights.shortIdTaken(teamId, candidate))) return candidate;
    }
  }

  /** The result; from a dashboard, seen through its filters (with `filtersOverride`'s keys in their place). */
  private async resultOf(reader: InsightReader, row: InsightRow, mode: RefreshMode, fromDashboard: number | null, clientQueryId?: string, filtersOverride: JsonObject | null = null): Promise<ResultOutcome | null> {
    let dashboardFilters: Record<string, unknown> | null = null;
    if (fromDashboard !== null) {
      const dashboard = await this.repositories.dashboards.findById(reader.project.id, fromDashboard);
      if (!dashboard || dashboard.deleted === 1) throw new ValidationError('Dashboard not found.', 'from_dashboard');
      dashboardFilters = { ...(JSON.parse(dashboard.filters) as Record<string, unknown>), ...filtersOverride };
    }
    const query = this.resolveQuery(reader.project, row, dashboardFilters);
    if (!query) return null;
    return this.results.get({ project: reader.project, query, mode, clientQueryId, insightId: row.id, dashboardId: fromDashboard });
  }

  /**
   * The query an insight runs. Remembered by the texts it derives from (the same node object each
   * time, whose cache-key digest is remembered too), since validating and hashing the node are
   * most of a cached read's work.
   */
  private resolveQuery(project: ProjectRow, row: InsightRow, dashboardFilters: Record<string, unknown> | null): InsightQuery | null {
    const memoKey = `${project.id}|${row.query}|${row.filters}|${dashboardFilters ? JSON.stringify(dashboardFilters) : ''}`;
    const known = this.resolved.get(memoKey);
    if (known) return known.value;
    const own = insightQueryOf(parseJson(row.query), parseJson(row.filters));
    const query = own && dashboardFilters ? withDashboardFilters(own, dashboardFilters) : own;
    // The key's text and the node built from it: about twice the text.
    this.resolved.set(memoKey, { value: query, size: 2 * memoKey.length });
    return query;
  }

  private async viewContext(reader: InsightReader, rows: readonly InsightRow[]): Promise<InsightViewContext> {
    const ids = rows.map((r) => r.id);
    const shared = reader.sharedInsightIds !== null;
    // A shared view shows no user, so none is read.
    const userIds = shared ? [] : rows.flatMap((r) => [r.created_by, r.last_modified_by]).filter((id): id is number => id !== null);
    const [users, tiles, lastViewed] = await Promise.all([
      this.repositories.users.findMembers(reader.project.organization_id, userIds),
      this.repositories.dashboards.tilesOfInsights(reader.project.id, ids),
      reader.userId === null ? new Map<number, string>() : this.repositories.insightViews.lastViewed(reader.project.id, reader.userId, ids),
    ]);
    const tilesByInsight = new Map<number, typeof tiles>();
    for (const tile of tiles) tilesByInsight.set(tile.insight_id, [...(tilesByInsight.get(tile.insight_id) ?? []), tile]);
    return {
      users: new Map(users.map((u) => [u.id, u])),
      tiles: tilesByInsight,
      lastViewed,
      timezone: this.queries.clockOf(reader.project).timezone,
      shared,
      accessLevel: (row) =>
        shared ? 'viewer' : row.created_by === reader.userId || reader.isAdmin ? 'manager' : 'editor',
    };
  }
}

