// Sharing an insight or a dashboard: a configuration with an access token that, while enabled,
// lets anyone read that one insight (and its result), or that dashboard and its tiles' insights
// (seen through its filters), without a key. PostHog's sharing.py behaviour.
import { randomBytes } from 'node:crypto';
import { NotFoundError, PermissionDeniedError } from '../../errors.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { SharingRow } from '../../storage/meta/repositories/sharing.js';
import { recordActivity, type Change } from '../activity.js';
import type { InsightRow } from '../../storage/meta/repositories/insights.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { Principal } from '../auth/principal.js';
import type { DashboardRow } from '../../storage/meta/repositories/dashboards.js';
import { DASHBOARD_ACTIVITY_SCOPE, parseDashboardId } from '../dashboards/service.js';
import { nowIso } from '../tokens.js';
import { INSIGHT_ACTIVITY_SCOPE, insightActivityDetail, type InsightReader, type InsightsService } from './service.js';

/** secrets.token_urlsafe(22): 30 characters of [A-Za-z0-9_-]. */
export const newAccessToken = (): string => randomBytes(22).toString('base64url');

/** A configuration as first saved: disabled, with a fresh token. */
const newConfiguration = <T extends { insight_id: number | null; dashboard_id: number | null }>(teamId: number, target: T) => ({
  team_id: teamId,
  ...target,
  enabled: 0,
  access_token: newAccessToken(),
  created_at: nowIso(),
});

/** What a configuration shares: how its row is found and created, and where changes are logged. */
interface SharingTarget {
  project: ProjectRow;
  find(repos: Repositories): Promise<SharingRow | undefined>;
  create(repos: Repositories): Promise<SharingRow>;
  log(repos: Repositories, activity: string, changes: Change[] | null): Promise<unknown>;
  /** The scope of the `changes` entries. */
  scope: string;
}

/** Sharing changes are logged on the insight, as PostHog files them. */
function logOnInsight(repos: Repositories, project: ProjectRow, principal: Principal, insight: InsightRow, activity: string, changes: Change[] | null) {
  return recordActivity(repos.activityLog, {
    organizationId: project.organization_id,
    projectId: project.id,
    userId: principal.userId,
    scope: INSIGHT_ACTIVITY_SCOPE,
    itemId: String(insight.id),
    activity,
    detail: insightActivityDetail(insight, changes),
  });
}

function logOnDashboard(repos: Repositories, project: ProjectRow, principal: Principal, dashboard: DashboardRow, activity: string, changes: Change[] | null) {
  return recordActivity(repos.activityLog, {
    organizationId: project.organization_id,
    projectId: project.id,
    userId: principal.userId,
    scope: DASHBOARD_ACTIVITY_SCOPE,
    itemId: String(dashboard.id),
    activity,
    detail: { changes, trigger: null, name: dashboard.name, short_id: null, type: 'dashboard' as const },
  });
}

export function sharingView(row: Pick<SharingRow, 'created_at' | 'enabled' | 'access_token'> | null) {
  return {
    created_at: row?.created_at ?? null,
    enabled: row ? row.enabled === 1 : false,
    access_token: row?.access_token ?? newAccessToken(),
    settings: null,
    password_required: false,
    share_passwords: [] as unknown[],
  };
}

export class InsightSharingService {
  constructor(
    private readonly repositories: Repositories,
    private readonly insights: InsightsService,
  ) {}

  /** The configuration, or an unsaved default with a fresh token when none exists. */
  async get(principal: Principal, projectParam: string, idParam: string) {
    return this.view(await this.insightTarget(principal, projectParam, idParam));
  }

  async update(principal: Principal, projectParam: string, idParam: string, input: { enabled?: boolean | undefined }) {
    return this.change(await this.insightTarget(principal, projectParam, idParam), input);
  }

  /** A new token; the old one stops working at once. */
  async refresh(principal: Principal, projectParam: string, idParam: string) {
    return this.rotate(await this.insightTarget(principal, projectParam, idParam));
  }

  getDashboard(principal: Principal, projectParam: string, idParam: string) {
    return this.dashboardTarget(principal, projectParam, idParam).then((target) => this.view(target));
  }

  updateDashboard(principal: Principal, projectParam: string, idParam: string, input: { enabled?: boolean | undefined }) {
    return this.dashboardTarget(principal, projectParam, idParam).then((target) => this.change(target, input));
  }

  refreshDashboard(principal: Principal, projectParam: string, idParam: string) {
    return this.dashboardTarget(principal, projectParam, idParam).then((target) => this.rotate(target));
  }

  private async insightTarget(principal: Principal, projectParam: string, idParam: string): Promise<SharingTarget> {
    const reader = await this.insights.reader(principal, projectParam);
    const insight = await this.insights.findLive(reader, idParam);
    const { project } = reader;
    return {
      project,
      scope: INSIGHT_ACTIVITY_SCOPE,
      find: (repos) => repos.sharing.forInsight(project.id, insight.id),
      create: (repos) => repos.sharing.insertForInsight(newConfiguration(project.id, { insight_id: insight.id, dashboard_id: null })),
      log: (repos, activity, changes) => logOnInsight(repos, project, principal, insight, activity, changes),
    };
  }

  /** A live dashboard of the project; its sharing is logged on it (scope "Dashboard"), as PostHog does. */
  private async dashboardTarget(principal: Principal, projectParam: string, idParam: string): Promise<SharingTarget> {
    const { project } = await this.insights.reader(principal, projectParam);
    const dashboard = await this.repositories.dashboards.findById(project.id, parseDashboardId(idParam));
    if (!dashboard || dashboard.deleted === 1) throw new NotFoundError();
    return {
      project,
      scope: DASHBOARD_ACTIVITY_SCOPE,
      find: (repos) => repos.sharing.forDashboard(project.id, dashboard.id),
      create: (repos) => repos.sharing.insertForDashboard(newConfiguration(project.id, { insight_id: null, dashboard_id: dashboard.id })),
      log: (repos, activity, changes) => logOnDashboard(repos, project, principal, dashboard, activity, changes),
    };
  }

  private async view(target: SharingTarget) {
    return sharingView((await target.find(this.repositories)) ?? null);
  }

  private async change(target: SharingTarget, input: { enabled?: boolean | undefined }) {
    const { project } = target;
    const row = await this.repositories.transaction(async (repos) => {
      const found = await target.find(repos);
      const existing = found ?? (await target.create(repos));
      const was = found?.enabled ?? 0;
      const enabled = input.enabled === undefined ? existing.enabled : input.enabled ? 1 : 0;
      if (enabled !== existing.enabled) await repos.sharing.update(project.id, existing.id, { enabled });
      const saved: SharingRow = { ...existing, enabled };
      if (input.enabled !== undefined && enabled !== was) {
        await target.log(repos, enabled ? 'sharing enabled' : 'sharing disabled', [
          { type: target.scope, action: 'changed', field: 'sharing', before: { enabled: was === 1 }, after: { enabled: enabled === 1 } },
        ]);
      }
      return saved;
    });
    return sharingView(row);
  }

  private async rotate(target: SharingTarget) {
    const { project } = target;
    const row = await this.repositories.transaction(async (repos) => {
      const existing = (await target.find(repos)) ?? (await target.create(repos));
      const token = newAccessToken();
      await repos.sharing.update(project.id, existing.id, { access_token: token });
      const saved: SharingRow = { ...existing, access_token: token };
      await target.log(repos, 'access token refreshed', null);
      return saved;
    });
    return sharingView(row);
  }

  /**
   * The reader a sharing token grants: read-only access to its one insight, or to its dashboard's
   * insights. An unknown or disabled token, or one used under another project's path, is refused
   * with 403.
   */
  async readerForToken(accessToken: string, projectParam: string | null): Promise<InsightReader> {
    const refused = () => new PermissionDeniedError('The sharing access token is not valid, or sharing is disabled.');
    if (accessToken.length > 100) throw refused();
    const row = await this.repositories.sharing.byToken(accessToken);
    if (!row || row.enabled !== 1 || (row.insight_id === null && row.dashboard_id === null)) throw refused();
    if (projectParam !== null && projectParam !== String(row.team_id)) throw refused();
    const project = await this.repositories.projects.findById(row.team_id);
    if (!project) throw refused();
    const base = { project, userId: null, isAdmin: false };
    if (row.insight_id !== null) return { ...base, sharedInsightIds: [row.insight_id], sharedDashboardId: null };
    // A dashboard's link opens the insights of its live tiles, as they are now; a deleted dashboard nothing.
    const dashboard = await this.repositories.dashboards.findById(project.id, row.dashboard_id!);
    if (!dashboard || dashboard.deleted === 1) throw new NotFoundError();
    const tiles = await this.repositories.dashboards.tilesOfDashboard(project.id, dashboard.id);
    const insightIds = tiles.filter((tile) => tile.deleted !== 1).map((tile) => tile.insight_id);
    return { ...base, sharedInsightIds: insightIds, sharedDashboardId: dashboard.id };
  }
}
