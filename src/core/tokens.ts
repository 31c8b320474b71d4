// Random identifiers and secrets, all from the platform's cryptographic random source.
import { createHash, randomBytes, randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random bytes (32 by default) in base62, zero-padded to the longest such number: 43 characters for 32. */
export function randomBase62Token(bytes = 32): string {
  let value = BigInt('0x' + randomBytes(bytes).toString('hex'));
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(Math.ceil((bytes * 8) / Math.log2(62)), '0');
}

export const newProjectApiToken = (): string => `phc_${randomBase62Token()}`;
export const newPersonalApiKeyValue = (): string => `phx_${randomBase62Token()}`;
/** PostHog's project secret key: 35 random bytes, as its personal keys have (a masked tail is shown). */
export const newProjectSecretToken = (): string => `phs_${randomBase62Token(35)}`;

/** How personal API keys are stored: PostHog's unsalted "sha256$<hex>" form. */
export function hashPersonalApiKey(value: string): string {
  return 'sha256$' + createHash('sha256').update(value).digest('hex');
}

/** First 4 and last 4 characters, as PostHog shows a key after creation. */
export function maskKey(value: string): string {
  return `${value.slice(0, 4)}...${value.slice(-4)}`;
}

let lastMillis = 0;
let sequence = 0;

// Random bytes drawn in blocks: one randomFillSync (a system call) per 512 ids instead of one per
// id, which capture pays for every event without a uuid.
const POOL = Buffer.allocUnsafe(8 * 512);
let poolAt = POOL.length;

/** Fills bytes 8..15 (the random part a uuidv7 keeps after its time and counter). */
function randomTail(bytes: Buffer): void {
  if (poolAt === POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  POOL.copy(bytes, 8, poolAt, poolAt + 8);
  poolAt += 8;
}

/**
 * A time-ordered UUID (version 7), as PostHog assigns to projects and log entries. Within one
 * process ids are strictly increasing: ids made in the same millisecond carry a 12-bit counter
 * (RFC 9562, method 1), so sorting by id keeps the order things happened in.
 */
export function uuidv7(now = Date.now()): string {
  if (now > lastMillis) {
    lastMillis = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    // Counter exhausted: borrow the next millisecond rather than repeat an order.
    lastMillis += 1;
    sequence = 0;
  }
  const bytes = Buffer.allocUnsafe(16);
  randomTail(bytes);
  bytes.writeUIntBE(lastMillis, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const nowIso = (): string => new Date().toISOString();
