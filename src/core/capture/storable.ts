// Makes a client's event storable before it reaches the group commit, where one unstorable value
// would otherwise fail the insert it shares with other requests. Two things are repaired or
// refused here:
// - lone UTF-16 surrogates (legal in JSON text, `"\ud800"`): ClickHouse refuses them in
//   JSONEachRow, so they become U+FFFD, in keys and values alike, as PostHog's capture does;
// - nesting deeper than the event can be serialised again (JSON.stringify overflows the stack
//   where JSON.parse did not): refused, as PostHog's capture parser refuses depth past 128.
import { InvalidPayloadError } from './capture-errors.js';

/** Levels of objects and arrays one event may nest (PostHog's serde_json stops a whole body at 128). */
export const MAX_EVENT_DEPTH = 100;

/**
 * The value with every lone surrogate replaced by U+FFFD; the same object when nothing needed it,
 * so well-formed events cost one walk and no copies.
 */
export function storableValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.isWellFormed() ? value : value.toWellFormed();
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_EVENT_DEPTH) {
    throw new InvalidPayloadError(`Invalid payload: an event nests objects or arrays more than ${MAX_EVENT_DEPTH} levels deep.`);
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item = storableValue(value[i], depth + 1);
      if (item !== value[i]) (copy ??= value.slice())[i] = item;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let changed = false;
  const items = keys.map((key) => {
    const item = storableValue(record[key], depth + 1);
    if (item !== record[key] || !key.isWellFormed()) changed = true;
    return item;
  });
  // fromEntries defines keys (a `__proto__` key stays data); a repaired key that now equals
  // another takes the later value, as JSON.parse does with repeated keys.
  return changed ? Object.fromEntries(keys.map((key, i) => [key.toWellFormed(), items[i]])) : record;
}
