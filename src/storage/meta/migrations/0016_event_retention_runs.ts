// What the event retention job last did per project (issue 32): the cutoff it applied, when, and
// how many events it removed, so the project's settings can say what is gone. The setting itself
// (event_retention_months) lives in the project's settings JSON like every other setting.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_retention_runs')
    .ifNotExists()
    .addColumn('team_id', 'integer', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    // ISO 8601 in UTC: events before this instant were removed.
    .addColumn('cutoff', 'text', (c) => c.notNull())
    .addColumn('ran_at', 'text', (c) => c.notNull())
    // Removed by the last run that removed any (0 once nothing was left to remove).
    .addColumn('events_removed', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_retention_runs').ifExists().execute();
}
