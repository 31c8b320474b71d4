import type { Kysely, Selectable } from 'kysely';
import type { ActionsTable, MetaSchema } from '../schema.js';
import type { CreatorColumns } from './users.js';

export type ActionRow = Selectable<ActionsTable>;

/** An action with the columns of its creator (all null when there is none any more). */
export interface ActionWithCreatorRow extends ActionRow, CreatorColumns {}

export type ActionChanges = Partial<
  Pick<
    ActionRow,
    'name' | 'description' | 'tags' | 'post_to_slack' | 'slack_message_format' | 'steps' | 'deleted' | 'pinned_at' | 'updated_at'
  >
>;

/** Every lookup is by project (team) AND id, so one project never reaches another's actions. */
export class ActionsRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  async insert(action: Omit<ActionRow, 'id'>): Promise<ActionRow> {
    return this.db.insertInto('actions').values(action).returningAll().executeTakeFirstOrThrow();
  }

  private withCreator() {
    return this.db
      .selectFrom('actions as a')
      .leftJoin('users as u', 'u.id', 'a.created_by')
      .selectAll('a')
      .select([
        'u.id as creator_id',
        'u.uuid as creator_uuid',
        'u.distinct_id as creator_distinct_id',
        'u.first_name as creator_first_name',
        'u.last_name as creator_last_name',
        'u.email as creator_email',
        'u.is_email_verified as creator_is_email_verified',
        'u.hedgehog_config as creator_hedgehog_config',
      ]);
  }

  /** The action, deleted or not. */
  findInProject(teamId: number, id: number): Promise<ActionWithCreatorRow | undefined> {
    return this.withCreator().where('a.team_id', '=', teamId).where('a.id', '=', id).executeTakeFirst();
  }

  /** Live (not deleted) actions, most recently calculated first, then by name (PostHog's order). */
  async listLive(teamId: number, page: { limit: number; offset: number }): Promise<{ count: number; rows: ActionWithCreatorRow[] }> {
    const [{ count } = { count: 0 }] = await this.db
      .selectFrom('actions')
      .where('team_id', '=', teamId)
      .where('deleted', '=', 0)
      .select((eb) => eb.fn.countAll().as('count'))
      .execute();
    const rows = await this.withCreator()
      .where('a.team_id', '=', teamId)
      .where('a.deleted', '=', 0)
      .orderBy('a.last_calculated_at', 'desc')
      .orderBy('a.name')
      .orderBy('a.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return { count: Number(count), rows };
  }

  /** The id of a live action of the project with this exact name, other than `exceptId`. */
  async liveIdByName(teamId: number, name: string, exceptId: number | null): Promise<number | undefined> {
    let query = this.db
      .selectFrom('actions')
      .select('id')
      .where('team_id', '=', teamId)
      .where('name', '=', name)
      .where('deleted', '=', 0);
    if (exceptId !== null) query = query.where('id', '!=', exceptId);
    const row = await query.orderBy('id').limit(1).executeTakeFirst();
    return row?.id;
  }

  /** A live action's name and steps (JSON text), for the query engine. */
  findLiveSteps(teamId: number, id: number): Promise<Pick<ActionRow, 'id' | 'name' | 'steps'> | undefined> {
    return this.db
      .selectFrom('actions')
      .select(['id', 'name', 'steps'])
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
  }

  async update(teamId: number, id: number, changes: ActionChanges): Promise<void> {
    await this.db.updateTable('actions').set(changes).where('team_id', '=', teamId).where('id', '=', id).execute();
  }
}
