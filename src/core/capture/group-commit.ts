// Group commit: requests that arrive while a write is under way wait together and go to the
// store as one insert; each request is answered only after the insert that holds its events
// has returned. Nothing acknowledged is ever only in memory.
import { ServiceUnavailableError } from '../../errors.js';

export interface GroupCommitOptions {
  /** Most items (events) in one flush. */
  maxBatchItems: number;
  /** More waiting items than this and new submissions are refused at once (back-pressure). */
  maxQueuedItems: number;
  /** A submission not stored within this many ms is answered 503 (it may still be stored later). */
  timeoutMs: number;
}

interface Pending<T> {
  item: T;
  weight: number;
  resolve: () => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  settled: boolean;
}

export class GroupCommitter<T> {
  private queue: Pending<T>[] = [];
  private queuedItems = 0;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly flush: (items: T[]) => Promise<void>,
    private readonly weigh: (item: T) => number,
    private readonly options: GroupCommitOptions,
  ) {}

  /** Resolves once the item is durably stored; rejects with a 503 error otherwise. */
  submit(item: T): Promise<void> {
    const weight = this.weigh(item);
    if (this.queuedItems + weight > this.options.maxQueuedItems && this.queuedItems > 0) {
      return Promise.reject(new ServiceUnavailableError('Too many events are waiting to be stored; retry shortly.'));
    }
    return new Promise<void>((resolve, reject) => {
      const pending: Pending<T> = { item, weight, resolve, reject, settled: false, timer: undefined as never };
      pending.timer = setTimeout(() => this.timeOut(pending), this.options.timeoutMs);
      this.queue.push(pending);
      this.queuedItems += weight;
      this.schedule();
    });
  }

  /** Waits until everything submitted so far has been written or refused. */
  async drain(): Promise<void> {
    while (this.flushing || this.queue.length > 0) {
      this.schedule();
      await this.flushing;
    }
  }

  private schedule(): void {
    if (this.flushing || this.queue.length === 0) return;
    // setImmediate lets requests parsed in the same loop turn join this flush.
    this.flushing = new Promise<void>((done) => setImmediate(() => this.runFlush().finally(done))).then(() => {
      this.flushing = null;
      this.schedule();
    });
  }

  private async runFlush(): Promise<void> {
    const batch = this.takeBatch();
    if (batch.length === 0) return;
    try {
      await this.flush(batch.map((p) => p.item));
      for (const pending of batch) this.settle(pending, null);
    } catch (error) {
      const failure = new ServiceUnavailableError('Events could not be stored right now; retry shortly.');
      failure.cause = error;
      for (const pending of batch) this.settle(pending, failure);
    }
  }

  private takeBatch(): Pending<T>[] {
    const batch: Pending<T>[] = [];
    let items = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      if (batch.length > 0 && items + next.weight > this.options.maxBatchItems) break;
      this.queue.shift();
      this.queuedItems -= next.weight;
      if (next.settled) continue; // timed out while waiting: never written, already answered 503
      batch.push(next);
      items += next.weight;
    }
    return batch;
  }

  private timeOut(pending: Pending<T>): void {
    this.settle(pending, new ServiceUnavailableError('The event store is too slow right now; retry shortly.'));
  }

  private settle(pending: Pending<T>, error: Error | null): void {
    if (pending.settled) return;
    pending.settled = true;
    clearTimeout(pending.timer);
    if (error) pending.reject(error);
    else pending.resolve();
  }
}
