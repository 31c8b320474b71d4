// Capture has one writer per event data set (persons are read, cached and versioned in that
// process): the process holding a data set's lease writes its events; others refuse capture.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('capture_writer_leases')
    .addColumn('store_key', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('heartbeat_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('capture_writer_leases').execute();
}
