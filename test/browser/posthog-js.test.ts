// posthog-js with its default settings, in a real Chromium, against a real Hoglet server: the page
// loads without console errors, the SDK fetches its remote config (and the extension scripts it
// asks for), autocapture records clicks, pageviews and a pageleave (sendBeacon on unload) arrive, identify merges the anonymous visitor,
// and every event is stored exactly once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_CHROME_UA, findChromium, serveSite, type StaticSite } from '../helpers/browser.js';
import { freePort, hoglet, startServer, type ServerProcess } from '../helpers/processes.js';

const executable = findChromium();
if (!executable && process.env.CI) throw new Error('Chromium is missing: .ci/run installs Debian\'s chromium for the browser tests.');
if (!executable) process.stderr.write('test/browser: no Chromium found (apt-get install chromium, or set HOGLET_CHROMIUM); skipping.\n');

describe.skipIf(!executable)('posthog-js in Chromium against Hoglet', () => {
  let dataDir: string;
  let server: ServerProcess;
  let hogletUrl: string;
  let site: StaticSite;
  let browser: Browser;
  let credentials: { project_id: number; project_api_token: string; personal_api_key: string };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-browser-'));
    const boot = await hoglet(['bootstrap', '--email', 'web@example.com', '--json', '--data-dir', dataDir]);
    credentials = JSON.parse(boot.stdout);
    const port = await freePort();
    server = await startServer(dataDir, port);
    hogletUrl = `http://127.0.0.1:${port}`;
    const init = `
      import posthog from '/posthog-js/module.js';
      posthog.init(${JSON.stringify(credentials.project_api_token)}, { api_host: ${JSON.stringify(hogletUrl)} });
      window.posthog = posthog;`;
    site = await serveSite({
      '/': `<!doctype html><html><head><title>Shop</title><link rel="icon" href="data:,"><script type="module">${init}</script></head>
        <body><h1>Shop</h1><button id="buy" class="cta">Buy now</button><a id="next" href="/thanks">Next</a></body></html>`,
      '/thanks': `<!doctype html><html><head><title>Thanks</title><link rel="icon" href="data:,"><script type="module">${init}</script></head>
        <body><h1>Thanks</h1></body></html>`,
    });
    browser = await chromium.launch({ executablePath: executable!, args: ['--no-sandbox', '--disable-gpu', '--disable-blink-features=AutomationControlled'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** How many of each event the project has, and how many persons did them (the query API, as a user asks). */
  async function stored(events: string[]): Promise<{ counts: Record<string, number>; persons: number }> {
    const query = async (series: object[]) => {
      const res = await fetch(`${hogletUrl}/api/projects/${credentials.project_id}/query/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${credentials.personal_api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          refresh: 'force_blocking',
          query: { kind: 'TrendsQuery', series, dateRange: { date_from: '-1d' }, trendsFilter: { display: 'BoldNumber' } },
        }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { results: { aggregated_value: number }[] }).results.map((r) => r.aggregated_value);
    };
    const totals = await query(events.map((event) => ({ kind: 'EventsNode', event })));
    const [persons] = await query([{ kind: 'EventsNode', event: null, math: 'dau' }]);
    return { counts: Object.fromEntries(events.map((event, i) => [event, totals[i]!])), persons: persons! };
  }

  it('captures pageviews, clicks, a pageleave and an identify, each once, with no console error', async () => {
    const context = await browser.newContext({ userAgent: DESKTOP_CHROME_UA });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const hogletRequests: string[] = [];
    page.on('requestfinished', (request) => {
      if (request.url().startsWith(hogletUrl)) hogletRequests.push(new URL(request.url()).pathname);
    });
    const failedRequests: string[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(hogletUrl) && response.status() >= 400) failedRequests.push(`${response.status()} ${response.url()}`);
    });

    await page.goto(`${site.url}/`);
    // Autocapture starts once the remote config says it is on.
    await page.waitForFunction(() => (globalThis as unknown as { posthog?: { autocapture?: { isEnabled?: boolean } } }).posthog?.autocapture?.isEnabled === true, null, { timeout: 15_000 });
    await page.click('#buy');
    await page.evaluate(() => (globalThis as unknown as { posthog: { identify(id: string): void } }).posthog.identify('customer-42'));
    // Following the link is autocaptured too; the next page sends its own $pageview.
    await page.click('#next');
    await page.waitForURL(`${site.url}/thanks`);
    await page.evaluate(() => (globalThis as unknown as { posthog: { capture(e: string): void } }).posthog.capture('thanked'));
    // Closing the tab sends $pageleave (and anything still queued) with sendBeacon.
    await page.waitForTimeout(500);
    await page.close({ runBeforeUnload: true });

    const events = ['$pageview', '$autocapture', '$identify', '$pageleave', 'thanked'];
    await expect.poll(async () => (await stored(events)).counts, { timeout: 30_000, interval: 500 }).toEqual({
      $pageview: 2,
      $autocapture: 2, // the button and the link
      $identify: 1,
      $pageleave: 1,
      thanked: 1,
    });
    await context.close();
    // Anonymous browsing and the identified customer are one person.
    expect((await stored(events)).persons).toBe(1);
    expect(hogletRequests.some((p) => p.startsWith('/array/'))).toBe(true);
    expect(failedRequests).toEqual([]);
    expect(problems).toEqual([]);
  }, 90_000);
});
