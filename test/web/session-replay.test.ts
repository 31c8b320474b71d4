// Turning session replay on (issue 33, item 1) in Chromium against a real Hoglet: the project
// settings page's "Session replay" card shows and saves what the API stores, and the unchanged
// posthog-js on a customer's page starts recording and POSTs snapshots to /s/ once the project is
// opted in, and sends none while it is opted out.
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { DESKTOP_CHROME_UA, serveSite, type StaticSite } from '../helpers/browser.js';
import { ensureWebBuild, hasChromium, PASSWORD, SCREENS } from './harness.js';

const CHROMIUM = process.env.HOGLET_CHROMIUM ?? '/usr/bin/chromium';

describe.skipIf(!hasChromium)('session replay settings and posthog-js recording in Chromium', () => {
  let t: TestApp;
  let who: Credentials;
  let base: string;
  let browser: Browser;
  let site: StaticSite;
  const project = async () => (await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/` })).json();

  beforeAll(async () => {
    ensureWebBuild();
    t = await createTestApp('sqlite');
    who = await t.bootstrap('grace@example.com', { organization: 'Records Sessions' });
    await t.services.accounts.setPassword(who.email, PASSWORD);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
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
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  /** Visits the customer's page, clicks and types for a few seconds; the snapshot POSTs to Hoglet's /s/. */
  async function visit(waitMs: number): Promise<{ snapshots: number; statuses: number[]; recorderLoaded: boolean }> {
    const context = await browser.newContext({ userAgent: DESKTOP_CHROME_UA });
    const page = await context.newPage();
    const statuses: number[] = [];
    let recorderLoaded = false;
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (!response.url().startsWith(base)) return;
      if (url.pathname === '/s/' && response.request().method() === 'POST') statuses.push(response.status());
      if (/^\/static\/.*(recorder).*\.js$/.test(url.pathname)) recorderLoaded = true;
    });
    await page.goto(`${site.url}/`);
    await page.waitForFunction(() => (globalThis as any).posthog?.__loaded === true);
    for (let i = 0; i < 3; i++) {
      await page.click('#buy');
      await page.fill('#search', `shoes ${i}`);
      await page.waitForTimeout(waitMs / 3);
    }
    const snapshots = statuses.length;
    await context.close();
    return { snapshots, statuses, recorderLoaded };
  }

  it('saves the Session replay card through PATCH and shows what the API stores', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    expect((await context.request.post(`${base}/api/login/`, { data: { email: who.email, password: PASSWORD } })).status()).toBe(200);

    await page.goto(`${base}/project/${who.projectId}/settings`);
    const section = page.getByTestId('settings-session-replay');
    const toggle = section.getByLabel('Record user sessions');
    // PostHog's defaults: off, console logs on, network capture off.
    expect(await toggle.isChecked()).toBe(false);
    expect(await section.getByLabel('Capture console logs').isChecked()).toBe(true);
    expect(await section.getByLabel('Capture network bodies').isChecked()).toBe(false);
    expect(await section.getByLabel('Sample rate').isDisabled()).toBe(true);

    await toggle.check();
    await section.getByLabel('Sample rate').selectOption('0.50');
    await section.getByLabel('Minimum duration').selectOption('2000');
    await section.getByLabel('Capture network headers').check();
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.getByRole('status').textContent()).toBe('Saved.');
    expect(await project()).toMatchObject({
      session_recording_opt_in: true,
      session_recording_sample_rate: '0.50',
      session_recording_minimum_duration_milliseconds: 2000,
      capture_console_log_opt_in: true,
      session_recording_network_payload_capture_config: { recordHeaders: true, recordBody: false },
    });
    const config = (await t.app.inject({ method: 'GET', url: `/array/${who.projectApiToken}/config` })).json();
    expect(config.sessionRecording).toMatchObject({ endpoint: '/s/', sampleRate: '0.50', minimumDurationMilliseconds: 2000, networkPayloadCapture: { recordHeaders: true, recordBody: false } });

    // What the page shows after a reload is what the API stored.
    await page.reload();
    const reloaded = page.getByTestId('settings-session-replay');
    expect(await reloaded.getByLabel('Record user sessions').isChecked()).toBe(true);
    expect(await reloaded.getByLabel('Sample rate').inputValue()).toBe('0.50');
    expect(await reloaded.getByLabel('Minimum duration').inputValue()).toBe('2000');
    expect(await reloaded.getByLabel('Capture network headers').isChecked()).toBe(true);
    await reloaded.screenshot({ path: path.join(SCREENS, 'settings-session-replay.png') });

    // Network capture off again is stored as PostHog stores it: null.
    await reloaded.getByLabel('Capture network headers').uncheck();
    await reloaded.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => reloaded.getByRole('status').textContent()).toBe('Saved.');
    expect((await project()).session_recording_network_payload_capture_config).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it('unchanged posthog-js records and POSTs snapshots to /s/ when opted in, and sends none when opted out', async () => {
    // Every session sampled and no minimum duration, so a short visit is sent.
    const on = { session_recording_opt_in: true, session_recording_sample_rate: null, session_recording_minimum_duration_milliseconds: null };
    expect((await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload: on })).statusCode).toBe(200);
    const recorded = await visit(6000);
    expect(recorded.recorderLoaded).toBe(true);
    expect(recorded.snapshots).toBeGreaterThan(0);
    // Hoglet answers each POST (whether or not it keeps the snapshots yet).
    expect(recorded.statuses.every((status) => status === 200)).toBe(true);

    const off = { session_recording_opt_in: false };
    expect((await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload: off })).statusCode).toBe(200);
    const notRecorded = await visit(6000);
    expect(notRecorded.snapshots).toBe(0);
    expect(notRecorded.recorderLoaded).toBe(false);
  }, 90_000);
});
