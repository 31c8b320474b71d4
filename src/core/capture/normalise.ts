// Per-event checks and normalisation, as PostHog's capture (Rust `common/types/event.rs`,
// Django `posthog/api/capture.py`) and ingestion (plugin-server `normalizeEvent`) do them.
import { uuidv7 } from '../tokens.js';
import {
  INVALID_API_KEY_DETAIL,
  InvalidApiKeyError,
  InvalidPayloadError,
  MissingApiKeyError,
} from './capture-errors.js';
import { storableValue } from './storable.js';
import { eventTimestampUs } from './timestamps.js';
import type { CapturedEvent, DecodedPayload, RawEvent } from './types.js';

export interface NormaliseContext {
  /** Server receive time, microseconds since the epoch. */
  nowUs: number;
  /** From DecodedPayload.sentAt. */
  sentAt: unknown;
  historicalMigration: boolean;
  /** '/engage/' passes '$identify' (Django did this for engage payloads without an event). */
  defaultEventName?: string;
}

/** Kafka's default message cap, which PostHog's capture enforces per event. */
export const MAX_EVENT_BYTES = 1_000_000;
const MAX_DISTINCT_ID_CHARS = 200;

/**
 * The one token for the request: the envelope's, else each event's `api_key`, `token`, `$token`
 * or `properties.token` (first found). Events without one are fine; events that disagree are not.
 * PostHog checks this before any per-event rule, so call it before normaliseEvents.
 */
export function requestToken(payload: DecodedPayload, queryToken?: unknown): string {
  if (payload.envelopeToken !== undefined) return validToken(payload.envelopeToken);
  const tokens = new Set<string>();
  for (const event of payload.events) {
    const token = eventToken(event);
    if (token !== undefined) tokens.add(validToken(token));
  }
  // Last resort, as Django's capture did: `?token=` or `?api_key=` on the URL.
  if (tokens.size === 0 && queryToken !== undefined) return validToken(queryToken);
  if (tokens.size === 0) throw new MissingApiKeyError();
  if (tokens.size > 1) {
    throw new InvalidApiKeyError(
      'Batch submitted with inconsistent api_key values: all events in one request must use the same project API key.',
    );
  }
  return [...tokens][0]!;
}

function eventToken(event: RawEvent): unknown {
  for (const key of ['api_key', 'token', '$token']) {
    if (event[key] !== undefined && event[key] !== null) return event[key];
  }
  const props = event.properties;
  // posthog-js puts it here; PostHog reads it only when it is a string.
  return isObject(props) && typeof props.token === 'string' ? props.token : undefined;
}

/** PostHog's shape check (Rust `token.rs`): surrounding whitespace is forgiven, little else. */
function validToken(value: unknown): string {
  if (typeof value !== 'string') return invalidToken('it must be a string');
  const token = value.trim();
  if (token === '') return invalidToken('it is empty');
  if (token.length > 64) return invalidToken('it is longer than 64 characters');
  if (!/^[\x00-\x7f]*$/.test(token)) return invalidToken('it contains non-ASCII characters');
  if (token.startsWith('phx_')) return invalidToken('it is a personal API key, not a project API key');
  if (token.includes('\0')) return invalidToken('it contains a NUL character');
  return token;
}

function invalidToken(reason: string): never {
  throw new InvalidApiKeyError(`${INVALID_API_KEY_DETAIL} (${reason})`);
}

/** Validates and normalises every event; throws on the first bad one (PostHog rejects the whole request). */
export function normaliseEvents(payload: DecodedPayload, ctx: NormaliseContext): CapturedEvent[] {
  // Serialising each event again to measure it is costly; a body under the limit needs no check.
  const measure = payload.decodedBytes === undefined || payload.decodedBytes > MAX_EVENT_BYTES;
  return payload.events.map((raw) => normaliseEvent(raw, ctx, measure));
}

function normaliseEvent(sent: RawEvent, ctx: NormaliseContext, measure: boolean): CapturedEvent {
  if (!isObject(sent)) throw invalid('every event must be a JSON object.');
  const raw = storableValue(sent) as RawEvent;
  const event = eventName(raw, ctx.defaultEventName);
  const distinctId = extractDistinctId(raw);
  const uuid = eventUuid(raw.uuid);
  const properties = mergedProperties(raw);

  const size = measure ? Buffer.byteLength(JSON.stringify(raw)) : 0;
  if (size > MAX_EVENT_BYTES) {
    throw new InvalidPayloadError(
      `maximum event size exceeded: this event is ${size} bytes of JSON, the limit is ${MAX_EVENT_BYTES}.`,
    );
  }
  return {
    uuid,
    event,
    distinctId,
    properties,
    timestampUs: eventTimestampUs(raw, { nowUs: ctx.nowUs, sentAt: ctx.sentAt }),
    historicalMigration: ctx.historicalMigration,
  };
}

function eventName(raw: RawEvent, defaultName: string | undefined): string {
  const name = raw.event;
  if ((name === undefined || name === null || name === '') && defaultName !== undefined) return defaultName;
  if (typeof name !== 'string' || name === '') throw invalid('All events must have the event name field "event"!');
  return name;
}

/** Top-level `distinct_id`, else `$distinct_id`, else `properties.distinct_id` (null counts as absent). */
function extractDistinctId(raw: RawEvent): string {
  const props = isObject(raw.properties) ? raw.properties : {};
  const value = [raw.distinct_id, raw.$distinct_id, props.distinct_id].find((v) => v !== undefined && v !== null);
  if (value === undefined) {
    const sent = 'distinct_id' in raw || '$distinct_id' in raw || 'distinct_id' in props;
    if (!sent) throw invalid('All events must have the event field "distinct_id"!');
    throw invalid('Event field "distinct_id" should not be blank!');
  }
  // Numbers, booleans and containers are stringified (containers as JSON with sorted keys, like serde_json).
  const text = (typeof value === 'string' ? value : JSON.stringify(sortKeys(value))).replace(/\0/g, '\uFFFD');
  if (text.trim() === '') throw invalid('Event field "distinct_id" should not be blank!');
  return truncateChars(text, MAX_DISTINCT_ID_CHARS);
}

const UUID_FORMS = [
  /^([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})$/i,
  /^\{([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}$/i,
  /^urn:uuid:([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})$/i,
];

/** The client's uuid in canonical lowercase form (the forms Rust's and Python's parsers take), or a new UUIDv7. */
function eventUuid(value: unknown): string {
  if (value === undefined || value === null || value === '') return uuidv7();
  if (typeof value === 'string') {
    for (const form of UUID_FORMS) {
      const m = form.exec(value.trim());
      if (m) return m.slice(1).join('-').toLowerCase();
    }
  }
  throw invalid('Event field "uuid" is not a valid UUID!');
}

/** Properties as sent (token and all), with top-level `$set`/`$set_once` merged in; top-level keys win. */
function mergedProperties(raw: RawEvent): Record<string, unknown> {
  const props = raw.properties;
  if (props !== undefined && props !== null && !isObject(props)) {
    throw invalid(`Event field "properties" must be a JSON object, received ${jsonType(props)}!`);
  }
  const merged: Record<string, unknown> = { ...props };
  for (const key of ['$set', '$set_once'] as const) {
    const top = raw[key];
    if (top === undefined || top === null) continue;
    if (!isObject(top)) throw invalid(`Event field "${key}" must be a JSON object, received ${jsonType(top)}!`);
    const inner = isObject(merged[key]) ? (merged[key] as Record<string, unknown>) : {};
    merged[key] = { ...inner, ...top };
  }
  return merged;
}

const invalid = (message: string): InvalidPayloadError => new InvalidPayloadError(`Invalid payload: ${message}`);

function truncateChars(text: string, max: number): string {
  if (text.length <= max) return text; // UTF-16 length bounds the code point count from above
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
