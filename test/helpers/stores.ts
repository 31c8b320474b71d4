// The metadata stores every HTTP test runs against: SQLite always, PostgreSQL when
// HOGLET_TEST_DATABASE_URL points at a database (.ci/run sets it up).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type MetaStoreKind = 'sqlite' | 'postgres';

const postgresUrl = process.env.HOGLET_TEST_DATABASE_URL?.trim() || null;

export const META_STORES: MetaStoreKind[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

if (!postgresUrl && process.env.CI) {
  throw new Error('CI must test PostgreSQL too: HOGLET_TEST_DATABASE_URL is not set');
}

/**
 * A fresh PostgreSQL schema for one test app, and a URL whose connections use it, so test
 * files running in parallel never see each other's rows.
 */
export async function freshPostgresSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!postgresUrl) throw new Error('HOGLET_TEST_DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}
