// Web analytics numbers on real posthog-js traffic: the unchanged posthog-js in Chromium visits a
// small site against a listening Hoglet (three visitors in their own browser contexts, sessions
// across two days), and WebOverviewQuery and WebStatsTableQuery must equal PostHog's definitions
// computed here from the raw stored events (test/helpers/web-oracle.ts, no code shared with
// src/query).
//
// Time: capture corrects each event by its batch's sent_at (stored = server now + timestamp −
// sent_at), so moving only the page's clock would be undone. The pages' Date (an offset kept by an
// init script; Playwright's page.clock replays its log with Node's Date, which is faked here) and
// the server's Date (vitest's fake; Hoglet runs in this process) move forward together, each jump
// made while nothing is queued or on the way: a visitor reads a page for 90 s, or comes back 40
// minutes or a day later, in no time.
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { DESKTOP_CHROME_UA, findChromium, serveSite, type StaticSite } from '../../helpers/browser.js';
import { runQuery } from '../../helpers/journeys.js';
import {
  overviewOracle, sessionsOf, statsOracle, type Pair, type Period, type RawEvent, type Session, type StatsRow,
} from '../../helpers/web-oracle.js';

const executable = findChromium();
if (!executable && process.env.CI) throw new Error("Chromium is missing: .ci/run installs Debian's chromium for the browser tests.");

const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_WINDOWS_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

// The previous period's day and the current one (the project's zone is UTC).
const DAY1 = '2026-11-20';
const DAY2 = '2026-11-21';
const dayPeriod = (day: string): Period => ({ from: Date.parse(`${day}T00:00:00Z`), to: Date.parse(`${day}T23:59:59.999Z`) });
const START = Date.parse(`${DAY1}T18:00:00Z`);
const BOTH_DAYS: Period = { from: dayPeriod(DAY1).from, to: dayPeriod(DAY2).to };

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

const pageHtml = (title: string, init: string) => `<!doctype html><html><head><title>${title}</title><link rel="icon" href="data:,">
<script type="module">${init}</script></head><body><h1>${title}</h1>
<nav><a id="docs" href="/docs">Docs</a> <a id="blog" href="/blog">Blog</a> <a id="pricing" href="/pricing">Pricing</a>
<button id="features" onclick="history.pushState({}, '', '/features')">Features</button></nav></body></html>`;

describe.skipIf(!executable)('web analytics numbers on posthog-js traffic in Chromium', () => {
  let t: TestApp;
  let owner: Credentials;
  let site: StaticSite;
  let browser: Browser;
  let events: RawEvent[];
  const contexts: BrowserContext[] = [];

  let hogletUrl: string;
  let serving = 0; // requests Hoglet has begun and not answered (beacons too, which pages do not report)
  const refused: string[] = [];
  const pages: Page[] = [];
  let offset = 0; // page clock minus real time: the server's fake Date minus real time
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /**
   * Nothing left in posthog-js's queues (they flush every 250 ms) and nothing on the way: every
   * event sent was stamped by the server in the era it was sent in, and capture's backlog is
   * stored (a jump must not age it).
   */
  async function settle() {
    await sleep(400);
    for (let quiet = 0, i = 0; quiet < 2 && i < 200; i++) {
      await sleep(100);
      const status = await t.services.captureStatus();
      quiet = serving === 0 && status.waiting_events === 0 && status.log.acknowledged === status.log.inserted ? quiet + 1 : 0;
    }
  }

  /** Both clocks forward: the server's Date (vitest's fake) and every page's (an offset kept by an init script). */
  async function forward(ms: number) {
    await settle();
    offset += ms;
    vi.advanceTimersByTime(ms);
    await Promise.all(contexts.map((c) => c.addInitScript(`globalThis.__clockOffset = ${offset};`)));
    await Promise.all(pages.map((p) => p.evaluate((n) => { (globalThis as any).__clockOffset = n; }, offset)));
  }

  /**
   * A visitor: a browser context whose Date runs at real time plus `offset` (posthog-js's
   * timestamps, session ids and its 30-minute idle rule read it; its timers stay real).
   */
  async function visitor(options: BrowserContextOptions): Promise<BrowserContext> {
    const context = await browser.newContext(options);
    await context.addInitScript(() => {
      const Real = Date;
      const now = () => Real.now() + Number((globalThis as any).__clockOffset ?? 0);
      class OffsetDate extends Real {
        constructor(...args: unknown[]) {
          if (args.length === 0) super(now());
          else super(...(args as [number]));
        }
        static override now() {
          return now();
        }
      }
      globalThis.Date = OffsetDate as DateConstructor;
    });
    await context.addInitScript(`globalThis.__clockOffset = ${offset};`);
    contexts.push(context);
    return context;
  }

  /** A new tab of a visitor (its own sessionStorage, where posthog-js keeps the visit's campaign). */
  async function tab(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    pages.push(page);
    const ours = (url: string) => url.startsWith(hogletUrl);
    page.on('response', (r) => { if (ours(r.url()) && r.status() >= 400) refused.push(`${r.status()} ${r.url()}`); });
    return page;
  }

  const ready = (page: Page) => page.waitForFunction(() => (globalThis as any).posthog?.__loaded === true, null, { timeout: 15_000 });
  async function open(page: Page, path: string, referer?: string) {
    await page.goto(`${site.url}${path}`, referer ? { referer } : {});
    await ready(page);
  }
  async function follow(page: Page, selector: string, path: string) {
    await page.click(selector);
    await page.waitForURL(`**${path}`);
    await ready(page);
  }
  /** Leaves the site: posthog-js sends $pageleave and its queue by sendBeacon on pagehide. */
  const leave = (page: Page) => page.goto('about:blank');
  const identify = (page: Page, id: string) => page.evaluate((who) => (globalThis as any).posthog.identify(who), id);

  async function storedEvents(): Promise<RawEvent[]> {
    const { results } = await runQuery(t, owner, { kind: 'HogQLQuery', query: 'select uuid, event, timestamp, distinct_id, properties from events order by timestamp limit 10000' });
    return results.map(([uuid, event, ts, distinctId, props]: [string, string, string, string, unknown]) =>
      ({ uuid, event, ts: Date.parse(ts), distinctId, props: typeof props === 'string' ? JSON.parse(props) : props }));
  }

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    owner = await t.bootstrap('posthog-js-traffic@example.com');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.app.server.on('request', (_req, res) => {
      serving += 1;
      res.on('close', () => { serving -= 1; });
    });
    hogletUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    // opt_out_useragent_filter, as posthog-js advises for end-to-end tests: automated Chromium
    // looks like a bot at unload (navigator.webdriver), and its $pageleave would be dropped.
    const init = `
      import posthog from '/posthog-js/module.js';
      posthog.init(${JSON.stringify(owner.projectApiToken)}, { api_host: ${JSON.stringify(hogletUrl)}, person_profiles: 'always', capture_pageview: 'history_change', opt_out_useragent_filter: true, request_queue_config: { flush_interval_ms: 250 } });
      window.posthog = posthog;`;
    site = await serveSite(Object.fromEntries(['/', '/docs', '/blog', '/pricing', '/features'].map((p) => [p, pageHtml(p, init)])));
    browser = await chromium.launch({ executablePath: executable!, args: ['--no-sandbox', '--disable-gpu', '--disable-blink-features=AutomationControlled'] });

    offset = START - Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: START, shouldAdvanceTime: true });
    const bobs = await visitor({ userAgent: IPHONE_UA, viewport: { width: 390, height: 844 }, locale: 'de-DE', timezoneId: 'America/New_York' });
    const alices = await visitor({ userAgent: DESKTOP_CHROME_UA, viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'Asia/Kolkata' });
    const carols = await visitor({ userAgent: FIREFOX_WINDOWS_UA, viewport: { width: 1440, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/Berlin' });

    // Day 1, bob on his phone: lands on /pricing directly, opens /features in the app (pushState), leaves after 20 s.
    const bob = await tab(bobs);
    await open(bob, '/pricing');
    await forward(4 * SECOND);
    await bob.click('#features');
    await forward(20 * SECOND);
    await leave(bob);

    await forward(15 * 60 * MINUTE); // day 2, 09:00

    // Alice from a Google ad: three pages (one by pushState, one a full load) over 2 minutes, signs in.
    const alice = await tab(alices);
    await open(alice, '/?utm_source=google&utm_medium=cpc&utm_campaign=spring', 'https://www.google.com/');
    await forward(5 * SECOND);
    await alice.click('#features');
    await forward(90 * SECOND);
    await follow(alice, '#docs', '/docs');
    await identify(alice, 'alice@example.com');
    await forward(40 * SECOND);
    await leave(alice);

    // Carol, alice on her other computer, from a newsletter: signs in as alice, reads /blog for 8 s.
    const carol = await tab(carols);
    await open(carol, '/docs?utm_source=newsletter&utm_medium=email');
    await forward(6 * SECOND);
    await identify(carol, 'alice@example.com');
    await follow(carol, '#blog', '/blog');
    await forward(8 * SECOND);
    await leave(carol);

    await forward(40 * MINUTE); // past posthog-js's 30 minutes: new sessions

    // Bounces, each in a new tab: alice comes back from a blog link, bob from Bing; one page, gone in seconds.
    const alice2 = await tab(alices);
    await open(alice2, '/blog', 'https://blog.example.org/post-1');
    await forward(2 * SECOND);
    await leave(alice2);
    const bob2 = await tab(bobs);
    await open(bob2, '/blog', 'https://www.bing.com/');
    await forward(SECOND);
    await leave(bob2);

    await settle();
    events = await storedEvents();
  }, 90_000);

  afterAll(async () => {
    vi.useRealTimers();
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  it('stores what posthog-js sends: a session id on every event, kept across a visit, new per visitor and after 30 idle minutes', () => {
    expect(refused).toEqual([]);
    expect(events.every((e) => typeof e.props.$session_id === 'string' && e.props.$session_id !== '')).toBe(true);
    const sessions = [...sessionsOf(events).values()];
    // bob day 1; alice's ad visit; carol's newsletter visit; alice's and bob's returns 40 minutes later.
    expect(sessions.map((s) => s.channelType)).toEqual(['Direct', 'Paid Search', 'Email', 'Referral', 'Organic Search']);
    const [bobDay1, aliceAd, carolMail, aliceBack, bobBack] = sessions as [Session, Session, Session, Session, Session];
    // Three pages of one visit (landing, pushState, full load) share the session.
    expect(aliceAd.events.filter((e) => e.event === '$pageview').map((e) => e.props.$pathname)).toEqual(['/', '/features', '/docs']);
    // $pathname without the query string the landing URL had.
    expect(aliceAd.entry.props.$current_url).toMatch(/\/\?utm_source=google&utm_medium=cpc&utm_campaign=spring$/);
    expect(carolMail.entry.props.$pathname).toBe('/docs');
    expect(new Set(sessions.map((s) => s.id)).size).toBe(5);
    expect(new Set([bobDay1, aliceAd, carolMail].map((s) => s.entry.props.$window_id)).size).toBe(3);
    // A $pageleave on each unload, with the left page's URL; autocapture clicks; the identify joining the anonymous visitor.
    // (Chromium may fire the old page's pagehide just after the next page's posthog-js has started.)
    const named = (name: string) => aliceAd.events.filter((e) => e.event === name).map((e) => e.props.$pathname);
    expect([named('$autocapture'), named('$pageleave').sort()]).toEqual([['/', '/features'], ['/docs', '/features']]);
    expect(aliceAd.exit.props.$pathname).toBe('/docs');
    const identifies = events.filter((e) => e.event === '$identify');
    expect(identifies.map((e) => [e.distinctId, e.props.$anon_distinct_id])).toEqual([['alice@example.com', aliceAd.entry.distinctId], ['alice@example.com', carolMail.entry.distinctId]]);
    // Durations as the clocks moved: a long visit, two one-page bounces under 10 s.
    expect(aliceAd.duration).toBeGreaterThanOrEqual(135);
    expect([aliceBack.isBounce, bobBack.isBounce, aliceAd.isBounce, bobDay1.isBounce]).toEqual([true, true, false, false]);
    expect(bobDay1.start).toBeLessThan(dayPeriod(DAY2).from);
    // Session ids are UUIDv7 whose time part is the session's start (the page clock ran with the
    // server's): the id is minted when the session begins, its first event stamped when sent, which
    // a loaded machine delays by seconds; the sessions table's bound allows days.
    for (const s of sessions) expect(Math.abs(parseInt(s.id.replace(/-/g, '').slice(0, 12), 16) - s.start)).toBeLessThan(60 * SECOND);
    // The $pageleave reports the page it leaves and how long it was shown.
    expect(aliceAd.exit.props).toMatchObject({ $prev_pageview_pathname: '/docs' });
    expect(aliceAd.exit.props.$prev_pageview_duration).toBeGreaterThanOrEqual(40);
  });

  const numbers = (items: { key: string; value: number | null; previous: number | null; changeFromPreviousPct: number | null }[]) =>
    items.map(({ key, value, previous, changeFromPreviousPct }) => ({ key, value: round(value), previous: round(previous), changeFromPreviousPct }));

  it('WebOverviewQuery equals the definitions over the stored events, without and with compare', async () => {
    const plain = await runQuery(t, owner, { kind: 'WebOverviewQuery', dateRange: { date_from: DAY1, date_to: DAY2 }, properties: [] });
    expect(numbers(plain.results)).toEqual(numbers(overviewOracle(events, BOTH_DAYS, null)));
    const compared = await runQuery(t, owner, { kind: 'WebOverviewQuery', dateRange: { date_from: DAY2, date_to: DAY2 }, compareFilter: { compare: true }, properties: [] });
    const expected = overviewOracle(events, dayPeriod(DAY2), dayPeriod(DAY1));
    expect(numbers(compared.results)).toEqual(numbers(expected));
    // The traffic makes every number count: visitors merged by identify, both periods filled.
    expect(expected.map((i) => [i.key, i.value, i.previous])).toMatchObject([['visitors', 2, 1], ['views', 7, 2], ['sessions', 4, 1], ['session duration', expect.any(Number), expect.any(Number)], ['bounce rate', 50, 0]]);
  });

  it('WebOverviewQuery applies event filters per page view and session filters on the session, as the definitions do', async () => {
    const overview = async (properties: unknown[]) => (await runQuery(t, owner, {
      kind: 'WebOverviewQuery', dateRange: { date_from: DAY2, date_to: DAY2 }, compareFilter: { compare: true }, properties,
    })).results;
    const blog = await overview([{ key: '$pathname', value: '/blog', operator: 'exact', type: 'event' }]);
    const expectedBlog = overviewOracle(events, dayPeriod(DAY2), dayPeriod(DAY1), { event: (e) => e.props.$pathname === '/blog' });
    expect(numbers(blog)).toEqual(numbers(expectedBlog));
    expect(expectedBlog[2]).toMatchObject({ key: 'sessions', value: 3 }); // carol's visit and the two returns
    const paid = await overview([{ key: '$channel_type', value: ['Paid Search', 'Direct'], operator: 'exact', type: 'session' }]);
    const expectedPaid = overviewOracle(events, dayPeriod(DAY2), dayPeriod(DAY1), { session: (s) => ['Paid Search', 'Direct'].includes(s.channelType) });
    expect(numbers(paid)).toEqual(numbers(expectedPaid));
    expect(expectedPaid.map((i) => [i.key, i.value, i.previous]).slice(0, 3)).toEqual([['visitors', 1, 1], ['views', 3, 2], ['sessions', 1, 1]]);
  });

  it("WebOverviewQuery as the Web analytics page first asks it (last 7 days, compared) equals the definitions for the server's today", async () => {
    const today = Date.parse(new Date(Date.now()).toISOString().slice(0, 10));
    expect(today).toBe(dayPeriod(DAY2).from);
    const res = await runQuery(t, owner, { kind: 'WebOverviewQuery', dateRange: { date_from: '-7d' }, compareFilter: { compare: true }, properties: [], filterTestAccounts: false });
    // PostHog's -7d: 8 days to the end of today; the previous period, moved a day later, shares its first day.
    const current = { from: today - 7 * DAY, to: today + DAY - 1 };
    const previous = { from: today - 14 * DAY + DAY, to: today - 7 * DAY + DAY - 1 };
    expect(numbers(res.results)).toEqual(numbers(overviewOracle(events, current, previous)));
  });

  const BREAKDOWN_CASES: [string, boolean][] = [
    ['Page', true], ['Page', false], ['InitialPage', true], ['ExitPage', false], ['InitialChannelType', false],
    ['InitialReferringDomain', false], ['InitialUTMSource', false], ['InitialUTMMedium', false], ['InitialUTMCampaign', false],
    ['InitialUTMSourceMediumCampaign', false], ['Browser', false], ['OS', false],
    ['DeviceType', false], ['Viewport', false], ['Language', false], ['Timezone', false],
  ];

  describe.each(BREAKDOWN_CASES)('WebStatsTableQuery by %s (bounce rate: %s)', (breakdownBy, includeBounceRate) => {
    const table = async (dateRange: unknown, compare: boolean) => {
      const res = await runQuery(t, owner, {
        kind: 'WebStatsTableQuery', breakdownBy, dateRange, properties: [], ...(includeBounceRate ? { includeBounceRate } : {}),
        ...(compare ? { compareFilter: { compare: true } } : {}),
      });
      return rowsOf(res);
    };

    it('equals the definitions without compare', async () => {
      const expected = statsOracle(events, breakdownBy, BOTH_DAYS, null, includeBounceRate);
      expect(expected.length).toBeGreaterThan(1);
      expect(await table({ date_from: DAY1, date_to: DAY2 }, false)).toEqual(expected.map(normal));
    });

    it('equals the definitions with compare', async () => {
      const expected = statsOracle(events, breakdownBy, dayPeriod(DAY2), dayPeriod(DAY1), includeBounceRate);
      expect(await table({ date_from: DAY2, date_to: DAY2 }, true)).toEqual(expected.map(normal));
    });
  });
});

const round = (x: number | null | undefined) => (x === null || x === undefined ? null : Math.round(x * 1e6) / 1e6);
const pair = (p: Pair | undefined) => (p ? [round(p[0]), round(p[1])] : undefined);

/** A row in comparable form: numbers to 6 places. */
function normal(row: StatsRow) {
  return { value: row.value, visitors: pair(row.visitors), views: pair(row.views), bounce_rate: pair(row.bounce_rate), ui_fill_fraction: round(row.ui_fill_fraction) };
}

/** The answer's rows by its column names. */
function rowsOf(res: { columns: string[]; results: unknown[][] }) {
  const at = (name: string) => res.columns.indexOf(`context.columns.${name}`);
  return res.results.map((r) => normal({
    value: r[at('breakdown_value')],
    visitors: r[at('visitors')] as Pair,
    views: r[at('views')] as Pair,
    bounce_rate: at('bounce_rate') >= 0 ? (r[at('bounce_rate')] as Pair) : undefined,
    ui_fill_fraction: r[at('ui_fill_fraction')] as number | null,
  }));
}
