// Migration 0012 on a store that already has members: each membership gets its own id (a UUID)
// and an updated_at, so the members API can name them, and the new invites table exists.
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../src/storage/meta/migrations/index.js';
import { freshPostgresSchema, META_STORES } from '../../helpers/stores.js';

describe.each(META_STORES)('meta migration 0012 on %s', (store) => {
  it('fills the id and updated_at of existing memberships and adds the invites table', async () => {
    const schema = store === 'postgres' ? await freshPostgresSchema() : null;
    const db = new Kysely<any>({
      dialect: schema ? new PostgresDialect({ pool: new pg.Pool({ connectionString: schema.url, max: 2 }) }) : new SqliteDialect({ database: new Database(':memory:') }),
    });
    try {
      const tableSchema = schema ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s : undefined;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(tableSchema ? { migrationTableSchema: tableSchema } : {}) });
      expect((await migrator.migrateTo('0011_project_secret_tokens')).error).toBeUndefined();
      const at = '2026-01-01T00:00:00.000Z';
      await db.insertInto('organizations').values({ id: '00000000-0000-4000-8000-00000000000a', name: 'A', slug: 'a', created_at: at, updated_at: at }).execute();
      for (const n of [1, 2]) {
        await db.insertInto('users').values({ uuid: `00000000-0000-4000-8000-00000000010${n}`, distinct_id: `d${n}`, first_name: 'U', last_name: '', email: `u${n}@example.com`, is_email_verified: 0, created_at: at }).execute();
      }
      const users = await db.selectFrom('users').select('id').orderBy('id').execute();
      for (const u of users) await db.insertInto('organization_memberships').values({ organization_id: '00000000-0000-4000-8000-00000000000a', user_id: u.id, level: 1, created_at: at }).execute();

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const rows = await db.selectFrom('organization_memberships').select(['uuid', 'updated_at']).execute();
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(row.updated_at).toBe(at);
      }
      expect(rows[0]!.uuid).not.toBe(rows[1]!.uuid);
      expect(await db.selectFrom('organization_invites').selectAll().execute()).toEqual([]);
      const user = await db.selectFrom('users').select(['last_login']).executeTakeFirstOrThrow();
      expect(user.last_login).toBeNull();
      // And back down, as every migration can.
      expect((await migrator.migrateTo('0011_project_secret_tokens')).error).toBeUndefined();
    } finally {
      await db.destroy();
      await schema?.drop();
    }
  });
});
