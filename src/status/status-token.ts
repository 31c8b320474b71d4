// The secret `hoglet status` shows the running server to be answered its counts per project. The
// server writes it into the event store's directory, readable only by the user that runs it:
// whoever can read it can read the data directory anyway, so it proves no more than that.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const TOKEN_FILE = 'status.token';

/** A new token for this server process, written (owner-only) into `directory`. */
export function writeStatusToken(directory: string): string {
  const token = randomBytes(24).toString('hex');
  const file = path.join(directory, TOKEN_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, token, { mode: 0o600 });
  fs.renameSync(temporary, file);
  return token;
}

/** The token the server in `directory` wrote, if any. */
export function readStatusToken(directory: string): string | null {
  try {
    return fs.readFileSync(path.join(directory, TOKEN_FILE), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
