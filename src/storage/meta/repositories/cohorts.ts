import type { Kysely, Selectable } from 'kysely';
import type { CohortsTable, MetaSchema } from '../schema.js';
import { anyContains } from './like.js';

export type CohortRow = Selectable<CohortsTable>;

export type CohortChanges = Partial<Omit<CohortRow, 'id' | 'team_id' | 'created_by' | 'created_at'>>;

/** What the query engine reads of a cohort. */
export type CohortQueryRow = Pick<CohortRow, 'id' | 'name' | 'filters' | 'is_static' | 'version'>;

export interface CohortListQuery {
  readonly limit: number;
  readonly offset: number;
  readonly search: string | null;
  readonly type: 'static' | 'dynamic' | null;
  readonly createdById: number | null;
}

/** Every lookup is by project (team) AND id, so one project never reaches another's cohorts. */
export class CohortsRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  insert(cohort: Omit<CohortRow, 'id'>): Promise<CohortRow> {
    return this.db.insertInto('cohorts').values(cohort).returningAll().executeTakeFirstOrThrow();
  }

  /** The cohort, deleted or not. */
  findInProject(teamId: number, id: number): Promise<CohortRow | undefined> {
    return this.db.selectFrom('cohorts').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
  }

  /** Live cohorts, newest first (PostHog's order), narrowed by name, kind and creator. */
  async listLive(teamId: number, filter: CohortListQuery): Promise<{ count: number; rows: CohortRow[] }> {
    const page = filter;
    let base = this.db.selectFrom('cohorts').where('team_id', '=', teamId).where('deleted', '=', 0);
    const { search } = filter;
    if (search) base = base.where((eb) => eb.or(anyContains(['name'], search)));
    if (filter.type !== null) base = base.where('is_static', '=', filter.type === 'static' ? 1 : 0);
    if (filter.createdById !== null) base = base.where('created_by', '=', filter.createdById);
    const [{ count } = { count: 0 }] = await base.select((eb) => eb.fn.countAll().as('count')).execute();
    const rows = await base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
    return { count: Number(count), rows };
  }

  /** Live cohorts by id, for the query engine (a missing or deleted one is absent). */
  findLiveForQuery(teamId: number, ids: readonly number[]): Promise<CohortQueryRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('cohorts')
      .select(['id', 'name', 'filters', 'is_static', 'version'])
      .where('team_id', '=', teamId)
      .where('id', 'in', [...ids])
      .where('deleted', '=', 0)
      .execute();
  }

  /** Every live dynamic cohort's criteria (what may name a cohort whose criteria change). */
  async liveDynamicCriteria(teamId: number): Promise<{ id: number; filters: string }[]> {
    const rows = await this.db
      .selectFrom('cohorts')
      .select(['id', 'filters'])
      .where('team_id', '=', teamId)
      .where('deleted', '=', 0)
      .where('is_static', '=', 0)
      .where('filters', 'is not', null)
      .execute();
    return rows.map((row) => ({ id: row.id, filters: row.filters! }));
  }

  /** The newest live cohort of the project with exactly this name (HogQL's IN COHORT 'name'). */
  async liveIdByName(teamId: number, name: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('cohorts')
      .select('id')
      .where('team_id', '=', teamId)
      .where('name', '=', name)
      .where('deleted', '=', 0)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }

  /** Removes a cohort that was never announced (its static persons could not be stored). */
  async remove(teamId: number, id: number): Promise<void> {
    await this.db.deleteFrom('cohorts').where('team_id', '=', teamId).where('id', '=', id).execute();
  }

  async update(teamId: number, id: number, changes: CohortChanges): Promise<void> {
    await this.db.updateTable('cohorts').set(changes).where('team_id', '=', teamId).where('id', '=', id).execute();
  }

  /** Marks a project's live dynamic cohorts for counting again (their next read counts them): persons went away. */
  async recountDynamic(teamId: number): Promise<void> {
    await this.db.updateTable('cohorts').set({ is_calculating: 1 }).where('team_id', '=', teamId).where('deleted', '=', 0).where('is_static', '=', 0).execute();
  }

  /** Records a finished calculation unless the cohort changed since it started (its version moved). */
  async finishCalculation(teamId: number, id: number, version: number, outcome: { count: number; at: string } | { error: string }): Promise<void> {
    const changes: CohortChanges = 'error' in outcome
      ? { is_calculating: 0, last_error: outcome.error }
      : { is_calculating: 0, count: outcome.count, last_calculation: outcome.at, errors_calculating: 0, last_error: null };
    let update = this.db.updateTable('cohorts').set(changes).where('team_id', '=', teamId).where('id', '=', id).where('version', '=', version);
    if ('error' in outcome) update = update.set((eb) => ({ errors_calculating: eb('errors_calculating', '+', 1) }));
    await update.execute();
  }
}
