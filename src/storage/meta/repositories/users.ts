import type { Kysely, Selectable } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { MetaSchema, UsersTable } from '../schema.js';

export type UserRow = Selectable<UsersTable>;

/** A user's columns joined beside another row as its creator (`u.id as creator_id`, ...); all null when there is none. */
export interface CreatorColumns {
  creator_id: number | null;
  creator_uuid: string | null;
  creator_distinct_id: string | null;
  creator_first_name: string | null;
  creator_last_name: string | null;
  creator_email: string | null;
  creator_is_email_verified: number | null;
  creator_hedgehog_config: string | null;
}

// Read by every insight view (its creators): compiled once (compiled-once.ts).
const FIND_MEMBERS = compiledOnce((db: Kysely<MetaSchema>, organizationId: string, ids: readonly number[]) =>
  db
    .selectFrom('users as u')
    .innerJoin('organization_memberships as m', 'm.user_id', 'u.id')
    .selectAll('u')
    .where('m.organization_id', '=', organizationId)
    .where('u.id', 'in', ids),
);

export class UsersRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** The user a key belongs to (the id comes from the authenticated principal, never from a request). */
  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Members of the organization among `ids` (creators and editors shown on a page of its objects):
   * a user of another organization is never read, whatever id a row holds.
   */
  async findMembers(organizationId: string, ids: readonly number[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return FIND_MEMBERS.all(this.db, organizationId, [...new Set(ids)]);
  }

  async insert(user: Omit<UserRow, 'id' | 'last_login'>): Promise<UserRow> {
    return this.db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  }

  async setPasswordHash(userId: number, passwordHash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
  }

  async setLastLogin(userId: number, at: string): Promise<void> {
    await this.db.updateTable('users').set({ last_login: at }).where('id', '=', userId).execute();
  }

  async setNames(userId: number, names: { first_name?: string; last_name?: string }): Promise<void> {
    if (Object.keys(names).length === 0) return;
    await this.db.updateTable('users').set(names).where('id', '=', userId).execute();
  }

  async setCurrent(userId: number, organizationId: string, projectId: number | null): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ current_organization_id: organizationId, current_project_id: projectId })
      .where('id', '=', userId)
      .execute();
  }
}
