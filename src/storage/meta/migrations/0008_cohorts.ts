// PostHog's cohorts: named groups of persons per project, defined by conditions (dynamic) or by a
// list of persons (static; the list itself lives in the event store beside the persons).
import type { Kysely } from 'kysely';
import { autoIdColumn } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await autoIdColumn(db, db.schema.createTable('cohorts'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('filters', 'text')
    .addColumn('groups', 'text', (c) => c.notNull())
    .addColumn('is_static', 'integer', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull())
    .addColumn('is_calculating', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer')
    .addColumn('last_calculation', 'text')
    .addColumn('errors_calculating', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The list (live cohorts of a project, newest first) and name look-ups (HogQL's IN COHORT 'name').
  await db.schema.createIndex('cohorts_team_list').on('cohorts').columns(['team_id', 'deleted', 'created_at']).execute();
  await db.schema.createIndex('cohorts_team_name').on('cohorts').columns(['team_id', 'name']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cohorts').execute();
}
