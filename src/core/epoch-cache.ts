// A bounded cache that any process sharing the store can invalidate: entries are kept until a
// shared counter (the epoch) changes, and the counter is read at most once per interval.
import { LRUCache } from 'lru-cache';

export interface EpochCacheOptions {
  max: number;
  checkIntervalMs?: number;
}

/** Cached values, including "not found" (null), so unknown keys do not reach the store each time. */
export class EpochCache<V extends {} | null> {
  private readonly cache: LRUCache<string, { value: V }>;
  private epoch = -1;
  /**
   * Grows at every flush (a new epoch seen, or clear()). A load stores its value only if no flush
   * happened while it ran: a value read before a revocation must never outlive the flush that
   * revocation caused, even when the read finishes after it.
   */
  private generation = 0;
  private checkedAt = 0;
  private refresh: Promise<void> | null = null;

  constructor(
    private readonly readEpoch: () => Promise<number>,
    private readonly options: EpochCacheOptions,
  ) {
    this.cache = new LRUCache({ max: options.max });
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    await this.refreshIfDue();
    const hit = this.cache.get(key);
    if (hit) return hit.value;
    const startedIn = this.generation;
    const value = await load();
    if (this.generation === startedIn) this.cache.set(key, { value });
    return value;
  }

  /** Forget everything now (this process changed what the cache mirrors). */
  clear(): void {
    this.flush();
  }

  private flush(): void {
    this.generation += 1;
    this.cache.clear();
  }

  private refreshIfDue(): Promise<void> {
    if (Date.now() - this.checkedAt < (this.options.checkIntervalMs ?? 1000)) return Promise.resolve();
    this.refresh ??= this.readEpoch()
      .then((epoch) => {
        if (epoch !== this.epoch) this.flush();
        this.epoch = epoch;
        this.checkedAt = Date.now();
      })
      .finally(() => {
        this.refresh = null;
      });
    return this.refresh;
  }
}
