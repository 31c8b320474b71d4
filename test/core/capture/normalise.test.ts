import { describe, expect, it } from 'vitest';
import { MAX_EVENT_BYTES, type NormaliseContext, normaliseEvents, requestToken } from '../../../src/core/capture/normalise.js';
import type { DecodedPayload, RawEvent } from '../../../src/core/capture/types.js';
import { failure, invalidPayload } from '../../helpers/api-error.js';

const NOW_US = Date.parse('2024-05-01T12:00:00Z') * 1000;
const CTX: NormaliseContext = { nowUs: NOW_US, sentAt: undefined, historicalMigration: false };
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const payload = (events: RawEvent[], envelopeToken?: string): DecodedPayload => ({
  events,
  envelopeToken,
  sentAt: undefined,
  historicalMigration: false,
});
const one = (event: RawEvent, ctx: Partial<NormaliseContext> = {}) => normaliseEvents(payload([event]), { ...CTX, ...ctx })[0]!;
const ev = (extra: RawEvent = {}): RawEvent => ({ event: 'e', distinct_id: 'd', ...extra });

const authError = (code: string, detail: string) => ({
  status: 401,
  body: { type: 'authentication_error', code, detail, attr: null },
});
const KEY_INVALID = 'Project API key invalid. You can find your project API key in PostHog project settings.';

describe('requestToken', () => {
  it('takes the envelope token, and then ignores the events’ ones (as PostHog does)', () => {
    expect(requestToken(payload([ev({ api_key: 'phc_other' })], 'phc_env'))).toBe('phc_env');
  });

  it("else each event's api_key, token, $token or properties.token, the first found", () => {
    expect(requestToken(payload([ev({ api_key: 'phc_a' })]))).toBe('phc_a');
    expect(requestToken(payload([ev({ token: 'phc_b' })]))).toBe('phc_b');
    expect(requestToken(payload([ev({ $token: 'phc_c' })]))).toBe('phc_c');
    expect(requestToken(payload([ev({ properties: { token: 'phc_d' } })]))).toBe('phc_d');
    expect(requestToken(payload([ev({ api_key: 'phc_a', properties: { token: 'phc_d' } })]))).toBe('phc_a');
  });

  it('events without a token are fine next to events with one; surrounding whitespace is trimmed', () => {
    expect(requestToken(payload([ev(), ev({ properties: { token: ' phc_x\n' } }), ev({ token: 'phc_x' })]))).toBe('phc_x');
  });

  it('no token anywhere: 401 missing_api_key (PostHog test_capture: batch without api_key)', () => {
    const missing = authError('missing_api_key', 'API key not provided. You can find your project API key in PostHog project settings.');
    expect(failure(() => requestToken(payload([ev(), ev()])))).toEqual(missing);
    expect(failure(() => requestToken(payload([ev({ properties: { token: 42 } })])))).toEqual(missing);
    expect(failure(() => requestToken(payload([ev({ api_key: null })])))).toEqual(missing);
  });

  it('events that disagree on the token: 401 invalid_api_key', () => {
    expect(failure(() => requestToken(payload([ev({ token: 'phc_1' }), ev({ properties: { token: 'phc_2' } })])))).toEqual(
      authError(
        'invalid_api_key',
        'Batch submitted with inconsistent api_key values: all events in one request must use the same project API key.',
      ),
    );
  });

  it('tokens of the wrong shape: 401 invalid_api_key with the reason', () => {
    const cases: [unknown, string][] = [
      [12345, 'it must be a string'],
      ['', 'it is empty'],
      ['  \n', 'it is empty'],
      ['x'.repeat(65), 'it is longer than 64 characters'],
      ['phc_🦀', 'it contains non-ASCII characters'],
      ['phc_a\0b', 'it contains a NUL character'],
      ['phx_personal', 'it is a personal API key, not a project API key'],
    ];
    for (const [token, reason] of cases) {
      expect(failure(() => requestToken(payload([ev({ api_key: token })])))).toEqual(
        authError('invalid_api_key', `${KEY_INVALID} (${reason})`),
      );
    }
    expect(failure(() => requestToken(payload([ev()], '')))).toEqual(authError('invalid_api_key', `${KEY_INVALID} (it is empty)`));
    expect(requestToken(payload([ev({ api_key: 'x'.repeat(64) })]))).toBe('x'.repeat(64));
  });
});

describe('normaliseEvents', () => {
  it('keeps what the client sent: uuid, event, properties (token included), extra keys ignored', () => {
    const raw = {
      event: 'signup',
      distinct_id: 'u1',
      uuid: '01900000-0000-7000-8000-000000000000',
      properties: { plan: 'pro', token: 'phc_x', $lib: 'posthog-node' },
      timestamp: '2024-05-01T10:00:00.000Z',
      type: 'capture',
      library: 'posthog-node',
      library_version: '4.2.0',
      context: { ip: '1.2.3.4' },
      messageId: 'm1',
    };
    expect(one(raw, { historicalMigration: true })).toEqual({
      uuid: '01900000-0000-7000-8000-000000000000',
      event: 'signup',
      distinctId: 'u1',
      properties: { plan: 'pro', token: 'phc_x', $lib: 'posthog-node' },
      timestampUs: Date.parse('2024-05-01T10:00:00Z') * 1000,
      historicalMigration: true,
    });
  });

  it('applies the request sent_at for clock skew', () => {
    const raw = ev({ timestamp: '2024-05-01T10:00:00Z' });
    expect(one(raw, { sentAt: '2024-05-01T10:00:05Z' }).timestampUs).toBe(NOW_US - 5_000_000);
  });

  describe('event name', () => {
    const detail = 'Invalid payload: All events must have the event name field "event"!';
    it('missing, null, empty or not a string: 400 invalid_payload', () => {
      for (const event of [undefined, null, '', 42, ['x']]) {
        expect(failure(() => one({ distinct_id: 'd', event }))).toEqual(invalidPayload(detail));
      }
    });

    it("/engage/'s default name fills a missing one only", () => {
      expect(one({ distinct_id: 'd', $set: { a: 1 } }, { defaultEventName: '$identify' }).event).toBe('$identify');
      expect(one({ distinct_id: 'd', event: '' }, { defaultEventName: '$identify' }).event).toBe('$identify');
      expect(one({ distinct_id: 'd', event: 'x' }, { defaultEventName: '$identify' }).event).toBe('x');
      expect(failure(() => one({ distinct_id: 'd', event: 7 }, { defaultEventName: '$identify' }))).toEqual(invalidPayload(detail));
    });
  });

  describe('distinct_id', () => {
    const id = (raw: RawEvent) => one({ event: 'e', ...raw }).distinctId;

    it('top level, else $distinct_id, else properties.distinct_id; null counts as absent', () => {
      expect(id({ distinct_id: 'top', $distinct_id: 'dollar', properties: { distinct_id: 'prop' } })).toBe('top');
      expect(id({ $distinct_id: 'dollar', properties: { distinct_id: 'prop' } })).toBe('dollar');
      expect(id({ properties: { distinct_id: 'prop' } })).toBe('prop');
      expect(id({ distinct_id: null, properties: { distinct_id: 'prop' } })).toBe('prop');
    });

    it('numbers and booleans are stringified; containers become JSON with sorted keys', () => {
      expect(id({ distinct_id: 23 })).toBe('23');
      expect(id({ distinct_id: 23.4 })).toBe('23.4');
      expect(id({ distinct_id: 0 })).toBe('0');
      expect(id({ distinct_id: false })).toBe('false');
      expect(id({ distinct_id: ['a', 'b'] })).toBe('["a","b"]');
      expect(id({ distinct_id: { string: 'a', number: 3 } })).toBe('{"number":3,"string":"a"}');
    });

    it('is cut to 200 characters (code points, not UTF-16 units)', () => {
      expect(id({ distinct_id: 'x'.repeat(250) })).toBe('x'.repeat(200));
      expect(id({ distinct_id: 'y'.repeat(200) })).toBe('y'.repeat(200));
      expect(id({ distinct_id: '🙂'.repeat(150) })).toBe('🙂'.repeat(150));
      expect(id({ distinct_id: '🙂'.repeat(250) })).toBe('🙂'.repeat(200));
    });

    it('NUL becomes U+FFFD; surrounding whitespace is kept', () => {
      expect(id({ distinct_id: 'a\0b' })).toBe('a\uFFFDb');
      expect(id({ distinct_id: '  hello  ' })).toBe('  hello  ');
    });

    it('missing: 400 "must have the event field"', () => {
      expect(failure(() => one({ event: 'e', properties: {} }))).toEqual(
        invalidPayload('Invalid payload: All events must have the event field "distinct_id"!'),
      );
    });

    it('null, empty or whitespace: 400 "should not be blank"', () => {
      const blank = invalidPayload('Invalid payload: Event field "distinct_id" should not be blank!');
      for (const raw of [{ distinct_id: null }, { distinct_id: '' }, { distinct_id: ' \t\n' }, { properties: { distinct_id: null } }]) {
        expect(failure(() => one({ event: 'e', ...raw }))).toEqual(blank);
      }
    });
  });

  describe('uuid', () => {
    it('is generated (UUIDv7) when absent, null or empty', () => {
      for (const raw of [ev(), ev({ uuid: null }), ev({ uuid: '' })]) expect(one(raw).uuid).toMatch(UUID_V7);
      const [a, b] = normaliseEvents(payload([ev(), ev()]), CTX);
      expect(a!.uuid < b!.uuid).toBe(true);
    });

    it('is put in canonical lowercase form', () => {
      const canonical = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
      for (const uuid of [
        '0190A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B',
        '0190a1b2c3d47e5f8a9b0c1d2e3f4a5b',
        '{0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b}',
        'urn:uuid:0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      ]) {
        expect(one(ev({ uuid })).uuid).toBe(canonical);
      }
    });

    it('anything else: 400 "is not a valid UUID" (PostHog test_capture)', () => {
      for (const uuid of ['invalid', '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5', 42, {}]) {
        expect(failure(() => one(ev({ uuid })))).toEqual(invalidPayload('Invalid payload: Event field "uuid" is not a valid UUID!'));
      }
    });
  });

  describe('properties', () => {
    it('default to {}; must otherwise be an object', () => {
      expect(one(ev()).properties).toEqual({});
      expect(one(ev({ properties: null })).properties).toEqual({});
      expect(failure(() => one(ev({ properties: ['a'] })))).toEqual(
        invalidPayload('Invalid payload: Event field "properties" must be a JSON object, received a list!'),
      );
      expect(failure(() => one(ev({ properties: 'a' })))).toEqual(
        invalidPayload('Invalid payload: Event field "properties" must be a JSON object, received a string!'),
      );
    });

    it('top-level $set / $set_once merge into properties.$set / $set_once, top-level keys winning', () => {
      const raw = ev({
        properties: { a: 1, $set: { email: 'old@x', name: 'Ann' }, $set_once: 'not an object' },
        $set: { email: 'new@x' },
        $set_once: { first_seen: '2024-05-01' },
      });
      const before = JSON.stringify(raw);
      expect(one(raw).properties).toEqual({
        a: 1,
        $set: { email: 'new@x', name: 'Ann' },
        $set_once: { first_seen: '2024-05-01' },
      });
      expect(JSON.stringify(raw)).toBe(before); // the input is not mutated
      expect(one(ev({ $set: null, properties: { $set: { a: 1 } } })).properties).toEqual({ $set: { a: 1 } });
    });

    it('a top-level $set that is not an object: 400', () => {
      expect(failure(() => one(ev({ $set: 'x' })))).toEqual(
        invalidPayload('Invalid payload: Event field "$set" must be a JSON object, received a string!'),
      );
    });
  });

  it('an event over 1 MB of JSON: 400 "maximum event size exceeded"', () => {
    const padding = (bytes: number) => 'x'.repeat(bytes - JSON.stringify(ev({ properties: { p: '' } })).length);
    expect(one(ev({ properties: { p: padding(MAX_EVENT_BYTES) } })).event).toBe('e');
    const big = ev({ properties: { p: padding(MAX_EVENT_BYTES + 1) } });
    expect(failure(() => one(big))).toEqual(
      invalidPayload(`maximum event size exceeded: this event is ${MAX_EVENT_BYTES + 1} bytes of JSON, the limit is ${MAX_EVENT_BYTES}.`),
    );
  });

  it('one bad event rejects the whole request', () => {
    expect(failure(() => normaliseEvents(payload([ev(), ev(), ev({ uuid: 'invalid' })]), CTX))).toMatchObject({ status: 400 });
    expect(failure(() => normaliseEvents(payload([ev(), 'x' as unknown as RawEvent]), CTX))).toEqual(
      invalidPayload('Invalid payload: every event must be a JSON object.'),
    );
  });
});

describe('event size with a known body size', () => {
  it('still refuses an oversized event when the decoder reports a large body', () => {
    const big = { event: 'e', distinct_id: 'd', properties: { blob: 'x'.repeat(1_100_000) } };
    const payload = { events: [big], envelopeToken: 'phc_x', sentAt: undefined, historicalMigration: false, decodedBytes: 1_100_100 };
    expect(() => normaliseEvents(payload, { nowUs: Date.now() * 1000, sentAt: undefined, historicalMigration: false })).toThrow(
      /maximum event size exceeded/,
    );
  });
});
