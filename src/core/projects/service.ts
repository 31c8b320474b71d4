// Project use cases: list, create, read, update, delete, reset the token, rotate the secret key,
// read the activity log.
import { ConflictError, PermissionDeniedError, ValidationError } from '../../errors.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { AccessResolver } from '../access.js';
import { activityPage, detail, diffChanges, recordActivity, type Change } from '../activity.js';
import { MembershipLevel, type Principal } from '../auth/principal.js';
import { newProjectApiToken, nowIso, uuidv7 } from '../tokens.js';
import {
  MERGED_ON_UPDATE,
  PROJECT_SETTING_NAMES,
  defaultValue,
  type ProjectSettingName,
} from './settings-catalog.js';
import { backupDeletion, ProjectSecretTokens, rotation } from './secret-tokens.js';
import { assertNoNullCharacters, validateSettings } from './validate-settings.js';
import { fullProjectView, readSettings, reducedProjectView } from './view.js';

/** The activity-log scope PostHog files project changes under. */
export const PROJECT_ACTIVITY_SCOPE = 'Team';
const DEFAULT_PROJECT_NAME = 'Default project';
const LOGGED_FIELDS = ['name', 'api_token', ...PROJECT_SETTING_NAMES] as const;

export interface ProjectInput {
  name?: string | undefined;
  [setting: string]: unknown;
}

export interface Page {
  limit: number;
  offset: number;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function requireAdmin(level: number, message: string): void {
  if (level < MembershipLevel.admin) throw new PermissionDeniedError(message);
}

function cleanName(name: string): string {
  // DRF trims CharField input before checking it.
  const trimmed = name.trim();
  assertNoNullCharacters(trimmed, 'name');
  if (trimmed === '') throw new ValidationError('This field may not be blank.', 'name', 'blank');
  return trimmed;
}

/** primary_dashboard must be a live dashboard of the project (a new project has none yet). */
async function checkPrimaryDashboard(
  repositories: Repositories,
  projectId: number | null,
  settings: Partial<Record<ProjectSettingName, unknown>>,
): Promise<void> {
  const id = settings.primary_dashboard;
  if (id === undefined || id === null) return;
  const dashboard = projectId === null ? undefined : await repositories.dashboards.findById(projectId, id as number);
  if (!dashboard || dashboard.deleted === 1) throw new ValidationError('Dashboard does not belong to this team.', 'primary_dashboard');
}

function loggedValues(row: ProjectRow): Record<string, unknown> {
  return { name: row.name, api_token: row.api_token, ...readSettings(row) };
}

/** What a project's life means outside the metadata store (events, capture tokens, demo data). */
export interface ProjectEffects {
  /** A capture token stopped being valid (reset or project deleted). */
  tokenRevoked(): Promise<void>;
  /** Deletes the project's events, persons and groups. */
  purgeEvents(projectId: number): Promise<void>;
  /** Starts filling a new demo project in the background. */
  startDemoData(projectId: number): void;
  isGeneratingDemoData(projectId: number): boolean;
  /** A project's row changed (settings, name, token) or it was deleted: caches of rows forget it. */
  changed?(): void;
}

export class ProjectsService {
  private readonly knownIngested = new Set<number>();
  /** Secret keys -> projects, for the local-evaluation routes. */
  readonly secretTokens: ProjectSecretTokens;

  constructor(
    private readonly repositories: Repositories,
    private readonly access: AccessResolver,
    private readonly effects: ProjectEffects,
  ) {
    this.secretTokens = new ProjectSecretTokens(repositories);
  }

  /** The first stored event of a project sets `ingested_event` (once; later calls cost nothing). */
  async markIngested(projectIds: readonly number[]): Promise<void> {
    for (const id of projectIds) {
      if (this.knownIngested.has(id)) continue;
      await this.repositories.transaction(async (repos) => {
        const row = await repos.projects.findById(id);
        if (!row) return;
        const settings = JSON.parse(row.settings) as Record<string, unknown>;
        if (settings.ingested_event === true) return;
        settings.ingested_event = true;
        await repos.projects.update(row.id, row.organization_id, { settings: JSON.stringify(settings) });
      });
      this.knownIngested.add(id);
    }
  }

  async list(principal: Principal, organizationParam: string, page: Page) {
    const organization = await this.access.organization(principal, organizationParam);
    const { count, rows } = await this.repositories.projects.listInOrganization(
      organization.id,
      principal.scopedTeams,
      page,
    );
    return { count, results: rows.map(reducedProjectView) };
  }

  async create(principal: Principal, organizationParam: string, input: ProjectInput) {
    const organization = await this.access.organization(principal, organizationParam);
    requireAdmin(organization.membership_level, 'You need to be an organization admin or above to create new projects.');
    const row = await this.createInOrganization(principal.userId, organization.id, input);
    if (readSettings(row).is_demo === true) this.effects.startDemoData(row.id);
    return fullProjectView(row, organization.membership_level);
  }

  /** Creation without an API caller, for `hoglet bootstrap`; the user becomes its creator. */
  async createInOrganization(userId: number, organizationId: string, input: ProjectInput): Promise<ProjectRow> {
    const settings = validateSettings(input);
    await checkPrimaryDashboard(this.repositories, null, settings);
    const stored: Record<string, unknown> = {};
    for (const name of PROJECT_SETTING_NAMES) stored[name] = settings[name] ?? defaultValue(name);
    return this.repositories.transaction(async (repos) => {
      const name = input.name === undefined ? await this.freeDefaultName(repos, organizationId) : cleanName(input.name);
      await this.assertNameFree(repos, organizationId, name, null);
      const now = nowIso();
      const row = await repos.projects.insert({
        uuid: uuidv7(),
        organization_id: organizationId,
        name,
        api_token: newProjectApiToken(),
        settings: JSON.stringify(stored),
        created_at: now,
        updated_at: now,
      });
      await recordActivity(repos.activityLog, {
        organizationId,
        projectId: row.id,
        userId,
        scope: PROJECT_ACTIVITY_SCOPE,
        itemId: String(row.id),
        activity: 'created',
        detail: detail(row.name),
      });
      // As in PostHog, the creator switches to the new project.
      await repos.users.setCurrent(userId, organizationId, row.id);
      return row;
    });
  }

  async get(principal: Principal, projectParam: string, organizationParam?: string) {
    const project = await this.access.project(principal, projectParam, organizationParam);
    return fullProjectView(project, project.membership_level);
  }

  /** The id of a project the caller may see (404 otherwise), without building its view: the SDK polls ask many times a second. */
  async visibleId(principal: Principal, projectParam: string): Promise<number> {
    return (await this.access.project(principal, projectParam)).id;
  }

  async update(principal: Principal, projectParam: string, organizationParam: string | undefined, input: ProjectInput) {
    const project = await this.access.project(principal, projectParam, organizationParam);
    const settings = validateSettings(input);
    await checkPrimaryDashboard(this.repositories, project.id, settings);
    const before = readSettings(project);
    const next: Record<string, unknown> = { ...JSON.parse(project.settings) };
    for (const [name, value] of Object.entries(settings) as Array<[ProjectSettingName, unknown]>) {
      const old = before[name];
      next[name] = MERGED_ON_UPDATE.has(name) && isPlainObject(old) && isPlainObject(value) ? { ...old, ...value } : value;
    }
    const name = input.name === undefined ? project.name : cleanName(input.name);
    const updated = await this.repositories.transaction(async (repos) => {
      if (name !== project.name) await this.assertNameFree(repos, project.organization_id, name, project.id);
      const changes = { name, settings: JSON.stringify(next), updated_at: nowIso() };
      await repos.projects.update(project.id, project.organization_id, changes);
      const row = { ...project, ...changes };
      await this.logChanges(repos, principal.userId, project, row);
      return row;
    });
    this.effects.changed?.();
    return fullProjectView(updated, project.membership_level);
  }

  async delete(principal: Principal, projectParam: string, organizationParam?: string): Promise<void> {
    const project = await this.access.project(principal, projectParam, organizationParam);
    requireAdmin(project.membership_level, "You don't have sufficient permissions in the project.");
    await this.repositories.transaction((repos) => repos.projects.delete(project.id, project.organization_id));
    this.effects.changed?.();
    this.secretTokens.clear();
    await this.effects.tokenRevoked();
    await this.effects.purgeEvents(project.id);
  }

  async resetToken(principal: Principal, projectParam: string, organizationParam?: string) {
    const project = await this.access.project(principal, projectParam, organizationParam);
    requireAdmin(project.membership_level, "You don't have sufficient permissions in the project.");
    const updated = await this.repositories.transaction(async (repos) => {
      const changes = { api_token: newProjectApiToken(), updated_at: nowIso() };
      await repos.projects.update(project.id, project.organization_id, changes);
      const row = { ...project, ...changes };
      await this.logChanges(repos, principal.userId, project, row);
      return row;
    });
    this.effects.changed?.();
    await this.effects.tokenRevoked();
    return fullProjectView(updated, project.membership_level);
  }

  /** PostHog's rotate_secret_token: a new primary key, the old primary kept as the backup. */
  async rotateSecretToken(principal: Principal, projectParam: string, organizationParam?: string) {
    return this.changeSecretTokens(principal, projectParam, organizationParam, rotation);
  }

  /** PostHog's delete_secret_token_backup: the backup stops working; nothing logged without one. */
  async deleteSecretTokenBackup(principal: Principal, projectParam: string, organizationParam?: string) {
    return this.changeSecretTokens(principal, projectParam, organizationParam, (row) =>
      row.secret_api_token_backup === null ? null : { columns: { secret_api_token_backup: null }, change: backupDeletion(row.secret_api_token_backup) },
    );
  }

  private async changeSecretTokens(
    principal: Principal,
    projectParam: string,
    organizationParam: string | undefined,
    change: (row: ProjectRow) => { columns: Partial<Pick<ProjectRow, 'secret_api_token' | 'secret_api_token_backup'>>; change: Change } | null,
  ) {
    const project = await this.access.project(principal, projectParam, organizationParam);
    requireAdmin(project.membership_level, "You don't have sufficient permissions in the project.");
    const updated = await this.repositories.transaction(async (repos) => {
      // Read again inside the transaction: two rotations at once must not both keep the same backup.
      const current = (await repos.projects.findById(project.id)) ?? project;
      const next = change(current);
      if (!next) return current;
      const changes = { ...next.columns, updated_at: nowIso() };
      await repos.projects.update(project.id, project.organization_id, changes);
      await recordActivity(repos.activityLog, {
        organizationId: project.organization_id,
        projectId: project.id,
        userId: principal.userId,
        scope: PROJECT_ACTIVITY_SCOPE,
        itemId: String(project.id),
        activity: 'updated',
        detail: detail(current.name, [next.change]),
      });
      return { ...current, ...changes };
    });
    this.secretTokens.clear();
    this.effects.changed?.();
    await this.effects.tokenRevoked();
    return fullProjectView(updated, project.membership_level);
  }

  async activity(
    principal: Principal,
    projectParam: string,
    organizationParam: string | undefined,
    page: { limit: number; page: number },
  ) {
    const project = await this.access.project(principal, projectParam, organizationParam);
    return activityPage(this.repositories.activityLog, project.id, PROJECT_ACTIVITY_SCOPE, String(project.id), page);
  }

  async isGeneratingDemoData(principal: Principal, projectParam: string, organizationParam?: string) {
    const project = await this.access.project(principal, projectParam, organizationParam);
    return { is_generating_demo_data: this.effects.isGeneratingDemoData(project.id) };
  }

  private async logChanges(repos: Repositories, userId: number, before: ProjectRow, after: ProjectRow): Promise<void> {
    const changes = diffChanges(PROJECT_ACTIVITY_SCOPE, LOGGED_FIELDS, loggedValues(before), loggedValues(after));
    if (changes.length === 0) return;
    await recordActivity(repos.activityLog, {
      organizationId: after.organization_id,
      projectId: after.id,
      userId,
      scope: PROJECT_ACTIVITY_SCOPE,
      itemId: String(after.id),
      activity: 'updated',
      detail: detail(after.name, changes),
    });
  }

  private async assertNameFree(repos: Repositories, organizationId: string, name: string, selfId: number | null) {
    const existing = await repos.projects.findByNameInOrganization(organizationId, name);
    if (existing && existing.id !== selfId) {
      throw new ConflictError(`There is already a project called "${name}" in this organization. Choose a different name.`);
    }
  }

  private async freeDefaultName(repos: Repositories, organizationId: string): Promise<string> {
    const taken = new Set((await repos.projects.listBasicInOrganization(organizationId)).map((p) => p.name));
    let name = DEFAULT_PROJECT_NAME;
    for (let n = 2; taken.has(name); n++) name = `${DEFAULT_PROJECT_NAME} ${n}`;
    return name;
  }
}
