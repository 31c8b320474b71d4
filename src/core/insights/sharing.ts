// Sharing an insight: a configuration with an access token that, while enabled, lets anyone read
// that one insight (and its result) without a key. PostHog's sharing.py behaviour.
import { randomBytes } from 'node:crypto';
import { PermissionDeniedError } from '../../errors.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { SharingRow } from '../../storage/meta/repositories/sharing.js';
import { recordActivity, type Change } from '../activity.js';
import type { InsightRow } from '../../storage/meta/repositories/insights.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { Principal } from '../auth/principal.js';
import { nowIso } from '../tokens.js';
import { INSIGHT_ACTIVITY_SCOPE, insightActivityDetail, type InsightReader, type InsightsService } from './service.js';

/** secrets.token_urlsafe(22): 30 characters of [A-Za-z0-9_-]. */
const newAccessToken = (): string => randomBytes(22).toString('base64url');

/** A configuration as first saved: disabled, with a fresh token. */
const newConfiguration = (teamId: number, insightId: number) => ({
  team_id: teamId,
  insight_id: insightId,
  dashboard_id: null,
  enabled: 0,
  access_token: newAccessToken(),
  created_at: nowIso(),
});

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

function sharingView(row: Pick<SharingRow, 'created_at' | 'enabled' | 'access_token'> | null) {
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
    const reader = await this.insights.reader(principal, projectParam);
    const insight = await this.insights.findLive(reader, idParam);
    const row = await this.repositories.sharing.forInsight(reader.project.id, insight.id);
    return sharingView(row ?? null);
  }

  async update(principal: Principal, projectParam: string, idParam: string, input: { enabled?: boolean | undefined }) {
    const reader = await this.insights.reader(principal, projectParam);
    const insight = await this.insights.findLive(reader, idParam);
    const { project } = reader;
    const row = await this.repositories.transaction(async (repos) => {
      const found = await repos.sharing.forInsight(project.id, insight.id);
      const existing = found ?? (await repos.sharing.insertForInsight(newConfiguration(project.id, insight.id)));
      const was = found?.enabled ?? 0;
      const enabled = input.enabled === undefined ? existing.enabled : input.enabled ? 1 : 0;
      if (enabled !== existing.enabled) await repos.sharing.update(project.id, existing.id, { enabled });
      const saved: SharingRow = { ...existing, enabled };
      if (input.enabled !== undefined && enabled !== was) {
        await logOnInsight(repos, project, principal, insight, enabled ? 'sharing enabled' : 'sharing disabled', [
          { type: INSIGHT_ACTIVITY_SCOPE, action: 'changed', field: 'sharing', before: { enabled: was === 1 }, after: { enabled: enabled === 1 } },
        ]);
      }
      return saved;
    });
    return sharingView(row);
  }

  /** A new token; the old one stops working at once. */
  async refresh(principal: Principal, projectParam: string, idParam: string) {
    const reader = await this.insights.reader(principal, projectParam);
    const insight = await this.insights.findLive(reader, idParam);
    const { project } = reader;
    const row = await this.repositories.transaction(async (repos) => {
      const existing = (await repos.sharing.forInsight(project.id, insight.id)) ?? (await repos.sharing.insertForInsight(newConfiguration(project.id, insight.id)));
      const token = newAccessToken();
      await repos.sharing.update(project.id, existing.id, { access_token: token });
      const saved: SharingRow = { ...existing, access_token: token };
      await logOnInsight(repos, project, principal, insight, 'access token refreshed', null);
      return saved;
    });
    return sharingView(row);
  }

  /**
   * The reader a sharing token grants: read-only access to its one insight. An unknown or disabled
   * token, or one used under another project's path, is refused with 403.
   */
  async readerForToken(accessToken: string, projectParam: string | null): Promise<InsightReader> {
    const refused = () => new PermissionDeniedError('The sharing access token is not valid, or sharing is disabled.');
    if (accessToken.length > 100) throw refused();
    const row = await this.repositories.sharing.byToken(accessToken);
    if (!row || row.enabled !== 1 || row.insight_id === null) throw refused();
    if (projectParam !== null && projectParam !== String(row.team_id)) throw refused();
    const project = await this.repositories.projects.findById(row.team_id);
    if (!project) throw refused();
    return { project, userId: null, isAdmin: false, sharedInsightId: row.insight_id };
  }
}
