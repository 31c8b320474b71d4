import { sql, type Kysely, type Selectable } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { MetaSchema, QueryCacheTable, QueryStatusTable } from '../schema.js';

export type CachedResultRow = Selectable<QueryCacheTable>;
export type QueryStatusRow = Selectable<QueryStatusTable>;
export type CachedEntry = Omit<CachedResultRow, 'response' | 'response_bytes'>;

/**
 * Calculated results, background-calculation status and event-write marks: the shared state that
 * lets several API processes over one metadata store agree on what is cached and what is running.
 */
// Read by every cached result: compiled once (compiled-once.ts).
const GET_ENTRY = compiledOnce((db: Kysely<MetaSchema>, cacheKey: string, teamId: number) =>
  db
    .selectFrom('query_cache')
    .select(['cache_key', 'team_id', 'last_refresh', 'computed_at', 'range_from', 'range_to'])
    .where('cache_key', '=', cacheKey)
    .where('team_id', '=', teamId),
);

export class QueryCacheRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  /** An entry without its response text (which callers often hold parsed already). */
  getEntry(cacheKey: string, teamId: number): Promise<CachedEntry | undefined> {
    return GET_ENTRY.first(this.db, cacheKey, teamId);
  }

  async getResponse(cacheKey: string, teamId: number, lastRefresh: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('query_cache')
      .select('response')
      .where('cache_key', '=', cacheKey)
      .where('team_id', '=', teamId)
      .where('last_refresh', '=', lastRefresh)
      .executeTakeFirst();
    return row?.response;
  }

  /**
   * Stores a result, then evicts the oldest calculations until the cache holds at most
   * `budgetBytes` of responses (the one just stored, the newest, stays when it fits alone).
   * Processes sharing a PostgreSQL store may each miss the other's concurrent entry, so the total
   * can pass the budget by an entry or two until the next put.
   */
  async put(row: CachedResultRow, budgetBytes: number): Promise<void> {
    const { cache_key: _key, ...rest } = row;
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('query_cache')
        .values(row)
        .onConflict((oc) => oc.column('cache_key').doUpdateSet(rest))
        .execute();
      await sql`DELETE FROM query_cache WHERE cache_key IN (
        SELECT cache_key FROM (
          SELECT cache_key, SUM(response_bytes) OVER (ORDER BY last_refresh DESC, cache_key DESC ROWS UNBOUNDED PRECEDING) AS kept
          FROM query_cache
        ) AS newest_first
        WHERE kept > ${budgetBytes}
      )`.execute(trx);
    });
  }

  /** Drops every calculated result of a project (a person deletion may change any of them). */
  async forgetTeam(teamId: number): Promise<void> {
    await this.db.deleteFrom('query_cache').where('team_id', '=', teamId).execute();
  }

  /** Entries and the bytes of their responses (the cache's budget). */
  async usage(): Promise<{ entries: number; bytes: number }> {
    const row = await this.db
      .selectFrom('query_cache')
      .select((eb) => [eb.fn.countAll<string | number>().as('entries'), eb.fn.coalesce(eb.fn.sum<string | number>('response_bytes'), eb.lit(0)).as('bytes')])
      .executeTakeFirst();
    return { entries: Number(row?.entries ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  /** Whether events were stored for any UTC day in [fromDay, toDay] (null = unbounded) after `since`. */
  async writtenSince(teamId: number, fromDay: string | null, toDay: string | null, since: string): Promise<boolean> {
    let query = this.db.selectFrom('event_write_marks').select('day').where('team_id', '=', teamId).where('written_at', '>', since);
    if (fromDay !== null) query = query.where('day', '>=', fromDay);
    if (toDay !== null) query = query.where('day', '<=', toDay);
    return (await query.limit(1).executeTakeFirst()) !== undefined;
  }

  async markWritten(marks: readonly { team_id: number; day: string }[], at: string): Promise<void> {
    if (marks.length === 0) return;
    await this.db
      .insertInto('event_write_marks')
      .values(marks.map((m) => ({ ...m, written_at: at })))
      .onConflict((oc) => oc.columns(['team_id', 'day']).doUpdateSet({ written_at: at }))
      .execute();
  }

  getStatus(teamId: number, id: string): Promise<QueryStatusRow | undefined> {
    return this.db.selectFrom('query_status').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
  }

  async putStatus(row: QueryStatusRow): Promise<void> {
    const { team_id: _team, id: _id, ...rest } = row;
    await this.db
      .insertInto('query_status')
      .values(row)
      .onConflict((oc) => oc.columns(['team_id', 'id']).doUpdateSet(rest))
      .execute();
  }

  /**
   * Claims a status id for a new calculation: inserts the row when the id is free, or replaces the
   * row whose task is `replacing` (finished, expired or abandoned). False when another request
   * claimed it first.
   */
  async claimStatus(row: QueryStatusRow, replacing: string | null): Promise<boolean> {
    if (replacing === null) {
      const result = await this.db
        .insertInto('query_status')
        .values(row)
        .onConflict((oc) => oc.columns(['team_id', 'id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    }
    const { team_id: teamId, id, ...rest } = row;
    const result = await this.db
      .updateTable('query_status')
      .set(rest)
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .where('task_id', '=', replacing)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Records a calculation's end, unless another task has taken its status over meanwhile. */
  async finishStatus(teamId: number, id: string, taskId: string, changes: Pick<QueryStatusRow, 'complete' | 'error' | 'error_message' | 'results' | 'end_time'>): Promise<void> {
    await this.db.updateTable('query_status').set(changes).where('team_id', '=', teamId).where('id', '=', id).where('task_id', '=', taskId).execute();
  }

  /** Marks the running calculations of these tasks as alive at `at`. */
  async heartbeat(taskIds: readonly string[], at: string): Promise<void> {
    if (taskIds.length === 0) return;
    await this.db.updateTable('query_status').set({ heartbeat_at: at }).where('task_id', 'in', taskIds).where('complete', '=', 0).execute();
  }

  async deleteStatus(teamId: number, id: string): Promise<void> {
    await this.db.deleteFrom('query_status').where('team_id', '=', teamId).where('id', '=', id).execute();
  }

  /** Drops finished background calculations that expired before `now`. */
  async purgeExpiredStatus(now: string): Promise<void> {
    await this.db.deleteFrom('query_status').where('expiration_time', '<', now).execute();
  }
}
