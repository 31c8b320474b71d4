// Failed sign-ins are counted per email and address, and per address alone, over a sliding
// window; past the limit, that email (or that address) is refused until the window has passed,
// even with the right password, so a password cannot be guessed at speed. Counts live in this
// process: several processes behind one address each allow the limit (documented).
//
// An attempt is counted as a failure when it starts (reserve), before the password is hashed, and
// taken back only when it succeeds: checking and counting in one synchronous step means parallel
// guesses cannot all pass the check before any of them is counted.
import { LRUCache } from 'lru-cache';

export interface LoginThrottleLimits {
  /** Failures of one email from one address before it is refused. */
  perAccount: number;
  /** Failures from one address, whatever the email. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = { perAccount: 10, perAddress: 100, windowMs: 15 * 60_000 };

/** One sign-in attempt under way, counted as a failure unless it succeeds. */
export interface LoginAttempt {
  /** The password was right: the attempt no longer counts, and the account's failures are cleared. */
  succeeded(): void;
}

export type Reservation = { locked: true; minutes: number } | { locked: false; attempt: LoginAttempt };

export class LoginThrottle {
  private readonly failures = new LRUCache<string, number[]>({ max: 100_000 });

  constructor(
    private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Refuses (with whole minutes to wait) or counts the attempt at once, before it is checked. */
  reserve(email: string, address: string): Reservation {
    const account = accountKey(email, address);
    const byAddress = addressKey(address);
    const wait = Math.max(this.wait(account, this.limits.perAccount), this.wait(byAddress, this.limits.perAddress));
    if (wait > 0) return { locked: true, minutes: Math.ceil(wait / 60_000) };
    const at = this.now();
    for (const key of [account, byAddress]) this.failures.set(key, [...this.recent(key), at]);
    return {
      locked: false,
      attempt: {
        succeeded: () => {
          this.failures.delete(account);
          this.forget(byAddress, at);
        },
      },
    };
  }

  private forget(key: string, at: number): void {
    const times = this.failures.get(key);
    const index = times?.indexOf(at) ?? -1;
    if (times && index >= 0) this.failures.set(key, times.filter((_, i) => i !== index));
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
