// Opens the event store the configuration asks for and brings its schema up to date.
import { mkdirSync } from 'node:fs';
import { createClient, type ClickHouseClient, type ClickHouseClientConfigOptions as ClientOptions } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import type { EventStoreConfig } from '../../config.js';
import { DEFAULT_QUERY_CONCURRENCY, EventStore, type EventStoreClients } from './event-store.js';
import { claimEventStore } from './owner-lock.js';
import { migrateEventStore } from './migrations/index.js';
import { repairSessions, repairUuidIndex } from './uuid-repair.js';

export async function openEventStore(config: EventStoreConfig): Promise<EventStore> {
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
    await migrateEventStore(store);
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
