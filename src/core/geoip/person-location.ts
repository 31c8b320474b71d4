// The person side of GeoIP, as PostHog's transformation gives it through the event's `$set` and
// `$set_once`: every known key (null where the lookup found nothing, so a move to a country-only
// address clears the old city) as `$geoip_<key>`, and once as `$initial_geoip_<key>`. Hoglet
// derives them from the located event's own `$geoip_*` properties when the person is processed,
// instead of storing ~1.2 KB of `$set` / `$set_once` copies in every event (docs/geoip.md).
import { GEOIP_KEYS } from './location.js';

type Properties = Record<string, unknown>;

/** A MaxMind record may hold a third subdivision: passed on when found, never nulled. */
const KEYS = [...GEOIP_KEYS, 'subdivision_3_name', 'subdivision_3_code'].map((key) => ({
  latest: `$geoip_${key}`,
  initial: `$initial_geoip_${key}`,
  always: (GEOIP_KEYS as readonly string[]).includes(key),
}));

/**
 * The address whose location each person's properties last received, keyed by the properties
 * object itself: as PostHog's legacy GeoIP plugin did, an event from that same address skips the
 * person's 30 updates (they would change nothing). The memory lives as long as that object: a
 * person that falls out of capture's person cache (100 000 persons), is merged or is read again
 * after a restart starts afresh, and its next located event applies the updates again (harmless).
 */
const lastLocated = new WeakMap<Properties, string>();

/** Whether the event's location is the one this person last received (call before the updates). */
export function locatedAsLast(person: Properties, event: Properties): boolean {
  const ip = event.$ip;
  return typeof ip === 'string' && lastLocated.get(person) === ip;
}

/** Remembers the address after its location was applied (located events only). */
export function rememberLocated(person: Properties, event: Properties): void {
  if (typeof event.$ip === 'string') lastLocated.set(person, event.$ip);
}

/** After an event's own `$set` / `$set_once` / `$unset` touched a location key: apply the next in full. */
export function forgetLocated(person: Properties): void {
  lastLocated.delete(person);
}

/** Whether a client's `$set` / `$set_once` / `$unset` keys include a location key. */
export function touchesLocation(keys: Iterable<unknown>): boolean {
  for (const key of keys) if (typeof key === 'string' && (key.startsWith('$geoip_') || key.startsWith('$initial_geoip_'))) return true;
  return false;
}

/**
 * `$set_once` of the location: call before the event's own `$set_once` (the transformation's
 * values take the keys they share). Values are strings, numbers or null. Says whether any changed.
 */
export function applyInitialLocation(person: Properties, event: Properties): boolean {
  let changed = false;
  for (const key of KEYS) {
    const value = event[key.latest];
    if ((value === undefined && !key.always) || Object.hasOwn(person, key.initial)) continue;
    person[key.initial] = value ?? null;
    changed = true;
  }
  return changed;
}

/** `$set` of the location: call after the event's own `$set` (the transformation's values win). */
export function applyLatestLocation(person: Properties, event: Properties): boolean {
  let changed = false;
  for (const key of KEYS) {
    const value = event[key.latest];
    if (value === undefined && !key.always) continue;
    if (person[key.latest] === (value ?? null) && Object.hasOwn(person, key.latest)) continue;
    person[key.latest] = value ?? null;
    changed = true;
  }
  return changed;
}
