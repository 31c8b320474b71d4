// Versioned schema for the event store, applied at start-up. Every statement is idempotent
// (IF NOT EXISTS), so a migration interrupted half way is simply run again.
import type { EventStore } from '../event-store.js';
import { Ddl, TABLES } from '../tables.js';
import { eventsPersonsGroups } from './0001_events_persons_groups.js';
import { fsyncParts } from './0002_fsync_parts.js';
import { staticCohortPeople } from './0003_static_cohort_people.js';
import { sessions } from './0004_sessions.js';
import { materializedProperties } from './0005_materialized_properties.js';
import { sessionReplayEvents } from './0006_session_replay_events.js';
import { replayBlockNames } from './0007_replay_block_names.js';

export interface EventStoreMigration {
  version: number;
  name: string;
  statements(ddl: Ddl): string[];
  /** Data a new table needs from the existing ones, copied after the statements (re-runnable). */
  backfill?(store: EventStore, ddl: Ddl): Promise<void>;
}

export const EVENT_STORE_MIGRATIONS: readonly EventStoreMigration[] = [eventsPersonsGroups, fsyncParts, staticCohortPeople, sessions, materializedProperties, sessionReplayEvents, replayBlockNames];

/** Runs the migrations not yet recorded; `migrations` is the released list but for tests. */
export async function migrateEventStore(store: EventStore, migrations: readonly EventStoreMigration[] = EVENT_STORE_MIGRATIONS): Promise<number[]> {
  const d = new Ddl(store.layout);
  await store.command(`CREATE DATABASE IF NOT EXISTS ${d.db}${d.onCluster}`);
  await store.command(
    `CREATE TABLE IF NOT EXISTS ${d.db}.${TABLES.migrations}${d.onCluster} (
      version UInt32,
      name String,
      applied_at DateTime64(3, 'UTC')
    )
    ENGINE = ${d.replacing(TABLES.migrations)}
    ORDER BY version`,
  );
  const applied = new Set(
    (await store.query<{ version: number }>(`SELECT version FROM ${d.db}.${TABLES.migrations}`)).map((r) => r.version),
  );
  const ran: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    for (const statement of migration.statements(d)) await store.command(statement);
    await migration.backfill?.(store, d);
    await store.insert(TABLES.migrations, [
      { version: migration.version, name: migration.name, applied_at: new Date().toISOString().replace('T', ' ').replace('Z', '') },
    ]);
    ran.push(migration.version);
  }
  return ran;
}
