// A metadata write the server acknowledged (a saved insight, a key, a password) is on disk before
// the answer: SQLite commits with synchronous=FULL (the WAL is fsync'd per commit), PostgreSQL
// with its default synchronous_commit=on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openMetaStore } from '../../../src/storage/meta/connect.js';
import { META_STORES, freshPostgresSchema } from '../../helpers/stores.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe.each(META_STORES)('metadata commits on %s', (kind) => {
  it('wait for the disk before returning', async () => {
    if (kind === 'sqlite') {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-meta-sync-'));
      dirs.push(dataDir);
      const store = await openMetaStore({ dataDir, databaseUrl: null });
      try {
        const { rows } = await sql<{ synchronous: number; journal_mode?: string }>`PRAGMA synchronous`.execute(store.db);
        expect(rows[0]!.synchronous).toBe(2); // FULL
        const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(store.db);
        expect(mode.rows[0]!.journal_mode).toBe('wal');
      } finally {
        await store.close();
      }
    } else {
      const schema = await freshPostgresSchema();
      const store = await openMetaStore({ dataDir: os.tmpdir(), databaseUrl: schema.url });
      try {
        const { rows } = await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(store.db);
        expect(rows[0]!.synchronous_commit).toBe('on');
      } finally {
        await store.close();
        await schema.drop();
      }
    }
  });
});
