// WebStatsTableQuery beyond PostHog's own cases: every breakdown over posthog-js-shaped page views
// (reference web-analytics.md §6.1), the two choices of §8 (the no-compare rows are not bound to the
// session start; Page with bounce answers previous 0), paging, bad input as PostHog refuses it,
// isolation between projects, and the kind as a saved insight, on a dashboard, in every refresh mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery } from '../../helpers/journeys.js';
import { expectEveryRefreshMode, insightApi } from './helpers.js';

const table = (breakdownBy: string, extra: Record<string, unknown> = {}) =>
  ({ kind: 'WebStatsTableQuery', breakdownBy, dateRange: { date_from: '2024-03-04', date_to: '2024-03-10' }, properties: [], ...extra });

/** A posthog-js page view: URL, path, referrer, device, language, zone, viewport and GeoIP of the visit. */
function view(at: string, session: string, path: string, extra: Record<string, unknown> = {}) {
  return ev('$pageview', at, {
    $session_id: session, $current_url: `https://shop.example.com${path}`, $pathname: path, $host: 'shop.example.com',
    $referrer: '$direct', $referring_domain: '$direct', $browser: 'Chrome', $os: 'Mac OS X', $device_type: 'Desktop',
    $browser_language: 'en-US', $timezone_offset: -60, $viewport_width: 1440, $viewport_height: 900,
    $geoip_country_code: 'DE', $geoip_subdivision_1_code: 'BE', $geoip_subdivision_1_name: 'Berlin', $geoip_city_name: 'Berlin',
    ...extra,
  });
}

describe('WebStatsTableQuery', () => {
  let t: TestApp;
  let who: Credentials;
  const rows = async (query: unknown, credentials?: Credentials) => (await runQuery(t, credentials ?? who, query)).results as unknown[][];
  const values = async (query: unknown) => (await rows(query)).map((row) => [row[0], row[1], row[2]]);

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    who = await t.bootstrap('web-stats@example.com');
    await journeys(t, who, {
      // From Google search to /, then /pricing, then an outbound click, 40 s in all.
      alice: [
        view('2024-03-05T10:00:00Z', 's1', '/', { $referrer: 'https://www.google.com/', $referring_domain: 'www.google.com', utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring' }),
        view('2024-03-05T10:00:20Z', 's1', '/pricing', { $referrer: 'https://shop.example.com/', $referring_domain: 'shop.example.com', $prev_pageview_pathname: '/' }),
        ev('$autocapture', '2024-03-05T10:00:40Z', { $session_id: 's1', $current_url: 'https://shop.example.com/pricing', $external_click_url: 'https://docs.example.org/' }),
      ],
      // Direct, one page on a phone in London: a bounce.
      bob: [view('2024-03-06T09:00:00Z', 's2', '/pricing', { $device_type: 'Mobile', $os: 'iOS', $browser: 'Mobile Safari', $viewport_width: 390, $viewport_height: 844, $browser_language: 'en-GB', $timezone_offset: 0, $geoip_country_code: 'GB', $geoip_subdivision_1_code: 'ENG', $geoip_subdivision_1_name: 'England', $geoip_city_name: 'London' })],
      // From a newsletter; no GeoIP, a viewport of 0 (left out of Viewport), a region without city.
      carol: [view('2024-03-07T12:00:00Z', 's3', '/blog/post-1', { utm_source: 'newsletter', utm_medium: 'email', $viewport_width: 0, $geoip_city_name: null, $timezone_offset: 330, $browser_language: 'hi' })],
      // A session begun the day before the range with a page view inside it (§8 point 1).
      dave: [view('2024-03-03T23:59:00Z', 's4', '/blog/post-2'), view('2024-03-04T00:01:00Z', 's4', '/blog/post-3')],
    });
  });
  afterAll(() => t.close());

  it('groups by each event breakdown and keeps the rows PostHog keeps', async () => {
    expect(await values(table('Browser'))).toEqual([['Chrome', [3, null], [4, null]], ['Mobile Safari', [1, null], [1, null]]]);
    expect(await values(table('OS'))).toEqual([['Mac OS X', [3, null], [4, null]], ['iOS', [1, null], [1, null]]]);
    expect(await values(table('DeviceType'))).toEqual([['Desktop', [3, null], [4, null]], ['Mobile', [1, null], [1, null]]]);
    expect(await values(table('Viewport'))).toEqual([[[1440, 900], [2, null], [3, null]], [[390, 844], [1, null], [1, null]]]);
    expect(await values(table('Country'))).toEqual([['DE', [3, null], [4, null]], ['GB', [1, null], [1, null]]]);
    expect(await values(table('Region'))).toEqual([[['DE', 'BE', 'Berlin'], [3, null], [4, null]], [['GB', 'ENG', 'England'], [1, null], [1, null]]]);
    expect(await values(table('City'))).toEqual([[['DE', 'Berlin'], [2, null], [3, null]], [['GB', 'London'], [1, null], [1, null]]]);
    expect(await values(table('Timezone'))).toEqual([[1, [2, null], [3, null]], [-5.5, [1, null], [1, null]], [0, [1, null], [1, null]]]);
    expect((await values(table('Language'))).map((row) => [row[0], row[1]])).toEqual([['en-US', [3, null]], ['hi-', [1, null]]]);
    // The previous page: $prev_pageview_pathname, else the path of a same-site referrer, else the referrer.
    expect(await values(table('PreviousPage'))).toEqual([['$direct', [3, null], [3, null]], ['/', [1, null], [1, null]], ['https://www.google.com/', [1, null], [1, null]]]);
  });

  it('groups by each session breakdown (the session of every page view)', async () => {
    expect(await values(table('InitialPage'))).toEqual([['/', [1, null], [2, null]], ['/blog/post-1', [1, null], [1, null]], ['/blog/post-2', [1, null], [1, null]], ['/pricing', [1, null], [1, null]]]);
    expect(await values(table('ExitPage'))).toEqual([['/pricing', [2, null], [3, null]], ['/blog/post-1', [1, null], [1, null]], ['/blog/post-3', [1, null], [1, null]]]);
    expect(await values(table('ExitClick'))).toEqual([['https://docs.example.org/', [1, null], [2, null]]]);
    expect(await values(table('InitialChannelType'))).toEqual([['Direct', [2, null], [2, null]], ['Paid Search', [1, null], [2, null]], ['Email', [1, null], [1, null]]]);
    expect(await values(table('InitialReferringDomain'))).toEqual([['$direct', [3, null], [3, null]], ['www.google.com', [1, null], [2, null]]]);
    expect(await values(table('InitialUTMSource'))).toEqual([[null, [2, null], [2, null]], ['google', [1, null], [2, null]], ['newsletter', [1, null], [1, null]]]);
    expect(await values(table('InitialUTMMedium'))).toEqual([[null, [2, null], [2, null]], ['cpc', [1, null], [2, null]], ['email', [1, null], [1, null]]]);
    expect(await values(table('InitialUTMCampaign'))).toEqual([[null, [3, null], [3, null]], ['spring', [1, null], [2, null]]]);
    expect(await values(table('InitialUTMTerm'))).toEqual([[null, [4, null], [5, null]]]);
    expect(await values(table('InitialUTMContent'))).toEqual([[null, [4, null], [5, null]]]);
    expect(await values(table('InitialUTMSourceMediumCampaign'))).toEqual([
      ['$direct / (none) / (none)', [2, null], [2, null]], ['google / cpc / spring', [1, null], [2, null]], ['newsletter / email / (none)', [1, null], [1, null]],
    ]);
  });

  it("without compare counts a session begun before the range; with compare and on Page with bounce only by the session's start (§8 points 1-2)", async () => {
    // s4 began on 03-03: its 03-04 page view counts without compare...
    expect((await rows(table('Page'))).find((row) => row[0] === '/blog/post-3')).toEqual(['/blog/post-3', [1, null], [1, null], 1 / 5, '']);
    // ...but not with compare (s4 starts in the previous period 02-26..03-03, its 03-04 view is not in the previous window either).
    const compared = await rows(table('Page', { compareFilter: { compare: true } }));
    expect(compared.find((row) => row[0] === '/blog/post-3')).toEqual(['/blog/post-3', [0, 1], [0, 1], 0, '']);
    // Page with bounce: conditioned on the start, previous 0 (not null) without compare.
    const bounce = await rows(table('Page', { includeBounceRate: true }));
    expect(bounce.find((row) => row[0] === '/blog/post-3')).toEqual(['/blog/post-3', [0, 0], [0, 0], [null, null], 0, '']);
    expect(bounce.find((row) => row[0] === '/pricing')).toEqual(['/pricing', [2, 0], [2, 0], [1, null], 2 / 4, '']);
    expect((await runQuery(t, who, table('Page', { includeBounceRate: true }))).columns).toEqual(
      ['breakdown_value', 'visitors', 'views', 'bounce_rate', 'ui_fill_fraction', 'cross_sell'].map((c) => `context.columns.${c}`));
  });

  it('pages with limit and offset, hasMore while rows remain', async () => {
    const first = await runQuery(t, who, table('InitialPage', { limit: 2 }));
    expect(first).toMatchObject({ hasMore: true, limit: 2, offset: 0, samplingRate: { numerator: 1 }, usedPreAggregatedTables: false });
    const second = await runQuery(t, who, table('InitialPage', { limit: 2, offset: 2 }));
    expect(second).toMatchObject({ hasMore: false, offset: 2 });
    expect([...first.results, ...second.results].map((row: unknown[]) => row[0])).toEqual(['/', '/blog/post-1', '/blog/post-2', '/pricing']);
    // The fill fraction is a share of all rows, not of the page.
    expect(second.results.map((row: unknown[]) => row[3])).toEqual([0.25, 0.25]);
  });

  it('refuses what PostHog refuses: a missing or unknown breakdown, unknown keys, bad limits', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ kind: 'WebStatsTableQuery', properties: [] }, 'query.breakdownBy', 'required'],
      [{ kind: 'WebStatsTableQuery', properties: [], breakdownBy: 'Nonsense' }, 'query.breakdownBy', 'invalid_choice'],
      [{ kind: 'WebStatsTableQuery', properties: [], breakdownBy: 'Page', bogus: 1 }, 'query.bogus', 'extra_forbidden'],
      [{ kind: 'WebStatsTableQuery', breakdownBy: 'Page' }, 'query.properties', 'required'],
      [{ kind: 'WebStatsTableQuery', properties: [], breakdownBy: 'Page', limit: 0 }, 'query.limit', 'min_value'],
      [{ kind: 'WebStatsTableQuery', properties: [], breakdownBy: 'Page', offset: -1 }, 'query.offset', 'min_value'],
      [{ kind: 'WebStatsTableQuery', properties: [], breakdownBy: 'Page', orderBy: ['Visitors', 'UP'] }, 'query.orderBy[1]', 'invalid_choice'],
    ];
    for (const [query, attr, code] of cases) {
      const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query } });
      expect(res.statusCode, attr).toBe(400);
      expect(res.json(), attr).toMatchObject({ type: 'validation_error', attr, code });
    }
  });

  it("sees only its own project's events and sessions", async () => {
    const other = await t.bootstrap('web-stats-other@example.com');
    // The same session id in another project: its entry page must not reach this project.
    await journeys(t, other, { mallory: [view('2024-03-05T09:00:00Z', 's1', '/evil')] });
    expect(await values(table('InitialPage', { properties: [{ key: '$entry_pathname', value: '/evil', operator: 'exact', type: 'session' }] }))).toEqual([]);
    expect(await values({ ...table('InitialPage') })).not.toContainEqual(expect.arrayContaining(['/evil']));
    expect(await rows(table('Page'), other)).toEqual([['/evil', [1, null], [1, null], 1, '']]);
    const foreign = await t.request(other.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: table('Page') } });
    expect(foreign.statusCode).toBe(404);
  });

  describe('as a saved insight, on a dashboard, in every refresh mode', () => {
    it('saves and refreshes bare and wrapped, with dashboard filters laid over it', async () => {
      const { createInsight, getInsight, refreshFromDashboard } = insightApi(t, who);
      const bare = await createInsight({ name: 'Browsers', query: table('Browser') });
      const refreshed = await getInsight(bare.id, '?refresh=blocking');
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      expect(refreshed.json().result.map((row: unknown[]) => row[0])).toEqual(['Chrome', 'Mobile Safari']);
      const wrapped = await createInsight({ name: 'Paths', query: { kind: 'DataTableNode', source: table('Page', { limit: 10 }) } });
      expect((await getInsight(wrapped.id, '?refresh=blocking')).json().result).toHaveLength(4);

      const viaDashboard = await refreshFromDashboard(bare.id, { date_from: '2024-03-06', date_to: '2024-03-10', properties: [{ key: '$device_type', value: 'Mobile', operator: 'exact', type: 'event' }] });
      expect(viaDashboard.json().result).toEqual([['Mobile Safari', [1, null], [1, null], 1, '']]);
    });

    it('answers every refresh mode through /query/', async () => {
      const query = table('Country', { compareFilter: { compare: true } });
      await expectEveryRefreshMode(t, who, query, (results) => expect(results.map((row: unknown[]) => row[0])).toEqual(['DE', 'GB']));
    });
  });
});
