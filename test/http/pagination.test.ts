// Every list endpoint against the page parameters a script or a newcomer gets wrong: words,
// negatives, zero and numbers past 2^53. Each gets DRF's clamping (the default limit, offset 0)
// or an empty page past the end, never a 500 and never the first page for a far offset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';

const HUGE = '9007199254740992'; // 2^53, one past Number.MAX_SAFE_INTEGER
const HUGER = '1' + '0'.repeat(30); // past PostgreSQL's bigint too

interface Endpoint {
  name: string;
  url: (c: Credentials, ids: { insightId: number }) => string;
  /** `{count, next, previous, results}` with limit/offset, or the activity pages' `{total_count, ...}` with limit/page. */
  kind: 'offset' | 'page';
  defaultLimit: number;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'organizations', url: () => '/api/organizations/', kind: 'offset', defaultLimit: 100 },
  { name: 'projects', url: () => '/api/projects/', kind: 'offset', defaultLimit: 100 },
  { name: "an organization's projects", url: (c) => `/api/organizations/${c.organizationId}/projects/`, kind: 'offset', defaultLimit: 100 },
  { name: 'insights', url: (c) => `/api/projects/${c.projectId}/insights/`, kind: 'offset', defaultLimit: 100 },
  { name: 'insights (environments)', url: (c) => `/api/environments/${c.projectId}/insights/`, kind: 'offset', defaultLimit: 100 },
  { name: 'dashboards', url: (c) => `/api/projects/${c.projectId}/dashboards/`, kind: 'offset', defaultLimit: 100 },
  { name: 'dashboards (environments)', url: (c) => `/api/environments/${c.projectId}/dashboards/`, kind: 'offset', defaultLimit: 100 },
  { name: 'actions', url: (c) => `/api/projects/${c.projectId}/actions/`, kind: 'offset', defaultLimit: 100 },
  { name: 'project activity', url: (c) => `/api/projects/${c.projectId}/activity/`, kind: 'page', defaultLimit: 10 },
  { name: 'insights activity', url: (c) => `/api/projects/${c.projectId}/insights/activity/`, kind: 'page', defaultLimit: 10 },
  { name: "an insight's activity", url: (c, ids) => `/api/projects/${c.projectId}/insights/${ids.insightId}/activity/`, kind: 'page', defaultLimit: 10 },
];

describe.each(META_STORES)('list parameters on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  const ids = { insightId: 0 };

  const get = async (endpoint: Endpoint, query: string) => {
    const res = await t.request(alice.key, { method: 'GET', url: `${endpoint.url(alice, ids)}?${query}` });
    expect(res.statusCode, `${endpoint.name} ?${query}: ${res.body}`).toBe(200);
    return res.json() as { results: unknown[]; next: string | null; previous: string | null; count?: number; total_count?: number };
  };
  const total = (body: { count?: number; total_count?: number }) => body.count ?? body.total_count;
  const param = (link: string | null, name: string) => (link === null ? null : new URL(link).searchParams.get(name));

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    const api = `/api/projects/${alice.projectId}`;
    // One row at least in every list, two activity entries on the insight and the project.
    const insight = await t.request(alice.key, { method: 'POST', url: `${api}/insights/`, payload: { name: 'Signups' } });
    expect(insight.statusCode, insight.body).toBe(201);
    ids.insightId = insight.json().id;
    await t.request(alice.key, { method: 'PATCH', url: `${api}/insights/${ids.insightId}/`, payload: { name: 'Signups 2' } });
    await t.request(alice.key, { method: 'PATCH', url: `/api/projects/${alice.projectId}/`, payload: { name: 'Renamed' } });
    await t.request(alice.key, { method: 'PATCH', url: `/api/projects/${alice.projectId}/`, payload: { name: 'Renamed again' } });
    expect((await t.request(alice.key, { method: 'POST', url: `${api}/dashboards/`, payload: { name: 'Main' } })).statusCode).toBe(201);
    expect((await t.request(alice.key, { method: 'POST', url: `${api}/actions/`, payload: { name: 'Signed up' } })).statusCode).toBe(201);
  });
  afterAll(() => t.close());

  describe.each(ENDPOINTS.filter((e) => e.kind === 'offset'))('$name', (endpoint) => {
    it.each(['abc', '-5', '0', '1.5', ''])('limit=%s is the default limit', async (limit) => {
      // The page's own limit shows in its `previous` link (offset 1 makes one).
      const body = await get(endpoint, `limit=${limit}&offset=1`);
      expect(param(body.previous, 'limit')).toBe(String(endpoint.defaultLimit));
    });

    it('a limit past 2^53 is the 10,000 cap, not the default', async () => {
      const body = await get(endpoint, `limit=${HUGE}&offset=1`);
      expect(param(body.previous, 'limit')).toBe('10000');
    });

    it.each(['abc', '-5', '1.5'])('offset=%s is 0', async (offset) => {
      const first = await get(endpoint, '');
      const body = await get(endpoint, `offset=${offset}`);
      expect(body.results.length).toBeGreaterThan(0);
      expect(body.results).toEqual(first.results);
      expect(body.previous).toBeNull();
    });

    it.each([HUGE, HUGER])('offset=%s is an empty page past the end', async (offset) => {
      const body = await get(endpoint, `offset=${offset}`);
      expect(body.results).toEqual([]);
      expect(total(body)).toBeGreaterThan(0);
      expect(body.next).toBeNull();
      expect(Number(param(body.previous, 'offset'))).toBeGreaterThan(2 ** 52);
    });
  });

  describe.each(ENDPOINTS.filter((e) => e.kind === 'page'))('$name', (endpoint) => {
    it.each(['abc', '-5', '0', ''])('limit=%s is the default limit', async (limit) => {
      const body = await get(endpoint, `limit=${limit}&page=2`);
      expect(param(body.previous, 'limit')).toBe(String(endpoint.defaultLimit));
      expect(param(body.previous, 'page')).toBe('1');
    });

    it.each(['abc', '-5', '0'])('page=%s is the first page', async (page) => {
      const first = await get(endpoint, '');
      const body = await get(endpoint, `page=${page}`);
      expect(body.results.length).toBeGreaterThan(0);
      expect(body.results).toEqual(first.results);
      expect(body.previous).toBeNull();
    });

    it.each([HUGE, HUGER])('page=%s is an empty page past the end', async (page) => {
      const body = await get(endpoint, `page=${page}&limit=1000`);
      expect(body.results).toEqual([]);
      expect(total(body)).toBeGreaterThan(0);
      expect(body.next).toBeNull();
    });
  });
});
