// Random identifiers and secrets, all from the platform's cryptographic random source.
import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 32 random bytes in base62: always 43 characters (zero-padded). */
export function randomBase62Token(): string {
  let value = BigInt('0x' + randomBytes(32).toString('hex'));
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(43, '0');
}

export const newProjectApiToken = (): string => `phc_${randomBase62Token()}`;
export const newPersonalApiKeyValue = (): string => `phx_${randomBase62Token()}`;

/** How personal API keys are stored: PostHog's unsalted "sha256$<hex>" form. */
export function hashPersonalApiKey(value: string): string {
  return 'sha256$' + createHash('sha256').update(value).digest('hex');
}

/** First 4 and last 4 characters, as PostHog shows a key after creation. */
export function maskKey(value: string): string {
  return `${value.slice(0, 4)}...${value.slice(-4)}`;
}

/** A time-ordered UUID (version 7), as PostHog assigns to projects and log entries. */
export function uuidv7(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const nowIso = (): string => new Date().toISOString();
