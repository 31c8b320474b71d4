// Organization invites: open until accepted, deleted or (as PostHog reads them) three days old.
import type { Kysely, Selectable } from 'kysely';
import type { MetaSchema, OrganizationInvitesTable } from '../schema.js';

export type InviteRow = Selectable<OrganizationInvitesTable>;

export class InvitesRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  async insert(invite: InviteRow): Promise<void> {
    await this.db.insertInto('organization_invites').values(invite).execute();
  }

  /** Newest first, as PostHog orders them. */
  list(organizationId: string): Promise<InviteRow[]> {
    return this.db
      .selectFrom('organization_invites')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** By id alone: the signup page knows no organization. */
  find(id: string): Promise<InviteRow | undefined> {
    return this.db.selectFrom('organization_invites').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('organization_invites').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Every invite of the email to the organization (a new one replaces them; joining uses them up). */
  async deleteForEmail(organizationId: string, email: string): Promise<void> {
    await this.db.deleteFrom('organization_invites').where('organization_id', '=', organizationId).where('target_email', '=', email).execute();
  }
}
