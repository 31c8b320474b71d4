// The edited part of event and property definitions (migration 0013), with the users who last
// changed and verified each. Every read and write is by project (team) and id or owner.
import type { Kysely, Selectable } from 'kysely';
import type { EventDefinitionsTable, MetaSchema, PropertyDefinitionsTable, UsersTable } from '../schema.js';

export type EventDefinitionRow = Selectable<EventDefinitionsTable>;
export type PropertyDefinitionRow = Selectable<PropertyDefinitionsTable>;

/** The columns of a user shown as PostHog's UserBasic. */
export type UserColumns = Pick<Selectable<UsersTable>, 'id' | 'uuid' | 'distinct_id' | 'first_name' | 'last_name' | 'email' | 'is_email_verified' | 'hedgehog_config'>;

export interface WithUsers {
  updatedByUser: UserColumns | null;
  verifiedByUser: UserColumns | null;
}

const USER_COLUMNS = ['id', 'uuid', 'distinct_id', 'first_name', 'last_name', 'email', 'is_email_verified', 'hedgehog_config'] as const;

export class DefinitionMetadataRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  /** The users named by `ids`, by id (for updated_by and verified_by). */
  private async users(ids: readonly (number | null)[]): Promise<Map<number, UserColumns>> {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    if (wanted.length === 0) return new Map();
    const rows = await this.db.selectFrom('users').select([...USER_COLUMNS]).where('id', 'in', wanted).execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  private async withUsers<Row extends { updated_by: number | null; verified_by: number | null }>(rows: Row[]): Promise<(Row & WithUsers)[]> {
    const users = await this.users(rows.flatMap((row) => [row.updated_by, row.verified_by]));
    return rows.map((row) => ({
      ...row,
      updatedByUser: row.updated_by === null ? null : (users.get(row.updated_by) ?? null),
      verifiedByUser: row.verified_by === null ? null : (users.get(row.verified_by) ?? null),
    }));
  }

  /** Every edited event definition of the project (a project edits few; read whole). */
  async eventRows(teamId: number): Promise<(EventDefinitionRow & WithUsers)[]> {
    return this.withUsers(await this.db.selectFrom('event_definitions').selectAll().where('team_id', '=', teamId).execute());
  }

  async eventRow(teamId: number, id: string): Promise<(EventDefinitionRow & WithUsers) | undefined> {
    const rows = await this.db.selectFrom('event_definitions').selectAll().where('team_id', '=', teamId).where('id', '=', id).execute();
    return (await this.withUsers(rows))[0];
  }

  async saveEvent(row: EventDefinitionRow): Promise<void> {
    const { team_id, id, ...rest } = row;
    const updated = await this.db.updateTable('event_definitions').set(rest).where('team_id', '=', team_id).where('id', '=', id).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await this.db.insertInto('event_definitions').values(row).execute();
  }

  /** Edited property definitions of one owner (event, person, group:<index>), or of all owners. */
  async propertyRows(teamId: number, owner: string | null): Promise<(PropertyDefinitionRow & WithUsers)[]> {
    let query = this.db.selectFrom('property_definitions').selectAll().where('team_id', '=', teamId);
    if (owner !== null) query = query.where('owner', '=', owner);
    return this.withUsers(await query.execute());
  }

  async propertyRow(teamId: number, id: string): Promise<(PropertyDefinitionRow & WithUsers) | undefined> {
    const rows = await this.db.selectFrom('property_definitions').selectAll().where('team_id', '=', teamId).where('id', '=', id).execute();
    return (await this.withUsers(rows))[0];
  }

  async saveProperty(row: PropertyDefinitionRow): Promise<void> {
    const { team_id, id, ...rest } = row;
    const updated = await this.db.updateTable('property_definitions').set(rest).where('team_id', '=', team_id).where('id', '=', id).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await this.db.insertInto('property_definitions').values(row).execute();
  }

  /** The types people set on the project's properties: [owner, name, type]. */
  async setPropertyTypes(teamId: number): Promise<{ owner: string; name: string; property_type: string }[]> {
    const rows = await this.db
      .selectFrom('property_definitions')
      .select(['owner', 'name', 'property_type'])
      .where('team_id', '=', teamId)
      .where('property_type', 'is not', null)
      .execute();
    return rows as { owner: string; name: string; property_type: string }[];
  }
}
