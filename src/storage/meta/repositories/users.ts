import type { Kysely, Selectable } from 'kysely';
import type { MetaSchema, UsersTable } from '../schema.js';

export type UserRow = Selectable<UsersTable>;

export class UsersRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Several users at once (creators and editors shown on a page of objects). */
  async findMany(ids: readonly number[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('users').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  async insert(user: Omit<UserRow, 'id'>): Promise<UserRow> {
    return this.db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  }

  async setCurrent(userId: number, organizationId: string, projectId: number | null): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ current_organization_id: organizationId, current_project_id: projectId })
      .where('id', '=', userId)
      .execute();
  }
}
