// Opens the metadata store: SQLite in the data directory by default, PostgreSQL when a URL is given.
// Migrations run here, so every process (server or CLI) sees an up-to-date schema.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteAdapter, SqliteDialect, sql, type DialectAdapter, type Migration } from 'kysely';
import type { MetaSchema } from './schema.js';
import { migrations } from './migrations/index.js';
import { withStatementCache } from './sqlite-statement-cache.js';

export type MetaDialect = 'sqlite' | 'postgres';

export interface MetaStore {
  readonly db: Kysely<MetaSchema>;
  readonly dialect: MetaDialect;
  /** Throws when the store cannot answer a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface MetaStoreOptions {
  dataDir: string;
  databaseUrl: string | null;
}

export const SQLITE_FILE_NAME = 'hoglet.sqlite3';

/**
 * SQLite runs DDL inside transactions, but Kysely's adapter says it does not, so its migrator would
 * run each statement on its own: a migration failing half way would stay half applied (and its
 * next run fail on what it had created). Saying yes makes the migrator run every pending
 * migration and its bookkeeping in one transaction, as on PostgreSQL.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class TransactionalDdlSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

export function openSqlite(dataDir: string): Kysely<MetaSchema> {
  fs.mkdirSync(dataDir, { recursive: true });
  const database = new Database(path.join(dataDir, SQLITE_FILE_NAME));
  database.pragma('journal_mode = WAL');
  // The CLI and the server share the file; wait for a writer instead of failing at once.
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // FULL: a committed write (a saved insight, a new key, a password) is in the fsync'd WAL before
  // the answer, so a power cut loses nothing acknowledged. NORMAL would lose the last commits
  // since a checkpoint; metadata writes are few, so the fsync per commit is cheap here.
  database.pragma('synchronous = FULL');
  return new Kysely<MetaSchema>({ dialect: new TransactionalDdlSqliteDialect({ database: withStatementCache(database) }) });
}

function openPostgres(databaseUrl: string): Kysely<MetaSchema> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  return new Kysely<MetaSchema>({ dialect: new PostgresDialect({ pool }) });
}

/** Applies every pending migration in one transaction (both stores): all of them, or none. */
export async function migrateToLatest(
  db: Kysely<MetaSchema>,
  dialect: MetaDialect,
  all: Record<string, Migration> = migrations,
): Promise<void> {
  // On PostgreSQL, name the schema: Kysely otherwise finds its bookkeeping tables in any schema
  // of the database (another Hoglet's, say) and skips creating its own.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => all },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`metadata migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
}

export async function openMetaStore(options: MetaStoreOptions): Promise<MetaStore> {
  const dialect: MetaDialect = options.databaseUrl ? 'postgres' : 'sqlite';
  const db = options.databaseUrl ? openPostgres(options.databaseUrl) : openSqlite(options.dataDir);
  try {
    await migrateToLatest(db, dialect);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    db,
    dialect,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
