// The web app in Chromium against a real Hoglet: what a person sees on each page must be the
// API's numbers for the same query (read from the legend and the data table, which carry the
// exact values), and no page may throw, log an error or fetch from anywhere but Hoglet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hasChromium, legendItems, openInsight, openPage, PASSWORD, queryApi, screenshot, SOURCES, startWorld, tableRows, type World,
} from './harness.js';

if (!hasChromium && process.env.CI) throw new Error('Chromium is missing at /usr/bin/chromium (or HOGLET_CHROMIUM).');

const TIMEOUT = 60_000;
const str = (values: unknown[]) => values.map((v) => String(v));

describe.skipIf(!hasChromium)('web app in Chromium', () => {
  let w: World;

  beforeAll(async () => {
    w = await startWorld();
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('signs in with the password (wrong ones show the API\'s detail), shows the shell, signs out', async () => {
    const { page, context, problems } = await openPage(w, { signIn: false });
    await page.goto(`${w.base}/`);
    await page.waitForURL(/\/login/);
    await screenshot(page, 'login');
    await page.getByLabel('Email').fill(w.who.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid email or password.');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/insights`);
    await expect.poll(() => page.getByTestId('signed-in-email').textContent()).toBe(w.who.email);
    const projects = await page.getByRole('combobox', { name: 'Project' }).locator('option').allTextContents();
    expect(projects).toContain('Default project');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    expect((await context.request.get(`${w.base}/api/users/@me/`)).status()).toBe(401);
    // A signed-out visit to a project page goes to the sign-in page and comes back after it.
    await page.goto(`${w.base}/project/${w.who.projectId}/dashboard`);
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel('Email').fill(w.who.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/dashboard`);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('lists insights with kind, tags and creator; searches, filters by tag and favourites', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights`);
    const table = page.getByTestId('insights-table');
    await expect.poll(async () => (await tableRows(table)).length).toBe(6);
    const funnelRow = table.locator(`tr[data-short-id="${w.insights.funnel.short_id}"]`);
    expect(await funnelRow.locator('td').nth(2).textContent()).toBe('Funnels');
    expect(await funnelRow.locator('td').nth(3).textContent()).toBe('growth');
    expect(await funnelRow.locator('td').nth(4).textContent()).toBe('ada');
    await screenshot(page, 'insights-list');

    await page.getByRole('searchbox', { name: 'Search insights' }).fill('retention');
    await expect.poll(async () => (await tableRows(table)).map((r) => r.cells[1])).toEqual(['Retention of the week']);
    await page.getByRole('searchbox', { name: 'Search insights' }).fill('');
    await expect.poll(async () => (await tableRows(table)).length).toBe(6);

    await page.getByLabel('Tag').selectOption('growth');
    await expect.poll(async () => (await tableRows(table)).map((r) => r.cells[1])).toEqual(['Funnel of the week']);
    await page.getByLabel('Tag').selectOption('');

    await table.locator(`tr[data-short-id="${w.insights.paths.short_id}"]`).getByRole('button', { name: 'Add to favourites' }).click();
    await expect.poll(async () => {
      const res = await w.t.request(w.who.key, { method: 'GET', url: `/api/projects/${w.who.projectId}/insights/${w.insights.paths.id}/` });
      return res.json().favorited;
    }).toBe(true);
    await page.getByLabel('Only favourites').check();
    await expect.poll(async () => (await tableRows(table)).map((r) => r.cells[1])).toEqual(['Paths of the week']);
    await page.getByLabel('Only favourites').uncheck();
    await page.getByLabel('Created by me').check();
    await expect.poll(async () => (await tableRows(table)).length).toBe(6);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('trends: the legend and data table show the API\'s counts; display, breakdown and compare re-run the query', async () => {
    const { page, context, problems } = await openPage(w);
    const view = await openInsight(w, page, 'trends');
    const api = (await queryApi(w, SOURCES.trends)).results as { count: number; data: number[]; label: string }[];
    const rows = await tableRows(view.getByTestId('data-table'));
    expect(rows.map((r) => r.cells.slice(1))).toEqual(api.map((item) => str([item.count, ...item.data])));
    expect((await legendItems(view)).map((l) => [l.label, l.value])).toEqual(api.map((item) => [item.label, String(item.count)]));
    expect(await page.getByTestId('last-computed').textContent()).toMatch(/^Computed /);
    await screenshot(page, 'trends-line');

    // The user viewed it: the list's last-viewed data knows.
    const viewed = await w.t.request(w.who.key, { method: 'GET', url: `/api/projects/${w.who.projectId}/insights/my_last_viewed/` });
    expect(viewed.json().map((i: { id: number }) => i.id)).toContain(w.insights.trends.id);

    // Number display: the total of the first series, as the API answers it.
    await page.getByLabel('Display').selectOption('BoldNumber');
    const number = await queryApi(w, { ...SOURCES.trends, trendsFilter: { display: 'BoldNumber' } });
    await expect.poll(() => page.getByTestId('bold-number').locator('.bold-value').getAttribute('data-value')).toBe(String(number.results[0].aggregated_value));
    await screenshot(page, 'trends-number');

    for (const display of ['ActionsBar', 'ActionsStackedBar', 'ActionsAreaGraph', 'ActionsPie', 'ActionsTable']) {
      await page.getByLabel('Display').selectOption(display);
      await page.locator('.loading').waitFor({ state: 'detached' });
      await screenshot(page, `trends-${display}`);
    }
    await page.getByLabel('Display').selectOption('ActionsLineGraph');

    // Breakdown by an event property.
    await page.getByLabel('Breakdown', { exact: true }).fill('$browser');
    await page.getByRole('button', { name: 'Apply' }).click();
    const broken = (await queryApi(w, { ...SOURCES.trends, breakdownFilter: { breakdown: '$browser', breakdown_type: 'event' } })).results as { count: number; data: number[] }[];
    await expect.poll(async () => (await tableRows(view.getByTestId('data-table'))).map((r) => r.cells.slice(1))).toEqual(broken.map((i) => str([i.count, ...i.data])));
    await screenshot(page, 'trends-breakdown');

    // Compared with the previous period.
    await page.getByLabel('Breakdown', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByLabel('Compare to previous period').check();
    const compared = (await queryApi(w, { ...SOURCES.trends, compareFilter: { compare: true } })).results as { count: number; data: number[] }[];
    await expect.poll(async () => (await tableRows(view.getByTestId('data-table'))).map((r) => r.cells.slice(1))).toEqual(compared.map((i) => str([i.count, ...i.data])));
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('funnels: step counts and conversion as the API answers; a step opens the people who reached it', async () => {
    const { page, context, problems } = await openPage(w);
    const view = await openInsight(w, page, 'funnel');
    const api = (await queryApi(w, SOURCES.funnel)).results as { count: number; name: string }[];
    const rows = await tableRows(view.getByTestId('data-table'));
    expect(rows.map((r) => r.cells[1])).toEqual(str(api.map((s) => s.count)));
    expect(rows.map((r) => r.cells[0])).toEqual(api.map((s, i) => `${i + 1}. ${s.name}`));
    expect(rows.map((r) => Number(r.cells[2]))).toEqual(api.map((s) => s.count / api[0]!.count));
    await screenshot(page, 'funnel-steps');

    await view.getByTestId('data-table').locator('tbody tr').nth(1).click();
    const panel = page.getByTestId('people-panel');
    const actors = await queryApi(w, { kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source: SOURCES.funnel, funnelStep: 2 }, select: ['person'] });
    const expected = (actors.results as [{ properties: { email?: string }; distinct_ids: string[] }][]).map(([p]) => p.properties.email ?? p.distinct_ids[0]).sort();
    expect(expected.length).toBe(api[1]!.count);
    await expect.poll(async () => (await panel.locator('.people-list li strong').allTextContents()).sort()).toEqual(expected);
    await screenshot(page, 'funnel-people');
    await panel.getByRole('button', { name: 'Dropped off' }).click();
    const dropped = await queryApi(w, { kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source: SOURCES.funnel, funnelStep: -2 }, select: ['person'] });
    await expect.poll(() => panel.locator('.people-list li').count()).toBe(dropped.results.length);
    await panel.getByRole('button', { name: 'Close' }).click();

    await page.getByLabel('Layout').selectOption('horizontal');
    await page.locator('.loading').waitFor({ state: 'detached' });
    await screenshot(page, 'funnel-steps-horizontal');

    await page.getByLabel('Graph').selectOption('time_to_convert');
    const ttc = (await queryApi(w, { ...SOURCES.funnel, funnelsFilter: { ...SOURCES.funnel.funnelsFilter, funnelVizType: 'time_to_convert' } })).results;
    const bins = (Array.isArray(ttc) ? ttc[0] : ttc).bins as [number, number][];
    await view.getByRole('button', { name: 'Show data table' }).click();
    await expect.poll(async () => (await tableRows(view.getByTestId('data-table'))).map((r) => r.cells)).toEqual(bins.map(([s, c]) => str([s, c])));
    await screenshot(page, 'funnel-time-to-convert');

    await page.getByLabel('Graph').selectOption('trends');
    const trends = (await queryApi(w, { ...SOURCES.funnel, funnelsFilter: { ...SOURCES.funnel.funnelsFilter, funnelVizType: 'trends' } })).results as { data: number[] }[];
    await view.getByRole('button', { name: 'Show data table' }).click();
    await expect.poll(async () => (await tableRows(view.getByTestId('data-table'))).map((r) => r.cells.slice(1))).toEqual(trends.map((i) => str(i.data)));
    await screenshot(page, 'funnel-trends');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('retention: the cohort grid holds the API\'s counts; a cohort opens its people', async () => {
    const { page, context, problems } = await openPage(w);
    const view = await openInsight(w, page, 'retention');
    const api = (await queryApi(w, SOURCES.retention)).results as { values: { count: number }[] }[];
    const grid = await tableRows(view.getByTestId('retention-grid'));
    expect(grid.map((r) => r.cells.slice(1))).toEqual(api.map((row) => str([row.values[0]!.count, ...row.values.map((v) => v.count)])));
    await screenshot(page, 'retention');
    await view.getByTestId('retention-grid').locator('tbody tr').first().click();
    const actors = await queryApi(w, { kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source: SOURCES.retention, interval: 0 }, select: ['person'] });
    await expect.poll(() => page.getByTestId('people-panel').locator('.people-list li').count()).toBe(actors.results.length);
    expect(actors.results.length).toBe(api[0]!.values[0]!.count);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('paths: the sankey\'s nodes and edges are the API\'s, and a hidden or 0x0 chart does not crash', async () => {
    const { page, context, problems } = await openPage(w);
    const view = await openInsight(w, page, 'paths');
    const api = (await queryApi(w, SOURCES.paths)).results as { source: string; target: string; value: number }[];
    // Labels are short (app-fixes.test.ts checks them); each node is one legend item, keyed by the API's key.
    const nodes = [...new Set(api.flatMap((e) => [e.source, e.target]))];
    expect((await legendItems(view)).map((l) => l.key).sort()).toEqual(nodes.sort());
    const rows = await tableRows(view.getByTestId('data-table'));
    expect(rows.map((r) => r.cells.slice(0, 3))).toEqual(api.map((e) => [e.source, e.target, String(e.value)]));
    await screenshot(page, 'paths');

    // Collapse the chart's box to nothing and hide it, then bring it back.
    await page.evaluate(() => {
      const box = (globalThis as any).document.querySelector('.chart-box');
      box.style.width = '0px';
      box.style.height = '0px';
    });
    await page.waitForTimeout(100);
    await page.evaluate(() => { (globalThis as any).document.querySelector('.chart-box').style.display = 'none'; });
    await page.waitForTimeout(100);
    await page.evaluate(() => {
      const box = (globalThis as any).document.querySelector('.chart-box');
      box.style.display = '';
      box.style.width = '';
      box.style.height = '420px';
    });
    await page.waitForTimeout(100);
    // The page opened at a 0x0-ish window too.
    const tiny = await openPage(w, { width: 1, height: 1 });
    await tiny.page.goto(`${w.base}/project/${w.who.projectId}/insights/${w.insights.paths.short_id}`);
    await tiny.page.locator('.insight-view').waitFor({ state: 'attached' });
    await tiny.page.setViewportSize({ width: 1024, height: 700 });
    await tiny.page.waitForTimeout(200);
    expect(tiny.problems).toEqual([]);
    await tiny.context.close();

    // An edge row opens the people who walked it.
    await view.getByTestId('data-table').locator('tbody tr').first().click();
    const first = api[0]!;
    const actors = await queryApi(w, { kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source: SOURCES.paths, pathStartKey: first.source, pathEndKey: first.target }, select: ['person'] });
    await expect.poll(() => page.getByTestId('people-panel').locator('.people-list li').count()).toBe(actors.results.length);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('stickiness and lifecycle: bars per interval with the API\'s numbers (dormant negative)', async () => {
    const { page, context, problems } = await openPage(w);
    let view = await openInsight(w, page, 'stickiness');
    const sticky = (await queryApi(w, SOURCES.stickiness)).results as { count: number; data: number[] }[];
    expect((await tableRows(view.getByTestId('data-table'))).map((r) => r.cells.slice(1))).toEqual(sticky.map((i) => str([i.count, ...i.data])));
    await screenshot(page, 'stickiness');
    // A click on the chart itself: the "2 days" bar fills the plot's height (4 of 5 people), so its
    // middle is a safe target. It opens the people active on exactly 2 days.
    const canvas = view.locator('canvas');
    const box = (await canvas.boundingBox())!;
    const days = sticky[0]!.data.length;
    expect(sticky[0]!.data[1]).toBe(Math.max(...sticky[0]!.data));
    await canvas.click({ position: { x: 40 + ((box.width - 50) / days) * 1.5, y: box.height * 0.5 } });
    const panel = page.getByTestId('people-panel');
    await expect.poll(() => panel.locator('.side-panel-head p').textContent()).toBe('$pageview: 2 days');
    await expect.poll(() => panel.locator('.people-list li').count()).toBe(sticky[0]!.data[1]);
    await panel.getByRole('button', { name: 'Close' }).click();

    view = await openInsight(w, page, 'lifecycle');
    const life = (await queryApi(w, SOURCES.lifecycle)).results as { status: string; count: number; data: number[] }[];
    const rows = await tableRows(view.getByTestId('data-table'));
    expect(rows.map((r) => [r.key, ...r.cells.slice(1)])).toEqual(life.map((i) => [i.status, ...str([i.count, ...i.data])]));
    expect(life.find((i) => i.status === 'dormant')!.data.every((v) => v <= 0)).toBe(true);
    await screenshot(page, 'lifecycle');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('dashboards: the list, the tiles with their insights\' numbers, and a date range over every tile', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/dashboard`);
    await page.getByRole('link', { name: 'Weekly numbers' }).waitFor();
    await screenshot(page, 'dashboards-list');
    await page.getByRole('link', { name: 'Weekly numbers' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/dashboard/${w.dashboardId}`);
    const tiles = page.getByTestId('dashboard-tile');
    await expect.poll(() => tiles.count()).toBe(6);
    const trendsTile = page.locator(`[data-testid=dashboard-tile][data-insight="${w.insights.trends.short_id}"]`);
    const api = (await queryApi(w, SOURCES.trends)).results as { label: string; count: number }[];
    await expect.poll(async () => (await legendItems(trendsTile)).map((l) => l.value)).toEqual(api.map((i) => String(i.count)));
    await screenshot(page, 'dashboard');

    await page.getByLabel('Date range').selectOption('all');
    const all = (await queryApi(w, { ...SOURCES.trends, dateRange: { date_from: 'all', date_to: null } })).results as { count: number }[];
    await expect.poll(async () => (await legendItems(trendsTile)).map((l) => l.value)).toEqual(all.map((i) => String(i.count)));
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('a shared insight opens without signing in, read-only, with the same numbers', async () => {
    const sharing = await w.t.request(w.who.key, { method: 'PATCH', url: `/api/projects/${w.who.projectId}/insights/${w.insights.funnel.id}/sharing/`, payload: { enabled: true } });
    const token = sharing.json().access_token as string;
    const { page, context, problems } = await openPage(w, { signIn: false });
    await page.goto(`${w.base}/shared/${token}`);
    await expect.poll(() => page.getByTestId('insight-name').textContent()).toBe('Funnel of the week');
    await page.getByRole('button', { name: 'Show data table' }).click();
    const api = (await queryApi(w, SOURCES.funnel)).results as { count: number }[];
    expect((await tableRows(page.getByTestId('data-table'))).map((r) => r.cells[1])).toEqual(str(api.map((s) => s.count)));
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    // Read-only: rows open no People panel.
    await page.getByTestId('data-table').locator('tbody tr').first().click();
    expect(await page.getByTestId('people-panel').count()).toBe(0);
    await screenshot(page, 'shared');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
