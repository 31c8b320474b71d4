// Web analytics queries as insights, and the page's pickers, in Chromium against a real Hoglet:
// a table tile saved as an insight (PostHog's DataTableNode around a WebStatsTableQuery) shows
// the rows the API answers on its insight page and on a dashboard, and so does a saved overview;
// the conversion goal picker (custom event or action) turns the overview and the tables into
// conversions; the device toggle and the domain picker filter the page; "Show more" opens a modal;
// Outbound clicks and UTM content / term are tabs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOverviewValues, captureBatch, daysAgo, hasChromium, legendItems, openPage, overviewValues, pick, queryApi, screenshot, startWorld, tableRows, uuidv7, type World } from './harness.js';

const TIMEOUT = 90_000;
interface Hit { person: string; at: number; session: string; host: string; device: string; path?: string; event?: string; extra?: Record<string, unknown> }

function eventOf(h: Hit) {
  return {
    event: h.event ?? '$pageview',
    distinct_id: h.person,
    timestamp: new Date(h.at).toISOString(),
    properties: {
      $current_url: `https://${h.host}${h.path ?? '/'}`, $host: h.host, $pathname: h.path ?? '/',
      $browser: h.device === 'Desktop' ? 'Chrome' : 'Mobile Safari', $os: h.device === 'Desktop' ? 'Mac OS X' : 'iOS', $device_type: h.device,
      $referrer: '$direct', $referring_domain: '$direct', $session_id: h.session, $lib: 'web', ...h.extra,
    },
  };
}

const RANGE = { dateRange: { date_from: '-7d', date_to: null }, compareFilter: { compare: true }, filterTestAccounts: false };
const DEVICE = (value: unknown) => ({ key: '$device_type', value, operator: 'exact', type: 'event' });
const HOST = (value: string) => ({ key: '$host', value, operator: 'exact', type: 'event' });

describe.skipIf(!hasChromium)('web analytics insights and pickers in Chromium', () => {
  let w: World;
  let actionId: number;
  const api = `/api/projects/`;

  beforeAll(async () => {
    w = await startWorld();
    const a = daysAgo(3), b = daysAgo(2), c = daysAgo(1), d = daysAgo(1, 7200);
    const [sa, sb, sc, sd] = [uuidv7(a), uuidv7(b), uuidv7(c), uuidv7(d)];
    const shop = 'shop.example.com', blog = 'blog.example.com';
    const hits: Hit[] = [
      // alice (Desktop, shop): two pages, an outbound click, a purchase.
      { person: 'alice', at: a, session: sa, host: shop, device: 'Desktop', path: '/' },
      { person: 'alice', at: a + 20_000, session: sa, host: shop, device: 'Desktop', path: '/pricing' },
      { person: 'alice', at: a + 30_000, session: sa, host: shop, device: 'Desktop', path: '/pricing', event: '$autocapture', extra: { $event_type: 'click', $external_click_url: 'https://github.com/hoglet' } },
      { person: 'alice', at: a + 40_000, session: sa, host: shop, device: 'Desktop', path: '/pricing', event: 'purchase' },
      // bob (Mobile, shop): one page from a campaign, a purchase.
      { person: 'bob', at: b, session: sb, host: shop, device: 'Mobile', path: '/', extra: { utm_source: 'news', utm_content: 'banner', utm_term: 'analytics' } },
      { person: 'bob', at: b + 10_000, session: sb, host: shop, device: 'Mobile', path: '/', event: 'purchase' },
      // carol (Tablet, blog): two pages.
      { person: 'carol', at: c, session: sc, host: blog, device: 'Tablet', path: '/post' },
      { person: 'carol', at: c + 60_000, session: sc, host: blog, device: 'Tablet', path: '/' },
      // dave (Desktop, blog): twelve posts, so the paths table has more than ten rows.
      ...Array.from({ length: 12 }, (_, i): Hit => ({ person: 'dave', at: d + i * 5_000, session: sd, host: blog, device: 'Desktop', path: `/post/${i + 1}` })),
    ];
    await captureBatch(w, hits.map(eventOf));
    const action = await w.t.request(w.who.key, { method: 'POST', url: `${api}${w.who.projectId}/actions/`, payload: { name: 'Bought something', steps: [{ event: 'purchase' }] } });
    if (action.statusCode !== 201) throw new Error(`action: ${action.statusCode} ${action.body}`);
    actionId = action.json().id;
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  /** A stats answer's rows as the table shows them: the value's key and each metric's current number. */
  const apiRows = (answer: { results: unknown[][]; columns: string[] }) => answer.results.map((row) => ({
    key: typeof row[0] === 'string' ? row[0] : JSON.stringify(row[0]),
    cells: answer.columns.slice(1).filter((c) => !/ui_fill_fraction|cross_sell/.test(c)).map((_, i) => {
      const v = (row[i + 1] as unknown[])[0];
      return v === null ? '–' : String(v);
    }),
  }));
  /** The table's rows: a cell without a number (null) reads "–", whatever the previous period's text after it. */
  const shownRows = async (table: import('playwright-core').Locator) =>
    (await tableRows(table)).map((r) => ({ key: r.key, cells: r.cells.slice(1).map((c) => (c.startsWith('–') ? '–' : c)) }));
  const insightOf = async (shortId: string) => {
    const res = await w.t.request(w.who.key, { method: 'GET', url: `${api}${w.who.projectId}/insights/?short_id=${shortId}` });
    return res.json().results[0];
  };

  it('a saved Top paths table shows its rows on the insight page and on a dashboard; a saved overview its cards', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/web`);
    const paths = page.locator('[data-tile="paths"]');
    await paths.getByTestId('web-table-Page').waitFor();
    await paths.getByRole('button', { name: 'Save as insight' }).click();
    await page.waitForURL(new RegExp(`/project/${w.who.projectId}/insights/[A-Za-z0-9]+$`));
    const shortId = page.url().split('/').pop()!;

    // Saved as PostHog saves the tile: a DataTableNode around the WebStatsTableQuery.
    const saved = await insightOf(shortId);
    expect(saved.name).toBe('Web analytics: Top paths');
    expect(saved.query).toMatchObject({ kind: 'DataTableNode', source: { kind: 'WebStatsTableQuery', breakdownBy: 'Page', includeBounceRate: true, limit: 10, compareFilter: { compare: true } } });
    const answer = await queryApi(w, saved.query.source);
    expect(answer.results.length).toBe(10);

    // The insight page: the same rows and numbers as the API, with the bounce rate column.
    const table = page.getByTestId('web-table-Page');
    expect(await shownRows(table)).toEqual(apiRows(answer));
    expect(await table.locator('thead th').allTextContents()).toEqual(['Path', 'Visitors', 'Views', 'Bounce rate']);
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);

    // Onto a new dashboard through the insight page's own flow.
    await page.getByRole('button', { name: 'Add to dashboard' }).click();
    const dialog = page.getByTestId('add-to-dashboard');
    await dialog.locator('select[name="dashboard"]').selectOption('new');
    await dialog.locator('input[name="new-dashboard"]').fill('Site numbers');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByRole('link', { name: 'Site numbers' }).click();
    await page.waitForURL(new RegExp(`/project/${w.who.projectId}/dashboard/\\d+$`));
    const dashboardId = Number(page.url().split('/').pop());
    const tile = page.locator(`[data-testid="dashboard-tile"][data-insight="${shortId}"]`);
    expect(await shownRows(tile.getByTestId('web-table-Page'))).toEqual(apiRows(answer));

    // An overview saved bare (as the page's overview saves it), on the same dashboard: its cards.
    const overview = { kind: 'WebOverviewQuery', properties: [], ...RANGE };
    const made = await w.t.request(w.who.key, { method: 'POST', url: `${api}${w.who.projectId}/insights/`, payload: { name: 'Overview', query: overview, dashboards: [dashboardId], saved: true } });
    expect(made.statusCode, made.body).toBe(201);
    await page.reload();
    const overviewTile = page.locator(`[data-testid="dashboard-tile"][data-insight="${made.json().short_id}"]`);
    const expected = apiOverviewValues(await queryApi(w, overview));
    expect(expected).toMatchObject({ visitors: '4', sessions: '4' });
    await expect.poll(() => overviewValues(overviewTile)).toEqual(expected);
    // A stats table saved bare, as a script may save it: its rows too.
    const devices = { kind: 'WebStatsTableQuery', breakdownBy: 'DeviceType', properties: [], ...RANGE, limit: 10 };
    const bare = await w.t.request(w.who.key, { method: 'POST', url: `${api}${w.who.projectId}/insights/`, payload: { name: 'Devices', query: devices, dashboards: [dashboardId], saved: true } });
    expect(bare.statusCode, bare.body).toBe(201);
    await page.reload();
    const devicesTile = page.locator(`[data-testid="dashboard-tile"][data-insight="${bare.json().short_id}"]`);
    const devicesAnswer = await queryApi(w, devices);
    expect(devicesAnswer.results.map((r: unknown[]) => r[0]).sort()).toEqual(['Desktop', 'Mobile', 'Tablet']);
    expect(await shownRows(devicesTile.getByTestId('web-table-DeviceType'))).toEqual(apiRows(devicesAnswer));
    await screenshot(page, 'web-insights-dashboard');

    // The page's own overview saves as an insight too.
    await page.goto(`${w.base}/project/${w.who.projectId}/web`);
    await page.locator('[data-tile="overview"]').getByRole('button', { name: 'Save as insight' }).click();
    await page.waitForURL(new RegExp(`/project/${w.who.projectId}/insights/[A-Za-z0-9]+$`));
    expect((await insightOf(page.url().split('/').pop()!)).query).toMatchObject({ kind: 'WebOverviewQuery', compareFilter: { compare: true } });
    await expect.poll(() => overviewValues(page)).toEqual(expected);

    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('the goal picker turns the overview and tables into conversions, with the numbers the API answers', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/web`);
    await page.getByTestId('web-overview').waitFor();

    // A custom event as the goal.
    await pick(page, 'Conversion goal', 'purch', 'purchase');
    await expect.poll(() => new URL(page.url()).searchParams.get('conversionGoal.customEventName')).toBe('purchase');
    const byEvent = await queryApi(w, { kind: 'WebOverviewQuery', properties: [], ...RANGE, conversionGoal: { customEventName: 'purchase' } });
    expect(apiOverviewValues(byEvent)).toEqual({ visitors: '4', 'total conversions': '2', 'unique conversions': '2', 'conversion rate': '50' });
    await expect.poll(() => overviewValues(page)).toEqual(apiOverviewValues(byEvent));
    // The tables show the goal's columns; the graph its unique conversions.
    const paths = page.locator('[data-tile="paths"]').getByTestId('web-table-Page');
    await expect.poll(() => paths.locator('thead th').allTextContents()).toEqual(['Path', 'Visitors', 'Total conversions', 'Unique conversions', 'Conversion rate']);
    const pathsAnswer = await queryApi(w, { kind: 'WebStatsTableQuery', breakdownBy: 'Page', properties: [], ...RANGE, conversionGoal: { customEventName: 'purchase' }, includeBounceRate: true, doPathCleaning: true, limit: 10 });
    expect(await shownRows(paths)).toEqual(apiRows(pathsAnswer));
    expect(await page.locator('[data-tile="graphs"]').getByRole('tab', { name: 'Unique conversions' }).getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'web-analytics-goal');
    // The conversion rate graph: each day's unique conversions over its unique visitors (formula
    // A / B); the legend's total is what the TrendsQuery answers (two days at 1: alice's and bob's).
    const graphs = page.locator('[data-tile="graphs"]');
    await graphs.getByRole('tab', { name: 'Conversion rate' }).click();
    const rate = await queryApi(w, {
      kind: 'TrendsQuery',
      series: [
        { kind: 'EventsNode', event: 'purchase', name: 'Unique conversions', custom_name: 'Unique conversions', math: 'dau' },
        { kind: 'EventsNode', event: '$pageview', name: '$pageview', custom_name: 'Unique visitors', math: 'dau' },
      ],
      dateRange: { date_from: '-7d', date_to: null }, interval: 'day', trendsFilter: { display: 'ActionsLineGraph', formula: 'A / B' },
      filterTestAccounts: false, properties: [], compareFilter: { compare: true },
    });
    expect(rate.results[0].count).toBe(2);
    await expect.poll(async () => (await legendItems(graphs))[0]?.value).toBe(String(rate.results[0].count));
    expect(await graphs.getByRole('alert').count()).toBe(0);

    // An action as the goal.
    await pick(page, 'Conversion goal', 'Bought', 'Bought something');
    await expect.poll(() => new URL(page.url()).searchParams.get('conversionGoal.actionId')).toBe(String(actionId));
    const byAction = await queryApi(w, { kind: 'WebOverviewQuery', properties: [], ...RANGE, conversionGoal: { actionId } });
    expect(apiOverviewValues(byAction)).toEqual(apiOverviewValues(byEvent));
    await expect.poll(() => overviewValues(page)).toEqual(apiOverviewValues(byAction));

    // Clearing it brings back the five cards.
    await page.getByRole('button', { name: 'Clear goal' }).click();
    await expect.poll(() => overviewValues(page).then((v) => Object.keys(v))).toEqual(['visitors', 'views', 'sessions', 'session duration', 'bounce rate']);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('the device toggle (Mobile = Mobile or Tablet) and the domain picker filter the page', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/web?device_tab=DEVICE_TYPE`);
    await page.getByTestId('web-overview').waitFor();
    const devices = page.getByRole('group', { name: 'Device type' });

    await devices.getByRole('button', { name: 'Mobile' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('device_type')).toBe('Mobile');
    const mobile = await queryApi(w, { kind: 'WebOverviewQuery', properties: [DEVICE(['Mobile', 'Tablet'])], ...RANGE });
    expect(mobile.results.find((i: { key: string }) => i.key === 'visitors').value).toBe(2);
    await expect.poll(() => overviewValues(page)).toEqual(apiOverviewValues(mobile));
    const types = page.getByTestId('web-table-DeviceType');
    await expect.poll(async () => (await tableRows(types)).map((r) => r.key).sort()).toEqual(['Mobile', 'Tablet']);

    await devices.getByRole('button', { name: 'Desktop' }).click();
    const desktop = await queryApi(w, { kind: 'WebOverviewQuery', properties: [DEVICE('Desktop')], ...RANGE });
    await expect.poll(() => overviewValues(page)).toEqual(apiOverviewValues(desktop));
    await expect.poll(async () => (await tableRows(types)).map((r) => r.key)).toEqual(['Desktop']);

    // The domain picker offers the project's hosts; with Desktop, blog.example.com leaves dave.
    const domain = page.locator('select[name="domain"]');
    await expect.poll(() => domain.locator('option').allTextContents().then((o) => o.slice(1).sort())).toEqual(['blog.example.com', 'shop.example.com']);
    await domain.selectOption('blog.example.com');
    await expect.poll(() => new URL(page.url()).searchParams.get('domain')).toBe('blog.example.com');
    const blog = await queryApi(w, { kind: 'WebOverviewQuery', properties: [HOST('blog.example.com'), DEVICE('Desktop')], ...RANGE });
    expect(blog.results.find((i: { key: string }) => i.key === 'visitors').value).toBe(1);
    await expect.poll(() => overviewValues(page)).toEqual(apiOverviewValues(blog));

    // The view is in the link.
    const other = await openPage(w);
    await other.page.goto(page.url());
    await expect.poll(() => overviewValues(other.page)).toEqual(apiOverviewValues(blog));
    expect(await other.page.getByRole('group', { name: 'Device type' }).getByRole('button', { name: 'Desktop' }).getAttribute('aria-pressed')).toBe('true');

    await devices.getByRole('button', { name: 'All devices' }).click();
    await domain.selectOption('');
    const all = await queryApi(w, { kind: 'WebOverviewQuery', properties: [], ...RANGE });
    await expect.poll(() => overviewValues(page)).toEqual(apiOverviewValues(all));
    expect([...problems, ...other.problems]).toEqual([]);
    await other.context.close();
    await context.close();
  }, TIMEOUT);

  it('"Show more" opens the table with more rows in a modal; Outbound clicks and UTM content / term are tabs', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/web`);
    const paths = page.locator('[data-tile="paths"]');
    expect((await tableRows(paths.getByTestId('web-table-Page'))).length).toBe(10);
    await paths.getByRole('button', { name: 'Show more' }).click();
    const modal = page.getByRole('dialog', { name: 'Top paths' });
    const all = await queryApi(w, { kind: 'WebStatsTableQuery', breakdownBy: 'Page', properties: [], ...RANGE, includeBounceRate: true, doPathCleaning: true, limit: 100 });
    expect(all.results.length).toBe(15);
    expect(await shownRows(modal.getByTestId('web-table-Page'))).toEqual(apiRows(all));
    await screenshot(page, 'web-analytics-show-more');
    await page.keyboard.press('Escape');
    await expect.poll(() => modal.count()).toBe(0);
    // A row of the modal filters the page (and closes the modal): /post/12 is dave's alone.
    await paths.getByRole('button', { name: 'Show more' }).click();
    await modal.getByTestId('web-table-Page').locator('tr[data-key="/post/12"]').click();
    await expect.poll(() => modal.count()).toBe(0);
    await expect.poll(() => overviewValues(page).then((v) => v.visitors)).toBe('1');
    await page.goto(`${w.base}/project/${w.who.projectId}/web`);

    await paths.getByRole('tab', { name: 'Outbound clicks' }).click();
    expect((await tableRows(paths.getByTestId('web-table-ExitClick'))).map((r) => r.key)).toEqual(['https://github.com/hoglet']);
    const sources = page.locator('[data-tile="sources"]');
    await sources.getByRole('tab', { name: 'UTM content' }).click();
    expect((await tableRows(sources.getByTestId('web-table-InitialUTMContent'))).map((r) => r.cells[0])).toContain('banner');
    await sources.getByRole('tab', { name: 'UTM term' }).click();
    expect((await tableRows(sources.getByTestId('web-table-InitialUTMTerm'))).map((r) => r.cells[0])).toContain('analytics');
    // A click on the term filters the page by the session's entry term: bob alone.
    await sources.getByTestId('web-table-InitialUTMTerm').locator('tr[data-key="analytics"]').click();
    await expect.poll(() => overviewValues(page).then((v) => v.visitors)).toBe('1');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
