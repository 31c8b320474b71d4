// Opens the event store the configuration asks for and brings its schema up to date.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, type ClickHouseClient, type ClickHouseClientConfigOptions as ClientOptions } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import type { EventStoreConfig } from '../../config.js';
import { DEFAULT_QUERY_CONCURRENCY, EventStore, type EventStoreClients } from './event-store.js';
import { claimEventStore, eventStoreOwner } from './owner-lock.js';
import { migrateEventStore, type EventStoreMigration } from './migrations/index.js';
import { repairSessions, repairUuidIndex } from './uuid-repair.js';

export async function openEventStore(config: EventStoreConfig, migrations?: readonly EventStoreMigration[]): Promise<EventStore> {
  let release = () => {};
  let afterCrash = false;
  let clients: EventStoreClients;
  if (config.clickhouseUrl) {
    // Two HTTP clients, so slow queries holding every socket of one pool never delay an insert.
    clients = {
      query: serverClient(config.clickhouseUrl),
      ingest: serverClient(config.clickhouseUrl),
      queryConcurrency: config.queryConcurrency ?? DEFAULT_QUERY_CONCURRENCY.server,
    };
  } else {
    mkdirSync(config.chdbPath, { recursive: true });
    ({ release, afterCrash } = claimEventStore(config.chdbPath));
    // Connections to one directory share the engine and run side by side: one per lane (see
    // `Lane`; the query lane has one per statement it runs at once), and one more that can KILL a
    // query the others run.
    const path = config.chdbPath;
    const queryConnections = Array.from({ length: config.queryConcurrency ?? DEFAULT_QUERY_CONCURRENCY.embedded }, () => embeddedClient(path));
    clients = { query: queryConnections, ingest: embeddedClient(path), persons: embeddedClient(path), control: embeddedClient(path) };
  }
  const store = new EventStore(clients, {
    database: config.database,
    cluster: config.cluster,
    embedded: config.clickhouseUrl === null,
  }, release);
  try {
    await migrateEventStore(store, migrations);
    if (afterCrash) {
      await repairUuidIndex(store);
      await repairSessions(store);
    }
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/** The embedded store was left by a process that died: its next owner must be the server, which repairs it. */
export class EventStoreLeftOpenError extends Error {}

/**
 * The store as it is, to read (`hoglet status`): no migration, no repair. The embedded directory is
 * claimed while open (chDB allows one process); a lock left by a dead process is left in place, so
 * the server that opens the directory next still knows to repair it.
 */
export function openEventStoreForReading(config: EventStoreConfig): EventStore {
  const layout = { database: config.database, cluster: config.cluster, embedded: config.clickhouseUrl === null };
  if (config.clickhouseUrl) {
    const client = serverClient(config.clickhouseUrl);
    return new EventStore({ query: client, ingest: client, queryConcurrency: 1 }, layout);
  }
  if (existsSync(join(config.chdbPath, 'owner.pid')) && eventStoreOwner(config.chdbPath) === null) {
    throw new EventStoreLeftOpenError(`the event store in ${config.chdbPath} was left open by a process that stopped without closing it; start the server once (it repairs the store)`);
  }
  const { release } = claimEventStore(config.chdbPath);
  const client = embeddedClient(config.chdbPath);
  return new EventStore({ query: [client], ingest: client }, layout, release);
}

function serverClient(url: string): ClickHouseClient {
  return createClient({
    url,
    // Capture waits on inserts; a dead server must turn into a 503 promptly, not hang requests.
    request_timeout: 30_000,
    clickhouse_settings: { wait_end_of_query: 1 },
  });
}

function embeddedClient(path: string): ClickHouseClient {
  // chdb types its connection against @clickhouse/client-common, the client bundles its own copy of
  // the same interface; the shapes agree, the declarations are just two files.
  const connection = createChdbConnection({ path }) as unknown as NonNullable<ClientOptions['connection']>;
  return createClient({ connection });
}
