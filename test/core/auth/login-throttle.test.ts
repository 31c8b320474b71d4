// The sign-in throttle's lockouts over time (a clock the test moves): an email locked for one
// address only, each further lockout twice as long, a success starting over.
import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../../src/core/auth/login-throttle.js';

const MINUTE = 60_000;

function throttleWithClock() {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const throttle = new LoginThrottle(undefined, () => now);
  return { throttle, advance: (ms: number) => (now += ms) };
}

/** Fails `count` attempts of the email from the address; how many were let through. */
function fail(throttle: LoginThrottle, count: number, email = 'a@example.com', address = '192.0.2.1'): number {
  let tried = 0;
  for (let i = 0; i < count; i++) if (!throttle.reserve(email, address).locked) tried += 1;
  return tried;
}

const lockedMinutes = (throttle: LoginThrottle, email = 'a@example.com', address = '192.0.2.1') => {
  const reservation = throttle.reserve(email, address);
  return reservation.locked ? reservation.minutes : 0;
};

describe('login throttle', () => {
  it('locks an email for one address for 15 minutes, then each further lockout twice as long', () => {
    const { throttle, advance } = throttleWithClock();
    expect(fail(throttle, 12)).toBe(10);
    expect(lockedMinutes(throttle)).toBe(15);
    expect(lockedMinutes(throttle, 'a@example.com', '192.0.2.2')).toBe(0);
    advance(15 * MINUTE);
    expect(fail(throttle, 10)).toBe(10);
    expect(lockedMinutes(throttle)).toBe(30);
    advance(30 * MINUTE);
    expect(fail(throttle, 10)).toBe(10);
    expect(lockedMinutes(throttle)).toBe(60);
  });

  it('a success clears the email’s failures and its backoff', () => {
    const { throttle, advance } = throttleWithClock();
    fail(throttle, 10);
    advance(15 * MINUTE);
    const attempt = throttle.reserve('a@example.com', '192.0.2.1');
    if (attempt.locked) throw new Error('should be open');
    attempt.attempt.succeeded();
    expect(fail(throttle, 10)).toBe(10);
    expect(lockedMinutes(throttle)).toBe(15);
  });

  it('an address past its limit is refused for every email, other addresses are not', () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 100; i++) expect(throttle.reserve(`made-up-${i}@example.com`, '192.0.2.9').locked).toBe(false);
    expect(lockedMinutes(throttle, 'real@example.com', '192.0.2.9')).toBe(15);
    expect(lockedMinutes(throttle, 'real@example.com', '192.0.2.10')).toBe(0);
  });
});
