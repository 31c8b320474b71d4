// Results in Chromium against a real Hoglet: dashboard filters through ?filters_override= (Save,
// Discard), background refreshes followed through query_status, the people behind a trends point,
// the world map display, and the project switcher after a rename.
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  captureNow, getApi, hasChromium, legendItems, openInsight, openPage, pick, queryApi, screenshot, SOURCES, startWorld, tableRows, type World,
} from './harness.js';

const TIMEOUT = 60_000;
const str = (values: unknown[]) => values.map((v) => String(v));

/** Saves an insight over the API and returns its short id. */
async function saveInsight(w: World, name: string, source: object): Promise<string> {
  const res = await w.t.request(w.who.key, {
    method: 'POST',
    url: `/api/projects/${w.who.projectId}/insights/`,
    payload: { name, query: { kind: 'InsightVizNode', source }, saved: true },
  });
  if (res.statusCode !== 201) throw new Error(`insight: ${res.body}`);
  return res.json().short_id;
}

/** The ActorsQuery bodies the page posts to /query/. */
function watchActors(page: Page): any[] {
  const sent: any[] = [];
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || !request.url().endsWith('/query/')) return;
    const body = request.postDataJSON();
    if (body?.query?.kind === 'ActorsQuery') sent.push(body.query);
  });
  return sent;
}

describe.skipIf(!hasChromium)('results in Chromium', () => {
  let w: World;
  let project: string;

  beforeAll(async () => {
    w = await startWorld();
    project = String(w.who.projectId);
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('dashboard filters re-request the dashboard with filters_override; Save stores them, Discard goes back', async () => {
    const { page, context, problems } = await openPage(w);
    const requests: string[] = [];
    const queried: string[] = [];
    page.on('request', (r) => {
      requests.push(`${r.method()} ${r.url()}`);
      if (r.method() === 'POST' && r.url().endsWith('/query/')) queried.push(r.postDataJSON()?.query?.kind);
    });
    const path = `/api/projects/${project}/dashboards/${w.dashboardId}/`;
    await page.goto(`${w.base}/project/${project}/dashboard/${w.dashboardId}`);
    const tiles = page.getByTestId('dashboard-tile');
    await expect.poll(() => tiles.count()).toBe(6);
    const tile = (kind: keyof typeof SOURCES) => page.locator(`[data-testid=dashboard-tile][data-insight="${w.insights[kind].short_id}"]`);
    const bar = page.getByTestId('dashboard-filters');
    expect(await bar.getByTestId('filters-unsaved').count()).toBe(0);

    // A custom range and a property filter: every tile computed through them by the server.
    await bar.getByLabel('Date range').selectOption('custom');
    await bar.locator('input[name=dashboard-range-from]').fill('2024-01-02');
    await bar.locator('input[name=dashboard-range-to]').fill('2024-01-05');
    await bar.getByRole('button', { name: '+ Add filter' }).click();
    await pick(bar, 'Filter 1 property', '$brow', '$browser');
    // Values are suggested from the last 7 days only; these events are older, so it is typed.
    const value = bar.getByRole('combobox', { name: 'Filter 1 value', exact: true });
    await value.fill('Chrome');
    await value.press('Enter');
    const properties = [{ key: '$browser', operator: 'exact', type: 'event', value: ['Chrome'] }];
    const through = (source: object) => ({ ...source, dateRange: { date_from: '2024-01-02', date_to: '2024-01-05' }, properties });

    const expectTiles = async (over: (source: object) => object) => {
      const trends = (await queryApi(w, over(SOURCES.trends))).results as { count: number }[];
      await expect.poll(async () => (await legendItems(tile('trends'))).map((l) => l.value)).toEqual(trends.map((i) => String(i.count)));
      const sticky = (await queryApi(w, over(SOURCES.stickiness))).results as { count: number }[];
      await expect.poll(async () => (await legendItems(tile('stickiness'))).map((l) => l.value)).toEqual(sticky.map((i) => String(i.count)));
      const funnel = (await queryApi(w, over(SOURCES.funnel))).results as { count: number }[];
      const funnelTile = tile('funnel');
      if ((await funnelTile.getByTestId('data-table').count()) === 0) await funnelTile.getByRole('button', { name: 'Show data table' }).click();
      await expect.poll(async () => (await tableRows(funnelTile.getByTestId('data-table'))).map((r) => r.cells[1])).toEqual(str(funnel.map((s) => s.count)));
      return trends;
    };
    const filtered = await expectTiles(through);
    // The range really narrowed the numbers (the week has more).
    const week = (await queryApi(w, SOURCES.trends)).results as { count: number }[];
    expect(filtered.map((i) => i.count)).not.toEqual(week.map((i) => i.count));
    expect(requests.some((r) => r.startsWith('GET') && r.includes('filters_override=') && r.includes('2024-01-02'))).toBe(true);
    // The server does the work: no tile re-ran its own query.
    expect(queried.filter((kind) => kind !== 'HogQLQuery')).toEqual([]);
    await bar.getByTestId('filters-unsaved').waitFor();
    await screenshot(page, 'dashboard-filters');
    // Nothing stored yet.
    expect((await getApi(w, path)).persisted_filters).toBe(null);

    await bar.getByRole('button', { name: 'Save' }).click();
    await bar.getByTestId('filters-unsaved').waitFor({ state: 'detached' });
    const stored = await getApi(w, path);
    expect(stored.persisted_filters).toEqual({ date_from: '2024-01-02', date_to: '2024-01-05', properties });
    expect(stored.filters).toEqual(stored.persisted_filters);

    await page.reload();
    await expect.poll(() => page.locator('input[name=dashboard-range-from]').inputValue()).toBe('2024-01-02');
    expect(await page.locator('input[name=dashboard-range-to]').inputValue()).toBe('2024-01-05');
    expect(await bar.locator('.chip').allTextContents()).toEqual(['Chrome✕']);
    expect(await bar.getByTestId('filters-unsaved').count()).toBe(0);
    await expectTiles(through);

    // Another range, then Discard: back to the stored filters, nothing written.
    await bar.getByLabel('Date range').selectOption('all');
    await bar.getByTestId('filters-unsaved').waitFor();
    const all = (await queryApi(w, { ...SOURCES.trends, dateRange: { date_from: 'all', date_to: null }, properties })).results as { count: number }[];
    await expect.poll(async () => (await legendItems(tile('trends'))).map((l) => l.value)).toEqual(all.map((i) => String(i.count)));
    await bar.getByRole('button', { name: 'Discard' }).click();
    await bar.getByTestId('filters-unsaved').waitFor({ state: 'detached' });
    await expectTiles(through);
    expect(await page.locator('input[name=dashboard-range-from]').inputValue()).toBe('2024-01-02');
    expect((await getApi(w, path)).persisted_filters).toEqual(stored.persisted_filters);

    // A tile's point opens the people counted through the dashboard's filters (Jan 2, Chrome: p3).
    const sent = watchActors(page);
    const trendsTile = tile('trends');
    await trendsTile.getByRole('button', { name: 'Show data table' }).click();
    await trendsTile.getByTestId('data-table').locator('tbody tr').first().locator('td').nth(1).getByRole('button').click();
    const panel = page.getByTestId('people-panel');
    await expect.poll(() => panel.locator('.people-list li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-distinct-ids')))).toEqual(['p3']);
    expect(sent.at(-1).source.source).toMatchObject({ dateRange: { date_from: '2024-01-02', date_to: '2024-01-05' }, properties });
    await panel.getByRole('button', { name: 'Close' }).click();

    // Back to no filters for the other tests.
    await w.t.request(w.who.key, { method: 'PATCH', url: path, payload: { filters: {} } });
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('Refresh starts a background calculation, shows its progress while polling query_status, then the new result', async () => {
    const { page, context, problems } = await openPage(w);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
    const view = await openInsight(w, page, 'trends');
    const computed = page.getByTestId('last-computed');
    await expect.poll(() => computed.getAttribute('data-last-refresh')).not.toBe(null);
    const before = (await computed.getAttribute('data-last-refresh'))!;
    expect(await computed.textContent()).toMatch(/^Computed /);

    // Every status poll held back a little, so the progress state is on screen whatever the speed.
    await page.route((u) => /\/query\/[^/]+\/$/.test(u.pathname), async (route) => {
      if (route.request().method() === 'GET') await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Refresh' }).click();
    const progress = page.getByTestId('refresh-progress');
    await progress.waitFor();
    expect(await computed.getAttribute('data-state')).toBe('refreshing');
    await screenshot(page, 'insight-refreshing');
    await progress.waitFor({ state: 'detached' });

    await expect.poll(() => computed.getAttribute('data-last-refresh')).not.toBe(before);
    const after = (await computed.getAttribute('data-last-refresh'))!;
    expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
    expect(await computed.getAttribute('data-state')).toBe('fresh');
    const refreshCall = requests.find((r) => r.includes(`/insights/${w.insights.trends.short_id}/?refresh=force_async`));
    expect(refreshCall).toBeTruthy();
    const id = new URL(refreshCall!.split(' ')[1]!).searchParams.get('client_query_id')!;
    expect(requests.some((r) => r.startsWith('GET') && r.endsWith(`/query/${id}/`))).toBe(true);

    // The result shown is the API's, and the API now serves the same calculation.
    const api = (await queryApi(w, SOURCES.trends)).results as { count: number; data: number[] }[];
    expect((await tableRows(view.getByTestId('data-table'))).map((r) => r.cells.slice(1))).toEqual(api.map((i) => str([i.count, ...i.data])));
    const stored = await getApi(w, `/api/projects/${project}/insights/${w.insights.trends.id}/?refresh=force_cache`);
    expect(stored.last_refresh).toBe(after);

    // Opened again, it comes from the cache.
    await page.unroute((u) => /\/query\/[^/]+\/$/.test(u.pathname));
    await page.reload();
    await expect.poll(() => computed.getAttribute('data-state')).toBe('cached');
    expect(await computed.textContent()).toContain('from cache');

    // A dashboard's Refresh: every tile follows its own background calculation.
    await page.goto(`${w.base}/project/${project}/dashboard/${w.dashboardId}`);
    const tiles = page.getByTestId('dashboard-tile');
    await expect.poll(() => tiles.count()).toBe(6);
    const stamps = () => page.getByTestId('tile-computed').evaluateAll((els) => els.map((e) => e.getAttribute('data-last-refresh')));
    await expect.poll(async () => (await stamps()).every((s) => s !== null)).toBe(true);
    const first = await stamps();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(async () => (await stamps()).every((s, i) => s !== null && s !== first[i]), { timeout: 20_000 }).toBe(true);
    const trendsTile = page.locator(`[data-testid=dashboard-tile][data-insight="${w.insights.trends.short_id}"]`);
    expect((await legendItems(trendsTile)).map((l) => l.value)).toEqual(api.map((i) => String(i.count)));
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('the people behind a unique-users point: as many as it counts, the right distinct ids, the query PostHog sends', async () => {
    const source = {
      kind: 'TrendsQuery',
      series: [{ kind: 'EventsNode', event: '$pageview', name: '$pageview', math: 'dau' }],
      dateRange: { date_from: '2024-01-01', date_to: '2024-01-07' },
      interval: 'day',
      trendsFilter: { display: 'ActionsLineGraph' },
    };
    const shortId = await saveInsight(w, 'Daily visitors', source);
    // Who viewed a page each day, from the harness's journeys.
    const visitors = [['p1', 'p2'], ['p2', 'p3'], ['p1', 'p4'], ['p3'], ['p4', 'p5'], ['p5'], ['p5']];
    const api = (await queryApi(w, source)).results as { data: number[]; days: string[] }[];
    expect(api[0]!.data).toEqual(visitors.map((v) => v.length));

    const { page, context, problems } = await openPage(w);
    const sent = watchActors(page);
    await page.goto(`${w.base}/project/${project}/insights/${shortId}`);
    const view = page.locator('.insight-view');
    await view.waitFor();
    const panel = page.getByTestId('people-panel');
    const ids = () => panel.locator('.people-list li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-distinct-ids')).sort());

    // A click on the chart's middle point (Jan 4: one visitor).
    const canvas = view.locator('canvas');
    const box = (await canvas.boundingBox())!;
    await canvas.click({ position: { x: box.width / 2 + 10, y: box.height / 2 } });
    await expect.poll(ids).toEqual(visitors[3]);
    expect(sent.at(-1)).toEqual({
      kind: 'ActorsQuery',
      // As PostHog's people modal: the recordings of the matching events beside each person.
      source: { kind: 'InsightActorsQuery', source, series: 0, day: api[0]!.days[3], includeRecordings: true },
      select: ['person', 'matched_recordings'],
      limit: 100,
      offset: 0,
    });
    await panel.getByRole('button', { name: 'Close' }).click();

    // Every day through the data table's cells.
    await view.getByRole('button', { name: 'Show data table' }).click();
    for (const [day, who] of visitors.entries()) {
      await view.getByTestId('data-table').locator('tbody tr').first().locator('td').nth(day + 1).getByRole('button').click();
      await expect.poll(ids).toEqual(who);
      expect(sent.at(-1).source.day).toBe(api[0]!.days[day]);
      if (day === 4) await screenshot(page, 'trends-people');
      await panel.getByRole('button', { name: 'Close' }).click();
    }

    // A breakdown sends the item's breakdown_value.
    await page.getByLabel('Breakdown', { exact: true }).fill('$browser');
    await page.getByRole('button', { name: 'Apply' }).click();
    const broken = (await queryApi(w, { ...source, breakdownFilter: { breakdown: '$browser', breakdown_type: 'event' } })).results as { breakdown_value: string; data: number[] }[];
    const safari = broken.findIndex((i) => i.breakdown_value === 'Safari');
    await expect.poll(async () => (await tableRows(view.getByTestId('data-table'))).length).toBe(broken.length);
    await view.getByTestId('data-table').locator('tbody tr').nth(safari).locator('td').nth(5).getByRole('button').click();
    await expect.poll(ids).toEqual(['p4']);
    expect(sent.at(-1).source).toMatchObject({ series: 0, day: api[0]!.days[4], breakdown: 'Safari' });
    await panel.getByRole('button', { name: 'Close' }).click();

    // A total-value display sends no day: everyone in the range.
    await page.getByLabel('Breakdown', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByLabel('Display').selectOption('ActionsTable');
    await page.getByTestId('trends-table').locator('tbody tr').first().click();
    await expect.poll(ids).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect('day' in sent.at(-1).source).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('world map: countries from $geoip_country_code ranked, named and flagged, with the API\'s counts', async () => {
    const geo = (id: string, code?: string) => ({ event: 'geo_view', distinct_id: id, properties: code ? { $geoip_country_code: code } : {} });
    await captureNow(w, [geo('fr1', 'FR'), geo('fr2', 'FR'), geo('fr3', 'FR'), geo('de1', 'DE'), geo('de2', 'DE'), geo('us1', 'US'), geo('nowhere')]);
    const source = {
      kind: 'TrendsQuery',
      series: [{ kind: 'EventsNode', event: 'geo_view', name: 'geo_view', math: 'dau' }],
      dateRange: { date_from: '-7d' },
      interval: 'day',
      trendsFilter: { display: 'ActionsLineGraph' },
    };
    const shortId = await saveInsight(w, 'Visitors by country', source);
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${project}/insights/${shortId}`);
    await page.locator('.insight-view').waitFor();
    // Picking the world map breaks down by country, as PostHog's app does.
    await page.getByLabel('Display').selectOption('WorldMap');
    const map = page.getByTestId('world-map');
    const api = (await queryApi(w, { ...source, trendsFilter: { display: 'WorldMap' }, breakdownFilter: { breakdown: '$geoip_country_code', breakdown_type: 'event' } })).results as { breakdown_value: string; aggregated_value: number }[];
    const expected = [...api].sort((a, b) => b.aggregated_value - a.aggregated_value);
    await expect.poll(async () => (await tableRows(map)).map((r) => [r.key, r.cells[2]])).toEqual(
      expected.map((i) => [i.breakdown_value === '$$_posthog_breakdown_null_$$' ? 'none' : i.breakdown_value, String(i.aggregated_value)]),
    );
    expect(expected.slice(0, 3).map((i) => [i.breakdown_value, i.aggregated_value])).toEqual([['FR', 3], ['DE', 2], ['US', 1]]);
    const first = (await tableRows(map))[0]!.cells[0]!;
    expect(first).toContain('France');
    expect(first).toContain('🇫🇷');
    expect(await page.locator('.viz-note').textContent()).toContain('capture looks up from the client\'s IP address');
    // DB-IP's licence (CC BY 4.0) asks for the credit where its results are shown.
    expect(await page.locator('.world-map a[href="https://db-ip.com"]').count()).toBe(1);
    await screenshot(page, 'trends-worldmap');

    // A country opens its people.
    await map.locator('tbody tr').first().click();
    await expect.poll(() => page.getByTestId('people-panel').locator('.people-list li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-distinct-ids')).sort()))
      .toEqual(['fr1', 'fr2', 'fr3']);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('the project switcher shows a new name as soon as Settings saves it', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${project}/settings`);
    const name = page.getByTestId('settings-name');
    await name.getByLabel('Project name').fill('Engine room');
    await name.getByRole('button', { name: 'Save' }).click();
    await name.getByRole('status').waitFor();
    const switcher = page.getByRole('combobox', { name: 'Project' });
    await expect.poll(() => switcher.locator(`option[value="${project}"]`).textContent()).toBe('Engine room');
    expect((await getApi(w, `/api/projects/${project}/`)).name).toBe('Engine room');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
