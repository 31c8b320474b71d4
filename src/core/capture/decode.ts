// Turns a capture request's bytes into events, accepting every encoding PostHog's capture does
// (Rust `capture/src/payload/*`, Django `posthog/utils.py` load_data_from_request): plain JSON,
// gzip (header, ?compression=, or sniffed magic bytes), base64, lz-string, form bodies, GET ?data=.
import { createGunzip } from 'node:zlib';
import LZString from 'lz-string';
import { PayloadTooLargeError } from '../../errors.js';
import { INVALID_API_KEY_DETAIL, InvalidApiKeyError, InvalidPayloadError, malformedRequest, NoDataError } from './capture-errors.js';
import { UNBOUNDED, type DecodeReservation } from './decode-budget.js';
import type { DecodedPayload, RawEvent } from './types.js';

export interface CaptureRequestInput {
  method: 'GET' | 'POST';
  /** Raw request bytes, not yet decompressed. */
  body: Buffer | undefined;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** Parsed query string: values are strings or arrays of strings. */
  query: Record<string, unknown>;
  /** Cap on the decoded size; defaults to MAX_DECODED_BYTES. */
  maxDecodedBytes?: number;
}

/**
 * Cap on a payload's size once decompressed. PostHog caps it at the endpoint's body limit (20 MB
 * for /batch/); we allow 5x that, so a /batch/ body that is legal on the wire never fails here
 * for compressing well, while a gzip or lz-string bomb stops at 100 MiB instead of eating memory.
 */
export const MAX_DECODED_BYTES = 100 * 1024 * 1024;

type Compression = 'gzip' | 'lz64' | 'base64';

/**
 * Decodes the request, counting what it decodes against the reservation (released by the caller
 * when the request ends). gzip is inflated off the main thread, chunk by chunk against both caps.
 */
export async function decodeCaptureRequest(
  input: CaptureRequestInput,
  reservation: DecodeReservation = UNBOUNDED.open(),
): Promise<DecodedPayload> {
  const limit = input.maxDecodedBytes ?? MAX_DECODED_BYTES;
  const { data, compression } = extractData(input);
  const text = await decodeToText(data, compression, { limit, reservation });
  if (text.trim() === '') throw new NoDataError();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw malformedRequest(`Invalid JSON: ${(error as Error).message}`);
  }
  return { ...toPayload(json, input.query), decodedBytes: Buffer.byteLength(text) };
}

/** Where the payload is (query ?data=, form field `data`, or the body) and how it says it is encoded. */
function extractData(input: CaptureRequestInput): { data: Buffer; compression: Compression | undefined } {
  const queryData = firstString(input.query.data);
  let form: URLSearchParams | undefined;
  let data: Buffer;
  if (queryData) {
    data = Buffer.from(restorePluses(queryData));
  } else if (input.method === 'GET' || !input.body || input.body.length === 0) {
    throw new NoDataError();
  } else if (isFormBody(input.body, input.contentType)) {
    const bodyText = input.body.toString('utf8');
    if (!/(?:^|&)(?:data|compression|ver|ip|_)=/.test(bodyText.slice(0, 256))) {
      throw malformedRequest('expected form data (data=...) in the request body');
    }
    form = new URLSearchParams(bodyText);
    const field = form.get('data');
    if (!field) throw new NoDataError();
    data = Buffer.from(restorePluses(field));
  } else {
    data = input.body;
  }
  const compression =
    compressionOf(firstString(input.query.compression)) ??
    compressionOf(form?.get('compression') ?? undefined) ??
    compressionOf(input.contentEncoding);
  return { data, compression };
}

interface Caps {
  /** Most decoded bytes for this request. */
  limit: number;
  /** The request's share of the memory all concurrent decodes may use. */
  reservation: DecodeReservation;
}

/** Peels the encodings off, in the order clients apply them: base64 outside, gzip inside. */
async function decodeToText(data: Buffer, compression: Compression | undefined, caps: Caps): Promise<string> {
  // No encoding we know starts with '{' or '[', so JSON is JSON whatever the hint claims.
  if (startsLikeJson(data)) return utf8(data, caps);
  if (compression === 'lz64') return lz64(data.toString('latin1'), caps);

  if (!isGzip(data) && (compression === 'base64' || looksLikeBase64(data.toString('latin1')))) {
    const decoded = base64(data.toString('latin1'));
    if (compression === 'base64') {
      if (!decoded) throw malformedRequest('could not decode base64 data');
      data = decoded;
    } else if (decoded && (startsLikeJson(decoded) || isGzip(decoded))) {
      data = decoded; // a sniffed "base64" that hides no payload is left alone
    }
  }
  if (!startsLikeJson(data) && (compression === 'gzip' || isGzip(data))) data = await gunzip(data, caps);

  let text = utf8(data, caps);
  // PostHog's legacy endpoints unwrap base64 once more after decompressing; harmless elsewhere.
  if (looksLikeBase64(text)) {
    const decoded = base64(text);
    if (decoded && startsLikeJson(decoded)) text = utf8(decoded, caps);
  }
  return text;
}

/** Inflates on zlib's thread pool, stopping at the first chunk past either cap. */
function gunzip(data: Buffer, { limit, reservation }: Caps): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const inflate = createGunzip();
    const fail = (error: Error) => {
      inflate.destroy();
      reject(error);
    };
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return fail(new PayloadTooLargeError(limit));
      try {
        reservation.take(chunk.length);
      } catch (error) {
        return fail(error as Error);
      }
      chunks.push(chunk);
    });
    inflate.on('error', (error) => fail(malformedRequest(`could not decompress gzip body (${error.message})`)));
    inflate.on('end', () => resolve(Buffer.concat(chunks, size)));
    inflate.end(data);
  });
}

function lz64(input: string, { limit, reservation }: Caps): string {
  const length = lz64DecodedLength(input, limit);
  if (length === 'too_large') throw new PayloadTooLargeError(limit);
  if (typeof length === 'number') reservation.take(length * 2); // UTF-16 units
  let text: string | null = null;
  try {
    text = length === 'invalid' ? null : LZString.decompressFromBase64(input);
  } catch {
    // lz-string throws on some garbage (a bad first code); same answer as its null.
  }
  if (!text) throw malformedRequest('could not decompress lz64 data');
  if (Buffer.byteLength(text) > limit) throw new PayloadTooLargeError(limit);
  return text;
}

const B64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';

/**
 * The length (UTF-16 units) lz-string's decompressFromBase64 would produce, computed on lengths
 * alone. lz-string grows quadratically (a 260 kB body can expand past 10^10 chars and kill the
 * process with an uncatchable out-of-memory), so we measure before letting it build strings.
 * Mirrors lz-string 1.5 bit for bit: 6 bits a char, codes read low bit first, width growing.
 */
export function lz64DecodedLength(input: string, cap: number): number | 'invalid' | 'too_large' {
  let index = 0;
  let value = B64_ALPHABET.indexOf(input.charAt(0));
  let mask = 32;
  const read = (bits: number): number => {
    let out = 0;
    for (let i = 0; i < bits; i++) {
      if (value > 0 && (value & mask) !== 0) out |= 1 << i;
      mask >>= 1;
      if (mask === 0) {
        mask = 32;
        value = B64_ALPHABET.indexOf(input.charAt(++index)); // past the end: -1, read as zeros
      }
    }
    return out;
  };

  const first = read(2);
  if (first === 2) return 0;
  if (first === 3) return 'invalid';
  read(first === 0 ? 8 : 16);
  const lengths: number[] = [0, 0, 0, 1]; // codes 0..2 are controls; 3 is the first char
  let numBits = 3;
  let enlargeIn = 4;
  let previous = 1;
  let total = 1;
  for (;;) {
    if (index + 1 > input.length) return 'invalid'; // lz-string returns "" when it runs out
    let code = read(numBits);
    if (code === 2) return total;
    if (code < 2) {
      read(code === 0 ? 8 : 16);
      lengths.push(1);
      code = lengths.length - 1;
      if (--enlargeIn === 0) enlargeIn = 2 ** numBits++;
    }
    let entry: number;
    if (code < lengths.length) entry = lengths[code]!;
    else if (code === lengths.length) entry = previous + 1;
    else return 'invalid';
    total += entry;
    if (total > cap) return 'too_large';
    lengths.push(previous + 1);
    previous = entry;
    if (--enlargeIn === 0) enlargeIn = 2 ** numBits++;
  }
}

/** Base64 (standard or URL-safe, padding optional); undefined when it is not base64. */
function base64(text: string): Buffer | undefined {
  const compact = text.trim();
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.length % 4 === 1) return undefined;
  return Buffer.from(compact, 'base64');
}

/** PostHog's cheap test: base64 characters only, and a length that is a multiple of 4. */
function looksLikeBase64(text: string): boolean {
  return text.length > 0 && text.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(text);
}

/** Form and query decoding turn a base64 '+' into a space; put them back when it is base64. */
function restorePluses(field: string): string {
  return field.includes(' ') && looksLikeBase64(field.replace(/ /g, '+')) ? field.replace(/ /g, '+') : field;
}

function utf8(data: Buffer, { limit, reservation }: Caps): string {
  if (data.length > limit) throw new PayloadTooLargeError(limit);
  reservation.take(data.length);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data); // also drops a leading BOM
  } catch {
    throw malformedRequest('the payload is not valid UTF-8');
  }
}

function compressionOf(value: string | undefined): Compression | undefined {
  switch (value?.trim().toLowerCase()) {
    case 'gzip':
    case 'gzip-js':
    case 'x-gzip':
      return 'gzip';
    case 'lz64':
    case 'lz-string':
      return 'lz64';
    case 'base64':
    case 'b64':
      return 'base64';
    default:
      return undefined; // unknown hints are ignored, as PostHog does
  }
}

function toPayload(json: unknown, query: Record<string, unknown>): DecodedPayload {
  const querySentAt = sentAtFromQuery(query._);
  if (Array.isArray(json)) {
    return { events: checkEvents(json), envelopeToken: undefined, sentAt: querySentAt, historicalMigration: false };
  }
  if (!isObject(json)) {
    throw malformedRequest(`expected a JSON object or a list of events, got ${jsonType(json)}`);
  }
  if (!('batch' in json)) {
    return { events: checkEvents([json]), envelopeToken: undefined, sentAt: querySentAt, historicalMigration: false };
  }
  if (!Array.isArray(json.batch)) {
    throw new InvalidPayloadError(`Invalid payload: "batch" must be a list of events, got ${jsonType(json.batch)}.`);
  }
  const token = json.api_key ?? json.token ?? undefined;
  if (token !== undefined && typeof token !== 'string') {
    throw new InvalidApiKeyError(`${INVALID_API_KEY_DETAIL} (api_key must be a string)`);
  }
  const sentAt = json.sent_at === undefined || json.sent_at === null || json.sent_at === '' ? querySentAt : json.sent_at;
  return { events: checkEvents(json.batch), envelopeToken: token, sentAt, historicalMigration: json.historical_migration === true };
}

function checkEvents(events: unknown[]): RawEvent[] {
  if (events.length === 0) throw new NoDataError();
  events.forEach((event, i) => {
    if (!isObject(event)) {
      throw new InvalidPayloadError(`Invalid payload: every event must be a JSON object (event ${i} is ${jsonType(event)}).`);
    }
  });
  return events as RawEvent[];
}

/** `_=<ms epoch>` as posthog-js sends it; anything else is ignored. */
function sentAtFromQuery(value: unknown): number | undefined {
  const text = firstString(value);
  return text !== undefined && /^\d{1,16}$/.test(text) ? Number(text) : undefined;
}

function firstString(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/**
 * A form body by its content type, unless it is plainly JSON or gzip (leniency beyond PostHog:
 * `curl -d '{...}'` labels JSON as a form); or, whatever the label, a body starting "data=".
 */
function isFormBody(body: Buffer, contentType: string | undefined): boolean {
  if (contentType?.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded') {
    return !startsLikeJson(body) && !isGzip(body);
  }
  return body.subarray(0, 5).toString('latin1') === 'data=';
}

const isGzip = (data: Buffer): boolean => data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;

/** First byte after any BOM and whitespace is '{' or '['. */
function startsLikeJson(data: Buffer): boolean {
  const bom = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? 3 : 0;
  for (let i = bom; i < data.length; i++) {
    const byte = data[i];
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x7b || byte === 0x5b;
  }
  return false;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
