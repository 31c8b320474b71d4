// Values of a HogQL answer as PostHog's API writes them: DateTime columns (and arrays of them) as ISO 8601 instants with
// their zone's offset ("2020-01-10T12:14:00Z", "2020-01-10T07:14:00-05:00"); the rest as the
// engine gives them in JSON (64-bit integers as numbers: QueryRun.table asks for that).
import { DateTime } from 'luxon';

const DATETIME_TYPE = /^(?:Nullable\()?DateTime(?:64)?\((?:\d+\s*,\s*)?'([^']+)'\)\)?$|^(?:Nullable\()?DateTime(?:64)?(?:\(\d+\))?\)?$/;

/** A converter for one column's values, or undefined when they pass through. */
export function valueReader(type: string): ((value: unknown) => unknown) | undefined {
  // An array of instants reads each item the same way (PostHog's JSON writes every datetime in ISO).
  const item = /^Array\((.*)\)$/.exec(type)?.[1];
  if (item !== undefined) {
    const readItem = valueReader(item);
    return readItem && ((value) => (Array.isArray(value) ? value.map(readItem) : value));
  }
  // A tuple reads each of its items by that item's type (tumble() gives two instants).
  const items = /^Tuple\((.*)\)$/.exec(/^Nullable\((.*)\)$/.exec(type)?.[1] ?? type)?.[1];
  if (items !== undefined) {
    const readers = topLevelTypes(items).map(valueReader);
    if (readers.every((r) => r === undefined)) return undefined;
    return (value) => (Array.isArray(value) ? value.map((v, i) => (readers[i] ? readers[i]!(v) : v)) : value);
  }
  const match = DATETIME_TYPE.exec(type);
  if (!match) return undefined;
  const zone = match[1] ?? 'UTC';
  return (value) => (typeof value === 'string' ? isoInstant(value, zone) : value);
}

/** `A, B(x, y), C` -> ['A', 'B(x, y)', 'C']: commas outside parentheses and quotes. */
function topLevelTypes(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === "'" && list[i - 1] !== '\\') quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')') depth--;
    else if (!quoted && depth === 0 && c === ',') {
      parts.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(list.slice(start).trim());
  return parts;
}

function isoInstant(text: string, zone: string): string {
  const parsed = DateTime.fromSQL(text, { zone });
  if (!parsed.isValid) return text;
  const fraction = /\.(\d+)$/.exec(text)?.[1];
  const micros = fraction && /[1-9]/.test(fraction) ? `.${fraction.padEnd(6, '0').slice(0, 6)}` : '';
  const offset = parsed.offset === 0 ? 'Z' : parsed.toFormat('ZZ');
  return `${parsed.toFormat("yyyy-MM-dd'T'HH:mm:ss")}${micros}${offset}`;
}

/** Rows with each column's values converted. */
export function readRows(types: readonly string[], rows: readonly unknown[][]): unknown[][] {
  const readers = types.map(valueReader);
  if (readers.every((r) => r === undefined)) return rows as unknown[][];
  return rows.map((row) => row.map((value, i) => (readers[i] ? readers[i]!(value) : value)));
}

/** A tuple value as the engine writes it in JSON: an array, or an object when its items are named. */
export const tupleValues = (value: unknown): unknown[] => (Array.isArray(value) ? value : value !== null && typeof value === 'object' ? Object.values(value) : []);
