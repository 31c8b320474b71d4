// Feature flag use cases: list, create, read, update (versioned, with PostHog's 409 when someone
// else changed the same fields since the client read the flag; soft delete and restore), the
// activity log. Every change bumps the project's flags epoch in the same transaction, so caches of
// the project's definitions (the /flags endpoints) see it. PostHog's usage dashboard is not created.
import { ConflictError, MethodNotAllowedError, NotFoundError, ValidationError } from '../../errors.js';
import type { FeatureFlagChanges, FeatureFlagListQuery, FeatureFlagRow } from '../../storage/meta/repositories/feature-flags.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { AccessResolver } from '../access.js';
import { activityPage, detail, diffChanges, recordActivity, updateActivity, type Change } from '../activity.js';
import type { Principal } from '../auth/principal.js';
import { nowIso } from '../tokens.js';
import { readFilters } from './filters-input.js';
import {
  parseFlagId, readBoolean, readBucketing, readJsonField, readKey, readName, readRuntime, readTags, readVersion, type FlagInput,
} from './input.js';
import { checkCohorts, checkDependencies, dependentsOf } from './references.js';
import { checkProjectFiltersBudget } from './budget.js';
import { cohortIdsOf, flagView, LOGGED_FIELDS, loggedValues, type FlagView } from './view.js';

export const FLAG_ACTIVITY_SCOPE = 'FeatureFlag';
/** Fields a client's `original_flag` is compared on for the 409 (the serializer's writable ones). */
const CONFLICT_FIELDS = ['key', 'name', 'filters', 'active', 'deleted', 'ensure_experience_continuity', 'tags', 'evaluation_runtime', 'is_remote_configuration'];

export type FlagListFilter = Omit<FeatureFlagListQuery, 'type'> & { type: FeatureFlagListQuery['type'] | 'experiment' };

/** The row fields a request sets (everything but filters), checked. */
function fieldChanges(input: FlagInput): FeatureFlagChanges {
  const changes: FeatureFlagChanges = {};
  if (input.name !== undefined) changes.name = readName(input.name);
  for (const field of ['active', 'deleted', 'ensure_experience_continuity', 'is_remote_configuration', 'has_enriched_analytics'] as const) {
    if (input[field] !== undefined) changes[field] = readBoolean(input[field], field) ? 1 : 0;
  }
  if (input.has_encrypted_payloads !== undefined && readBoolean(input.has_encrypted_payloads, 'has_encrypted_payloads')) {
    throw new ValidationError('Encrypted payloads are not supported by Hoglet.', 'has_encrypted_payloads');
  }
  if (input.evaluation_runtime !== undefined) changes.evaluation_runtime = readRuntime(input.evaluation_runtime);
  if (input.bucketing_identifier !== undefined) changes.bucketing_identifier = readBucketing(input.bucketing_identifier);
  if (input.tags !== undefined && input.tags !== null) changes.tags = JSON.stringify(readTags(input.tags, 'tags'));
  if (input.evaluation_tags !== undefined && input.evaluation_tags !== null) changes.evaluation_tags = JSON.stringify(readTags(input.evaluation_tags, 'evaluation_tags'));
  if (input.rollback_conditions !== undefined) changes.rollback_conditions = readJsonField(input.rollback_conditions, 'rollback_conditions');
  if (input.performed_rollback !== undefined) changes.performed_rollback = input.performed_rollback === null ? null : readBoolean(input.performed_rollback, 'performed_rollback') ? 1 : 0;
  return changes;
}

/**
 * Early access: the enrolment condition names the flag's key (`$feature_enrollment/<key>`), so a
 * new key renames it, as PostHog's update does. Null when nothing names the old key.
 */
function renameEnrollment(filtersJson: string, oldKey: string, newKey: string): string | null {
  const filters = JSON.parse(filtersJson) as { super_groups?: { properties?: { key?: unknown }[] }[] };
  let renamed = false;
  for (const set of Array.isArray(filters.super_groups) ? filters.super_groups : []) {
    for (const property of Array.isArray(set?.properties) ? set.properties : []) {
      if (property && property.key === `$feature_enrollment/${oldKey}`) {
        property.key = `$feature_enrollment/${newKey}`;
        renamed = true;
      }
    }
  }
  return renamed ? JSON.stringify(filters) : null;
}

/** JSON text with object keys sorted, so key order never makes two values differ. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

export class FeatureFlagsService {
  constructor(
    private readonly repositories: Repositories,
    private readonly access: AccessResolver,
    /** A flag was written: caches of definitions (the SDK endpoints') forget them at once. */
    private readonly changed: () => void = () => {},
  ) {}

  async list(principal: Principal, projectParam: string, filter: FlagListFilter): Promise<{ count: number; results: FlagView[] }> {
    const project = await this.access.project(principal, projectParam);
    if (filter.search !== null && filter.search.length > 200) throw new ValidationError('Search query must be 200 characters or fewer.', 'search');
    // Hoglet has no experiments, so no flag is an experiment's.
    if (filter.type === 'experiment') return { count: 0, results: [] };
    const { count, rows } = await this.repositories.featureFlags.listLive(project.id, { ...filter, type: filter.type });
    return { count, results: await this.views(project, rows) };
  }

  async create(principal: Principal, projectParam: string, input: FlagInput): Promise<FlagView> {
    const project = await this.access.project(principal, projectParam);
    const key = readKey(input.key);
    const changes = fieldChanges(input);
    const read = input.filters === undefined || input.filters === null ? null : readFilters(input.filters, true);
    if (read) {
      await checkCohorts(this.repositories, project.id, read.cohortIds);
      await checkDependencies(this.repositories, project.id, { id: null, key }, read.flagIds);
    }
    await checkProjectFiltersBudget(this.repositories, project.id, null, JSON.stringify(read?.filters ?? {}));
    const now = nowIso();
    const row = await this.repositories.transaction(async (repos) => {
      const existing = await repos.featureFlags.findByKey(project.id, key);
      if (existing && existing.deleted === 0) throw new ValidationError('There is already a feature flag with this key.', 'key', 'unique');
      // PostHog frees the key of a soft-deleted flag by removing that flag.
      await repos.featureFlags.removeDeletedWithKey(project.id, key);
      const inserted = await repos.featureFlags.insert({
        team_id: project.id, key, name: '', filters: JSON.stringify(read?.filters ?? {}), active: 1, deleted: 0,
        ensure_experience_continuity: 0, version: 1, evaluation_runtime: 'all', bucketing_identifier: 'distinct_id', tags: '[]',
        evaluation_tags: '[]', is_remote_configuration: 0, has_encrypted_payloads: 0, has_enriched_analytics: 0, rollback_conditions: null,
        performed_rollback: null, ...changes, created_by: principal.userId, last_modified_by: principal.userId, created_at: now, updated_at: now,
        last_called_at: null,
      });
      await repos.featureFlags.bumpEpoch(project.id);
      await this.logActivity(repos, principal, project, inserted, 'created', []);
      return inserted;
    }).catch((error: unknown) => this.duplicateKey(error, project.id, key));
    this.changed();
    return (await this.views(project, [row]))[0]!;
  }

  async get(principal: Principal, projectParam: string, idParam: string): Promise<FlagView> {
    const project = await this.access.project(principal, projectParam);
    return (await this.views(project, [await this.find(project, idParam)]))[0]!;
  }

  /** PATCH (and PUT, which must carry the key). */
  async update(principal: Principal, projectParam: string, idParam: string, input: FlagInput, { replace = false } = {}): Promise<FlagView> {
    const project = await this.access.project(principal, projectParam);
    const id = parseFlagId(idParam);
    const changes = fieldChanges(input);
    if (input.key !== undefined || replace) changes.key = readKey(input.key);
    const expectedVersion = readVersion(input.version);
    const before = await this.repositories.featureFlags.findInProject(project.id, id);
    if (!before) throw new NotFoundError();
    const key = changes.key ?? before.key;
    // A PATCH whose filters carry no `groups` keeps the stored filters (PostHog's update).
    const filtersInput = input.filters && typeof input.filters === 'object' && !('groups' in input.filters) ? undefined : input.filters;
    if (filtersInput !== undefined && filtersInput !== null) {
      const read = readFilters(filtersInput, false);
      await checkCohorts(this.repositories, project.id, read.cohortIds);
      await checkDependencies(this.repositories, project.id, { id, key }, read.flagIds);
      changes.filters = JSON.stringify(read.filters);
    } else if (filtersInput === null) {
      changes.filters = '{}';
    }
    if (changes.key !== undefined && changes.key !== before.key) {
      const renamed = renameEnrollment(changes.filters ?? before.filters, before.key, changes.key);
      if (renamed !== null) changes.filters = renamed;
    }
    if (changes.filters !== undefined || (changes.deleted === 0 && before.deleted === 1)) {
      await checkProjectFiltersBudget(this.repositories, project.id, id, changes.filters ?? before.filters);
    }
    const deleting = changes.deleted === 1 && before.deleted === 0;
    const disabling = changes.active === 0 && before.active === 1;
    if (deleting || disabling) {
      const dependents = await dependentsOf(this.repositories, project.id, id);
      if (dependents.length > 0) {
        const keys = dependents.map((row) => row.key).join(', ');
        throw new ValidationError(`Cannot ${deleting ? 'delete' : 'disable'} this feature flag because other flags depend on it: ${keys}`, deleting ? 'deleted' : 'active');
      }
    }
    const updated = await this.repositories.transaction(async (repos) => {
      const current = (await repos.featureFlags.findInProject(project.id, id))!;
      if (expectedVersion !== null && expectedVersion !== current.version) await this.refuseConflicting(repos, project, current, changes, input.original_flag);
      if (changes.key !== undefined && changes.key !== current.key) {
        const holder = await repos.featureFlags.findByKey(project.id, changes.key);
        if (holder && holder.deleted === 0) throw new ValidationError('There is already a feature flag with this key.', 'key', 'unique');
        await repos.featureFlags.removeDeletedWithKey(project.id, changes.key);
      }
      const after: FeatureFlagRow = { ...current, ...changes, version: current.version + 1, last_modified_by: principal.userId, updated_at: nowIso() };
      const written = await repos.featureFlags.updateAtVersion(project.id, id, current.version, { ...changes, version: after.version, last_modified_by: after.last_modified_by, updated_at: after.updated_at });
      if (!written) throw new ConflictError('The feature flag was updated by another request since you started editing it. Please refresh and try again.');
      await repos.featureFlags.bumpEpoch(project.id);
      const activityChanges = diffChanges(FLAG_ACTIVITY_SCOPE, LOGGED_FIELDS, loggedValues(current), loggedValues(after));
      await this.logActivity(repos, principal, project, after, updateActivity(current.deleted === 1, after.deleted === 1), activityChanges);
      return after;
    }).catch((error: unknown) => this.duplicateKey(error, project.id, key));
    this.changed();
    return (await this.views(project, [updated]))[0]!;
  }

  /** PostHog's ForbidDestroyModel: 405 with no body (delete is PATCH {"deleted": true}). */
  async refuseDelete(principal: Principal, projectParam: string): Promise<never> {
    await this.access.project(principal, projectParam);
    throw new MethodNotAllowedError('DELETE', true);
  }

  async activity(principal: Principal, projectParam: string, idParam: string | null, page: { limit: number; page: number }) {
    const project = await this.access.project(principal, projectParam);
    const itemId = idParam === null ? null : String((await this.find(project, idParam)).id);
    return activityPage(this.repositories.activityLog, project.id, FLAG_ACTIVITY_SCOPE, itemId, page);
  }

  /**
   * PostHog's _get_conflicting_changes: a field conflicts when someone else changed it since the
   * client's `original_flag` and this request sets it to a third value. Without `original_flag`
   * a stale version is let through, as PostHog does.
   */
  private async refuseConflicting(repos: Repositories, project: ProjectRow, current: FeatureFlagRow, changes: FeatureFlagChanges, original: unknown): Promise<void> {
    if (!original || typeof original !== 'object' || Array.isArray(original)) return;
    const originalFlag = original as Record<string, unknown>;
    const stored = flagView(current, new Map());
    const wanted = flagView({ ...current, ...changes }, new Map());
    const conflicts = CONFLICT_FIELDS.filter((field) => {
      const changedField = field in changes || (field === 'filters' && changes.filters !== undefined);
      if (!changedField || !(field in originalFlag)) return false;
      const now = stored[field as keyof FlagView];
      const theirs = originalFlag[field];
      const mine = wanted[field as keyof FlagView];
      return !same(theirs, now) && !same(mine, theirs) && !same(mine, now);
    });
    if (conflicts.length === 0) return;
    const editor = current.last_modified_by === null ? undefined : (await repos.users.findMembers(project.organization_id, [current.last_modified_by]))[0];
    throw new ConflictError(`The feature flag was updated by ${editor?.email ?? 'another user'} since you started editing it. Please refresh and try again.`);
  }

  /** Two requests racing for one key: the loser gets the same 400 as a key already taken. */
  private async duplicateKey(error: unknown, projectId: number, key: string): Promise<never> {
    const holder = await this.repositories.featureFlags.findByKey(projectId, key).catch(() => undefined);
    if (holder && !(error instanceof ValidationError) && !(error instanceof ConflictError)) {
      throw new ValidationError('There is already a feature flag with this key.', 'key', 'unique');
    }
    throw error;
  }

  private async find(project: ProjectRow, idParam: string): Promise<FeatureFlagRow> {
    const row = await this.repositories.featureFlags.findInProject(project.id, parseFlagId(idParam));
    if (!row) throw new NotFoundError();
    return row;
  }

  private logActivity(repos: Repositories, principal: Principal, project: ProjectRow, row: FeatureFlagRow, activity: string, changes: Change[]): Promise<void> {
    return recordActivity(repos.activityLog, {
      organizationId: project.organization_id, projectId: project.id, userId: principal.userId, scope: FLAG_ACTIVITY_SCOPE,
      itemId: String(row.id), activity, detail: detail(row.key, changes),
    });
  }

  private async views(project: ProjectRow, rows: readonly FeatureFlagRow[]): Promise<FlagView[]> {
    const ids = rows.flatMap((row) => [row.created_by, row.last_modified_by]).filter((id): id is number => id !== null);
    const users = new Map((await this.repositories.users.findMembers(project.organization_id, ids)).map((user) => [user.id, user]));
    const cohorts = await this.repositories.cohorts.findLiveForQuery(project.id, [...new Set(rows.flatMap(cohortIdsOf))]);
    const cohortNames = new Map(cohorts.map((cohort) => [cohort.id, cohort.name]));
    return rows.map((row) => flagView(row, users, cohortNames));
  }
}
