// Who may reach insights, dashboards, sharing configurations and query statuses, and what hostile
// requests get: the scope every endpoint needs (under /api/projects/, /api/environments/ and
// @current), another organization's objects looking as if they did not exist, key ceilings, and
// bodies, paths and query strings that must be refused with PostHog's error body, never a 5xx,
// without writing anything.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

const TRENDS = {
  kind: 'TrendsQuery',
  series: [{ kind: 'EventsNode', event: '$pageview' }],
  dateRange: { date_from: '2024-01-01', date_to: '2024-01-03' },
};
const VIZ = { kind: 'InsightVizNode', source: TRENDS };
const ERROR_KEYS = ['attr', 'code', 'detail', 'type'];
const NOT_FOUND = { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null };

/** Scopes handed to keys in the scope matrix: every one an endpoint here needs, their write forms, and unrelated ones. */
const SCOPE_POOL = [
  'insight:read', 'insight:write', 'dashboard:read', 'dashboard:write', 'sharing_configuration:read',
  'sharing_configuration:write', 'activity_log:read', 'activity_log:write', 'query:read', 'query:write',
  'project:read', 'project:write', 'action:write',
];
/** A scope grants itself, and a write scope grants its read. */
const grants = (granted: string, required: string) =>
  granted === required || (required.endsWith(':read') && granted === required.replace(/:read$/, ':write'));

const nestedObjects = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** The fields a client stores (or the server derives on write) of an insight: what a refused write must leave alone. */
const STORED = [
  'id', 'short_id', 'name', 'derived_name', 'description', 'filters', 'query', 'order', 'deleted', 'dashboards', 'tags',
  'favorited', 'saved', 'is_sample', 'created_at', 'created_by', 'updated_at', 'last_modified_at', 'last_modified_by',
];
const stored = (insight: Record<string, unknown>) => Object.fromEntries(STORED.map((k) => [k, insight[k]]));

const parsed = (res: LightMyRequestResponse): unknown => {
  try {
    return res.json();
  } catch {
    return res.body;
  }
};

/**
 * A 4xx (of the given statuses) in PostHog's {type, code, detail, attr} shape, matching `expected`.
 * `soft` keeps the test going, so that a loop reports every request that fails, not just the first.
 */
function expectError(res: LightMyRequestResponse, status: number | number[], expected: Record<string, unknown> = {}, label = '', soft = false): void {
  const check = soft ? expect.soft : expect;
  const statuses = Array.isArray(status) ? status : [status];
  check(statuses, `${label} answered ${res.statusCode} ${res.body.slice(0, 300)}`).toContain(res.statusCode);
  if (res.statusCode < 400) return;
  const body = parsed(res);
  check(body !== null && typeof body === 'object' ? Object.keys(body).sort() : body, label).toEqual(ERROR_KEYS);
  check(body, label).toMatchObject(expected);
}

/** Anything but a 5xx; a 4xx must be PostHog's error body. */
function expectNo5xx(res: LightMyRequestResponse, label: string, soft = false): void {
  const check = soft ? expect.soft : expect;
  check(res.statusCode, `${label} answered ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode >= 400 && res.statusCode < 500 && res.statusCode !== 405) {
    const body = parsed(res);
    check(body !== null && typeof body === 'object' ? Object.keys(body).sort() : body, label).toEqual(ERROR_KEYS);
  }
}

const describeValue = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 50 ? `${text.slice(0, 40)}… (${text.length} chars)` : text;
};

interface Endpoint {
  label: string;
  method: Method;
  /** The path after /api/projects/:id (or its other spellings). */
  path: () => string;
  payload?: () => unknown;
  scope: string;
  ok: number;
}

describe.each(META_STORES)('insights, dashboards and query status access on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let mallory: Credentials;
  /** Alice's objects the scope matrix works on. */
  const fx = { insight: { id: 0, short_id: '' }, dashboard: { id: 0 }, queryId: 'matrix-query' };
  const keys: Record<string, string> = {};

  const projects = (c: Credentials = alice) => `/api/projects/${c.projectId}`;
  const raw = (key: string, method: Method, url: string, body: string | Buffer) =>
    t.request(key, { method, url, payload: body, headers: { 'content-type': 'application/json' } });

  const createInsight = async (payload: Record<string, unknown> = {}, who: Credentials = alice, projectId = who.projectId) => {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${projectId}/insights/`, payload: { name: 'an insight', query: VIZ, ...payload } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const createDashboard = async (payload: Record<string, unknown> = {}, who: Credentials = alice) => {
    const res = await t.request(who.key, { method: 'POST', url: `${projects(who)}/dashboards/`, payload: { name: 'D', ...payload } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const getInsight = async (id: number | string, who: Credentials = alice) => {
    const res = await t.request(who.key, { method: 'GET', url: `${projects(who)}/insights/${id}/` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const getDashboard = async (id: number, who: Credentials = alice) => {
    const res = await t.request(who.key, { method: 'GET', url: `${projects(who)}/dashboards/${id}/` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const insightCount = async (who: Credentials = alice) =>
    (await t.request(who.key, { method: 'GET', url: `${projects(who)}/insights/?basic=true&limit=1` })).json().count as number;
  const dashboardCount = async (who: Credentials = alice) =>
    (await t.request(who.key, { method: 'GET', url: `${projects(who)}/dashboards/?limit=1` })).json().count as number;
  const myLastViewed = async (who: Credentials = alice) =>
    ((await t.request(who.key, { method: 'GET', url: `${projects(who)}/insights/my_last_viewed/` })).json() as { id: number }[]).map((i) => i.id);
  const sharingOf = async (id: number, who: Credentials = alice) =>
    (await t.request(who.key, { method: 'GET', url: `${projects(who)}/insights/${id}/sharing/` })).json();
  /** Starts a background calculation under a client query id and waits for it to finish. */
  const finishedQuery = async (who: Credentials, clientQueryId: string) => {
    const res = await t.request(who.key, {
      method: 'POST',
      url: `${projects(who)}/query/`,
      payload: { query: TRENDS, refresh: 'force_async', client_query_id: clientQueryId },
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().query_status).toMatchObject({ id: clientQueryId, complete: false });
    await t.services.results.drain();
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    mallory = await t.bootstrap('mallory@example.com', { organization: 'Mallory Ltd' });
    await journeys(t, alice, {
      a: [ev('$pageview', '2024-01-01T10:00:00Z'), ev('$pageview', '2024-01-02T10:00:00Z')],
      b: [ev('$pageview', '2024-01-02T11:00:00Z')],
    });
    await journeys(t, mallory, { m: [ev('$pageview', '2024-01-03T10:00:00Z')] });
    fx.insight = await createInsight({ name: 'Matrix insight' });
    fx.dashboard = await createDashboard({ name: 'Matrix dashboard' });
    const shared = await t.request(alice.key, { method: 'PATCH', url: `${projects()}/insights/${fx.insight.id}/sharing/`, payload: { enabled: true } });
    expect(shared.statusCode, shared.body).toBe(200);
    await finishedQuery(alice, fx.queryId);
    for (const scope of SCOPE_POOL) keys[scope] = await t.key(alice.email, [scope]);
  });
  afterAll(() => t.close());

  const ENDPOINTS: Endpoint[] = [
    { label: 'GET insights/', method: 'GET', path: () => '/insights/', scope: 'insight:read', ok: 200 },
    { label: 'POST insights/', method: 'POST', path: () => '/insights/', payload: () => ({ name: 'scoped', query: VIZ }), scope: 'insight:write', ok: 201 },
    { label: 'GET insights/:id/', method: 'GET', path: () => `/insights/${fx.insight.id}/`, scope: 'insight:read', ok: 200 },
    { label: 'GET insights/:short_id/', method: 'GET', path: () => `/insights/${fx.insight.short_id}/`, scope: 'insight:read', ok: 200 },
    { label: 'PATCH insights/:id/', method: 'PATCH', path: () => `/insights/${fx.insight.id}/`, payload: () => ({ description: 'patched' }), scope: 'insight:write', ok: 200 },
    { label: 'PUT insights/:id/', method: 'PUT', path: () => `/insights/${fx.insight.id}/`, payload: () => ({ name: 'Matrix insight' }), scope: 'insight:write', ok: 200 },
    { label: 'DELETE insights/:id/', method: 'DELETE', path: () => `/insights/${fx.insight.id}/`, scope: 'insight:write', ok: 405 },
    { label: 'GET insights/:id/activity/', method: 'GET', path: () => `/insights/${fx.insight.id}/activity/`, scope: 'activity_log:read', ok: 200 },
    { label: 'GET insights/activity/', method: 'GET', path: () => '/insights/activity/', scope: 'activity_log:read', ok: 200 },
    { label: 'POST insights/:id/viewed/', method: 'POST', path: () => `/insights/${fx.insight.id}/viewed/`, scope: 'insight:read', ok: 200 },
    { label: 'POST insights/viewed/', method: 'POST', path: () => '/insights/viewed/', payload: () => ({ insight_ids: [fx.insight.id] }), scope: 'insight:read', ok: 201 },
    { label: 'GET insights/my_last_viewed/', method: 'GET', path: () => '/insights/my_last_viewed/', scope: 'insight:read', ok: 200 },
    { label: 'POST insights/timing/', method: 'POST', path: () => '/insights/timing/', payload: () => ({ insight_id: fx.insight.id, duration: 12 }), scope: 'insight:read', ok: 201 },
    { label: 'GET insights/:id/sharing/', method: 'GET', path: () => `/insights/${fx.insight.id}/sharing/`, scope: 'sharing_configuration:read', ok: 200 },
    { label: 'PATCH insights/:id/sharing/', method: 'PATCH', path: () => `/insights/${fx.insight.id}/sharing/`, payload: () => ({ enabled: true }), scope: 'sharing_configuration:write', ok: 200 },
    { label: 'POST insights/:id/sharing/refresh/', method: 'POST', path: () => `/insights/${fx.insight.id}/sharing/refresh/`, scope: 'sharing_configuration:write', ok: 200 },
    { label: 'GET insights/:id/results.csv', method: 'GET', path: () => `/insights/${fx.insight.id}/results.csv`, scope: 'insight:read', ok: 200 },
    { label: 'GET insights.csv', method: 'GET', path: () => '/insights.csv', scope: 'insight:read', ok: 200 },
    { label: 'GET dashboards/', method: 'GET', path: () => '/dashboards/', scope: 'dashboard:read', ok: 200 },
    { label: 'POST dashboards/', method: 'POST', path: () => '/dashboards/', payload: () => ({ name: 'D' }), scope: 'dashboard:write', ok: 201 },
    { label: 'GET dashboards/:id/', method: 'GET', path: () => `/dashboards/${fx.dashboard.id}/`, scope: 'dashboard:read', ok: 200 },
    { label: 'PATCH dashboards/:id/', method: 'PATCH', path: () => `/dashboards/${fx.dashboard.id}/`, payload: () => ({ description: 'patched' }), scope: 'dashboard:write', ok: 200 },
    { label: 'DELETE dashboards/:id/', method: 'DELETE', path: () => `/dashboards/${fx.dashboard.id}/`, scope: 'dashboard:write', ok: 405 },
    { label: 'GET query/:query_id/', method: 'GET', path: () => `/query/${fx.queryId}/`, scope: 'query:read', ok: 200 },
    { label: 'DELETE query/:query_id/', method: 'DELETE', path: () => `/query/${fx.queryId}/`, scope: 'query:read', ok: 200 },
  ];

  describe('scopes', () => {
    const send = (key: string | null, e: Endpoint, prefix: string) => {
      const options: InjectOptions = { method: e.method, url: `${prefix}${e.path()}` };
      if (e.payload) options.payload = e.payload() as InjectOptions['payload'];
      return t.request(key, options);
    };

    it.each(ENDPOINTS)('$label needs $scope (write implies read), under every path spelling', async (e) => {
      const prefixes = [projects(), `/api/environments/${alice.projectId}`, '/api/projects/@current', '/api/environments/@current'];
      for (const scope of SCOPE_POOL) {
        const res = await send(keys[scope]!, e, prefixes[0]!);
        if (grants(scope, e.scope)) {
          expect(res.statusCode, `${scope}: ${res.body.slice(0, 200)}`).toBe(e.ok);
        } else {
          expect(res.statusCode, `${scope}: ${res.body.slice(0, 200)}`).toBe(403);
          expect(res.json(), scope).toEqual({
            type: 'authentication_error',
            code: 'permission_denied',
            detail: `API key missing required scope '${e.scope}'`,
            attr: null,
          });
        }
      }
      for (const prefix of prefixes) {
        const granted = await send(keys[e.scope]!, e, prefix);
        expect(granted.statusCode, `${prefix}: ${granted.body.slice(0, 200)}`).toBe(e.ok);
        const refused = await send(keys['project:read']!, e, prefix);
        expect(refused.statusCode, prefix).toBe(403);
        expect(refused.json().detail).toBe(`API key missing required scope '${e.scope}'`);

        const anonymous = await send(null, e, prefix);
        expect(anonymous.statusCode, prefix).toBe(401);
        expect(anonymous.json()).toEqual({
          type: 'authentication_error',
          code: 'not_authenticated',
          detail: 'Authentication credentials were not provided.',
          attr: null,
        });
        const forged = await send(`phx_${'x'.repeat(40)}`, e, prefix);
        expect(forged.statusCode, prefix).toBe(401);
        expect(forged.json()).toMatchObject({ type: 'authentication_error', code: 'authentication_failed', attr: null });
      }
    });

    it('an unauthenticated or under-scoped request writes nothing', async () => {
      const before = stored(await getInsight(fx.insight.id));
      const sharingBefore = await sharingOf(fx.insight.id);
      const count = await insightCount();
      for (const key of [null, keys['insight:read']!, keys['project:write']!]) {
        await t.request(key, { method: 'PATCH', url: `${projects()}/insights/${fx.insight.id}/`, payload: { name: 'hijacked', deleted: true } });
        await t.request(key, { method: 'POST', url: `${projects()}/insights/`, payload: { name: 'planted' } });
        await t.request(key, { method: 'PATCH', url: `${projects()}/insights/${fx.insight.id}/sharing/`, payload: { enabled: false } });
        await t.request(key, { method: 'POST', url: `${projects()}/insights/${fx.insight.id}/sharing/refresh/` });
      }
      expect(stored(await getInsight(fx.insight.id))).toEqual(before);
      expect(await sharingOf(fx.insight.id)).toEqual(sharingBefore);
      expect(await insightCount()).toBe(count);
    });
  });

  describe('isolation', () => {
    it("another organization's insights, dashboards, sharing, activity and query statuses look as if they did not exist", async () => {
      const secret = await createInsight({ name: 'Alice secret', tags: ['secret'] });
      const trashed = await createInsight({ name: 'Alice trashed' });
      expect((await t.request(alice.key, { method: 'PATCH', url: `${projects()}/insights/${trashed.id}/`, payload: { deleted: true } })).statusCode).toBe(200);
      const board = await createDashboard({ name: 'Alice board' });
      expect((await t.request(alice.key, { method: 'PATCH', url: `${projects()}/insights/${secret.id}/`, payload: { dashboards: [board.id] } })).statusCode).toBe(200);
      const sharing = (await t.request(alice.key, { method: 'PATCH', url: `${projects()}/insights/${secret.id}/sharing/`, payload: { enabled: true } })).json();
      await finishedQuery(alice, 'alice-only');
      await finishedQuery(alice, 'same-id');
      await finishedQuery(mallory, 'same-id');

      const insightBefore = stored(await getInsight(secret.id));
      const boardBefore = await getDashboard(board.id);
      const viewedBefore = await myLastViewed();
      const activityBefore = (await t.request(alice.key, { method: 'GET', url: `${projects()}/insights/activity/?limit=100` })).json();
      const [counts, dashboards] = [await insightCount(), await dashboardCount()];

      const A = projects();
      const M = projects(mallory);
      const requests: InjectOptions[] = [
        { method: 'GET', url: `${A}/insights/` },
        { method: 'POST', url: `${A}/insights/`, payload: { name: 'intruder' } },
        { method: 'GET', url: `${A}/insights/${secret.id}/` },
        { method: 'GET', url: `${A}/insights/${secret.short_id}/` },
        { method: 'GET', url: `${M}/insights/${secret.id}/` },
        { method: 'GET', url: `${M}/insights/${secret.short_id}/` },
        { method: 'GET', url: `/api/environments/${mallory.projectId}/insights/${secret.short_id}/` },
        { method: 'GET', url: `/api/projects/@current/insights/${secret.id}/` },
        { method: 'GET', url: `${M}/insights/${secret.id}/results.csv` },
        { method: 'GET', url: `${M}/insights/${secret.id}.csv` },
        { method: 'GET', url: `${A}/insights.csv` },
        { method: 'PATCH', url: `${M}/insights/${secret.id}/`, payload: { name: 'stolen' } },
        { method: 'PATCH', url: `${M}/insights/${secret.short_id}/`, payload: { deleted: true } },
        { method: 'PUT', url: `${M}/insights/${secret.id}/`, payload: { name: 'stolen' } },
        { method: 'PATCH', url: `${A}/insights/${secret.id}/`, payload: { name: 'stolen' } },
        { method: 'PATCH', url: `${M}/insights/${trashed.id}/`, payload: { deleted: false } },
        { method: 'PATCH', url: `${M}/insights/${trashed.short_id}/`, payload: { deleted: false } },
        { method: 'PATCH', url: `${A}/insights/${trashed.id}/`, payload: { deleted: false } },
        { method: 'DELETE', url: `${M}/insights/${secret.id}/` },
        { method: 'GET', url: `${M}/insights/${secret.id}/activity/` },
        { method: 'GET', url: `${M}/insights/${trashed.id}/activity/` },
        { method: 'GET', url: `${A}/insights/${secret.id}/activity/` },
        { method: 'GET', url: `${A}/insights/activity/` },
        { method: 'POST', url: `${M}/insights/${secret.id}/viewed/` },
        { method: 'POST', url: `${A}/insights/${secret.id}/viewed/` },
        { method: 'POST', url: `${A}/insights/viewed/`, payload: { insight_ids: [secret.id] } },
        { method: 'GET', url: `${A}/insights/my_last_viewed/` },
        { method: 'GET', url: `${M}/insights/${secret.id}/sharing/` },
        { method: 'PATCH', url: `${M}/insights/${secret.id}/sharing/`, payload: { enabled: false } },
        { method: 'POST', url: `${M}/insights/${secret.id}/sharing/refresh/` },
        { method: 'GET', url: `${A}/insights/${secret.id}/sharing/` },
        { method: 'PATCH', url: `${A}/insights/${secret.id}/sharing/`, payload: { enabled: false } },
        { method: 'POST', url: `${A}/insights/${secret.id}/sharing/refresh/` },
        { method: 'GET', url: `${A}/dashboards/` },
        { method: 'POST', url: `${A}/dashboards/`, payload: { name: 'intruder' } },
        { method: 'GET', url: `${A}/dashboards/${board.id}/` },
        { method: 'GET', url: `${M}/dashboards/${board.id}/` },
        { method: 'PATCH', url: `${M}/dashboards/${board.id}/`, payload: { name: 'stolen', deleted: true } },
        { method: 'PATCH', url: `${A}/dashboards/${board.id}/`, payload: { name: 'stolen' } },
        { method: 'DELETE', url: `${M}/dashboards/${board.id}/` },
        { method: 'GET', url: `${A}/query/alice-only/` },
        { method: 'DELETE', url: `${A}/query/alice-only/` },
        { method: 'GET', url: `/api/environments/${alice.projectId}/query/same-id/` },
      ];
      for (const request of requests) {
        const res = await t.request(mallory.key, request);
        expect.soft(res.statusCode, `${request.method} ${request.url}: ${res.body.slice(0, 200)}`).toBe(404);
        expect.soft(parsed(res), `${request.method} ${request.url}`).toEqual(NOT_FOUND);
      }

      // Under her own project, Alice's query id is simply unknown; the same id is Mallory's own calculation.
      const unknown = await t.request(mallory.key, { method: 'GET', url: `${M}/query/alice-only/` });
      expectError(unknown, 404, { type: 'invalid_request', code: 'not_found' });
      expect((await t.request(mallory.key, { method: 'DELETE', url: `${M}/query/alice-only/` })).statusCode).toBeLessThan(500);
      const own = await t.request(mallory.key, { method: 'GET', url: `${M}/query/same-id/` });
      expect(own.statusCode).toBe(200);
      expect(own.json().query_status.results.results[0].data).toEqual([0, 0, 1]);

      // Alice's world is untouched.
      expect(stored(await getInsight(secret.id))).toEqual(insightBefore);
      expect((await t.request(alice.key, { method: 'GET', url: `${A}/insights/${trashed.id}/` })).statusCode).toBe(404);
      const boardAfter = await getDashboard(board.id);
      expect(boardAfter).toMatchObject({ name: 'Alice board', description: boardBefore.description, deleted: false });
      expect(boardAfter.tiles.map((tile: { id: number }) => tile.id)).toEqual(boardBefore.tiles.map((tile: { id: number }) => tile.id));
      expect(await sharingOf(secret.id)).toEqual(sharing);
      expect(await myLastViewed()).toEqual(viewedBefore);
      const activityAfter = (await t.request(alice.key, { method: 'GET', url: `${A}/insights/activity/?limit=100` })).json();
      expect(activityAfter.total_count).toBe(activityBefore.total_count);
      expect(activityAfter.results.some((entry: { user: { email?: string } | null }) => entry.user?.email === mallory.email)).toBe(false);
      expect(await insightCount()).toBe(counts);
      expect(await dashboardCount()).toBe(dashboards);
      for (const id of ['alice-only', 'same-id']) {
        const status = await t.request(alice.key, { method: 'GET', url: `${A}/query/${id}/` });
        expect(status.statusCode, id).toBe(200);
        expect(status.json().query_status.results.results[0].data, id).toEqual([1, 2, 0]);
      }
    });

    it("viewing another organization's insight ids records nothing anyone can see", async () => {
      const secret = await createInsight({ name: 'Viewed by nobody else' });
      const mine = await createInsight({ name: 'Mallory own' }, mallory);
      const aliceViewed = await myLastViewed();
      const aliceLastViewedAt = (await getInsight(secret.id)).last_viewed_at;
      expect(aliceLastViewedAt).toEqual(expect.any(String));
      const bulk = await t.request(mallory.key, { method: 'POST', url: `${projects(mallory)}/insights/viewed/`, payload: { insight_ids: [secret.id, mine.id] } });
      expect(bulk.statusCode).toBe(201);
      const single = await t.request(mallory.key, { method: 'POST', url: `${projects(mallory)}/insights/${secret.id}/viewed/` });
      expect(single.statusCode).toBe(404);
      expect(await myLastViewed(mallory)).not.toContain(secret.id);
      expect(await myLastViewed(mallory)).toContain(mine.id);
      expect(await myLastViewed()).toEqual(aliceViewed);
      const rows = await t.services.meta.db
        .selectFrom('insight_views')
        .selectAll()
        .where('insight_id', '=', secret.id)
        .execute();
      expect(rows.map((r) => r.user_id)).toEqual([alice.userId]);
      expect((await getInsight(secret.id)).last_viewed_at).toBe(aliceLastViewedAt);
    });

    it("another organization's dashboard cannot be linked, nor lend its filters", async () => {
      const board = await createDashboard({ name: 'Alice linked board', filters: { date_from: '2024-01-02' } });
      const mine = await createInsight({ name: 'Mallory linker' }, mallory);
      const minesBefore = stored(await getInsight(mine.id, mallory));
      const refused = {
        type: 'validation_error',
        code: 'does_not_exist',
        detail: `Invalid pk "${board.id}" - object does not exist.`,
        attr: 'dashboards',
      };
      const patch = await t.request(mallory.key, { method: 'PATCH', url: `${projects(mallory)}/insights/${mine.id}/`, payload: { name: 'renamed', dashboards: [board.id] } });
      expect(patch.statusCode).toBe(400);
      expect(patch.json()).toEqual(refused);
      expect(stored(await getInsight(mine.id, mallory))).toEqual(minesBefore);

      const count = await insightCount(mallory);
      const post = await t.request(mallory.key, { method: 'POST', url: `${projects(mallory)}/insights/`, payload: { name: 'linked', query: VIZ, dashboards: [board.id] } });
      expect(post.statusCode).toBe(400);
      expect(post.json()).toEqual(refused);
      expect(await insightCount(mallory)).toBe(count);

      const through = await t.request(mallory.key, { method: 'GET', url: `${projects(mallory)}/insights/${mine.id}/?from_dashboard=${board.id}` });
      expectError(through, 400, { type: 'validation_error', attr: 'from_dashboard' });
      expect((await getDashboard(board.id)).tiles).toEqual([]);

      // Nor can she move a tile of Alice's dashboard through her own.
      const aliceInsight = await createInsight({ name: 'On the board', dashboards: [board.id] });
      const tileId = (await getDashboard(board.id)).tiles[0].id;
      const own = await createDashboard({ name: 'Mallory board' }, mallory);
      const tile = await t.request(mallory.key, { method: 'PATCH', url: `${projects(mallory)}/dashboards/${own.id}/`, payload: { tiles: [{ id: tileId, deleted: true }] } });
      expectError(tile, 400, { type: 'validation_error', code: 'does_not_exist', attr: 'tiles__0__id' });
      expect((await getDashboard(board.id)).tiles.map((t_: { insight: { id: number } }) => t_.insight.id)).toEqual([aliceInsight.id]);
    });

    it('a key whose ceiling leaves the project out is refused with 403 on every endpoint; lists never show other projects', async () => {
      const second = (await t.request(alice.key, { method: 'POST', url: '/api/projects/', payload: { name: 'Second project' } })).json();
      // Creating a project makes it current; the other tests' @current is the first one.
      await t.services.repositories.users.setCurrent(alice.userId, alice.organizationId, alice.projectId);
      const elsewhere = await createInsight({ name: 'In the second project' }, alice, second.id);
      const narrow = await t.key(alice.email, ['*'], { teams: [second.id] });
      // (timing has a test of its own below)
      for (const e of ENDPOINTS.filter((endpoint) => endpoint.label !== 'POST insights/timing/')) {
        for (const prefix of [projects(), `/api/environments/${alice.projectId}`, '/api/projects/@current']) {
          const options: InjectOptions = { method: e.method, url: `${prefix}${e.path()}` };
          if (e.payload) options.payload = e.payload() as InjectOptions['payload'];
          const res = await t.request(narrow, options);
          expect.soft(res.statusCode, `${e.label} ${prefix}: ${res.body.slice(0, 200)}`).toBe(403);
          expect.soft(parsed(res), `${e.label} ${prefix}`).toEqual({
            type: 'authentication_error',
            code: 'permission_denied',
            detail: `API key does not have access to the requested project: ID ${alice.projectId}.`,
            attr: null,
          });
        }
      }
      const inSecond = await t.request(narrow, { method: 'GET', url: `/api/projects/${second.id}/insights/` });
      expect(inSecond.statusCode).toBe(200);
      expect(inSecond.json().results.map((i: { id: number }) => i.id)).toEqual([elsewhere.id]);

      const orgNarrow = await t.key(alice.email, ['*'], { organizations: [mallory.organizationId] });
      const orgRefused = await t.request(orgNarrow, { method: 'GET', url: `${projects()}/insights/` });
      expectError(orgRefused, 403, { type: 'authentication_error', code: 'permission_denied' });

      // Lists of the first project show none of the second project's or Mallory's insights.
      const malloryInsight = await createInsight({ name: 'Mallory listed' }, mallory);
      await t.request(alice.key, { method: 'POST', url: `/api/projects/${second.id}/insights/${elsewhere.id}/viewed/` });
      const foreign = [elsewhere.id, malloryInsight.id];
      for (const query of ['?limit=1000', '?limit=1000&basic=true', '?limit=1000&search=listed', '?limit=1000&search=second']) {
        const list = (await t.request(alice.key, { method: 'GET', url: `${projects()}/insights/${query}` })).json();
        const ids = list.results.map((i: { id: number }) => i.id);
        expect(ids.filter((id: number) => foreign.includes(id)), query).toEqual([]);
        expect(list.count, query).toBe(ids.length);
      }
      for (const shortId of [elsewhere.short_id, malloryInsight.short_id]) {
        const list = (await t.request(alice.key, { method: 'GET', url: `${projects()}/insights/?short_id=${shortId}` })).json();
        expect(list, shortId).toMatchObject({ count: 0, results: [] });
      }
      const csv = (await t.request(alice.key, { method: 'GET', url: `${projects()}/insights.csv?limit=1000` })).body;
      expect(csv).not.toContain('Mallory listed');
      expect(csv).not.toContain('In the second project');
      expect(await myLastViewed()).not.toContain(elsewhere.id);
      const boards = (await t.request(alice.key, { method: 'GET', url: `${projects()}/dashboards/?limit=1000` })).json();
      expect(boards.results.every((d: { team_id: number }) => d.team_id === alice.projectId)).toBe(true);
      const activity = (await t.request(alice.key, { method: 'GET', url: `${projects()}/insights/activity/?limit=1000` })).json();
      expect(activity.results.map((a: { item_id: string }) => a.item_id)).not.toContain(String(malloryInsight.id));
      expect(activity.results.map((a: { item_id: string }) => a.item_id)).not.toContain(String(elsewhere.id));
    });

    it('timing telemetry is project-scoped like every other insight endpoint', async () => {
      const requests: [string, string, number][] = [
        [mallory.key, `${projects()}/insights/timing/`, 404],
        [mallory.key, `/api/environments/${alice.projectId}/insights/timing/`, 404],
        [alice.key, '/api/projects/987654/insights/timing/', 404],
        [await t.key(alice.email, ['insight:read'], { teams: [987654] }), `${projects()}/insights/timing/`, 403],
      ];
      for (const [key, url, status] of requests) {
        const res = await t.request(key, { method: 'POST', url, payload: { insight_id: fx.insight.id, duration: 1 } });
        expect.soft(res.statusCode, url).toBe(status);
        expect.soft(parsed(res), url).toMatchObject({ type: status === 404 ? 'invalid_request' : 'authentication_error' });
      }
    });

    it('a sharing token opens its one insight, read-only, in its own project only', async () => {
      const shown = await createInsight({ name: 'Shared one' });
      const hidden = await createInsight({ name: 'Not shared' });
      const { access_token: token } = (await t.request(alice.key, { method: 'PATCH', url: `${projects()}/insights/${shown.id}/sharing/`, payload: { enabled: true } })).json();
      const list = await t.request(null, { method: 'GET', url: `${projects()}/insights/?sharing_access_token=${token}` });
      expect(list.statusCode).toBe(200);
      expect(list.json().results.map((i: { id: number }) => i.id)).toEqual([shown.id]);
      expect((await t.request(null, { method: 'GET', url: `${projects()}/insights/${shown.id}/?sharing_access_token=${token}` })).statusCode).toBe(200);
      expectError(await t.request(null, { method: 'GET', url: `${projects()}/insights/${hidden.id}/?sharing_access_token=${token}` }), 404, NOT_FOUND);
      expectError(await t.request(null, { method: 'GET', url: `${projects(mallory)}/insights/?sharing_access_token=${token}` }), 403, { code: 'permission_denied' });
      // Not a key for writes or for the other endpoints.
      expect((await t.request(null, { method: 'PATCH', url: `${projects()}/insights/${shown.id}/?sharing_access_token=${token}`, payload: { name: 'x' } })).statusCode).toBe(401);
      expect((await t.request(null, { method: 'GET', url: `${projects()}/insights/${shown.id}/sharing/?sharing_access_token=${token}` })).statusCode).toBe(401);
      expect((await t.request(null, { method: 'GET', url: `${projects()}/dashboards/?sharing_access_token=${token}` })).statusCode).toBe(401);
      await t.request(alice.key, { method: 'PATCH', url: `${projects()}/insights/${shown.id}/sharing/`, payload: { enabled: false } });
      expectError(await t.request(null, { method: 'GET', url: `${projects()}/insights/${shown.id}/?sharing_access_token=${token}` }), 403, { code: 'permission_denied' });
    });
  });

  describe('hostile input', () => {
    /** Values of the wrong type for one field or another, plus sizes and characters that break naive stores. */
    const HOSTILE: unknown[] = [
      12345, 1.5, 1e308, -1, 'yes', '', '\u0000', 'a\u0000b', '\ud800', "'; drop table insights; --", 'x'.repeat(20_000), false,
      { a: 1 }, { $ne: 1 }, [1, 2], ['a'], [[[]]], null, Array(10_000).fill(1), Array(10_000).fill('x'), [{ key: '\u0000', value: '\u0000' }],
    ];
    const INSIGHT_FIELDS = ['short_id', 'name', 'derived_name', 'description', 'filters', 'query', 'order', 'deleted', 'dashboards', 'tags', 'favorited', 'saved'];
    const DASHBOARD_FIELDS = ['name', 'description', 'pinned', 'filters', 'tags', 'deleted', 'tiles'];

    it('every insight field survives every wrong-typed value on create and update: a 2xx or a 4xx, never a 5xx, and a refusal writes nothing', async () => {
      const target = await createInsight({ name: 'Hostile target' });
      let snapshot = stored(await getInsight(target.id));
      const countBefore = await insightCount();
      let createdLive = 0;
      for (const field of INSIGHT_FIELDS) {
        for (const value of HOSTILE) {
          const label = `${field}=${describeValue(value)}`;
          const patch = await t.request(alice.key, { method: 'PATCH', url: `${projects()}/insights/${target.id}/`, payload: { [field]: value } });
          expectNo5xx(patch, `PATCH ${label}`);
          if (patch.statusCode >= 400) {
            expect(stored(await getInsight(target.id)), `PATCH ${label} was refused but wrote`).toEqual(snapshot);
          } else {
            snapshot = stored(await getInsight(target.id));
          }
          const post = await t.request(alice.key, { method: 'POST', url: `${projects()}/insights/`, payload: { [field]: value } });
          expectNo5xx(post, `POST ${label}`);
          if (post.statusCode === 201 && post.json().deleted === false) createdLive += 1;
        }
      }
      expect(await insightCount()).toBe(countBefore + createdLive);
    });

    it("refuses what PostHog's serializer refuses, naming the field, and stores nothing", async () => {
      const target = await createInsight({ name: 'Validated', tags: ['kept'] });
      const taken = target.short_id;
      const cases: [Record<string, unknown>, Record<string, unknown>][] = [
        [{ name: 12345 }, { attr: 'name' }],
        [{ name: 'x'.repeat(401) }, { code: 'max_length', detail: 'Ensure this field has no more than 400 characters.', attr: 'name' }],
        [{ description: 'x'.repeat(401) }, { code: 'max_length', attr: 'description' }],
        [{ derived_name: ['a'] }, { attr: 'derived_name' }],
        [{ deleted: 'yes' }, { detail: 'Must be a valid boolean.', attr: 'deleted' }],
        [{ deleted: null }, { code: 'null', attr: 'deleted' }],
        [{ favorited: 'true' }, { attr: 'favorited' }],
        [{ saved: 1 }, { attr: 'saved' }],
        [{ order: 'first' }, { attr: 'order' }],
        [{ order: 2 ** 31 }, { attr: 'order' }],
        [{ tags: { a: 1 } }, { code: 'not_a_list', attr: 'tags' }],
        [{ tags: null }, { attr: 'tags' }],
        [{ tags: Array(10_000).fill('x') }, { attr: 'tags' }],
        [{ tags: [1] }, { attr: 'tags__0' }],
        [{ dashboards: { a: 1 } }, { code: 'not_a_list', attr: 'dashboards' }],
        [{ dashboards: Array(10_000).fill(1) }, { attr: 'dashboards' }],
        [{ dashboards: ['1'] }, { attr: 'dashboards__0' }],
        [{ dashboards: [987654] }, { code: 'does_not_exist', attr: 'dashboards' }],
        [{ filters: [1, 2] }, { attr: 'filters' }],
        [{ filters: 'TRENDS' }, { attr: 'filters' }],
        [{ query: [VIZ] }, { attr: 'query' }],
        [{ query: 'TrendsQuery' }, { attr: 'query' }],
        [{ query: { kind: 'NoSuchQuery' } }, { code: 'invalid_choice', attr: 'query' }],
        [{ query: { kind: 'InsightVizNode', source: 'TrendsQuery' } }, { attr: 'query' }],
        [{ query: { kind: 'InsightVizNode', source: { kind: 'NoSuchQuery' } } }, { attr: 'query' }],
        [{ query: { kind: 'InsightVizNode', source: [TRENDS] } }, { attr: 'query' }],
      ];
      for (const [payload, expected] of cases) {
        const label = describeValue(payload);
        const before = stored(await getInsight(target.id));
        const patch = await t.request(alice.key, { method: 'PATCH', url: `${projects()}/insights/${target.id}/`, payload: { name: 'must not stick', ...payload } });
        expectError(patch, 400, { type: 'validation_error', ...expected }, `PATCH ${label}`);
        expect(stored(await getInsight(target.id)), `PATCH ${label}`).toEqual(before);
        const count = await insightCount();
        const post = await t.request(alice.key, { method: 'POST', url: `${projects()}/insights/`, payload: { name: 'must not exist', ...payload } });
        expectError(post, 400, { type: 'validation_error', ...expected }, `POST ${label}`);
        expect(await insightCount(), `POST ${label}`).toBe(count);
      }
      // A query whose source is malformed is refused too, pointing into the query.
      for (const source of [{ ...TRENDS, series: 'x' }, { ...TRENDS, series: [{ kind: 'EventsNode', event: 5 }] }, { ...TRENDS, dateRange: [] }]) {
        const res = await t.request(alice.key, { method: 'PATCH', url: `${projects()}/insights/${target.id}/`, payload: { query: { kind: 'InsightVizNode', source } } });
        expectError(res, 400, { type: 'validation_error' }, describeValue(source));
        expect(res.json().attr, describeValue(source)).toMatch(/^query/);
      }
      // short_id is chosen on create only, and checked then.
      for (const [shortId, expected] of [['has space', {}], ['x'.repeat(13), {}], [taken, { code: 'unique' }]] as const) {
        const res = await t.request(alice.key, { method: 'POST', url: `${projects()}/insights/`, payload: { name: 'sid', short_id: shortId } });
        expectError(res, 400, { type: 'validation_error', attr: 'short_id', ...expected }, shortId);
      }
      expect((await getInsight(target.id)).tags).toEqual(['kept']);
    });

    it('read-only and unknown fields are ignored on create and update', async () => {
      const readOnly = {
        id: 987654,
        team_id: mallory.projectId,
        created_by: { id: mallory.userId },
        last_modified_by: { id: mallory.userId },
        created_at: '2000-01-01T00:00:00Z',
        updated_at: '2000-01-01T00:00:00Z',
        is_sample: true,
        last_refresh: '2000-01-01T00:00:00Z',
        result: [{ data: [999] }],
        effective_privilege_level: 99,
        user_access_level: 'owner',
        dashboard_tiles: [{ id: 1, dashboard_id: 1 }],
        hacker: 'x',
      };
      const mallorys = await insightCount(mallory);
      const created = await createInsight({ name: 'Read-only fields', ...readOnly });
      expect(created.id).not.toBe(987654);
      expect(created).toMatchObject({ name: 'Read-only fields', is_sample: false, dashboard_tiles: [] });
      expect(created.created_by.id).toBe(alice.userId);
      expect(created.created_at.startsWith('2000')).toBe(false);
      expect(created.last_refresh === null || !created.last_refresh.startsWith('2000')).toBe(true);
      expect(created.result).not.toEqual(readOnly.result);
      expect(created).not.toHaveProperty('hacker');
      expect(await insightCount(mallory)).toBe(mallorys);

      const before = stored(await getInsight(created.id));
      const patched = await t.request(alice.key, {
        method: 'PATCH',
        url: `${projects()}/insights/${created.id}/`,
        payload: { ...readOnly, short_id: 'renamedSid' },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      const after = await getInsight(created.id);
      for (const field of ['id', 'short_id', 'name', 'created_at', 'created_by', 'is_sample', 'last_modified_at', 'last_modified_by', 'query', 'filters']) {
        expect(after[field], field).toEqual(before[field]);
      }
      expect(after.result).not.toEqual(readOnly.result);
      expect((await t.request(alice.key, { method: 'GET', url: `${projects()}/insights/renamedSid/` })).statusCode).toBe(404);
    });

    it('deep nesting, non-JSON, empty and prototype-polluting bodies get a 4xx and write nothing', async () => {
      const target = await createInsight({ name: 'Deep target' });
      const board = await createDashboard({ name: 'Deep board' });
      const insightBefore = stored(await getInsight(target.id));
      const boardBefore = await getDashboard(board.id);
      const sharingBefore = await sharingOf(target.id);
      const [insights, dashboards] = [await insightCount(), await dashboardCount()];
      const item = `${projects()}/insights/${target.id}/`;
      const boardItem = `${projects()}/dashboards/${board.id}/`;
      const deep = nestedObjects(5_000);
      const deepList = nestedArrays(5_000);

      const bodies: [Method, string, string, string | null][] = [
        ['POST', `${projects()}/insights/`, `{"name":"deep","query":${deep}}`, 'query'],
        ['POST', `${projects()}/insights/`, `{"name":"deep","filters":${deep}}`, 'filters'],
        ['POST', `${projects()}/insights/`, `{"name":"deep","query":{"kind":"InsightVizNode","source":${deep}}}`, 'query'],
        ['POST', `${projects()}/insights/`, `{"name":"deep","tags":${deepList}}`, null],
        ['PATCH', item, `{"name":"deep","query":${deep}}`, 'query'],
        ['PATCH', item, `{"name":"deep","filters":${deepList}}`, 'filters'],
        ['PUT', item, `{"name":"deep","filters":${deep}}`, 'filters'],
        ['PATCH', item, `{"name":"deep","dashboards":${deepList}}`, null],
        ['POST', `${projects()}/dashboards/`, `{"name":"deep","filters":${deep}}`, null],
        ['POST', `${projects()}/dashboards/`, `{"name":"deep","filters":{"properties":${deepList}}}`, null],
        ['PATCH', boardItem, `{"name":"deep","filters":${deep}}`, null],
        ['PATCH', boardItem, `{"name":"deep","filters":{"x":${deep}}}`, null],
        ['PATCH', boardItem, `{"name":"deep","tiles":${deepList}}`, null],
        ['PATCH', `${item}sharing/`, `{"enabled":${deep}}`, 'enabled'],
        ['POST', `${projects()}/insights/viewed/`, `{"insight_ids":${deepList}}`, null],
      ];
      for (const [method, url, body, attr] of bodies) {
        const res = await raw(alice.key, method, url, body);
        expectError(res, 400, attr ? { attr } : {}, `${method} ${url} ${body.slice(0, 40)}`, true);
      }

      const junk: [Method, string][] = [
        ['POST', `${projects()}/insights/`], ['PATCH', item], ['PUT', item], ['PATCH', `${item}sharing/`], ['POST', `${projects()}/insights/viewed/`],
        ['POST', `${projects()}/dashboards/`], ['PATCH', boardItem],
      ];
      let created = { insights: 0, dashboards: 0 };
      for (const [method, url] of junk) {
        for (const body of ['not json', '{"name":', '[1]', '"a string"', 'null', '{"name":"p","__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}']) {
          const res = await raw(alice.key, method, url, body);
          expectError(res, 400, {}, `${method} ${url} ${body}`, true);
          if (body === 'not json') expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'parse_error' });
        }
        // An empty body is no fields at all: never a 5xx, and never a change.
        for (const empty of [await raw(alice.key, method, url, ''), await t.request(alice.key, { method, url })]) {
          expectNo5xx(empty, `${method} ${url} (empty)`, true);
          if (empty.statusCode === 201 && url.endsWith('/insights/')) created = { ...created, insights: created.insights + 1 };
          if (empty.statusCode === 201 && url.endsWith('/dashboards/')) created = { ...created, dashboards: created.dashboards + 1 };
        }
      }
      expect(({} as Record<string, unknown>).admin).toBeUndefined();

      const { updated_at: _u, last_modified_at: _m, saved: _s, ...insightStable } = insightBefore;
      const insightAfter = stored(await getInsight(target.id));
      expect(insightAfter).toMatchObject(insightStable);
      expect(await getDashboard(board.id)).toEqual(boardBefore);
      expect(await sharingOf(target.id)).toMatchObject({ enabled: sharingBefore.enabled });
      // Only the empty POSTs may have created something.
      expect(await insightCount()).toBe(insights + created.insights);
      expect(await dashboardCount()).toBe(dashboards + created.dashboards);
      const names = (await t.request(alice.key, { method: 'GET', url: `${projects()}/insights/?basic=true&limit=1000` })).json().results.map((i: { name: string }) => i.name);
      expect(names).not.toContain('deep');
      expect(names).not.toContain('p');
    });

    it('invalid UTF-8, lone surrogates and NUL characters in names never give a 5xx and never store a NUL', async () => {
      const invalid = Buffer.concat([Buffer.from('{"name":"bad '), Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80]), Buffer.from('"}')]);
      for (const url of [`${projects()}/insights/`, `${projects()}/dashboards/`]) {
        for (const body of [invalid, '{"name":"lone \\ud800 surrogate"}', '{"name":"nul \\u0000 inside","description":"d\\u0000"}', '{"name":"\\u0000"}']) {
          const res = await raw(alice.key, 'POST', url, body);
          expectNo5xx(res, `${url} ${body.toString().slice(0, 30)}`, true);
          if (res.statusCode === 201) {
            expect(res.json().name ?? '', `${url} ${body.toString().slice(0, 30)}`).not.toContain('\u0000');
            expect(res.json().description ?? '').not.toContain('\u0000');
          }
        }
      }
      const target = await createInsight({ name: 'NUL target', dashboards: [] });
      const board = await createDashboard({ name: 'NUL board' });
      expect((await t.request(alice.key, { method: 'PATCH', url: `${projects()}/insights/${target.id}/`, payload: { dashboards: [board.id] } })).statusCode).toBe(200);
      const tileId = (await getDashboard(board.id)).tiles[0].id;
      const nulPatches: [string, Record<string, unknown>][] = [
        [`${projects()}/insights/${target.id}/`, { name: 'a\u0000b', derived_name: '\u0000', description: '\u0000' }],
        [`${projects()}/insights/${target.id}/`, { tags: ['a\u0000b'] }],
        [`${projects()}/insights/${target.id}/`, { filters: { insight: 'TRENDS', events: [{ id: '\u0000' }] } }],
        [`${projects()}/dashboards/${board.id}/`, { name: 'a\u0000b', description: '\u0000', tags: ['\u0000'] }],
        [`${projects()}/dashboards/${board.id}/`, { tiles: [{ id: tileId, color: 'a\u0000b' }] }],
        [`${projects()}/dashboards/${board.id}/`, { tiles: [{ id: tileId, layouts: { sm: { x: '\u0000' } } }] }],
      ];
      for (const [url, payload] of nulPatches) {
        expectNo5xx(await t.request(alice.key, { method: 'PATCH', url, payload }), `PATCH ${url} ${describeValue(payload)}`, true);
      }
      const insight = await getInsight(target.id);
      expect(insight.name ?? '').not.toContain('\u0000');
      const dashboard = await getDashboard(board.id);
      expect(dashboard.name ?? '').not.toContain('\u0000');
      expect(dashboard.tiles[0].color ?? '').not.toContain('\u0000');
    });

    const ITEM_ROUTES: [Method, (id: string) => string][] = [
      ['GET', (id) => `/insights/${id}/`],
      ['PATCH', (id) => `/insights/${id}/`],
      ['PUT', (id) => `/insights/${id}/`],
      ['DELETE', (id) => `/insights/${id}/`],
      ['GET', (id) => `/insights/${id}/activity/`],
      ['POST', (id) => `/insights/${id}/viewed/`],
      ['GET', (id) => `/insights/${id}/sharing/`],
      ['PATCH', (id) => `/insights/${id}/sharing/`],
      ['POST', (id) => `/insights/${id}/sharing/refresh/`],
      ['GET', (id) => `/insights/${id}/results.csv`],
      ['GET', (id) => `/dashboards/${id}/`],
      ['PATCH', (id) => `/dashboards/${id}/`],
      ['DELETE', (id) => `/dashboards/${id}/`],
      ['GET', (id) => `/query/${id}/`],
    ];
    const requestItem = (method: Method, url: string) =>
      t.request(alice.key, method === 'PATCH' || method === 'PUT' ? { method, url, payload: { name: 'renamed' } } : { method, url });

    it('ids in paths that name nothing are 404; NUL characters 404 or 400; never a 5xx', async () => {
      const nothing = ['99999999999999999999', '2147483648', '-1', '0', '1.5', '1e3', '0x10', '%201', 'null', "1'%20or%20'1'='1", '%25', '..%2F1'];
      for (const [method, path] of ITEM_ROUTES) {
        for (const id of nothing) {
          const url = `${projects()}${path(id)}`;
          expectError(await requestItem(method, url), 404, { type: 'invalid_request', code: 'not_found' }, `${method} ${url}`, true);
        }
        for (const id of ['%00', 'a%00b', '1%00']) {
          const url = `${projects()}${path(id)}`;
          expectError(await requestItem(method, url), [400, 404], {}, `${method} ${url}`, true);
        }
      }
      // DELETE /query/:id/ answers 200 for an unknown id, as PostHog does; never a 5xx.
      for (const id of [...nothing, '%00', 'a%00b']) {
        expectNo5xx(await t.request(alice.key, { method: 'DELETE', url: `${projects()}/query/${id}/` }), `DELETE query ${id}`, true);
      }
      // Project ids that are not ids.
      for (const project of ['99999999999999999999', '%00', '-1', 'abc', '@other']) {
        for (const path of ['/insights/', '/dashboards/', `/insights/${fx.insight.id}/`, '/query/x/']) {
          expectError(await t.request(alice.key, { method: 'GET', url: `/api/projects/${project}${path}` }), 404, NOT_FOUND, `${project}${path}`, true);
        }
      }
      // The insight these requests were all about is untouched.
      expect((await getInsight(fx.insight.id)).deleted).toBe(false);
    });

    it("malformed URLs (bad percent-encoding, over-long ids) are a 4xx with PostHog's error body", async () => {
      // Refused before any route runs, so one route per resource stands for all.
      const routes: [Method, (id: string) => string][] = [
        ['GET', (id) => `/insights/${id}/`],
        ['PATCH', (id) => `/insights/${id}/sharing/`],
        ['GET', (id) => `/dashboards/${id}/`],
        ['DELETE', (id) => `/query/${id}/`],
      ];
      for (const [method, path] of routes) {
        for (const id of ['%FF', '%C0%80', '%E0%A4%A', 'x'.repeat(5_000)]) {
          const url = `${projects()}${path(id)}`;
          const res = await requestItem(method, url);
          expectError(res, [400, 404, 414], {}, `${method} ${url.slice(0, 90)}`, true);
        }
      }
    });

    it('query-string parameters are validated: refresh, format, from_dashboard and the list filters', async () => {
      const target = await createInsight({ name: 'Query string target' });
      const board = await createDashboard({ name: 'QS board' });
      const item = `${projects()}/insights/${target.id}/`;
      for (const url of [`${item}?refresh=banana`, `${projects()}/insights/?refresh=banana`, `${item}results.csv?refresh=banana`, `${projects()}/dashboards/${board.id}/?refresh=banana`]) {
        expectError(await t.request(alice.key, { method: 'GET', url }), 400, { type: 'validation_error', attr: 'refresh' }, url);
      }
      for (const url of [`${item}?format=xml`, `${projects()}/insights/?format=xml`, `${projects()}/insights/my_last_viewed/?format=xml`]) {
        expectError(await t.request(alice.key, { method: 'GET', url }), 404, NOT_FOUND, url);
      }
      const count = await insightCount();
      expectError(await t.request(alice.key, { method: 'POST', url: `${projects()}/insights/?format=xml`, payload: { name: 'xml' } }), 404, NOT_FOUND);
      expect(await insightCount()).toBe(count);
      const before = stored(await getInsight(target.id));
      expectError(await t.request(alice.key, { method: 'PATCH', url: `${item}?format=xml`, payload: { name: 'xml' } }), 404, NOT_FOUND);
      expect(stored(await getInsight(target.id))).toEqual(before);

      for (const value of ['abc', '-1', '0', '1.5', '99999999999', '%00', '987654']) {
        const url = `${item}?from_dashboard=${value}`;
        expectError(await t.request(alice.key, { method: 'GET', url }), 400, { type: 'validation_error', attr: 'from_dashboard' }, url);
      }
      expect((await t.request(alice.key, { method: 'GET', url: `${item}?from_dashboard=${board.id}` })).statusCode).toBe(200);

      expectError(await t.request(alice.key, { method: 'GET', url: `${projects()}/insights/?created_by=abc` }), 400, { attr: 'created_by' });
      expectError(await t.request(alice.key, { method: 'GET', url: `${projects()}/insights/?dashboards=[%22a%22]` }), 400, { attr: 'dashboards' });
      expectError(await t.request(alice.key, { method: 'GET', url: `${projects()}/insights/?order=password` }), 400, { attr: 'order' });
      const odd = ['short_id=%00', 'search=%00', 'search=%25%5F%5C', 'tags=%00', 'tags=[1]', 'limit=-1', 'limit=abc', 'offset=-5', 'limit=99999999999999999999',
        'saved=%00', 'user=1', 'favorited=x', `created_by=[${'1,'.repeat(2000)}1]`, 'basic=%00', 'order=-name', 'short_id=' + 'x'.repeat(5_000)];
      for (const query of odd) {
        const url = `${projects()}/insights/?${query}`;
        expectNo5xx(await t.request(alice.key, { method: 'GET', url }), url.slice(0, 80), true);
      }
      for (const query of ['limit=-1', 'offset=abc', 'limit=99999999999999999999']) {
        expectNo5xx(await t.request(alice.key, { method: 'GET', url: `${projects()}/dashboards/?${query}` }), `dashboards ${query}`);
        expectNo5xx(await t.request(alice.key, { method: 'GET', url: `${item}activity/?page=${query}` }), `activity ${query}`);
      }
    });

    it('viewed refuses empty, oversized and wrong-typed id lists, and a refusal records no view', async () => {
      const older = await createInsight({ name: 'Viewed long ago' });
      const newer = await createInsight({ name: 'Viewed just now' });
      const viewedBefore = await myLastViewed();
      expect(viewedBefore[0]).toBe(newer.id);
      const lastViewed = (await getInsight(older.id)).last_viewed_at;
      const url = `${projects()}/insights/viewed/`;
      const cases: [unknown, string][] = [
        [{ insight_ids: [] }, 'insight_ids'],
        [{ insight_ids: [older.id, ...Array(2_500).fill(1)] }, 'insight_ids'],
        [{ insight_ids: String(older.id) }, 'insight_ids'],
        [{ insight_ids: { 0: older.id } }, 'insight_ids'],
        [{ insight_ids: null }, 'insight_ids'],
        [{}, 'insight_ids'],
        [{ insight_ids: [older.id, 1.5] }, 'insight_ids__1'],
        [{ insight_ids: [older.id, String(newer.id)] }, 'insight_ids__1'],
        [{ insight_ids: [older.id, 2 ** 31] }, 'insight_ids__1'],
        [{ insight_ids: [older.id, null] }, 'insight_ids__1'],
        [{ insight_ids: [older.id, [newer.id]] }, 'insight_ids__1'],
      ];
      for (const [payload, attr] of cases) {
        const res = await t.request(alice.key, { method: 'POST', url, payload: payload as InjectOptions['payload'] });
        expectError(res, 400, { type: 'validation_error', attr }, describeValue(payload));
      }
      expect(await myLastViewed()).toEqual(viewedBefore);
      expect((await getInsight(older.id)).last_viewed_at).toBe(lastViewed);
      // The limits themselves are allowed: 2,500 ids, unknown ones skipped.
      const most = await t.request(alice.key, { method: 'POST', url, payload: { insight_ids: [older.id, ...Array.from({ length: 2_499 }, (_, i) => 900_000 + i)] } });
      expect(most.statusCode, most.body).toBe(201);
      expect((await myLastViewed())[0]).toBe(older.id);
    });

    it('sharing PATCH refuses wrong types and ignores the fields it does not own', async () => {
      const target = await createInsight({ name: 'Shared target' });
      const url = `${projects()}/insights/${target.id}/sharing/`;
      const enabled = (await t.request(alice.key, { method: 'PATCH', url, payload: { enabled: true } })).json();
      for (const value of ['yes', 'false', 1, 0, null, [true], { on: true }, Array(10_000).fill(true)]) {
        const res = await t.request(alice.key, { method: 'PATCH', url, payload: { enabled: value } });
        expectError(res, 400, { type: 'validation_error', attr: 'enabled' }, describeValue(value));
      }
      expect(await sharingOf(target.id)).toEqual(enabled);
      const ignored = await t.request(alice.key, {
        method: 'PATCH',
        url,
        payload: { access_token: 'chosen-by-attacker', created_at: '2000-01-01T00:00:00Z', password_required: true, settings: { x: 1 }, share_passwords: [{ password: 'x' }] },
      });
      expect(ignored.statusCode, ignored.body).toBe(200);
      expect(ignored.json()).toEqual(enabled);
      const byChosenToken = await t.request(null, { method: 'GET', url: `${projects()}/insights/?sharing_access_token=chosen-by-attacker` });
      expect(byChosenToken.statusCode).toBe(403);
      // refresh takes no body: one sent anyway changes nothing but the token.
      const refreshed = await t.request(alice.key, { method: 'POST', url: `${url}refresh/`, payload: { access_token: 'chosen-by-attacker', enabled: false } });
      expect(refreshed.statusCode).toBe(200);
      expect(refreshed.json().enabled).toBe(true);
      expect(refreshed.json().access_token).not.toBe('chosen-by-attacker');
      expect(refreshed.json().access_token).not.toBe(enabled.access_token);
    });

    it('every dashboard field survives every wrong-typed value: a 2xx or a 4xx, never a 5xx, and a refusal writes nothing', async () => {
      const board = await createDashboard({ name: 'Hostile board' });
      let snapshot = await getDashboard(board.id);
      const countBefore = await dashboardCount();
      let createdLive = 0;
      for (const field of DASHBOARD_FIELDS) {
        for (const value of HOSTILE) {
          const label = `${field}=${describeValue(value)}`;
          const patch = await t.request(alice.key, { method: 'PATCH', url: `${projects()}/dashboards/${board.id}/`, payload: { [field]: value } });
          expectNo5xx(patch, `PATCH ${label}`);
          if (patch.statusCode >= 400) {
            expect(await getDashboard(board.id), `PATCH ${label} was refused but wrote`).toEqual(snapshot);
          } else {
            snapshot = await getDashboard(board.id);
          }
          const post = await t.request(alice.key, { method: 'POST', url: `${projects()}/dashboards/`, payload: { [field]: value } });
          expectNo5xx(post, `POST ${label}`);
          if (post.statusCode === 201 && post.json().deleted === false) createdLive += 1;
        }
      }
      expect(await dashboardCount()).toBe(countBefore + createdLive);
    });

    it('dashboards ignore read-only and unknown fields on create and update', async () => {
      const readOnly = {
        id: 987654,
        team_id: mallory.projectId,
        created_by: { id: mallory.userId },
        created_at: '2000-01-01T00:00:00Z',
        last_accessed_at: '2000-01-01T00:00:00Z',
        is_shared: true,
        restriction_level: 99,
        effective_privilege_level: 99,
        creation_mode: 'template',
        hacker: 'x',
      };
      const mallorys = await dashboardCount(mallory);
      const created = await createDashboard({ name: 'Read-only board', ...readOnly });
      expect(created.id).not.toBe(987654);
      expect(created).toMatchObject({ team_id: alice.projectId, is_shared: false, creation_mode: 'default', last_accessed_at: null });
      expect(created.restriction_level).not.toBe(99);
      expect(created.created_by.id).toBe(alice.userId);
      expect(created.created_at.startsWith('2000')).toBe(false);
      expect(created).not.toHaveProperty('hacker');
      expect(await dashboardCount(mallory)).toBe(mallorys);
      const patched = await t.request(alice.key, { method: 'PATCH', url: `${projects()}/dashboards/${created.id}/`, payload: readOnly });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(await getDashboard(created.id)).toEqual(created);
    });

    it("dashboards refuse what PostHog's serializer refuses, naming the field, and store nothing", async () => {
      const board = await createDashboard({ name: 'Validated board', tags: ['kept'] });
      const cases: [Record<string, unknown>, Record<string, unknown>][] = [
        [{ name: 12345 }, { attr: 'name' }],
        [{ name: 'x'.repeat(401) }, { code: 'max_length', detail: 'Ensure this field has no more than 400 characters.', attr: 'name' }],
        [{ description: null }, { code: 'null', attr: 'description' }],
        [{ description: 'x'.repeat(4_001) }, { code: 'max_length', attr: 'description' }],
        [{ pinned: 'yes' }, { attr: 'pinned' }],
        [{ deleted: 'no' }, { attr: 'deleted' }],
        [{ tags: { a: 1 } }, { code: 'not_a_list', attr: 'tags' }],
        [{ tags: Array(10_000).fill('t') }, { attr: 'tags' }],
        [{ filters: [1] }, { attr: 'filters' }],
        [{ filters: 'x' }, { attr: 'filters' }],
        [{ filters: { date_from: 5 } }, { attr: 'filters__date_from' }],
        [{ tiles: {} }, { code: 'not_a_list', attr: 'tiles' }],
        [{ tiles: [{ id: 'x' }] }, { attr: 'tiles__0__id' }],
        [{ tiles: Array(10_000).fill({ id: 1 }) }, { attr: 'tiles' }],
      ];
      for (const [payload, expected] of cases) {
        const label = describeValue(payload);
        const before = await getDashboard(board.id);
        const patch = await t.request(alice.key, { method: 'PATCH', url: `${projects()}/dashboards/${board.id}/`, payload: { name: 'must not stick', ...payload } });
        expectError(patch, 400, { type: 'validation_error', ...expected }, `PATCH ${label}`);
        expect(await getDashboard(board.id), `PATCH ${label}`).toEqual(before);
        const count = await dashboardCount();
        const post = await t.request(alice.key, { method: 'POST', url: `${projects()}/dashboards/`, payload: { name: 'must not exist', ...payload } });
        expectError(post, 400, { type: 'validation_error', ...expected }, `POST ${label}`);
        expect(await dashboardCount(), `POST ${label}`).toBe(count);
      }
      const filtersProperties = await t.request(alice.key, { method: 'PATCH', url: `${projects()}/dashboards/${board.id}/`, payload: { filters: { properties: 'x' } } });
      expectError(filtersProperties, 400, { type: 'validation_error' });
      expect(filtersProperties.json().attr).toMatch(/^filters/);
      // A tile that is not on the dashboard: refused, and the name sent with it is not kept either.
      const unknownTile = await t.request(alice.key, { method: 'PATCH', url: `${projects()}/dashboards/${board.id}/`, payload: { name: 'renamed', tiles: [{ id: 987654 }] } });
      expectError(unknownTile, 400, { type: 'validation_error', code: 'does_not_exist', attr: 'tiles__0__id' });
      expect((await getDashboard(board.id)).name).toBe('Validated board');
      expect((await getDashboard(board.id)).tags).toEqual(['kept']);
    });

    it('a hostile body to timing is accepted and dropped, never a 5xx', async () => {
      const url = `${projects()}/insights/timing/`;
      for (const body of ['{}', '[1]', 'null', nestedObjects(5_000), `{"x":${JSON.stringify(Array(10_000).fill('x'))}}`]) {
        expectNo5xx(await raw(alice.key, 'POST', url, body), `timing ${body.slice(0, 20)}`);
      }
      expectError(await raw(alice.key, 'POST', url, 'not json'), 400, { code: 'parse_error' });
    });
  });
});
