// Annotation use cases, as PostHog's AnnotationsViewSet: list (search, scope, dates), create,
// read, update (soft delete and restore included). Hard deletes are refused as PostHog does.
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../../errors.js';
import type { AnnotationChanges, AnnotationReach, AnnotationWithLinksRow } from '../../storage/meta/repositories/annotations.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { AccessResolver } from '../access.js';
import { creatorView } from '../accounts/identity.js';
import { detail, diffChanges, recordActivity, updateActivity } from '../activity.js';
import type { Principal } from '../auth/principal.js';
import { nowIso } from '../tokens.js';
import {
  ANNOTATION_SCOPES,
  CREATION_TYPES,
  checkBoolean,
  checkChoice,
  checkContent,
  checkPk,
  checkScope,
  dateMarkerView,
  parseDateMarker,
} from './validate.js';

/** PostHog's Annotation model logs its changes (ModelActivityMixin) under the model's name. */
export const ANNOTATION_ACTIVITY_SCOPE = 'Annotation';
const LOGGED_FIELDS = ['content', 'date_marker', 'creation_type', 'scope', 'dashboard_item', 'dashboard_id', 'deleted'];
/** PostHog's AnnotationsLimitOffsetPagination.default_limit. */
export const ANNOTATIONS_DEFAULT_LIMIT = 1000;

export interface AnnotationListQuery {
  scope?: string | undefined;
  search?: string | undefined;
  date_from?: string | undefined;
  date_to?: string | undefined;
}

function parseId(text: string): number {
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2 ** 31 - 1) throw new NotFoundError();
  return Number(text);
}

/** PostHog's AnnotationSerializer output. */
export function annotationView(row: AnnotationWithLinksRow) {
  return {
    id: row.id,
    content: row.content,
    date_marker: dateMarkerView(row.date_marker),
    creation_type: row.creation_type,
    dashboard_item: row.dashboard_item,
    dashboard_id: row.dashboard_id,
    dashboard_name: row.dashboard_name,
    insight_short_id: row.insight_short_id,
    insight_name: row.insight_name,
    insight_derived_name: row.insight_derived_name,
    created_by: creatorView(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted: row.deleted === 1,
    scope: row.scope,
  };
}

function loggedValues(row: Pick<AnnotationWithLinksRow, 'content' | 'date_marker' | 'creation_type' | 'scope' | 'dashboard_item' | 'dashboard_id' | 'deleted'>) {
  return {
    content: row.content,
    date_marker: dateMarkerView(row.date_marker),
    creation_type: row.creation_type,
    scope: row.scope,
    dashboard_item: row.dashboard_item,
    dashboard_id: row.dashboard_id,
    deleted: row.deleted === 1,
  };
}

/** The fields a body sets, checked; an insight or dashboard must be the project's own. */
async function changesOf(repos: Repositories, teamId: number, body: Record<string, unknown>): Promise<AnnotationChanges> {
  const changes: AnnotationChanges = {};
  if (body.content !== undefined) changes.content = checkContent(body.content);
  if (body.date_marker !== undefined) changes.date_marker = parseDateMarker(body.date_marker);
  if (body.creation_type !== undefined) changes.creation_type = checkChoice(body.creation_type, CREATION_TYPES, 'creation_type');
  if (body.scope !== undefined) changes.scope = checkScope(body.scope);
  if (body.deleted !== undefined) changes.deleted = checkBoolean(body.deleted, 'deleted') ? 1 : 0;
  if (body.dashboard_item !== undefined) {
    const insightId = checkPk(body.dashboard_item, 'dashboard_item');
    if (insightId !== null && !(await repos.insights.findById(teamId, insightId))) {
      throw new ValidationError(`Invalid pk "${insightId}" - object does not exist.`, 'dashboard_item', 'does_not_exist');
    }
    changes.dashboard_item = insightId;
  }
  if (body.dashboard_id !== undefined) {
    let dashboardId: number | null;
    try {
      dashboardId = checkPk(body.dashboard_id, 'dashboard_id');
    } catch {
      throw new ValidationError('A valid integer is required.', 'dashboard_id', 'invalid');
    }
    if (dashboardId !== null && !(await repos.dashboards.findById(teamId, dashboardId))) {
      throw new ValidationError('Dashboard not found.', 'dashboard_id');
    }
    changes.dashboard_id = dashboardId;
  }
  return changes;
}

/** Each word of a search is one more LIKE: a budget keeps the statement small (SQLite's depth is 1000). */
const MAX_SEARCH_WORDS = 50;

/** The search's distinct words (DRF's SearchFilter splits on spaces and commas), at most MAX_SEARCH_WORDS. */
function searchWords(search: string | undefined): string | undefined {
  if (!search) return undefined;
  const words = [...new Set(search.split(/[\s,]+/).filter(Boolean))];
  if (words.length > MAX_SEARCH_WORDS) throw new ValidationError(`Ensure search has no more than ${MAX_SEARCH_WORDS} words.`, 'search', 'max_length');
  return words.join(' ');
}

function listFilter(query: AnnotationListQuery) {
  let scope = query.scope || undefined;
  if (scope === 'insight') scope = 'dashboard_item';
  if (scope !== undefined && !([...ANNOTATION_SCOPES, 'recording'] as string[]).includes(scope)) {
    throw new ValidationError(`Invalid scope: ${scope}`, null);
  }
  const date = (text: string | undefined, name: string) => {
    if (!text) return undefined;
    try {
      return parseDateMarker(text, name) ?? undefined;
    } catch {
      throw new ValidationError(`Invalid date range: ${name} must be a valid ISO 8601 date`, null);
    }
  };
  const dateFrom = date(query.date_from, 'date_from');
  const dateTo = date(query.date_to, 'date_to');
  if (dateFrom && dateTo && dateFrom > dateTo) throw new ValidationError('Invalid date range: date_from must be before date_to', null);
  return { scope, search: searchWords(query.search), dateFrom, dateTo };
}

export class AnnotationsService {
  constructor(
    private readonly repositories: Repositories,
    private readonly access: AccessResolver,
  ) {}

  private async reach(principal: Principal, projectParam: string) {
    const project = await this.access.project(principal, projectParam);
    const reach: AnnotationReach = { teamId: project.id, organizationId: project.organization_id };
    return { project, reach };
  }

  async list(principal: Principal, projectParam: string, query: AnnotationListQuery, page: { limit: number; offset: number }) {
    const { reach } = await this.reach(principal, projectParam);
    const filter = listFilter(query);
    // No content holds a NUL (it is refused on write), and PostgreSQL refuses one in a parameter.
    if (filter.search?.includes('\u0000')) return { count: 0, results: [] };
    const { count, rows } = await this.repositories.annotations.list(reach, filter, page);
    return { count, results: rows.map(annotationView) };
  }

  async create(principal: Principal, projectParam: string, body: Record<string, unknown>) {
    const { project, reach } = await this.reach(principal, projectParam);
    const row = await this.repositories.transaction(async (repos) => {
      const changes = await changesOf(repos, project.id, body);
      const now = nowIso();
      const inserted = await repos.annotations.insert({
        organization_id: project.organization_id,
        team_id: project.id,
        content: changes.content ?? null,
        date_marker: changes.date_marker ?? null,
        creation_type: changes.creation_type ?? 'USR',
        scope: changes.scope ?? 'dashboard_item',
        dashboard_item: changes.dashboard_item ?? null,
        dashboard_id: changes.dashboard_id ?? null,
        created_by: principal.userId,
        created_at: now,
        updated_at: now,
        deleted: changes.deleted ?? 0,
      });
      await recordActivity(repos.activityLog, {
        organizationId: project.organization_id,
        projectId: project.id,
        userId: principal.userId,
        scope: ANNOTATION_ACTIVITY_SCOPE,
        itemId: String(inserted.id),
        activity: 'created',
        detail: detail(inserted.content),
      });
      return (await repos.annotations.find(reach, inserted.id, true))!;
    });
    return annotationView(row);
  }

  async get(principal: Principal, projectParam: string, idParam: string) {
    const { reach } = await this.reach(principal, projectParam);
    const row = await this.repositories.annotations.find(reach, parseId(idParam));
    if (!row) throw new NotFoundError();
    return annotationView(row);
  }

  /** A PATCH (or PUT); a deleted annotation is reachable here only, to restore it with deleted: false. */
  async update(principal: Principal, projectParam: string, idParam: string, body: Record<string, unknown>) {
    const { project, reach } = await this.reach(principal, projectParam);
    const id = parseId(idParam);
    const updated = await this.repositories.transaction(async (repos) => {
      const before = await repos.annotations.find(reach, id, true);
      if (!before) throw new NotFoundError();
      const changes = await changesOf(repos, project.id, body);
      const after = { ...before, ...changes };
      const activityChanges = diffChanges(ANNOTATION_ACTIVITY_SCOPE, LOGGED_FIELDS, loggedValues(before), loggedValues(after));
      // PostHog moves an annotation to the project it is saved through, so one turned from
      // organization to project scope stays where the person is looking.
      await repos.annotations.update(reach, id, { ...changes, team_id: project.id, updated_at: nowIso() });
      if (activityChanges.length > 0) {
        await recordActivity(repos.activityLog, {
          organizationId: project.organization_id,
          projectId: project.id,
          userId: principal.userId,
          scope: ANNOTATION_ACTIVITY_SCOPE,
          itemId: String(id),
          activity: updateActivity(before.deleted === 1, after.deleted === 1),
          detail: detail(after.content, activityChanges),
        });
      }
      return (await repos.annotations.find(reach, id, true))!;
    });
    return annotationView(updated);
  }

  /** PostHog forbids hard deletes of annotations (ForbidDestroyModel): PATCH {"deleted": true} instead. */
  async refuseDelete(principal: Principal, projectParam: string): Promise<never> {
    await this.access.project(principal, projectParam);
    throw new MethodNotAllowedError('DELETE');
  }
}
