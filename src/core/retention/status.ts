// What a project's event retention means now and what its job last did, for the settings page
// and API clients (GET /api/projects/:id/event_retention/).
import type { EventRetentionRunsRepository } from '../../storage/meta/repositories/event-retention.js';
import type { AccessResolver } from '../access.js';
import type { Principal } from '../auth/principal.js';
import { retentionCutoff, retentionMonthsOf } from './event-retention.js';

export interface EventRetentionView {
  event_retention_months: number | null;
  /** The first instant the project keeps (ISO 8601 UTC); null keeps everything. */
  keeps_events_from: string | null;
  last_run: { cutoff: string; ran_at: string; events_removed: number } | null;
}

export class EventRetentionStatus {
  constructor(
    private readonly access: AccessResolver,
    private readonly runs: EventRetentionRunsRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async of(principal: Principal, projectParam: string): Promise<EventRetentionView> {
    const project = await this.access.project(principal, projectParam);
    const months = retentionMonthsOf(project.settings);
    const run = await this.runs.lastRun(project.id);
    return {
      event_retention_months: months,
      keeps_events_from: months === null ? null : retentionCutoff(months, this.now()).toISOString(),
      last_run: run ? { cutoff: run.cutoff, ran_at: run.ran_at, events_removed: Number(run.events_removed) } : null,
    };
  }
}
