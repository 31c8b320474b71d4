// Sharing a dashboard uses the insights' sharing_configurations rows (dashboard_id set instead of
// insight_id): one configuration per dashboard, even when two requests enable sharing at once.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('sharing_configurations_dashboard').unique().on('sharing_configurations').columns(['team_id', 'dashboard_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sharing_configurations_dashboard').execute();
}
