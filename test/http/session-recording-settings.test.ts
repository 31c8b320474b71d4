// Turning session recording on (issue 33, item 1): the project's session recording settings as
// PostHog's Team serializer takes them (defaults, 400 bodies), and the `sessionRecording` part of
// the remote config, /flags/ and /decide/ in PostHog's shape (posthog/models/remote_config.py and
// its test_remote_config.py): `false` when opted out, the keys posthog-js reads when opted in.
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';

/** PostHog's test_remote_config snapshot of an opted-in project with default settings (domains stripped). */
const OPTED_IN_DEFAULT = {
  endpoint: '/s/',
  consoleLogRecordingEnabled: true,
  recorderVersion: 'v2',
  sampleRate: null,
  minimumDurationMilliseconds: null,
  linkedFlag: null,
  networkPayloadCapture: null,
  masking: null,
  urlTriggers: [],
  urlBlocklist: [],
  eventTriggers: [],
  triggerMatchType: null,
  scriptConfig: null,
};

describe.each(META_STORES)('session recording settings on %s', (store) => {
  let t: TestApp;
  let owner: Credentials;
  let bob: Credentials;

  beforeAll(async () => {
    t = await createTestApp(store);
    owner = await t.bootstrap('replay@example.com');
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
  });
  afterAll(() => t.close());

  const newProject = async (name: string) => (await t.request(owner.key, { method: 'POST', url: '/api/projects/', payload: { name } })).json();
  const patch = (id: number, payload: object, key = owner.key) => t.request(key, { method: 'PATCH', url: `/api/projects/${id}/`, payload });
  const config = async (token: string) => (await t.app.inject({ method: 'GET', url: `/array/${token}/config` })).json();
  const post = async (url: string, token: string) => {
    const res = await t.app.inject({ method: 'POST', url, payload: { token, distinct_id: 'd1' } });
    expect(res.statusCode, url).toBe(200);
    return res.json();
  };

  it("shows PostHog's defaults: recording off, console logs and performance on, no masking or triggers", async () => {
    const project = await newProject('defaults');
    expect(project).toMatchObject({
      session_recording_opt_in: false,
      session_recording_sample_rate: null,
      session_recording_minimum_duration_milliseconds: null,
      session_recording_linked_flag: null,
      session_recording_network_payload_capture_config: null,
      session_recording_masking_config: null,
      session_recording_url_trigger_config: [],
      session_recording_url_blocklist_config: [],
      session_recording_event_trigger_config: [],
      session_recording_trigger_match_type_config: null,
      session_replay_config: null,
      capture_console_log_opt_in: true,
      capture_performance_opt_in: true,
    });
  });

  it('answers sessionRecording: false in the config, /flags/ and /decide/ while opted out', async () => {
    const project = await newProject('opted out');
    expect((await config(project.api_token)).sessionRecording).toBe(false);
    expect((await post('/flags/?v=2&config=true', project.api_token)).sessionRecording).toBe(false);
    expect((await post('/decide/?v=4', project.api_token)).sessionRecording).toBe(false);
    // Without config=true, /flags/ carries no config at all.
    expect(await post('/flags/?v=2', project.api_token)).not.toHaveProperty('sessionRecording');
  });

  it("answers PostHog's keys, in its order, in the config, config.js, /flags/ and /decide/ once opted in", async () => {
    const project = await newProject('opted in');
    expect((await patch(project.id, { session_recording_opt_in: true })).statusCode).toBe(200);
    const json = await config(project.api_token);
    expect(json.sessionRecording).toEqual(OPTED_IN_DEFAULT);
    expect(Object.keys(json.sessionRecording)).toEqual(Object.keys(OPTED_IN_DEFAULT));

    const script = await t.app.inject({ method: 'GET', url: `/array/${project.api_token}/config.js` });
    const window: Record<string, any> = {};
    vm.runInNewContext(script.body, { window });
    expect(window._POSTHOG_REMOTE_CONFIG[project.api_token].config.sessionRecording).toEqual(OPTED_IN_DEFAULT);

    expect((await post('/flags/?v=2&config=true', project.api_token)).sessionRecording).toEqual(OPTED_IN_DEFAULT);
    expect((await post('/flags/', project.api_token)).sessionRecording).toEqual(OPTED_IN_DEFAULT);
    for (const version of ['1', '2', '3', '4']) {
      expect((await post(`/decide/?v=${version}`, project.api_token)).sessionRecording, version).toEqual(OPTED_IN_DEFAULT);
    }
  });

  it('carries the sample rate, minimum duration, console logs, network capture, masking, triggers and canvas settings', async () => {
    const project = await newProject('tuned');
    const res = await patch(project.id, {
      session_recording_opt_in: true,
      session_recording_sample_rate: 0.5,
      session_recording_minimum_duration_milliseconds: 2000,
      capture_console_log_opt_in: false,
      session_recording_network_payload_capture_config: { recordHeaders: true, recordBody: false },
      session_recording_masking_config: { maskAllInputs: true, maskTextSelector: '.secret' },
      session_recording_url_trigger_config: [{ url: '/checkout', matching: 'regex' }],
      session_recording_url_blocklist_config: [{ url: '/admin', matching: 'regex' }],
      session_recording_event_trigger_config: ['purchase'],
      session_recording_trigger_match_type_config: 'any',
      session_recording_linked_flag: { id: 1, key: 'beta' },
      session_replay_config: { record_canvas: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ session_recording_sample_rate: '0.50', session_recording_linked_flag: { id: 1, key: 'beta' } });
    expect((await config(project.api_token)).sessionRecording).toEqual({
      endpoint: '/s/',
      consoleLogRecordingEnabled: false,
      recorderVersion: 'v2',
      sampleRate: '0.50',
      minimumDurationMilliseconds: 2000,
      // Stored, not acted on (issue 33).
      linkedFlag: null,
      networkPayloadCapture: { recordHeaders: true, recordBody: false },
      masking: { maskAllInputs: true, maskTextSelector: '.secret' },
      urlTriggers: [{ url: '/checkout', matching: 'regex' }],
      urlBlocklist: [{ url: '/admin', matching: 'regex' }],
      eventTriggers: ['purchase'],
      triggerMatchType: 'any',
      scriptConfig: null,
      recordCanvas: true,
      canvasFps: 3,
      canvasQuality: '0.4',
    });
  });

  it("sends PostHog's sample rates: 1.00 as null (no sampling), others as two-decimal strings", async () => {
    const project = await newProject('sampling');
    await patch(project.id, { session_recording_opt_in: true });
    // PostHog's test_session_recording_sample_rate cases.
    for (const [value, expected] of [['1.00', null], ['0.95', '0.95'], ['0.50', '0.50'], ['0.00', '0.00'], [null, null]] as const) {
      expect((await patch(project.id, { session_recording_sample_rate: value })).statusCode).toBe(200);
      expect((await config(project.api_token)).sessionRecording.sampleRate, String(value)).toBe(expected);
    }
    // A minimum duration of 0 is sent as null, as PostHog's `or None`.
    await patch(project.id, { session_recording_minimum_duration_milliseconds: 0 });
    expect((await config(project.api_token)).sessionRecording.minimumDurationMilliseconds).toBeNull();
  });

  it("refuses shapes PostHog's serializer refuses, with its 400 bodies, and changes nothing", async () => {
    const project = await newProject('refusals');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ session_recording_network_payload_capture_config: { recordEverything: true } }, "Must provide a dictionary with only 'recordHeaders' and/or 'recordBody' keys."],
      [{ session_recording_network_payload_capture_config: ['recordBody'] }, 'Must provide a dictionary or None.'],
      [{ session_recording_masking_config: { maskEverything: true } }, 'Must provide a dictionary with only known keys: maskAllInputs, maskTextSelector, blockSelector.'],
      [{ session_recording_masking_config: { maskAllInputs: 'yes' } }, 'maskAllInputs must be a boolean.'],
      [{ session_recording_masking_config: { blockSelector: 1 } }, 'blockSelector must be a string.'],
      [{ session_recording_linked_flag: { key: 'beta' } }, "Must provide a dictionary with only 'id' and 'key' keys. _or_ only 'id', 'key', and 'variant' keys."],
      [{ session_recording_trigger_match_type_config: 'some' }, "Must provide a valid trigger match type. Only 'all' or 'any' or None are allowed."],
      [{ session_replay_config: { record_video: true } }, 'Must provide a dictionary with only known keys. One or more of record_canvas, ai_config.'],
    ];
    for (const [payload, detail] of cases) {
      const res = await patch(project.id, payload);
      const attr = Object.keys(payload)[0];
      expect(res.statusCode, attr).toBe(400);
      expect(res.json(), attr).toEqual({ type: 'validation_error', code: 'invalid', detail, attr });
    }
    const after = (await t.request(owner.key, { method: 'GET', url: `/api/projects/${project.id}/` })).json();
    expect(after.session_recording_masking_config).toBeNull();
    expect(after.session_recording_network_payload_capture_config).toBeNull();
  });

  it("records only on the project's recording domains (Origin or Referer, * wildcards) and in mobile SDKs, never sending the list", async () => {
    const project = await newProject('domains');
    await patch(project.id, { session_recording_opt_in: true, recording_domains: ['https://*.example.com', 'https://app.shop.io'] });
    const cases: Array<[Record<string, string>, boolean]> = [
      [{ origin: 'https://www.example.com' }, true],
      [{ origin: 'https://deep.sub.example.com' }, true],
      [{ origin: 'https://app.shop.io:8443' }, true],
      [{ referer: 'https://APP.SHOP.IO/checkout?x=1' }, true],
      [{ origin: 'https://example.org' }, false],
      [{ origin: 'https://shop.io' }, false],
      [{}, false],
      [{ 'user-agent': 'posthog-ios/3.1.0' }, true],
      [{ 'user-agent': 'posthog-react-native/4.0.0', origin: 'https://other.net' }, true],
    ];
    for (const [headers, records] of cases) {
      const expected = records ? OPTED_IN_DEFAULT : false;
      const label = JSON.stringify(headers);
      const json = (await t.app.inject({ method: 'GET', url: `/array/${project.api_token}/config`, headers })).json();
      expect(json.sessionRecording, label).toEqual(expected);
      const flags = await t.app.inject({ method: 'POST', url: '/flags/?v=2&config=true', headers, payload: { token: project.api_token, distinct_id: 'd1' } });
      expect(flags.json().sessionRecording, label).toEqual(expected);
      const decide = await t.app.inject({ method: 'POST', url: '/decide/?v=4', headers, payload: { token: project.api_token, distinct_id: 'd1' } });
      expect(decide.json().sessionRecording, label).toEqual(expected);
    }
    // An empty list records everywhere.
    await patch(project.id, { recording_domains: [] });
    expect((await config(project.api_token)).sessionRecording).toEqual(OPTED_IN_DEFAULT);
  });

  it('another organization can neither read nor change it', async () => {
    const project = await newProject('isolated');
    expect((await patch(project.id, { session_recording_opt_in: true })).statusCode).toBe(200);
    expect((await patch(project.id, { session_recording_opt_in: false }, bob.key)).statusCode).toBe(404);
    expect((await t.request(bob.key, { method: 'GET', url: `/api/projects/${project.id}/` })).statusCode).toBe(404);
    expect((await config(project.api_token)).sessionRecording).toEqual(OPTED_IN_DEFAULT);
  });
});
