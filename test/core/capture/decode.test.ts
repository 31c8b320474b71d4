import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import {
  type CaptureRequestInput,
  decodeCaptureRequest,
  lz64DecodedLength,
  MAX_DECODED_BYTES,
} from '../../../src/core/capture/decode.js';
import { normaliseEvents, requestToken } from '../../../src/core/capture/normalise.js';
import { failure, invalidPayload } from '../../helpers/api-error.js';

const EVENT = { event: 'signup', distinct_id: 'u1', properties: { token: 'phc_x', plan: 'pro é' } };
const JSON_BODY = JSON.stringify([EVENT]);
const b64 = (text: string | Buffer): string => Buffer.from(text).toString('base64');

function req(overrides: Partial<CaptureRequestInput>): CaptureRequestInput {
  return { method: 'POST', body: undefined, contentType: 'application/json', contentEncoding: undefined, query: {}, ...overrides };
}
const post = (body: string | Buffer, overrides: Partial<CaptureRequestInput> = {}) =>
  decodeCaptureRequest(req({ body: Buffer.from(body), ...overrides }));
const form = (body: string, overrides: Partial<CaptureRequestInput> = {}) =>
  post(body, { contentType: 'application/x-www-form-urlencoded', ...overrides });

const NO_DATA = {
  status: 400,
  body: {
    type: 'validation_error',
    code: 'no_data',
    detail: 'No data found. Make sure to use a POST request when sending the payload in the body of the request.',
    attr: null,
  },
};
const tooLarge = (limit: number) => ({
  status: 413,
  body: { type: 'invalid_request', code: 'request_too_large', detail: `Request body is larger than ${limit} bytes.`, attr: null },
});

describe('payload shapes', () => {
  it('a single event object', async () => {
    expect(await post(JSON.stringify(EVENT))).toEqual({
      events: [EVENT],
      envelopeToken: undefined,
      sentAt: undefined,
      historicalMigration: false,
      decodedBytes: Buffer.byteLength(JSON.stringify(EVENT)),
    });
  });

  it('an array of events (posthog-js)', async () => {
    expect((await post(JSON.stringify([EVENT, EVENT]))).events).toEqual([EVENT, EVENT]);
  });

  it('a {batch} envelope with api_key, sent_at and historical_migration (posthog-node, posthog-python)', async () => {
    const body = { api_key: 'phc_env', batch: [EVENT], sent_at: '2024-05-01T10:00:01Z', historical_migration: true };
    expect(await post(JSON.stringify(body))).toEqual({
      events: [EVENT],
      envelopeToken: 'phc_env',
      sentAt: '2024-05-01T10:00:01Z',
      historicalMigration: true,
      decodedBytes: Buffer.byteLength(JSON.stringify(body)),
    });
  });

  it('`token` is an alias of api_key; an envelope without one leaves the token to the events', async () => {
    expect((await post(JSON.stringify({ token: 'phc_t', batch: [EVENT] }))).envelopeToken).toBe('phc_t');
    expect(await post(JSON.stringify({ batch: [EVENT], historical_migration: 'yes' }))).toMatchObject({
      envelopeToken: undefined,
      historicalMigration: false,
    });
  });

  it('the `_` query parameter (ms) is sent_at when the envelope has none', async () => {
    expect((await post(JSON_BODY, { query: { _: '1714557601000' } })).sentAt).toBe(1714557601000);
    expect((await post(JSON_BODY, { query: { _: ['1714557601000', '1'] } })).sentAt).toBe(1714557601000);
    expect((await post(JSON_BODY, { query: { _: 'soon' } })).sentAt).toBeUndefined();
    const envelope = JSON.stringify({ batch: [EVENT], sent_at: '2024-05-01T10:00:01Z' });
    expect((await post(envelope, { query: { _: '1714557601000' } })).sentAt).toBe('2024-05-01T10:00:01Z');
    expect((await post(JSON.stringify({ batch: [EVENT] }), { query: { _: '1714557601000' } })).sentAt).toBe(1714557601000);
  });
});

describe('encodings', () => {
  const expected = [EVENT];
  const gz = gzipSync(Buffer.from(JSON_BODY));

  it('gzip named by Content-Encoding', async () => {
    expect((await post(gz, { contentEncoding: 'gzip' })).events).toEqual(expected);
  });

  it('gzip named by ?compression=gzip and ?compression=gzip-js', async () => {
    expect((await post(gz, { query: { compression: 'gzip' } })).events).toEqual(expected);
    expect((await post(gz, { query: { compression: 'gzip-js' }, contentType: 'text/plain' })).events).toEqual(expected);
  });

  it('gzip found by its magic bytes when nothing names it (posthog-js sometimes drops the parameter)', async () => {
    expect((await post(gz, { contentType: 'text/plain' })).events).toEqual(expected);
    expect((await post(gz, { contentType: undefined })).events).toEqual(expected);
  });

  it('the gzip hint is what makes a body be gunzipped: a corrupt one without magic bytes fails', async () => {
    const corrupt = Buffer.from('xx' + 'not gzip at all');
    const detail = 'Malformed request data: could not decompress gzip body (incorrect header check)';
    expect(await failure(() => post(corrupt, { contentEncoding: 'gzip' }))).toEqual(invalidPayload(detail));
    expect(await failure(() => post(corrupt, { query: { compression: 'gzip-js' } }))).toEqual(invalidPayload(detail));
  });

  it('base64 named by ?compression=base64 or b64, or found by its look', async () => {
    expect((await post(b64(JSON_BODY), { query: { compression: 'base64' } })).events).toEqual(expected);
    expect((await post(b64(JSON_BODY), { query: { compression: 'b64' } })).events).toEqual(expected);
    expect((await post(b64(JSON_BODY), { contentType: 'text/plain' })).events).toEqual(expected);
  });

  it('base64 around gzip', async () => {
    expect((await post(b64(gz), { query: { compression: 'base64' } })).events).toEqual(expected);
    expect((await form(`data=${encodeURIComponent(b64(gz))}`)).events).toEqual(expected);
  });

  it('lz64 named by ?compression=lz64 or lz-string, with the body being the lz-string text', async () => {
    const lz = LZString.compressToBase64(JSON_BODY);
    expect((await post(lz, { query: { compression: 'lz64' }, contentType: 'text/plain' })).events).toEqual(expected);
    expect((await post(lz, { query: { compression: 'lz-string' } })).events).toEqual(expected);
  });

  it('lz64 in a form body, the hint in the query or in a form field', async () => {
    const lz = encodeURIComponent(LZString.compressToBase64(JSON_BODY));
    expect((await form(`data=${lz}`, { query: { compression: 'lz64' } })).events).toEqual(expected);
    expect((await form(`compression=lz64&data=${lz}`)).events).toEqual(expected);
  });

  it("form base64 whose '+' became spaces (sent unescaped) still decodes", async () => {
    const data = b64(JSON.stringify([{ ...EVENT, properties: { s: '>>>>>>' } }]));
    expect(data).toContain('+');
    expect((await form(`data=${data}`)).events[0]!.properties).toEqual({ s: '>>>>>>' });
  });

  it('form data that is plain (urlencoded) JSON, and extra form fields', async () => {
    expect((await form(`data=${encodeURIComponent(JSON_BODY)}`)).events).toEqual(expected);
    expect((await form(`ver=1.2.3&data=${encodeURIComponent(JSON_BODY)}&ip=1`)).events).toEqual(expected);
    expect((await form(`data=${encodeURIComponent(JSON_BODY)}`, { contentType: 'application/x-www-form-urlencoded; charset=UTF-8' })).events).toEqual(expected);
  });

  it('JSON labelled as a form (curl -d without a Content-Type) is read as JSON', async () => {
    expect((await form(JSON_BODY)).events).toEqual(expected);
  });

  it('a data= form body labelled otherwise (or not at all) is still a form', async () => {
    expect((await post(`data=${encodeURIComponent(b64(JSON_BODY))}`, { contentType: 'text/plain' })).events).toEqual(expected);
    expect((await post(`data=${encodeURIComponent(JSON_BODY)}`, { contentType: undefined })).events).toEqual(expected);
  });

  it('GET ?data= holding base64 (even with + turned into spaces) or urlencoded JSON', async () => {
    const get = (data: string, query: Record<string, unknown> = {}) =>
      decodeCaptureRequest(req({ method: 'GET', query: { data, ...query } }));
    expect((await get(b64(JSON_BODY))).events).toEqual(expected);
    const withPlus = b64(JSON.stringify([{ ...EVENT, properties: { s: '>>>>>>' } }]));
    expect((await get(withPlus.replace(/\+/g, ' '))).events[0]!.properties).toEqual({ s: '>>>>>>' });
    expect((await get(JSON_BODY)).events).toEqual(expected); // the query parser already undid the URL encoding
    expect((await get(LZString.compressToBase64(JSON_BODY), { compression: 'lz64' })).events).toEqual(expected);
  });

  it('JSON is JSON whatever the hint says, and unknown hints are ignored', async () => {
    expect((await post(JSON_BODY, { query: { compression: 'gzip-js' } })).events).toEqual(expected);
    expect((await post(JSON_BODY, { contentEncoding: 'gzip' })).events).toEqual(expected);
    expect((await post(JSON_BODY, { query: { compression: 'lz64' } })).events).toEqual(expected);
    expect((await post(gz, { query: { compression: 'deflate' } })).events).toEqual(expected);
    expect((await post(`\uFEFF${JSON_BODY}`)).events).toEqual(expected);
  });
});

describe('decoding errors', () => {
  it('a corrupt gzip body: 400 invalid_payload, saying what failed', async () => {
    const truncated = gzipSync(Buffer.from(JSON_BODY)).subarray(0, 20);
    expect(await failure(() => post(truncated))).toEqual(
      invalidPayload('Malformed request data: could not decompress gzip body (unexpected end of file)'),
    );
  });

  it('base64 that is not base64', async () => {
    expect(await failure(() => post('@@not base64@@', { query: { compression: 'base64' } }))).toEqual(
      invalidPayload('Malformed request data: could not decode base64 data'),
    );
  });

  it('lz64 that is not lz-string output', async () => {
    for (const data of ['4kP6PkXJ', 'AAAA', '@@@@']) {
      expect(await failure(() => post(data, { query: { compression: 'lz64' } }))).toEqual(
        invalidPayload('Malformed request data: could not decompress lz64 data'),
      );
    }
  });

  it('a form body without form fields; a form without `data` has no data', async () => {
    expect(await failure(() => form('hello world'))).toEqual(
      invalidPayload('Malformed request data: expected form data (data=...) in the request body'),
    );
    expect(await failure(() => form('compression=base64&ver=1'))).toEqual(NO_DATA);
  });

  it('invalid JSON, with the parser message', async () => {
    const text = '[{"event": "x",]';
    let message = '';
    try {
      JSON.parse(text);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(await failure(() => post(text))).toEqual(invalidPayload(`Malformed request data: Invalid JSON: ${message}`));
    expect(await failure(() => post(gzipSync('not json')))).toMatchObject({ status: 400, body: { code: 'invalid_payload' } });
  });

  it('bytes that are not UTF-8', async () => {
    expect(await failure(() => post(Buffer.from([0x5b, 0x7b, 0xff, 0xfe, 0x7d, 0x5d])))).toEqual(
      invalidPayload('Malformed request data: the payload is not valid UTF-8'),
    );
  });

  it('no data: empty or missing body, GET without ?data=, blank text, no events', async () => {
    expect(await failure(() => decodeCaptureRequest(req({})))).toEqual(NO_DATA);
    expect(await failure(() => post(''))).toEqual(NO_DATA);
    expect(await failure(() => post('  \n'))).toEqual(NO_DATA);
    expect(await failure(() => post(gzipSync('')))).toEqual(NO_DATA);
    expect(await failure(() => decodeCaptureRequest(req({ method: 'GET', body: Buffer.from(JSON_BODY) })))).toEqual(NO_DATA);
    expect(await failure(() => post('[]'))).toEqual(NO_DATA);
    expect(await failure(() => post('{"api_key":"phc_x","batch":[]}'))).toEqual(NO_DATA);
  });

  it('JSON that is not an object or a list of objects', async () => {
    expect(await failure(() => post('42'))).toEqual(
      invalidPayload('Malformed request data: expected a JSON object or a list of events, got a number'),
    );
    expect(await failure(() => post('"hi"'))).toEqual(
      invalidPayload('Malformed request data: expected a JSON object or a list of events, got a string'),
    );
    expect(await failure(() => post('null'))).toEqual(
      invalidPayload('Malformed request data: expected a JSON object or a list of events, got null'),
    );
    expect(await failure(() => post(JSON.stringify([EVENT, 'x'])))).toEqual(
      invalidPayload('Invalid payload: every event must be a JSON object (event 1 is a string).'),
    );
    expect(await failure(() => post('{"batch":{"event":"x"}}'))).toEqual(
      invalidPayload('Invalid payload: "batch" must be a list of events, got an object.'),
    );
  });

  it('an envelope api_key that is not a string: 401 invalid_api_key', async () => {
    expect(await failure(() => post(JSON.stringify({ api_key: 12, batch: [EVENT] })))).toEqual({
      status: 401,
      body: {
        type: 'authentication_error',
        code: 'invalid_api_key',
        detail:
          'Project API key invalid. You can find your project API key in PostHog project settings. (api_key must be a string)',
        attr: null,
      },
    });
  });
});

describe('size limits', () => {
  it(`a gzip bomb stops at MAX_DECODED_BYTES (${MAX_DECODED_BYTES}) with 413, not a memory blow-up`, async () => {
    const bomb = gzipSync(Buffer.alloc(MAX_DECODED_BYTES + 1024, 0x20), { level: 9 });
    expect(bomb.length).toBeLessThan(200_000);
    expect(await failure(() => post(bomb))).toEqual(tooLarge(MAX_DECODED_BYTES));
  });

  it('an lz-string bomb (quadratic growth) is measured before it is built: 413', async () => {
    // 30 000 codes that each repeat the previous entry plus one char: ~450 M chars from ~70 kB,
    // which lz-string alone builds into ~1 GB (and a 260 kB one kills Node with out-of-memory).
    const bomb = lzQuadraticBomb(30_000);
    expect(bomb.length).toBeLessThan(80_000);
    expect(lz64DecodedLength(bomb, Number.MAX_SAFE_INTEGER)).toBe((30_001 * 30_002) / 2);
    expect(await failure(() => post(bomb, { query: { compression: 'lz64' } }))).toEqual(tooLarge(MAX_DECODED_BYTES));
    expect(await failure(() => post(lzQuadraticBomb(100_000), { query: { compression: 'lz64' } }))).toEqual(tooLarge(MAX_DECODED_BYTES));
  });

  it('maxDecodedBytes caps plain, gzip and lz64 payloads alike', async () => {
    const big = JSON.stringify([{ ...EVENT, properties: { pad: 'x'.repeat(5000) } }]);
    const limit = 1000;
    expect(await failure(() => post(big, { maxDecodedBytes: limit }))).toEqual(tooLarge(limit));
    expect(await failure(() => post(gzipSync(big), { maxDecodedBytes: limit }))).toEqual(tooLarge(limit));
    const lz = LZString.compressToBase64(big);
    expect(await failure(() => post(lz, { query: { compression: 'lz64' }, maxDecodedBytes: limit }))).toEqual(tooLarge(limit));
    expect((await post(big, { maxDecodedBytes: big.length })).events).toHaveLength(1);
  });

  it('lz64DecodedLength agrees with lz-string on real output', async () => {
    for (let i = 0; i < 200; i++) {
      const text = JSON.stringify({ i, s: 'é€🙂'.repeat(i % 7), r: Math.random().toString(36).repeat(i % 13) });
      expect(lz64DecodedLength(LZString.compressToBase64(text), Number.MAX_SAFE_INTEGER)).toBe(text.length);
    }
  });
});

/** lz-string base64 whose every code is "previous entry + its first char": output grows as n². */
function lzQuadraticBomb(codes: number): string {
  const bits: number[] = [];
  const put = (value: number, width: number) => {
    for (let i = 0; i < width; i++) bits.push((value >> i) & 1);
  };
  put(0, 2); // an 8-bit literal...
  put(65, 8); // ...'A'
  let dictSize = 4;
  let numBits = 3;
  let enlargeIn = 4;
  for (let k = 0; k < codes; k++) {
    put(dictSize, numBits); // the code not yet in the dictionary: w + w[0]
    dictSize++;
    if (--enlargeIn === 0) enlargeIn = 2 ** numBits++;
  }
  put(2, numBits); // end of stream
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  for (let i = 0; i < bits.length; i += 6) {
    let value = 0;
    for (let j = 0; j < 6; j++) value = (value << 1) | (bits[i + j] ?? 0);
    out += alphabet[value];
  }
  return out.padEnd(Math.ceil(out.length / 4) * 4, '=');
}

describe('recorded SDK payloads (test/fixtures/capture)', () => {
  const dir = new URL('../../fixtures/capture/', import.meta.url);
  interface Fixture {
    name: string;
    file: string;
    method: 'GET' | 'POST';
    query: string;
    headers: Record<string, string>;
    expected: string;
  }
  const fixtures = JSON.parse(readFileSync(new URL('fixtures.json', dir), 'utf8')) as Fixture[];
  const NOW_US = Date.parse('2024-05-01T10:00:03Z') * 1000;

  const inputFor = (fixture: Fixture, body: Buffer): CaptureRequestInput => ({
    method: fixture.method,
    body,
    contentType: fixture.headers['content-type'],
    contentEncoding: fixture.headers['content-encoding'],
    query: Object.fromEntries(new URLSearchParams(fixture.query)),
  });

  it.each(fixtures.map((f) => [f.name, f] as const))('%s decodes and normalises as recorded', async (_name, fixture) => {
    const expected = JSON.parse(readFileSync(new URL(fixture.expected, dir), 'utf8'));
    const decoded = await decodeCaptureRequest(inputFor(fixture, readFileSync(new URL(fixture.file, dir))));
    const { decodedBytes, ...payload } = decoded;
    expect(payload).toEqual({ ...expected.decoded, envelopeToken: expected.decoded.envelopeToken ?? undefined });
    expect(decodedBytes).toBeGreaterThan(0);
    expect(requestToken(decoded)).toBe(expected.token);
    const events = normaliseEvents(decoded, { nowUs: NOW_US, sentAt: decoded.sentAt, historicalMigration: decoded.historicalMigration });
    expect(events).toEqual(
      expected.events.map(({ timestampMinusNowUs, ...event }: { timestampMinusNowUs: number }) => ({
        ...event,
        timestampUs: NOW_US + timestampMinusNowUs,
      })),
    );
  });

  it("the beacon form sent unescaped ('+' arrives as a space) decodes the same", async () => {
    const fixture = fixtures.find((f) => f.name === 'posthog-js-beacon-form')!;
    const escaped = readFileSync(new URL(fixture.file, dir), 'utf8');
    const raw = `data=${decodeURIComponent(escaped.slice('data='.length))}`;
    expect(raw).toContain('+');
    const expected = JSON.parse(readFileSync(new URL(fixture.expected, dir), 'utf8'));
    expect((await decodeCaptureRequest(inputFor(fixture, Buffer.from(raw)))).events).toEqual(expected.decoded.events);
  });
});
