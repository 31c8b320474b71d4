// PostHog's actions: named sets of steps (event, URL, element and property conditions) per project.
import type { Kysely } from 'kysely';
import { autoIdColumn } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await autoIdColumn(db, db.schema.createTable('actions'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('post_to_slack', 'integer', (c) => c.notNull())
    .addColumn('slack_message_format', 'text', (c) => c.notNull())
    .addColumn('steps', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_calculated_at', 'text')
    .addColumn('pinned_at', 'text')
    .addColumn('bytecode', 'text')
    .addColumn('bytecode_error', 'text')
    .execute();
  // Name look-ups (uniqueness among live actions) and the list's order.
  await db.schema.createIndex('actions_team_name').on('actions').columns(['team_id', 'name']).execute();
  await db.schema
    .createIndex('actions_team_list')
    .on('actions')
    .columns(['team_id', 'deleted', 'last_calculated_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('actions').execute();
}
