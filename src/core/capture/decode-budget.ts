// One budget of memory for all the capture requests being decoded at once. Each request's decoded
// bytes are counted against it while the request is in flight (its events live until they are
// stored), so many concurrent compressed bodies cannot together exhaust memory even though each
// alone is under the per-request cap. A request that would overdraw it is answered 503: nothing of
// it was stored, and the SDK retries.
import { ServiceUnavailableError } from '../../errors.js';

/** Default for all concurrent capture decodes together; HOGLET_CAPTURE_MEMORY_MB sets it. */
export const DEFAULT_DECODE_BUDGET_BYTES = 512 * 1024 * 1024;

export class DecodeBudget {
  private used = 0;

  constructor(readonly totalBytes: number = DEFAULT_DECODE_BUDGET_BYTES) {}

  /** A running count for one request; give it back with release() when the request ends. */
  open(): DecodeReservation {
    return new DecodeReservation(this);
  }

  /** @internal */
  tryTake(bytes: number): boolean {
    if (this.used + bytes > this.totalBytes && this.used > 0) return false;
    this.used += bytes;
    return true;
  }

  /** @internal */
  give(bytes: number): void {
    this.used -= bytes;
  }

  /** Bytes held by requests in flight. */
  get inUse(): number {
    return this.used;
  }
}

export class DecodeReservation {
  private held = 0;

  constructor(private readonly budget: DecodeBudget) {}

  /** Counts bytes this request now holds; throws a 503 when the budget cannot take them. */
  take(bytes: number): void {
    if (!this.budget.tryTake(bytes)) {
      throw new ServiceUnavailableError('Too much capture data is being decoded right now; retry shortly.');
    }
    this.held += bytes;
  }

  release(): void {
    this.budget.give(this.held);
    this.held = 0;
  }
}

/** For callers with nothing to bound (tests of the decoder alone). */
export const UNBOUNDED = new DecodeBudget(Number.POSITIVE_INFINITY);
