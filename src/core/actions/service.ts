// Action use cases: list, create, read, update (soft delete and restore included), and the read
// the query engine uses to expand an action into its steps.
import { creatorView } from '../accounts/identity.js';
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../../errors.js';
import type { ActionChanges, ActionWithCreatorRow } from '../../storage/meta/repositories/actions.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { AccessResolver } from '../access.js';
import { detail, diffChanges, recordActivity } from '../activity.js';
import { MembershipLevel, type Principal } from '../auth/principal.js';
import { nowIso } from '../tokens.js';
import { checkDateTime, cleanTags, cleanText, validateSteps, type ActionStep } from './validate.js';

/** The activity-log scope PostHog files action changes under. */
export const ACTION_ACTIVITY_SCOPE = 'Action';
const LOGGED_FIELDS = ['name', 'description', 'tags', 'post_to_slack', 'slack_message_format', 'steps', 'deleted', 'pinned_at'];
const ACTION_ID = /^[1-9]\d{0,9}$/;

export interface ActionInput {
  name?: string | undefined;
  description?: string | undefined;
  tags?: string[] | undefined;
  post_to_slack?: boolean | undefined;
  slack_message_format?: string | undefined;
  steps?: unknown[] | undefined;
  deleted?: boolean | undefined;
  pinned_at?: string | null | undefined;
}

/** What the query engine needs of an action. */
export interface ActionForQuery {
  id: number;
  name: string;
  steps: ActionStep[];
}

export interface Page {
  limit: number;
  offset: number;
}

function parseActionId(text: string): number {
  if (!ACTION_ID.test(text) || Number(text) > 2 ** 31 - 1) throw new NotFoundError();
  return Number(text);
}

/** PostHog's ActionSerializer output. */
function actionView(row: ActionWithCreatorRow, principal: Principal, membershipLevel: number) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    post_to_slack: row.post_to_slack === 1,
    slack_message_format: row.slack_message_format,
    steps: JSON.parse(row.steps) as ActionStep[],
    created_at: row.created_at,
    created_by: creatorView(row),
    deleted: row.deleted === 1,
    is_calculating: false,
    last_calculated_at: row.last_calculated_at,
    team_id: row.team_id,
    is_action: true,
    bytecode_error: row.bytecode_error,
    pinned_at: row.pinned_at,
    creation_context: null,
    user_access_level:
      row.created_by === principal.userId || membershipLevel >= MembershipLevel.admin ? 'manager' : 'editor',
  };
}

/** The values the activity log compares. */
function loggedValues(row: ActionWithCreatorRow): Record<string, unknown> {
  return {
    name: row.name,
    description: row.description,
    tags: JSON.parse(row.tags),
    post_to_slack: row.post_to_slack === 1,
    slack_message_format: row.slack_message_format,
    steps: JSON.parse(row.steps),
    deleted: row.deleted === 1,
    pinned_at: row.pinned_at,
  };
}

/** The changes an input asks for, checked; `pinned` is the current pin (update) or null (create). */
function changesOf(input: ActionInput, pinned: string | null, now: string): ActionChanges {
  const changes: ActionChanges = {};
  if (input.name !== undefined) changes.name = cleanText(input.name, 'name');
  if (input.description !== undefined) changes.description = cleanText(input.description, 'description', { allowBlank: true });
  if (input.tags !== undefined) changes.tags = JSON.stringify(cleanTags(input.tags));
  if (input.post_to_slack !== undefined) changes.post_to_slack = input.post_to_slack ? 1 : 0;
  if (input.slack_message_format !== undefined) {
    changes.slack_message_format = cleanText(input.slack_message_format, 'slack_message_format', { allowBlank: true });
  }
  if (input.steps !== undefined) changes.steps = JSON.stringify(validateSteps(input.steps));
  if (input.deleted !== undefined) changes.deleted = input.deleted ? 1 : 0;
  if (input.pinned_at !== undefined) {
    // As PostHog does: any date pins at the server's time (an existing pin is kept); none unpins.
    changes.pinned_at = checkDateTime(input.pinned_at, 'pinned_at') === null ? null : (pinned ?? now);
  }
  return changes;
}

export class ActionsService {
  constructor(
    private readonly repositories: Repositories,
    private readonly access: AccessResolver,
  ) {}

  async list(principal: Principal, projectParam: string, page: Page) {
    const project = await this.access.project(principal, projectParam);
    const { count, rows } = await this.repositories.actions.listLive(project.id, page);
    return { count, results: rows.map((row) => actionView(row, principal, project.membership_level)) };
  }

  async create(principal: Principal, projectParam: string, input: ActionInput) {
    const project = await this.access.project(principal, projectParam);
    if (input.name === undefined) throw new ValidationError('This field is required.', 'name', 'required');
    const now = nowIso();
    const changes = changesOf(input, null, now);
    const row = await this.repositories.transaction(async (repos) => {
      await this.assertNameFree(repos, project.id, changes.name!, null);
      const inserted = await repos.actions.insert({
        team_id: project.id,
        name: changes.name!,
        description: changes.description ?? '',
        tags: changes.tags ?? '[]',
        post_to_slack: changes.post_to_slack ?? 0,
        slack_message_format: changes.slack_message_format ?? '',
        steps: changes.steps ?? '[]',
        deleted: changes.deleted ?? 0,
        created_by: principal.userId,
        created_at: now,
        updated_at: now,
        last_calculated_at: now,
        pinned_at: changes.pinned_at ?? null,
        bytecode: null,
        bytecode_error: null,
      });
      await recordActivity(repos.activityLog, {
        organizationId: project.organization_id,
        projectId: project.id,
        userId: principal.userId,
        scope: ACTION_ACTIVITY_SCOPE,
        itemId: String(inserted.id),
        activity: 'created',
        detail: detail(inserted.name),
      });
      return (await repos.actions.findInProject(project.id, inserted.id))!;
    });
    return actionView(row, principal, project.membership_level);
  }

  async get(principal: Principal, projectParam: string, idParam: string) {
    const project = await this.access.project(principal, projectParam);
    const row = await this.repositories.actions.findInProject(project.id, parseActionId(idParam));
    if (!row) throw new NotFoundError();
    return actionView(row, principal, project.membership_level);
  }

  async update(principal: Principal, projectParam: string, idParam: string, input: ActionInput) {
    const project = await this.access.project(principal, projectParam);
    const id = parseActionId(idParam);
    const updated = await this.repositories.transaction(async (repos) => {
      const before = await repos.actions.findInProject(project.id, id);
      if (!before) throw new NotFoundError();
      const changes = changesOf(input, before.pinned_at, nowIso());
      const after = { ...before, ...changes };
      const restoring = before.deleted === 1 && after.deleted === 0;
      if (changes.name !== undefined || restoring) await this.assertNameFree(repos, project.id, after.name, id);
      const activityChanges = diffChanges(ACTION_ACTIVITY_SCOPE, LOGGED_FIELDS, loggedValues(before), loggedValues(after));
      if (activityChanges.length === 0) return before;
      after.updated_at = nowIso();
      await repos.actions.update(project.id, id, { ...changes, updated_at: after.updated_at });
      await recordActivity(repos.activityLog, {
        organizationId: project.organization_id,
        projectId: project.id,
        userId: principal.userId,
        scope: ACTION_ACTIVITY_SCOPE,
        itemId: String(id),
        activity: before.deleted === 0 && after.deleted === 1 ? 'deleted' : 'updated',
        detail: detail(after.name, activityChanges),
      });
      return after;
    });
    return actionView(updated, principal, project.membership_level);
  }

  /** PostHog forbids hard deletes of actions (soft delete with PATCH {"deleted": true}). */
  async refuseDelete(principal: Principal, projectParam: string): Promise<never> {
    await this.access.project(principal, projectParam);
    throw new MethodNotAllowedError('DELETE');
  }

  /**
   * For the query engine: the action's id, name and steps, or null when the project has no such
   * action or it is deleted. The caller has already resolved (and authorised) the project.
   */
  async getForQuery(projectId: number, actionId: number): Promise<ActionForQuery | null> {
    const row = await this.repositories.actions.findLiveSteps(projectId, actionId);
    return row ? { id: row.id, name: row.name, steps: JSON.parse(row.steps) as ActionStep[] } : null;
  }

  /** For HogQL's matchesAction('name'): the live action of that name, as its id (names are unique per project). */
  async idByName(projectId: number, name: string): Promise<number | undefined> {
    return this.repositories.actions.liveIdByName(projectId, name, null);
  }

  private async assertNameFree(repos: Repositories, projectId: number, name: string, selfId: number | null) {
    const existing = await repos.actions.liveIdByName(projectId, name, selfId);
    if (existing !== undefined) {
      throw new ValidationError(`This project already has an action with this name, ID ${existing}`, 'name', 'unique');
    }
  }
}
