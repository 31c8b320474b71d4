// The process's metrics, in one prom-client registry that GET /metrics serves. Hot paths import
// the bound counters below: each call is one increment (label children are made once, here).
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export const processMetrics = new Registry();

let defaultsOn = false;
/** Node's and the process's own (RSS, CPU, heap, event-loop lag, handles): on once something serves them. */
export function collectProcessDefaults(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ register: processMetrics });
}

const captureRequests = new Counter({
  name: 'hoglet_capture_requests_total',
  help: 'Capture requests (/e/, /batch/, /capture/, /track/, /engage/, /i/v0/e/, /s/) answered, by HTTP status.',
  labelNames: ['status'] as const,
  registers: [processMetrics],
});
const captureRequestsByStatus = new Map<number, Counter.Internal>();

/** One capture request answered with this status. */
export function countCaptureRequest(status: number): void {
  let child = captureRequestsByStatus.get(status);
  if (!child) captureRequestsByStatus.set(status, (child = captureRequests.labels(String(status))));
  child.inc();
}

const captureEvents = new Counter({
  name: 'hoglet_capture_events_total',
  help: 'Captured events by where they are: acknowledged (in the capture log, answered 200), inserted (in the event store), set_aside (refused by the store, in capture-log/refused/).',
  labelNames: ['status'] as const,
  registers: [processMetrics],
});
export const capturedEvents = {
  acknowledged: captureEvents.labels('acknowledged'),
  inserted: captureEvents.labels('inserted'),
  setAside: captureEvents.labels('set_aside'),
} as const;

/** One INSERT into the event store (a group commit's rows of one table). */
export const insertSeconds = new Histogram({
  name: 'hoglet_event_insert_duration_seconds',
  help: 'Time of one INSERT into the event store (a group commit of many events), by table.',
  labelNames: ['table'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processMetrics],
});

/** One query's calculation (all its statements), by kind (TrendsQuery, HogQLQuery, ...). */
const querySeconds = new Histogram({
  name: 'hoglet_query_duration_seconds',
  help: 'Time to calculate one query (all its statements), by query kind and outcome (ok or error). Cached answers are not calculations.',
  labelNames: ['kind', 'outcome'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [processMetrics],
});

/** Runs one query's calculation, timed into hoglet_query_duration_seconds. */
export async function timeQuery<T>(kind: string, calculate: () => Promise<T>): Promise<T> {
  const done = querySeconds.startTimer({ kind });
  try {
    const result = await calculate();
    done({ outcome: 'ok' });
    return result;
  } catch (error) {
    done({ outcome: 'error' });
    throw error;
  }
}

const queryCache = new Counter({
  name: 'hoglet_query_cache_requests_total',
  help: 'Query reads that looked in the result cache: hit (answered from it) or miss (calculated, or its status answered). force_blocking and force_async never look.',
  labelNames: ['result'] as const,
  registers: [processMetrics],
});
export const queryCacheReads = { hit: queryCache.labels('hit'), miss: queryCache.labels('miss') } as const;

const serverErrors = new Counter({
  name: 'hoglet_http_server_errors_total',
  help: 'Answers with a 5xx status (each is also logged once: see docs/operating.md).',
  labelNames: ['status'] as const,
  registers: [processMetrics],
});
export function countServerError(status: number): void {
  serverErrors.labels(String(status)).inc();
}
