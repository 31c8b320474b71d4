// An organization's memberships with their users, as the members API lists and changes them.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MetaSchema } from '../schema.js';

export interface MemberRow {
  membership_id: number;
  membership_uuid: string | null;
  organization_id: string;
  level: number;
  joined_at: string;
  updated_at: string | null;
  user_id: number;
  user_uuid: string;
  distinct_id: string;
  first_name: string;
  last_name: string;
  email: string;
  is_email_verified: number;
  hedgehog_config: string | null;
  last_login: string | null;
}

export interface MemberListOptions {
  email?: string | undefined;
  /** Newest first unless 'joined_at' (oldest first). */
  oldestFirst?: boolean;
}

export class MembersRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  private base(organizationId: string) {
    return this.db
      .selectFrom('organization_memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .where('m.organization_id', '=', organizationId)
      .select([
        'm.id as membership_id', 'm.uuid as membership_uuid', 'm.organization_id', 'm.level', 'm.created_at as joined_at',
        'm.updated_at', 'u.id as user_id', 'u.uuid as user_uuid', 'u.distinct_id', 'u.first_name', 'u.last_name', 'u.email',
        'u.is_email_verified', 'u.hedgehog_config', 'u.last_login',
      ]);
  }

  list(organizationId: string, options: MemberListOptions = {}): Promise<MemberRow[]> {
    let query = this.base(organizationId);
    if (options.email !== undefined) query = query.where('u.email', '=', options.email.trim().toLowerCase());
    const direction = options.oldestFirst ? 'asc' : 'desc';
    return query.orderBy('m.created_at', direction).orderBy('m.id', direction).execute();
  }

  findByUserUuid(organizationId: string, userUuid: string): Promise<MemberRow | undefined> {
    return this.base(organizationId).where('u.uuid', '=', userUuid).executeTakeFirst();
  }

  findByUserId(organizationId: string, userId: number): Promise<MemberRow | undefined> {
    return this.base(organizationId).where('u.id', '=', userId).executeTakeFirst();
  }

  async isMemberByEmail(organizationId: string, email: string): Promise<boolean> {
    return (await this.base(organizationId).where('u.email', '=', email).executeTakeFirst()) !== undefined;
  }

  /**
   * Inside a transaction: holds the organization's row until it ends, so two changes of its owners
   * run one after the other (PostgreSQL's READ COMMITTED would let both count the same owners).
   */
  async lockOrganization(organizationId: string): Promise<void> {
    await this.db.updateTable('organizations').set({ id: organizationId }).where('id', '=', organizationId).execute();
  }

  async countOwners(organizationId: string, ownerLevel: number): Promise<number> {
    const row = await this.db
      .selectFrom('organization_memberships')
      .where('organization_id', '=', organizationId)
      .where('level', '>=', ownerLevel)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async add(organizationId: string, userId: number, level: number, at: string): Promise<void> {
    await this.db
      .insertInto('organization_memberships')
      .values({ organization_id: organizationId, user_id: userId, level, created_at: at, uuid: randomUUID(), updated_at: at })
      .execute();
  }

  async setLevel(membershipId: number, level: number, at: string): Promise<void> {
    await this.db.updateTable('organization_memberships').set({ level, updated_at: at }).where('id', '=', membershipId).execute();
  }

  /**
   * Ends the membership, and the user's current organization and project where they were this
   * organization's (PostHog's pre_delete signal does the same): access is by membership, so every
   * session and key of the user loses the organization with this delete.
   */
  async remove(organizationId: string, userId: number): Promise<void> {
    await this.db.deleteFrom('organization_memberships').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
    await this.db
      .updateTable('users')
      .set({ current_organization_id: null, current_project_id: null })
      .where('id', '=', userId)
      .where((eb) =>
        eb.or([
          eb('current_organization_id', '=', organizationId),
          eb('current_project_id', 'in', eb.selectFrom('projects').select('id').where('organization_id', '=', organizationId)),
        ]),
      )
      .execute();
  }
}
