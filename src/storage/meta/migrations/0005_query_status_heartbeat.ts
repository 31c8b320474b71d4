// Background calculations record the process running them and its heartbeat, so a calculation
// whose process died is taken over instead of blocking its insight until the status expires.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('query_status').addColumn('owner', 'text').execute();
  await db.schema.alterTable('query_status').addColumn('heartbeat_at', 'text').execute();
  // Heartbeats update rows by task id.
  await db.schema.createIndex('query_status_task_id').on('query_status').column('task_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('query_status_task_id').execute();
  await db.schema.alterTable('query_status').dropColumn('heartbeat_at').execute();
  await db.schema.alterTable('query_status').dropColumn('owner').execute();
}
