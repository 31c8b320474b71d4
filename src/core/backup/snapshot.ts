// The running server's half of `hoglet backup`: lays a consistent copy of its stores into a staging
// directory that the backup command then archives. Between two writes of capture's inserter it
// freezes every event-store table (ClickHouse's ALTER TABLE ... FREEZE: hard links to the parts,
// no copy, so the pause is short) and notes the capture log's records not yet inserted; then it
// copies the metadata (SQLite's VACUUM INTO, one read transaction). Those records are copied as
// the capture log of the copy: a server started on it inserts them, so an event acknowledged
// before the backup is in it whether or not it had reached the event store.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { EventStore } from '../../storage/events/event-store.js';
import type { MetaStore } from '../../storage/meta/connect.js';
import { SQLITE_FILE_NAME } from '../../storage/meta/connect.js';
import { TABLES } from '../../storage/events/tables.js';
import type { CaptureInserter } from '../capture/inserter.js';
import { copySqliteOffThread } from './metadata-copy.js';
import { BACKUP_FORMAT, MANIFEST_FILE, hogletVersion, type BackupManifest } from './manifest.js';

/** A staging directory's name: made by the backup command inside the data directory. */
export const STAGING_NAME = /^\.backup-[0-9a-f]{16}$/;

export interface SnapshotSources {
  events: EventStore;
  /** The embedded event store's directory. */
  eventsDir: string;
  meta: MetaStore;
  inserter: CaptureInserter;
  captureLogDir: string;
  /** The recordings' blocks (src/core/replay/block-store.ts); null when they live in object storage, outside the archive. */
  recordingsDir: string | null;
}

const SEGMENT = /^segment-\d{16}\.log$/;
/** What in the event store's directory belongs to the running process (its pid, address, token), not to the data. */
const SKIPPED_AT_TOP = new Set(['shadow', 'tmp', 'status', 'server.json', 'status.token']);

interface FrozenTable {
  database: string;
  name: string;
  /** The table's data directory, relative to the event store's. */
  relative: string;
}

export async function takeSnapshot(sources: SnapshotSources, staging: string): Promise<BackupManifest> {
  const { events, meta } = sources;
  if (meta.dialect !== 'sqlite') throw new Error('the metadata store is PostgreSQL: back it up with pg_dump');
  const eventsDir = path.resolve(sources.eventsDir);
  const tables = await mergeTreeTables(events, eventsDir);
  const skippedDirs = new Set(await systemDataDirs(events, eventsDir));
  const freezeName = `hoglet_${path.basename(staging).slice('.backup-'.length)}`;
  const links = path.join(staging, 'capture-log-links');
  await fsp.mkdir(links, { recursive: true });

  const shadow = path.join(eventsDir, 'shadow', freezeName);
  try {
    return await snapshotInto(sources, staging, { tables, skippedDirs, freezeName, links, shadow });
  } finally {
    // Hard links to parts: removing them frees nothing the store still uses.
    await fsp.rm(shadow, { recursive: true, force: true });
  }
}

async function snapshotInto(
  sources: SnapshotSources,
  staging: string,
  plan: { tables: FrozenTable[]; skippedDirs: Set<string>; freezeName: string; links: string; shadow: string },
): Promise<BackupManifest> {
  const { events, meta, inserter } = sources;
  const { tables, skippedDirs, freezeName, links, shadow } = plan;
  const eventsDir = path.resolve(sources.eventsDir);
  const pauseAsked = Date.now();
  const paused = await inserter.whilePaused(async (insertedSeq) => {
    for (const table of tables) {
      // The name is ours (letters, digits, underscore: never escaped in the shadow path); ALTER takes no bound values.
      await events.command(`ALTER TABLE \`${table.database}\`.\`${table.name}\` FREEZE WITH NAME '${freezeName}'`, {}, { lane: 'ingest' });
    }
    const takenAt = new Date();
    // Segments are only appended to; a hard link keeps one the log deletes meanwhile.
    const segments: { name: string; bytes: number }[] = [];
    for (const name of (await fsp.readdir(sources.captureLogDir)).filter((n) => SEGMENT.test(n)).sort()) {
      const file = path.join(sources.captureLogDir, name);
      const bytes = (await fsp.stat(file)).size;
      await fsp.link(file, path.join(links, name));
      segments.push({ name, bytes });
    }
    return { insertedSeq, takenAt, segments, pausedMs: Date.now() - pauseAsked };
  });

  await copyMetadata(meta, path.join(staging, SQLITE_FILE_NAME), paused.takenAt);
  const capture = await copyCaptureLog(sources.captureLogDir, links, paused.segments, paused.insertedSeq, path.join(staging, 'capture-log'));
  // After the freeze: a summary row there was written after its block, so its block is here too.
  if (sources.recordingsDir) await linkRecordings(sources.recordingsDir, path.join(staging, 'recordings'));
  else await fsp.mkdir(path.join(staging, 'recordings'), { recursive: true });
  const eventTables: BackupManifest['event_tables'] = [];
  await copyStoreSkeleton(eventsDir, path.join(staging, 'events'), new Set(tables.map((t) => t.relative)), skippedDirs);
  for (const table of tables) {
    const parts = await moveParts(path.join(shadow, table.relative), path.join(staging, 'events', table.relative));
    if (table.database === events.layout.database) eventTables.push({ name: table.name, parts });
  }

  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    hoglet_version: hogletVersion(),
    taken_at: paused.takenAt.toISOString(),
    paused_ms: paused.pausedMs,
    migrations: { metadata: await metadataLevel(meta), event_store: await eventStoreLevel(events) },
    capture_log: capture,
    event_tables: eventTables,
  };
  await fsp.writeFile(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

async function mergeTreeTables(events: EventStore, eventsDir: string): Promise<FrozenTable[]> {
  const rows = await events.query<{ database: string; name: string; data_paths: string[] }>(
    `SELECT database, name, data_paths FROM system.tables
     WHERE engine LIKE '%MergeTree' AND database NOT IN ('system', 'information_schema', 'INFORMATION_SCHEMA')
     ORDER BY database, name`,
    {},
    { lane: 'ingest' },
  );
  return rows.map((row) => {
    if (row.data_paths.length !== 1) throw new Error(`table ${row.database}.${row.name} has ${row.data_paths.length} data paths; a backup expects one`);
    return { database: row.database, name: row.name, relative: relativeInside(eventsDir, row.data_paths[0]!) };
  });
}

/** chDB's own log tables, if any: never part of a backup. */
async function systemDataDirs(events: EventStore, eventsDir: string): Promise<string[]> {
  const rows = await events.query<{ data_paths: string[] }>(`SELECT data_paths FROM system.tables WHERE database = 'system'`, {}, { lane: 'ingest' });
  return rows.flatMap((row) => row.data_paths).map((p) => relativeInside(eventsDir, p)).filter((p) => p !== '');
}

function relativeInside(root: string, dir: string): string {
  const relative = path.relative(root, path.resolve(root, dir));
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error(`the table directory ${dir} is outside ${root}`);
  return relative;
}

/**
 * The event store's directory without table data: database and table definitions, the symlinks
 * between them, and each table's own files (format version, mutations); the parts come from the freeze.
 */
async function copyStoreSkeleton(from: string, to: string, tableDirs: Set<string>, skipped: Set<string>, relative = ''): Promise<void> {
  await fsp.mkdir(to, { recursive: true });
  const isTable = tableDirs.has(relative);
  for (const entry of await fsp.readdir(from, { withFileTypes: true })) {
    const child = path.join(relative, entry.name);
    if (relative === '' && (SKIPPED_AT_TOP.has(entry.name) || entry.name.startsWith('owner.pid'))) continue;
    if (skipped.has(child)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isSymbolicLink()) await fsp.symlink(await fsp.readlink(source), target);
    else if (entry.isFile()) await fsp.copyFile(source, target);
    else if (entry.isDirectory() && !isTable) await copyStoreSkeleton(source, target, tableDirs, skipped, child);
  }
}

/**
 * The recordings' blocks as hard links (a block is never changed once stored, only removed, and a
 * link keeps it if retention removes it meanwhile); blocks half-written in `.tmp` are left out.
 */
async function linkRecordings(from: string, to: string, top = true): Promise<void> {
  await fsp.mkdir(to, { recursive: true });
  const entries = await fsp.readdir(from, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) {
    if (top && entry.name === '.tmp') continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkRecordings(source, target, false);
    else if (entry.isFile()) await fsp.link(source, target).catch((error: NodeJS.ErrnoException) => {
      // A block retention removed between the listing and the link is no loss.
      if (error.code !== 'ENOENT') throw error;
    });
  }
}

/** Moves a table's frozen parts (hard links) into the copy; returns how many. */
async function moveParts(frozen: string, to: string): Promise<number> {
  await fsp.mkdir(to, { recursive: true });
  const names = await fsp.readdir(frozen).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[]; // an empty table freezes nothing
    throw error;
  });
  for (const name of names) await fsp.rename(path.join(frozen, name), path.join(to, name));
  return names.length;
}

/** The log's segments as they were at the pause, with the checkpoint then and the set-aside events. */
async function copyCaptureLog(
  logDir: string,
  links: string,
  segments: { name: string; bytes: number }[],
  insertedSeq: number,
  to: string,
): Promise<BackupManifest['capture_log']> {
  await fsp.mkdir(to, { recursive: true });
  let bytes = 0;
  for (const segment of segments) {
    const source = await fsp.open(path.join(links, segment.name), 'r');
    try {
      const buffer = Buffer.alloc(segment.bytes);
      if (segment.bytes > 0) await source.read(buffer, 0, segment.bytes, 0);
      await fsp.writeFile(path.join(to, segment.name), buffer);
    } finally {
      await source.close();
    }
    bytes += segment.bytes;
  }
  await fsp.rm(links, { recursive: true, force: true });
  await fsp.writeFile(path.join(to, 'checkpoint'), String(insertedSeq));
  await fsp.cp(path.join(logDir, 'refused'), path.join(to, 'refused'), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  return { inserted_seq: insertedSeq, segments: segments.length, bytes };
}

/**
 * The metadata as one read transaction sees it (VACUUM INTO), after the pause, so capture waits
 * for the event tables only. Metadata changes from then until the copy are kept; cached results
 * computed since the instant may count events the copy lacks, so they are dropped from it.
 */
async function copyMetadata(meta: MetaStore, file: string, takenAt: Date): Promise<void> {
  // The server's own file, wherever its data directory is; copied on a worker thread.
  const { rows } = await sql<{ name: string; file: string }>`PRAGMA database_list`.execute(meta.db);
  const source = rows.find((row) => row.name === 'main')?.file;
  if (!source) throw new Error('the metadata store has no file to copy');
  await copySqliteOffThread(source, file, takenAt);
}

async function metadataLevel(meta: MetaStore): Promise<string | null> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(meta.db);
  return rows[0]?.name ?? null;
}

async function eventStoreLevel(events: EventStore): Promise<number | null> {
  const rows = await events.query<{ level: number | null }>(
    `SELECT max(version) AS level FROM ${events.layout.database}.${TABLES.migrations}`,
    {},
    { lane: 'ingest' },
  );
  return rows[0]?.level ?? null;
}
