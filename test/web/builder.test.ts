// The insight builder in Chromium: a trend and a funnel put together from the project's events,
// a value from the values list and a breakdown; the preview shows /query/'s numbers for the same
// query, the saved insight holds that query, lands on a dashboard and opens signed out when shared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { captureNow, getApi, hasChromium, legendItems, openPage, optionsOf, pick, queryApi, screenshot, startWorld, tableRows, type World } from './harness.js';

const TIMEOUT = 60_000;
const str = (values: unknown[]) => values.map((v) => String(v));
const RANGE = { date_from: '2024-01-01', date_to: '2024-01-07' };

/** The builder's date range set to the seeded week. */
async function seededWeek(page: Page) {
  await page.getByLabel('Date range').selectOption('custom');
  await page.getByLabel('From', { exact: true }).fill(RANGE.date_from);
  await page.getByLabel('To', { exact: true }).fill(RANGE.date_to);
}

describe.skipIf(!hasChromium)('insight builder in Chromium', () => {
  let w: World;
  let trendShortId = '';

  beforeAll(async () => {
    w = await startWorld();
    // The values list reads the last 7 days (as PostHog's does): recent page views give it values.
    const view = (distinct_id: string, $browser: string) => ({ event: '$pageview', distinct_id, properties: { $browser, $current_url: 'https://example.com/' } });
    await captureNow(w, [view('p1', 'Firefox'), view('p2', 'Chrome'), view('p1', 'Chrome'), view('p3', 'Safari'), view('p5', 'Chrome'), view('p2', 'Firefox')]);
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('builds a trend (series math, a filter value from the list, a breakdown), saves it with /query/\'s numbers', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights`);
    await page.getByRole('link', { name: 'New insight' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/insights/new`);
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Trends');

    // Series A: unique users of $pageview in Chrome; series B: signed_up.
    const first = page.getByTestId('series-0');
    await pick(first, 'Series 1 event', 'page', '$pageview');
    await first.getByLabel('Series 1 math').selectOption('dau');
    await first.getByRole('button', { name: '+ Add filter' }).click();
    await pick(first, 'Filter 1 property', '$brow', '$browser');
    // The values list: what recent $pageview events carry, most frequent first, as the API answers.
    const values = await getApi(w, `/api/projects/${w.who.projectId}/events/values/?key=%24browser&event_name=%24pageview`);
    expect(values.map((v: { name: string }) => v.name)).toEqual(['Chrome', 'Firefox', 'Safari']);
    expect(await optionsOf(first, 'Filter 1 value', '')).toEqual(['Chrome', 'Firefox', 'Safari']);
    await first.getByRole('listbox', { name: 'Filter 1 value' }).getByRole('option', { name: 'Chrome', exact: true }).click();
    await expect.poll(() => first.locator('.chip').allTextContents()).toEqual(['Chrome✕']);
    await page.getByRole('button', { name: '+ Add series' }).click();
    await pick(page.getByTestId('series-1'), 'Series 2 event', 'sign', 'signed_up');
    await pick(page, 'Breakdown property', 'current', '$current_url');
    await seededWeek(page);

    const expected = {
      kind: 'TrendsQuery',
      series: [
        { kind: 'EventsNode', event: '$pageview', name: '$pageview', math: 'dau', properties: [{ key: '$browser', value: ['Chrome'], operator: 'exact', type: 'event' }] },
        { kind: 'EventsNode', event: 'signed_up', name: 'signed_up' },
      ],
      interval: 'day',
      dateRange: RANGE,
      breakdownFilter: { breakdown: '$current_url', breakdown_type: 'event' },
      trendsFilter: { display: 'ActionsLineGraph' },
    };
    const api = (await queryApi(w, expected)).results as { count: number; data: number[]; breakdown_value: unknown }[];
    expect(api.length).toBeGreaterThan(2);
    const preview = page.getByTestId('builder-preview');
    await preview.getByRole('button', { name: 'Show data table' }).click();
    await expect.poll(async () => (await tableRows(preview.getByTestId('data-table'))).map((r) => r.cells.slice(1)), { timeout: 10_000 })
      .toEqual(api.map((i) => str([i.count, ...i.data])));
    expect((await legendItems(preview)).map((l) => l.value)).toEqual(api.map((i) => String(i.count)));
    await screenshot(page, 'builder-trends');

    await page.getByLabel('Insight name').fill('Chrome visitors and sign-ups');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/insights\/(?!new)[^/]+$/);
    trendShortId = page.url().split('/').pop()!;
    const saved = (await getApi(w, `/api/projects/${w.who.projectId}/insights/?short_id=${trendShortId}`)).results[0];
    expect(saved.name).toBe('Chrome visitors and sign-ups');
    expect(saved.query).toEqual({ kind: 'InsightVizNode', source: expected });
    await expect.poll(() => page.getByTestId('insight-name').textContent()).toBe('Chrome visitors and sign-ups');
    await expect.poll(async () => (await legendItems(page.locator('.insight-view'))).map((l) => l.value)).toEqual(api.map((i) => String(i.count)));
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('adds the saved trend to a dashboard (an existing one and a new one) where it shows as a tile', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights/${trendShortId}`);
    await page.getByRole('button', { name: 'Add to dashboard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to dashboard' });
    await dialog.getByLabel('Dashboard').selectOption({ label: 'Weekly numbers' });
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByRole('status').getByRole('link', { name: 'Weekly numbers' }).waitFor();
    const insight = (await getApi(w, `/api/projects/${w.who.projectId}/insights/?short_id=${trendShortId}`)).results[0];
    expect(insight.dashboards).toEqual([w.dashboardId]);

    // And onto a dashboard made on the spot.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Add to dashboard' }).click();
    await dialog.getByLabel('Dashboard').selectOption('new');
    await dialog.getByLabel("New dashboard's name").fill('Growth board');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByRole('status').getByRole('link', { name: 'Growth board' }).click();
    await page.waitForURL(/\/dashboard\/\d+$/);
    const boardId = Number(page.url().split('/').pop());
    expect((await getApi(w, `/api/projects/${w.who.projectId}/insights/${insight.id}/`)).dashboards.sort()).toEqual([w.dashboardId, boardId].sort());
    const tile = page.locator(`[data-testid=dashboard-tile][data-insight="${trendShortId}"]`);
    const api = (await queryApi(w, insight.query.source)).results as { count: number }[];
    await expect.poll(async () => (await legendItems(tile)).map((l) => l.value)).toEqual(api.map((i) => String(i.count)));
    expect(await page.getByTestId('dashboard-name').textContent()).toBe('Growth board');

    await page.goto(`${w.base}/project/${w.who.projectId}/dashboard/${w.dashboardId}`);
    await expect.poll(async () => (await legendItems(tile)).map((l) => l.value)).toEqual(api.map((i) => String(i.count)));
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('shares the trend: the public link opens signed out with the same numbers; unsharing closes it', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights/${trendShortId}`);
    await page.getByRole('button', { name: 'Share' }).click();
    const panel = page.getByTestId('share-panel');
    await panel.getByLabel(/Share publicly/).check();
    const link = await panel.getByTestId('share-link').inputValue();
    const insight = (await getApi(w, `/api/projects/${w.who.projectId}/insights/?short_id=${trendShortId}`)).results[0];
    const sharing = await getApi(w, `/api/projects/${w.who.projectId}/insights/${insight.id}/sharing/`);
    expect(sharing.enabled).toBe(true);
    expect(link).toBe(`${w.base}/shared/${sharing.access_token}`);
    await screenshot(page, 'share');

    const api = (await queryApi(w, insight.query.source)).results as { count: number }[];
    const outsider = await openPage(w, { signIn: false });
    await outsider.page.goto(link);
    await expect.poll(() => outsider.page.getByTestId('insight-name').textContent()).toBe('Chrome visitors and sign-ups');
    expect((await legendItems(outsider.page.locator('.insight-view'))).map((l) => l.value)).toEqual(api.map((i) => String(i.count)));
    expect(outsider.problems).toEqual([]);

    await panel.getByLabel(/Share publicly/).uncheck();
    await expect.poll(() => panel.getByTestId('share-link').count()).toBe(0);
    expect((await getApi(w, `/api/projects/${w.who.projectId}/insights/${insight.id}/sharing/`)).enabled).toBe(false);
    await outsider.page.reload();
    await outsider.page.getByRole('alert').waitFor();
    await outsider.context.close();
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('builds a funnel (steps from the list, a step filter, a person breakdown); Edit reopens and re-saves it', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights/new`);
    await page.getByRole('tab', { name: 'Funnels' }).click();
    await pick(page.getByTestId('series-1'), 'Step 2 event', 'sign', 'signed_up');
    await page.getByRole('button', { name: '+ Add step' }).click();
    await pick(page.getByTestId('series-2'), 'Step 3 event', 'pur', 'purchase');
    const first = page.getByTestId('series-0');
    await first.getByRole('button', { name: '+ Add filter' }).click();
    await pick(first, 'Filter 1 property', 'brow', '$browser');
    await pick(first, 'Filter 1 value', 'chr', 'Chrome');
    await page.getByLabel('Breakdown property type').selectOption('person');
    await pick(page, 'Breakdown property', 'mail', 'email');
    await seededWeek(page);

    const expected = {
      kind: 'FunnelsQuery',
      series: [
        { kind: 'EventsNode', event: '$pageview', name: '$pageview', properties: [{ key: '$browser', value: ['Chrome'], operator: 'exact', type: 'event' }] },
        { kind: 'EventsNode', event: 'signed_up', name: 'signed_up' },
        { kind: 'EventsNode', event: 'purchase', name: 'purchase' },
      ],
      dateRange: RANGE,
      breakdownFilter: { breakdown: 'email', breakdown_type: 'person' },
      funnelsFilter: { funnelVizType: 'steps', funnelOrderType: 'ordered', funnelWindowInterval: 14, funnelWindowIntervalUnit: 'day' },
    };
    const groups = (await queryApi(w, expected)).results as { count: number; breakdown_value: unknown }[][];
    const want = groups.flatMap((steps) => steps.map((s) => String(s.count)));
    expect(want.length).toBe(9);
    const preview = page.getByTestId('builder-preview');
    await preview.getByRole('button', { name: 'Show data table' }).click();
    await expect.poll(async () => (await tableRows(preview.getByTestId('data-table'))).map((r) => r.cells[2]), { timeout: 10_000 }).toEqual(want);
    await screenshot(page, 'builder-funnel');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/insights\/(?!new)[^/]+$/);
    const shortId = page.url().split('/').pop()!;
    let saved = (await getApi(w, `/api/projects/${w.who.projectId}/insights/?short_id=${shortId}`)).results[0];
    expect(saved.query.source).toEqual(expected);
    expect(saved.derived_name).toBe('$pageview → signed_up → purchase');

    // Edit: the builder opens on the saved query; dropping the last step re-saves the insight.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/insights/${shortId}/edit`);
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Funnels');
    expect(await page.getByRole('combobox', { name: 'Step 3 event' }).inputValue()).toBe('purchase');
    await page.getByRole('button', { name: 'Remove step 3' }).click();
    await page.getByLabel('Insight name').fill('Chrome sign-ups');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/insights/${shortId}`);
    saved = (await getApi(w, `/api/projects/${w.who.projectId}/insights/${saved.id}/`));
    expect(saved.name).toBe('Chrome sign-ups');
    expect(saved.query.source.series.map((s: { event: string }) => s.event)).toEqual(['$pageview', 'signed_up']);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('every kind has a tab whose preview runs', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights/new`);
    await seededWeek(page);
    for (const tab of ['Retention', 'Paths', 'Stickiness', 'Lifecycle', 'Trends']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.locator('[data-testid=builder-preview][data-state=ready] .insight-view').waitFor();
      expect(await page.locator('.insight-view').getAttribute('data-kind')).toBe(`${tab}Query`);
      if (tab === 'Retention' || tab === 'Paths') await screenshot(page, `builder-${tab.toLowerCase()}`);
    }
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
