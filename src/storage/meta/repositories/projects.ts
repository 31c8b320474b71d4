import type { Insertable, Kysely, Selectable } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { MetaSchema, ProjectsTable } from '../schema.js';

export type ProjectRow = Selectable<ProjectsTable>;

/** A project together with the caller's membership level in its organization. */
export interface VisibleProjectRow extends ProjectRow {
  membership_level: number;
}

// Every project-scoped request reads this first: compiled once (compiled-once.ts).
const FIND_VISIBLE = compiledOnce((db: Kysely<MetaSchema>, userId: number, projectId: number, organizationId: string | undefined) => {
  let query = db
    .selectFrom('projects as p')
    .innerJoin('organization_memberships as m', (join) => join.onRef('m.organization_id', '=', 'p.organization_id').on('m.user_id', '=', userId))
    .selectAll('p')
    .select('m.level as membership_level')
    .where('p.id', '=', projectId);
  if (organizationId !== undefined) query = query.where('p.organization_id', '=', organizationId);
  return query;
});

export class ProjectsRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  async insert(project: Insertable<ProjectsTable>): Promise<ProjectRow> {
    return this.db.insertInto('projects').values(project).returningAll().executeTakeFirstOrThrow();
  }

  /**
   * The project if the user is a member of its organization (and, when given, it lies in that
   * organization); one round trip that also yields the membership level.
   */
  findVisible(userId: number, projectId: number, organizationId?: string): Promise<VisibleProjectRow | undefined> {
    return FIND_VISIBLE.first(this.db, userId, projectId, organizationId);
  }

  findById(id: number): Promise<ProjectRow | undefined> {
    return this.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The id of the project whose capture token this is. */
  async idByToken(token: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('projects').select('id').where('api_token', '=', token).executeTakeFirst();
    return row?.id;
  }

  /** The id of the project one of whose secret keys (primary or backup) this is. */
  async idBySecretToken(token: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('projects')
      .select('id')
      .where((eb) => eb.or([eb('secret_api_token', '=', token), eb('secret_api_token_backup', '=', token)]))
      .executeTakeFirst();
    return row?.id;
  }

  async listInOrganization(
    organizationId: string,
    onlyIds: readonly number[] | null,
    page: { limit: number; offset: number },
  ): Promise<{ count: number; rows: ProjectRow[] }> {
    let base = this.db.selectFrom('projects').where('organization_id', '=', organizationId);
    if (onlyIds) base = base.where('id', 'in', onlyIds.length > 0 ? onlyIds : [-1]);
    const [{ count } = { count: 0 }] = await base.select((eb) => eb.fn.countAll().as('count')).execute();
    const rows = await base.selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute();
    return { count: Number(count), rows };
  }

  async listBasicInOrganization(organizationId: string): Promise<ProjectRow[]> {
    return this.db.selectFrom('projects').selectAll().where('organization_id', '=', organizationId).orderBy('id').execute();
  }

  async findByNameInOrganization(organizationId: string, name: string): Promise<ProjectRow | undefined> {
    return this.db
      .selectFrom('projects')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  async update(
    id: number,
    organizationId: string,
    changes: Partial<Pick<ProjectRow, 'name' | 'api_token' | 'secret_api_token' | 'secret_api_token_backup' | 'settings' | 'updated_at'>>,
  ): Promise<void> {
    await this.db
      .updateTable('projects')
      .set(changes)
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .execute();
  }

  /** Removes the project and what it owns (its activity log); run it inside a transaction. */
  async delete(id: number, organizationId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('projects')
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await this.db.deleteFrom('activity_log').where('project_id', '=', id).execute();
    await this.db.updateTable('users').set({ current_project_id: null }).where('current_project_id', '=', id).execute();
    return true;
  }
}
