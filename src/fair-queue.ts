// Fair admission of work from many tenants (projects) to a few slots (parser workers, query-lane
// connections): waiting work is served round-robin across tenants (the one served longest ago
// first), so a project's next item never waits behind all of another project's queue; one tenant
// may hold at most all slots but one while there are two or more, so another project always finds
// a slot free for its next item; and each tenant's waiting work is bounded apart from everyone's,
// so one project cannot fill the queue.

export interface FairQueueOptions {
  /** Items that run at once. */
  readonly slots: number;
  /** Slots one tenant may hold at once (default: all but one, at least one). */
  readonly perTenantRunning?: number;
  /** Items one tenant may have waiting (a number, or one per tenant); past it, `tenantFull()` is thrown. */
  readonly perTenantWaiting: number | ((tenant: string) => number);
  /** Items all tenants may have waiting; past it, `full()` is thrown. */
  readonly maxWaiting: number;
  /** The error for a tenant past its own bound. */
  readonly tenantFull: () => Error;
  /** The error when everyone's waiting work is at the bound. */
  readonly full: () => Error;
}

/** A slot held: `slot` is its index (0 .. slots-1); release() exactly once when the work is done. */
export interface Lease {
  readonly slot: number;
  release(): void;
}

interface Waiter {
  readonly tenant: string;
  grant(slot: number): void;
}

export class FairQueue {
  /** Waiting work by tenant. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** When each tenant with work here was last given a slot: the one served longest ago goes next. */
  private readonly servedAt = new Map<string, number>();
  private serial = 0;
  private waitingCount = 0;
  private readonly runningByTenant = new Map<string, number>();
  private readonly freeSlots: number[];
  private readonly perTenantRunning: number;

  constructor(private readonly options: FairQueueOptions) {
    this.freeSlots = Array.from({ length: options.slots }, (_, i) => i);
    this.perTenantRunning = options.perTenantRunning ?? Math.max(1, options.slots - 1);
  }

  /** Items waiting (all tenants, or one). */
  waitingOf(tenant?: string): number {
    return tenant === undefined ? this.waitingCount : this.waiting.get(tenant)?.length ?? 0;
  }

  /** Items running (all tenants, or one). */
  runningOf(tenant?: string): number {
    return tenant === undefined ? this.options.slots - this.freeSlots.length : this.runningByTenant.get(tenant) ?? 0;
  }

  /** A slot for the tenant's next item, now or in its turn. Aborting while it waits gives up its place. */
  admit(tenant: string, signal?: AbortSignal): Promise<Lease> {
    if (signal?.aborted) return Promise.reject(abortError());
    if (this.waitingOf(tenant) === 0 && this.canRun(tenant)) return Promise.resolve(this.lease(tenant));
    if (this.waitingCount >= this.options.maxWaiting) return Promise.reject(this.options.full());
    const { perTenantWaiting } = this.options;
    const bound = typeof perTenantWaiting === 'number' ? perTenantWaiting : perTenantWaiting(tenant);
    if (this.waitingOf(tenant) >= bound) return Promise.reject(this.options.tenantFull());
    return new Promise<Lease>((resolve, reject) => {
      const onAbort = () => {
        if (this.remove(waiter)) reject(abortError());
      };
      const waiter: Waiter = {
        tenant,
        grant: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.leaseOf(tenant, slot));
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const queue = this.waiting.get(tenant);
      if (queue) queue.push(waiter);
      else this.waiting.set(tenant, [waiter]);
      this.waitingCount += 1;
    });
  }

  private canRun(tenant: string): boolean {
    return this.freeSlots.length > 0 && this.runningOf(tenant) < this.perTenantRunning;
  }

  private lease(tenant: string): Lease {
    return this.leaseOf(tenant, this.freeSlots.shift()!);
  }

  private leaseOf(tenant: string, slot: number): Lease {
    this.runningByTenant.set(tenant, this.runningOf(tenant) + 1);
    this.servedAt.set(tenant, ++this.serial);
    let released = false;
    return {
      slot,
      release: () => {
        if (released) return;
        released = true;
        const running = this.runningOf(tenant) - 1;
        if (running > 0) this.runningByTenant.set(tenant, running);
        else this.runningByTenant.delete(tenant);
        if (running === 0 && !this.waiting.has(tenant)) this.servedAt.delete(tenant);
        // The lowest free slot first: sequential work keeps using the same one.
        this.freeSlots.push(slot);
        this.freeSlots.sort((a, b) => a - b);
        this.dispatch();
      },
    };
  }

  /**
   * Hands free slots to waiting tenants, round-robin: the tenant served longest ago (or never)
   * first, skipping tenants at their share.
   */
  private dispatch(): void {
    while (this.freeSlots.length > 0) {
      let tenant: string | undefined;
      for (const candidate of this.waiting.keys()) {
        if (!this.canRun(candidate)) continue;
        if (tenant === undefined || (this.servedAt.get(candidate) ?? 0) < (this.servedAt.get(tenant) ?? 0)) tenant = candidate;
      }
      if (tenant === undefined) return;
      const queue = this.waiting.get(tenant)!;
      const waiter = queue.shift()!;
      this.waitingCount -= 1;
      if (queue.length === 0) this.waiting.delete(tenant);
      const slot = this.freeSlots.shift()!;
      // The slot is counted as the tenant's before anything else can run.
      waiter.grant(slot);
    }
  }

  private remove(waiter: Waiter): boolean {
    const queue = this.waiting.get(waiter.tenant);
    const at = queue?.indexOf(waiter) ?? -1;
    if (!queue || at < 0) return false;
    queue.splice(at, 1);
    this.waitingCount -= 1;
    if (queue.length === 0) {
      this.waiting.delete(waiter.tenant);
      if (this.runningOf(waiter.tenant) === 0) this.servedAt.delete(waiter.tenant);
    }
    return true;
  }
}

function abortError(): Error {
  const error = new Error('The work was cancelled while it waited.');
  error.name = 'AbortError';
  return error;
}
