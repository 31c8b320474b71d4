// Group commit: requests that arrive while a write is under way wait together and go to the
// store as one write (an append to the capture log); each request is answered only after the
// write that holds its events has returned. Nothing acknowledged is ever only in memory. One
// request's content never fails the others: a refused flush is split until the requests that
// cause it are found (culprit-search.ts), and only they are refused.
import { ApiError, ServiceUnavailableError } from '../../errors.js';
import type { WriteFailure } from '../../storage/events/write-failure.js';
import { InvalidPayloadError } from './capture-errors.js';
import { writeFindingCulprits } from './culprit-search.js';

export interface GroupCommitOptions {
  /** Most items (events) in one flush. */
  maxBatchItems: number;
  /** More waiting items than this and new submissions are refused at once (back-pressure). */
  maxQueuedItems: number;
  /** A submission not stored within this many ms is answered 503 (it may still be stored later). */
  timeoutMs: number;
  /**
   * Why a flush failed: the store's fault (everyone in it gets a 503), certainly one submission's
   * content, or maybe content (the store refused rows but otherwise answers). Without it, every
   * failure is the store's.
   */
  classify?: (error: unknown) => Promise<WriteFailure>;
}

/** What the submission that made the store refuse a flush is answered (when the flush did not say). */
export const REFUSED_CONTENT_DETAIL =
  'Invalid payload: the event store refused a value in this request, so none of its events were stored.';

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
    const search = await writeFindingCulprits(batch, {
      write: (live) => this.flush(live.map((p) => p.item)),
      classify: this.options.classify ?? (async () => 'store' as const),
      onStored: (stored) => stored.forEach((pending) => this.settle(pending, null)),
      isLive: (pending) => !pending.settled,
    });
    for (const { items, error } of search.failed) for (const pending of items) this.settle(pending, unavailable(error));
    for (const { item, error } of search.refused) this.settle(item, refused(error));
    // A store that took none of the parts refuses everything: down, not poisoned.
    for (const { item, error } of search.suspects) this.settle(item, search.stored ? refused(error) : unavailable(error));
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

function unavailable(cause: unknown): ServiceUnavailableError {
  const failure = new ServiceUnavailableError('Events could not be stored right now; retry shortly.');
  failure.cause = cause;
  return failure;
}

/** A client error the flush raised speaks for itself; an engine's refusal gets our own words. */
function refused(cause: unknown): ApiError {
  if (cause instanceof ApiError && cause.status < 500) return cause;
  const failure = new InvalidPayloadError(REFUSED_CONTENT_DETAIL);
  failure.cause = cause;
  return failure;
}
