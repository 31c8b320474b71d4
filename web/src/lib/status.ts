// Background calculations: Hoglet answers an async refresh with a `query_status` whose id the app
// polls at GET /api/projects/:id/query/:query_id/ (202 running, 200 done, 400/500 failed).
import { api, ApiError } from '../api';

export interface QueryStatus {
  id: string;
  complete?: boolean;
  error?: boolean;
  error_message?: string | null;
  start_time?: string;
  /** When complete: the body /query/ would have answered (results, last_refresh...). */
  results?: CalculatedBody | null;
}

/** What a finished calculation carries (PostHog's cached-response fields the app reads). */
export interface CalculatedBody {
  results: unknown;
  last_refresh?: string | null;
  cache_target_age?: string | null;
  is_cached?: boolean;
}

export class CalculationFailed extends Error {}

/** A client query id, so the status can be polled and cancelled by a name the app chose. */
export function newQueryId(): string {
  // randomUUID needs a secure context; a Hoglet served over plain HTTP on a LAN is not one.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(timer); reject(new DOMException('Aborted', 'AbortError')); }, { once: true });
  });

/**
 * Polls until the calculation is complete: every 500 ms at first, backing off to 5 s, so a long
 * calculation costs few requests. Resolves with the finished body; a failed one throws with the
 * server's message.
 */
export async function waitForStatus(project: string, id: string, signal?: AbortSignal): Promise<CalculatedBody> {
  let delay = 500;
  for (;;) {
    await sleep(delay, signal);
    let status: QueryStatus;
    try {
      status = (await api<{ query_status: QueryStatus }>(`/api/projects/${project}/query/${encodeURIComponent(id)}/`, { signal })).query_status;
    } catch (e) {
      const failed = e instanceof ApiError ? (e.body as { query_status?: QueryStatus } | null)?.query_status : null;
      if (failed?.complete) throw new CalculationFailed(failed.error_message || 'The calculation failed.');
      throw e;
    }
    if (status.complete) {
      if (status.error) throw new CalculationFailed(status.error_message || 'The calculation failed.');
      return status.results ?? { results: null };
    }
    delay = Math.min(5000, Math.round(delay * 1.5));
  }
}

/** Stops a background calculation the app started (best effort: it may have just finished). */
export function cancelCalculation(project: string, id: string): Promise<unknown> {
  return api(`/api/projects/${project}/query/${encodeURIComponent(id)}/`, { method: 'DELETE' }).catch(() => undefined);
}
