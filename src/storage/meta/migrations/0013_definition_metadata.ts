// What people say about their event and property definitions (PostHog's Data management): the
// names themselves still come from the stored events and persons; a row exists only once someone
// edits a definition. Rows are keyed by the same name-based ids the definitions API gives out.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_definitions')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('verified', 'integer', (c) => c.notNull())
    .addColumn('verified_at', 'text')
    .addColumn('verified_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // Set by DELETE: the name is left out until an event of it arrives after this time.
    .addColumn('deleted_at', 'text')
    .addPrimaryKeyConstraint('event_definitions_pk', ['team_id', 'id'])
    .execute();
  await db.schema
    .createTable('property_definitions')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // event, person or group:<index>, as ids.ts names the owner.
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    // Set by a person: wins over the type read from the values seen (null: the data decides).
    .addColumn('property_type', 'text')
    .addColumn('verified', 'integer', (c) => c.notNull())
    .addColumn('verified_at', 'text')
    .addColumn('verified_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addPrimaryKeyConstraint('property_definitions_pk', ['team_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('property_definitions').execute();
  await db.schema.dropTable('event_definitions').execute();
}
