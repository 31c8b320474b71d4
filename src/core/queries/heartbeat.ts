// A background calculation's status row is kept alive by the process running it: while it runs
// (or waits its turn), the process refreshes the row's heartbeat_at. A row whose heartbeat is older
// than three intervals belongs to a process that died or lost its store, and a new request for
// the same calculation takes it over instead of waiting for its hour-long expiry.
import type { QueryCacheRepository, QueryStatusRow } from '../../storage/meta/repositories/query-cache.js';

export const DEFAULT_HEARTBEAT_MS = 5_000;
/** Missed heartbeats after which a running status counts as abandoned. */
const MISSED_BEATS = 3;

/** Whether a not-yet-complete status row was left by a process that stopped beating for it. */
export function isAbandoned(row: Pick<QueryStatusRow, 'complete' | 'heartbeat_at' | 'start_time'>, now: number, heartbeatMs: number): boolean {
  if (row.complete === 1) return false;
  const last = Date.parse(row.heartbeat_at ?? row.start_time);
  return !(now - last <= MISSED_BEATS * heartbeatMs);
}

export class StatusHeartbeat {
  /** Task ids of the status rows this process is running. */
  private readonly tasks = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly cache: QueryCacheRepository,
    readonly intervalMs: number,
    private readonly clock: () => number,
    /** Told of every beat the store refused (logged: missed beats end in a takeover). */
    private readonly onProblem: (message: string, error: unknown) => void = () => {},
  ) {}

  /** Beats for the status row of `taskId` until the returned function is called. */
  track(taskId: string): () => void {
    this.tasks.add(taskId);
    if (this.timer === null) {
      this.timer = setInterval(() => void this.beat(), this.intervalMs);
      // Never what keeps the process alive.
      this.timer.unref();
    }
    return () => {
      this.tasks.delete(taskId);
      if (this.tasks.size === 0 && this.timer !== null) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  private async beat(): Promise<void> {
    if (this.tasks.size === 0) return;
    try {
      await this.cache.heartbeat([...this.tasks], new Date(this.clock()).toISOString());
    } catch (error) {
      // A store that is briefly unavailable: the next beat tries again, and three missed beats
      // let another request take the calculation over, which is the right outcome if it lasts.
      this.onProblem(`could not refresh the heartbeat of ${this.tasks.size} background calculation(s); trying again in ${this.intervalMs} ms (after ${MISSED_BEATS} missed beats another request takes them over)`, error);
    }
  }
}
