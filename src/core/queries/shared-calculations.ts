// Calculations running in this process, by cache key: requests for the same result share one run,
// but each keeps its own cancellation. Cancelling a client's query id detaches that client's
// requests (they end with query_cancelled at once); the shared run is stopped only when nobody
// waits for it any more.
import { randomUUID } from 'node:crypto';
import { cancelledError } from '../../query/execute.js';

export interface RunHandle {
  /** The client query id the run's statements carry (the first requester's, else random). */
  readonly runId: string;
  /** Aborted when the run is abandoned: its statement stops and no further one starts. */
  readonly signal: AbortSignal;
}

export interface StartedRun<T> {
  readonly result: Promise<T>;
  /** Makes a run that waits for its turn start now (a client is waiting for it). */
  readonly promote?: () => void;
}

interface Waiter {
  readonly clientQueryId: string | undefined;
  reject(error: unknown): void;
}

interface Calculation<T> {
  readonly key: string;
  readonly teamId: number;
  readonly controller: AbortController;
  readonly waiters: Set<Waiter>;
  run: StartedRun<T>;
}

export class SharedCalculations<T> {
  private readonly byKey = new Map<string, Calculation<T>>();

  /**
   * Waits for the calculation of `key` as the client `clientQueryId`, starting it with `start` when
   * none runs here. `urgent` callers (blocking requests) make a queued run start now.
   */
  join(key: string, teamId: number, clientQueryId: string | undefined, start: (handle: RunHandle) => StartedRun<T>, urgent: boolean): Promise<T> {
    let calculation = this.byKey.get(key);
    if (!calculation) {
      const controller = new AbortController();
      const runId = clientQueryId ?? randomUUID();
      const started = start({ runId, signal: controller.signal });
      const created: Calculation<T> = { key, teamId, controller, waiters: new Set(), run: started };
      created.run = {
        ...started,
        result: started.result.finally(() => {
          if (this.byKey.get(key) === created) this.byKey.delete(key);
        }),
      };
      // Everyone may have left: the outcome must not become an unhandled rejection.
      created.run.result.catch(() => {});
      this.byKey.set(key, created);
      calculation = created;
    }
    if (urgent) calculation.run.promote?.();
    return this.wait(calculation, clientQueryId);
  }

  /** The outcome of the calculation of `key` running here, if one is. */
  resultOf(key: string): Promise<T> | null {
    return this.byKey.get(key)?.run.result ?? null;
  }

  /**
   * Detaches every request of this client query id in the project; a calculation left with no one
   * waiting is stopped. Returns whether any request of that id waited here.
   */
  cancel(teamId: number, clientQueryId: string): boolean {
    let found = false;
    for (const calculation of [...this.byKey.values()]) {
      if (calculation.teamId !== teamId) continue;
      const leaving = [...calculation.waiters].filter((w) => w.clientQueryId === clientQueryId);
      if (leaving.length === 0) continue;
      found = true;
      for (const waiter of leaving) {
        calculation.waiters.delete(waiter);
        waiter.reject(cancelledError());
      }
      if (calculation.waiters.size === 0) {
        // New requests start afresh rather than join a run that is being stopped.
        this.byKey.delete(calculation.key);
        calculation.controller.abort();
      }
    }
    return found;
  }

  private wait(calculation: Calculation<T>, clientQueryId: string | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = { clientQueryId, reject };
      calculation.waiters.add(waiter);
      void calculation.run.result.then(resolve, reject).finally(() => calculation.waiters.delete(waiter));
    });
  }
}
