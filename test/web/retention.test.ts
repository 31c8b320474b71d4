// Data retention in Chromium against a real Hoglet (issue 32): the project settings page shows the
// setting (empty keeps everything), saves it through PATCH, says from which day events are kept as
// the API does, refuses what the API refuses with its message, and after the retention job shows
// the number of events it removed: the count the project's events went down by.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { hogqlRows } from '../helpers/hogql.js';
import { ev, journeys } from '../helpers/journeys.js';
import { ensureWebBuild, hasChromium, PASSWORD, screenshot } from './harness.js';

const CHROMIUM = process.env.HOGLET_CHROMIUM ?? '/usr/bin/chromium';

describe.skipIf(!hasChromium)('data retention settings in Chromium', () => {
  let t: TestApp;
  let who: Credentials;
  let base: string;
  let browser: Browser;
  const eventCount = async () => Number((await hogqlRows(t, who, 'select count() from events'))[0]![0]);

  beforeAll(async () => {
    ensureWebBuild();
    t = await createTestApp('sqlite');
    who = await t.bootstrap('edsger@example.com', { organization: 'Keeps Little' });
    await t.services.accounts.setPassword(who.email, PASSWORD);
    // Two events from long ago, one from this month (always kept).
    await journeys(t, who, {
      old: [ev('$pageview', '2020-03-01T10:00:00Z'), ev('$pageview', '2020-04-01T10:00:00Z')],
      now: [ev('$pageview', new Date(Date.now() - 60_000).toISOString())],
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('sets the months kept, shows what they keep and, after the job, what it removed', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    expect((await context.request.post(`${base}/api/login/`, { data: { email: who.email, password: PASSWORD } })).status()).toBe(200);

    await page.goto(`${base}/project/${who.projectId}/settings`);
    const section = page.getByTestId('settings-retention');
    const input = section.getByLabel('Months of events kept');
    expect(await input.inputValue()).toBe('');
    await expect.poll(() => section.getByTestId('retention-keeps').textContent()).toBe('Keeps every event.');

    // What the API refuses, the page says with the API's words.
    await input.fill('0');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.getByRole('alert').textContent()).toBe('Ensure this value is greater than or equal to 1.');

    await input.fill('12');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.getByRole('status').textContent()).toBe('Saved.');
    const status = (await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/event_retention/` })).json();
    expect(status.event_retention_months).toBe(12);
    const from = new Date(status.keeps_events_from).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    await expect.poll(() => section.getByTestId('retention-keeps').textContent()).toBe(`Keeps events from ${from} (UTC) on.`);

    const before = await eventCount();
    await t.services.eventRetention.runOnce();
    const removed = before - (await eventCount());
    expect(removed).toBe(2);
    await page.reload();
    const lastRun = page.getByTestId('settings-retention').getByTestId('retention-last-run');
    await expect.poll(() => lastRun.getAttribute('data-removed')).toBe(String(removed));
    expect(await lastRun.textContent()).toContain(`2 events from before ${from} removed.`);
    expect(await page.getByTestId('settings-retention').getByLabel('Months of events kept').inputValue()).toBe('12');
    await screenshot(page, 'settings-retention');

    // Cleared: every event is kept again.
    await page.getByTestId('settings-retention').getByLabel('Months of events kept').fill('');
    await page.getByTestId('settings-retention').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('settings-retention').getByTestId('retention-keeps').textContent()).toBe('Keeps every event.');
    expect((await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/` })).json().event_retention_months).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
