import type { Kysely, Selectable } from 'kysely';
import type { MetaSchema, SharingConfigurationsTable } from '../schema.js';

export type SharingRow = Selectable<SharingConfigurationsTable>;

/**
 * Sharing configurations of insights, dashboards and session recordings; a token names at most one configuration anywhere. Reads and
 * writes by id take the project too; only a token (itself the credential) is looked up alone.
 */
export class SharingRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  forInsight(teamId: number, insightId: number): Promise<SharingRow | undefined> {
    return this.forTarget(teamId, 'insight_id', insightId);
  }

  byToken(accessToken: string): Promise<SharingRow | undefined> {
    return this.db.selectFrom('sharing_configurations').selectAll().where('access_token', '=', accessToken).executeTakeFirst();
  }

  /** Creates the insight's configuration, or returns the one a concurrent request created first. */
  async insertForInsight(row: Omit<SharingRow, 'id' | 'recording_id'> & { insight_id: number }): Promise<SharingRow> {
    await this.db.insertInto('sharing_configurations').values(row).onConflict((oc) => oc.columns(['team_id', 'insight_id']).doNothing()).execute();
    return (await this.forInsight(row.team_id, row.insight_id))!;
  }

  forDashboard(teamId: number, dashboardId: number): Promise<SharingRow | undefined> {
    return this.forTarget(teamId, 'dashboard_id', dashboardId);
  }

  /** Creates the dashboard's configuration, or returns the one a concurrent request created first. */
  async insertForDashboard(row: Omit<SharingRow, 'id' | 'recording_id'> & { dashboard_id: number }): Promise<SharingRow> {
    await this.db.insertInto('sharing_configurations').values(row).onConflict((oc) => oc.columns(['team_id', 'dashboard_id']).doNothing()).execute();
    return (await this.forDashboard(row.team_id, row.dashboard_id))!;
  }

  forRecording(teamId: number, sessionId: string): Promise<SharingRow | undefined> {
    return this.forTarget(teamId, 'recording_id', sessionId);
  }

  /** Creates the recording's configuration, or returns the one a concurrent request created first. */
  async insertForRecording(row: Omit<SharingRow, 'id' | 'insight_id' | 'dashboard_id'> & { recording_id: string }): Promise<SharingRow> {
    await this.db
      .insertInto('sharing_configurations')
      .values({ ...row, insight_id: null, dashboard_id: null })
      .onConflict((oc) => oc.columns(['team_id', 'recording_id']).doNothing())
      .execute();
    return (await this.forRecording(row.team_id, row.recording_id))!;
  }

  /** Which of these dashboards are shared now (PostHog's `is_shared`). */
  async sharedDashboardIds(teamId: number, dashboardIds: readonly number[]): Promise<Set<number>> {
    if (dashboardIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('sharing_configurations')
      .select('dashboard_id')
      .where('team_id', '=', teamId)
      .where('dashboard_id', 'in', [...dashboardIds])
      .where('enabled', '=', 1)
      .execute();
    return new Set(rows.map((r) => r.dashboard_id!));
  }

  async update(teamId: number, id: number, changes: Partial<Pick<SharingRow, 'enabled' | 'access_token'>>): Promise<void> {
    await this.db.updateTable('sharing_configurations').set(changes).where('team_id', '=', teamId).where('id', '=', id).execute();
  }

  /** The project's configuration for one shared thing, found by its column. */
  private forTarget<C extends 'insight_id' | 'dashboard_id' | 'recording_id'>(teamId: number, column: C, value: NonNullable<SharingRow[C]>): Promise<SharingRow | undefined> {
    return this.db
      .selectFrom('sharing_configurations')
      .selectAll()
      .where('team_id', '=', teamId)
      .where(column, '=', value as never)
      .executeTakeFirst();
  }
}
