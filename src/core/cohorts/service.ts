// Cohort use cases: list, create, read, update (soft delete and restore included), the activity
// log, and what the criteria may name (live cohorts of the same project, without loops; live
// actions). Static cohorts' persons are handled in static-members.ts; counts in calculation.ts.
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../../errors.js';
import { budgetExcess, MAX_COHORT_NESTING, measureCohort } from '../../query/cohorts/budget.js';
import { readCohortFilters } from '../../query/cohorts/read.js';
import { referencedActions, referencedCohorts, type CohortGroup } from '../../query/cohorts/schema.js';
import type { CohortChanges, CohortRow } from '../../storage/meta/repositories/cohorts.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { AccessResolver } from '../access.js';
import { activityPage, detail, diffChanges, recordActivity, updateActivity, type Change } from '../activity.js';
import type { Principal } from '../auth/principal.js';
import { nowIso } from '../tokens.js';
import type { CohortCalculator } from './calculation.js';
import { criteriaOf, flag, MAX_DESCRIPTION, MAX_NAME, optionalText, parseCohortId, type CohortInput } from './input.js';
import { cohortView, loggedValues, type CohortView } from './view.js';
import { MAX_ADDED_PERSON_IDS, personIdList, type StaticMembers } from './static-members.js';

export const COHORT_ACTIVITY_SCOPE = 'Cohort';
const LOGGED_FIELDS = ['name', 'description', 'groups', 'filters', 'is_static', 'deleted'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A dynamic cohort's display count is refreshed when read this long after it was calculated. */
const COUNT_REFRESH_MS = 24 * 3600 * 1000;

export interface CohortListFilter {
  limit: number;
  offset: number;
  search: string | null;
  type: 'static' | 'dynamic' | null;
  createdById: number | null;
}

/** A new cohort's row: never calculated, version 1. */
function newCohortRow(project: ProjectRow, principal: Principal, fields: Pick<CohortRow, 'name' | 'description' | 'filters' | 'groups' | 'is_static' | 'is_calculating'>): Omit<CohortRow, 'id'> {
  const now = nowIso();
  return {
    team_id: project.id, ...fields, deleted: 0, count: null, last_calculation: null, errors_calculating: 0, last_error: null,
    version: 1, created_by: principal.userId, created_at: now, updated_at: now,
  };
}

/** What a finished count records. */
const counted = (count: number) => ({ count, last_calculation: nowIso(), is_calculating: 0, errors_calculating: 0, last_error: null });

export class CohortsService {
  constructor(
    private readonly repositories: Repositories,
    private readonly access: AccessResolver,
    private readonly calculator: CohortCalculator,
    private readonly members: StaticMembers,
    /** A cohort or its static members were written: caches of flag definitions forget them at once. */
    private readonly changed: () => void = () => {},
  ) {}

  async list(principal: Principal, projectParam: string, filter: CohortListFilter) {
    const project = await this.access.project(principal, projectParam);
    if (filter.search !== null && filter.search.length > 200) throw new ValidationError('Search query must be 200 characters or fewer.', 'search');
    const { count, rows } = await this.repositories.cohorts.listLive(project.id, filter);
    // A list shows what is stored: it neither evaluates nor expands any cohort's criteria.
    return { count, results: await this.views(project, rows, { recount: false }) };
  }

  async create(principal: Principal, projectParam: string, input: CohortInput): Promise<CohortView> {
    const project = await this.access.project(principal, projectParam);
    const isStatic = flag(input.is_static, 'is_static') ?? false;
    if (input.query !== undefined && input.query !== null) {
      throw new ValidationError(isStatic
        ? 'Creating a static cohort from a query is not supported yet; upload a CSV or give _create_static_person_ids.'
        : 'Cannot create a dynamic cohort with a query. Set is_static to true.', 'query');
    }
    const name = optionalText(input.name, 'name', MAX_NAME);
    const description = optionalText(input.description, 'description', MAX_DESCRIPTION) ?? '';
    const criteria = isStatic ? { filters: null, groups: input.groups === undefined ? null : JSON.stringify(input.groups ?? []), group: null } : criteriaOf(input);
    if (criteria.group) await this.checkReferences(project, null, criteria.group);
    // Everything a static upload names is resolved before anything is written.
    const persons = isStatic ? await this.members.personsToAdd(project, input) : [];
    if (!isStatic && (input.csv || input._create_static_person_ids !== undefined)) {
      throw new ValidationError('Only static cohorts take a CSV or person ids; set is_static to true.', input.csv ? 'csv' : '_create_static_person_ids');
    }
    const inserted = await this.repositories.cohorts.insert(newCohortRow(project, principal, {
      name: name ?? '',
      description,
      filters: criteria.filters,
      groups: criteria.groups ?? '[]',
      is_static: isStatic ? 1 : 0,
      is_calculating: isStatic ? 0 : 1,
    }));
    // A static cohort's persons go in before it is announced; if they cannot, the cohort goes too.
    const row = isStatic ? await this.withMembers(project, inserted, () => this.members.put(project, inserted.id, persons)) : inserted;
    await this.logActivity(this.repositories, principal, project, row, 'created', []);
    this.changed();
    if (!isStatic) this.calculator.schedule(project, row.id, row.version);
    return (await this.views(project, [row]))[0]!;
  }

  async get(principal: Principal, projectParam: string, idParam: string): Promise<CohortView> {
    const project = await this.access.project(principal, projectParam);
    const row = await this.find(project, idParam);
    return (await this.views(project, [row]))[0]!;
  }

  async update(principal: Principal, projectParam: string, idParam: string, input: CohortInput): Promise<CohortView> {
    const project = await this.access.project(principal, projectParam);
    const id = parseCohortId(idParam);
    const changes: CohortChanges = {};
    if (input.name !== undefined) changes.name = optionalText(input.name, 'name', MAX_NAME) ?? '';
    if (input.description !== undefined) changes.description = optionalText(input.description, 'description', MAX_DESCRIPTION) ?? '';
    const deleted = flag(input.deleted, 'deleted');
    if (deleted !== undefined) changes.deleted = deleted ? 1 : 0;
    const isStatic = flag(input.is_static, 'is_static');
    if (isStatic !== undefined) changes.is_static = isStatic ? 1 : 0;
    const before = await this.repositories.cohorts.findInProject(project.id, id);
    if (!before) throw new NotFoundError();
    const willBeStatic = (changes.is_static ?? before.is_static) === 1;
    let group: CohortGroup | null = null;
    if (input.filters !== undefined || input.groups !== undefined) {
      if (willBeStatic && input.filters !== undefined && input.filters !== null && before.is_static === 1) {
        throw new ValidationError('Editing the criteria of a static cohort is not supported yet. Create a new static cohort instead.', 'filters');
      }
      const criteria = criteriaOf(input);
      if (criteria.groups !== null) changes.groups = criteria.groups;
      if (criteria.filters !== null) changes.filters = criteria.filters;
      group = criteria.group;
    }
    // Turning static into dynamic needs criteria to calculate.
    if (!willBeStatic && group === null && before.filters !== null) group = readCohortFilters(JSON.parse(before.filters));
    if (group && !willBeStatic) await this.checkReferences(project, id, group);
    const persons = input.csv ? await this.members.personsToAdd(project, { csv: input.csv }) : [];
    if (input.csv && !willBeStatic) throw new ValidationError('Only static cohorts take a CSV; set is_static to true.', 'csv');
    const recalculate = !willBeStatic && (group !== null || changes.is_static === 0) && (changes.filters !== undefined || changes.groups !== undefined || changes.is_static !== undefined);
    const count = persons.length > 0 ? await this.members.put(project, id, persons) : null;
    const updated = await this.repositories.transaction(async (repos) => {
      const current = (await repos.cohorts.findInProject(project.id, id))!;
      const after: CohortRow = { ...current, ...changes };
      const activityChanges = diffChanges(COHORT_ACTIVITY_SCOPE, LOGGED_FIELDS, loggedValues(current), loggedValues(after));
      if (activityChanges.length === 0 && persons.length === 0) return current;
      after.updated_at = nowIso();
      if (recalculate || persons.length > 0) after.version = current.version + 1;
      if (recalculate) after.is_calculating = 1;
      if (count !== null) Object.assign(after, counted(count));
      await repos.cohorts.update(project.id, id, {
        ...changes,
        ...(count === null ? {} : counted(count)),
        updated_at: after.updated_at,
        version: after.version,
        is_calculating: after.is_calculating,
      });
      if (activityChanges.length > 0) {
        await this.logActivity(repos, principal, project, after, updateActivity(current.deleted === 1, after.deleted === 1), activityChanges);
      }
      return after;
    });
    this.changed();
    if (recalculate) this.calculator.schedule(project, id, updated.version);
    return (await this.views(project, [updated]))[0]!;
  }

  /** PATCH add_persons_to_static_cohort: {"person_ids": [...]}, at most 1000, persons of the project. */
  async addPersons(principal: Principal, projectParam: string, idParam: string, body: { person_ids?: unknown }) {
    const project = await this.access.project(principal, projectParam);
    const row = await this.find(project, idParam);
    if (row.is_static !== 1) throw new ValidationError('Can only add users to static cohorts', null);
    const ids = personIdList(body.person_ids, 'person_ids');
    if (ids.length === 0) throw new ValidationError('person_ids cannot be empty', 'person_ids');
    if (ids.length > MAX_ADDED_PERSON_IDS) throw new ValidationError('List size exceeds limit', 'person_ids');
    const persons = await this.members.existing(project, ids);
    if (persons.length === 0) throw new ValidationError('No valid users to add to cohort', 'person_ids');
    await this.changeMembers(principal, project, row, persons, true, 'persons_added_manually');
    return { success: true };
  }

  /** PATCH remove_person_from_static_cohort: {"person_id": uuid}; 404 when not in the cohort. */
  async removePerson(principal: Principal, projectParam: string, idParam: string, body: { person_id?: unknown }) {
    const project = await this.access.project(principal, projectParam);
    const row = await this.find(project, idParam);
    if (row.is_static !== 1) throw new ValidationError('Can only remove users from static cohorts', null);
    if (body.person_id === undefined || body.person_id === null) throw new ValidationError('person_id is required', 'person_id', 'required');
    if (typeof body.person_id !== 'string') throw new ValidationError('person_id must be a string', 'person_id');
    if (!UUID.test(body.person_id)) throw new ValidationError('person_id must be a valid UUID', 'person_id');
    const personId = body.person_id.toLowerCase();
    if ((await this.members.existing(project, [personId])).length === 0) throw new NotFoundError("Person with this UUID does not exist in the cohort's team");
    if (!(await this.members.contains(project, row.id, personId))) throw new NotFoundError('Person is not part of the cohort');
    await this.changeMembers(principal, project, row, [personId], false, 'person_removed_manually');
    return { success: true };
  }

  /** GET duplicate_as_static_cohort: a new static cohort holding the cohort's persons now. */
  async duplicateAsStatic(principal: Principal, projectParam: string, idParam: string): Promise<CohortView> {
    const project = await this.access.project(principal, projectParam);
    const source = await this.find(project, idParam);
    if (source.deleted === 1) throw new NotFoundError();
    const inserted = await this.repositories.cohorts.insert(newCohortRow(project, principal, {
      name: `${source.name} (static copy)`, description: '', filters: null, groups: '[]', is_static: 1, is_calculating: 0,
    }));
    const row = await this.withMembers(project, inserted, () => this.members.copy(project, source.id, inserted.id));
    await this.logActivity(this.repositories, principal, project, row, 'created', []);
    this.changed();
    return (await this.views(project, [row]))[0]!;
  }

  private async changeMembers(principal: Principal, project: ProjectRow, row: CohortRow, persons: readonly string[], member: boolean, activity: string) {
    const count = await this.members.put(project, row.id, persons, member);
    await this.repositories.transaction(async (repos) => {
      const current = (await repos.cohorts.findInProject(project.id, row.id))!;
      await repos.cohorts.update(project.id, row.id, { ...counted(count), version: current.version + 1, updated_at: nowIso() });
      await this.logActivity(repos, principal, project, current, activity, [{ type: COHORT_ACTIVITY_SCOPE, action: 'changed', field: 'people', before: null, after: null }]);
    });
    this.changed();
  }

  /** Stores a new static cohort's persons and count; on failure the cohort row is removed again. */
  private async withMembers(project: ProjectRow, row: CohortRow, store: () => Promise<number>): Promise<CohortRow> {
    let count: number;
    try {
      count = await store();
    } catch (error) {
      await this.repositories.cohorts.remove(project.id, row.id);
      throw error;
    }
    await this.repositories.cohorts.update(project.id, row.id, counted(count));
    return { ...row, ...counted(count) };
  }

  private logActivity(repos: Repositories, principal: Principal, project: ProjectRow, row: CohortRow, activity: string, changes: Change[]): Promise<void> {
    return recordActivity(repos.activityLog, {
      organizationId: project.organization_id, projectId: project.id, userId: principal.userId, scope: COHORT_ACTIVITY_SCOPE,
      itemId: String(row.id), activity, detail: detail(row.name, changes),
    });
  }

  /** PostHog forbids hard deletes of cohorts (soft delete with PATCH {"deleted": true}). */
  async refuseDelete(principal: Principal, projectParam: string): Promise<never> {
    await this.access.project(principal, projectParam);
    throw new MethodNotAllowedError('DELETE');
  }

  async activity(principal: Principal, projectParam: string, idParam: string | null, page: { limit: number; page: number }) {
    const project = await this.access.project(principal, projectParam);
    const itemId = idParam === null ? null : String((await this.find(project, idParam)).id);
    return activityPage(this.repositories.activityLog, project.id, COHORT_ACTIVITY_SCOPE, itemId, page);
  }

  /** The project and live cohort whose persons a caller lists. */
  async forPersons(principal: Principal, projectParam: string, idParam: string): Promise<{ project: ProjectRow; cohort: CohortRow }> {
    const project = await this.access.project(principal, projectParam);
    const cohort = await this.find(project, idParam);
    if (cohort.deleted === 1) throw new NotFoundError();
    return { project, cohort };
  }

  /** The cohort (deleted ones too, as PostHog's retrieve) of the project, or 404. */
  async find(project: ProjectRow, idParam: string): Promise<CohortRow> {
    const row = await this.repositories.cohorts.findInProject(project.id, parseCohortId(idParam));
    if (!row) throw new NotFoundError();
    return row;
  }

  /**
   * Criteria may name live cohorts of this project that do not lead back to this one, and live
   * actions of this project (PostHog: "Invalid Cohort ID in filter", "...in a loop."); what they
   * expand to, and what the cohorts naming this one then expand to, stays within the budget
   * (query/cohorts/budget.ts).
   */
  private async checkReferences(project: ProjectRow, selfId: number | null, group: CohortGroup): Promise<void> {
    const reached = new Map<number, CohortGroup | null>();
    let frontier = referencedCohorts(group);
    if (selfId !== null && frontier.includes(selfId)) throw new ValidationError('Cohorts cannot reference other cohorts in a loop.', 'filters', 'cohort_loop');
    for (let depth = 0; frontier.length > 0; depth++) {
      // A chain longer than the budget is not read to its end.
      if (depth > MAX_COHORT_NESTING) throw budgetError({ depth: depth + 1, nodes: 0 });
      const rows = await this.repositories.cohorts.findLiveForQuery(project.id, frontier);
      if (depth === 0 && rows.length < new Set(frontier).size) {
        const missing = frontier.find((id) => !rows.some((row) => row.id === id));
        throw new ValidationError(`Invalid Cohort ID in filter: cohort ${missing} does not exist in this project or is deleted.`, 'filters', 'invalid_cohort');
      }
      for (const row of rows) reached.set(row.id, row.is_static === 1 || row.filters === null ? null : readCohortFilters(JSON.parse(row.filters)));
      const next = rows.flatMap((row) => referencedCohorts(reached.get(row.id) ?? null));
      if (selfId !== null && next.includes(selfId)) throw new ValidationError('Cohorts cannot reference other cohorts in a loop.', 'filters', 'cohort_loop');
      frontier = [...new Set(next)].filter((id) => !reached.has(id));
    }
    const expansion = measureCohort(group, (id) => reached.get(id) ?? null, selfId ?? undefined);
    if (budgetExcess(expansion) !== null) throw budgetError(expansion);
    if (selfId !== null) await this.checkDependents(project, selfId, group);
    for (const actionId of new Set(referencedActions(group))) {
      if (!(await this.repositories.actions.findLiveSteps(project.id, actionId))) {
        throw new ValidationError(`Action ${actionId} does not exist in this project or is deleted.`, 'filters', 'invalid_action');
      }
    }
  }

  /** The cohorts naming this one (at any depth) must stay within the budget with its new criteria. */
  private async checkDependents(project: ProjectRow, selfId: number, group: CohortGroup): Promise<void> {
    const criteria = new Map<number, CohortGroup>();
    for (const row of await this.repositories.cohorts.liveDynamicCriteria(project.id)) {
      criteria.set(row.id, readCohortFilters(JSON.parse(row.filters)));
    }
    criteria.set(selfId, group);
    const namedBy = new Map<number, number[]>();
    for (const [id, criterion] of criteria) {
      for (const ref of new Set(referencedCohorts(criterion))) namedBy.set(ref, [...(namedBy.get(ref) ?? []), id]);
    }
    const dependents = new Set<number>();
    const pending = [selfId];
    while (pending.length > 0) {
      for (const dependent of namedBy.get(pending.pop()!) ?? []) {
        if (dependent !== selfId && !dependents.has(dependent)) {
          dependents.add(dependent);
          pending.push(dependent);
        }
      }
    }
    const criteriaOf = (id: number) => criteria.get(id) ?? null;
    for (const dependent of dependents) {
      const excess = budgetExcess(measureCohort(criteria.get(dependent)!, criteriaOf, dependent), `Cohort ${dependent}, which names this one,`);
      if (excess !== null) throw new ValidationError(excess, 'filters', 'cohort_budget');
    }
  }

  /**
   * Views with creators. A dynamic cohort left calculating by a stopped process, or counted more
   * than a day ago (PostHog recalculates daily), is counted again in the background when read
   * alone (`recount`), never from a list.
   */
  private async views(project: ProjectRow, rows: readonly CohortRow[], { recount } = { recount: true }): Promise<CohortView[]> {
    const staleBefore = Date.now() - COUNT_REFRESH_MS;
    for (const row of recount ? rows : []) {
      const stale = row.last_calculation !== null && Date.parse(row.last_calculation) < staleBefore;
      if ((row.is_calculating === 1 || stale) && row.is_static === 0 && row.deleted === 0 && !this.calculator.isRunning(row.id, row.version)) {
        this.calculator.schedule(project, row.id, row.version);
      }
    }
    const creators = await this.repositories.users.findMembers(project.organization_id, rows.map((r) => r.created_by).filter((id): id is number => id !== null));
    const byId = new Map(creators.map((user) => [user.id, user]));
    return rows.map((row) => cohortView(row, row.created_by === null ? undefined : byId.get(row.created_by)));
  }
}

function budgetError(expansion: { depth: number; nodes: number }): ValidationError {
  return new ValidationError(budgetExcess(expansion)!, 'filters', 'cohort_budget');
}
