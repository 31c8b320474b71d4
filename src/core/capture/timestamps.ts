// When an event happened, in microseconds since the epoch, by PostHog's rules (docs
// `data/timestamps.mdx`, plugin-server `parseEventTimestamp`, Rust `common/types/timestamp.rs`).
import type { RawEvent } from './types.js';

export interface TimestampContext {
  /** Server receive time, microseconds since the epoch. */
  nowUs: number;
  /** The request's `sent_at` (envelope value, or the `_` query parameter as a number). */
  sentAt: unknown;
}

const US_PER_MS = 1000;
/** PostHog clamps events more than 23 hours ahead of the server clock to "now". */
const FUTURE_CUTOFF_US = 23 * 3600 * 1000 * US_PER_MS;
/** `_` (ms) values before 2021 are old SDKs sending seconds; PostHog ignores them. */
const MIN_PLAUSIBLE_SENT_AT_MS = Date.UTC(2021, 0, 1);

export function eventTimestampUs(raw: RawEvent, ctx: TimestampContext): number {
  const now = ctx.nowUs;
  const props = isObject(raw.properties) ? raw.properties : undefined;
  // `$ignore_sent_at: true` is for imports: the client's timestamp is trusted as it is.
  const sentAt = props?.$ignore_sent_at === true ? undefined : (parseSentAtUs(raw.sent_at) ?? parseSentAtUs(ctx.sentAt));

  let result = now;
  if (isPresent(raw.timestamp)) {
    const ts = parseTimestampUs(raw.timestamp);
    // An unparseable timestamp falls back to now (PostHog: warning `ignored_invalid_timestamp`).
    if (ts !== undefined) result = sentAt === undefined ? ts : now + (ts - sentAt);
  } else if (typeof raw.offset === 'number' && Number.isFinite(raw.offset)) {
    result = now - Math.round(raw.offset * US_PER_MS);
  }

  if (result - now > FUTURE_CUTOFF_US) return now; // PostHog: warning `event_timestamp_in_future`
  // PostHog stores the epoch for years outside 0..9999. Hoglet does so for every time before the
  // epoch: ClickHouse keeps such a DateTime64, but toDate/toStartOfDay wrap it into a wrong day of
  // another century, so the event would count in charts at a date nobody sent.
  if (!(result >= 0)) return 0;
  return result;
}

/** `sent_at`: an ISO string, or a number of milliseconds (the `_` query parameter). */
function parseSentAtUs(value: unknown): number | undefined {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= MIN_PLAUSIBLE_SENT_AT_MS ? Math.round(value * US_PER_MS) : undefined;
  }
  return isPresent(value) ? parseTimestampUs(value) : undefined;
}

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?$/;
/** Zone-carrying forms other than ISO (RFC 2822 and the like), which Date.parse reads safely. */
const EXPLICIT_ZONE_RE = /(?:GMT|UTC|Z|[+-]\d{4})\s*$/i;

/**
 * Parses a client timestamp to microseconds, keeping microsecond precision. ISO 8601 / RFC 3339
 * (zone-less means UTC, as PostHog does); a date alone is midnight UTC; all-digit strings are
 * epoch seconds (10 digits), ms (13), µs (16) or ns (19); a JSON number is epoch milliseconds.
 */
export function parseTimestampUs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.round(value * US_PER_MS) : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();

  const iso = ISO_RE.exec(text);
  if (iso) return isoToUs(iso);

  if (/^\d+$/.test(text)) {
    const scale = { 10: 1_000_000, 13: 1000, 16: 1, 19: 0.001 }[text.length];
    return scale === undefined ? undefined : Math.round(Number(text) * scale);
  }

  if (EXPLICIT_ZONE_RE.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? undefined : ms * US_PER_MS;
  }
  return undefined;
}

function isoToUs(m: RegExpExecArray): number | undefined {
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const micros = m[7] ? Number(m[7].slice(0, 6).padEnd(6, '0')) : 0;
  const offsetMinutes = zoneOffsetMinutes(m[8]);
  if (offsetMinutes === undefined) return undefined;

  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // not Date.UTC: it maps years 0..99 to 1900..1999
  date.setUTCHours(hour, minute, second, 0);
  return (date.getTime() - offsetMinutes * 60_000) * US_PER_MS + micros;
}

function zoneOffsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || /^(?:z|utc)$/i.test(zone)) return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

const isPresent = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
