// `hoglet status`: what a data directory holds, read without changing it (no migration, no replay).
// The server may be running on it: the metadata store is read beside it (SQLite in WAL mode, or
// PostgreSQL); the embedded event store, which only one process may open, is then asked of the
// server (its /_health and its token-guarded /_status/projects); the capture log's files are read
// as they are, or its state asked of the server that owns it. What cannot be read is said, with why.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { localUrl } from '../local-url.js';
import type { CaptureStatus } from '../services.js';
import { openEventStoreForReading } from '../storage/events/connect.js';
import type { EventStore } from '../storage/events/event-store.js';
import { announcedServerUrl, eventStoreOwner } from '../storage/events/owner-lock.js';
import { SQLITE_FILE_NAME } from '../storage/meta/connect.js';
import { CURRENT_MIGRATION_LEVELS, eventStoreMigrationLevel, metadataMigrationLevel, type MigrationLevels } from '../storage/migration-levels.js';
import { HOGLET_VERSION } from '../version.js';
import { readCaptureLogState } from './capture-log-state.js';
import { countsPerProject, type ProjectCounts } from './project-counts.js';
import { readStatusToken } from './status-token.js';

export interface DataStatus {
  version: string;
  data_dir: string;
  /** The server running on the directory, if one is. */
  server: { pid: number; url: string } | null;
  /** Levels applied to this directory's stores, and the levels this version migrates to. */
  migrations: MigrationLevels & { current: { metadata: number; events: number } };
  /** Bytes on disk; null where not known (a store on another machine that would not say). */
  sizes: { metadata: number | null; event_store: number | null; capture_log: number };
  /** Every project of the metadata store (and any the event store holds rows for). */
  projects: { id: number; name: string | null; events: number | null; persons: number | null }[];
  /** As /_health's `capture`. */
  capture: CaptureStatus | null;
  /** What could not be read, and why. */
  unread: string[];
}

export async function collectDataStatus(config: Config): Promise<DataStatus> {
  const unread: string[] = [];
  const server = runningServer(config);
  const metadata = await readMetadata(config, unread);
  const events = await readEventStore(config, server, unread);
  const capture = await readCapture(config, server, unread);

  const counts = new Map((events.counts ?? []).map((c) => [c.id, c]));
  const ids = [...new Set([...metadata.projects.keys(), ...counts.keys()])].sort((a, b) => a - b);
  return {
    version: HOGLET_VERSION,
    data_dir: config.dataDir,
    server,
    migrations: { metadata: metadata.level, events: events.level, current: CURRENT_MIGRATION_LEVELS },
    sizes: {
      metadata: metadata.bytes,
      event_store: events.bytes,
      capture_log: await directoryBytes(config.captureLogDir),
    },
    projects: ids.map((id) => ({
      id,
      name: metadata.projects.get(id) ?? null,
      events: events.counts ? (counts.get(id)?.events ?? 0) : null,
      persons: events.counts ? (counts.get(id)?.persons ?? 0) : null,
    })),
    capture,
    unread,
  };
}

/** The server that owns the capture log (and, embedded, the event store), as `hoglet import` finds it. */
function runningServer(config: Config): DataStatus['server'] {
  const embedded = config.events.clickhouseUrl === null;
  const pid = (embedded ? eventStoreOwner(config.events.chdbPath) : null) ?? eventStoreOwner(config.captureLogDir);
  if (pid === null) return null;
  return { pid, url: (embedded ? announcedServerUrl(config.events.chdbPath, pid) : null) ?? localUrl(config.host, config.port) };
}

interface MetadataRead {
  level: number | null;
  bytes: number | null;
  projects: Map<number, string>;
}

async function readMetadata(config: Config, unread: string[]): Promise<MetadataRead> {
  const empty: MetadataRead = { level: null, bytes: null, projects: new Map() };
  let db: Kysely<any>;
  let bytes: () => Promise<number | null>;
  if (config.databaseUrl) {
    db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: config.databaseUrl, max: 1 }) }) });
    bytes = async () => {
      const { rows } = await sql<{ bytes: string | null }>`
        select sum(pg_total_relation_size(c.oid)) as bytes from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'm')`.execute(db);
      return rows[0]?.bytes == null ? 0 : Number(rows[0].bytes);
    };
  } else {
    const file = path.join(config.dataDir, SQLITE_FILE_NAME);
    if (!fs.existsSync(file)) {
      unread.push(`no metadata store at ${file} (a new data directory: run hoglet bootstrap)`);
      return empty;
    }
    // Read-only: never creates, migrates or checkpoints; a running server's WAL is read as it is.
    db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(file, { readonly: true, fileMustExist: true }) }) });
    bytes = async () => (await Promise.all(['', '-wal', '-shm'].map((suffix) => fileBytes(`${file}${suffix}`)))).reduce((a, b) => a + b, 0);
  }
  try {
    const level = await metadataMigrationLevel(db);
    const projects = new Map<number, string>();
    if (level !== null) {
      const rows = await db.selectFrom('projects').select(['id', 'name']).execute();
      for (const row of rows as { id: number; name: string }[]) projects.set(Number(row.id), row.name);
    }
    return { level, bytes: await bytes(), projects };
  } catch (error) {
    unread.push(`the metadata store: ${messageOf(error)}`);
    return empty;
  } finally {
    await db.destroy();
  }
}

interface EventStoreRead {
  level: number | null;
  bytes: number | null;
  counts: ProjectCounts[] | null;
}

async function readEventStore(config: Config, server: DataStatus['server'], unread: string[]): Promise<EventStoreRead> {
  const embedded = config.events.clickhouseUrl === null;
  const bytes = embedded ? await directoryBytes(config.events.chdbPath) : null;
  if (embedded && !fs.existsSync(config.events.chdbPath)) {
    return { level: null, bytes, counts: [] }; // a new directory: the server creates the store
  }
  if (embedded && server) return { bytes, ...(await askServer(config, server, unread)) };
  let store: EventStore;
  try {
    store = openEventStoreForReading(config.events);
  } catch (error) {
    unread.push(`the event store (migration level, events and persons): ${messageOf(error)}`);
    return { level: null, bytes, counts: null };
  }
  try {
    const level = await eventStoreMigrationLevel(store);
    const counts = level === null ? [] : await countsPerProject(store);
    return { level, counts, bytes: bytes ?? (await serverBytes(store)) };
  } catch (error) {
    unread.push(`the event store: ${messageOf(error)}`);
    return { level: null, bytes, counts: null };
  } finally {
    await store.close();
  }
}

/** How long one question to the running server may take: a hung server is reported, not waited for. */
const ASK_SERVER_MS = 5_000;

/** The running server owns the embedded store: its /_health says the level, /_status/projects the counts. */
async function askServer(config: Config, server: NonNullable<DataStatus['server']>, unread: string[]): Promise<Omit<EventStoreRead, 'bytes'>> {
  const where = `the server (pid ${server.pid}) at ${server.url}`;
  let level: number | null = null;
  try {
    const health = (await (await fetch(`${server.url}/_health`, { signal: AbortSignal.timeout(ASK_SERVER_MS) })).json()) as { migrations?: MigrationLevels };
    if (health.migrations) level = health.migrations.events;
    else unread.push(`the event store's migration level: ${where} does not report it (an older Hoglet?)`);
  } catch (error) {
    unread.push(`the event store's migration level: ${where} did not answer: ${messageOf(error)}`);
  }
  const token = readStatusToken(config.events.chdbPath);
  if (!token) {
    unread.push(`events and persons per project: ${where} owns the event store and left no status token (an older Hoglet?)`);
    return { level, counts: null };
  }
  try {
    const response = await fetch(`${server.url}/_status/projects`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(ASK_SERVER_MS) });
    if (!response.ok) throw new Error(`it answered ${response.status}`);
    return { level, counts: ((await response.json()) as { projects: ProjectCounts[] }).projects };
  } catch (error) {
    unread.push(`events and persons per project: ${where} owns the event store and did not give them: ${messageOf(error)}`);
    return { level, counts: null };
  }
}

async function readCapture(config: Config, server: DataStatus['server'], unread: string[]): Promise<CaptureStatus | null> {
  // A server owning the log holds its live state (what waits in memory): ask it.
  if (server && eventStoreOwner(config.captureLogDir) === server.pid) {
    try {
      const health = (await (await fetch(`${server.url}/_health`, { signal: AbortSignal.timeout(ASK_SERVER_MS) })).json()) as { capture?: CaptureStatus };
      if (health.capture) return health.capture;
      unread.push(`the capture log: the server (pid ${server.pid}) at ${server.url} does not report it`);
    } catch (error) {
      unread.push(`the capture log: the server (pid ${server.pid}) at ${server.url} did not answer: ${messageOf(error)}`);
    }
    return null;
  }
  try {
    return await readCaptureLogState(config.captureLogDir);
  } catch (error) {
    unread.push(`the capture log in ${config.captureLogDir}: ${messageOf(error)}`);
    return null;
  }
}

/** A ClickHouse server's bytes for the database's active parts. */
async function serverBytes(store: EventStore): Promise<number | null> {
  const rows = await store.query<{ bytes: string }>(
    `SELECT sum(bytes_on_disk) AS bytes FROM system.parts WHERE active AND database = {db:String}`,
    { db: store.layout.database },
  );
  return rows[0] ? Number(rows[0].bytes) : null;
}

async function fileBytes(file: string): Promise<number> {
  return fsp.stat(file).then((s) => s.size, () => 0);
}

/** Bytes of the files below a directory (0 when absent; files removed while counting are skipped). */
async function directoryBytes(directory: string): Promise<number> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(directory, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const entry of entries) if (entry.isFile()) total += await fileBytes(path.join(entry.parentPath, entry.name));
  return total;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
