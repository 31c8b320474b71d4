// Per-minute budgets of recorded bytes (uncompressed rrweb JSON), per session and per project, so
// one runaway page (a mutation storm) or one project cannot fill the disk: a request that would
// pass either budget is refused whole with a 429 and nothing of it is stored. Minutes are fixed
// windows of the clock; a budget frees at the next minute.
import { ThrottledError } from '../../errors.js';

export interface ReplayLimits {
  /** Uncompressed snapshot bytes one session may send per minute. */
  sessionBytesPerMinute: number;
  /** Uncompressed snapshot bytes one project may send per minute. */
  projectBytesPerMinute: number;
}

/** posthog-js flushes at most about 1 MB of rrweb data per request, every couple of seconds. */
export const DEFAULT_REPLAY_LIMITS: ReplayLimits = {
  sessionBytesPerMinute: 20 * 1024 * 1024,
  projectBytesPerMinute: 500 * 1024 * 1024,
};

export class ReplayBudget {
  private minute = -1;
  private readonly sessions = new Map<string, number>();
  private readonly projects = new Map<number, number>();

  constructor(private readonly limits: ReplayLimits, private readonly now: () => number = Date.now) {}

  /** Takes the bytes from both budgets, or throws (taking nothing) when one would be exceeded. */
  take(teamId: number, bytesBySession: ReadonlyMap<string, number>): () => void {
    const minute = Math.floor(this.now() / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.sessions.clear();
      this.projects.clear();
    }
    let total = 0;
    for (const [sessionId, bytes] of bytesBySession) {
      total += bytes;
      if ((this.sessions.get(`${teamId}/${sessionId}`) ?? 0) + bytes > this.limits.sessionBytesPerMinute) {
        throw new ThrottledError(`Session ${sessionId} sent more than ${this.limits.sessionBytesPerMinute} bytes of recording this minute; its snapshots were not stored.`);
      }
    }
    if ((this.projects.get(teamId) ?? 0) + total > this.limits.projectBytesPerMinute) {
      throw new ThrottledError(`This project sent more than ${this.limits.projectBytesPerMinute} bytes of recordings this minute; the snapshots were not stored.`);
    }
    for (const [sessionId, bytes] of bytesBySession) this.sessions.set(`${teamId}/${sessionId}`, (this.sessions.get(`${teamId}/${sessionId}`) ?? 0) + bytes);
    this.projects.set(teamId, (this.projects.get(teamId) ?? 0) + total);
    // A request that then fails to store gives its bytes back.
    return () => {
      if (this.minute !== minute) return;
      for (const [sessionId, bytes] of bytesBySession) this.sessions.set(`${teamId}/${sessionId}`, Math.max(0, (this.sessions.get(`${teamId}/${sessionId}`) ?? 0) - bytes));
      this.projects.set(teamId, Math.max(0, (this.projects.get(teamId) ?? 0) - total));
    };
  }
}
