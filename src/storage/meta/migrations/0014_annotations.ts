// Annotations (PostHog's): a note at a date on charts, scoped to an insight, a dashboard, a project
// or the whole organization. Soft-deleted (PostHog forbids hard deletes of them).
import type { Kysely } from 'kysely';
import { autoIdColumn } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await autoIdColumn(db, db.schema.createTable('annotations'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('content', 'text')
    // ISO 8601 in UTC with milliseconds, so text order is time order.
    .addColumn('date_marker', 'text')
    .addColumn('creation_type', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    // PostHog sets these to null when the insight, dashboard or user is gone.
    .addColumn('dashboard_item', 'integer', (c) => c.references('insights.id').onDelete('set null'))
    .addColumn('dashboard_id', 'integer', (c) => c.references('dashboards.id').onDelete('set null'))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('annotations_team_idx').on('annotations').columns(['team_id', 'date_marker']).execute();
  await db.schema.createIndex('annotations_organization_idx').on('annotations').columns(['organization_id', 'scope']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('annotations').execute();
}
