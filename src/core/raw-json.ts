// Large values served many times unchanged (cached query results) keep their JSON text, so a
// response holding one splices that text in instead of serialising the value again per request.
import { randomBytes } from 'node:crypto';

const RAW = new WeakMap<object, string>();
/** A marker no stored text can contain by chance: it is random per process. */
const TOKEN = `\u0001raw-${randomBytes(8).toString('hex')}-`;
const TOKEN_IN_JSON = JSON.stringify(TOKEN).slice(1, -1);
const PLACEHOLDER = new RegExp(`"${TOKEN_IN_JSON.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(\\d+)"`, 'g');

/** Remembers `text` as the JSON of `value` (which must never be changed afterwards). */
export function rememberJson<T extends object>(value: T, text: string): T {
  RAW.set(value, text);
  return value;
}

/** JSON.stringify, with remembered values written as their remembered text. */
export function stringifyJson(body: unknown): string {
  const pieces: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object') {
      const raw = RAW.get(value);
      if (raw !== undefined) return `${TOKEN}${pieces.push(raw) - 1}`;
    }
    return value;
  });
  return pieces.length === 0 ? text : text.replace(PLACEHOLDER, (_match, index: string) => pieces[Number(index)]!);
}
