// Failed sign-ins are counted per email and address, and per address alone, over a sliding
// window; past the limit, that email (or that address) is refused until the window has passed,
// even with the right password, so a password cannot be guessed at speed. Counts live in this
// process: several processes behind one address each allow the limit (documented).
import { LRUCache } from 'lru-cache';

export interface LoginThrottleLimits {
  /** Failures of one email from one address before it is refused. */
  perAccount: number;
  /** Failures from one address, whatever the email. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = { perAccount: 10, perAddress: 100, windowMs: 15 * 60_000 };

export class LoginThrottle {
  private readonly failures = new LRUCache<string, number[]>({ max: 100_000 });

  constructor(
    private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whole minutes until this email may try again from this address; 0 when it may now. */
  minutesLocked(email: string, address: string): number {
    const waits = [this.wait(accountKey(email, address), this.limits.perAccount), this.wait(addressKey(address), this.limits.perAddress)];
    return Math.ceil(Math.max(...waits) / 60_000);
  }

  recordFailure(email: string, address: string): void {
    for (const key of [accountKey(email, address), addressKey(address)]) this.failures.set(key, [...this.recent(key), this.now()]);
  }

  /** A successful sign-in clears that account's failures (not the address's). */
  recordSuccess(email: string, address: string): void {
    this.failures.delete(accountKey(email, address));
  }

  private recent(key: string): number[] {
    const since = this.now() - this.limits.windowMs;
    return (this.failures.get(key) ?? []).filter((at) => at > since);
  }

  private wait(key: string, limit: number): number {
    const recent = this.recent(key);
    if (recent.length < limit) return 0;
    // Locked until the oldest failure that keeps the count at the limit leaves the window.
    return recent[recent.length - limit]! + this.limits.windowMs - this.now();
  }
}

const accountKey = (email: string, address: string) => `account\u0000${email.trim().toLowerCase()}\u0000${address}`;
const addressKey = (address: string) => `address\u0000${address}`;
