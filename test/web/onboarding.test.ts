// Onboarding in Chromium against a real Hoglet: a project with no events shows the posthog-js
// snippet with this server's origin as api_host and the project's token, posthog-node's, and a
// "waiting" line; an event sent to /e/ with the snippet's own values turns it green.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ensureWebBuild, hasChromium, PASSWORD, screenshot } from './harness.js';

const CHROMIUM = process.env.HOGLET_CHROMIUM ?? '/usr/bin/chromium';

describe.skipIf(!hasChromium)('onboarding in Chromium', () => {
  let t: TestApp;
  let who: Credentials;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBuild();
    t = await createTestApp('sqlite');
    who = await t.bootstrap('grace@example.com', { organization: 'Fresh Start' });
    await t.services.accounts.setPassword(who.email, PASSWORD);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('an empty project shows the snippets with its token and this origin; the first event sent with them turns the line green', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    expect((await context.request.post(`${base}/api/login/`, { data: { email: who.email, password: PASSWORD } })).status()).toBe(200);

    const project = (await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/` })).json();
    expect(project.ingested_event).toBe(false);
    await page.goto(`${base}/project/${who.projectId}/insights`);
    const onboarding = page.getByTestId('onboarding');
    await onboarding.waitFor();
    expect(await page.getByTestId('project-token').textContent()).toBe(project.api_token);
    const js = (await page.getByTestId('snippet-js').textContent()) ?? '';
    const [, token, host] = /posthog\.init\('([^']+)', \{ api_host: '([^']+)'/.exec(js) ?? [];
    expect([token, host]).toEqual([project.api_token, base]);
    expect(js).toContain(`<script src="${base}/static/array.js"></script>`);
    expect(await page.getByTestId('snippet-node').textContent()).toContain(`new PostHog('${project.api_token}', { host: '${base}' })`);
    // The snippet's script is really there.
    expect((await context.request.get(`${host}/static/array.js`)).status()).toBe(200);
    const line = page.getByTestId('first-event');
    expect(await line.getAttribute('data-state')).toBe('waiting');
    expect(await line.textContent()).toContain('Waiting for your first event…');
    await screenshot(page, 'onboarding');

    // Sent as an SDK would, with the snippet's host and token.
    const sent = await fetch(`${host}/e/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: token, event: 'hello_hoglet', distinct_id: 'first-visitor', properties: {} }) });
    expect(sent.status).toBe(200);
    await expect.poll(() => line.getAttribute('data-state'), { timeout: 20_000 }).toBe('received');
    expect(await line.textContent()).toMatch(/First event received: hello_hoglet at /);
    expect(await line.evaluate((el) => (globalThis as any).getComputedStyle(el).color)).toBe('rgb(27, 122, 67)');
    await screenshot(page, 'onboarding-received');

    // Once a project has events, its insights page no longer shows the snippets.
    await expect.poll(async () => (await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/` })).json().ingested_event).toBe(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Insights' }).waitFor();
    expect(await page.getByTestId('onboarding').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
