// GET /metrics over the real app: Prometheus' text format, the counters capture, inserts, queries
// and the result cache move, the store's parts, the process defaults; loopback-only unless a token
// is configured; and every 5xx logged once with its request id, route and error.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { PARTS_TTL_MS } from '../../src/metrics/server-gauges.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, postBatch, runQuery, trendsQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

/** One sample per `name{labels}`, from Prometheus' text format (and a check that it is that format). */
function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  const typed = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line);
    if (meta) {
      if (meta[1] === 'TYPE') {
        expect(['counter', 'gauge', 'histogram', 'summary', 'untyped']).toContain(meta[3]);
        typed.add(meta[2]!);
      }
      continue;
    }
    // Values are Go floats to Prometheus: NaN in any case (prom-client writes `Nan`).
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/i.exec(line);
    expect(sample, `not a sample line: ${line}`).not.toBeNull();
    const [, name, labels = '', value] = sample!;
    // Every sample belongs to a declared metric (a histogram's _bucket, _sum and _count included).
    expect(typed.has(name!) || typed.has(name!.replace(/_(bucket|sum|count|total|created)$/, '')), name).toBe(true);
    samples.set(`${name}${labels.replace(/,\}$/, '}')}`, Number(value));
  }
  return samples;
}

async function scrape(t: TestApp): Promise<Map<string, number>> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(res.body);
}

const value = (samples: Map<string, number>, key: string) => samples.get(key) ?? 0;

describe.each(META_STORES)('GET /metrics on %s', (store) => {
  let t: TestApp;
  let who: Credentials;

  beforeAll(async () => {
    t = await createTestApp(store);
    who = await t.bootstrap('metrics@example.com');
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts capture requests and events, inserts, queries by kind and cache reads', async () => {
    const before = await scrape(t);
    await journeys(t, who, {
      alice: [ev('$pageview', '2024-03-01T10:00:00Z'), ev('$pageview', '2024-03-02T10:00:00Z')],
      bob: [ev('$pageview', '2024-03-02T11:00:00Z')],
    });
    const refused = await postBatch(t, { api_key: 'phc_no_such_token', batch: [{ event: 'x', distinct_id: 'd' }] });
    expect(refused.statusCode).toBe(401);
    // A preflight is not a capture request.
    await t.app.inject({ method: 'OPTIONS', url: '/batch/', headers: { origin: 'https://example.com', 'access-control-request-method': 'POST' } });

    const query = trendsQuery([{ kind: 'EventsNode', event: '$pageview', math: 'total' }], '2024-03-01', '2024-03-03');
    const first = await runQuery(t, who, query);
    expect(first.results[0].count).toBe(3);
    expect(first.is_cached).toBe(false);
    const second = await runQuery(t, who, query);
    expect(second.is_cached).toBe(true);
    const hogql = await runQuery(t, who, { kind: 'HogQLQuery', query: 'SELECT count() FROM events' });
    expect(hogql.results).toEqual([[3]]);

    const after = await scrape(t);
    const moved = (key: string) => value(after, key) - value(before, key);
    expect(moved('hoglet_capture_requests_total{status="200"}')).toBe(1);
    expect(moved('hoglet_capture_requests_total{status="401"}')).toBe(1);
    expect(moved('hoglet_capture_events_total{status="acknowledged"}')).toBe(3);
    // The query waited for the inserter, so the events are in the store.
    expect(moved('hoglet_capture_events_total{status="inserted"}')).toBe(3);
    expect(moved('hoglet_capture_events_total{status="set_aside"}')).toBe(0);
    expect(moved('hoglet_event_insert_duration_seconds_count{table="events"}')).toBeGreaterThanOrEqual(1);
    expect(moved('hoglet_query_duration_seconds_count{kind="TrendsQuery",outcome="ok"}')).toBe(1);
    expect(moved('hoglet_query_duration_seconds_count{kind="HogQLQuery",outcome="ok"}')).toBe(1);
    expect(moved('hoglet_query_duration_seconds_bucket{le="+Inf",kind="TrendsQuery",outcome="ok"}')).toBe(1);
    expect(moved('hoglet_query_cache_requests_total{result="hit"}')).toBe(1);
    expect(moved('hoglet_query_cache_requests_total{result="miss"}')).toBe(2);

    expect(after.get('hoglet_capture_backlog_events')).toBe(0);
    expect(after.get('hoglet_capture_set_aside_events')).toBe(0);
    expect(after.get('hoglet_capture_log_bytes')).toBeGreaterThanOrEqual(0);
    // The parts are read at most every PARTS_TTL_MS: scraped again at once, the store is not asked.
    expect(after.get('hoglet_event_store_rows{table="events"}')).toBe(before.get('hoglet_event_store_rows{table="events"}'));
    await new Promise((resolve) => setTimeout(resolve, PARTS_TTL_MS + 50));
    const later = await scrape(t);
    expect(later.get('hoglet_event_store_parts{table="events"}')).toBeGreaterThanOrEqual(1);
    expect(later.get('hoglet_event_store_rows{table="events"}')).toBeGreaterThanOrEqual(3);
    expect(later.get('hoglet_event_store_bytes{table="events"}')).toBeGreaterThan(0);
    expect(after.get('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(after.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('serves loopback callers only, unless a remote scraper presents the configured token', async () => {
    const remote = { method: 'GET' as const, url: '/metrics', remoteAddress: '203.0.113.9' };
    const refused = await t.app.inject(remote);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ type: 'authentication_error', code: 'permission_denied' });
    // A reverse proxy on this machine connects from loopback: what it relays is remote.
    const relayed = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(relayed.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(200);

    const token = 'scrape-me-0123456789abcdef';
    const withToken = await createTestApp(store, { HOGLET_METRICS_TOKEN: token });
    try {
      const allowed = await withToken.app.inject({ ...remote, headers: { authorization: `Bearer ${token}` } });
      expect(allowed.statusCode).toBe(200);
      expect(allowed.body).toContain('# TYPE hoglet_capture_requests_total counter');
      for (const authorization of [undefined, `Bearer ${token}x`, 'Bearer wrong', token]) {
        const res = await withToken.app.inject({ ...remote, headers: authorization ? { authorization } : {} });
        expect(res.statusCode, String(authorization)).toBe(403);
      }
    } finally {
      await withToken.close();
    }
  });

  it('logs every 5xx once with its request id, route and error, and counts it', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const broken = await createTestApp(store);
    const c = await broken.bootstrap('broken@example.com');
    const app = await buildApp(broken.services, { logger: { level: 'warn', stream } });
    try {
      const before = parseMetrics((await app.inject({ method: 'GET', url: '/metrics' })).body);
      await broken.services.meta.close();
      const res = await app.inject({ method: 'GET', url: `/api/projects/${c.projectId}/`, headers: { authorization: `Bearer ${c.key}` } });
      expect(res.statusCode).toBe(500);
      const requestId = String(res.headers['x-request-id']);
      const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.reqId === requestId);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: 50, msg: 'answered 500', method: 'GET', route: '/api/projects/:id/', status: 500, code: 'unhandled' });
      expect(logged[0].err.message).toBeTruthy();
      // A 503 (the store is unavailable: retry later) at warn, once, with its cause.
      const health = await app.inject({ method: 'GET', url: '/_health' });
      expect(health.statusCode).toBe(503);
      // Other warnings of that request (what /_health could not read) are lines of their own; no error line.
      const ofHealth = lines.map((line) => JSON.parse(line)).filter((line) => line.reqId === health.headers['x-request-id']);
      expect(ofHealth.filter((line) => line.level >= 50)).toEqual([]);
      const answered = ofHealth.filter((line) => line.msg === 'answered 503');
      expect(answered).toHaveLength(1);
      expect(answered[0]).toMatchObject({ level: 40, route: '/_health', status: 503 });
      expect(answered[0].err.message).toBeTruthy();
      const after = parseMetrics((await app.inject({ method: 'GET', url: '/metrics' })).body);
      const moved = (key: string) => value(after, key) - value(before, key);
      expect(moved('hoglet_http_server_errors_total{status="500"}')).toBe(1);
      expect(moved('hoglet_http_server_errors_total{status="503"}')).toBe(1);
    } finally {
      await app.close();
      await broken.close().catch(() => undefined);
    }
  });
});
