// Sharing a session recording by link (PostHog's SharingConfiguration.recording): the
// insights' sharing_configurations rows with recording_id (the session id) set instead, one
// configuration per recording of a project even when two requests enable sharing at once.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sharing_configurations').addColumn('recording_id', 'text').execute();
  await db.schema.createIndex('sharing_configurations_recording').unique().on('sharing_configurations').columns(['team_id', 'recording_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sharing_configurations_recording').execute();
  await db.schema.alterTable('sharing_configurations').dropColumn('recording_id').execute();
}
