// posthog-js's extension scripts, served from the package Hoglet ships with, at the paths the SDK
// asks its api_host for; nothing else of the package (or the disk) is reachable there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp('sqlite');
});
afterAll(() => t.close());

describe('/static/ extension scripts', () => {
  it('serves the scripts posthog-js loads, by name or by version, with CORS for <script crossorigin>', async () => {
    for (const url of ['/static/surveys.js?v=1.449.2', '/static/1.449.2/surveys.js', '/static/exception-autocapture.js', '/static/lazy-recorder.js']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { origin: 'https://shop.example' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/javascript/);
      expect(res.headers['access-control-allow-origin']).toBe('https://shop.example');
      expect(res.body.length).toBeGreaterThan(1000);
    }
  });

  it('answers 404 for anything that is not one of the package\'s scripts', async () => {
    for (const url of ['/static/nope.js', '/static/surveys.js.map', '/static/..%2Fpackage.json', '/static/1.0.0/..%2F..%2Fpackage.json', '/static/module.d.ts']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'not_found' });
    }
  });
});
