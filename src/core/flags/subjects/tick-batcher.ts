// Gathers the keys concurrent requests ask for and reads them together: a cold /flags/ person
// costs an event-store statement of several ms, about the same for one distinct id as for a
// hundred, so requests arriving in the same tick (or while the previous read of their batch is
// still running) share one statement.

/** Reads the values of these keys; a key missing from the answer reads as `missing`. */
export type ReadMany<V> = (keys: readonly string[]) => Promise<ReadonlyMap<string, V>>;

interface Waiter<V> {
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

interface Batch<V> {
  read: ReadMany<V>;
  waiting: Map<string, Waiter<V>[]>;
  inFlight: number;
  scheduled: boolean;
}

/**
 * One statement per batch key at a time: the keys asked for while it runs go together in the
 * next. (The event store's ingest lane runs its statements one after another anyway.)
 */
const MAX_IN_FLIGHT = 1;
/** The event store's IN lists stay bounded. */
const MAX_KEYS_PER_READ = 1_000;

export class TickBatcher<V> {
  private readonly batches = new Map<string, Batch<V>>();

  constructor(private readonly missing: V) {}

  /**
   * @param batchKey what may share a statement (always includes the project id)
   * @param read reads one batch; the first caller's `read` serves the batch
   */
  load(batchKey: string, key: string, read: ReadMany<V>): Promise<V> {
    let batch = this.batches.get(batchKey);
    if (!batch) {
      batch = { read, waiting: new Map(), inFlight: 0, scheduled: false };
      this.batches.set(batchKey, batch);
    }
    const promise = new Promise<V>((resolve, reject) => {
      const waiters = batch.waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else batch.waiting.set(key, [{ resolve, reject }]);
    });
    this.schedule(batchKey, batch);
    return promise;
  }

  private schedule(batchKey: string, batch: Batch<V>): void {
    if (batch.scheduled || batch.inFlight >= MAX_IN_FLIGHT || batch.waiting.size === 0) return;
    batch.scheduled = true;
    setImmediate(() => {
      batch.scheduled = false;
      this.flush(batchKey, batch);
    });
  }

  private flush(batchKey: string, batch: Batch<V>): void {
    if (batch.inFlight >= MAX_IN_FLIGHT || batch.waiting.size === 0) return;
    const taken = new Map<string, Waiter<V>[]>();
    for (const [key, waiters] of batch.waiting) {
      if (taken.size >= MAX_KEYS_PER_READ) break;
      taken.set(key, waiters);
    }
    for (const key of taken.keys()) batch.waiting.delete(key);
    batch.inFlight += 1;
    batch.read([...taken.keys()]).then(
      (values) => {
        for (const [key, waiters] of taken) for (const w of waiters) w.resolve(values.get(key) ?? this.missing);
      },
      (error: unknown) => {
        for (const waiters of taken.values()) for (const w of waiters) w.reject(error);
      },
    ).finally(() => {
      batch.inFlight -= 1;
      if (batch.waiting.size > 0) this.schedule(batchKey, batch);
      else if (batch.inFlight === 0) this.batches.delete(batchKey);
    });
  }
}
