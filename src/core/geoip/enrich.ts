// What capture does with the client's address, in PostHog's order: `$ip` from the request unless
// the event has one (ingestion's normalizeEvent), removed for projects that discard IPs (newest
// PostHog: before any transformation, so those projects get no location either), then the GeoIP
// transformation: `$geoip_*` on the event (and, from those, on the person: person-location.ts).
import type { GeoLocation } from './location.js';

type Properties = Record<string, unknown>;

/**
 * Sets or removes `$ip`; returns the `$ip` to locate as sent (plainAddress() reads it), or null
 * when the event gets no location.
 */
export function applyClientIp(properties: Properties, clientIp: string | null, anonymizeIps: boolean): string | null {
  if (!properties.$ip && clientIp !== null) properties.$ip = clientIp;
  if (anonymizeIps) {
    delete properties.$ip;
    return null;
  }
  if (properties.$geoip_disable) return null;
  const ip = properties.$ip;
  // No address is longer (`[ipv6]:port`); anything longer is not looked up, nor kept in the cache.
  return typeof ip === 'string' && ip !== '' && ip.length <= MAX_ADDRESS_CHARS ? ip : null;
}

const MAX_ADDRESS_CHARS = 64;

/** A location as capture adds it to the event: `$geoip_<key>` for each key the lookup found. */
export type PreparedLocation = Readonly<Record<string, string | number>>;

/** Built once per place; the person's `$set` / `$set_once` follow from these (person-location.ts). */
export function prepareLocation(location: GeoLocation): PreparedLocation {
  return Object.fromEntries(Object.entries(location).map(([key, value]) => [`$geoip_${key}`, value]));
}

/**
 * The event's properties with a prepared location added, as a new object. Not in place: the ten
 * keys added to the object capture normalised (a copy of the sent one, sized to its keys) turn it
 * into a slow-mode object, and every later step that serialises it (the capture log, the insert)
 * then takes V8's slow JSON path, about twice the cost of a fresh object's.
 */
export function withLocation(properties: Properties, prepared: PreparedLocation): Properties {
  return { ...properties, ...prepared };
}
