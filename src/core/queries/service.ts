// Runs insight queries for a caller: resolves the project they may see, gathers what the engine
// needs to know about it (clock, test-account filters, the actions the query names), and hands the
// validated query node to its runner. Legacy filter bodies arrive here already converted.
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { DateTime } from 'luxon';
import type { AccessResolver } from '../access.js';
import type { ActionsService } from '../actions/service.js';
import type { Principal } from '../auth/principal.js';
import { readSettings } from '../projects/view.js';
import type { ActionDefinition, QueryContext } from '../../query/context.js';
import type { QueryExecutor, QueryRun } from '../../query/execute.js';
import { readProperties } from '../../query/nodes/read-properties.js';
import type { InsightQuery } from '../../query/nodes/schema.js';
import { funnelActors } from '../../query/runners/funnels/runner.js';
import { RUNNERS } from '../../query/runners/registry.js';
import type { FunnelsQuery } from '../../query/nodes/schema.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';

export interface QueryOutcome {
  readonly results: unknown;
  readonly hasMore: boolean;
  readonly extra: Record<string, unknown>;
  readonly timezone: string;
  readonly lastRefresh: string;
  readonly hogql: string;
  readonly timings: { k: string; t: number }[];
  readonly clientQueryId: string;
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
    private readonly clock: () => DateTime = () => DateTime.utc(),
  ) {}

  async run(principal: Principal, projectParam: string, query: InsightQuery, clientQueryId: string = randomUUID()): Promise<QueryOutcome> {
    return this.runInProject(await this.access.project(principal, projectParam), query, clientQueryId);
  }

  /** Runs a query in a project the caller has already been allowed into. */
  async runInProject(project: ProjectRow, query: InsightQuery, clientQueryId: string = randomUUID()): Promise<QueryOutcome> {
    const context = await this.context(project, query);
    const run = this.executor.start(project.id, clientQueryId);
    const started = performance.now();
    const output = (await (RUNNERS[query.kind] as { run(q: InsightQuery, c: QueryContext, r: QueryRun): Promise<unknown> }).run(query, context, run)) as Record<string, unknown>;
    const { results, hasMore, ...extra } = output;
    return {
      results,
      hasMore: hasMore === true,
      extra,
      timezone: context.project.timezone,
      lastRefresh: context.now.toUTC().toISO()!,
      hogql: run.sqlText,
      timings: [
        ...run.statements.map((s, i) => ({ k: `./query_${i}`, t: s.ms / 1000 })),
        { k: '.', t: Math.round(performance.now() - started) / 1000 },
      ],
      clientQueryId,
    };
  }

  /** Persons who reached (funnelStep > 0) or dropped before (funnelStep < 0) a funnel step. */
  async funnelPersons(principal: Principal, projectParam: string, query: FunnelsQuery, options: Parameters<typeof funnelActors>[3]) {
    const project = await this.access.project(principal, projectParam);
    const context = await this.context(project, query);
    return funnelActors(query, context, this.executor.start(project.id), options);
  }

  /** Stops a running query of this project by the client query id it was started with. */
  async cancel(principal: Principal, projectParam: string, clientQueryId: string): Promise<boolean> {
    const project = await this.access.project(principal, projectParam);
    return this.executor.cancel(project.id, clientQueryId);
  }

  /** The project settings a result depends on besides the query (part of its cache key). */
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

  private async context(project: ProjectRow, query: InsightQuery): Promise<QueryContext> {
    const settings = readSettings(project);
    const clock = this.clockOf(project);
    const actionIds = [...new Set(query.series.filter((s) => s.kind === 'ActionsNode').map((s) => (s as { id: number }).id))];
    if (query.kind === 'FunnelsQuery') {
      for (const exclusion of query.funnelsFilter.exclusions) if (exclusion.id !== undefined) actionIds.push(exclusion.id);
    }
    const actions = new Map<number, ActionDefinition>();
    const found = await Promise.all(actionIds.map((id) => this.actions.getForQuery(project.id, id)));
    for (const action of found) if (action) actions.set(action.id, action as ActionDefinition);
    const stored = settings.test_account_filters;
    const testAccountFilters = readProperties(typeof stored === 'object' ? stored : null, 'test_account_filters');
    return {
      project: {
        id: project.id,
        timezone: clock.timezone,
        weekStartDay: clock.weekStartDay,
        testAccountFilters: settings.test_account_filters,
      },
      now: this.clock(),
      actions,
      testAccountFilters,
    };
  }
}
