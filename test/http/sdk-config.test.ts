// The endpoints PostHog's SDKs call at start-up: the remote config (JSON and script), /flags/ and
// /decide/ in every version, posthog-node's flag definitions and /s/, in PostHog's shapes, with
// CORS on every answer; and the real posthog-node SDK asking for flags against a listening server.
import type { AddressInfo } from 'node:net';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';

const ORIGIN = 'https://shop.example.com';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A default project's config, key for key in PostHog's order. */
const defaultConfig = (token: string) => ({
  token,
  supportedCompression: ['gzip', 'gzip-js'],
  hasFeatureFlags: false,
  captureDeadClicks: false,
  capturePerformance: { network_timing: true, web_vitals: false, web_vitals_allowed_metrics: null },
  autocapture_opt_out: false,
  autocaptureExceptions: false,
  analytics: { endpoint: '/i/v0/e/' },
  elementsChainAsString: true,
  errorTracking: { autocaptureExceptions: false, suppressionRules: [] },
  logs: { captureConsoleLogs: false },
  sessionRecording: false,
  heatmaps: false,
  conversations: false,
  surveys: false,
  productTours: false,
  defaultIdentifiedOnly: true,
  siteApps: [],
});

function expectCors(res: { headers: Record<string, unknown> }) {
  expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
  expect(res.headers['access-control-allow-credentials']).toBe('true');
}

describe.each(META_STORES)('SDK start-up endpoints on %s', (store) => {
  let t: TestApp;
  let owner: Credentials;

  beforeAll(async () => {
    t = await createTestApp(store);
    owner = await t.bootstrap('sdk-config@example.com');
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { origin: ORIGIN, ...headers } });
  const post = (url: string, payload: string | Buffer | object, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    t.app.inject({ method: 'POST', url, payload: typeof payload === 'object' && !Buffer.isBuffer(payload) ? JSON.stringify(payload) : payload, headers: { origin: ORIGIN, ...headers } });

  describe('remote config', () => {
    it("answers a default project's config as JSON in PostHog's shape, cacheable for five minutes", async () => {
      const res = await get(`/array/${owner.projectApiToken}/config`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json(; charset=utf-8)?$/);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expect(res.headers.vary).toBe('Origin, Referer');
      expectCors(res);
      const expected = defaultConfig(owner.projectApiToken);
      expect(res.json()).toEqual(expected);
      expect(Object.keys(res.json())).toEqual(Object.keys(expected));
    });

    it('answers the same config as a script that posthog-js loads into window._POSTHOG_REMOTE_CONFIG', async () => {
      const res = await get(`/array/${owner.projectApiToken}/config.js`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/javascript');
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expectCors(res);
      const window: Record<string, any> = {};
      vm.runInNewContext(res.body, { window });
      const { siteApps, ...config } = defaultConfig(owner.projectApiToken);
      expect(window._POSTHOG_REMOTE_CONFIG[owner.projectApiToken]).toEqual({ config, siteApps });
      expect(res.body.startsWith(`(function() {\n  window._POSTHOG_REMOTE_CONFIG = window._POSTHOG_REMOTE_CONFIG || {};\n  window._POSTHOG_REMOTE_CONFIG['${owner.projectApiToken}'] = {\n    config: {`)).toBe(true);
    });

    it('follows the project settings at once (session recording too); features whose data Hoglet does not keep stay off', async () => {
      const project = (await t.request(owner.key, { method: 'POST', url: '/api/projects/', payload: { name: 'settings' } })).json();
      const patched = await t.request(owner.key, {
        method: 'PATCH',
        url: `/api/projects/${project.id}/`,
        payload: {
          autocapture_opt_out: true,
          capture_performance_opt_in: false,
          autocapture_web_vitals_opt_in: true,
          autocapture_web_vitals_allowed_metrics: ['LCP'],
          autocapture_exceptions_opt_in: true,
          session_recording_opt_in: true,
          heatmaps_opt_in: true,
          surveys_opt_in: true,
          capture_console_log_opt_in: true,
          inject_web_apps: true,
        },
      });
      expect(patched.statusCode).toBe(200);
      const config = (await get(`/array/${project.api_token}/config`)).json();
      expect(config).toEqual({
        ...defaultConfig(project.api_token),
        autocapture_opt_out: true,
        capturePerformance: { network_timing: false, web_vitals: true, web_vitals_allowed_metrics: ['LCP'] },
        autocaptureExceptions: true,
        errorTracking: { autocaptureExceptions: true, suppressionRules: [] },
        sessionRecording: expect.objectContaining({ endpoint: '/s/', consoleLogRecordingEnabled: true, recorderVersion: 'v2' }),
      });
      await t.request(owner.key, { method: 'PATCH', url: `/api/projects/${project.id}/`, payload: { capture_performance_opt_in: false, autocapture_web_vitals_opt_in: false } });
      expect((await get(`/array/${project.api_token}/config`)).json().capturePerformance).toBe(false);
    });

    it('answers 404 for an unknown or revoked token and 400 for a malformed one, in PostHog error bodies with CORS', async () => {
      const unknown = await get('/array/phc_nobodyhasthistoken/config');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
      expectCors(unknown);
      const script = await get('/array/phc_nobodyhasthistoken/config.js');
      expect(script.statusCode).toBe(404);
      expectCors(script);

      const malformed = await get(`/array/${encodeURIComponent("phc_x'];alert(1);//")}/config.js`);
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toEqual({ type: 'validation_error', code: 'invalid', detail: 'Invalid token', attr: null });
      expectCors(malformed);
      // An over-long token is refused the same way, not by the router with a 414.
      const overlong = await get(`/array/phc_${'x'.repeat(300)}/config`);
      expect(overlong.statusCode).toBe(400);
      expect(overlong.json()).toMatchObject({ type: 'validation_error', detail: 'Invalid token' });
      expectCors(overlong);

      const project = (await t.request(owner.key, { method: 'POST', url: '/api/projects/', payload: { name: 'revoked' } })).json();
      expect((await get(`/array/${project.api_token}/config`)).statusCode).toBe(200);
      await t.request(owner.key, { method: 'PATCH', url: `/api/projects/${project.id}/reset_token/` });
      expect((await get(`/array/${project.api_token}/config`)).statusCode).toBe(404);
    });

    it('answers CORS preflights on the config, flags, decide and recordings paths', async () => {
      for (const url of [`/array/${owner.projectApiToken}/config`, `/array/${owner.projectApiToken}/config.js`, '/flags/?v=2', '/decide/?v=4', '/s/']) {
        const res = await t.app.inject({
          method: 'OPTIONS',
          url,
          headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-custom' },
        });
        expect(res.statusCode, url).toBe(200);
        expectCors(res);
        expect(res.headers['access-control-allow-methods']).toContain('POST');
        expect(res.headers['access-control-allow-headers']).toBe('content-type,x-custom');
      }
    });
  });

  describe('/flags/', () => {
    const body = () => ({ token: owner.projectApiToken, distinct_id: 'visitor-1', groups: {}, person_properties: { $lib: 'web' } });

    it('answers v=2 with no flags in the current shape', async () => {
      const res = await post('/flags/?v=2', body());
      expect(res.statusCode).toBe(200);
      expectCors(res);
      const answer = res.json();
      expect(answer).toEqual({ errorsWhileComputingFlags: false, flags: {}, requestId: expect.stringMatching(UUID), evaluatedAt: expect.any(Number) });
      expect(Math.abs(answer.evaluatedAt - Date.now())).toBeLessThan(60_000);
    });

    it('flattens the config in with config=true, and by default when neither v nor config is given', async () => {
      for (const url of ['/flags/?v=2&config=true', '/flags/']) {
        const answer = (await post(url, body())).json();
        const { requestId, evaluatedAt, ...rest } = answer;
        expect(rest, url).toEqual({ errorsWhileComputingFlags: false, flags: {}, ...defaultConfig(owner.projectApiToken) });
        expect(requestId).toMatch(UUID);
      }
    });

    it('answers the legacy v1 shape when config is asked for without v', async () => {
      const { requestId, evaluatedAt, ...rest } = (await post('/flags/?config=false', body())).json();
      expect(rest).toEqual({ errorsWhileComputingFlags: false, featureFlags: {}, featureFlagPayloads: {} });
      expect(typeof evaluatedAt).toBe('number');
    });

    it('reads gzip bodies sent as text/plain, and base64 form bodies', async () => {
      const gzip = await post('/flags/?v=2', gzipSync(JSON.stringify(body())), { 'content-type': 'text/plain' });
      expect(gzip.statusCode).toBe(200);
      expect(gzip.json().flags).toEqual({});
      const form = `data=${encodeURIComponent(Buffer.from(JSON.stringify(body())).toString('base64'))}`;
      const base64 = await post('/flags/?v=2&compression=base64', form, { 'content-type': 'application/x-www-form-urlencoded' });
      expect(base64.statusCode).toBe(200);
    });

    it('refuses a missing or unknown token with 401 and a missing distinct_id with 400, with CORS', async () => {
      const missing = await post('/flags/?v=2', { distinct_id: 'x' });
      expect(missing.statusCode).toBe(401);
      expect(missing.json()).toMatchObject({ type: 'authentication_error', code: 'missing_api_key' });
      expectCors(missing);
      const unknown = await post('/flags/?v=2', { token: 'phc_unknown', distinct_id: 'x' });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
      expectCors(unknown);
      const noDistinctId = await post('/flags/?v=2', { token: owner.projectApiToken });
      expect(noDistinctId.statusCode).toBe(400);
      expect(noDistinctId.json()).toMatchObject({ type: 'validation_error', attr: 'distinct_id' });
      expectCors(noDistinctId);
      const garbage = await post('/flags/?v=2', '{not json', { 'content-type': 'application/json' });
      expect(garbage.statusCode).toBe(400);
      expectCors(garbage);
    });

    it('answers GET with the minimal response and HEAD with 200', async () => {
      const res = await get('/flags/?v=2');
      expect(res.statusCode).toBe(200);
      const { requestId, evaluatedAt, ...rest } = res.json();
      expect(rest).toEqual({
        errorsWhileComputingFlags: false,
        flags: {},
        supportedCompression: ['gzip', 'gzip-js'],
        config: { enable_collect_everything: true },
        toolbarParams: {},
        isAuthenticated: false,
        sessionRecording: false,
      });
      expect((await t.app.inject({ method: 'HEAD', url: '/flags/' })).statusCode).toBe(200);
    });
  });

  describe('/decide/', () => {
    const decideExtras = { config: { enable_collect_everything: true }, toolbarParams: {}, isAuthenticated: false };

    it('answers v=1..4 in their legacy shapes, always with the config', async () => {
      const cases: [string, object][] = [
        ['/decide/', { featureFlags: [] }],
        ['/decide/?v=1', { featureFlags: [] }],
        ['/decide/?v=2', { featureFlags: {} }],
        ['/decide/?v=3', { errorsWhileComputingFlags: false, featureFlags: {}, featureFlagPayloads: {} }],
        ['/decide/?v=4', { errorsWhileComputingFlags: false, flags: {} }],
      ];
      for (const [url, flagPart] of cases) {
        const res = await post(url, { token: owner.projectApiToken, distinct_id: 'd' });
        expect(res.statusCode, url).toBe(200);
        expectCors(res);
        const { requestId, evaluatedAt, ...rest } = res.json();
        expect(rest, url).toEqual({ ...flagPart, ...defaultConfig(owner.projectApiToken), ...decideExtras });
        expect(requestId).toMatch(UUID);
      }
    });

    it('reads the data=<base64> form bodies older posthog-js sent', async () => {
      const data = Buffer.from(JSON.stringify({ token: owner.projectApiToken, distinct_id: 'old-sdk' })).toString('base64');
      const res = await post('/decide/?v=3&compression=base64', `data=${encodeURIComponent(data)}`, { 'content-type': 'application/x-www-form-urlencoded' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ featureFlags: {}, featureFlagPayloads: {}, autocapture_opt_out: false });
      const unknown = await post('/decide/?v=3', { token: 'phc_unknown', distinct_id: 'x' });
      expect(unknown.statusCode).toBe(401);
      expectCors(unknown);
    });
  });

  describe('flag definitions for posthog-node', () => {
    const empty = { flags: [], group_type_mapping: {}, cohorts: {} };

    it('answers no flags to a key that may read flags of the project, on both paths', async () => {
      for (const path of ['/flags/definitions', '/api/feature_flag/local_evaluation']) {
        const res = await t.request(owner.key, { method: 'GET', url: `${path}?token=${owner.projectApiToken}&send_cohorts` });
        expect(res.statusCode, path).toBe(200);
        expect(res.json()).toEqual(empty);
      }
      expect((await t.request(owner.key, { method: 'GET', url: '/flags/definitions' })).json()).toEqual(empty);
    });

    it("maps the project's group types as capture numbered them", async () => {
      const project = (await t.request(owner.key, { method: 'POST', url: '/api/projects/', payload: { name: 'with groups' } })).json();
      const batch = ['company', 'team'].map((type, i) => ({ event: '$groupidentify', distinct_id: 'admin', timestamp: `2024-01-0${i + 1}T00:00:00Z`, properties: { $group_type: type, $group_key: 'k', $group_set: {} } }));
      expect((await t.request(null, { method: 'POST', url: '/batch/', payload: { api_key: project.api_token, batch } })).statusCode).toBe(200);
      const res = await t.request(owner.key, { method: 'GET', url: `/flags/definitions?token=${project.api_token}` });
      expect(res.json()).toEqual({ flags: [], group_type_mapping: { 0: 'company', 1: 'team' }, cohorts: {} });
    });

    it('refuses no key, a key without feature_flag:read, an unknown token and a project the key cannot see', async () => {
      const url = `/flags/definitions?token=${owner.projectApiToken}`;
      expect((await t.request(null, { method: 'GET', url })).statusCode).toBe(401);
      const narrow = await t.key(owner.email, ['insight:read']);
      const denied = await t.request(narrow, { method: 'GET', url });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().detail).toBe("API key missing required scope 'feature_flag:read'");
      expect((await t.request(await t.key(owner.email, ['feature_flag:read']), { method: 'GET', url })).statusCode).toBe(200);
      expect((await t.request(owner.key, { method: 'GET', url: '/flags/definitions?token=phc_unknown' })).statusCode).toBe(401);
      const stranger = await t.bootstrap('stranger@example.com');
      const hidden = await t.request(stranger.key, { method: 'GET', url });
      expect(hidden.statusCode).toBe(404);
    });
  });

  describe('/s/ (session recordings)', () => {
    it('stores snapshots with exactly 200 {"status": 1} (test/http/replay-ingest.test.ts reads them back)', async () => {
      const snapshot = { api_key: owner.projectApiToken, batch: [{ event: '$snapshot', properties: { $snapshot_data: [{ type: 2, timestamp: 1 }], $session_id: 's-1', distinct_id: 'd' } }] };
      const res = await post('/s/?compression=gzip-js', gzipSync(JSON.stringify(snapshot)), { 'content-type': 'text/plain' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 1 });
      expectCors(res);
      // A GET without data holds no snapshot: PostHog's 400.
      expect((await get('/s/')).statusCode).toBe(400);
    });
  });

  it('documents the endpoints in the OpenAPI document as open to anyone holding the capture token', async () => {
    const paths = (await t.app.inject({ method: 'GET', url: '/api/schema/' })).json().paths;
    for (const path of ['/array/{token}/config', '/array/{token}/config.js', '/flags', '/decide', '/s']) {
      const operation = paths[path]?.get;
      expect(operation, path).toBeDefined();
      expect(operation.security, path).toEqual([]);
    }
    expect(paths['/flags'].post.security).toEqual([]);
    expect(paths['/flags/definitions'].get.security).toBeUndefined();
  });
});

describe('posthog-node against a listening Hoglet', () => {
  let t: TestApp;
  let owner: Credentials;
  let host: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    owner = await t.bootstrap('sdk-flags@example.com');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    host = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  it('remote evaluation: getAllFlags and isFeatureEnabled answer empty, with no error', async () => {
    const client = new PostHog(owner.projectApiToken, { host, flushAt: 1, flushInterval: 0, fetchRetryCount: 0 });
    const errors: unknown[] = [];
    client.on('error', (error) => errors.push(error));
    expect(await client.getAllFlags('visitor-1')).toEqual({});
    expect(await client.isFeatureEnabled('new-checkout', 'visitor-1')).toBeUndefined();
    expect(await client.getFeatureFlag('new-checkout', 'visitor-1')).toBeUndefined();
    const both = await client.getAllFlagsAndPayloads('visitor-1');
    expect(both).toEqual({ featureFlags: {}, featureFlagPayloads: {} });
    await client.shutdown();
    expect(errors).toEqual([]);
  });

  it('local evaluation with a personal API key loads the (empty) definitions without an error', async () => {
    const client = new PostHog(owner.projectApiToken, { host, personalApiKey: owner.key, flushAt: 1, flushInterval: 0, fetchRetryCount: 0 });
    const errors: unknown[] = [];
    client.on('error', (error) => errors.push(error));
    // Emitted only after a 200 carrying `flags`; the poller started with the client.
    const loaded = new Promise<number>((resolve) => client.on('localEvaluationFlagsLoaded', resolve));
    expect(await loaded).toBe(0);
    expect(await client.getAllFlags('visitor-1', { onlyEvaluateLocally: true })).toEqual({});
    expect(await client.isFeatureEnabled('new-checkout', 'visitor-1', { onlyEvaluateLocally: true })).toBeUndefined();
    await client.shutdown();
    expect(errors).toEqual([]);
  });
});
