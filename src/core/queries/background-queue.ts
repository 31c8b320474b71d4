// Background calculations wait their turn here, a few at a time, so a burst of async requests (a
// dashboard, an insight list asking for refreshes) cannot start dozens of queries at once. A job a
// client comes to wait for (a blocking request for the same result) can jump the queue.

export interface QueuedJob<T> {
  readonly result: Promise<T>;
  /** Starts the job now if it is still waiting, beyond the concurrency limit. */
  promote(): void;
}

export class BackgroundQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be a positive integer');
  }

  add<T>(job: () => Promise<T>): QueuedJob<T> {
    let begin!: () => void;
    const started = new Promise<void>((resolve) => { begin = resolve; });
    let queued = true;
    const start = () => {
      if (!queued) return;
      queued = false;
      const index = this.waiting.indexOf(start);
      if (index >= 0) this.waiting.splice(index, 1);
      this.running++;
      begin();
    };
    const result = started.then(job).finally(() => {
      this.running--;
      // A promoted job may have run beyond the limit: start the next only when below it again.
      if (this.running < this.concurrency) this.waiting[0]?.();
    });
    this.waiting.push(start);
    if (this.running < this.concurrency) start();
    return { result, promote: start };
  }

  /** Jobs started and not finished. */
  get active(): number {
    return this.running;
  }

  /** Jobs waiting for a turn. */
  get queued(): number {
    return this.waiting.length;
  }
}
