// chDB keeps its data in one directory that only one process may write. The process that opens it
// leaves its pid in a lock file; another process finding a live owner refuses (a CLI then talks
// to the running server instead). A lock left by a killed process is taken over.
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
  try {
    const pid = Number(fs.readFileSync(path.join(directory, 'owner.pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

export interface EventStoreClaim {
  readonly release: () => void;
  /** A previous owner died without releasing the directory: its last writes may be half done. */
  readonly afterCrash: boolean;
}

/** Claims the directory for this process. */
export function claimEventStore(directory: string): EventStoreClaim {
  const owner = eventStoreOwner(directory);
  if (owner !== null) throw new EventStoreBusyError(owner, directory);
  const file = path.join(directory, 'owner.pid');
  const afterCrash = fs.existsSync(file);
  fs.writeFileSync(file, String(process.pid));
  const release = () => {
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file);
    } catch {
      // Already gone: nothing to release.
    }
  };
  return { release, afterCrash };
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
