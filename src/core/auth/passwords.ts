// Web app passwords, stored as scrypt hashes (memory-hard: 64 MiB and ~100 ms per guess here, so
// a stolen table is slow to attack on any hardware). The stored form names its parameters, so
// they can be raised later without breaking old hashes.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ValidationError } from '../../errors.js';

const PARAMETERS = { N: 2 ** 16, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
/** scrypt needs 128 * N * r bytes; Node refuses above maxmem, which defaults to 32 MiB. */
const maxmem = (N: number, r: number) => 128 * N * r + 1024 * 1024;

export const MIN_PASSWORD_LENGTH = 8;
/** Long enough for any passphrase; a bound so no request makes the server hash megabytes. */
export const MAX_PASSWORD_LENGTH = 1024;

function scrypt(password: string, salt: Buffer, options: ScryptOptions & { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, KEY_BYTES, { ...options, maxmem: maxmem(options.N, options.r) }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Refuses a password that is too short or too long, with PostHog's field error. */
export function checkPasswordStrength(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new ValidationError(`This password is too short. It must contain at least ${MIN_PASSWORD_LENGTH} characters.`, 'password', 'password_too_short');
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new ValidationError(`Ensure this field has no more than ${MAX_PASSWORD_LENGTH} characters.`, 'password', 'max_length');
  }
}

/** `scrypt$N$r$p$<salt>$<key>`, base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMETERS);
  return ['scrypt', PARAMETERS.N, PARAMETERS.r, PARAMETERS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether the password matches the stored hash; a malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const options = { N: Number(N), r: Number(r), p: Number(p) };
  if (!Object.values(options).every((n) => Number.isSafeInteger(n) && n > 0)) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password.slice(0, MAX_PASSWORD_LENGTH + 1), Buffer.from(salt, 'base64url'), options);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of nothing anyone knows: checked for unknown emails so they take as long as known ones. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}
