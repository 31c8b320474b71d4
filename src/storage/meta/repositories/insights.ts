import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { InsightsTable, MetaSchema } from '../schema.js';
import { compiledOnce } from '../compiled-once.js';
import { anyContains, containsText } from './like.js';

export type InsightRow = Selectable<InsightsTable>;
export type InsightChanges = Omit<Updateable<InsightsTable>, 'id' | 'team_id' | 'created_at' | 'created_by'>;

/** The list's filters, already parsed; each one present narrows the list. */
export interface InsightListFilter {
  shortId?: string;
  createdBy?: readonly number[];
  favorited?: boolean;
  /** true: saved, or on a live dashboard; false: not saved. */
  saved?: boolean;
  /** Case-insensitive substring of name, derived name, description or a tag. */
  search?: string;
  /** The insight is on every one of these dashboards (live tiles). */
  dashboards?: readonly number[];
  /** The insight has any of these tags. */
  tags?: readonly string[];
  /** Only these insights (a sharing token's view). */
  ids?: readonly number[];
}

export const INSIGHT_ORDER_FIELDS = ['order', 'name', 'created_at', 'updated_at', 'last_modified_at', 'id', 'short_id'] as const;
export type InsightOrderField = (typeof INSIGHT_ORDER_FIELDS)[number];
export interface InsightOrder {
  field: InsightOrderField;
  descending: boolean;
}

/** Every lookup is by project (team) AND id or short_id, so one project never reaches another's insights. */
// The reads of every insight retrieve, compiled once (compiled-once.ts).
const FIND_BY_ID = compiledOnce((db: Kysely<MetaSchema>, teamId: number, id: number) =>
  db.selectFrom('insights').selectAll().where('team_id', '=', teamId).where('id', '=', id),
);
const FIND_BY_SHORT_ID = compiledOnce((db: Kysely<MetaSchema>, teamId: number, shortId: string) =>
  db.selectFrom('insights').selectAll().where('team_id', '=', teamId).where('short_id', '=', shortId),
);

export class InsightsRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  async insert(row: Omit<InsightRow, 'id'>): Promise<InsightRow> {
    return this.db.insertInto('insights').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** The insight, deleted or not. */
  findById(teamId: number, id: number): Promise<InsightRow | undefined> {
    return FIND_BY_ID.first(this.db, teamId, id);
  }

  findByShortId(teamId: number, shortId: string): Promise<InsightRow | undefined> {
    return FIND_BY_SHORT_ID.first(this.db, teamId, shortId);
  }

  async shortIdTaken(teamId: number, shortId: string): Promise<boolean> {
    const row = await this.db.selectFrom('insights').select('id').where('team_id', '=', teamId).where('short_id', '=', shortId).executeTakeFirst();
    return row !== undefined;
  }

  /** Live insights of the project that exist among `ids`. */
  async liveIds(teamId: number, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('insights')
      .select('id')
      .where('team_id', '=', teamId)
      .where('deleted', '=', 0)
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return rows.map((r) => r.id);
  }

  async list(
    teamId: number,
    filter: InsightListFilter,
    order: InsightOrder | null,
    page: { limit: number; offset: number },
  ): Promise<{ count: number; rows: InsightRow[] }> {
    let base = this.db.selectFrom('insights as i').where('i.team_id', '=', teamId).where('i.deleted', '=', 0);
    if (filter.ids) base = base.where('i.id', 'in', filter.ids.length > 0 ? [...filter.ids] : [-1]);
    if (filter.shortId !== undefined) base = base.where('i.short_id', '=', filter.shortId);
    if (filter.createdBy) base = base.where('i.created_by', 'in', filter.createdBy.length > 0 ? [...filter.createdBy] : [-1]);
    if (filter.favorited) base = base.where('i.favorited', '=', 1);
    if (filter.saved === false) base = base.where('i.saved', '=', 0);
    if (filter.saved === true) {
      base = base.where((eb) => eb.or([eb('i.saved', '=', 1), eb.exists(liveTileOf(eb, null))]));
    }
    for (const dashboardId of filter.dashboards ?? []) base = base.where((eb) => eb.exists(liveTileOf(eb, dashboardId)));
    if (filter.tags && filter.tags.length > 0) {
      const tags = filter.tags;
      // Tags are a JSON array of strings: a tag matches as its quoted JSON text.
      base = base.where((eb) => eb.or(tags.map((tag) => containsText(sql`i.tags`, JSON.stringify(tag)))));
    }
    if (filter.search !== undefined && filter.search !== '') {
      const search = filter.search;
      base = base.where((eb) => eb.or(anyContains(['i.name', 'i.derived_name', 'i.description', 'i.tags'], search)));
    }
    const [{ count } = { count: 0 }] = await base.select((eb) => eb.fn.countAll().as('count')).execute();
    let rows = base.selectAll('i');
    if (order) {
      rows = rows.orderBy(sql.ref(`i.${order.field}`), (ob) => (order.descending ? ob.desc() : ob.asc()).nullsLast());
    } else {
      // PostHog orders by the nullable `order` column; NULLS LAST, then newest first, makes it stable.
      rows = rows.orderBy(sql.ref('i.order'), (ob) => ob.asc().nullsLast()).orderBy('i.last_modified_at', 'desc');
    }
    const page_ = await rows.orderBy('i.id', 'desc').limit(page.limit).offset(page.offset).execute();
    return { count: Number(count), rows: page_ };
  }

  async update(teamId: number, id: number, changes: InsightChanges): Promise<void> {
    await this.db.updateTable('insights').set(changes).where('team_id', '=', teamId).where('id', '=', id).execute();
  }
}

/** A live tile of the outer insight on a live dashboard (any dashboard when `dashboardId` is null). */
function liveTileOf(eb: any, dashboardId: number | null) {
  let query = eb
    .selectFrom('dashboard_tiles as t')
    .innerJoin('dashboards as d', 'd.id', 't.dashboard_id')
    .select('t.id')
    .whereRef('t.insight_id', '=', 'i.id')
    .where('d.deleted', '=', 0)
    .where((inner: any) => inner.or([inner('t.deleted', 'is', null), inner('t.deleted', '=', 0)]));
  if (dashboardId !== null) query = query.where('t.dashboard_id', '=', dashboardId);
  return query;
}
