import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MetaSchema } from '../schema.js';

export interface Organization {
  id: string;
  name: string;
  slug: string;
  created_at: string;
  updated_at: string;
}

/** An organization as one member sees it. */
export interface MemberOrganization extends Organization {
  membership_level: number;
}

export class OrganizationsRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  async insert(org: Organization): Promise<void> {
    await this.db.insertInto('organizations').values(org).execute();
  }

  /** The user's organizations, oldest membership first, optionally limited to some ids. */
  private memberQuery(userId: number, onlyIds: readonly string[] | null) {
    let query = this.db
      .selectFrom('organizations as o')
      .innerJoin('organization_memberships as m', 'm.organization_id', 'o.id')
      .where('m.user_id', '=', userId);
    if (onlyIds) query = query.where('o.id', 'in', onlyIds.length > 0 ? onlyIds : ['']);
    return query;
  }

  async listForMember(
    userId: number,
    onlyIds: readonly string[] | null,
    page: { limit: number; offset: number },
  ): Promise<{ count: number; rows: MemberOrganization[] }> {
    const base = this.memberQuery(userId, onlyIds);
    const [{ count } = { count: 0 }] = await base.select((eb) => eb.fn.countAll().as('count')).execute();
    const rows = await base
      .selectAll('o')
      .select('m.level as membership_level')
      .orderBy('m.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return { count: Number(count), rows };
  }

  async findForMember(userId: number, orgId: string): Promise<MemberOrganization | undefined> {
    return this.memberQuery(userId, [orgId]).selectAll('o').select('m.level as membership_level').executeTakeFirst();
  }

  async findMemberByName(userId: number, name: string): Promise<MemberOrganization | undefined> {
    return this.memberQuery(userId, null)
      .where('o.name', '=', name)
      .selectAll('o')
      .select('m.level as membership_level')
      .orderBy('m.id')
      .executeTakeFirst();
  }

  async addMember(orgId: string, userId: number, level: number, at: string): Promise<void> {
    await this.db
      .insertInto('organization_memberships')
      .values({ organization_id: orgId, user_id: userId, level, created_at: at, uuid: randomUUID(), updated_at: at })
      .execute();
  }

  find(id: string): Promise<Organization | undefined> {
    return this.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async slugTaken(slug: string): Promise<boolean> {
    const row = await this.db.selectFrom('organizations').select('id').where('slug', '=', slug).executeTakeFirst();
    return row !== undefined;
  }

  async memberCount(orgId: string): Promise<number> {
    const row = await this.db
      .selectFrom('organization_memberships')
      .where('organization_id', '=', orgId)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }
}
