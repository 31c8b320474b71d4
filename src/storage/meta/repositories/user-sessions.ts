import type { Kysely, Selectable } from 'kysely';
import type { MetaSchema, UserSessionsTable } from '../schema.js';

export type UserSessionRow = Selectable<UserSessionsTable>;

/** Browser sessions by the hash of their cookie secret. */
export class UserSessionsRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  async insert(row: UserSessionRow): Promise<void> {
    await this.db.insertInto('user_sessions').values(row).execute();
  }

  /** The session, if it has not expired at `now`. */
  findLive(tokenHash: string, now: string): Promise<UserSessionRow | undefined> {
    return this.db.selectFrom('user_sessions').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
  }

  async extend(tokenHash: string, lastSeenAt: string, expiresAt: string): Promise<void> {
    await this.db.updateTable('user_sessions').set({ last_seen_at: lastSeenAt, expires_at: expiresAt }).where('token_hash', '=', tokenHash).execute();
  }

  async delete(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('user_sessions').where('token_hash', '=', tokenHash).execute();
  }

  /** Signs the user out everywhere (a new password). */
  async deleteForUser(userId: number): Promise<void> {
    await this.db.deleteFrom('user_sessions').where('user_id', '=', userId).execute();
  }

  /** Every other session of the user ends (a password changed in this one). */
  async deleteForUserExcept(userId: number, keptTokenHash: string): Promise<void> {
    await this.db.deleteFrom('user_sessions').where('user_id', '=', userId).where('token_hash', '!=', keptTokenHash).execute();
  }

  /** Forgets sessions that expired before `now`. */
  async deleteExpired(now: string): Promise<void> {
    await this.db.deleteFrom('user_sessions').where('expires_at', '<=', now).execute();
  }
}
