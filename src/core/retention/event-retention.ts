// Per-project event retention (issue 32): a project whose `event_retention_months` is N keeps the
// current UTC month and the N months before it; older events are removed by this job, in the
// background (at start, then every hour) in the process that writes the events, never on a
// request's path. Whole months match the events table's monthly partitions, so a month no project
// keeps is dropped at once, and a project's month otherwise goes by one lightweight DELETE.
import { PeriodicJob } from '../periodic-job.js';
import type { EventRetentionStore, ExpiredMonth, PartitionId } from '../../storage/events/retention-repository.js';
import type { EventRetentionRun, EventRetentionRunsRepository } from '../../storage/meta/repositories/event-retention.js';

export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/** The first instant a project keeps: the start of the UTC month `months` before the current one. */
export function retentionCutoff(months: number, now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1));
}

/** ClickHouse DateTime64 text of an instant (UTC). */
const storeTime = (instant: Date) => instant.toISOString().slice(0, 19).replace('T', ' ');

/** The first instant after a month partition (`YYYYMM`). */
function endOfMonth(partition: PartitionId): Date {
  return new Date(Date.UTC(Number(partition.slice(0, 4)), Number(partition.slice(4, 6)), 1));
}

export function retentionMonthsOf(settingsJson: string): number | null {
  const value = (JSON.parse(settingsJson) as Record<string, unknown>).event_retention_months;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

export interface RetentionReport {
  /** Events removed per project. */
  removed: Map<number, number>;
  /** Months dropped whole (no project kept them). */
  droppedMonths: PartitionId[];
}

export interface EventRetentionDeps {
  store: EventRetentionStore;
  runs: EventRetentionRunsRepository;
  /** Cached results over these days go stale (the result cache's write marks). */
  markChanged(marks: { team_id: number; day: string }[], at: string): Promise<void>;
  /** Only the process that writes the events removes them (one per data set). */
  mayRun(): boolean;
  now?: () => Date;
  onError(error: unknown): void;
}

export class EventRetentionJob extends PeriodicJob<RetentionReport> {
  constructor(private readonly deps: EventRetentionDeps) {
    super(deps);
  }

  /** Runs soon after start, then every interval (see PeriodicJob). */
  override start(intervalMs = RETENTION_INTERVAL_MS, firstDelayMs = 5_000): void {
    super.start(intervalMs, firstDelayMs);
  }

  /** One pass over every project with a retention; runs one at a time (a second call joins the first). */
  runOnce(now: Date = (this.deps.now ?? (() => new Date()))()): Promise<RetentionReport> {
    return this.joinedPass(now);
  }

  protected async pass(now: Date): Promise<RetentionReport> {
    const { store, runs } = this.deps;
    const cutoffs = new Map<number, Date>();
    for (const project of await runs.projectSettings()) {
      const months = retentionMonthsOf(project.settings);
      if (months !== null) cutoffs.set(project.id, retentionCutoff(months, now));
    }
    const report: RetentionReport = { removed: new Map(), droppedMonths: [] };
    // Month -> the projects with events to remove in it.
    const byMonth = new Map<PartitionId, Map<number, ExpiredMonth>>();
    for (const [teamId, cutoff] of cutoffs) {
      for (const month of await store.expiredMonths(teamId, storeTime(cutoff))) {
        if (!byMonth.has(month.partition)) byMonth.set(month.partition, new Map());
        byMonth.get(month.partition)!.set(teamId, month);
      }
    }
    // A month every present project has let go is dropped whole; present projects without a
    // retention (or one not yet reaching it), and rows of no known project, keep it.
    const letGo = (teamId: number, partition: PartitionId) => {
      const cutoff = cutoffs.get(teamId);
      return cutoff !== undefined && cutoff >= endOfMonth(partition);
    };
    const changedDays = new Map<number, string[]>();
    for (const partition of [...byMonth.keys()].sort()) {
      const expired = byMonth.get(partition)!;
      for (const teamId of expired.keys()) await store.forgetUuids(teamId, partition, storeTime(cutoffs.get(teamId)!));
      // Asked right before the drop, after the slower uuid deletes, to keep the window short.
      const present = await store.teamsIn(partition);
      if (present.length > 0 && present.every((teamId) => letGo(teamId, partition))) {
        await store.dropMonth(partition);
        report.droppedMonths.push(partition);
      } else {
        for (const teamId of expired.keys()) await store.deleteEvents(teamId, partition, storeTime(cutoffs.get(teamId)!));
        // Reads already exclude them; this frees their bytes (in the engine's background).
        await store.applyDeletes(partition);
      }
      for (const [teamId, month] of expired) {
        report.removed.set(teamId, (report.removed.get(teamId) ?? 0) + month.events);
        changedDays.set(teamId, [...(changedDays.get(teamId) ?? []), ...month.days]);
      }
    }
    const ranAt = new Date().toISOString();
    for (const [teamId, cutoff] of cutoffs) {
      const removed = report.removed.get(teamId) ?? 0;
      if (removed > 0) {
        await store.deleteSessions(teamId, storeTime(cutoff));
        await this.deps.markChanged((changedDays.get(teamId) ?? []).map((day) => ({ team_id: teamId, day })), ranAt);
      }
      const run: EventRetentionRun = { team_id: teamId, cutoff: cutoff.toISOString(), ran_at: ranAt, events_removed: removed };
      // A project deleted meanwhile has no row to record against; that is no failure of the pass.
      await runs.record(run).catch((error) => this.deps.onError(error));
    }
    return report;
  }
}
