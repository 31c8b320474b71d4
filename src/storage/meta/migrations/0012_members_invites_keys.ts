// People and access managed from the API and the web app: organization invites (PostHog's
// OrganizationInvite), a membership's own id (a UUID, as PostHog's member serializer shows) and
// its updated_at, a user's last sign-in, and when a personal API key was last rolled.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organization_invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('target_email', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('organization_invites_org').on('organization_invites').columns(['organization_id', 'created_at']).execute();

  await db.schema.alterTable('organization_memberships').addColumn('uuid', 'text').execute();
  await db.schema.alterTable('organization_memberships').addColumn('updated_at', 'text').execute();
  // Existing memberships get their id now; new ones are given one on insert.
  const rows = await db.selectFrom('organization_memberships').select(['id', 'created_at']).execute();
  for (const row of rows) {
    await db.updateTable('organization_memberships').set({ uuid: randomUUID(), updated_at: row.created_at }).where('id', '=', row.id).execute();
  }
  await db.schema.createIndex('organization_memberships_uuid').unique().on('organization_memberships').column('uuid').execute();

  await db.schema.alterTable('users').addColumn('last_login', 'text').execute();
  await db.schema.alterTable('personal_api_keys').addColumn('last_rolled_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('personal_api_keys').dropColumn('last_rolled_at').execute();
  await db.schema.alterTable('users').dropColumn('last_login').execute();
  await db.schema.dropIndex('organization_memberships_uuid').execute();
  await db.schema.alterTable('organization_memberships').dropColumn('updated_at').execute();
  await db.schema.alterTable('organization_memberships').dropColumn('uuid').execute();
  await db.schema.dropTable('organization_invites').execute();
}
