import { sql, type Kysely } from 'kysely';
import { autoIdColumn } from './helpers.js';

// Kysely migrations must accept any schema: they describe the database as it was at the time.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await autoIdColumn(db, db.schema.createTable('users'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('distinct_id', 'text', (c) => c.notNull().unique())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('is_email_verified', 'integer', (c) => c.notNull())
    .addColumn('hedgehog_config', 'text')
    .addColumn('current_organization_id', 'text')
    .addColumn('current_project_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await autoIdColumn(db, db.schema.createTable('organization_memberships'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('organization_memberships_org_user', ['organization_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('organization_memberships_user')
    .on('organization_memberships')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('personal_api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('secure_value', 'text', (c) => c.notNull().unique())
    .addColumn('mask_value', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('scoped_organizations', 'text')
    .addColumn('scoped_teams', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();

  await autoIdColumn(db, db.schema.createTable('projects'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('api_token', 'text', (c) => c.notNull().unique())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_organization').on('projects').columns(['organization_id', 'id']).execute();

  await db.schema
    .createTable('activity_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('is_system', 'integer', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('activity', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('activity_log_project_scope')
    .on('activity_log')
    .columns(['project_id', 'scope', 'item_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into counters (name, value) values ('api_key_epoch', 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['counters', 'activity_log', 'projects', 'personal_api_keys', 'organization_memberships', 'users', 'organizations']) {
    await db.schema.dropTable(table).execute();
  }
}
