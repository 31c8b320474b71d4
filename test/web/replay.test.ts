// Session replay in the web app (issue 33, item 4), in Chromium against a real Hoglet: the
// unchanged posthog-js records a customer's page (clicks, typing); the recording shows in the
// Recordings list with the API's duration and first URL; opened, the lazy-loaded player draws the
// recorded page (the replayed iframe holds the page's text), play/pause, skipping inactivity and
// speed work, and clicking an event of the session's timeline moves the player to that event's moment.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { DESKTOP_CHROME_UA, serveSite, type StaticSite } from '../helpers/browser.js';
import { ensureWebBuild, hasChromium, PASSWORD, SCREENS } from './harness.js';

const CHROMIUM = process.env.HOGLET_CHROMIUM ?? '/usr/bin/chromium';

/** Waits (outside a test, where expect.poll is not allowed) until `check` holds. */
async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`still not so after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.skipIf(!hasChromium)('the Recordings page and the player in Chromium', () => {
  let t: TestApp;
  let who: Credentials;
  let base: string;
  let browser: Browser;
  let site: StaticSite;
  let sessionId = '';

  const api = async (url: string) => (await t.request(who.key, { method: 'GET', url })).json();
  const hogql = async (query: string, values: Record<string, unknown>) =>
    (await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query, values } } })).json();

  beforeAll(async () => {
    ensureWebBuild();
    t = await createTestApp('sqlite');
    who = await t.bootstrap('replay-player@example.com', { organization: 'Watches Sessions' });
    await t.services.accounts.setPassword(who.email, PASSWORD);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const on = { session_recording_opt_in: true, session_recording_sample_rate: null, session_recording_minimum_duration_milliseconds: null };
    expect((await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload: on })).statusCode).toBe(200);
    const init = `
      import posthog from '/posthog-js/module.js';
      posthog.init(${JSON.stringify(who.projectApiToken)}, { api_host: ${JSON.stringify(base)} });
      posthog.identify('visitor-42', { email: 'visitor@example.com' });
      window.posthog = posthog;`;
    site = await serveSite({
      '/': `<!doctype html><html><head><title>Checkout</title><link rel="icon" href="data:,"><script type="module">${init}</script></head>
        <body><h1 id="title">Checkout Counter</h1><input id="coupon" placeholder="Coupon"><button id="apply">Apply coupon</button><p id="out">No coupon yet</p>
        <script>document.getElementById('apply').onclick = () => { document.getElementById('out').textContent = 'Applied ' + document.getElementById('coupon').value; };</script></body></html>`,
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-blink-features=AutomationControlled', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });

    // A visitor's session: typing and clicking for about 4 s, 8 s idle (an inactive stretch the
    // player skips), then 4 s more.
    const context = await browser.newContext({ userAgent: DESKTOP_CHROME_UA, viewport: { width: 1024, height: 640 } });
    const page = await context.newPage();
    await page.goto(`${site.url}/`);
    await page.waitForFunction(() => (globalThis as any).posthog?.__loaded === true);
    for (let i = 0; i < 6; i++) {
      await page.fill('#coupon', `SAVE${i}`);
      await page.click('#apply');
      await page.waitForTimeout(i === 2 ? 8_000 : 1_300);
    }
    sessionId = await page.evaluate(() => (globalThis as any).posthog.get_session_id());
    await page.waitForTimeout(3_000);
    await context.close();
    // The recording is listed, and the session's events (page view, autocaptured clicks) are queryable.
    await until(async () => (await api(`/api/projects/${who.projectId}/session_recordings/`)).results.some((r: { id: string }) => r.id === sessionId));
    await until(async () => ((await hogql('select count() from events where properties.$session_id = {sid} and event = \'$autocapture\'', { sid: sessionId })).results?.[0]?.[0] ?? 0) >= 3);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  async function signedIn(): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    expect((await context.request.post(`${base}/api/login/`, { data: { email: who.email, password: PASSWORD } })).status()).toBe(200);
    return { page, problems, close: () => context.close() };
  }
  const playerNumber = async (page: Page, name: string) => Number(await page.locator('.recording-player').getAttribute(`data-${name}`));

  it('lists the recording with the API\'s duration, first URL, person and activity; the side navigation leads there', async () => {
    const { page, problems, close } = await signedIn();
    const [recording] = (await api(`/api/projects/${who.projectId}/session_recordings/?session_ids=${sessionId}`)).results;
    expect(recording.start_url).toBe(`${site.url}/`);
    expect(recording.click_count).toBeGreaterThanOrEqual(6);
    expect(recording.recording_duration).toBeGreaterThanOrEqual(6);
    expect(recording.person.name).toBe('visitor@example.com');

    await page.goto(`${base}/project/${who.projectId}/insights`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Session replay' }).click();
    await page.waitForURL(`${base}/project/${who.projectId}/replay/recent`);
    const table = page.getByTestId('recordings-table');
    const row = table.locator(`tr[data-id="${sessionId}"]`);
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(await row.locator('td').nth(1).getAttribute('data-seconds')).toBe(String(recording.recording_duration));
    expect(cells[2]).toBe(recording.person.name);
    expect(cells[3]).toBe(recording.start_url);
    expect(cells[4]).toContain(`${recording.click_count} clicks`);
    expect(cells[4]).toContain(`${recording.keypress_count} keys`);
    expect(await row.locator('td').nth(2).locator('a').getAttribute('href')).toBe(`/project/${who.projectId}/person/${recording.person.uuid}`);

    // A minimum duration past this recording's hides it; clearing it brings it back.
    await page.getByLabel('Minimum duration (s)').fill(String(recording.recording_duration + 60));
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(0);
    await page.getByLabel('Minimum duration (s)').fill(String(recording.recording_duration));
    await page.getByLabel('Person').fill('visitor-42');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await row.waitFor();
    fs.mkdirSync(SCREENS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENS, 'replay-list.png'), fullPage: true });
    expect(problems).toEqual([]);
    await close();
  }, 60_000);

  it('plays the recording: the recorded page in the player, play/pause, skip inactivity, speed, and the timeline seeks', async () => {
    const { page, problems, close } = await signedIn();
    await page.goto(`${base}/project/${who.projectId}/replay/recent`);
    const opened = Date.now();
    await page.getByTestId('recordings-table').locator(`tr[data-id="${sessionId}"] td`).nth(3).click();
    await page.waitForURL(`${base}/project/${who.projectId}/replay/${sessionId}`);
    // The replayed iframe holds what the visitor's page had.
    const screen = page.frameLocator('.recording-screen iframe');
    await expect.poll(() => screen.locator('#title').textContent(), { timeout: 20_000 }).toBe('Checkout Counter');
    const wallToFirstFrame = Date.now() - opened;
    await page.locator('.recording-player[data-first-frame-ms]').waitFor();
    const firstFrame = await playerNumber(page, 'first-frame-ms');
    console.log(`replay: first frame ${firstFrame} ms after the player mounted (snapshots fetched and unpacked); ${wallToFirstFrame} ms from the click on the row`);

    // It plays on its own; Pause stops the clock, Play moves it on.
    const pause = page.getByRole('button', { name: 'Pause' });
    await pause.click();
    await expect.poll(() => page.locator('.recording-player').getAttribute('data-playing')).toBe('false');
    await page.waitForTimeout(300);
    const pausedAt = await playerNumber(page, 'current-ms');
    await page.waitForTimeout(600);
    expect(await playerNumber(page, 'current-ms')).toBe(pausedAt);

    // Skip inactivity (on by default, as PostHog): played from inside the idle stretch, the player
    // is past it at once; with it off, the same second of play stays inside.
    const start = await playerNumber(page, 'start-ms');
    const total = await playerNumber(page, 'total-ms');
    const events = (await hogql('select event, toUnixTimestamp64Milli(timestamp) from events where properties.$session_id = {sid} order by timestamp', { sid: sessionId })).results as [string, number][];
    const clickTimes = events.filter(([event]) => event === '$autocapture').map(([, ms]) => Number(ms) - start);
    const idle = clickTimes.findIndex((at, i) => i > 0 && at - clickTimes[i - 1]! > 6_000);
    expect(idle).toBeGreaterThan(0);
    const [idleFrom, idleTo] = [clickTimes[idle - 1]!, clickTimes[idle]!];
    const playFrom = async (offset: number) => {
      await page.locator('.recording-seek').fill(String(offset));
      await expect.poll(() => playerNumber(page, 'current-ms')).toBe(offset);
      await page.getByRole('button', { name: 'Play' }).click();
      await page.waitForTimeout(800);
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.waitForTimeout(200);
      return playerNumber(page, 'current-ms');
    };
    expect(await page.getByLabel('Skip inactivity').isChecked()).toBe(true);
    const inside = Math.round((idleFrom + 1_500) / 100) * 100; // the seek bar's step is 100 ms
    const skipped = await playFrom(inside);
    await page.getByLabel('Skip inactivity').uncheck();
    const notSkipped = await playFrom(inside);
    console.log(`replay: idle from ${idleFrom} to ${idleTo} ms; played 0.8 s from ${inside}: ${skipped} ms with skipping, ${notSkipped} ms without`);
    expect(skipped).toBeGreaterThanOrEqual(idleTo - 1_000);
    expect(notSkipped).toBeLessThan(inside + 2_500);

    // Speed: from the start, with inactivity not skipped, 4x covers about four times what 1x does.
    const advance = async (speed: string) => {
      await page.getByRole('group', { name: 'Speed' }).getByRole('button', { name: speed }).click();
      expect(await page.getByRole('group', { name: 'Speed' }).getByRole('button', { name: speed }).getAttribute('aria-pressed')).toBe('true');
      await page.locator('.recording-seek').fill('0');
      await expect.poll(() => playerNumber(page, 'current-ms')).toBe(0);
      const started = Date.now();
      await page.getByRole('button', { name: 'Play' }).click();
      await page.waitForTimeout(1_000);
      const moved = await playerNumber(page, 'current-ms');
      const elapsed = Date.now() - started;
      await page.getByRole('button', { name: 'Pause' }).click();
      return { moved, elapsed };
    };
    const one = await advance('1x');
    const four = await advance('4x');
    console.log(`replay: 1x moved ${one.moved} ms in ${one.elapsed} ms, 4x moved ${four.moved} ms in ${four.elapsed} ms`);
    expect(one.moved).toBeGreaterThan(0);
    expect(four.moved / four.elapsed).toBeGreaterThan(2 * (one.moved / one.elapsed));

    // The timeline lists the session's events; clicking the last click moves the player to it.
    const timeline = page.getByTestId('recording-timeline');
    await expect.poll(() => timeline.getAttribute('data-state')).toBe('ready');
    expect(await timeline.locator('li').count()).toBe(events.length);
    // The first autocaptured click past the middle of the recording.
    const clicks = timeline.locator('li button', { hasText: '$autocapture' });
    const stamps = (await clicks.evaluateAll((buttons) => buttons.map((b) => Number(b.getAttribute('data-timestamp')))));
    const index = stamps.findIndex((ms) => ms - start > total / 2);
    expect(index).toBeGreaterThan(0);
    const target = clicks.nth(index);
    const timestamp = stamps[index]!;
    await target.click();
    const expected = timestamp - start;
    await expect.poll(async () => Math.abs((await playerNumber(page, 'current-ms')) - expected)).toBeLessThan(150);
    expect(expected).toBeGreaterThan(2_000);
    // At that moment the replayed page shows what the visitor had applied by then.
    await expect.poll(() => screen.locator('#out').textContent()).toMatch(/^Applied SAVE\d$/);
    await expect.poll(() => timeline.locator('button.now').getAttribute('data-timestamp')).toBe(String(timestamp));
    await page.screenshot({ path: path.join(SCREENS, 'replay-player.png'), fullPage: true });
    expect(problems).toEqual([]);
    await close();
  }, 90_000);

  it('shows another organization\'s user neither the list nor the recording', async () => {
    const outsider = await t.bootstrap('outsider@example.com', { organization: 'Elsewhere' });
    await t.services.accounts.setPassword(outsider.email, PASSWORD);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    expect((await context.request.post(`${base}/api/login/`, { data: { email: outsider.email, password: PASSWORD } })).status()).toBe(200);
    const snapshots = await context.request.get(`${base}/api/projects/${who.projectId}/session_recordings/${sessionId}/snapshots/`);
    expect([403, 404]).toContain(snapshots.status());
    await page.goto(`${base}/project/${who.projectId}/replay/recent`);
    await page.getByRole('alert').first().waitFor();
    expect(await page.getByTestId('recordings-table').locator('tbody tr').count()).toBe(0);
    await page.goto(`${base}/project/${who.projectId}/replay/${sessionId}`);
    await expect.poll(() => page.locator('.recording-player [role="alert"]').count()).toBe(1);
    expect(await page.locator('.recording-screen iframe').count()).toBe(0);
    await context.close();
  }, 60_000);

  it('keeps recordings for the period chosen in the Session replay settings card', async () => {
    const { page, problems, close } = await signedIn();
    await page.goto(`${base}/project/${who.projectId}/settings`);
    const section = page.getByTestId('settings-session-replay');
    expect(await section.getByLabel('Keep recordings for').inputValue()).toBe('30d');
    await section.getByLabel('Keep recordings for').selectOption('90d');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.getByRole('status').textContent()).toBe('Saved.');
    expect((await api(`/api/projects/${who.projectId}/`)).session_recording_retention_period).toBe('90d');
    await page.reload();
    expect(await page.getByTestId('settings-session-replay').getByLabel('Keep recordings for').inputValue()).toBe('90d');
    expect(problems).toEqual([]);
    await close();
  }, 60_000);
});
