// Recordings' retention (issue 33): a project's `session_recording_retention_period` (PostHog's
// project field: "30d", "90d", "1y" or "5y", default "30d") says how long its recordings are kept;
// a session whose last recorded moment is older goes, blocks and summary rows. Like the event
// retention job it runs in the background (soon after start, then every hour) in the process that
// writes, never on a request's path.
import { PeriodicJob } from '../periodic-job.js';
import type { RecordingRemovals } from './recording-removal.js';

export const RECORDING_RETENTION_INTERVAL_MS = 60 * 60 * 1000;
export const DEFAULT_RECORDING_RETENTION = '30d';
/** PostHog's retention_period_days of each choice. */
export const RECORDING_RETENTION_DAYS: Readonly<Record<string, number>> = { '30d': 30, '90d': 90, '1y': 365, '5y': 1825 };

/** Days a project keeps its recordings; a missing or unknown value keeps PostHog's default. */
export function recordingRetentionDays(settingsJson: string): number {
  const value = (JSON.parse(settingsJson) as Record<string, unknown>).session_recording_retention_period;
  return RECORDING_RETENTION_DAYS[typeof value === 'string' ? value : ''] ?? RECORDING_RETENTION_DAYS[DEFAULT_RECORDING_RETENTION]!;
}

export interface RecordingRetentionDeps {
  removals: RecordingRemovals;
  projectSettings(): Promise<{ id: number; settings: string }[]>;
  /** Only the process that writes removes (one per data set). */
  mayRun(): boolean;
  onError(error: unknown): void;
}

export class RecordingRetentionJob extends PeriodicJob<Map<number, number>> {
  constructor(private readonly deps: RecordingRetentionDeps) {
    super(deps);
  }

  /** Runs soon after start, then every interval (see PeriodicJob). */
  override start(intervalMs = RECORDING_RETENTION_INTERVAL_MS, firstDelayMs = 5_000): void {
    super.start(intervalMs, firstDelayMs);
  }

  /** One pass over every project; the sessions removed per project. A second call joins the first. */
  runOnce(now: Date = new Date()): Promise<Map<number, number>> {
    return this.joinedPass(now);
  }

  protected async pass(now: Date): Promise<Map<number, number>> {
    const removed = new Map<number, number>();
    for (const project of await this.deps.projectSettings()) {
      const cutoff = new Date(now.getTime() - recordingRetentionDays(project.settings) * 86_400_000);
      const sessions = [...(await this.deps.removals.endedBefore(project.id, cutoff)), ...(await this.deps.removals.orphansBefore(project.id, cutoff))];
      if (sessions.length > 0) removed.set(project.id, await this.deps.removals.remove(project.id, sessions));
    }
    return removed;
  }
}
