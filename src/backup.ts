// `hoglet backup` and `hoglet restore`. A backup asks the server that owns the embedded stores
// (like `import`, found through the event store's lock) for a consistent copy in a staging
// directory inside the data directory (hard links, so it costs little room), then archives it as
// one tar file with its manifest first. With no server running it opens the stores itself and
// does the same. A restore unpacks an archive into an empty directory; the server started there
// inserts the capture log's records the backup caught on their way to the event store.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.js';
import { BACKUP_FORMAT, MANIFEST_FILE, type BackupManifest } from './core/backup/manifest.js';
import { extractTar, readFirstFile, TarFormatError, treeBytes, writeTar } from './core/backup/tar.js';
import { localUrl } from './local-url.js';
import { createServices } from './services.js';
import { announcedServerUrl, eventStoreOwner } from './storage/events/owner-lock.js';

/** What the command cannot do, said plainly (printed without a stack trace). */
export class BackupError extends Error {}

export interface Progress {
  /** A step begins (a line of its own). */
  step(text: string): void;
  /** Bytes done of the step's total. */
  bytes(done: number, total: number): void;
}

export interface BackupSummary {
  manifest: BackupManifest;
  /** The archive's size in bytes. */
  bytes: number;
  /** "the server (pid N) at URL" or "in-process". */
  through: string;
}

export async function backupDataDir(config: Config, output: string, progress: Progress): Promise<BackupSummary> {
  if (config.databaseUrl) throw new BackupError('the metadata store is PostgreSQL: back it up with pg_dump (docs/operating.md, "Backups"); hoglet backup copies the embedded stores');
  if (config.events.clickhouseUrl) throw new BackupError('events are in a ClickHouse server: back them up with its BACKUP statement (docs/operating.md, "Backups")');
  if (!fs.existsSync(path.join(config.dataDir, 'hoglet.sqlite3'))) throw new BackupError(`${config.dataDir} holds no Hoglet data (no hoglet.sqlite3)`);
  const out = await createOutput(output);
  const staging = path.join(config.dataDir, `.backup-${randomBytes(8).toString('hex')}`);
  let finished = false;
  try {
    await fsp.mkdir(staging);
    const owner = eventStoreOwner(config.events.chdbPath);
    const through = owner === null ? 'in-process' : `the server (pid ${owner}) at ${serverUrl(config, owner)}`;
    progress.step(`freezing the stores through ${through}`);
    const manifest = owner === null ? await snapshotInProcess(config, staging) : await snapshotThroughServer(serverUrl(config, owner), staging);
    const names = [MANIFEST_FILE, 'hoglet.sqlite3', 'capture-log', 'events', 'recordings'];
    const total = await treeBytes(staging, names);
    progress.step(`writing ${output}`);
    const bytes = await writeTar(staging, names, out, (done) => progress.bytes(done, total)).catch((error: unknown) => {
      throw diskError(error, output);
    });
    await out.sync();
    finished = true;
    return { manifest, bytes, through };
  } finally {
    await out.close();
    if (!finished) await fsp.rm(output, { force: true });
    // Hard links to the store's parts, and copies: removing them leaves the live data alone.
    await fsp.rm(staging, { recursive: true, force: true });
  }
}

async function createOutput(output: string): Promise<fsp.FileHandle> {
  try {
    // Exclusive: a backup never overwrites a file, not even one that appears meanwhile. Owner-only:
    // it holds everything the data directory does, wherever the operator puts it.
    return await fsp.open(output, 'wx', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new BackupError(`${output} exists; a backup never overwrites a file: name a new one`);
    if (code === 'ENOENT') throw new BackupError(`cannot create ${output}: its directory does not exist`);
    if (code === 'EACCES' || code === 'EROFS') throw new BackupError(`cannot create ${output}: ${code}`);
    throw error;
  }
}

function diskError(error: unknown, file: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return new BackupError(`the disk holding ${file} is full; nothing was kept: free some room (or write elsewhere) and run it again`);
  return error;
}

function serverUrl(config: Config, owner: number): string {
  return announcedServerUrl(config.events.chdbPath, owner) ?? localUrl(config.host, config.port);
}

/** How long the running server may take to answer /_health before the backup gives up on it. */
const SERVER_ANSWERS_MS = 10_000;

async function snapshotThroughServer(base: string, staging: string): Promise<BackupManifest> {
  // A hung server would hold the snapshot request (and a cron job's next run behind it) forever;
  // the snapshot itself may take minutes (the pause waits up to one for capture's write).
  await fetch(`${base}/_health`, { signal: AbortSignal.timeout(SERVER_ANSWERS_MS) }).catch((error: unknown) => {
    throw new BackupError(`the server at ${base} owns the data directory but did not answer within ${SERVER_ANSWERS_MS / 1000} s: ${String(error)}`);
  });
  const response = await fetch(`${base}/_backup/snapshot`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ staging: path.basename(staging) }),
  }).catch((error: unknown) => {
    throw new BackupError(`the server at ${base} owns the data directory but did not answer: ${String(error)}`);
  });
  const text = await response.text();
  if (response.status === 404) throw new BackupError(`the server at ${base} does not take backups from here (an older Hoglet, or a proxy in between): run the command on the server's machine, or stop the server`);
  if (response.status === 503 && text.includes('disk')) throw new BackupError('the disk holding the data directory is full; the copy needs room for the metadata and the capture log: free some and run it again');
  if (!response.ok) throw new BackupError(`the server at ${base} could not take the backup: ${response.status} ${text}`);
  return (JSON.parse(text) as { manifest: BackupManifest }).manifest;
}

async function snapshotInProcess(config: Config, staging: string): Promise<BackupManifest> {
  const services = await createServices(config);
  try {
    return await services.backupSnapshot(staging);
  } finally {
    await services.close();
  }
}

export interface RestoreSummary {
  manifest: BackupManifest;
  bytes: number;
}

/** Unpacks a backup into `dataDir`, which must be empty or not exist yet. */
export async function restoreDataDir(input: string, dataDir: string, progress: Progress): Promise<RestoreSummary> {
  const archive = await fsp.open(input, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(`cannot read ${input}: ${error.code ?? error.message}`);
  });
  try {
    const manifest = await readManifest(archive, input);
    const created = await prepareTarget(dataDir);
    const total = (await archive.stat()).size;
    progress.step(`restoring the backup of ${manifest.taken_at} (Hoglet ${manifest.hoglet_version}) into ${dataDir}`);
    try {
      await extractTar(archive, dataDir, (done) => progress.bytes(done, total));
    } catch (error) {
      // Leave the directory as it was found: empty (or absent).
      for (const name of await fsp.readdir(dataDir)) await fsp.rm(path.join(dataDir, name), { recursive: true, force: true });
      if (created) await fsp.rmdir(dataDir).catch(() => {});
      if (error instanceof TarFormatError) throw new BackupError(`${input} is damaged: ${error.message}`);
      throw diskError(error, dataDir);
    }
    return { manifest, bytes: total };
  } finally {
    await archive.close();
  }
}

async function readManifest(archive: fsp.FileHandle, input: string): Promise<BackupManifest> {
  let raw: Buffer | null;
  try {
    raw = await readFirstFile(archive, MANIFEST_FILE, 1024 * 1024);
  } catch (error) {
    if (error instanceof TarFormatError) throw new BackupError(`${input} is not a Hoglet backup: ${error.message}`);
    throw error;
  }
  if (!raw) throw new BackupError(`${input} is not a Hoglet backup (no ${MANIFEST_FILE} first)`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(raw.toString('utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${input} is not a Hoglet backup (its ${MANIFEST_FILE} is not JSON)`);
  }
  if (manifest === null || typeof manifest !== 'object' || !Number.isInteger(manifest.format)) throw new BackupError(`${input} is not a Hoglet backup (its ${MANIFEST_FILE} names no format)`);
  if (manifest.format > BACKUP_FORMAT) throw new BackupError(`${input} was written by a newer Hoglet (${manifest.hoglet_version}, format ${manifest.format}); restore it with that version`);
  return manifest;
}

/** Makes sure the target is an empty directory; true if this call created it. */
async function prepareTarget(dataDir: string): Promise<boolean> {
  const entries = await fsp.readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    if (error.code === 'ENOTDIR') throw new BackupError(`${dataDir} exists and is not a directory`);
    throw error;
  });
  if (entries === null) {
    await fsp.mkdir(dataDir, { recursive: true });
    return true;
  }
  if (entries.length > 0) throw new BackupError(`${dataDir} is not empty; restore into a new or empty directory (a restore never mixes with data there)`);
  return false;
}
