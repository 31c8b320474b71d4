// Managing dashboards as PostHog's app does: duplicate (POST with use_dashboard, optionally
// duplicate_tiles), lay tiles out and remove them (PATCH tiles), soft delete (PATCH deleted), and
// another organization's dashboard never serving as a source.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { trendsQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';
import { openTwoOrganizations } from '../helpers/two-organizations.js';

interface TileBody { id: number; layouts: any; color: string | null; insight: { id: number; name: string | null; query: unknown } }

describe.each(META_STORES)('managing dashboards on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const api = (who: Credentials) => `/api/projects/${who.projectId}`;
  const send = (who: Credentials, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) =>
    t.request(who.key, { method, url: `${api(who)}${url}`, ...(payload ? { payload } : {}) });
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>, who = alice) => {
    const res = await send(who, method, url, payload);
    expect(res.statusCode, res.body).toBe(method === 'POST' ? 201 : 200);
    return res.json();
  };
  const insightOn = (dashboardId: number, name: string, who = alice) =>
    call('POST', '/insights/', {
      name,
      tags: ['kept'],
      query: { kind: 'InsightVizNode', source: trendsQuery([{ kind: 'EventsNode', event: '$pageview' }], '2024-01-01', '2024-01-05') },
      dashboards: [dashboardId],
    }, who);
  const sm = (x: number, y: number, w: number, h: number) => ({ sm: { x, y, w, h } });

  /** A dashboard with filters and two placed tiles, and a third tile removed. */
  const board = async (name: string) => {
    const dashboard = await call('POST', '/dashboards/', { name, description: 'the source', filters: { date_from: '-14d' } });
    const left = await insightOn(dashboard.id, 'Left');
    const right = await insightOn(dashboard.id, 'Right');
    const gone = await insightOn(dashboard.id, 'Removed');
    const tiles = (await call('GET', `/dashboards/${dashboard.id}/`)).tiles as TileBody[];
    const tileOf = (insightId: number) => tiles.find((tile) => tile.insight.id === insightId)!.id;
    await call('PATCH', `/dashboards/${dashboard.id}/`, {
      tiles: [
        { id: tileOf(left.id), layouts: sm(0, 0, 4, 6) },
        { id: tileOf(right.id), layouts: sm(4, 0, 8, 3), color: 'blue' },
        { id: tileOf(gone.id), deleted: true },
      ],
    });
    return { dashboard, left, right, gone };
  };
  const tilesOf = async (id: number) => ((await call('GET', `/dashboards/${id}/`)).tiles as TileBody[]).map((tile) => ({ ...tile, name: tile.insight.name }));

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
  });
  afterAll(() => t.close());

  it('keeps a layout written with PATCH tiles and drops a removed tile from the dashboard', async () => {
    const { dashboard, left, right } = await board('Layout');
    const tiles = await tilesOf(dashboard.id);
    expect(tiles.map((tile) => [tile.insight.id, tile.layouts, tile.color])).toEqual([
      [left.id, sm(0, 0, 4, 6), null],
      [right.id, sm(4, 0, 8, 3), 'blue'],
    ]);
  });

  it('duplicates with use_dashboard: the same insights in the same places, the filters copied', async () => {
    const { dashboard, left, right } = await board('Source');
    const copy = await call('POST', '/dashboards/', { name: 'Source (Copy)', description: 'the source', use_dashboard: dashboard.id });
    expect(copy).toMatchObject({ name: 'Source (Copy)', description: 'the source', filters: { date_from: '-14d' } });
    expect(copy.id).not.toBe(dashboard.id);
    const tiles = await tilesOf(copy.id);
    expect(tiles.map((tile) => [tile.insight.id, tile.layouts, tile.color])).toEqual([
      [left.id, sm(0, 0, 4, 6), null],
      [right.id, sm(4, 0, 8, 3), 'blue'],
    ]);
    // New tiles, not the source's.
    const sourceTiles = await tilesOf(dashboard.id);
    expect(tiles.map((tile) => tile.id)).not.toEqual(sourceTiles.map((tile) => tile.id));
    // The request's own filters win over the source's.
    const own = await call('POST', '/dashboards/', { name: 'Own filters', use_dashboard: dashboard.id, filters: { date_from: '-7d' } });
    expect(own.filters).toEqual({ date_from: '-7d' });
  });

  it('duplicates with duplicate_tiles: each insight copied as "<name> (Copy)", the source untouched', async () => {
    const { dashboard, left, right } = await board('Deep');
    const copy = await call('POST', '/dashboards/', { name: 'Deep (Copy)', use_dashboard: dashboard.id, duplicate_tiles: true });
    const tiles = await tilesOf(copy.id);
    expect(tiles.map((tile) => [tile.name, tile.layouts, tile.color])).toEqual([
      ['Left (Copy)', sm(0, 0, 4, 6), null],
      ['Right (Copy)', sm(4, 0, 8, 3), 'blue'],
    ]);
    expect(tiles.map((tile) => tile.insight.id)).not.toContain(left.id);
    expect(tiles.map((tile) => tile.insight.id)).not.toContain(right.id);
    expect(tiles[0]!.insight.query).toEqual(left.query);
    const copied = await call('GET', `/insights/${tiles[0]!.insight.id}/`);
    expect(copied.tags).toEqual(['kept']);
    expect((await tilesOf(dashboard.id)).map((tile) => tile.name)).toEqual(['Left', 'Right']);
  });

  it('answers 400 on use_dashboard naming no dashboard of the project, and creates nothing', async () => {
    const before = (await call('GET', '/dashboards/')).count;
    const res = await send(alice, 'POST', '/dashboards/', { name: 'Nothing', use_dashboard: 999999 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', attr: 'use_dashboard', detail: 'Invalid value provided' });
    expect((await call('GET', '/dashboards/')).count).toBe(before);
  });

  it('soft-deletes with PATCH {deleted: true}: gone from the list and 404, its insights kept', async () => {
    const { dashboard, left } = await board('Doomed');
    await call('PATCH', `/dashboards/${dashboard.id}/`, { deleted: true });
    expect((await send(alice, 'GET', `/dashboards/${dashboard.id}/`)).statusCode).toBe(404);
    const list = (await call('GET', '/dashboards/?limit=500')).results as { id: number }[];
    expect(list.map((d) => d.id)).not.toContain(dashboard.id);
    expect((await call('GET', `/insights/${left.id}/`)).deleted).toBe(false);
  });

  it('logs creating, changing and deleting a dashboard under scope "Dashboard", as PostHog does; not its tiles', async () => {
    const { dashboard } = await board('Logged');
    await call('PATCH', `/dashboards/${dashboard.id}/`, { name: 'Logged board', pinned: true });
    await call('PATCH', `/dashboards/${dashboard.id}/`, { deleted: true });
    const { rows } = await t.services.repositories.activityLog.listForItem(alice.projectId, 'Dashboard', String(dashboard.id), { limit: 10, offset: 0 });
    // Newest first; the tile layout and removal made by board() left no entry.
    expect(rows.map((row) => [row.activity, (row.detail as { changes: any[] | null }).changes?.map((c: { field: string; before: unknown; after: unknown }) => [c.field, c.before, c.after]) ?? null])).toEqual([
      ['deleted', [['deleted', false, true]]],
      ['updated', [['name', 'Logged', 'Logged board'], ['pinned', false, true]]],
      ['created', null],
    ]);
    expect(rows[0]!.detail).toMatchObject({ name: 'Logged board', type: 'dashboard' });
    expect(rows.every((row) => row.user_id === alice.userId)).toBe(true);
  });

  it("never duplicates, lays out or deletes another organization's dashboard", async () => {
    const bobs = await call('POST', '/dashboards/', { name: 'Bob secret', filters: { date_from: '-30d' } }, bob);
    const secret = await insightOn(bobs.id, 'Bob insight', bob);
    const [bobTile] = (await call('GET', `/dashboards/${bobs.id}/`, undefined, bob)).tiles as TileBody[];

    const res = await send(alice, 'POST', '/dashboards/', { name: 'Stolen', use_dashboard: bobs.id, duplicate_tiles: true });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ attr: 'use_dashboard' });
    // Alice's own dashboard cannot reach Bob's tile either.
    const mine = await call('POST', '/dashboards/', { name: 'Mine' });
    const patched = await send(alice, 'PATCH', `/dashboards/${mine.id}/`, { tiles: [{ id: bobTile!.id, deleted: true }] });
    expect(patched.statusCode).toBe(400);
    for (const attempt of [
      { method: 'PATCH' as const, payload: { deleted: true } },
      { method: 'PATCH' as const, payload: { tiles: [{ id: bobTile!.id, layouts: sm(0, 0, 1, 1) }] } },
      { method: 'GET' as const },
    ]) {
      const answer = await t.request(alice.key, { method: attempt.method, url: `${api(bob)}/dashboards/${bobs.id}/`, ...(attempt.payload ? { payload: attempt.payload } : {}) });
      expect(answer.statusCode).toBe(404);
    }
    const after = await call('GET', `/dashboards/${bobs.id}/`, undefined, bob);
    expect(after.deleted).toBe(false);
    expect(after.tiles.map((tile: TileBody) => [tile.insight.id, tile.layouts])).toEqual([[secret.id, bobTile!.layouts]]);
    const insights = (await call('GET', '/insights/?limit=500')).results as { name: string }[];
    expect(insights.map((i) => i.name)).not.toContain('Bob insight (Copy)');
  });
});

describe.each(META_STORES)('dashboard tiles across organizations on %s (repositories)', (store) => {
  it("finds no tile of another project's dashboard and puts none on it", async () => {
    const two = await openTwoOrganizations(store);
    try {
      const { repos, alice, bob } = two;
      const now = new Date().toISOString();
      const dashboardOf = (teamId: number, name: string) =>
        repos.dashboards.insert({ team_id: teamId, name, description: '', pinned: 0, filters: '{}', tags: '[]', restriction_level: 21, deleted: 0, created_by: null, created_at: now, last_accessed_at: null });
      const insightOf = (teamId: number, shortId: string) =>
        repos.insights.insert({
          team_id: teamId, short_id: shortId, name: shortId, derived_name: null, description: null, filters: '{}', query: null, order: null,
          deleted: 0, saved: 1, favorited: 0, is_sample: 0, tags: '[]', created_by: null, last_modified_by: null, created_at: now, updated_at: now, last_modified_at: now,
        });
      const bobsBoard = await dashboardOf(bob.project_id, 'Bob');
      const bobsInsight = await insightOf(bob.project_id, 'bobinsight');
      const tile = { layouts: '{}', color: null, deleted: null, created_at: now };
      expect(await repos.dashboards.insertTile(bob.project_id, { ...tile, dashboard_id: bobsBoard.id, insight_id: bobsInsight.id })).toBe(true);

      // The source of a duplicate is read through Alice's project: nothing of Bob's.
      expect(await repos.dashboards.findById(alice.project_id, bobsBoard.id)).toBeUndefined();
      expect(await repos.dashboards.tilesOfDashboard(alice.project_id, bobsBoard.id)).toEqual([]);
      // Copying a tile onto Bob's dashboard, or Bob's insight onto Alice's, inserts nothing.
      const alicesBoard = await dashboardOf(alice.project_id, 'Alice');
      expect(await repos.dashboards.insertTile(alice.project_id, { ...tile, dashboard_id: bobsBoard.id, insight_id: bobsInsight.id })).toBe(false);
      expect(await repos.dashboards.insertTile(alice.project_id, { ...tile, dashboard_id: alicesBoard.id, insight_id: bobsInsight.id })).toBe(false);
      const [bobsTile] = await repos.dashboards.tilesOfDashboard(bob.project_id, bobsBoard.id);
      await repos.dashboards.updateTile(alice.project_id, bobsBoard.id, bobsTile!.id, { deleted: 1, layouts: '{"sm":{}}' });
      expect(await repos.dashboards.tilesOfDashboard(bob.project_id, bobsBoard.id)).toEqual([bobsTile]);
    } finally {
      await two.close();
    }
  });
});
