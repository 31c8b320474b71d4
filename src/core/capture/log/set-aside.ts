// Events the event store refused after they were acknowledged, kept one file per refused item in
// the capture log's refused/ directory (`<seq>-<first uuid>.json`: the events, the project and the
// engine's reason). Never a silent end: the server counts them in its status, logs each one, and
// `hoglet capture reinsert` inserts them again and removes a file only once its events are stored.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TeamEvents } from '../event-writer.js';
import { syncDirectory } from './sync-directory.js';

export const REFUSED_DIRECTORY = 'refused';

/** One set-aside file's content. */
export interface SetAsideRecord extends TeamEvents {
  refused_at: string;
  reason: string;
  seq: number;
}

export interface SetAsideCount {
  files: number;
  events: number;
}

const RECORD_FILE = /^(\d+)-[^/]+\.json$/;

export class SetAsideEvents {
  /** Events per file, by name: a file is written once (renamed into place), so counting it once is enough. */
  private readonly counted = new Map<string, number>();

  constructor(readonly directory: string) {}

  /** The set-aside events of the capture log in `captureLogDir`. */
  static of(captureLogDir: string): SetAsideEvents {
    return new SetAsideEvents(path.join(captureLogDir, REFUSED_DIRECTORY));
  }

  /** Writes a record durably (a temporary file, synced, then renamed); returns its path. */
  async write(seq: number, item: TeamEvents, error: unknown): Promise<string> {
    const file = path.join(this.directory, `${seq}-${item.events[0]?.uuid ?? 'empty'}.json`);
    const record: SetAsideRecord = { refused_at: new Date().toISOString(), reason: reasonOf(error), seq, ...item };
    const temporary = `${file}.tmp`;
    try {
      const handle = await fsp.open(temporary, 'w');
      try {
        await handle.writeFile(JSON.stringify(record));
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await fsp.rename(temporary, file);
    } catch (failure) {
      await fsp.rm(temporary, { force: true }).catch(() => {});
      throw failure;
    }
    await syncDirectory(this.directory);
    return file;
  }

  /** The set-aside files' names, in the order their events were acknowledged. */
  async names(): Promise<string[]> {
    let names: string[];
    try {
      names = await fsp.readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return names.filter((name) => RECORD_FILE.test(name)).sort((a, b) => seqOf(a) - seqOf(b) || a.localeCompare(b));
  }

  async read(name: string): Promise<SetAsideRecord> {
    return JSON.parse(await fsp.readFile(path.join(this.directory, name), 'utf8')) as SetAsideRecord;
  }

  async remove(name: string): Promise<void> {
    await fsp.rm(path.join(this.directory, name), { force: true });
    this.counted.delete(name);
  }

  /** How many files and events are set aside now (a file that cannot be read counts as one file, no events). */
  async count(): Promise<SetAsideCount> {
    const names = await this.names();
    const present = new Set(names);
    for (const name of this.counted.keys()) if (!present.has(name)) this.counted.delete(name);
    let events = 0;
    for (const name of names) {
      let n = this.counted.get(name);
      if (n === undefined) {
        n = await this.read(name).then((record) => (Array.isArray(record.events) ? record.events.length : 0), () => 0);
        this.counted.set(name, n);
      }
      events += n;
    }
    return { files: names.length, events };
  }
}

function seqOf(name: string): number {
  return Number(RECORD_FILE.exec(name)?.[1] ?? 0);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ''}` : String(error);
}
