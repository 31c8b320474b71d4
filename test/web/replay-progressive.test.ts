// The player starts on the first blocks (issue 33's first frame): a recording of 60 blocks (one
// /s/ request each, the first holding the page's full snapshot, every later one changing the
// heading to "Block i", the last one gzip'd as posthog-js packs mutations). Opened in Chromium,
// the player asks for the blob_v2 sources and the first block at once, and draws the first frame while
// the last range's request is still held open by the test (Playwright's routing); a seek past
// what is loaded waits ("Loading this part…") and lands once the range arrives; playing to the
// end shows the last block's text.
import { gzipSync } from 'node:zlib';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Route } from 'playwright-core';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { turnOnRecording } from '../helpers/recordings.js';
import { ensureWebBuild, hasChromium, PASSWORD, SCREENS } from './harness.js';

const CHROMIUM = process.env.HOGLET_CHROMIUM ?? '/usr/bin/chromium';
const BLOCKS = 60;
const SESSION = 'long-session-1';

describe.skipIf(!hasChromium)('the player shows a long recording before its last block is fetched', () => {
  let t: TestApp;
  let who: Credentials;
  let base: string;
  let browser: Browser;
  const START = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

  const heading = (text: string) => ({ type: 3, textContent: text, id: 7 });
  const fullSnapshot = {
    type: 2,
    timestamp: START + 1,
    data: {
      node: {
        type: 0, id: 1, childNodes: [
          { type: 1, name: 'html', publicId: '', systemId: '', id: 2 },
          { type: 2, tagName: 'html', attributes: {}, id: 3, childNodes: [
            { type: 2, tagName: 'head', attributes: {}, id: 4, childNodes: [] },
            { type: 2, tagName: 'body', attributes: {}, id: 5, childNodes: [{ type: 2, tagName: 'h1', attributes: { id: 'title' }, id: 6, childNodes: [heading('Block 0')] }] },
          ] },
        ],
      },
      initialOffset: { top: 0, left: 0 },
    },
  };
  /** Block i: the page at 0; later the heading's text, the last block packed as posthog-js packs it. */
  function blockEvents(i: number): unknown[] {
    if (i === 0) return [{ type: 4, timestamp: START, data: { href: 'https://long.example/', width: 1024, height: 600 } }, fullSnapshot];
    const texts = [{ id: 7, value: `Block ${i}` }];
    const timestamp = START + i * 1000;
    if (i < BLOCKS - 1) return [{ type: 3, timestamp, data: { source: 0, texts, attributes: [], removes: [], adds: [] } }];
    // posthog-js gzips a mutation's fields into latin-1 strings and marks the event cv "2024-10".
    const packed = (value: unknown) => gzipSync(JSON.stringify(value)).toString('latin1');
    return [{ type: 3, timestamp, cv: '2024-10', data: { source: 0, texts: packed(texts), attributes: packed([]), removes: packed([]), adds: packed([]) } }];
  }

  beforeAll(async () => {
    ensureWebBuild();
    t = await createTestApp('sqlite');
    who = await t.bootstrap('long-replay@example.com', { organization: 'Long Sessions' });
    await turnOnRecording(t, who);
    await t.services.accounts.setPassword(who.email, PASSWORD);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    for (let i = 0; i < BLOCKS; i++) {
      const body = [{ event: '$snapshot', properties: { $snapshot_data: blockEvents(i), $session_id: SESSION, $window_id: 'w1', distinct_id: 'long-visitor', token: who.projectApiToken } }];
      const res = await t.app.inject({ method: 'POST', url: '/s/', payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(200);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('draws the first frame while the last range is still being fetched, waits on a seek past it, and plays to the last block', async () => {
    const { sources } = (await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/session_recordings/${SESSION}/snapshots/?blob_v2=true` })).json();
    expect(sources).toHaveLength(BLOCKS);
    const lastKey = sources[BLOCKS - 1].blob_key as string;

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    expect((await context.request.post(`${base}/api/login/`, { data: { email: who.email, password: PASSWORD } })).status()).toBe(200);

    // Every snapshots request in the order the page sent it, and when each one finished.
    const log: Array<{ what: 'request' | 'finished'; url: string }> = [];
    const isSnapshots = (url: string) => url.includes(`/session_recordings/${SESSION}/snapshots/`);
    page.on('request', (r) => { if (isSnapshots(r.url())) log.push({ what: 'request', url: new URL(r.url()).search }); });
    page.on('requestfinished', (r) => { if (isSnapshots(r.url())) log.push({ what: 'finished', url: new URL(r.url()).search }); });
    // The range holding the last block is held until the test lets it go.
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    let held = false;
    await page.route((url) => isSnapshots(url.href) && url.searchParams.get('end_blob_key') === lastKey, async (route: Route) => {
      held = true;
      await released;
      await route.continue();
    });

    await page.goto(`${base}/project/${who.projectId}/replay/${SESSION}`);
    const screen = page.frameLocator('.recording-screen iframe');
    await expect.poll(() => screen.locator('#title').textContent(), { timeout: 20_000 }).toMatch(/^Block \d+$/);
    await page.locator('.recording-player[data-first-frame-ms]').waitFor();
    // The first frame is drawn and the last range has not arrived: asked for, held, not finished.
    await expect.poll(() => held).toBe(true);
    expect(log.some((entry) => entry.what === 'finished' && entry.url.includes(`end_blob_key=${lastKey}`))).toBe(false);
    expect(await page.locator('.recording-player').getAttribute('data-complete')).toBe('false');
    // The order: the blob_v2 listing and the first block (it holds the full snapshot) at once, then
    // the rest from block 1 in ranges: a few requests, not one per block.
    const asked = log.filter((entry) => entry.what === 'request').map((entry) => entry.url);
    expect(asked.slice(0, 2).sort()).toEqual(['?blob_v2=true', '?source=blob_v2&start_blob_key=0&end_blob_key=0']);
    expect(asked[2]).toBe('?source=blob_v2&start_blob_key=1&end_blob_key=20');
    expect(asked.at(-1)).toBe(`?source=blob_v2&start_blob_key=41&end_blob_key=${lastKey}`);
    expect(asked).toHaveLength(5);
    // The total time is the sources' whole recording, not only what is loaded.
    expect(Number(await page.locator('.recording-player').getAttribute('data-total-ms'))).toBe((BLOCKS - 1) * 1000);

    // A seek past what is loaded waits for it.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.locator('.recording-seek').fill(String((BLOCKS - 2) * 1000 - 500));
    await page.getByRole('status').filter({ hasText: 'Loading this part of the recording' }).waitFor();
    fs.mkdirSync(SCREENS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENS, 'replay-progressive-waiting.png'), fullPage: true });

    release();
    await page.locator('.recording-player[data-complete="true"]').waitFor();
    await expect.poll(() => screen.locator('#title').textContent()).toBe(`Block ${BLOCKS - 3}`);
    // Playing on to the end shows the last block's (gzip'd) text.
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => screen.locator('#title').textContent(), { timeout: 15_000 }).toBe(`Block ${BLOCKS - 1}`);
    await expect.poll(() => page.locator('.recording-player').getAttribute('data-playing'), { timeout: 15_000 }).toBe('false');
    expect(await page.locator('.recording-time').textContent()).toBe('0:59 / 0:59');
    await page.screenshot({ path: path.join(SCREENS, 'replay-progressive.png'), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
