// The web app served by the server itself: index.html for the app's own paths (revalidated every
// time), its hashed assets cached for a year, and everything else answered as before (the API's
// 404 in PostHog's body, the shared insight's JSON at .json).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_APP_DIR } from '../../src/http/routes/web-app.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const built = fs.existsSync(path.join(WEB_APP_DIR, 'index.html'));

describe('the web app as the server serves it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('answers index.html for the app’s paths, never cached', async () => {
    for (const url of ['/', '/login', '/project/1/insights', '/project/1/insights/abc123', '/project/1/dashboard/7', '/shared/some-token']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toMatch(/^text\/html/);
      expect(page.headers['cache-control'], url).toBe('no-cache');
      // Only this server's own files and API; a signed-in page is never framed, a shared one may be.
      const policy = String(page.headers['content-security-policy']);
      expect(policy, url).toContain("default-src 'self'");
      expect(policy, url).toContain("connect-src 'self'");
      expect(policy, url).toContain(url.startsWith('/shared/') ? 'frame-ancestors *' : "frame-ancestors 'none'");
    }
  });

  it.runIf(built)('serves the built assets with a year of caching; an unknown asset is 404', async () => {
    const html = (await t.app.inject({ method: 'GET', url: '/' })).body;
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const url of assets) {
      const asset = await t.app.inject({ method: 'GET', url });
      expect(asset.statusCode, url).toBe(200);
      expect(asset.headers['cache-control'], url).toMatch(/max-age=31536000.*immutable|immutable.*max-age=31536000/);
      expect(asset.headers['content-type'], url).toMatch(url.endsWith('.js') ? /javascript/ : /css/);
    }
    expect((await t.app.inject({ method: 'GET', url: '/assets/nothing-here.js' })).statusCode).toBe(404);
    // The bundle asks nothing of another host: no CDN, no fonts from outside.
    for (const url of assets) expect((await t.app.inject({ method: 'GET', url })).body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost|www\.w3\.org)[a-z0-9.-]+\.(com|net|org|io)\/[^"'\s]*\.(js|css|woff2?)/i);
  });

  it('leaves the API’s answers alone', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/nothing/' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ type: 'invalid_request', code: 'not_found' });
    expect((await t.app.inject({ method: 'GET', url: '/_health' })).statusCode).toBe(200);
    const shared = await t.app.inject({ method: 'GET', url: '/shared/unknown-token.json' });
    expect(shared.statusCode).toBe(403);
    expect(shared.headers['content-type']).toMatch(/json/);
  });
});
