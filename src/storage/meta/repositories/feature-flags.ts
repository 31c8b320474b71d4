import { sql, type Kysely, type Selectable } from 'kysely';
import type { FeatureFlagHashKeyOverridesTable, FeatureFlagsTable, MetaSchema } from '../schema.js';
import { anyContains } from './like.js';

export type FeatureFlagRow = Selectable<FeatureFlagsTable>;
export type FeatureFlagChanges = Partial<Omit<FeatureFlagRow, 'id' | 'team_id' | 'created_by' | 'created_at'>>;
export type HashKeyOverride = Omit<FeatureFlagHashKeyOverridesTable, 'team_id'>;

export interface FeatureFlagListQuery {
  readonly limit: number;
  readonly offset: number;
  /** Part of the key or the name, any case. */
  readonly search: string | null;
  readonly active: boolean | null;
  readonly type: 'boolean' | 'multivariant' | 'remote_config' | null;
  readonly createdById: number | null;
  readonly evaluationRuntime: string | null;
  /** Any of these tags. */
  readonly tags: readonly string[] | null;
  /** Columns and directions, first wins (PostHog's `order`: newest first by default). */
  readonly order: readonly { column: 'created_at' | 'key' | 'name' | 'updated_at' | 'id'; desc: boolean }[];
}

/** Every lookup is by project (team) AND id or key, so one project never reaches another's flags. */
export class FeatureFlagsRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  insert(flag: Omit<FeatureFlagRow, 'id'>): Promise<FeatureFlagRow> {
    return this.db.insertInto('feature_flags').values(flag).returningAll().executeTakeFirstOrThrow();
  }

  /** The flag, deleted or not. */
  findInProject(teamId: number, id: number): Promise<FeatureFlagRow | undefined> {
    return this.db.selectFrom('feature_flags').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
  }

  /** The flag holding this key, deleted or not (a key has one row per project). */
  findByKey(teamId: number, key: string): Promise<FeatureFlagRow | undefined> {
    return this.db.selectFrom('feature_flags').selectAll().where('team_id', '=', teamId).where('key', '=', key).executeTakeFirst();
  }

  /** Frees a key held by a soft-deleted flag, as PostHog's create does; a live flag is kept. */
  async removeDeletedWithKey(teamId: number, key: string): Promise<void> {
    await this.db.deleteFrom('feature_flags').where('team_id', '=', teamId).where('key', '=', key).where('deleted', '=', 1).execute();
  }

  /** Live (not deleted) flags, narrowed and ordered as the list asks. */
  async listLive(teamId: number, filter: FeatureFlagListQuery): Promise<{ count: number; rows: FeatureFlagRow[] }> {
    let base = this.db.selectFrom('feature_flags').where('team_id', '=', teamId).where('deleted', '=', 0);
    const { search } = filter;
    if (search) base = base.where((eb) => eb.or(anyContains(['key', 'name'], search)));
    if (filter.active !== null) base = base.where('active', '=', filter.active ? 1 : 0);
    if (filter.createdById !== null) base = base.where('created_by', '=', filter.createdById);
    if (filter.evaluationRuntime !== null) base = base.where('evaluation_runtime', '=', filter.evaluationRuntime);
    if (filter.type === 'remote_config') base = base.where('is_remote_configuration', '=', 1);
    if (filter.type !== null && filter.type !== 'remote_config') {
      // filters.multivariate is stored as JSON text: "has variants" is a text test both engines share.
      const hasVariants = sql<boolean>`${sql.ref('filters')} like ${'%"multivariate":{"variants":[{%'}`;
      base = base.where('is_remote_configuration', '=', 0).where(filter.type === 'multivariant' ? hasVariants : sql<boolean>`not (${hasVariants})`);
    }
    if (filter.tags && filter.tags.length > 0) {
      const tags = filter.tags;
      base = base.where((eb) => eb.or(tags.map((tag) => sql<boolean>`${sql.ref('tags')} like ${`%${JSON.stringify(tag).replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`)));
    }
    const [{ count } = { count: 0 }] = await base.select((eb) => eb.fn.countAll().as('count')).execute();
    let query = base.selectAll();
    for (const { column, desc } of filter.order) query = query.orderBy(column, desc ? 'desc' : 'asc');
    const rows = await query.orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
    return { count: Number(count), rows };
  }

  /** Every live flag of the project (what evaluation and dependency checks read), oldest first. */
  liveFlags(teamId: number): Promise<FeatureFlagRow[]> {
    return this.db.selectFrom('feature_flags').selectAll().where('team_id', '=', teamId).where('deleted', '=', 0).orderBy('id').execute();
  }

  /** Live flags by id (dependency checks). */
  findLive(teamId: number, ids: readonly number[]): Promise<FeatureFlagRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('feature_flags').selectAll().where('team_id', '=', teamId).where('deleted', '=', 0).where('id', 'in', [...ids]).execute();
  }

  async update(teamId: number, id: number, changes: FeatureFlagChanges): Promise<void> {
    await this.db.updateTable('feature_flags').set(changes).where('team_id', '=', teamId).where('id', '=', id).execute();
  }

  /** Changes the flag only if it is still at `version` (two racing edits: one wins, one is told). */
  async updateAtVersion(teamId: number, id: number, version: number, changes: FeatureFlagChanges): Promise<boolean> {
    const result = await this.db.updateTable('feature_flags').set(changes)
      .where('team_id', '=', teamId).where('id', '=', id).where('version', '=', version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The project's flags epoch: it moves whenever any of its flags changes (0 before the first). */
  async epoch(teamId: number): Promise<number> {
    const row = await this.db.selectFrom('feature_flag_epochs').select('epoch').where('team_id', '=', teamId).executeTakeFirst();
    return Number(row?.epoch ?? 0);
  }

  /** Called in the transaction of every change to a project's flags. */
  async bumpEpoch(teamId: number): Promise<void> {
    await this.db
      .insertInto('feature_flag_epochs')
      .values({ team_id: teamId, epoch: 1 })
      .onConflict((oc) => oc.column('team_id').doUpdateSet({ epoch: sql`${sql.ref('feature_flag_epochs.epoch')} + 1` }))
      .execute();
  }

  /** Experience continuity: stores the overrides a person has not got yet; existing ones win. */
  async insertHashKeyOverridesIfAbsent(teamId: number, overrides: readonly HashKeyOverride[]): Promise<void> {
    if (overrides.length === 0) return;
    await this.db
      .insertInto('feature_flag_hash_key_overrides')
      .values(overrides.map((o) => ({ team_id: teamId, ...o })))
      .onConflict((oc) => oc.columns(['team_id', 'person_id', 'feature_flag_key']).doNothing())
      .execute();
  }

  /** The overrides of these persons (uuids), every flag key. */
  hashKeyOverridesOf(teamId: number, personIds: readonly string[]): Promise<HashKeyOverride[]> {
    if (personIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('feature_flag_hash_key_overrides')
      .select(['person_id', 'feature_flag_key', 'hash_key'])
      .where('team_id', '=', teamId)
      .where('person_id', 'in', [...personIds])
      .execute();
  }

  /** A person merge: the merged person's overrides move to the survivor, whose own win on conflict. */
  async moveHashKeyOverrides(teamId: number, fromPersonId: string, toPersonId: string): Promise<void> {
    if (fromPersonId === toPersonId) return;
    const moving = await this.hashKeyOverridesOf(teamId, [fromPersonId]);
    await this.insertHashKeyOverridesIfAbsent(teamId, moving.map((o) => ({ ...o, person_id: toPersonId })));
    await this.db.deleteFrom('feature_flag_hash_key_overrides').where('team_id', '=', teamId).where('person_id', '=', fromPersonId).execute();
  }
}
