// Recordings on the file system: each stored /s/ request adds one gzip block per session,
// `<dir>/<team>/<session>/<first ms, 13 digits>-<content hash>.<start>_<end>.jsonl.gz` (the times
// the snapshots listing shows: block-times.ts), each line one
// `[window_id, rrweb event]` (PostHog's blob line). A block is written to a temporary file (in
// `<dir>/.tmp`), fdatasync'd, renamed into its session's directory, and that directory synced
// before the request is answered, so a 200 means the rrweb data survives a power cut. Its name
// comes from its content, so a request retried after a crash (its block stored, its answer lost)
// finds the block there and stores nothing twice.
// Blocks sort by name: by their first event's time, as a player reads them.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { syncDirectory } from '../capture/log/sync-directory.js';
import { timesNamePart, timesOfText, type BlockTimes } from './block-times.js';
import type { SnapshotLine } from './snapshots.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);
const BLOCK_SUFFIX = '.jsonl.gz';

export interface StoredBlock {
  /** The file's name, unique within its session: the summary row's deduplication token too. */
  name: string;
  /** Bytes of uncompressed JSON lines. */
  rawBytes: number;
  compressedBytes: number;
  /** False when a block of the same content was already stored (a retried request). */
  created: boolean;
}

export interface BlockInfo {
  name: string;
  compressedBytes: number;
}

/** A session id as one safe path segment (ids are client strings): percent-encoded, dots too. */
export function sessionDirectoryName(sessionId: string): string {
  return encodeURIComponent(sessionId).replaceAll('.', '%2E').replaceAll('*', '%2A');
}

/**
 * Where recordings' blocks live: this file system store, or S3-compatible object storage when
 * configured (s3-block-store.ts). Keys are `<team>/<session>/<block name>` in both, so the team is
 * part of every address a read can reach.
 */
export interface RecordingBlocks {
  /** Stores one block durably (fsync'd, or acknowledged by the object store) before resolving; `times` default: read from the text. */
  write(teamId: number, sessionId: string, text: string, firstTimestampMs: number, times?: BlockTimes): Promise<StoredBlock>;
  list(teamId: number, sessionId: string): Promise<BlockInfo[]>;
  readBlock(teamId: number, sessionId: string, name: string): Promise<SnapshotLine[]>;
  /** The block's JSON lines as stored (one line each, ending in a newline), unparsed. */
  readBlockText(teamId: number, sessionId: string, name: string): Promise<string>;
  readSession(teamId: number, sessionId: string): Promise<SnapshotLine[]>;
  removeSession(teamId: number, sessionId: string): Promise<void>;
  /** Removes every block of the team (a deleted project). */
  removeTeam(teamId: number): Promise<void>;
  /** Each session of the team that has blocks, with its newest block's name (retention of orphans). */
  sessionsOf(teamId: number): Promise<Array<{ sessionId: string; newestBlock: string }>>;
  removeTemporaryFiles(): Promise<number>;
  /** The directory a backup copies, or null when blocks live in object storage (not in the archive). */
  readonly backupDirectory: string | null;
  /** Where the blocks are, for logs and the backup's output. */
  readonly description: string;
}

/**
 * A block's name: its first event's time (13 digits, so names sort by time), its content's hash,
 * and its listed times (block-times.ts). All come from the content: a block sent again has the same name.
 */
export function blockName(text: string, firstTimestampMs: number, times: BlockTimes): string {
  return `${namePrefix(text, firstTimestampMs)}.${timesNamePart(times)}${BLOCK_SUFFIX}`;
}

/** The name the same block had before names held its times: a request retried across the upgrade finds it. */
export function legacyBlockName(text: string, firstTimestampMs: number): string {
  return `${namePrefix(text, firstTimestampMs)}${BLOCK_SUFFIX}`;
}

function namePrefix(text: string, firstTimestampMs: number): string {
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 20);
  const time = Number.isFinite(firstTimestampMs) ? Math.max(0, Math.min(Math.trunc(firstTimestampMs), 9_999_999_999_999)) : 0;
  return `${String(time).padStart(13, '0')}-${hash}`;
}

/** A name a read may ask for: a block's, never a path. */
export function isBlockName(name: string): boolean {
  return name.endsWith(BLOCK_SUFFIX) && !name.includes('/') && !name.includes('\\') && !name.startsWith('.');
}

/** The lines of a stored block's gzip bytes. */
export async function decodeBlock(compressed: Uint8Array): Promise<SnapshotLine[]> {
  const text = await decodeBlockText(compressed);
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as SnapshotLine);
}

/** A stored block's gzip bytes as text. */
export async function decodeBlockText(compressed: Uint8Array): Promise<string> {
  return (await gunzipAsync(compressed)).toString('utf8');
}

/** The session id a directory name or key segment encodes (sessionDirectoryName); a foreign name as it is. */
export function sessionIdOf(directoryName: string): string {
  try {
    return decodeURIComponent(directoryName);
  } catch {
    return directoryName;
  }
}

export class RecordingBlockStore implements RecordingBlocks {
  constructor(readonly directory: string) {}

  get backupDirectory(): string {
    return this.directory;
  }

  get description(): string {
    return this.directory;
  }

  private sessionDirectory(teamId: number, sessionId: string): string {
    return path.join(this.directory, String(teamId), sessionDirectoryName(sessionId));
  }

  /** The lines as JSON text (one line each), ready to store. */
  static encode(lines: readonly SnapshotLine[]): string {
    return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
  }

  /** Compresses (zlib's thread pool) and durably stores one block. */
  async write(teamId: number, sessionId: string, text: string, firstTimestampMs: number, times: BlockTimes = timesOfText(text)): Promise<StoredBlock> {
    const name = blockName(text, firstTimestampMs, times);
    const rawBytes = Buffer.byteLength(text);
    const directory = this.sessionDirectory(teamId, sessionId);
    const target = path.join(directory, name);
    for (const stored of [name, legacyBlockName(text, firstTimestampMs)]) {
      const existing = await fsp.stat(path.join(directory, stored)).catch(() => null);
      if (existing) return { name: stored, rawBytes, compressedBytes: existing.size, created: false };
    }
    const compressed = await gzipAsync(text, { level: 6 });
    await this.ensureDirectory(directory);
    // Written in one directory of temporary files, so a start empties it without reading every session's.
    const temporary = path.join(this.temporaryDirectory, `${randomBytes(8).toString('hex')}.tmp`);
    await fsp.mkdir(this.temporaryDirectory, { recursive: true });
    const handle = await fsp.open(temporary, 'w');
    try {
      await handle.writeFile(compressed);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await fsp.rename(temporary, target);
    await syncDirectory(directory);
    return { name, rawBytes, compressedBytes: compressed.length, created: true };
  }

  /** Creates the session's directory, syncing each parent a new directory was added to. */
  private async ensureDirectory(directory: string): Promise<void> {
    if (fs.existsSync(directory)) return;
    const teamDirectory = path.dirname(directory);
    for (const [dir, parent] of [[this.directory, path.dirname(this.directory)], [teamDirectory, this.directory], [directory, teamDirectory]] as const) {
      if (fs.existsSync(dir)) continue;
      await fsp.mkdir(dir, { recursive: true });
      await syncDirectory(parent);
    }
  }

  /** A session's blocks in playback order (by their first event's time). */
  async list(teamId: number, sessionId: string): Promise<BlockInfo[]> {
    const directory = this.sessionDirectory(teamId, sessionId);
    const names = await fsp.readdir(directory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    const blocks = names.filter((name) => name.endsWith(BLOCK_SUFFIX)).sort();
    return Promise.all(blocks.map(async (name) => ({ name, compressedBytes: (await fsp.stat(path.join(directory, name))).size })));
  }

  /** One block's lines, decompressed on zlib's thread pool. */
  async readBlock(teamId: number, sessionId: string, name: string): Promise<SnapshotLine[]> {
    if (!isBlockName(name)) throw new Error(`not a block name: ${name}`);
    return decodeBlock(await fsp.readFile(path.join(this.sessionDirectory(teamId, sessionId), name)));
  }

  async readBlockText(teamId: number, sessionId: string, name: string): Promise<string> {
    if (!isBlockName(name)) throw new Error(`not a block name: ${name}`);
    return decodeBlockText(await fsp.readFile(path.join(this.sessionDirectory(teamId, sessionId), name)));
  }

  /** Every line of the session, block after block. */
  async readSession(teamId: number, sessionId: string): Promise<SnapshotLine[]> {
    const lines: SnapshotLine[] = [];
    for (const block of await this.list(teamId, sessionId)) lines.push(...(await this.readBlock(teamId, sessionId, block.name)));
    return lines;
  }

  /** Removes a session's blocks and its directory (a deleted recording). */
  async removeSession(teamId: number, sessionId: string): Promise<void> {
    const directory = this.sessionDirectory(teamId, sessionId);
    await fsp.rm(directory, { recursive: true, force: true });
    await syncDirectory(path.dirname(directory)).catch(() => undefined);
  }

  async removeTeam(teamId: number): Promise<void> {
    await fsp.rm(path.join(this.directory, String(teamId)), { recursive: true, force: true });
    await syncDirectory(this.directory).catch(() => undefined);
  }

  async sessionsOf(teamId: number): Promise<Array<{ sessionId: string; newestBlock: string }>> {
    const teamDirectory = path.join(this.directory, String(teamId));
    const names = await fsp.readdir(teamDirectory).catch(() => [] as string[]);
    const sessions = [];
    for (const name of names) {
      const blocks = (await fsp.readdir(path.join(teamDirectory, name)).catch(() => [] as string[])).filter((block) => block.endsWith(BLOCK_SUFFIX)).sort();
      if (blocks.length > 0) sessions.push({ sessionId: sessionIdOf(name), newestBlock: blocks.at(-1)! });
    }
    return sessions;
  }

  /** Removes temporary files a crash left behind (never acknowledged, so never needed). */
  async removeTemporaryFiles(): Promise<number> {
    const names = await fsp.readdir(this.temporaryDirectory).catch(() => [] as string[]);
    for (const name of names) await fsp.rm(path.join(this.temporaryDirectory, name), { force: true });
    return names.length;
  }

  private get temporaryDirectory(): string {
    return path.join(this.directory, '.tmp');
  }
}
