// Managing dashboards and insights in Chromium against a real Hoglet: a dashboard made from the
// list, insights added, tiles moved and resized with the pointer (the layout read back from the
// API after a reload), a tile removed, renamed, duplicated (the copy has the same tiles) and
// deleted; an insight renamed, duplicated, exported (CSV equal to the API's numbers, a PNG file)
// and deleted (gone from the list, 404 from the API).
import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApi, hasChromium, openPage, screenshot, SOURCES, startWorld, type World } from './harness.js';

const TIMEOUT = 120_000;

interface ApiTile { id: number; layouts: { sm?: { x: number; y: number; w: number; h: number } }; insight: { id: number; name: string } }

/** Drags from the middle of `handle` by (dx, dy) pixels with the mouse (pointer events). */
async function drag(page: Page, handle: Locator, dx: number, dy: number): Promise<void> {
  const box = (await handle.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 12 });
  await page.mouse.up();
}

const cellsOnScreen = (page: Page) =>
  page.getByTestId('board-cell').evaluateAll((cells) => cells.map((c) => [Number(c.getAttribute('data-tile')), c.getAttribute('data-cell')]));

/** A CSV without quoted cells as rows of cells. */
const csvRows = (text: string) => text.trim().split('\r\n').map((line) => line.split(','));

describe.skipIf(!hasChromium)('managing dashboards and insights in Chromium', () => {
  let w: World;
  let base = '';
  const apiPath = (path: string) => `/api/projects/${w.who.projectId}/${path}`;

  beforeAll(async () => {
    w = await startWorld();
    base = `${w.base}/project/${w.who.projectId}`;
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('makes a dashboard, lays out its tiles, removes one, renames, duplicates and deletes it', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/dashboard`);
    await page.getByRole('button', { name: 'New dashboard' }).click();
    await page.getByLabel('Name').fill('Team board');
    await page.getByLabel('Description').fill('What the team watches');
    await page.getByRole('button', { name: 'Create dashboard' }).click();
    await page.waitForURL(/\/dashboard\/\d+$/);
    const id = Number(page.url().split('/').pop());
    expect(await getApi(w, apiPath(`dashboards/${id}/`))).toMatchObject({ name: 'Team board', description: 'What the team watches', tiles: [] });
    await expect.poll(() => page.getByTestId('dashboard-name').textContent()).toBe('Team board');

    // Two insights added from their pages.
    for (const kind of ['trends', 'funnel'] as const) {
      await page.goto(`${base}/insights/${w.insights[kind].short_id}`);
      await page.getByRole('button', { name: 'Add to dashboard' }).click();
      await page.getByTestId('add-to-dashboard').getByLabel('Dashboard').selectOption({ label: 'Team board' });
      await page.getByTestId('add-to-dashboard').getByRole('button', { name: 'Add' }).click();
      await page.getByRole('status').filter({ hasText: 'Added to' }).waitFor();
    }
    await page.goto(`${base}/dashboard/${id}`);
    await expect.poll(() => page.getByTestId('board-cell').count()).toBe(2);
    const [trendsTile, funnelTile] = ((await getApi(w, apiPath(`dashboards/${id}/`))).tiles as ApiTile[]);
    expect([trendsTile!.insight.id, funnelTile!.insight.id]).toEqual([w.insights.trends.id, w.insights.funnel.id]);
    // Unplaced tiles: two to a row, half the width each.
    expect(await cellsOnScreen(page)).toEqual([[trendsTile!.id, '0,0,6,5'], [funnelTile!.id, '6,0,6,5']]);

    // Edit layout: the trends tile made 2 columns narrower and 2 rows taller, the funnel moved under it.
    await page.getByRole('button', { name: 'Edit layout' }).click();
    const grid = page.getByTestId('dashboard-grid');
    const { colPx, rowPx } = await grid.evaluate((g) => {
      const gap = parseFloat((globalThis as any).getComputedStyle(g).columnGap);
      return { colPx: (g.clientWidth + gap) / 12, rowPx: 56 + gap };
    });
    await drag(page, page.getByRole('button', { name: `Resize ${w.insights.trends.name}`, exact: true }), -2 * colPx, 2 * rowPx);
    await drag(page, page.getByRole('button', { name: `Move ${w.insights.funnel.name}`, exact: true }), -6 * colPx, 7 * rowPx);
    expect(await cellsOnScreen(page)).toEqual([[trendsTile!.id, '0,0,4,7'], [funnelTile!.id, '0,7,6,5']]);
    await screenshot(page, 'dashboard-edit');
    await page.getByRole('button', { name: 'Save layout' }).click();
    await page.getByRole('button', { name: 'Edit layout' }).waitFor();

    await page.reload();
    await expect.poll(() => cellsOnScreen(page)).toEqual([[trendsTile!.id, '0,0,4,7'], [funnelTile!.id, '0,7,6,5']]);
    const laidOut = (await getApi(w, apiPath(`dashboards/${id}/`))).tiles as ApiTile[];
    expect(laidOut.map((t) => [t.id, t.layouts.sm])).toEqual([
      [trendsTile!.id, { x: 0, y: 0, w: 4, h: 7 }],
      [funnelTile!.id, { x: 0, y: 7, w: 6, h: 5 }],
    ]);

    // The arrow keys on a handle move a tile by a cell; Cancel puts everything back.
    await page.getByRole('button', { name: 'Edit layout' }).click();
    await page.getByRole('button', { name: `Move ${w.insights.trends.name}`, exact: true }).press('ArrowRight');
    await page.getByRole('button', { name: `Resize ${w.insights.funnel.name}`, exact: true }).press('ArrowRight');
    expect(await cellsOnScreen(page)).toEqual([[trendsTile!.id, '1,0,4,7'], [funnelTile!.id, '0,7,7,5']]);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await cellsOnScreen(page)).toEqual([[trendsTile!.id, '0,0,4,7'], [funnelTile!.id, '0,7,6,5']]);

    // A third tile, then removed from the dashboard (its insight stays).
    await w.t.request(w.who.key, { method: 'PATCH', url: apiPath(`insights/${w.insights.stickiness.id}/`), payload: { dashboards: [w.dashboardId, id] } });
    await page.reload();
    await expect.poll(() => page.getByTestId('board-cell').count()).toBe(3);
    await page.getByRole('button', { name: `Remove ${w.insights.stickiness.name} from dashboard` }).click();
    await expect.poll(() => page.getByTestId('board-cell').count()).toBe(2);
    expect(((await getApi(w, apiPath(`dashboards/${id}/`))).tiles as ApiTile[]).map((t) => t.insight.id)).toEqual([w.insights.trends.id, w.insights.funnel.id]);
    expect((await getApi(w, apiPath(`insights/${w.insights.stickiness.id}/`))).deleted).toBe(false);

    // Renamed and described in place.
    await page.getByRole('button', { name: 'Edit name' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Growth board');
    await page.getByRole('textbox', { name: 'Name' }).press('Enter');
    await expect.poll(() => page.getByTestId('dashboard-name').textContent()).toBe('Growth board');
    await page.getByRole('button', { name: 'Edit description' }).click();
    await page.getByRole('textbox', { name: 'Description' }).fill('Signups and what follows');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByTestId('dashboard-description').textContent()).toBe('Signups and what follows');
    expect(await getApi(w, apiPath(`dashboards/${id}/`))).toMatchObject({ name: 'Growth board', description: 'Signups and what follows' });
    await screenshot(page, 'dashboard-edit-renamed');

    // Duplicated: the copy shows the same insights in the same places.
    await page.getByRole('button', { name: 'Duplicate' }).click();
    expect(await page.getByTestId('duplicate-dashboard').getByLabel('Name').inputValue()).toBe('Growth board (Copy)');
    await screenshot(page, 'dashboard-edit-duplicate');
    await page.getByTestId('duplicate-dashboard').getByRole('button', { name: 'Duplicate' }).click();
    await page.waitForURL((url) => /\/dashboard\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${id}`));
    const copyId = Number(page.url().split('/').pop());
    await expect.poll(() => page.getByTestId('dashboard-name').textContent()).toBe('Growth board (Copy)');
    await expect.poll(() => page.getByTestId('board-cell').count()).toBe(2);
    const copy = await getApi(w, apiPath(`dashboards/${copyId}/`));
    expect(copy.description).toBe('Signups and what follows');
    expect((copy.tiles as ApiTile[]).map((t) => [t.insight.id, t.layouts.sm])).toEqual(laidOut.map((t) => [t.insight.id, t.layouts.sm]));

    // Deleted (the copy) after confirming: the list, then 404 from the API; the source stays.
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('confirm-delete').getByRole('button', { name: 'Delete dashboard' }).click();
    await page.waitForURL(`${base}/dashboard`);
    await page.getByTestId('dashboards-table').getByRole('link', { name: 'Growth board', exact: true }).waitFor();
    expect(await page.getByTestId('dashboards-table').getByRole('link', { name: 'Growth board (Copy)' }).count()).toBe(0);
    expect((await w.t.request(w.who.key, { method: 'GET', url: apiPath(`dashboards/${copyId}/`) })).statusCode).toBe(404);
    expect((await getApi(w, apiPath(`dashboards/${id}/`))).tiles).toHaveLength(2);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('renames, duplicates, exports (CSV and PNG) and deletes an insight', async () => {
    const { page, context, problems } = await openPage(w);
    const trends = w.insights.trends;
    await page.goto(`${base}/insights/${trends.short_id}`);
    await page.locator('.insight-view canvas').waitFor();

    await page.getByRole('button', { name: 'Edit name' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Weekly traffic');
    await page.getByRole('textbox', { name: 'Name' }).press('Enter');
    await expect.poll(() => page.getByTestId('insight-name').textContent()).toBe('Weekly traffic');
    expect((await getApi(w, apiPath(`insights/${trends.id}/`))).name).toBe('Weekly traffic');

    // CSV: one row per series, a column per day, PostHog's exporter's layout; the API's numbers.
    await page.getByRole('button', { name: 'Export' }).click();
    await screenshot(page, 'insight-menu');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csv.suggestedFilename()).toBe('Weekly traffic.csv');
    const api = (await getApi(w, apiPath(`insights/${trends.id}/?refresh=force_cache`))).result as { label: string; labels: string[]; data: number[] }[];
    expect(api.map((s) => s.label)).toEqual(['$pageview', 'signed_up']);
    expect(csvRows(fs.readFileSync((await csv.path())!, 'utf8'))).toEqual([
      ['series', ...api[0]!.labels],
      ...api.map((s) => [s.label, ...s.data.map(String)]),
    ]);

    // PNG: the chart's canvas.
    await page.getByRole('button', { name: 'Export' }).click();
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export PNG' }).click()]);
    expect(png.suggestedFilename()).toBe('Weekly traffic.png');
    const bytes = fs.readFileSync((await png.path())!);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(bytes.length).toBeGreaterThan(2000);

    // Duplicated: a new insight "<name> (copy)" with the same query, opened.
    await page.getByRole('button', { name: 'Duplicate' }).click();
    await page.waitForURL((url) => url.pathname.startsWith(`/project/${w.who.projectId}/insights/`) && !url.pathname.endsWith(trends.short_id));
    await expect.poll(() => page.getByTestId('insight-name').textContent()).toBe('Weekly traffic (copy)');
    const copyShortId = page.url().split('/').pop()!;
    const copy = await getApi(w, apiPath(`insights/${copyShortId}/`));
    const original = await getApi(w, apiPath(`insights/${trends.id}/`));
    expect(copy.name).toBe('Weekly traffic (copy)');
    expect(copy.query).toEqual(original.query);
    expect(copy.id).not.toBe(original.id);

    // Deleted (the copy) after confirming: gone from the list, 404 from the API.
    await page.locator('.insight-view canvas').waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('confirm-delete').getByRole('button', { name: 'Delete insight' }).click();
    await page.waitForURL(`${base}/insights`);
    const list = page.getByTestId('insights-table');
    await list.getByRole('link', { name: 'Weekly traffic', exact: true }).waitFor();
    expect(await list.getByRole('link', { name: 'Weekly traffic (copy)' }).count()).toBe(0);
    expect((await w.t.request(w.who.key, { method: 'GET', url: apiPath(`insights/${copy.id}/`) })).statusCode).toBe(404);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('exports funnels and retention as PostHog lays them out', async () => {
    const { page, context, problems } = await openPage(w);
    const exported = async (kind: 'funnel' | 'retention') => {
      await page.goto(`${base}/insights/${w.insights[kind].short_id}`);
      await page.locator('.insight-view').waitFor();
      await page.getByRole('button', { name: 'Export' }).click();
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      return csvRows(fs.readFileSync((await file.path())!, 'utf8'));
    };
    // The page calculates what is not cached yet; the API then answers the same cached result.
    const funnelCsv = await exported('funnel');
    const funnel = (await getApi(w, apiPath(`insights/${w.insights.funnel.id}/?refresh=force_cache`))).result as { action_id: string; count: number; median_conversion_time: number | null; average_conversion_time: number | null; custom_name: string | null }[];
    expect(funnelCsv).toEqual([
      ['name', 'breakdown_value', 'action_id', 'count', 'median_conversion_time (seconds)', 'average_conversion_time (seconds)'],
      ...funnel.map((s) => [s.custom_name || s.action_id, '', s.action_id, String(s.count), String(s.median_conversion_time ?? ''), String(s.average_conversion_time ?? '')]),
    ]);
    expect(funnel.map((s) => s.count)).toEqual([5, 3, 2]);

    const retentionCsv = await exported('retention');
    const retention = (await getApi(w, apiPath(`insights/${w.insights.retention.id}/?refresh=force_cache`))).result as { date: string; values: { count: number; label: string }[] }[];
    const header = ['cohort', 'cohort size', ...retention[0]!.values.map((v) => v.label)];
    const pad = (cells: string[]) => [...cells, ...Array(header.length - cells.length).fill('')];
    expect(retentionCsv).toEqual([
      header,
      ...retention.map((r) => pad([r.date, String(r.values[0]?.count ?? 0), ...r.values.map((v) => (v.count === null ? '' : String(v.count)))])),
    ]);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('exports a SQL table and a trend broken down as PostHog lays them out', async () => {
    const { page, context, problems } = await openPage(w);
    const make = async (name: string, query: object) => {
      const res = await w.t.request(w.who.key, { method: 'POST', url: apiPath('insights/'), payload: { name, query, saved: true } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: number; short_id: string };
    };
    const exported = async (shortId: string) => {
      await page.goto(`${base}/insights/${shortId}`);
      await page.locator('.insight-view').waitFor();
      await page.getByRole('button', { name: 'Export' }).click();
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      return csvRows(fs.readFileSync((await file.path())!, 'utf8'));
    };

    // A SQL insight: its columns, then its rows.
    const sql = await make('Events by name', {
      kind: 'DataVisualizationNode',
      display: 'ActionsTable',
      source: { kind: 'HogQLQuery', query: 'select event, count() as total from events group by event order by total desc, event' },
    });
    const sqlCsv = await exported(sql.short_id);
    const table = await getApi(w, apiPath(`insights/${sql.id}/?refresh=force_cache`));
    expect(table.columns).toEqual(['event', 'total']);
    expect(sqlCsv).toEqual([['event', 'total'], ...(table.result as unknown[][]).map((row) => row.map(String))]);
    expect(sqlCsv[1]).toEqual(['$pageview', '16']);

    // A trend by browser: the series' event name, the breakdown as a column named by its property, a column per day.
    const byBrowser = await make('Pageviews by browser', {
      kind: 'InsightVizNode',
      source: { ...SOURCES.trends, series: [SOURCES.trends.series[0]], breakdownFilter: { breakdown: '$browser', breakdown_type: 'event' } },
    });
    const trendCsv = await exported(byBrowser.short_id);
    const series = (await getApi(w, apiPath(`insights/${byBrowser.id}/?refresh=force_cache`))).result as { label: string; action: { name?: string } | null; breakdown_value: string; labels: string[]; data: number[] }[];
    expect(trendCsv).toEqual([
      ['series', '$browser', ...series[0]!.labels],
      ...series.map((s) => [s.action?.name ?? s.label, s.breakdown_value, ...s.data.map(String)]),
    ]);
    expect(series.map((s) => s.breakdown_value).sort()).toEqual(['Chrome', 'Firefox', 'Safari']);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
