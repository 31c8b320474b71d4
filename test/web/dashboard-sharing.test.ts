// Sharing a whole dashboard in Chromium against a real Hoglet: the dashboard's Share button turns
// the public link on, a fresh browser without a session opens it and sees the tiles read-only with
// the API's numbers (through the dashboard's date range), and Reset link closes the old link at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApi, hasChromium, legendItems, openPage, queryApi, screenshot, SOURCES, startWorld, type World } from './harness.js';

const TIMEOUT = 120_000;
const BOARD_RANGE = { date_from: '2024-01-02', date_to: '2024-01-05' };

describe.skipIf(!hasChromium)('sharing a dashboard in Chromium', () => {
  let w: World;
  let boardId = 0;
  const apiPath = (path: string) => `/api/projects/${w.who.projectId}/${path}`;

  beforeAll(async () => {
    w = await startWorld();
    const board = await w.t.request(w.who.key, { method: 'POST', url: apiPath('dashboards/'), payload: { name: 'Public numbers', description: 'For the whole company', filters: BOARD_RANGE } });
    boardId = board.json().id;
    for (const kind of ['trends', 'funnel'] as const) {
      await w.t.request(w.who.key, { method: 'PATCH', url: apiPath(`insights/${w.insights[kind].id}/`), payload: { dashboards: [w.dashboardId, boardId] } });
    }
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('shares from the Share button; the link opens signed out, read-only, with the API numbers; Reset link closes the old one', async () => {
    const owner = await openPage(w);
    await owner.page.goto(`${w.base}/project/${w.who.projectId}/dashboard/${boardId}`);
    await expect.poll(() => owner.page.getByTestId('dashboard-tile').count()).toBe(2);
    await owner.page.getByRole('button', { name: 'Share', exact: true }).click();
    const panel = owner.page.getByTestId('share-panel');
    await panel.getByLabel(/Share publicly: anyone with the link can see this dashboard/).check();
    const link = await panel.getByTestId('share-link').inputValue();
    const sharing = await getApi(w, apiPath(`dashboards/${boardId}/sharing/`));
    expect(sharing.enabled).toBe(true);
    expect(link).toBe(`${w.base}/shared/${sharing.access_token}`);

    // A fresh browser with no session.
    const visitor = await openPage(w, { signIn: false });
    await visitor.page.goto(link);
    await expect.poll(() => visitor.page.getByTestId('dashboard-name').textContent()).toBe('Public numbers');
    await expect.poll(() => visitor.page.getByTestId('dashboard-tile').count()).toBe(2);
    const trendsTile = visitor.page.locator(`[data-testid=dashboard-tile][data-insight="${w.insights.trends.short_id}"]`);
    // The numbers a script gets for the insight's query over the dashboard's dates ...
    const api = (await queryApi(w, { ...SOURCES.trends, dateRange: BOARD_RANGE })).results as { count: number }[];
    await expect.poll(async () => (await legendItems(trendsTile)).map((l) => l.value)).toEqual(api.map((s) => String(s.count)));
    // ... and the owner's dashboard answer agrees.
    const ownersTile = ((await getApi(w, apiPath(`dashboards/${boardId}/?refresh=blocking`))).tiles as { insight: { id: number; result: { count: number }[] } }[])
      .find((tile) => tile.insight.id === w.insights.trends.id)!;
    expect(ownersTile.insight.result.map((s) => s.count)).toEqual(api.map((s) => s.count));
    expect(api.map((s) => s.count).some((n) => n > 0)).toBe(true);

    // Read-only: no edit controls, no links into the app, no session.
    for (const name of ['Edit layout', 'Share', 'Duplicate', 'Delete', 'Refresh', 'Sign out']) {
      expect(await visitor.page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }
    expect(await visitor.page.getByTestId('dashboard-tile').locator('a').count()).toBe(0);
    expect(await visitor.page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await screenshot(visitor.page, 'dashboard-shared');

    // Reset link: the old link stops at once, the new one opens.
    await panel.getByRole('button', { name: 'Reset link' }).click();
    await expect.poll(() => panel.getByTestId('share-link').inputValue()).not.toBe(link);
    const fresh = await panel.getByTestId('share-link').inputValue();
    expect(fresh).toBe(`${w.base}/shared/${(await getApi(w, apiPath(`dashboards/${boardId}/sharing/`))).access_token}`);
    await visitor.page.goto(link);
    await visitor.page.getByRole('alert').waitFor();
    expect(await visitor.page.getByTestId('dashboard-tile').count()).toBe(0);
    await visitor.page.goto(fresh);
    await expect.poll(() => visitor.page.getByTestId('dashboard-tile').count()).toBe(2);

    expect(owner.problems).toEqual([]);
    // The old link's 403 is the one expected failure the visitor's console saw.
    expect(visitor.problems).toEqual([]);
    await visitor.context.close();
    await owner.context.close();
  }, TIMEOUT);
});
