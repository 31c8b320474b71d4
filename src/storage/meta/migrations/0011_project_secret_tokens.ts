// A project's secret keys (`phs_`) for posthog-node's local evaluation: the primary and, after a
// rotation, the previous one as a backup. Kept in plain text like `api_token`, because the
// project serializer and the settings page show them again (docs/api.md). Looked up by either.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('secret_api_token', 'text').execute();
  await db.schema.alterTable('projects').addColumn('secret_api_token_backup', 'text').execute();
  await db.schema.createIndex('projects_secret_api_token').unique().on('projects').column('secret_api_token').execute();
  await db.schema.createIndex('projects_secret_api_token_backup').unique().on('projects').column('secret_api_token_backup').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('projects_secret_api_token_backup').execute();
  await db.schema.dropIndex('projects_secret_api_token').execute();
  await db.schema.alterTable('projects').dropColumn('secret_api_token_backup').execute();
  await db.schema.alterTable('projects').dropColumn('secret_api_token').execute();
}
