// A small real filesystem to fill up: a tmpfs mounted for one test file. Mounting needs root
// (CI runs as root); where it cannot be had the caller skips its tests with the reason it gets.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  /** Where the tmpfs is mounted (an empty temporary directory otherwise). */
  mountPoint: string;
  /** Why no small disk could be mounted; null when it is mounted. */
  skipReason: string | null;
  /** Unmounts it and removes the mount point. */
  release(): void;
}

/** Mounts a tmpfs of `megabytes`, or says why not (not root, no mount, a ClickHouse server holds the events). */
export function mountSmallDisk(testFile: string, megabytes: number, options: { eventsOnDisk?: boolean } = {}): SmallDisk {
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-small-disk-'));
  let skipReason: string | null = null;
  if (options.eventsOnDisk !== false && (process.env.HOGLET_TEST_CLICKHOUSE_URL ?? process.env.CLICKHOUSE_URL)?.trim()) {
    skipReason = 'the events live on a ClickHouse server, not on a disk this test can fill';
  } else {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', mountPoint], { stdio: 'pipe' });
    } catch (error) {
      skipReason = `cannot mount a tmpfs here (${String((error as { stderr?: Buffer }).stderr ?? error).trim()})`;
    }
  }
  if (skipReason) console.warn(`${testFile} skipped: ${skipReason}`);
  return {
    mountPoint,
    skipReason,
    release() {
      // Lazily: a test that failed may still hold a file open there; the mount goes once it closes.
      if (!skipReason) execFileSync('umount', ['-l', mountPoint]);
      fs.rmSync(mountPoint, { recursive: true, force: true });
    },
  };
}

/** Fills the filesystem holding `filler` (a file it creates), then gives back `leave` bytes. */
export function fillDisk(filler: string, leave: number): void {
  const chunk = Buffer.alloc(1024 * 1024, 1);
  const fd = fs.openSync(filler, 'w');
  let written = 0;
  try {
    for (;;) {
      const wrote = fs.writeSync(fd, chunk);
      written += wrote;
      if (wrote < chunk.length) break; // the last bytes that fit; the next write says ENOSPC
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
  fs.truncateSync(filler, Math.max(0, written - leave));
}
