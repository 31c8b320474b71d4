// chDB keeps its data in one directory that only one process may write. The process that opens it
// leaves its pid in a lock file; another process finding a live owner refuses (a CLI then talks
// to the running server instead). A lock left by a killed process is taken over.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export class EventStoreBusyError extends Error {
  constructor(
    readonly ownerPid: number,
    directory: string,
  ) {
    super(`another Hoglet process (pid ${ownerPid}) owns the event store in ${directory}`);
    this.name = 'EventStoreBusyError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a live process owning the directory, if any (not this one). */
export function eventStoreOwner(directory: string): number | null {
  const pid = pidIn(path.join(directory, 'owner.pid'));
  return pid !== undefined && isOwner(pid) ? pid : null;
}

export interface EventStoreClaim {
  readonly release: () => void;
  /** A previous owner died without releasing the directory: its last writes may be half done. */
  readonly afterCrash: boolean;
}

/**
 * Claims the directory for this process. The lock file is only ever created exclusively, with its
 * pid already in it (a hard link of a file written first: no claimer can read it half written),
 * so of processes claiming at once exactly one wins. A file left by a dead process is moved
 * aside (a rename, which only one claimer can do) and checked to be the one judged dead before
 * it is deleted; a claimer that moved a fresh claim by mistake puts it back.
 */
export function claimEventStore(directory: string): EventStoreClaim {
  const file = path.join(directory, 'owner.pid');
  let afterCrash = false;
  for (let attempt = 0; attempt < 10; attempt++) {
    if (createWithPid(file)) return { release: () => releaseClaim(file), afterCrash };
    const owner = pidIn(file);
    if (owner === undefined) continue; // released or moved aside meanwhile: claim again
    if (isOwner(owner)) throw new EventStoreBusyError(owner, directory);
    if (removeIfStill(file, owner)) afterCrash = true;
  }
  // Claims kept changing hands under us: somebody else is claiming it right now.
  throw new EventStoreBusyError(pidIn(file) ?? 0, directory);
}

/** A live process other than this one (this process's own pid is a lock it left unreleased). */
const isOwner = (pid: number) => pid > 0 && pid !== process.pid && isAlive(pid);

/** The pid in a lock file; NaN for one that holds no pid, undefined when there is no file. */
function pidIn(file: string): number | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return /^\d+$/.test(text) ? Number(text) : Number.NaN;
  } catch {
    return undefined;
  }
}

const uniqueName = (file: string) => `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;

/** Creates `file` holding this process's pid, unless it exists. */
function createWithPid(file: string): boolean {
  const written = uniqueName(file);
  fs.writeFileSync(written, String(process.pid));
  try {
    fs.linkSync(written, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(written, { force: true });
  }
}

/** Deletes `file` if it still holds the stale pid; whether this call deleted it. */
function removeIfStill(file: string, stalePid: number): boolean {
  const aside = uniqueName(file);
  try {
    fs.renameSync(file, aside);
  } catch {
    return false; // another claimer moved it first
  }
  const moved = pidIn(aside);
  if (moved === stalePid || (Number.isNaN(moved) && Number.isNaN(stalePid))) {
    fs.rmSync(aside, { force: true });
    return true;
  }
  // A claim made since the check: give it back (unless yet another claim took its place).
  try {
    fs.linkSync(aside, file);
  } catch {
    // Nothing more to do: the claim that took its place owns the directory.
  }
  fs.rmSync(aside, { force: true });
  return false;
}

function releaseClaim(file: string): void {
  try {
    if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file);
  } catch {
    // Already gone: nothing to release.
  }
}

/** Where a serving owner says it listens, so a CLI beside it finds it on any port. */
const ADDRESS_FILE = 'server.json';

export interface ServerAddress {
  pid: number;
  /** Base URL, e.g. http://127.0.0.1:8123 */
  url: string;
}

/** Records the URL this process serves on, next to its owner.pid; returns the removal function. */
export function announceServerAddress(directory: string, url: string): () => void {
  const file = path.join(directory, ADDRESS_FILE);
  fs.writeFileSync(file, JSON.stringify({ pid: process.pid, url } satisfies ServerAddress));
  return () => fs.rmSync(file, { force: true });
}

/** The URL the live owner `pid` announced, if it did. */
export function announcedServerUrl(directory: string, pid: number): string | null {
  try {
    const address = JSON.parse(fs.readFileSync(path.join(directory, ADDRESS_FILE), 'utf8')) as Partial<ServerAddress>;
    return address.pid === pid && typeof address.url === 'string' ? address.url : null;
  } catch {
    return null;
  }
}
