// A 200 from capture means the events are on disk, not only in the page cache: every table capture
// writes syncs each inserted part and its directory before the insert returns. A power cut cannot
// be staged here, so this checks the engine was told to, on a new store and on one made before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_STORE_MIGRATIONS } from '../../src/storage/events/migrations/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';

const CAPTURE_TABLES = ['events', 'event_uuids', 'persons', 'person_distinct_ids', 'person_distinct_id_overrides', 'groups', 'group_types'];
/**
 * Static cohorts' persons: an answered "added" must survive a power cut too. Sessions are written
 * by capture's events insert (a materialized view), synced since their table was made; a
 * recording's summary rows are inserted before /s/ answers.
 */
const MADE_SYNCED = ['static_cohort_people', 'sessions', 'session_replay_events'];
const SYNCED_TABLES = [...CAPTURE_TABLES, ...MADE_SYNCED];

describe('acknowledged events are synced to disk', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  const syncedTables = async () => {
    const rows = await t.services.events.query<{ name: string; engine_full: string }>(
      'SELECT name, engine_full FROM system.tables WHERE database = {db:String}', { db: t.services.events.layout.database },
    );
    return rows.filter((r) => /fsync_after_insert = 1/.test(r.engine_full) && /fsync_part_directory = 1/.test(r.engine_full)).map((r) => r.name).sort();
  };

  it('every table a capture request (or a static cohort) writes syncs each inserted part and its directory', async () => {
    expect(await syncedTables()).toEqual([...SYNCED_TABLES].sort());
    // And capture still works with them.
    const who = await t.bootstrap('fsync@example.com');
    await journeys(t, who, { ann: [ev('$pageview', '2024-01-01T10:00:00Z', { $set: { email: 'ann@example.com' } })] });
    const [row] = await t.services.events.query<{ c: string }>(`SELECT count() AS c FROM ${t.services.events.layout.database}.events`);
    expect(Number(row!.c)).toBe(1);
  });

  it('a store made before the setting existed gets it when it is opened (the migration is recorded)', async () => {
    const db = t.services.events.layout.database;
    const applied = await t.services.events.query<{ version: number }>(`SELECT version FROM ${db}.schema_migrations ORDER BY version`);
    expect(applied.map((r) => Number(r.version))).toEqual(EVENT_STORE_MIGRATIONS.map((m) => m.version));
    // Turned off as an older store has it, the migration turns it on again.
    for (const table of CAPTURE_TABLES) await t.services.events.command(`ALTER TABLE ${db}.${table} MODIFY SETTING fsync_after_insert = 0`);
    expect(await syncedTables()).toEqual([...MADE_SYNCED].sort());
    const migration = EVENT_STORE_MIGRATIONS.find((m) => m.name === 'fsync_parts')!;
    const { Ddl } = await import('../../src/storage/events/tables.js');
    for (const statement of migration.statements(new Ddl(t.services.events.layout))) await t.services.events.command(statement);
    expect(await syncedTables()).toEqual([...SYNCED_TABLES].sort());
  });
});
