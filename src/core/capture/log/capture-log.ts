// The capture log: what makes a 200 mean "stored". Each group commit appends its events as one
// record to a segment file and syncs it (one fdatasync, however many requests the commit holds);
// only then are the requests answered. The inserts into the event store run behind it, and a
// checkpoint names the last record they finished. On start, records after the checkpoint are
// inserted again: events are de-duplicated by uuid, and person updates re-applied in their
// original order leave the same state, so replaying a record that had been inserted is harmless.
// Segments whose records are all inserted are deleted.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { claimEventStore } from '../../../storage/events/owner-lock.js';
import type { TeamEvents } from '../event-writer.js';
import { syncDirectory } from './sync-directory.js';
import { decodeFrames, encodeFrame } from './frames.js';
import { REFUSED_DIRECTORY, SetAsideEvents } from './set-aside.js';

/** One appended record: the events of one group commit. */
export interface LoggedBatch {
  seq: number;
  items: TeamEvents[];
}

/** A new segment is started once the current one would grow past this. */
export const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;

const CHECKPOINT_FILE = 'checkpoint';
const SEGMENT = /^segment-(\d{16})\.log$/;
const segmentName = (firstSeq: number) => `segment-${String(firstSeq).padStart(16, '0')}.log`;

interface Segment {
  file: string;
  lastSeq: number;
}

interface ActiveSegment extends Segment {
  handle: fsp.FileHandle;
  bytes: number;
}

export interface OpenedCaptureLog {
  log: CaptureLog;
  /** Records appended (acknowledged) but not known to be inserted, oldest first. */
  pending: LoggedBatch[];
}

export class CaptureLog {
  private active: ActiveSegment | null = null;
  /** Segments no longer appended to, oldest first. */
  private closed: Segment[] = [];
  private checkpointWrite: Promise<void> = Promise.resolve();

  private constructor(
    readonly directory: string,
    private nextSeq: number,
    private readonly segmentBytes: number,
    private readonly release: () => void,
  ) {
    this.refused = SetAsideEvents.of(directory);
  }

  /** The events set aside so far (set-aside.ts). */
  readonly refused: SetAsideEvents;

  /** Opens (or creates) the log in `directory`, which one process at a time may own. */
  static async open(directory: string, options: { segmentBytes?: number } = {}): Promise<OpenedCaptureLog> {
    await fsp.mkdir(path.join(directory, REFUSED_DIRECTORY), { recursive: true });
    const claim = claimEventStore(directory);
    try {
      const checkpoint = await readCheckpoint(directory);
      const pending: LoggedBatch[] = [];
      const closed: Segment[] = [];
      let lastSeq = checkpoint;
      const files = (await fsp.readdir(directory)).filter((name) => SEGMENT.test(name)).sort();
      for (const name of files) {
        const file = path.join(directory, name);
        const data = await fsp.readFile(file);
        const { payloads, intactBytes } = decodeFrames(data);
        // Only a torn append (never acknowledged) leaves bytes after the intact frames.
        if (intactBytes < data.length) await fsp.truncate(file, intactBytes);
        let segmentLast = 0;
        for (const payload of payloads) {
          const batch = JSON.parse(payload) as LoggedBatch;
          segmentLast = batch.seq;
          if (batch.seq > checkpoint) pending.push(batch);
        }
        lastSeq = Math.max(lastSeq, segmentLast);
        closed.push({ file, lastSeq: segmentLast });
      }
      const log = new CaptureLog(directory, lastSeq + 1, options.segmentBytes ?? DEFAULT_SEGMENT_BYTES, claim.release);
      log.closed = closed;
      await log.deleteInserted(checkpoint);
      return { log, pending };
    } catch (error) {
      claim.release();
      throw error;
    }
  }

  /** Appends one record and syncs it to disk; resolves with its sequence number. */
  async append(items: TeamEvents[]): Promise<number> {
    const seq = this.nextSeq;
    // Serialising may throw on content (the group commit then finds the request that holds it).
    const frame = encodeFrame(JSON.stringify({ seq, items } satisfies LoggedBatch));
    const active = await this.segmentFor(frame.length, seq);
    try {
      let written = 0;
      while (written < frame.length) written += (await active.handle.write(frame, written)).bytesWritten;
      await active.handle.datasync();
    } catch (error) {
      await this.dropTornAppend(active);
      throw error;
    }
    active.bytes += frame.length;
    active.lastSeq = seq;
    this.nextSeq = seq + 1;
    return seq;
  }

  /**
   * Every record up to `seq` is in the event store: remember it (replay starts after it) and
   * delete the segments that hold nothing newer. Not synced: a checkpoint lost in a power cut
   * only means those records are inserted again, which changes nothing.
   */
  markInserted(seq: number): Promise<void> {
    this.checkpointWrite = this.checkpointWrite.then(async () => {
      const temporary = path.join(this.directory, `${CHECKPOINT_FILE}.tmp`);
      await fsp.writeFile(temporary, String(seq));
      await fsp.rename(temporary, path.join(this.directory, CHECKPOINT_FILE));
      await this.deleteInserted(seq);
    });
    return this.checkpointWrite;
  }

  /**
   * Keeps events the event store refused after they were acknowledged (a value our checks let
   * through), so nothing acknowledged is ever simply dropped; an operator can inspect or re-send them.
   */
  setAside(seq: number, item: TeamEvents, error: unknown): Promise<string> {
    return this.refused.write(seq, item, error);
  }

  async close(): Promise<void> {
    await this.checkpointWrite.catch(() => {});
    await this.active?.handle.close();
    this.active = null;
    this.release();
  }

  private async segmentFor(frameBytes: number, seq: number): Promise<ActiveSegment> {
    if (this.active && this.active.bytes > 0 && this.active.bytes + frameBytes > this.segmentBytes) {
      await this.active.handle.close();
      this.closed.push({ file: this.active.file, lastSeq: this.active.lastSeq });
      this.active = null;
    }
    if (!this.active) {
      const file = path.join(this.directory, segmentName(seq));
      this.active = { handle: await fsp.open(file, 'a'), file, bytes: 0, lastSeq: 0 };
      // The new file's name must survive a power cut too.
      await syncDirectory(this.directory);
    }
    return this.active;
  }

  /**
   * A failed append (a full disk writes part of a frame, then ENOSPC) must not stay in front of
   * the next one: reading stops at a torn frame, so a record acknowledged after it would be lost
   * at the next start. Cut the segment back to its last whole record (shrinking needs no space);
   * failing that, end the segment there (its torn tail is then its last bytes) and start another.
   */
  private async dropTornAppend(active: ActiveSegment): Promise<void> {
    try {
      await active.handle.truncate(active.bytes);
    } catch {
      await active.handle.close().catch(() => {});
      this.active = null;
      // A segment without a whole record would be opened again under the same name: remove it.
      if (active.bytes === 0) await fsp.rm(active.file, { force: true }).catch(() => {});
      else this.closed.push({ file: active.file, lastSeq: active.lastSeq });
    }
  }

  private async deleteInserted(seq: number): Promise<void> {
    while (this.closed.length > 0 && this.closed[0]!.lastSeq <= seq) {
      await fsp.rm(this.closed.shift()!.file, { force: true });
    }
  }
}

async function readCheckpoint(directory: string): Promise<number> {
  try {
    const seq = Number((await fsp.readFile(path.join(directory, CHECKPOINT_FILE), 'utf8')).trim());
    return Number.isSafeInteger(seq) && seq >= 0 ? seq : 0;
  } catch {
    return 0;
  }
}
