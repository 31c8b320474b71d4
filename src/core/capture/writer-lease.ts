// Capture keeps one writer per event data set: persons are read, cached and versioned by the
// process that writes them, so two processes writing one person would each write version N+1 and
// lose a `$set` or half a merge. The embedded store allows one process per directory anyway; with
// a ClickHouse server several API processes can share the data, and this lease (a row in the
// shared metadata store, renewed every few seconds) names the one that captures. The others serve
// everything else and answer capture with a 503 naming the reason; a lease its owner stopped
// renewing is taken over, so a dead writer is replaced within `ttlMs`.
import { randomUUID } from 'node:crypto';
import { ServiceUnavailableError } from '../../errors.js';
import type { CaptureWriterLeasesRepository } from '../../storage/meta/repositories/capture-writer-leases.js';

export interface WriterLeaseTiming {
  /** A lease not renewed for this long is free. */
  ttlMs: number;
  heartbeatMs: number;
}

export const DEFAULT_LEASE_TIMING: WriterLeaseTiming = { ttlMs: 30_000, heartbeatMs: 5_000 };

export class CaptureWriterLease {
  private holding = false;
  private timer: NodeJS.Timeout | null = null;
  readonly owner = randomUUID();

  constructor(
    private readonly leases: CaptureWriterLeasesRepository,
    /** Which data set: the event store's address and database. */
    readonly storeKey: string,
    private readonly timing: WriterLeaseTiming = DEFAULT_LEASE_TIMING,
    private readonly onBackgroundError: (error: unknown) => void = () => {},
  ) {}

  /**
   * Claims the lease (or learns who holds it) and keeps it renewed or retried in the background.
   * `takeOver`: this process already knows it is the only writer (the embedded store's directory
   * lock), so a lease left by a killed predecessor is taken at once instead of after `ttlMs`.
   */
  async start(options: { takeOver?: boolean } = {}): Promise<void> {
    if (options.takeOver) {
      const now = new Date().toISOString();
      this.holding = (await this.leases.claim(this.storeKey, this.owner, now, '9999-12-31T23:59:59.999Z')) === this.owner;
    } else {
      await this.beat();
    }
    this.timer = setInterval(() => {
      // One beat at a time; stop() waits for the one in flight, so none can claim after the release.
      if (this.beating) return;
      this.beating = this.beat().catch(this.onBackgroundError).finally(() => { this.beating = null; });
    }, this.timing.heartbeatMs);
    this.timer.unref();
  }

  holds(): boolean {
    return this.holding;
  }

  /** Throws the 503 capture answers when another process writes this data set. */
  assertHeld(): void {
    if (!this.holding) {
      throw new ServiceUnavailableError('Another Hoglet process writes the events of this data set (capture has one writer per data set); send events to it.');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    if (this.holding) await this.leases.release(this.storeKey, this.owner);
    this.holding = false;
  }

  private stopped = false;
  private beating: Promise<void> | null = null;

  private async beat(): Promise<void> {
    const now = Date.now();
    if (this.holding) {
      this.holding = await this.leases.renew(this.storeKey, this.owner, new Date(now).toISOString());
      if (this.holding) return;
    }
    // A stopping process never claims again (its renewals are over).
    if (this.stopped) return;
    const owner = await this.leases.claim(this.storeKey, this.owner, new Date(now).toISOString(), new Date(now - this.timing.ttlMs).toISOString());
    this.holding = owner === this.owner;
  }
}
