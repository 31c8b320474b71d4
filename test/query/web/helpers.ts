// What the web analytics API tests share: a web query kind as a saved insight, on a dashboard, and
// through /query/ in every refresh mode (the same checks for WebOverviewQuery and WebStatsTableQuery).
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Credentials, TestApp } from '../../helpers/app.js';

/** The project's insight and dashboard endpoints, as `who`; each fails the test on an unexpected status. */
export function insightApi(t: TestApp, who: Credentials) {
  const api = `/api/projects/${who.projectId}`;
  const getInsight = (id: number, params: string) => t.request(who.key, { method: 'GET', url: `${api}/insights/${id}/${params}` });
  return {
    async createInsight(payload: Record<string, unknown>) {
      const res = await t.request(who.key, { method: 'POST', url: `${api}/insights/`, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    },
    getInsight,
    /** Puts the insight on a new dashboard with these filters and refreshes it from there. */
    async refreshFromDashboard(insightId: number, filters: Record<string, unknown>): Promise<LightMyRequestResponse> {
      const dashboard = await t.request(who.key, { method: 'POST', url: `${api}/dashboards/`, payload: { name: 'Web', filters } });
      expect(dashboard.statusCode, dashboard.body).toBe(201);
      const patched = await t.request(who.key, { method: 'PATCH', url: `${api}/insights/${insightId}/`, payload: { dashboards: [dashboard.json().id] } });
      expect(patched.statusCode, patched.body).toBe(200);
      const res = await getInsight(insightId, `?from_dashboard=${dashboard.json().id}&refresh=blocking`);
      expect(res.statusCode, res.body).toBe(200);
      return res;
    },
  };
}

/**
 * POSTs the query with force_blocking (a fresh answer, checked by `checkFirst`), then with every
 * other refresh mode: the cached modes answer the same results at once, the async ones now or
 * through GET /query/:id/ once complete.
 */
export async function expectEveryRefreshMode(t: TestApp, who: Credentials, query: unknown, checkFirst: (results: any) => void) {
  const api = `/api/projects/${who.projectId}`;
  const post = (refresh: string) => t.request(who.key, { method: 'POST', url: `${api}/query/`, payload: { query, refresh } });
  const first = await post('force_blocking');
  expect(first.statusCode, first.body).toBe(200);
  expect(first.json().is_cached).toBe(false);
  checkFirst(first.json().results);
  for (const mode of ['blocking', 'force_cache', 'lazy_async']) {
    const res = await post(mode);
    expect(res.statusCode, mode).toBe(200);
    expect(res.json(), mode).toMatchObject({ is_cached: true, results: first.json().results });
  }
  for (const mode of ['async', 'force_async']) {
    const res = await post(mode);
    expect([200, 202], mode).toContain(res.statusCode);
    const body = res.json();
    if (body.results) expect(body.results, mode).toEqual(first.json().results);
    else {
      const id = body.query_status.id as string;
      let status = body.query_status;
      for (let i = 0; i < 200 && !status.complete; i++) {
        await new Promise((r) => setTimeout(r, 25));
        status = (await t.request(who.key, { method: 'GET', url: `${api}/query/${encodeURIComponent(id)}/` })).json().query_status;
      }
      expect(status.results.results, mode).toEqual(first.json().results);
    }
  }
}
