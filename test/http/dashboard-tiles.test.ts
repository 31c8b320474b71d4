// Dashboard tiles in PostHog's DashboardTileSerializer shape, ordered as they read, and the list's
// basic fields. (The agent toolkit itself is driven against these answers in agent-toolkit.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { trendsQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

/** PostHog's DashboardTileSerializer fields (posthog/api/dashboards/dashboard.py), plus the older `deleted`. */
const POSTHOG_TILE_FIELDS = [
  'button_tile', 'color', 'deleted', 'filters_overrides', 'id', 'insight', 'is_cached', 'last_refresh',
  'layouts', 'order', 'show_description', 'text', 'transparent_background',
];

describe.each(META_STORES)('dashboard tiles on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  const api = () => `/api/projects/${alice.projectId}`;
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) => {
    const res = await t.request(alice.key, { method, url: `${api()}${url}`, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(method === 'POST' ? 201 : 200);
    return res.json();
  };
  const insightOn = (dashboardId: number, name: string) =>
    call('POST', '/insights/', {
      name,
      query: { kind: 'InsightVizNode', source: trendsQuery([{ kind: 'EventsNode', event: '$pageview' }], '2024-01-01', '2024-01-05') },
      dashboards: [dashboardId],
    });

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
  });
  afterAll(() => t.close());

  it("tiles have PostHog's DashboardTileSerializer fields, the insight's refresh state among them", async () => {
    const dashboard = await call('POST', '/dashboards/', { name: 'Shape' });
    const insight = await insightOn(dashboard.id, 'Pageviews');
    const [tile] = (await call('GET', `/dashboards/${dashboard.id}/?refresh=blocking`)).tiles;
    expect(Object.keys(tile).sort()).toEqual(POSTHOG_TILE_FIELDS);
    expect(tile).toMatchObject({
      insight: { id: insight.id, short_id: insight.short_id },
      text: null,
      button_tile: null,
      filters_overrides: {},
      show_description: null,
      transparent_background: null,
      order: 0,
      is_cached: tile.insight.is_cached,
      last_refresh: tile.insight.last_refresh,
    });
    expect(tile.last_refresh).toEqual(expect.any(String));
  });

  it('orders tiles as they read on the "sm" layout: top to bottom, left to right, unplaced ones last', async () => {
    const dashboard = await call('POST', '/dashboards/', { name: 'Layout' });
    const unplaced = await insightOn(dashboard.id, 'unplaced');
    const low = await insightOn(dashboard.id, 'low');
    const topRight = await insightOn(dashboard.id, 'top right');
    const topLeft = await insightOn(dashboard.id, 'top left');
    const tileOf = async (insightId: number) => {
      const tiles = (await call('GET', `/dashboards/${dashboard.id}/`)).tiles as { id: number; insight: { id: number } }[];
      return tiles.find((tile) => tile.insight.id === insightId)!.id;
    };
    const sm = (x: number, y: number) => ({ sm: { x, y, w: 6, h: 5 } });
    await call('PATCH', `/dashboards/${dashboard.id}/`, {
      tiles: [
        { id: await tileOf(low.id), layouts: sm(0, 5) },
        { id: await tileOf(topRight.id), layouts: sm(6, 0) },
        { id: await tileOf(topLeft.id), layouts: { ...sm(0, 0), xs: { x: 0, y: 99, w: 1, h: 5 } } },
      ],
    });

    const tiles = (await call('GET', `/dashboards/${dashboard.id}/`)).tiles as { order: number; insight: { name: string } }[];
    expect(tiles.map((tile) => [tile.order, tile.insight.name])).toEqual([
      [0, 'top left'],
      [1, 'top right'],
      [2, 'low'],
      [3, 'unplaced'],
    ]);
    expect(unplaced.id).toBeGreaterThan(0);
  });

  it('the list answers the basic fields only, without tiles or filters', async () => {
    await call('POST', '/dashboards/', { name: 'Basic' });
    const [first] = (await call('GET', '/dashboards/?search=basic')).results;
    expect(first).not.toHaveProperty('tiles');
    expect(first).not.toHaveProperty('filters');
    expect(first).toMatchObject({ name: 'Basic', last_viewed_at: null, access_control_version: 'v2', last_refresh: null, creation_mode: 'default' });
  });
});
