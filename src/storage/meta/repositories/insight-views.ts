import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { MetaSchema } from '../schema.js';

// Read by every insight view: compiled once (compiled-once.ts).
const LAST_VIEWED = compiledOnce((db: Kysely<MetaSchema>, teamId: number, userId: number, insightIds: readonly number[]) =>
  db
    .selectFrom('insight_views')
    .select(['insight_id', 'last_viewed_at'])
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .where('insight_id', 'in', insightIds),
);

/** When each user last viewed each insight of a project. */
export class InsightViewsRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  async record(teamId: number, userId: number, insightIds: readonly number[], at: string): Promise<void> {
    if (insightIds.length === 0) return;
    await this.db
      .insertInto('insight_views')
      .values(insightIds.map((insightId) => ({ team_id: teamId, user_id: userId, insight_id: insightId, last_viewed_at: at })))
      .onConflict((oc) => oc.columns(['team_id', 'user_id', 'insight_id']).doUpdateSet({ last_viewed_at: at }))
      .execute();
  }

  /** The user's most recently viewed live insights of the project, newest first. */
  async recent(teamId: number, userId: number, limit: number): Promise<{ insight_id: number; last_viewed_at: string }[]> {
    return this.db
      .selectFrom('insight_views as v')
      .innerJoin('insights as i', 'i.id', 'v.insight_id')
      .select(['v.insight_id', 'v.last_viewed_at'])
      .where('v.team_id', '=', teamId)
      .where('v.user_id', '=', userId)
      .where('i.team_id', '=', teamId)
      .where('i.deleted', '=', 0)
      .orderBy('v.last_viewed_at', 'desc')
      .orderBy('v.insight_id', 'desc')
      .limit(limit)
      .execute();
  }

  /** The user's last view of each of these insights. */
  async lastViewed(teamId: number, userId: number, insightIds: readonly number[]): Promise<Map<number, string>> {
    if (insightIds.length === 0) return new Map();
    const rows = await LAST_VIEWED.all(this.db, teamId, userId, [...new Set(insightIds)]);
    return new Map(rows.map((r) => [r.insight_id, r.last_viewed_at]));
  }
}
