// Upgrades: data directories written by earlier commits of Hoglet (test/fixtures/upgrades, made by
// scripts/build-upgrade-fixture.sh) open with the current code, migrate to the current level (and
// again, changing nothing) and answer what the old server answered. A migration that fails half
// way leaves the store at its old level, its data readable, and the next start finishes it.
// The fixtures are SQLite + embedded chDB directories: each is opened in this process in turn
// (chDB holds one directory at a time, so no other store is opened here).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services.js';
import { openEventStore } from '../../src/storage/events/connect.js';
import { EVENT_STORE_MIGRATIONS, migrateEventStore, type EventStoreMigration } from '../../src/storage/events/migrations/index.js';
import { TABLES } from '../../src/storage/events/tables.js';
import { migrateToLatest, openSqlite, SQLITE_FILE_NAME } from '../../src/storage/meta/connect.js';
import { migrations } from '../../src/storage/meta/migrations/index.js';
import { freshPostgresSchema, META_STORES } from '../helpers/stores.js';

interface Fixture {
  commit: string;
  migration_levels: { metadata: number; events: number };
  personal_api_key: string;
  projects: { a: number; b: number };
  events: { a: number; b: number };
  persons: string[][] | null;
  cohort: { id: number; name: string } | null;
  insight: { id: number; short_id: string; name: string } | null;
  answers: Array<{ name: string; project: number; query: { kind: string }; answer: unknown }>;
}

const FIXTURES_DIR = path.resolve('test/fixtures/upgrades');
const fixtures: Fixture[] = fs
  .readdirSync(FIXTURES_DIR)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, name), 'utf8')) as Fixture)
  .sort((a, b) => a.migration_levels.metadata - b.migration_levels.metadata || a.migration_levels.events - b.migration_levels.events);

const META_LEVEL = Object.keys(migrations).length;
const EVENTS_LEVEL = Math.max(...EVENT_STORE_MIGRATIONS.map((m) => m.version));

// Opening a directory migrates it (the sessions backfill included): seconds on a quiet machine.
const SLOW = 120_000;

const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function unpack(commit: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `hoglet-upgrade-${commit}-`));
  scratch.push(dir);
  execFileSync('tar', ['-xzf', path.join(FIXTURES_DIR, `${commit}.tar.gz`), '-C', dir]);
  return dir;
}

/** The metadata level as Kysely recorded it, read beside the app. */
function metaLevelOf(dataDir: string): number {
  const db = new Database(path.join(dataDir, SQLITE_FILE_NAME));
  try {
    return (db.prepare('select count(*) as n from kysely_migration').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const configOf = (dataDir: string) => loadConfig({ dataDir }, {});

async function eventsLevelOf(services: Services): Promise<number> {
  const rows = await services.events.query<{ level: number }>(
    `SELECT max(version) AS level FROM ${services.events.layout.database}.${TABLES.migrations}`,
  );
  return Number(rows[0]!.level);
}

/** What test/fixtures/upgrades/*.json keep of an answer (as scripts/upgrade-fixture-data.js). */
function normalized(query: { kind: string }, body: { results: Array<Record<string, unknown>> }): unknown {
  if (query.kind === 'HogQLQuery') return body.results;
  return body.results.map((series) => ({ label: series.label, days: series.days, data: series.data, count: series.count }));
}

async function withApp<T>(dataDir: string, fixture: Fixture, use: (ask: Ask, services: Services) => Promise<T>): Promise<T> {
  const services = await createServices(configOf(dataDir));
  const app = await buildApp(services);
  try {
    await app.ready();
    const ask: Ask = async (method, url, payload) => {
      const response = await app.inject({ method, url, payload, headers: { authorization: `Bearer ${fixture.personal_api_key}` } });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
      return response.json();
    };
    return await use(ask, services);
  } finally {
    await app.close();
    await services.close();
  }
}
type Ask = (method: 'GET' | 'POST', url: string, payload?: object) => Promise<any>;

const hogql = (ask: Ask, project: number, query: string) =>
  ask('POST', `/api/projects/${project}/query/`, { query: { kind: 'HogQLQuery', query }, refresh: 'force_blocking' }).then((b) => b.results);

/** Every answer the old server gave, asked again. */
async function expectTheOldAnswers(ask: Ask, fixture: Fixture): Promise<void> {
  for (const { name, project, query, answer } of fixture.answers) {
    const body = await ask('POST', `/api/projects/${project}/query/`, { query, refresh: 'force_blocking' });
    expect(normalized(query, body), name).toEqual(answer);
  }
}

describe.each(fixtures)('a data directory written by $commit (metadata level $migration_levels.metadata, events $migration_levels.events)', (fixture) => {
  it('opens, migrates to the current level and answers as the old server did; opened again, nothing changes', async () => {
    const dataDir = unpack(fixture.commit);
    expect(metaLevelOf(dataDir)).toBe(fixture.migration_levels.metadata);
    expect(fixture.migration_levels.metadata).toBeLessThan(META_LEVEL);

    await withApp(dataDir, fixture, async (ask, services) => {
      expect(await eventsLevelOf(services)).toBe(EVENTS_LEVEL);
      await expectTheOldAnswers(ask, fixture);
      // What every shape stored, asked whether or not its server could: events, persons, the merge.
      expect(await hogql(ask, fixture.projects.a, 'select count() from events')).toEqual([[fixture.events.a]]);
      expect(await hogql(ask, fixture.projects.b, 'select count() from events')).toEqual([[fixture.events.b]]);
      const persons = await ask('GET', `/api/projects/${fixture.projects.a}/persons/`);
      const distinctIds = persons.results.map((p: { distinct_ids: string[] }) => [...p.distinct_ids].sort()).sort();
      expect(distinctIds).toEqual(fixture.persons ?? [['alice', 'anon-1'], ['bob'], ['carol']]);
      // Sessions: a shape from before the sessions table has them backfilled from its events (the
      // old servers that had HogQL answered the same, from their events).
      expect(await hogql(ask, fixture.projects.a, 'select count(), sum($pageview_count) from sessions')).toEqual([[6, 8]]);
      if (fixture.cohort) {
        const cohort = await ask('GET', `/api/projects/${fixture.projects.a}/cohorts/${fixture.cohort.id}/`);
        expect(cohort.name).toBe(fixture.cohort.name);
      }
      if (fixture.insight) {
        const insight = await ask('GET', `/api/projects/${fixture.projects.a}/insights/${fixture.insight.id}/`);
        expect([insight.short_id, insight.name]).toEqual([fixture.insight.short_id, fixture.insight.name]);
      }
    });
    expect(metaLevelOf(dataDir)).toBe(META_LEVEL);

    // Re-runnable: a second start migrates nothing and answers the same.
    await withApp(dataDir, fixture, async (ask, services) => {
      expect(await migrateEventStore(services.events)).toEqual([]);
      await migrateToLatest(services.meta.db, 'sqlite');
      await expectTheOldAnswers(ask, fixture);
    });
    expect(metaLevelOf(dataDir)).toBe(META_LEVEL);
  }, SLOW);
});

/** The migrations with the one named replaced by itself followed by a failure. */
function failingAfter(name: string): Record<string, Migration> {
  const real = migrations[name]!;
  return {
    ...migrations,
    [name]: {
      up: async (db) => {
        await real.up(db);
        throw new Error('forced failure');
      },
    },
  };
}

async function tablesOf(db: Kysely<any>, store: 'sqlite' | 'postgres'): Promise<string[]> {
  const rows =
    store === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() order by table_name`.execute(db);
  return rows.rows.map((r) => r.name);
}

describe('a migration that fails half way', () => {
  const names = Object.keys(migrations);
  const oldest = fixtures.find((f) => f.migration_levels.metadata <= names.length - 2)!;

  it(`metadata on SQLite (the ${oldest?.commit} directory): nothing of the run is kept, the old rows read, the next run applies all`, async () => {
    const dataDir = unpack(oldest.commit);
    const db = openSqlite(dataDir);
    try {
      const level = oldest.migration_levels.metadata;
      const tables = await tablesOf(db, 'sqlite');
      const projects = await db.selectFrom('projects').selectAll().orderBy('id').execute();
      // The second pending migration fails after its own statements: the first one goes too.
      await expect(migrateToLatest(db, 'sqlite', failingAfter(names[level + 1]!))).rejects.toThrow(/forced failure/);
      expect(await tablesOf(db, 'sqlite')).toEqual(tables);
      expect(metaLevelOf(dataDir)).toBe(level);
      expect(await db.selectFrom('projects').selectAll().orderBy('id').execute()).toEqual(projects);

      await migrateToLatest(db, 'sqlite');
      expect(metaLevelOf(dataDir)).toBe(META_LEVEL);
      expect(await db.selectFrom('projects').select(['id', 'name']).orderBy('id').execute()).toEqual(projects.map((p) => ({ id: p.id, name: p.name })));
    } finally {
      await db.destroy();
    }
  });

  it.runIf(META_STORES.includes('postgres'))('metadata on PostgreSQL: nothing of the run is kept, the next run applies all', async () => {
    const schema = await freshPostgresSchema();
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: schema.url, max: 2 }) }) });
    try {
      const level = 11;
      await migrateToLatest(db, 'postgres', Object.fromEntries(names.slice(0, level).map((n) => [n, migrations[n]!])));
      await db.insertInto('organizations').values({ id: '00000000-0000-4000-8000-00000000000a', name: 'Kept', slug: 'kept', created_at: 'now', updated_at: 'now' }).execute();
      const tables = await tablesOf(db, 'postgres');
      await expect(migrateToLatest(db, 'postgres', failingAfter(names[level + 1]!))).rejects.toThrow(/forced failure/);
      expect(await tablesOf(db, 'postgres')).toEqual(tables);
      expect((await db.selectFrom('kysely_migration').select('name').execute()).length).toBe(level);
      expect(await db.selectFrom('organizations').select('name').execute()).toEqual([{ name: 'Kept' }]);
      await migrateToLatest(db, 'postgres');
      expect((await db.selectFrom('kysely_migration').select('name').execute()).length).toBe(META_LEVEL);
    } finally {
      await db.destroy();
      await schema.drop();
    }
  });

  it('the event store (no transactions): the failed migration is not recorded, old events read, the next start finishes it once', async () => {
    const fixture = fixtures.find((f) => f.migration_levels.events === 3)!;
    const dataDir = unpack(fixture.commit);
    const config = configOf(dataDir).events;
    const level = fixture.migration_levels.events;
    // The sessions migration (4) fails after its tables and its whole backfill.
    const failing: EventStoreMigration[] = EVENT_STORE_MIGRATIONS.map((m) =>
      m.version === 4
        ? {
            ...m,
            backfill: async (store, ddl) => {
              await m.backfill!(store, ddl);
              throw new Error('forced failure');
            },
          }
        : m,
    );
    await expect(openEventStore(config, failing)).rejects.toThrow(/forced failure/);

    // The old level's code still opens it (nothing to migrate) and reads every event.
    const old = await openEventStore(config, EVENT_STORE_MIGRATIONS.filter((m) => m.version <= level));
    try {
      const rows = await old.query<{ n: string }>(`SELECT count() AS n FROM ${old.layout.database}.${TABLES.events}`);
      expect(Number(rows[0]!.n)).toBe(fixture.events.a + fixture.events.b);
      const recorded = await old.query<{ v: number }>(`SELECT version AS v FROM ${old.layout.database}.${TABLES.migrations} ORDER BY v`);
      expect(recorded.map((r) => Number(r.v))).toEqual(Array.from({ length: level }, (_, i) => i + 1));
    } finally {
      await old.close();
    }

    // The current code runs the sessions migration again: its backfill counts nothing twice.
    await withApp(dataDir, fixture, async (ask, services) => {
      expect(await eventsLevelOf(services)).toBe(EVENTS_LEVEL);
      expect(await hogql(ask, fixture.projects.a, 'select count(), sum($pageview_count) from sessions')).toEqual([[6, 8]]);
      await expectTheOldAnswers(ask, fixture);
    });
  }, SLOW);
});
