// posthog-js with its default settings, in a real Chromium, against a listening Hoglet: on page load
// it reads the remote config (hasFeatureFlags), asks /flags/ and gets the flags and payloads made
// through the flags API; after identify() it asks again with $anon_distinct_id and the person's
// properties, and a continuity flag keeps the anonymous visitor's bucket. As in PostHog, the
// bucket is remembered only for a visitor who has a person when identify() runs (person_profiles
// 'always'; with 'identified_only' the person is created by the $identify that /flags/ outruns:
// PostHog's documented limitation).
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { DESKTOP_CHROME_UA, findChromium, serveSite, type StaticSite } from '../../helpers/browser.js';
import { runQuery } from '../../helpers/journeys.js';
import { createFlag, eventually, flagsFor, personCondition } from './helpers.js';

const executable = findChromium();
if (!executable && process.env.CI) throw new Error("Chromium is missing: .ci/run installs Debian's chromium for the browser tests.");

const rolloutHash = (flagKey: string, id: string) => parseInt(createHash('sha1').update(`${flagKey}.${id}`).digest('hex').slice(0, 15), 16) / 0xfffffffffffffff;

interface PageFlags {
  everyone: unknown;
  payload: unknown;
  pro: unknown;
  sticky: unknown;
}

describe.skipIf(!executable)('posthog-js reads Hoglet flags in Chromium', () => {
  let t: TestApp;
  let owner: Credentials;
  let site: StaticSite;
  let browser: Browser;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    owner = await t.bootstrap('posthog-js-flags@example.com');
    await createFlag(t, owner, { key: 'everyone', filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '{"banner": "hello"}' } } });
    await createFlag(t, owner, { key: 'pro-plan', filters: { groups: [personCondition('plan', 'pro')] } });
    await createFlag(t, owner, { key: 'sticky', ensure_experience_continuity: true, filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const hogletUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const init = `
      import posthog from '/posthog-js/module.js';
      posthog.init(${JSON.stringify(owner.projectApiToken)}, { api_host: ${JSON.stringify(hogletUrl)}, person_profiles: 'always' });
      window.posthog = posthog;`;
    site = await serveSite({ '/': `<!doctype html><html><head><title>Shop</title><link rel="icon" href="data:,"><script type="module">${init}</script></head><body><h1>Shop</h1></body></html>` });
    browser = await chromium.launch({ executablePath: executable!, args: ['--no-sandbox', '--disable-gpu', '--disable-blink-features=AutomationControlled'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  /** The page's flags once posthog-js has them (after `reloads` more /flags/ answers). */
  const pageFlags = (page: Page): Promise<PageFlags> => page.evaluate(() => {
    const ph = (globalThis as unknown as { posthog: any }).posthog;
    return { everyone: ph.getFeatureFlag('everyone'), payload: ph.getFeatureFlagPayload('everyone'), pro: ph.getFeatureFlag('pro-plan'), sticky: ph.getFeatureFlag('sticky') };
  });

  it('gets its flags and payloads on page load, and again after identify with the continuity bucket kept', async () => {
    const context = await browser.newContext({ userAgent: DESKTOP_CHROME_UA });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const flagRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/flags')) flagRequests.push(request.postData() ?? '');
    });
    await page.goto(`${site.url}/`);
    await page.waitForFunction(() => (globalThis as unknown as { posthog?: any }).posthog?.featureFlags?.hasLoadedFlags === true, null, { timeout: 15_000 });
    const before = await pageFlags(page);
    expect(before).toMatchObject({ everyone: true, payload: { banner: 'hello' }, pro: false });
    expect(typeof before.sticky).toBe('boolean');

    // An identified id whose own hash lands in the other bucket than the anonymous visitor's.
    const anon: string = await page.evaluate(() => (globalThis as unknown as { posthog: any }).posthog.get_distinct_id());
    const anonIn = rolloutHash('sticky', anon) <= 0.5;
    expect(before.sticky).toBe(anonIn);
    let n = 0;
    while ((rolloutHash('sticky', `customer-${n}`) <= 0.5) === anonIn) n++;
    const customer = `customer-${n}`;
    // The anonymous visitor's person exists once their first events are stored.
    await eventually(async () => {
      const { results } = await runQuery(t, owner, { kind: 'HogQLQuery', query: `select count() from person_distinct_ids where distinct_id = '${anon}'` });
      expect(results[0][0]).toBe(1);
    }, 15_000);

    const requestsBefore = flagRequests.length;
    await page.evaluate(([id]) => (globalThis as unknown as { posthog: any }).posthog.identify(id, { plan: 'pro' }), [customer]);
    await page.waitForFunction(() => (globalThis as unknown as { posthog: any }).posthog.getFeatureFlag('pro-plan') === true, null, { timeout: 15_000 });
    expect(flagRequests.length).toBeGreaterThan(requestsBefore);
    const after = await pageFlags(page);
    expect(after).toMatchObject({ everyone: true, pro: true, sticky: anonIn });
    // The server remembers the bucket for the identified id, without the anonymous id.
    expect((await flagsFor(t, owner, customer)).sticky.enabled).toBe(anonIn);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
