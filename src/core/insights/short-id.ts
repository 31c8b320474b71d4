// PostHog's generate_short_id: 8 characters of [A-Za-z0-9] from the cryptographic random source.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LENGTH = 8;
/** Bytes at or above this would favour the first letters (256 % 62 != 0), so they are redrawn. */
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

export function generateShortId(): string {
  let id = '';
  while (id.length < LENGTH) {
    for (const byte of randomBytes(16)) {
      if (byte < UNBIASED_LIMIT && id.length < LENGTH) id += ALPHABET[byte % ALPHABET.length];
    }
  }
  return id;
}

/** What a client may choose as a short_id: PostHog's column holds at most 12 characters. */
export const SHORT_ID_PATTERN = /^[A-Za-z0-9_-]{1,12}$/;
