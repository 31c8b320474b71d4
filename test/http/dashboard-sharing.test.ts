// Sharing a whole dashboard by link, as PostHog's /dashboards/:id/sharing/ does: the configuration
// (unsaved default, enable, disable, refresh), what the token opens without a key (the dashboard's
// retrieve and /shared/<token>.json, its tiles' insights through its filters) and what it does not
// (another insight or dashboard of the project, another project, any write, other endpoints), the
// activity entries, is_shared, the scopes, and another organization's dashboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, trendsQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';
import { openTwoOrganizations } from '../helpers/two-organizations.js';

const TOKEN = /^[A-Za-z0-9_-]{30}$/;
const trendsInsight = (event = '$pageview') => ({ kind: 'InsightVizNode', source: trendsQuery([{ kind: 'EventsNode', event }], '2024-01-01', '2024-01-03') });
/** The dashboard's date range narrows every tile to 2 and 3 January. */
const BOARD_FILTERS = { date_from: '2024-01-02', date_to: '2024-01-03' };

interface Board { id: number; name: string }
interface Insight { id: number; short_id: string; name: string }
interface TileBody { id: number; insight: { id: number; name: string; result: { days: string[]; data: number[] }[] } }

describe.each(META_STORES)('Dashboard sharing on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const api = (c: Credentials = alice) => `/api/projects/${c.projectId}`;
  let counter = 0;

  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>, who = alice) => {
    const res = await t.request(who.key, { method, url: `${api(who)}${url}`, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(method === 'POST' && !url.endsWith('refresh/') ? 201 : 200);
    return res.json();
  };
  const insightOn = (board: Board | null, name: string, who = alice, event = '$pageview'): Promise<Insight> =>
    call('POST', '/insights/', { name, query: trendsInsight(event), saved: true, ...(board ? { dashboards: [board.id] } : {}) }, who);
  /** A dashboard with filters and two insights on it. */
  const board = async (who = alice): Promise<{ board: Board; tiles: Insight[] }> => {
    const created: Board = await call('POST', '/dashboards/', { name: `Board ${++counter}`, filters: BOARD_FILTERS }, who);
    const tiles = [await insightOn(created, `Views ${counter}`, who), await insightOn(created, `Signups ${counter}`, who, 'signup')];
    return { board: created, tiles };
  };
  const sharingUrl = (b: Board, c: Credentials = alice) => `${api(c)}/dashboards/${b.id}/sharing/`;
  const setSharing = async (b: Board, enabled: boolean) => {
    const res = await t.request(alice.key, { method: 'PATCH', url: sharingUrl(b), payload: { enabled } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const shared = async () => {
    const made = await board();
    const config = await setSharing(made.board, true);
    return { ...made, token: config.access_token as string };
  };

  const q = (token: string) => `sharing_access_token=${encodeURIComponent(token)}`;
  const dashboardWith = (token: string, id: number | string, projectId: number | string = alice.projectId, prefix = '/api/projects') =>
    t.request(null, { method: 'GET', url: `${prefix}/${projectId}/dashboards/${id}/?${q(token)}` });
  const insightWith = (token: string, id: number | string, projectId: number | string = alice.projectId) =>
    t.request(null, { method: 'GET', url: `/api/projects/${projectId}/insights/${id}/?${q(token)}` });
  const sharedJson = (token: string) => t.request(null, { method: 'GET', url: `/shared/${encodeURIComponent(token)}.json` });

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    await journeys(t, alice, {
      a: [ev('$pageview', '2024-01-01T10:00:00Z'), ev('$pageview', '2024-01-02T10:00:00Z'), ev('signup', '2024-01-03T10:00:00Z')],
      b: [ev('$pageview', '2024-01-02T11:00:00Z'), ev('$pageview', '2024-01-03T11:00:00Z')],
    });
  });
  afterAll(() => t.close());

  describe('the configuration', () => {
    it('GET shows an unsaved default; PATCH enables it (is_shared follows); both paths', async () => {
      const { board: b } = await board();
      const first = await call('GET', `/dashboards/${b.id}/sharing/`);
      expect(first).toMatchObject({ created_at: null, enabled: false, access_token: expect.stringMatching(TOKEN), settings: null, password_required: false, share_passwords: [] });
      expect((await sharedJson(first.access_token)).statusCode).toBe(403);
      expect((await call('GET', `/dashboards/${b.id}/`)).is_shared).toBe(false);

      const enabled = await setSharing(b, true);
      expect(enabled).toMatchObject({ enabled: true, access_token: expect.stringMatching(TOKEN) });
      expect(Date.parse(enabled.created_at)).not.toBeNaN();
      const env = await t.request(alice.key, { method: 'GET', url: `/api/environments/${alice.projectId}/dashboards/${b.id}/sharing/` });
      expect(env.json()).toMatchObject({ enabled: true, access_token: enabled.access_token, created_at: enabled.created_at });
      expect((await call('GET', `/dashboards/${b.id}/`)).is_shared).toBe(true);
      const listed = (await call('GET', '/dashboards/?limit=500')).results as { id: number; is_shared: boolean }[];
      expect(listed.find((row) => row.id === b.id)?.is_shared).toBe(true);

      // The insight's own sharing is a separate configuration.
      expect((await call('GET', `/insights/${(await insightOn(b, 'extra')).id}/sharing/`)).enabled).toBe(false);
    });

    it('concurrent enables save one configuration with one token', async () => {
      const { board: b } = await board();
      const answers = await Promise.all(Array.from({ length: 5 }, () => t.request(alice.key, { method: 'PATCH', url: sharingUrl(b), payload: { enabled: true } })));
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);
      expect(new Set(answers.map((res) => res.json().access_token)).size).toBe(1);
    });

    it('disabling closes the link at once; enabling again opens it', async () => {
      const { board: b, token } = await shared();
      expect((await sharedJson(token)).statusCode).toBe(200);
      const disabled = await setSharing(b, false);
      expect(disabled).toMatchObject({ enabled: false, access_token: token });
      expect((await sharedJson(token)).statusCode).toBe(403);
      expect((await dashboardWith(token, b.id)).statusCode).toBe(403);
      expect((await call('GET', `/dashboards/${b.id}/`)).is_shared).toBe(false);
      await setSharing(b, true);
      expect((await sharedJson(token)).statusCode).toBe(200);
    });

    it('refresh/ gives a new token and the old one stops working at once', async () => {
      const { board: b, token: old, tiles } = await shared();
      const refreshed = await call('POST', `/dashboards/${b.id}/sharing/refresh/`);
      expect(refreshed).toMatchObject({ enabled: true, access_token: expect.stringMatching(TOKEN) });
      expect(refreshed.access_token).not.toBe(old);
      expect((await call('GET', `/dashboards/${b.id}/sharing/`)).access_token).toBe(refreshed.access_token);
      for (const res of [await sharedJson(old), await dashboardWith(old, b.id), await insightWith(old, tiles[0]!.id)]) expect(res.statusCode).toBe(403);
      expect((await sharedJson(refreshed.access_token)).statusCode).toBe(200);
    });

    it('404 for a deleted, unknown or other-project dashboard; a deleted one closes its link', async () => {
      const { board: b, token } = await shared();
      await call('PATCH', `/dashboards/${b.id}/`, { deleted: true });
      for (const method of ['GET', 'PATCH'] as const) {
        expect((await t.request(alice.key, { method, url: sharingUrl(b), ...(method === 'PATCH' ? { payload: { enabled: true } } : {}) })).statusCode).toBe(404);
      }
      expect((await sharedJson(token)).statusCode).toBe(404);
      expect((await t.request(alice.key, { method: 'GET', url: `${api()}/dashboards/999999/sharing/` })).statusCode).toBe(404);
      expect((await t.request(alice.key, { method: 'GET', url: `${api()}/dashboards/abc/sharing/` })).statusCode).toBe(404);
      const { board: bobs } = await board(bob);
      for (const url of [`${api()}/dashboards/${bobs.id}/sharing/`, sharingUrl(bobs, bob)]) {
        expect((await t.request(alice.key, { method: 'PATCH', url, payload: { enabled: true } })).statusCode, url).toBe(404);
        expect((await t.request(alice.key, { method: 'POST', url: `${url}refresh/` })).statusCode, url).toBe(404);
      }
      expect((await call('GET', `/dashboards/${bobs.id}/sharing/`, undefined, bob)).enabled).toBe(false);
    });
  });

  describe('what the token opens', () => {
    it("/shared/<token>.json: the dashboard with its tiles' results through its filters, equal to the owner's", async () => {
      const { board: b, token, tiles } = await shared();
      const res = await sharedJson(token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.type).toBe('scene');
      expect(body.insight).toBeUndefined();
      expect(body.dashboard).toMatchObject({ id: b.id, name: b.name, filters: BOARD_FILTERS, created_by: null, user_access_level: 'viewer', is_shared: true });
      const sharedTiles = body.dashboard.tiles as TileBody[];
      expect(sharedTiles.map((tile) => tile.insight.id).sort()).toEqual(tiles.map((i) => i.id).sort());
      const views = sharedTiles.find((tile) => tile.insight.id === tiles[0]!.id)!.insight;
      expect(views.result[0]).toMatchObject({ days: ['2024-01-02', '2024-01-03'], data: [2, 1] });
      expect(views).not.toHaveProperty('created_by');
      const signups = sharedTiles.find((tile) => tile.insight.id === tiles[1]!.id)!.insight;
      expect(signups.result[0]).toMatchObject({ days: ['2024-01-02', '2024-01-03'], data: [0, 1] });

      const owners = (await call('GET', `/dashboards/${b.id}/?refresh=blocking`)).tiles as TileBody[];
      for (const tile of owners) {
        expect(sharedTiles.find((s) => s.insight.id === tile.insight.id)!.insight.result).toEqual(tile.insight.result);
      }
      const page = await t.request(null, { method: 'GET', url: `/shared/${token}` });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
    });

    it("the dashboard's retrieve and its insights' retrieve, on both paths, through its filters", async () => {
      const { board: b, token, tiles } = await shared();
      for (const prefix of ['/api/projects', '/api/environments']) {
        const res = await dashboardWith(token, b.id, alice.projectId, prefix);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ id: b.id, user_access_level: 'viewer', created_by: null });
      }
      const one = await insightWith(token, tiles[0]!.id);
      expect(one.statusCode, one.body).toBe(200);
      // Seen through the dashboard's filters even when from_dashboard is not given.
      expect(one.json().result[0]).toMatchObject({ days: ['2024-01-02', '2024-01-03'], data: [2, 1] });
      expect((await insightWith(token, tiles[1]!.short_id)).statusCode).toBe(200);
      const list = await t.request(null, { method: 'GET', url: `${api()}/insights/?${q(token)}` });
      expect(list.statusCode).toBe(200);
      expect((list.json().results as { id: number }[]).map((i) => i.id).sort()).toEqual(tiles.map((i) => i.id).sort());
    });
  });

  describe('what the token does not open', () => {
    let b: Board;
    let token: string;
    let tiles: Insight[];

    beforeAll(async () => {
      ({ board: b, token, tiles } = await shared());
    });

    it('another insight or dashboard of the same project: 404, nothing of it shown', async () => {
      const loose = await insightOn(null, 'Not on the board');
      const { board: otherBoard, tiles: otherTiles } = await board();
      for (const id of [loose.id, loose.short_id, otherTiles[0]!.id]) {
        const res = await insightWith(token, id);
        expect(res.statusCode, String(id)).toBe(404);
        expect(res.body).not.toContain('Not on the board');
      }
      expect((await dashboardWith(token, otherBoard.id)).statusCode).toBe(404);
      const list = await t.request(null, { method: 'GET', url: `${api()}/insights/?${q(token)}&short_id=${loose.short_id}` });
      expect(list.json()).toMatchObject({ count: 0, results: [] });
    });

    it('a tile removed from the dashboard is closed at once', async () => {
      const made = await shared();
      const owner = (await call('GET', `/dashboards/${made.board.id}/`)).tiles as TileBody[];
      const removed = owner.find((tile) => tile.insight.id === made.tiles[1]!.id)!;
      await call('PATCH', `/dashboards/${made.board.id}/`, { tiles: [{ id: removed.id, deleted: true }] });
      expect((await insightWith(made.token, made.tiles[1]!.id)).statusCode).toBe(404);
      expect(((await sharedJson(made.token)).json().dashboard.tiles as TileBody[]).map((tile) => tile.insight.id)).toEqual([made.tiles[0]!.id]);
    });

    it("another project's path: 403", async () => {
      const { board: bobs, tiles: bobsTiles } = await board(bob);
      for (const projectId of [bob.projectId, 999999, '@current']) {
        expect((await dashboardWith(token, b.id, projectId)).statusCode, String(projectId)).toBe(403);
        expect((await dashboardWith(token, bobs.id, projectId)).statusCode, String(projectId)).toBe(403);
        expect((await insightWith(token, bobsTiles[0]!.id, projectId)).statusCode, String(projectId)).toBe(403);
      }
    });

    it('writes need a key: 401, and nothing changes', async () => {
      const qs = `?${q(token)}`;
      const requests = [
        { method: 'PATCH' as const, url: `${api()}/dashboards/${b.id}/${qs}`, payload: { name: 'defaced' } },
        { method: 'DELETE' as const, url: `${api()}/dashboards/${b.id}/${qs}` },
        { method: 'POST' as const, url: `${api()}/dashboards/${qs}`, payload: { name: 'planted' } },
        { method: 'PATCH' as const, url: `${api()}/dashboards/${b.id}/sharing/${qs}`, payload: { enabled: false } },
        { method: 'POST' as const, url: `${api()}/dashboards/${b.id}/sharing/refresh/${qs}` },
        { method: 'PATCH' as const, url: `${api()}/insights/${tiles[0]!.id}/${qs}`, payload: { name: 'defaced' } },
        { method: 'POST' as const, url: `${api()}/query/${qs}`, payload: { query: trendsInsight().source } },
      ];
      for (const request of requests) {
        expect((await t.request(null, request)).statusCode, `${request.method} ${request.url}`).toBe(401);
      }
      const after = await call('GET', `/dashboards/${b.id}/`);
      expect(after.name).toBe(b.name);
      expect((await call('GET', `/dashboards/${b.id}/sharing/`)).access_token).toBe(token);
    });

    it('no other endpoint: 401', async () => {
      for (const url of [
        `${api()}/dashboards/?${q(token)}`,
        `${api()}/dashboards/${b.id}/sharing/?${q(token)}`,
        `${api()}/insights/${tiles[0]!.id}/activity/?${q(token)}`,
        `/api/projects/${alice.projectId}/?${q(token)}`,
      ]) {
        expect((await t.request(null, { method: 'GET', url })).statusCode, url).toBe(401);
      }
    });
  });

  it('enabling, disabling and refreshing are logged on the dashboard (scope Dashboard)', async () => {
    const { board: b } = await board();
    await setSharing(b, true);
    await setSharing(b, true); // no change: nothing logged
    await setSharing(b, false);
    await call('POST', `/dashboards/${b.id}/sharing/refresh/`);
    // Dashboards have no activity route in Hoglet yet: read the log as dashboards-manage.test.ts does.
    const { rows } = await t.services.repositories.activityLog.listForItem(alice.projectId, 'Dashboard', String(b.id), { limit: 10, offset: 0 });
    const entries = rows as unknown as { activity: string; scope: string; item_id: string; user_id: number | null; detail: { name: string; changes: unknown } }[];
    expect(entries.map((e) => e.activity)).toEqual(['access token refreshed', 'sharing disabled', 'sharing enabled', 'created']);
    for (const entry of entries) expect(entry).toMatchObject({ scope: 'Dashboard', item_id: String(b.id), user_id: alice.userId, detail: { name: b.name } });
    expect(entries[2]!.detail.changes).toEqual([{ type: 'Dashboard', action: 'changed', field: 'sharing', before: { enabled: false }, after: { enabled: true } }]);
  });

  it('needs sharing_configuration:read to read it and sharing_configuration:write to change it', async () => {
    const { board: b } = await board();
    const dashboardReader = await t.key(alice.email, ['dashboard:read']);
    const sharingReader = await t.key(alice.email, ['sharing_configuration:read']);
    const sharingWriter = await t.key(alice.email, ['sharing_configuration:write']);
    const get = (key: string) => t.request(key, { method: 'GET', url: sharingUrl(b) });
    const patch = (key: string) => t.request(key, { method: 'PATCH', url: sharingUrl(b), payload: { enabled: true } });
    const refresh = (key: string) => t.request(key, { method: 'POST', url: `${sharingUrl(b)}refresh/` });

    const refused = await get(dashboardReader);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe("API key missing required scope 'sharing_configuration:read'");
    for (const res of [await patch(dashboardReader), await refresh(dashboardReader), await patch(sharingReader), await refresh(sharingReader)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe("API key missing required scope 'sharing_configuration:write'");
    }
    expect((await get(sharingReader)).json().enabled).toBe(false);
    expect((await patch(sharingWriter)).statusCode).toBe(200);
    expect((await refresh(sharingWriter)).statusCode).toBe(200);
    expect((await get(sharingWriter)).json().enabled).toBe(true);
    expect((await t.request(null, { method: 'GET', url: sharingUrl(b) })).statusCode).toBe(401);
  });
});

describe.each(META_STORES)('dashboard sharing across organizations on %s (repositories)', (store) => {
  it("finds and changes no configuration of another project's dashboard", async () => {
    const two = await openTwoOrganizations(store);
    try {
      const { repos, alice, bob } = two;
      const now = new Date().toISOString();
      const bobsBoard = await repos.dashboards.insert({ team_id: bob.project_id, name: 'Bob', description: '', pinned: 0, filters: '{}', tags: '[]', restriction_level: 21, deleted: 0, created_by: null, created_at: now, last_accessed_at: null });
      const config = await repos.sharing.insertForDashboard({ team_id: bob.project_id, insight_id: null, dashboard_id: bobsBoard.id, enabled: 1, access_token: 'bobs-token-0123456789abcdefghij', created_at: now });
      expect(await repos.sharing.forDashboard(alice.project_id, bobsBoard.id)).toBeUndefined();
      expect(await repos.sharing.sharedDashboardIds(alice.project_id, [bobsBoard.id])).toEqual(new Set());
      await repos.sharing.update(alice.project_id, config.id, { enabled: 0, access_token: 'stolen' });
      expect(await repos.sharing.forDashboard(bob.project_id, bobsBoard.id)).toEqual(config);
      expect(await repos.sharing.sharedDashboardIds(bob.project_id, [bobsBoard.id])).toEqual(new Set([bobsBoard.id]));
    } finally {
      await two.close();
    }
  });
});
