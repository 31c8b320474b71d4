// PostHog's feature flags per project, the per-project flags epoch (bumped by every change, so
// caches of a project's definitions in any process know they are stale), and experience
// continuity's hash key overrides (which identifier a person is bucketed by, per flag key).
import type { Kysely } from 'kysely';
import { autoIdColumn } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await autoIdColumn(db, db.schema.createTable('feature_flags'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull())
    .addColumn('ensure_experience_continuity', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('evaluation_runtime', 'text', (c) => c.notNull())
    .addColumn('bucketing_identifier', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('evaluation_tags', 'text', (c) => c.notNull())
    .addColumn('is_remote_configuration', 'integer', (c) => c.notNull())
    .addColumn('has_encrypted_payloads', 'integer', (c) => c.notNull())
    .addColumn('has_enriched_analytics', 'integer', (c) => c.notNull())
    .addColumn('rollback_conditions', 'text')
    .addColumn('performed_rollback', 'integer')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_modified_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_called_at', 'text')
    // One row per key: a soft-deleted flag is removed when its key is taken again (as PostHog does).
    .addUniqueConstraint('feature_flags_team_key', ['team_id', 'key'])
    .execute();
  await db.schema.createIndex('feature_flags_team_list').on('feature_flags').columns(['team_id', 'deleted', 'created_at']).execute();

  await db.schema
    .createTable('feature_flag_epochs')
    .addColumn('team_id', 'integer', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('epoch', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('feature_flag_hash_key_overrides')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('person_id', 'text', (c) => c.notNull())
    .addColumn('feature_flag_key', 'text', (c) => c.notNull())
    .addColumn('hash_key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('feature_flag_hash_key_overrides_pk', ['team_id', 'person_id', 'feature_flag_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('feature_flag_hash_key_overrides').execute();
  await db.schema.dropTable('feature_flag_epochs').execute();
  await db.schema.dropTable('feature_flags').execute();
}
