import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { DashboardTilesTable, DashboardsTable, MetaSchema } from '../schema.js';
import { anyContains } from './like.js';

export type DashboardRow = Selectable<DashboardsTable>;
export type DashboardChanges = Omit<Updateable<DashboardsTable>, 'id' | 'team_id' | 'created_at' | 'created_by'>;
export type TileRow = Selectable<DashboardTilesTable>;

/** A tile as an insight shows it, with whether its dashboard is deleted. */
export interface InsightTileRow {
  id: number;
  dashboard_id: number;
  insight_id: number;
  deleted: number | null;
  dashboard_deleted: number;
}

/**
 * Dashboards and their tiles. Every method takes the project and puts it in its WHERE clause (a
 * tile through its dashboard and its insight), so a right id in the wrong project finds and changes
 * nothing, whatever the caller checked.
 */
// Read by every insight view: compiled once (compiled-once.ts).
const TILES_OF_INSIGHTS = compiledOnce((db: Kysely<MetaSchema>, teamId: number, insightIds: readonly number[]) =>
  db
    .selectFrom('dashboard_tiles as t')
    .innerJoin('dashboards as d', 'd.id', 't.dashboard_id')
    .innerJoin('insights as i', 'i.id', 't.insight_id')
    .select(['t.id', 't.dashboard_id', 't.insight_id', 't.deleted', 'd.deleted as dashboard_deleted'])
    .where('d.team_id', '=', teamId)
    .where('i.team_id', '=', teamId)
    .where('t.insight_id', 'in', insightIds)
    .orderBy('t.id'),
);

export class DashboardsRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  async insert(row: Omit<DashboardRow, 'id'>): Promise<DashboardRow> {
    return this.db.insertInto('dashboards').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** The dashboard, deleted or not. */
  findById(teamId: number, id: number): Promise<DashboardRow | undefined> {
    return this.db.selectFrom('dashboards').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
  }

  /** Dashboards of the project among `ids`, deleted ones included. */
  async findMany(teamId: number, ids: readonly number[]): Promise<DashboardRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('dashboards').selectAll().where('team_id', '=', teamId).where('id', 'in', [...new Set(ids)]).execute();
  }

  /** Live dashboards of the project; `search` keeps those whose name or description contains it (any case, taken literally). */
  async listLive(teamId: number, search: string | null, page: { limit: number; offset: number }): Promise<{ count: number; rows: DashboardRow[] }> {
    let base = this.db.selectFrom('dashboards').where('team_id', '=', teamId).where('deleted', '=', 0);
    if (search) base = base.where((eb) => eb.or(anyContains(['name', 'description'], search)));
    const [{ count } = { count: 0 }] = await base.select((eb) => eb.fn.countAll().as('count')).execute();
    // PostHog lists pinned dashboards first, then by name.
    const rows = await base.selectAll().orderBy('pinned', 'desc').orderBy(sql`lower(name)`).orderBy('id').limit(page.limit).offset(page.offset).execute();
    return { count: Number(count), rows };
  }

  async update(teamId: number, id: number, changes: DashboardChanges): Promise<void> {
    await this.db.updateTable('dashboards').set(changes).where('team_id', '=', teamId).where('id', '=', id).execute();
  }

  /** Every tile (live or not) of these insights of the project, with their dashboard's deleted flag. */
  async tilesOfInsights(teamId: number, insightIds: readonly number[]): Promise<InsightTileRow[]> {
    if (insightIds.length === 0) return [];
    return TILES_OF_INSIGHTS.all(this.db, teamId, [...new Set(insightIds)]);
  }

  /** The tiles of a dashboard of the project, oldest first. */
  tilesOfDashboard(teamId: number, dashboardId: number): Promise<TileRow[]> {
    return this.db
      .selectFrom('dashboard_tiles as t')
      .innerJoin('dashboards as d', 'd.id', 't.dashboard_id')
      .selectAll('t')
      .where('d.team_id', '=', teamId)
      .where('t.dashboard_id', '=', dashboardId)
      .orderBy('t.id')
      .execute();
  }

  /** Puts an insight on a dashboard when both belong to the project; returns whether it did. */
  async insertTile(teamId: number, row: Omit<TileRow, 'id'>): Promise<boolean> {
    const result = await this.db
      .insertInto('dashboard_tiles')
      .columns(['dashboard_id', 'insight_id', 'layouts', 'color', 'deleted', 'created_at'])
      .expression(
        this.db
          .selectFrom('dashboards as d')
          .innerJoin('insights as i', (join) => join.on('i.id', '=', row.insight_id).on('i.team_id', '=', teamId))
          // Typed casts: PostgreSQL cannot infer a parameter's type from a SELECT list.
          .select([
            'd.id as dashboard_id',
            'i.id as insight_id',
            sql<string>`cast(${row.layouts} as text)`.as('layouts'),
            sql<string | null>`cast(${row.color} as text)`.as('color'),
            sql<number | null>`cast(${row.deleted} as integer)`.as('deleted'),
            sql<string>`cast(${row.created_at} as text)`.as('created_at'),
          ])
          .where('d.id', '=', row.dashboard_id)
          .where('d.team_id', '=', teamId),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async updateTile(teamId: number, dashboardId: number, tileId: number, changes: Partial<Pick<TileRow, 'deleted' | 'layouts' | 'color'>>): Promise<void> {
    await this.db
      .updateTable('dashboard_tiles')
      .set(changes)
      .where('id', '=', tileId)
      .where('dashboard_id', '=', dashboardId)
      .where('dashboard_id', 'in', this.db.selectFrom('dashboards').select('id').where('team_id', '=', teamId))
      .execute();
  }

  /** Soft-deletes every tile of an insight of the project (when the insight is soft-deleted). */
  async deleteTilesOfInsight(teamId: number, insightId: number): Promise<void> {
    await this.db
      .updateTable('dashboard_tiles')
      .set({ deleted: 1 })
      .where('insight_id', '=', insightId)
      .where('insight_id', 'in', this.db.selectFrom('insights').select('id').where('team_id', '=', teamId))
      .execute();
  }
}
