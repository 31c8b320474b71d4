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

/** Adds a prepared location to an event's properties, in place. */
export function addLocation(properties: Properties, prepared: PreparedLocation): void {
  Object.assign(properties, prepared);
}
