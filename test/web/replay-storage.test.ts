// The unchanged posthog-js in Chromium records a page (clicks, typing) into a project that opted
// in; Hoglet's /s/ stores what it sends: the session's blocks read back as rrweb events (the page's
// Meta and full snapshot first), and the summary row's counts agree with the stored events.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { DESKTOP_CHROME_UA, serveSite, type StaticSite } from '../helpers/browser.js';
import { hasChromium } from './harness.js';

const CHROMIUM = process.env.HOGLET_CHROMIUM ?? '/usr/bin/chromium';

describe.skipIf(!hasChromium)('posthog-js recordings stored by /s/ in Chromium', () => {
  let t: TestApp;
  let who: Credentials;
  let base: string;
  let browser: Browser;
  let site: StaticSite;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    who = await t.bootstrap('replay-browser@example.com');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const on = { session_recording_opt_in: true, session_recording_sample_rate: null, session_recording_minimum_duration_milliseconds: null };
    expect((await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload: on })).statusCode).toBe(200);
    const init = `
      import posthog from '/posthog-js/module.js';
      posthog.init(${JSON.stringify(who.projectApiToken)}, { api_host: ${JSON.stringify(base)} });
      window.posthog = posthog;`;
    site = await serveSite({
      '/': `<!doctype html><html><head><title>Shop</title><link rel="icon" href="data:,"><script type="module">${init}</script></head>
        <body><h1>Shop</h1><input id="search" placeholder="Search"><button id="buy">Buy now</button><p id="out"></p>
        <script>document.getElementById('buy').onclick = () => { document.getElementById('out').textContent = 'Added ' + Date.now(); };</script></body></html>`,
    });
    // Without AutomationControlled off, posthog-js takes the browser for a bot and sends nothing.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-blink-features=AutomationControlled', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  it('a recorded visit reads back from its blocks, and its summary row counts what they hold', async () => {
    const context = await browser.newContext({ userAgent: DESKTOP_CHROME_UA });
    const page = await context.newPage();
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(`${base}/s/`) && response.request().method() === 'POST') statuses.push(response.status());
    });
    await page.goto(`${site.url}/`);
    await page.waitForFunction(() => (globalThis as any).posthog?.__loaded === true);
    for (let i = 0; i < 3; i++) {
      await page.click('#buy');
      await page.fill('#search', `shoes ${i}`);
      await page.waitForTimeout(1_500);
    }
    const sessionId: string = await page.evaluate(() => (globalThis as any).posthog.get_session_id());
    // posthog-js flushes its buffer every couple of seconds.
    await page.waitForTimeout(3_000);
    await context.close();
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200)).toBe(true);

    const events = await t.services.replay.readEvents(who.projectId, sessionId);
    const meta = events.find((event) => event.type === 4) as { data: { href: string } } | undefined;
    expect(meta?.data.href).toBe(`${site.url}/`);
    expect(events.some((event) => event.type === 2)).toBe(true);
    const incremental = events.filter((event) => event.type === 3) as Array<{ data: { source: number; type?: number } }>;
    const clicks = incremental.filter((event) => event.data.source === 2 && [2, 3, 4, 9].includes(event.data.type ?? -1)).length;
    const keypresses = incremental.filter((event) => event.data.source === 5).length;
    expect(clicks).toBeGreaterThanOrEqual(3);
    expect(keypresses).toBeGreaterThan(0);

    const [row] = await t.services.events.query<Record<string, string>>(
      `SELECT any(distinct_id) AS distinct_id, argMinMerge(first_url) AS first_url, sum(click_count) AS clicks, sum(keypress_count) AS keypresses,
         sum(event_count) AS events, sum(block_count) AS blocks
       FROM ${t.services.events.layout.database}.session_replay_events WHERE team_id = {team:UInt64} AND session_id = {session:String}`,
      { team: who.projectId, session: sessionId },
    );
    expect(row).toMatchObject({ first_url: `${site.url}/`, clicks: String(clicks), keypresses: String(keypresses), events: String(events.length) });
    expect(Number(row!.blocks)).toBe((await t.services.replay.listBlocks(who.projectId, sessionId)).length);
    expect(row!.distinct_id).not.toBe('');
  }, 90_000);
});
