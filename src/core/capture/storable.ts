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
 * so a well-formed event costs one walk without allocations, and only a broken one is copied.
 */
export function storableValue(value: unknown, maxDepth = MAX_EVENT_DEPTH): unknown {
  return isStorable(value, 0, maxDepth) ? value : repaired(value);
}

/** Whether nothing in the value needs repair; throws past maxDepth. */
function isStorable(value: unknown, depth: number, maxDepth: number): boolean {
  if (typeof value === 'string') return value.isWellFormed();
  if (typeof value !== 'object' || value === null) return true;
  if (depth >= maxDepth) {
    throw new InvalidPayloadError(`Invalid payload: an event nests objects or arrays more than ${maxDepth} levels deep.`);
  }
  let storable = true;
  if (Array.isArray(value)) {
    for (const item of value) storable = isStorable(item, depth + 1, maxDepth) && storable;
  } else {
    // JSON.parse makes plain objects: every enumerable key is its own.
    for (const key in value) storable = key.isWellFormed() && isStorable((value as Record<string, unknown>)[key], depth + 1, maxDepth) && storable;
  }
  return storable;
}

/** A copy with lone surrogates replaced (depth was checked by isStorable). */
function repaired(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed();
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(repaired);
  // fromEntries defines keys (a `__proto__` key stays data); a repaired key that now equals
  // another takes the later value, as JSON.parse does with repeated keys.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.toWellFormed(), repaired(item)]));
}
