// The shared result cache is bounded by total bytes (issue 27): each entry records the size of
// its response, and eviction takes the oldest calculations first. Entries cached before this had
// no bound at all (one reached 300 MB); the cache holds nothing that cannot be calculated again,
// so they are dropped rather than measured.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('query_cache').execute();
  await db.schema.alterTable('query_cache').addColumn('response_bytes', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Eviction walks entries from the newest calculation back, summing their sizes.
  await db.schema.createIndex('query_cache_last_refresh').on('query_cache').columns(['last_refresh', 'response_bytes']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('query_cache_last_refresh').execute();
  await db.schema.alterTable('query_cache').dropColumn('response_bytes').execute();
}
