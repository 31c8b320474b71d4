// Kysely's SQLite driver prepares every statement anew; preparing costs more than running a
// small indexed query. Kysely emits the same SQL text for the same query shape (values are bound),
// so a bounded cache keyed by text turns repeated queries into reuse of one prepared statement.
import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const MAX_CACHED_STATEMENTS = 500;

export function withStatementCache(database: Database.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql) as unknown as SqliteStatement;
        // Oldest first out: Map keeps insertion order.
        if (statements.size >= MAX_CACHED_STATEMENTS) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
