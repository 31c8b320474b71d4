// Browser sessions for the web app. Signing in checks the password and stores a session under the
// SHA-256 of a random secret that only the cookie holds; each request looks the session up in the
// metadata store (so every process sharing it agrees, and signing out takes effect at once).
// Sessions last 14 days from the last use (renewed at most once an hour) and carry a CSRF token
// that every write made with the cookie must echo.
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, ValidationError } from '../../errors.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import { nowIso, randomBase62Token } from '../tokens.js';
import { decoyHash, verifyPassword } from './passwords.js';
import type { LoginThrottle } from './login-throttle.js';
import type { SessionPrincipal } from './principal.js';

export const SESSION_LIFETIME_MS = 14 * 24 * 60 * 60_000;
const RENEW_AFTER_MS = 60 * 60_000;

export interface NewSession {
  /** The cookie's value: shown to the browser once, stored only as a hash. */
  readonly secret: string;
  readonly csrfToken: string;
  readonly expiresAt: Date;
}

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export class SessionService {
  constructor(
    private readonly repositories: Repositories,
    private readonly throttle: LoginThrottle,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new session for the email and password, or PostHog's 400 (or 403 when throttled). */
  async signIn(email: string, password: string, address: string): Promise<NewSession> {
    // Counted before the (slow) hash, so parallel guesses cannot all pass the check.
    const reservation = this.throttle.reserve(email, address);
    if (reservation.locked) {
      const { minutes } = reservation;
      throw new ApiError(403, 'authentication_error', 'too_many_failed_attempts', `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
    }
    const user = await this.repositories.users.findByEmail(email.trim().toLowerCase());
    // Unknown emails cost a hash too, so timing does not tell which emails have accounts.
    const matches = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
    if (!user || !user.password_hash || !matches) {
      throw new ValidationError('Invalid email or password.', null, 'invalid_credentials');
    }
    reservation.attempt.succeeded();
    return this.startSession(user.id);
  }

  /** A new session for a user already proven (a password checked, an invite accepted). */
  async startSession(userId: number): Promise<NewSession> {
    const secret = randomBase62Token();
    const csrfToken = randomBase62Token();
    const now = this.now();
    const expiresAt = new Date(now + SESSION_LIFETIME_MS);
    await this.repositories.users.setLastLogin(userId, new Date(now).toISOString());
    await this.repositories.userSessions.insert({
      token_hash: hashSecret(secret),
      user_id: userId,
      csrf_token: csrfToken,
      created_at: new Date(now).toISOString(),
      expires_at: expiresAt.toISOString(),
      last_seen_at: new Date(now).toISOString(),
    });
    return { secret, csrfToken, expiresAt };
  }

  /** The signed-in user of a cookie's secret, or null for an unknown or expired one. */
  async authenticate(secret: string): Promise<SessionPrincipal | null> {
    const tokenHash = hashSecret(secret);
    const now = this.now();
    const session = await this.repositories.userSessions.findLive(tokenHash, new Date(now).toISOString());
    if (!session) return null;
    if (now - Date.parse(session.last_seen_at) > RENEW_AFTER_MS) {
      await this.repositories.userSessions.extend(tokenHash, new Date(now).toISOString(), new Date(now + SESSION_LIFETIME_MS).toISOString());
    }
    return Object.freeze({ kind: 'session', userId: session.user_id, sessionHash: tokenHash, csrfToken: session.csrf_token, scopedOrganizations: null, scopedTeams: null });
  }

  async signOut(principal: SessionPrincipal): Promise<void> {
    await this.repositories.userSessions.delete(principal.sessionHash);
    await this.repositories.userSessions.deleteExpired(nowIso());
  }
}

/** Whether a write's `X-CSRFToken` is the session's token. */
export function csrfMatches(presented: string | undefined, principal: SessionPrincipal): boolean {
  if (!presented) return false;
  const [a, b] = [Buffer.from(presented), Buffer.from(principal.csrfToken)];
  return a.length === b.length && timingSafeEqual(a, b);
}
