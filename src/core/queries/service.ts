// Runs insight queries for a caller: resolves the project they may see, gathers what the engine
// needs to know about it (clock, test-account filters, the actions the query names), and hands the
// validated query node to its runner. Legacy filter bodies arrive here already converted.
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { DateTime } from 'luxon';
import type { AccessResolver } from '../access.js';
import type { ActionsService } from '../actions/service.js';
import type { CohortDefinitions } from '../cohorts/definitions.js';
import { cohortsNamedIn } from '../../query/cohorts/named.js';
import { actionMentionsIn, actionMentionsInNodes } from '../../query/hogql/action-mentions.js';
import { cohortMentionsIn } from '../../query/hogql/cohort-mentions.js';
import { cohortPeopleIds } from '../../query/cohorts/people-table.js';
import type { Principal } from '../auth/principal.js';
import { readSettings } from '../projects/view.js';
import type { ActionDefinition, QueryContext } from '../../query/context.js';
import type { QueryExecutor } from '../../query/execute.js';
import { EMPTY_GROUP, readProperties } from '../../query/nodes/read-properties.js';
import { alias, call, select, subquery } from '../../query/ast/build.js';
import { cohortMembers } from '../../query/cohorts/members.js';
import type { CohortDefinition } from '../../query/cohorts/schema.js';
import type { PrintedQuery } from '../../query/printer/print.js';
import type { InsightQuery, PathCleaningRule, PropertyGroup } from '../../query/nodes/schema.js';
import { funnelActors } from '../../query/runners/funnels/runner.js';
import { kindOf, rangedPart } from '../../query/runners/registry.js';
import { wantsRecordings, withMatchedRecordings } from '../../query/actors/matched-recordings.js';
import { parseHogQLExpressions, withHogQLPropertyTypes } from '../../query/hogql/expressions.js';
import { ruleProblem } from '../../query/runners/paths/read.js';
import { mentionsCleanedPath } from '../../query/filters/cleaned-path.js';
import type { ActorsRequest } from '../../query/actors/read.js';
import { ValidationError } from '../../errors.js';
import { timeQuery } from '../../metrics/registry.js';
import type { FunnelsQuery } from '../../query/nodes/schema.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { PropertyType } from '../../query/catalog/property-type.js';

/**
 * What responses carry in PostHog's `hogql` field. PostHog puts the query's HogQL text there;
 * Hoglet has no HogQL printer yet, and the ClickHouse SQL it runs names the database and the table
 * layout, which no client (least of all a sharing-token holder) may see. So: null.
 */
export const NO_HOGQL = null;

export interface QueryOutcome {
  readonly results: unknown;
  readonly hasMore: boolean;
  readonly extra: Record<string, unknown>;
  readonly timezone: string;
  readonly lastRefresh: string;
  readonly timings: { k: string; t: number }[];
  readonly clientQueryId: string;
}

export interface ActorsOutcome {
  readonly columns: readonly string[];
  readonly results: readonly unknown[][];
  readonly hasMore: boolean;
  readonly limit: number;
  readonly offset: number;
  readonly timezone: string;
  readonly lastRefresh: string;
  readonly timings: { k: string; t: number }[];
}

export interface RunOptions {
  /** Names the run's statements, for cancel; random when absent. */
  readonly clientQueryId?: string | undefined;
  /** Definitions resolved beforehand (see contextOf); resolved now when absent. */
  readonly context?: QueryContext | undefined;
  /** Aborting it stops the run: its running statement (in the engine too) and any later one. */
  readonly signal?: AbortSignal | undefined;
}

export interface ProjectClockSettings {
  readonly timezone: string;
  readonly weekStartDay: 0 | 1;
}

export class InsightQueryService {
  /** Projects' clock settings by id and last update (a settings change updates the project). */
  private readonly clocks = new LRUCache<string, ProjectClockSettings>({ max: 1000 });

  constructor(
    private readonly access: AccessResolver,
    private readonly actions: ActionsService,
    private readonly executor: QueryExecutor,
    private readonly cohorts: CohortDefinitions,
    /** The property types people set (Data management); they win over the data's in HogQL. */
    private readonly setPropertyTypes: (projectId: number) => Promise<ReadonlyMap<string, PropertyType>> = async () => new Map(),
    private readonly clock: () => DateTime = () => DateTime.utc(),
  ) {}

  async run(principal: Principal, projectParam: string, query: InsightQuery, clientQueryId: string = randomUUID()): Promise<QueryOutcome> {
    return this.runInProject(await this.access.project(principal, projectParam), query, { clientQueryId });
  }

  /**
   * Runs a query in a project the caller has already been allowed into. With `context`, it runs
   * against those definitions (the ones its cache key was made of), on a fresh clock.
   */
  async runInProject(project: ProjectRow, query: InsightQuery, options: RunOptions = {}): Promise<QueryOutcome> {
    const clientQueryId = options.clientQueryId ?? randomUUID();
    const context = options.context ? { ...options.context, now: this.clock() } : await this.contextOf(project, query);
    // HogQL expressions in the query make the engine's refusals the user's fault (400s).
    const run = this.executor.start(project.id, clientQueryId, options.signal, { userWritten: context.hogql !== undefined });
    const started = performance.now();
    const output = await timeQuery(query.kind, () => kindOf(query).run(query, context, run));
    const { results, hasMore, timings: kindTimings, ...extra } = output;
    return {
      results,
      hasMore: hasMore === true,
      extra,
      timezone: context.project.timezone,
      lastRefresh: context.now.toUTC().toISO()!,
      timings: [
        ...(Array.isArray(kindTimings) ? (kindTimings as { k: string; t: number }[]) : []),
        ...run.statements.map((s, i) => ({ k: `./query_${i}`, t: s.ms / 1000 })),
        { k: '.', t: Math.round(performance.now() - started) / 1000 },
      ],
      clientQueryId,
    };
  }

  /**
   * The actors behind one number of an insight (PostHog's ActorsQuery / InsightActorsQuery):
   * always calculated, never cached, as PostHog runs them.
   */
  async actors(project: ProjectRow, request: ActorsRequest, clientQueryId: string = randomUUID()): Promise<ActorsOutcome> {
    const kind = kindOf(request.source);
    if (!kind.actors) throw new ValidationError(`Listing the actors of a ${request.source.kind} is not supported yet.`, 'query.source.kind', 'invalid_choice');
    const context = await this.contextOf(project, request.source);
    const run = this.executor.start(project.id, clientQueryId);
    const started = performance.now();
    const own = await kind.actors(request.source, request.target, context, run, { limit: request.limit, offset: request.offset });
    const output = wantsRecordings(request.target, request.select) ? await withMatchedRecordings(own, request.source, request.target, context, run) : own;
    const picked = request.select?.map((column, i) => {
      // PostHog's people modal selects the person as "actor".
      const at = output.columns.indexOf(column === 'actor' ? 'person' : column);
      if (at < 0) throw new ValidationError(`Column "${column.slice(0, 100)}" is not available here; choose from ${output.columns.join(', ')}.`, `query.select[${i}]`);
      return at;
    });
    return {
      columns: request.select ?? output.columns,
      results: picked ? output.results.map((row) => picked.map((at) => row[at])) : output.results,
      hasMore: output.hasMore,
      limit: request.limit,
      offset: request.offset,
      timezone: context.project.timezone,
      lastRefresh: context.now.toUTC().toISO()!,
      timings: [...run.statements.map((s, i) => ({ k: `./query_${i}`, t: s.ms / 1000 })), { k: '.', t: Math.round(performance.now() - started) / 1000 }],
    };
  }

  /** Persons who reached (funnelStep > 0) or dropped before (funnelStep < 0) a funnel step. */
  async funnelPersons(principal: Principal, projectParam: string, query: FunnelsQuery, options: Parameters<typeof funnelActors>[3]) {
    const project = await this.access.project(principal, projectParam);
    const context = await this.contextOf(project, query);
    return funnelActors(query, context, this.executor.start(project.id), options);
  }

  /** Stops the statements a project's client query id runs, here and in the engine. */
  stopRun(teamId: number, clientQueryId: string): Promise<boolean> {
    return this.executor.cancel(teamId, clientQueryId);
  }

  /** The project's clock settings (memoised: read on every cached insight request). */
  clockOf(project: ProjectRow): ProjectClockSettings {
    // Read on every cached insight request: completing all settings for two of them is not free.
    const memoKey = `${project.id}|${project.updated_at}`;
    const known = this.clocks.get(memoKey);
    if (known) return known;
    const settings = readSettings(project);
    const clock: ProjectClockSettings = { timezone: typeof settings.timezone === 'string' ? settings.timezone : 'UTC', weekStartDay: settings.week_start_day === 1 ? 1 : 0 };
    this.clocks.set(memoKey, clock);
    return clock;
  }

  /** How many persons are in the cohort now (its calculation). */
  async cohortCount(project: ProjectRow, cohortId: number, signal?: AbortSignal): Promise<number> {
    const context = await this.cohortContext(project, cohortId);
    const rows = await this.executor.start(project.id, randomUUID(), signal).rows<{ members: string | number }>(select({
      select: [alias(call('count'), 'members')],
      from: subquery(cohortMembers(cohortId, context), 'members'),
    }));
    return Number(rows[0]?.members ?? 0);
  }

  /** The statement listing the cohort's person ids now (`person_id`), printed for the project. */
  async cohortMembersStatement(project: ProjectRow, cohortId: number): Promise<PrintedQuery> {
    const context = await this.cohortContext(project, cohortId);
    return this.executor.print(cohortMembers(cohortId, context), project.id);
  }

  private async cohortContext(project: ProjectRow, cohortId: number): Promise<QueryContext> {
    const cohorts = await this.cohorts.resolve(project.id, [{ id: cohortId, path: 'id' }]);
    return this.definitionsContext(project, EMPTY_GROUP, cohorts.actionIds, cohorts.cohorts, false);
  }

  /**
   * Everything the runner will know besides the query: the project's settings it reads and the
   * definitions the query names, resolved now. A result's cache key covers all of it but the clock
   * (query/cache/context-key.ts), so what is resolved here must be what the runner uses.
   */
  async contextOf(project: ProjectRow, query: InsightQuery): Promise<QueryContext> {
    // Only a query that filters test accounts depends on the filters.
    const stored = rangedPart(query)?.filterTestAccounts ? readSettings(project).test_account_filters : null;
    const testAccountFilters = readProperties(typeof stored === 'object' ? stored : null, 'test_account_filters');
    const inHogQL = query.kind === 'HogQLQuery' ? await cohortMentionsIn(query.query, project.id, query.values) : { ids: [], names: [], cohortPeople: null };
    const cohortNames = await this.cohorts.idsByName(project.id, inHogQL.names);
    const cohortPeople = inHogQL.cohortPeople === null ? null : cohortPeopleIds(inHogQL.cohortPeople, await this.cohorts.liveDynamicIds(project.id));
    const named = [
      ...cohortsNamedIn(query, 'query'),
      ...cohortsNamedIn(testAccountFilters, 'test_account_filters'),
      ...[...inHogQL.ids, ...cohortNames.values(), ...(cohortPeople ?? [])].map((id) => ({ id, path: 'query.query' })),
    ];
    const cohorts = named.length > 0 ? await this.cohorts.resolve(project.id, named) : null;
    // Test-account filters may hold HogQL filters too.
    const inQuery = await parseHogQLExpressions([query, testAccountFilters], project.id);
    const actionIds = [...kindOf(query).actionIds(query), ...(cohorts?.actionIds ?? []), ...(await this.actionsInHogQL(project, query, inQuery))];
    // The kind's own cleaning, or an is_cleaned_path_exact filter (in the query, test accounts or its actions).
    const cleaning = Boolean(kindOf(query).appliesPathCleaning?.(query)) || mentionsCleanedPath([query, testAccountFilters]);
    const context = await this.definitionsContext(project, testAccountFilters, actionIds, cohorts?.cohorts ?? null, cleaning);
    // An action's step may hold HogQL filters too: parsed with the query's (the parser caches).
    const actionSteps = [...context.actions.values()].map((a) => a.steps);
    const hogql = actionSteps.length > 0 ? await parseHogQLExpressions([query, testAccountFilters, actionSteps], project.id) : inQuery;
    // The types people set: HogQL reads such a property as its type, filters compare by it.
    const overrides = await this.setPropertyTypes(project.id);
    const resolved = {
      ...context,
      ...(hogql ? { hogql } : {}),
      ...(cohortNames.size > 0 ? { cohortNames } : {}),
      ...(cohortPeople ? { cohortPeople } : {}),
      ...(overrides.size > 0 ? { propertyTypeOverrides: overrides } : {}),
    };
    // The types of the properties those expressions read (typed as PostHog types them).
    return hogql ? withHogQLPropertyTypes(resolved, this.executor.start(project.id)) : resolved;
  }

  /**
   * The actions matchesAction names, by id or by name, in a HogQL query or an insight's HogQL
   * expressions (a name no live action has is left for the translator to refuse).
   */
  private async actionsInHogQL(project: ProjectRow, query: InsightQuery, expressions: ReadonlyMap<string, unknown> | undefined): Promise<number[]> {
    const mentions = query.kind === 'HogQLQuery'
      ? await actionMentionsIn(query.query, project.id, query.values)
      : actionMentionsInNodes([...(expressions?.values() ?? [])]);
    const named = await Promise.all(mentions.names.map((name) => this.actions.idByName(project.id, name)));
    return [...mentions.ids, ...named.filter((id): id is number => id !== undefined)];
  }

  private async definitionsContext(
    project: ProjectRow,
    testAccountFilters: PropertyGroup,
    actionIds: readonly number[],
    cohorts: ReadonlyMap<number, CohortDefinition> | null,
    cleaning: boolean,
  ): Promise<QueryContext> {
    const clock = this.clockOf(project);
    const actions = new Map<number, ActionDefinition>();
    const found = await Promise.all([...new Set(actionIds)].map((id) => this.actions.getForQuery(project.id, id)));
    for (const action of found) if (action) actions.set(action.id, action as ActionDefinition);
    const rules = cleaning || mentionsCleanedPath([...actions.values()]) ? pathCleaningRules(readSettings(project).path_cleaning_filters) : [];
    return {
      project: { id: project.id, timezone: clock.timezone, weekStartDay: clock.weekStartDay, ...displayNamesOf(project) },
      now: this.clock(),
      actions,
      testAccountFilters,
      pathCleaningRules: rules,
      ...(cohorts ? { cohorts } : {}),
    };
  }
}

/**
 * The project's path_cleaning_filters as rules: entries without a string regex are skipped; a rule
 * the engine would refuse is a 400 that says to fix the project's setting.
 */
function pathCleaningRules(stored: unknown): PathCleaningRule[] {
  if (!Array.isArray(stored)) return [];
  const rules = stored.flatMap((rule) => (rule && typeof rule === 'object' && typeof rule.regex === 'string'
    ? [{ regex: rule.regex as string, alias: typeof rule.alias === 'string' ? rule.alias : '' }]
    : []));
  rules.forEach((rule, i) => {
    const problem = ruleProblem(rule);
    if (problem) throw new ValidationError(`The project's path cleaning rule ${i + 1}: ${problem.detail}`, `path_cleaning_filters[${i}].${problem.field}`, problem.code);
  });
  return rules;
}

/** The project's display-name properties when it set them (PostHog's defaults apply otherwise). */
function displayNamesOf(project: ProjectRow): { personDisplayNameProperties?: readonly string[] } {
  const names = readSettings(project).person_display_name_properties;
  return Array.isArray(names) && names.length > 0 && names.every((n) => typeof n === 'string') ? { personDisplayNameProperties: names as string[] } : {};
}
