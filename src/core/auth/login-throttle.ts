// Failed sign-ins are counted per email and address, and per address alone. An email is locked
// only for the address its failures came from, so nobody elsewhere can lock a known user out:
// past `perAccount` failures within the window, that email from that address is refused (even with
// the right password) for the window, and each further lockout without a success in between lasts
// twice as long (up to `maxLockMs`). An address past `perAddress` failures, whatever the emails,
// is refused for every email, which never touches other addresses. The address is the client's
// as Fastify sees it: behind a reverse proxy, set trustProxy so it is not the proxy's.
// Counts live in this process: several processes behind one address each allow the limit.
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
  /** The longest an email is locked for one address, however many lockouts came before. */
  maxLockMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = { perAccount: 10, perAddress: 100, windowMs: 15 * 60_000, maxLockMs: 24 * 60 * 60_000 };

/** One sign-in attempt under way, counted as a failure unless it succeeds. */
export interface LoginAttempt {
  /** The password was right: the attempt no longer counts, and the account's failures are cleared. */
  succeeded(): void;
}

export type Reservation = { locked: true; minutes: number } | { locked: false; attempt: LoginAttempt };

/** One email from one address: recent failures, and the lockouts that double the next one. */
interface AccountState {
  failures: number[];
  lockouts: number;
  lockedUntil: number;
}

export class LoginThrottle {
  private readonly accounts = new LRUCache<string, AccountState>({ max: 100_000 });
  private readonly addresses = new LRUCache<string, number[]>({ max: 100_000 });

  constructor(
    private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Refuses (with whole minutes to wait) or counts the attempt at once, before it is checked. */
  reserve(email: string, address: string): Reservation {
    const now = this.now();
    const accountKey = `${email.trim().toLowerCase()}\u0000${address}`;
    const account = this.accountState(accountKey, now);
    const byAddress = this.recent(this.addresses.get(address), now);
    const wait = Math.max(account.lockedUntil - now, this.addressWait(byAddress, now));
    if (wait > 0) return { locked: true, minutes: Math.ceil(wait / 60_000) };

    account.failures.push(now);
    if (account.failures.length >= this.limits.perAccount) {
      account.lockedUntil = now + Math.min(this.limits.windowMs * 2 ** account.lockouts, this.limits.maxLockMs);
      account.lockouts += 1;
      account.failures = [];
    }
    this.accounts.set(accountKey, account);
    this.addresses.set(address, [...byAddress, now]);
    return {
      locked: false,
      attempt: {
        succeeded: () => {
          this.accounts.delete(accountKey);
          this.forgetAddressFailure(address, now);
        },
      },
    };
  }

  private accountState(key: string, now: number): AccountState {
    const state = this.accounts.get(key);
    if (!state) return { failures: [], lockouts: 0, lockedUntil: 0 };
    // A long quiet spell after the last lockout starts the doubling again.
    const lockouts = now - state.lockedUntil > this.limits.maxLockMs ? 0 : state.lockouts;
    return { failures: this.recent(state.failures, now), lockouts, lockedUntil: state.lockedUntil };
  }

  private forgetAddressFailure(address: string, at: number): void {
    const times = this.addresses.get(address);
    const index = times?.indexOf(at) ?? -1;
    if (times && index >= 0) this.addresses.set(address, times.filter((_, i) => i !== index));
  }

  private recent(times: number[] | undefined, now: number): number[] {
    const since = now - this.limits.windowMs;
    return (times ?? []).filter((at) => at > since);
  }

  private addressWait(recent: number[], now: number): number {
    if (recent.length < this.limits.perAddress) return 0;
    // Locked until the oldest failure that keeps the count at the limit leaves the window.
    return recent[recent.length - this.limits.perAddress]! + this.limits.windowMs - now;
  }
}
