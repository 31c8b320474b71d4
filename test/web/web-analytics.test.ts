// The Web analytics page in Chromium against a real Hoglet: posthog-js-like page views with
// sessions captured through /batch/, the page's overview numbers and tables equal to what
// WebOverviewQuery / WebStatsTableQuery answer over the API, a row click filters the page, and the
// URL alone reproduces the view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOverviewValues, captureBatch, daysAgo, hasChromium, legendItems, openPage, overviewValues, queryApi, screenshot, startWorld, tableRows, uuidv7, type World } from './harness.js';

const TIMEOUT = 90_000;
interface Visit { person: string; at: number; path: string; browser: string; country: string; session: string }

function pageview(v: Visit) {
  return {
    event: '$pageview',
    distinct_id: v.person,
    timestamp: new Date(v.at).toISOString(),
    properties: {
      $current_url: `https://shop.example.com${v.path}`, $host: 'shop.example.com', $pathname: v.path,
      $browser: v.browser, $os: 'Mac OS X', $device_type: 'Desktop', $geoip_country_code: v.country,
      $referrer: '$direct', $referring_domain: '$direct', $session_id: v.session,
      $viewport_width: 1280, $viewport_height: 800, $browser_language: 'en-US', $timezone_offset: 0, $lib: 'web',
    },
  };
}

const RANGE = { dateRange: { date_from: '-7d', date_to: null }, compareFilter: { compare: true }, filterTestAccounts: false };
const overviewOf = (properties: unknown[]) => ({ kind: 'WebOverviewQuery', properties, ...RANGE });
const pathsOf = (properties: unknown[]) => ({ kind: 'WebStatsTableQuery', breakdownBy: 'Page', properties, ...RANGE, limit: 10, includeBounceRate: true, doPathCleaning: true });

describe.skipIf(!hasChromium)('web analytics page in Chromium', () => {
  let w: World;

  beforeAll(async () => {
    w = await startWorld();
    const a = daysAgo(2), b = daysAgo(1), c = daysAgo(1, 3600), d = daysAgo(10);
    const [sa, sb, sc, sd] = [uuidv7(a), uuidv7(b), uuidv7(c), uuidv7(d)];
    const visits: Visit[] = [
      // alice: two pages, 30 s apart (not a bounce); bob: one page (a bounce); carol: two pages.
      { person: 'alice', at: a, path: '/', browser: 'Chrome', country: 'FR', session: sa },
      { person: 'alice', at: a + 30_000, path: '/pricing', browser: 'Chrome', country: 'FR', session: sa },
      { person: 'bob', at: b, path: '/', browser: 'Firefox', country: 'US', session: sb },
      { person: 'carol', at: c, path: '/docs', browser: 'Chrome', country: 'US', session: sc },
      { person: 'carol', at: c + 60_000, path: '/', browser: 'Chrome', country: 'US', session: sc },
      // dave, in the previous period only.
      { person: 'dave', at: d, path: '/', browser: 'Safari', country: 'DE', session: sd },
    ];
    await captureBatch(w, visits.map(pageview));
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('shows the overview and the paths the API answers; a row click filters the page; the link reproduces the view', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights`);
    await page.getByRole('link', { name: 'Web analytics' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/web`);

    // Defaults: Last 7 days, compared with the previous period.
    expect(await page.locator('select[name="web-date-range"]').inputValue()).toBe('-7d');
    expect(await page.locator('input[name="compare"]').isChecked()).toBe(true);

    // The overview: what WebOverviewQuery answers, and the numbers of the visits above.
    const overview = await queryApi(w, overviewOf([]));
    await expect.poll(() => overviewValues(page)).toEqual(apiOverviewValues(overview));
    const byKey = Object.fromEntries((overview.results as { key: string; value: number; previous: number | null }[]).map((i) => [i.key, i]));
    expect([byKey.visitors!.value, byKey.views!.value, byKey.sessions!.value]).toEqual([3, 5, 3]);
    expect(byKey.visitors!.previous).toBe(1);
    // The visitors card shows the change against the previous period (+200%), good news in green.
    const visitorsBadge = page.getByTestId('web-overview').locator('[data-key="visitors"] .web-badge');
    expect(await visitorsBadge.getAttribute('data-change')).toBe('200');
    expect(await visitorsBadge.getAttribute('class')).toContain('good');

    // Top paths: the rows WebStatsTableQuery answers, "/" first with 3 visitors and 3 views.
    const paths = page.getByTestId('web-table-Page');
    const apiPaths = await queryApi(w, pathsOf([]));
    const rows = await tableRows(paths);
    expect(rows.map((r) => r.key)).toEqual((apiPaths.results as unknown[][]).map((r) => r[0]));
    expect(rows[0]).toMatchObject({ key: '/', cells: ['/', '3', '3', expect.anything()] });

    // The graph tile: a TrendsQuery of unique visitors, drawn by the insight chart.
    const graphs = page.locator('[data-tile="graphs"]');
    const legend = await legendItems(graphs);
    expect(legend[0]!.label).toContain('Unique visitors');

    // The world map: visitors per country.
    const map = page.getByTestId('web-world-map');
    await expect.poll(() => map.locator('path[data-code="US"]').getAttribute('data-value')).toBe('2');
    expect(await map.locator('path[data-code="FR"]').getAttribute('data-value')).toBe('1');
    // DB-IP's licence (CC BY 4.0) asks for the credit where its results are shown: once, under the tile.
    expect(await page.locator('[data-tile="geography"] a[href="https://db-ip.com"]').count()).toBe(1);
    await screenshot(page, 'web-analytics');

    // A click on /pricing filters the page by $pathname = /pricing: only alice's session is left.
    await paths.locator('tr[data-key="/pricing"]').click();
    const filterRow = page.getByTestId('filter-row');
    await expect.poll(() => filterRow.count()).toBe(1);
    expect(await filterRow.locator('.chip').textContent()).toContain('/pricing');
    const filtered = await queryApi(w, overviewOf([{ key: '$pathname', type: 'event', operator: 'exact', value: ['/pricing'] }]));
    expect(filtered.results.find((i: { key: string }) => i.key === 'visitors').value).toBe(1);
    await expect.poll(() => overviewValues(page)).toEqual(apiOverviewValues(filtered));

    // A tab choice is part of the view too.
    await page.locator('[data-tile="devices"]').getByRole('tab', { name: 'OS' }).click();
    await page.getByTestId('web-table-OS').waitFor();
    const link = page.url();
    expect(new URL(link).searchParams.get('device_tab')).toBe('OS');
    expect(JSON.parse(new URL(link).searchParams.get('filters')!)).toEqual([{ key: '$pathname', type: 'event', operator: 'exact', value: ['/pricing'] }]);
    await screenshot(page, 'web-analytics-filtered');

    // The copied link, opened in a fresh browser profile, shows the same view.
    const other = await openPage(w);
    await other.page.goto(link);
    await expect.poll(() => overviewValues(other.page)).toEqual(apiOverviewValues(filtered));
    expect(await other.page.getByTestId('filter-row').locator('.chip').textContent()).toContain('/pricing');
    expect(await other.page.locator('[data-tile="devices"]').getByRole('tab', { name: 'OS' }).getAttribute('aria-selected')).toBe('true');

    // Clicking the row again removes the filter (PostHog's toggle).
    await page.getByTestId('web-table-Page').locator('tr[data-key="/pricing"]').click();
    await expect.poll(() => page.getByTestId('filter-row').count()).toBe(0);
    await expect.poll(() => overviewValues(page)).toEqual(apiOverviewValues(overview));

    expect([...problems, ...other.problems]).toEqual([]);
    await other.context.close();
    await context.close();
  }, TIMEOUT);

  it("a cleaned path's row filters by the cleaned path (is_cleaned_path_exact) while path cleaning is on", async () => {
    const setRules = async (rules: unknown[]) => {
      const res = await w.t.request(w.who.key, { method: 'PATCH', url: `/api/projects/${w.who.projectId}/`, payload: { path_cleaning_filters: rules } });
      expect(res.statusCode, res.body).toBe(200);
    };
    await setRules([{ regex: '/pric\\w+', alias: '/<plan>' }]);
    const { page, context, problems } = await openPage(w);
    try {
      await page.goto(`${w.base}/project/${w.who.projectId}/web`);
      const paths = page.getByTestId('web-table-Page');
      await paths.locator('tr[data-key="/<plan>"]').click();
      await expect.poll(() => page.getByTestId('filter-row').count()).toBe(1);
      // The link keeps `exact`; the queries compare cleaned paths: alice's /pricing is /<plan>.
      expect(JSON.parse(new URL(page.url()).searchParams.get('filters')!)).toEqual([{ key: '$pathname', type: 'event', operator: 'exact', value: ['/<plan>'] }]);
      const cleaned = await queryApi(w, overviewOf([{ key: '$pathname', type: 'event', operator: 'is_cleaned_path_exact', value: ['/<plan>'] }]));
      expect(cleaned.results.find((i: { key: string }) => i.key === 'visitors').value).toBe(1);
      await expect.poll(() => overviewValues(page)).toEqual(apiOverviewValues(cleaned));
      // Path cleaning off: the same filter is a plain match, and no page is called /<plan>.
      await page.locator('input[name="path-cleaning"]').uncheck();
      const plain = await queryApi(w, overviewOf([{ key: '$pathname', type: 'event', operator: 'exact', value: ['/<plan>'] }]));
      expect(plain.results.find((i: { key: string }) => i.key === 'visitors').value).toBe(0);
      await expect.poll(() => overviewValues(page)).toEqual(apiOverviewValues(plain));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await setRules([]);
    }
  }, TIMEOUT);

  it('the graph tile saves as an insight with its query (the Page views tab, compared)', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/web?graphs_tab=PAGE_VIEWS`);
    const graphs = page.locator('[data-tile="graphs"]');
    expect(await graphs.getByRole('tab', { name: 'Page views' }).getAttribute('aria-selected')).toBe('true');
    // 5 page views this period (the legend's current item).
    await expect.poll(async () => (await legendItems(graphs)).map((i) => i.value)).toEqual(['5', '1']);
    await graphs.getByRole('button', { name: 'Save as insight' }).click();
    await page.waitForURL(new RegExp(`/project/${w.who.projectId}/insights/[A-Za-z0-9]+$`));
    const shortId = page.url().split('/').pop()!;
    const saved = await queryInsight(shortId);
    expect(saved.name).toBe('Web analytics: Page views');
    expect(saved.query.source).toMatchObject({
      kind: 'TrendsQuery',
      series: [{ kind: 'EventsNode', event: '$pageview', math: 'total' }],
      dateRange: { date_from: '-7d' },
      compareFilter: { compare: true },
    });
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  const queryInsight = async (shortId: string) => {
    const res = await w.t.request(w.who.key, { method: 'GET', url: `/api/projects/${w.who.projectId}/insights/?short_id=${shortId}` });
    if (res.statusCode !== 200) throw new Error(`insight: ${res.statusCode} ${res.body}`);
    return res.json().results[0];
  };

  it('a null row filters by "is not set" (no UTM source on any session)', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/web?source_tab=UTM_SOURCE`);
    const table = page.getByTestId('web-table-InitialUTMSource');
    const rows = await tableRows(table);
    expect(rows.map((r) => r.cells[0])).toEqual(['(none)']);
    await table.locator('tbody tr').first().click();
    await expect.poll(() => new URL(page.url()).searchParams.get('filters')).toBe(JSON.stringify([{ key: '$entry_utm_source', type: 'session', operator: 'is_not_set' }]));
    await expect.poll(() => page.getByTestId('filter-row').count()).toBe(1);
    // Every session lacks a UTM source: the numbers stay.
    const overview = await queryApi(w, overviewOf([{ key: '$entry_utm_source', type: 'session', operator: 'is_not_set' }]));
    expect(overview.results.find((i: { key: string }) => i.key === 'visitors').value).toBe(3);
    await expect.poll(() => overviewValues(page)).toEqual(apiOverviewValues(overview));
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
