// A data directory's migration levels: the highest migration applied to each store. Read without
// migrating, so `hoglet status` and `--version` can look at an older directory and leave it alone.
import { sql, type Kysely } from 'kysely';
import type { EventStore } from './events/event-store.js';
import { EVENT_STORE_MIGRATIONS } from './events/migrations/index.js';
import { TABLES } from './events/tables.js';
import { migrations as META_MIGRATIONS } from './meta/migrations/index.js';

export interface MigrationLevels {
  /** The metadata store's (SQLite or PostgreSQL): the number its newest applied migration's name starts with. */
  metadata: number | null;
  /** The event store's: its newest applied migration's version. */
  events: number | null;
}

/** The levels this code migrates a data directory to. */
export const CURRENT_MIGRATION_LEVELS: { metadata: number; events: number } = {
  metadata: Math.max(...Object.keys(META_MIGRATIONS).map(levelOfName)),
  events: Math.max(...EVENT_STORE_MIGRATIONS.map((m) => m.version)),
};

function levelOfName(name: string): number {
  return Number(/^\d+/.exec(name)?.[0] ?? 0);
}

/** Null when no migration ran yet (a new or foreign database). Kysely keeps its own table. */
export async function metadataMigrationLevel(db: Kysely<any>): Promise<number | null> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(db);
    return rows[0] ? levelOfName(rows[0].name) : null;
  } catch (error) {
    if (/no such table|does not exist/i.test(String(error))) return null; // no bookkeeping table: nothing migrated
    throw error;
  }
}

export async function eventStoreMigrationLevel(store: EventStore): Promise<number | null> {
  try {
    // Bookkeeping, not analysis: off the query lane, so /_health neither waits for capture nor
    // queues behind busy projects.
    const rows = await store.query<{ level: number | string | null }>(
      `SELECT max(version) AS level, count() AS n FROM ${store.layout.database}.${TABLES.migrations} HAVING n > 0`,
      {},
      { lane: 'persons' },
    );
    return rows[0]?.level == null ? null : Number(rows[0].level);
  } catch (error) {
    if (/UNKNOWN_(TABLE|DATABASE)|doesn't exist|does not exist/i.test(String(error))) return null;
    throw error;
  }
}
