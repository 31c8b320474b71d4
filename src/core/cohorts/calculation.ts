// A dynamic cohort's `count`, calculated in the background after every change of its criteria
// (PostHog answers a create with is_calculating: true and counts later). Queries do not read it:
// they evaluate the cohort themselves, so the count is for display. A calculation that finishes
// after the cohort changed again is dropped (the newer one is on its way).
import type { CohortsRepository } from '../../storage/meta/repositories/cohorts.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { InsightQueryService } from '../queries/service.js';
import { nowIso } from '../tokens.js';

export class CohortCalculator {
  /** The last calculation queued: they run one after another (a list may ask for many at once). */
  private queue: Promise<void> = Promise.resolve();
  /** `cohort@version` of the calculations queued or running in this process. */
  private readonly inFlight = new Set<string>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly cohorts: CohortsRepository,
    private readonly queries: InsightQueryService,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Counts the cohort at this version, in the background. */
  schedule(project: ProjectRow, cohortId: number, version: number): void {
    const key = `${cohortId}@${version}`;
    if (this.inFlight.has(key) || this.stopping.signal.aborted) return;
    this.inFlight.add(key);
    this.queue = this.queue
      .then(() => (this.stopping.signal.aborted ? undefined : this.calculate(project, cohortId, version)))
      .finally(() => this.inFlight.delete(key));
  }

  isRunning(cohortId: number, version: number): boolean {
    return this.inFlight.has(`${cohortId}@${version}`);
  }

  private async calculate(project: ProjectRow, cohortId: number, version: number): Promise<void> {
    let outcome: { count: number; at: string } | { error: string };
    try {
      outcome = { count: await this.queries.cohortCount(project, cohortId, this.stopping.signal), at: nowIso() };
    } catch (error) {
      if (this.stopping.signal.aborted) return;
      this.onError(error);
      outcome = { error: error instanceof Error && 'detail' in error ? String((error as { detail: unknown }).detail) : 'The calculation failed.' };
    }
    await this.cohorts.finishCalculation(project.id, cohortId, version, outcome).catch((error: unknown) => {
      // Left "calculating": the next read of the cohort schedules it again.
      this.onError(new Error(`cohorts: could not record the calculation of cohort ${cohortId} (version ${version}); it is calculated again when next read`, { cause: error }));
    });
  }

  /** Stops calculations in flight and queued (they are left "calculating" and redone when read). */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.queue.catch(() => {});
  }
}
