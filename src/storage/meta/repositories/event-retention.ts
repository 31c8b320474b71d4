// The metadata the event retention job reads and writes: every project's settings (to find the
// ones with a retention) and its last run per project (migration 0016).
import type { Kysely } from 'kysely';
import type { EventRetentionRunsTable, MetaSchema } from '../schema.js';

export type EventRetentionRun = EventRetentionRunsTable;

export class EventRetentionRunsRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  /** Every project's id and settings JSON (a handful of rows per organization). */
  projectSettings(): Promise<{ id: number; settings: string }[]> {
    return this.db.selectFrom('projects').select(['id', 'settings']).execute();
  }

  lastRun(teamId: number): Promise<EventRetentionRun | undefined> {
    return this.db.selectFrom('event_retention_runs').selectAll().where('team_id', '=', teamId).executeTakeFirst();
  }

  /** Records a run; a run that removed nothing keeps the count of the last one that did. */
  async record(run: EventRetentionRun): Promise<void> {
    await this.db
      .insertInto('event_retention_runs')
      .values(run)
      .onConflict((oc) =>
        oc.column('team_id').doUpdateSet(run.events_removed > 0
          ? { cutoff: run.cutoff, ran_at: run.ran_at, events_removed: run.events_removed }
          : { cutoff: run.cutoff, ran_at: run.ran_at }),
      )
      .execute();
  }
}
