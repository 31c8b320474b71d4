// Annotations as PostHog reads them through a project: its own, and the organization-scope ones of
// any project of its organization. Those of a soft-deleted insight or dashboard are left out.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { AnnotationsTable, MetaSchema } from '../schema.js';
import { anyContains } from './like.js';
import type { CreatorColumns } from './users.js';

export type AnnotationRow = Selectable<AnnotationsTable>;

/** An annotation with its insight's and dashboard's names and its creator's columns. */
export interface AnnotationWithLinksRow extends AnnotationRow, CreatorColumns {
  insight_short_id: string | null;
  insight_name: string | null;
  insight_derived_name: string | null;
  dashboard_name: string | null;
}

export type AnnotationChanges = Partial<
  Pick<AnnotationRow, 'content' | 'date_marker' | 'creation_type' | 'scope' | 'dashboard_item' | 'dashboard_id' | 'deleted' | 'team_id' | 'updated_at'>
>;

/** Where a request reads from: the project and its organization. */
export interface AnnotationReach {
  teamId: number;
  organizationId: string;
}

export interface AnnotationListFilter {
  scope?: string | undefined;
  search?: string | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
}

export class AnnotationsRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  async insert(annotation: Omit<AnnotationRow, 'id'>): Promise<AnnotationRow> {
    return this.db.insertInto('annotations').values(annotation).returningAll().executeTakeFirstOrThrow();
  }

  /** Visible through the project, its insight and dashboard (if any) not deleted; deleted ones only when asked. */
  private visible(reach: AnnotationReach, includeDeleted: boolean) {
    let query = this.db
      .selectFrom('annotations as a')
      .leftJoin('insights as i', 'i.id', 'a.dashboard_item')
      .leftJoin('dashboards as d', 'd.id', 'a.dashboard_id')
      .leftJoin('users as u', 'u.id', 'a.created_by')
      .where((eb) =>
        eb.or([
          eb('a.team_id', '=', reach.teamId),
          eb.and([eb('a.scope', '=', 'organization'), eb('a.organization_id', '=', reach.organizationId)]),
        ]),
      )
      .where((eb) => eb.or([eb('i.id', 'is', null), eb('i.deleted', '=', 0)]))
      .where((eb) => eb.or([eb('d.id', 'is', null), eb('d.deleted', '=', 0)]));
    if (!includeDeleted) query = query.where('a.deleted', '=', 0);
    return query;
  }

  private withLinks(reach: AnnotationReach, includeDeleted: boolean) {
    return this.visible(reach, includeDeleted)
      .selectAll('a')
      .select([
        'i.short_id as insight_short_id',
        'i.name as insight_name',
        'i.derived_name as insight_derived_name',
        'd.name as dashboard_name',
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

  find(reach: AnnotationReach, id: number, includeDeleted = false): Promise<AnnotationWithLinksRow | undefined> {
    return this.withLinks(reach, includeDeleted).where('a.id', '=', id).executeTakeFirst() as Promise<AnnotationWithLinksRow | undefined>;
  }

  /** PostHog's list: live ones, latest date_marker first (nulls first, as PostgreSQL sorts a DESC). */
  async list(reach: AnnotationReach, filter: AnnotationListFilter, page: { limit: number; offset: number }) {
    let base = this.visible(reach, false);
    if (filter.scope !== undefined) base = base.where('a.scope', '=', filter.scope);
    if (filter.dateFrom !== undefined) base = base.where('a.date_marker', '>=', filter.dateFrom);
    if (filter.dateTo !== undefined) base = base.where('a.date_marker', '<=', filter.dateTo);
    // DRF's SearchFilter: every whitespace- or comma-separated term is in the content, any case.
    for (const term of (filter.search ?? '').split(/[\s,]+/).filter(Boolean)) {
      base = base.where(() => anyContains(['a.content'], term)[0]!);
    }
    const [{ count } = { count: 0 }] = await base.select((eb) => eb.fn.countAll().as('count')).execute();
    let rows = this.withLinks(reach, false);
    if (filter.scope !== undefined) rows = rows.where('a.scope', '=', filter.scope);
    if (filter.dateFrom !== undefined) rows = rows.where('a.date_marker', '>=', filter.dateFrom);
    if (filter.dateTo !== undefined) rows = rows.where('a.date_marker', '<=', filter.dateTo);
    for (const term of (filter.search ?? '').split(/[\s,]+/).filter(Boolean)) {
      rows = rows.where(() => anyContains(['a.content'], term)[0]!);
    }
    const results = await rows
      .orderBy(sql`case when a.date_marker is null then 0 else 1 end`)
      .orderBy('a.date_marker', 'desc')
      .orderBy('a.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return { count: Number(count), rows: results as AnnotationWithLinksRow[] };
  }

  /** Changes an annotation reached through `reach` (and only such a one). */
  async update(reach: AnnotationReach, id: number, changes: AnnotationChanges): Promise<void> {
    await this.db
      .updateTable('annotations')
      .set(changes)
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('team_id', '=', reach.teamId),
          eb.and([eb('scope', '=', 'organization'), eb('organization_id', '=', reach.organizationId)]),
        ]),
      )
      .execute();
  }
}
