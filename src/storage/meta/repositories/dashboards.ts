import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DashboardTilesTable, DashboardsTable, MetaSchema } from '../schema.js';

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

/** Dashboards and their tiles; lookups are by project AND id. */
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

  async listLive(teamId: number, page: { limit: number; offset: number }): Promise<{ count: number; rows: DashboardRow[] }> {
    const base = this.db.selectFrom('dashboards').where('team_id', '=', teamId).where('deleted', '=', 0);
    const [{ count } = { count: 0 }] = await base.select((eb) => eb.fn.countAll().as('count')).execute();
    // PostHog lists pinned dashboards first, then by name.
    const rows = await base.selectAll().orderBy('pinned', 'desc').orderBy(sql`lower(name)`).orderBy('id').limit(page.limit).offset(page.offset).execute();
    return { count: Number(count), rows };
  }

  async update(teamId: number, id: number, changes: DashboardChanges): Promise<void> {
    await this.db.updateTable('dashboards').set(changes).where('team_id', '=', teamId).where('id', '=', id).execute();
  }

  /** Every tile (live or not) of these insights, with their dashboard's deleted flag. */
  async tilesOfInsights(insightIds: readonly number[]): Promise<InsightTileRow[]> {
    if (insightIds.length === 0) return [];
    return this.db
      .selectFrom('dashboard_tiles as t')
      .innerJoin('dashboards as d', 'd.id', 't.dashboard_id')
      .select(['t.id', 't.dashboard_id', 't.insight_id', 't.deleted', 'd.deleted as dashboard_deleted'])
      .where('t.insight_id', 'in', [...new Set(insightIds)])
      .orderBy('t.id')
      .execute();
  }

  /** The dashboard's tiles, oldest first. */
  tilesOfDashboard(dashboardId: number): Promise<TileRow[]> {
    return this.db.selectFrom('dashboard_tiles').selectAll().where('dashboard_id', '=', dashboardId).orderBy('id').execute();
  }

  async insertTile(row: Omit<TileRow, 'id'>): Promise<void> {
    await this.db.insertInto('dashboard_tiles').values(row).execute();
  }

  async updateTile(dashboardId: number, tileId: number, changes: Partial<Pick<TileRow, 'deleted' | 'layouts' | 'color'>>): Promise<void> {
    await this.db.updateTable('dashboard_tiles').set(changes).where('dashboard_id', '=', dashboardId).where('id', '=', tileId).execute();
  }

  /** Soft-deletes every tile of an insight (when the insight is soft-deleted). */
  async deleteTilesOfInsight(insightId: number): Promise<void> {
    await this.db.updateTable('dashboard_tiles').set({ deleted: 1 }).where('insight_id', '=', insightId).execute();
  }
}
