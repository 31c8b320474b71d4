import type { Kysely } from 'kysely';
import type { MetaSchema } from '../schema.js';

export interface ActivityEntry {
  id: string;
  organization_id: string;
  project_id: number | null;
  user_id: number | null;
  is_system: boolean;
  scope: string;
  item_id: string;
  activity: string;
  detail: unknown;
  created_at: string;
}

export interface ActivityEntryWithUser extends ActivityEntry {
  user_first_name: string | null;
  user_email: string | null;
}

export class ActivityLogRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  async insert(entry: ActivityEntry): Promise<void> {
    await this.db
      .insertInto('activity_log')
      .values({ ...entry, is_system: entry.is_system ? 1 : 0, detail: JSON.stringify(entry.detail) })
      .execute();
  }

  /** Entries about one item of a project, newest first. */
  async listForItem(
    projectId: number,
    scope: string,
    itemId: string | null,
    page: { limit: number; offset: number },
  ): Promise<{ count: number; rows: ActivityEntryWithUser[] }> {
    let base = this.db
      .selectFrom('activity_log as a')
      .where('a.project_id', '=', projectId)
      .where('a.scope', '=', scope);
    if (itemId !== null) base = base.where('a.item_id', '=', itemId);
    const [{ count } = { count: 0 }] = await base.select((eb) => eb.fn.countAll().as('count')).execute();
    const rows = await base
      .leftJoin('users as u', 'u.id', 'a.user_id')
      .selectAll('a')
      .select(['u.first_name as user_first_name', 'u.email as user_email'])
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return {
      count: Number(count),
      rows: rows.map((row) => ({ ...row, is_system: row.is_system === 1, detail: JSON.parse(row.detail) })),
    };
  }
}
