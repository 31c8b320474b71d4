// Behind the capture log: takes the acknowledged records in the order they were appended and
// writes them to the event store (persons, events, person rows, cache marks: EventWriter), many
// records per write. It runs beside the group commit, so the next append's fsync overlaps this
// insert. The store being down only delays it (it retries, and the log keeps everything);
// events the store refuses for their content are found alone and set aside, never dropped.
// Reads can wait for it: `visible()` resolves once everything acknowledged before the call is
// inserted, so a query started after a 200 sees the events it acknowledged.
import { ServiceUnavailableError } from '../../errors.js';
import { capturedEvents } from '../../metrics/registry.js';
import type { WriteFailure } from '../../storage/events/write-failure.js';
import { writeFindingCulprits } from './culprit-search.js';
import type { TeamEvents } from './event-writer.js';
import type { CaptureLog, LoggedBatch } from './log/capture-log.js';

export interface InserterOptions {
  /** Most events in one write to the store. */
  maxBatchItems: number;
  /** More acknowledged events than this waiting to be inserted and capture answers 503 (memory). */
  maxBacklogItems: number;
  /**
   * The oldest acknowledged event waiting longer than this and capture answers 503: the bound on
   * how long an acknowledged event takes to become visible, under any load.
   */
  maxBacklogAgeMs?: number;
  classify: (error: unknown) => Promise<WriteFailure>;
  /** Whether this process may write now (it holds the capture writer lease). */
  canWrite?: () => boolean;
  /** Told about events set aside and about store failures being retried. */
  onProblem?: (message: string, error: unknown) => void;
}

/** One project's events of one record, as written. */
interface Entry {
  seq: number;
  item: TeamEvents;
}

interface Queued extends LoggedBatch {
  weight: number;
  acknowledgedAt: number;
}

const DAY_US = 86_400_000_000;
/** Pauses between attempts while the store refuses everything. */
const RETRY_PAUSES_MS = [100, 250, 500, 1_000, 2_000, 5_000];
/**
 * The store has taken nothing for this long (a full disk, a server down): reads no longer wait for
 * capture, since the next retry is seconds away; they answer at once with what is stored.
 */
const READS_STOP_WAITING_AFTER_MS = 1_000;

export class CaptureInserter {
  private queue: Queued[] = [];
  private backlogItems = 0;
  private acknowledgedSeq = 0;
  private insertedSeq = 0;
  /** Resolvers waiting for insertedSeq to reach a sequence number, in that order. */
  private waiters: { seq: number; resolve: () => void }[] = [];
  /** Per project, per UTC day number: acknowledged events not yet inserted. */
  private readonly pendingDays = new Map<number, Map<number, number>>();
  private running: Promise<void> | null = null;
  private stopping = false;
  /** The last write failed through the store's fault; the next attempt waits. */
  private retrying = false;
  /** When the store began failing every write (null while writes get through). */
  private failingSince: number | null = null;
  private wake: (() => void) | null = null;
  /** Set while a backup freezes the store: the next write waits for it (`whilePaused`). */
  private held: Promise<void> | null = null;
  /** The write under way with its checkpoint, if any. */
  private inFlight: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly write: (items: TeamEvents[]) => Promise<void>,
    private readonly log: CaptureLog,
    private readonly options: InserterOptions,
  ) {}

  /** A record is in the log (acknowledged or replayed at start): insert it in turn. */
  enqueue(batch: LoggedBatch): void {
    const weight = batch.items.reduce((sum, item) => sum + item.events.length, 0);
    this.queue.push({ ...batch, weight, acknowledgedAt: Date.now() });
    this.backlogItems += weight;
    this.acknowledgedSeq = Math.max(this.acknowledgedSeq, batch.seq);
    this.countDays(batch.items, 1);
    this.kick();
  }

  /** Throws the 503 capture answers while too many acknowledged events wait to be inserted. */
  assertRoom(): void {
    if (!this.hasRoom()) throw new ServiceUnavailableError('Too many events are waiting to be stored; retry shortly.');
  }

  /** For senders inside the process (demo data, imports): waits for room instead of refusing. */
  async waitForRoom(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.hasRoom() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    this.assertRoom();
  }

  private hasRoom(): boolean {
    const oldest = this.queue[0];
    const tooOld = oldest !== undefined && this.options.maxBacklogAgeMs !== undefined && Date.now() - oldest.acknowledgedAt > this.options.maxBacklogAgeMs;
    return this.backlogItems <= this.options.maxBacklogItems && !tooOld;
  }

  get backlog(): number {
    return this.backlogItems;
  }

  /**
   * The log's sequence numbers acknowledged and inserted (or set aside) so far: once `inserted`
   * reaches the `acknowledged` read after a 200, that request's events have been dealt with.
   */
  get progress(): { acknowledged: number; inserted: number } {
    return { acknowledged: this.acknowledgedSeq, inserted: this.insertedSeq };
  }

  /**
   * Runs `work` between two writes: the write under way (and its checkpoint) finishes first, the
   * next waits until `work` is done. A backup freezes the store there, so every table holds the
   * same records: exactly those up to the sequence number `work` is given. A write still under way
   * after `waitMs` (a store failing every attempt) gives up without running `work`.
   */
  async whilePaused<T>(work: (insertedSeq: number) => Promise<T>, waitMs = 60_000): Promise<T> {
    while (this.held) await this.held;
    let release = () => {};
    this.held = new Promise<void>((resolve) => (release = resolve));
    let timer: NodeJS.Timeout | undefined;
    try {
      const finished = await Promise.race([
        this.inFlight.then(() => true, () => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs))),
      ]);
      if (!finished) throw new ServiceUnavailableError('capture has been retrying one write to the event store for too long (see GET /_health); nothing was frozen');
      return await work(this.insertedSeq);
    } finally {
      clearTimeout(timer);
      this.held = null;
      release();
    }
  }

  /** Resolves once everything acknowledged so far is inserted, or after `timeoutMs`; at once while the store is down. */
  visible(timeoutMs: number): Promise<void> {
    const seq = this.acknowledgedSeq;
    if (this.insertedSeq >= seq || this.storeDown()) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push({ seq, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** Whether the store has failed every write for a while: reads then answer without waiting. */
  storeDown(): boolean {
    return this.failingSince !== null && Date.now() - this.failingSince >= READS_STOP_WAITING_AFTER_MS;
  }

  /** Whether acknowledged events of the project on UTC days fromDay..toDay (yyyy-mm-dd) are not yet inserted. */
  hasPendingDays(teamId: number, fromDay: string | null, toDay: string | null): boolean {
    const days = this.pendingDays.get(teamId);
    if (!days) return false;
    const from = fromDay === null ? -Infinity : Date.parse(fromDay) / 86_400_000;
    const to = toDay === null ? Infinity : Date.parse(toDay) / 86_400_000;
    for (const day of days.keys()) if (day >= from && day <= to) return true;
    return false;
  }

  /**
   * Inserts what is queued, waiting at most `timeoutMs` (not at all while the store is failing);
   * then stops. What is left stays in the log and is inserted by the next start.
   */
  async stop(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.running && this.queue.length > 0 && !this.retrying && Date.now() < deadline) {
      await Promise.race([this.running, new Promise((resolve) => setTimeout(resolve, 50))]);
    }
    this.stopping = true;
    this.wake?.();
    await this.running;
  }

  private kick(): void {
    if (this.running || this.stopping) return;
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.queue.length > 0 && !this.stopping) this.kick();
    });
  }

  private async run(): Promise<void> {
    while (this.queue.length > 0 && !this.stopping) {
      if (this.options.canWrite && !this.options.canWrite()) {
        await this.pause(1_000);
        continue;
      }
      while (this.held) await this.held;
      if (this.stopping) return;
      const step = this.writeNext();
      this.inFlight = step;
      if (!(await step)) return; // stopping while the store was down: the log keeps the rest
    }
  }

  private async writeNext(): Promise<boolean> {
    const batch = this.takeBatch();
    const inserted = await this.insert(batch);
    if (!inserted) return false;
    this.queue.splice(0, batch.length);
    this.finish(batch);
    await this.log.markInserted(batch.at(-1)!.seq).catch((error: unknown) => this.options.onProblem?.('could not write the capture log checkpoint', error));
    return true;
  }

  private takeBatch(): Queued[] {
    const batch: Queued[] = [];
    let items = 0;
    for (const record of this.queue) {
      if (batch.length > 0 && items + record.weight > this.options.maxBatchItems) break;
      batch.push(record);
      items += record.weight;
    }
    return batch;
  }

  /**
   * Writes the records, setting aside what the store refuses for a value; false if it stopped
   * first. A write the store fails is tried again after a pause in writes half as large each time
   * (down to one item), in order: a failure that only a big write meets (a statement past the
   * engine's size limit, memory) gets through that way, and no item is blamed for it.
   */
  private async insert(batch: Queued[]): Promise<boolean> {
    let pending: Entry[] = batch.flatMap((record) => record.items.map((item) => ({ seq: record.seq, item })));
    let chunkItems = pending.length;
    for (let attempt = 0; ; attempt++) {
      const { left, cause } = await this.writeInOrder(pending, chunkItems);
      this.retrying = left.length > 0;
      this.failingSince = left.length === 0 || left.length < pending.length ? null : (this.failingSince ?? Date.now());
      if (left.length === 0) return true;
      this.options.onProblem?.('the event store did not take acknowledged events; retrying (they are safe in the capture log)', cause);
      // Pauses grow only while nothing gets through.
      if (left.length < pending.length) attempt = 0;
      pending = left;
      chunkItems = Math.max(1, Math.ceil(Math.min(chunkItems, left.length) / 2));
      await this.pause(RETRY_PAUSES_MS[Math.min(attempt, RETRY_PAUSES_MS.length - 1)]!);
      if (this.stopping) return false;
    }
  }

  /**
   * Writes the items `chunkItems` at a time, in order, finding culprits within each write; stops at
   * the first write the store fails (what follows waits, so person updates keep their order).
   * Returns what is left to write again, in order.
   */
  private async writeInOrder(items: Entry[], chunkItems: number): Promise<{ left: Entry[]; cause: unknown }> {
    for (let start = 0; start < items.length; start += chunkItems) {
      const chunk = items.slice(start, start + chunkItems);
      const search = await writeFindingCulprits(chunk, { write: (part) => this.writeCounted(part), classify: this.options.classify });
      // Parts that failed through the store's fault, or refusals while nothing at all was stored
      // (a store that refuses everything is down), are written again after a pause.
      const again = new Set([...search.failed.flatMap((f) => f.items), ...(search.stored ? [] : search.suspects.map((s) => s.item))]);
      const refused = [...search.refused, ...(search.stored ? search.suspects : [])];
      // What cannot be set aside (the disk that holds refused/ is full too) is tried again with the rest.
      for (const { item, error } of refused) if (!(await this.setAside(item.seq, item.item, error))) again.add(item);
      if (again.size > 0) {
        const cause = search.failed[0]?.error ?? search.suspects[0]?.error ?? search.refused[0]?.error;
        return { left: [...chunk.filter((entry) => again.has(entry)), ...items.slice(start + chunkItems)], cause };
      }
    }
    return { left: [], cause: null };
  }

  /** One write to the store; its events count as inserted once it succeeds. */
  private async writeCounted(part: Entry[]): Promise<void> {
    await this.write(part.map((p) => p.item));
    capturedEvents.inserted.inc(part.reduce((sum, p) => sum + p.item.events.length, 0));
  }

  /** Keeps refused events in the log's refused/ directory; false if even that failed. */
  private async setAside(seq: number, item: TeamEvents, error: unknown): Promise<boolean> {
    try {
      const file = await this.log.setAside(seq, item, error);
      capturedEvents.setAside.inc(item.events.length);
      this.options.onProblem?.(
        `the event store refused ${item.events.length} acknowledged event(s) of project ${item.teamId}; set aside in ${file} (\`hoglet capture reinsert\` inserts them again)`,
        error,
      );
      return true;
    } catch (failure) {
      this.options.onProblem?.(`could not set aside ${item.events.length} refused event(s); they stay in the capture log and are tried again`, failure);
      return false;
    }
  }

  private finish(batch: Queued[]): void {
    for (const record of batch) {
      this.backlogItems -= record.weight;
      this.countDays(record.items, -1);
    }
    this.insertedSeq = batch.at(-1)!.seq;
    while (this.waiters.length > 0 && this.waiters[0]!.seq <= this.insertedSeq) this.waiters.shift()!.resolve();
  }

  private countDays(items: TeamEvents[], delta: 1 | -1): void {
    for (const { teamId, events } of items) {
      let days = this.pendingDays.get(teamId);
      if (!days) this.pendingDays.set(teamId, (days = new Map()));
      for (const event of events) {
        const day = Math.floor(event.timestampUs / DAY_US);
        const count = (days.get(day) ?? 0) + delta;
        if (count === 0) days.delete(day);
        else days.set(day, count);
      }
      if (days.size === 0) this.pendingDays.delete(teamId);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
