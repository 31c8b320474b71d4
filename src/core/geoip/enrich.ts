// What capture does with the client's address, in PostHog's order: `$ip` from the request unless
// the event has one (ingestion's normalizeEvent), removed for projects that discard IPs (newest
// PostHog: before any transformation, so those projects get no location either), then the GeoIP
// transformation: `$geoip_*` on the event (and, from those, on the person: person-location.ts).
import type { GeoLocation, GEOIP_KEYS } from './location.js';

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
 * Adds a prepared location to an event's properties, in place, one named store per key locationOf()
 * can give (location.ts). Not Object.assign() nor a copy: ten keys added that way turned every
 * posthog-js event's properties into a slow-mode object, whose JSON (the capture log's, the
 * insert's) took twice as long, and a copy of ~70 keys costs more than the stores (issue 30).
 */
export function addLocation(properties: Properties, prepared: PreparedLocation): void {
  const p = prepared as Partial<Record<LocationKey, string | number>>;
  if (p.$geoip_city_name !== undefined) properties.$geoip_city_name = p.$geoip_city_name;
  if (p.$geoip_city_confidence !== undefined) properties.$geoip_city_confidence = p.$geoip_city_confidence;
  if (p.$geoip_subdivision_1_name !== undefined) properties.$geoip_subdivision_1_name = p.$geoip_subdivision_1_name;
  if (p.$geoip_subdivision_1_code !== undefined) properties.$geoip_subdivision_1_code = p.$geoip_subdivision_1_code;
  if (p.$geoip_subdivision_2_name !== undefined) properties.$geoip_subdivision_2_name = p.$geoip_subdivision_2_name;
  if (p.$geoip_subdivision_2_code !== undefined) properties.$geoip_subdivision_2_code = p.$geoip_subdivision_2_code;
  if (p.$geoip_subdivision_3_name !== undefined) properties.$geoip_subdivision_3_name = p.$geoip_subdivision_3_name;
  if (p.$geoip_subdivision_3_code !== undefined) properties.$geoip_subdivision_3_code = p.$geoip_subdivision_3_code;
  if (p.$geoip_country_name !== undefined) properties.$geoip_country_name = p.$geoip_country_name;
  if (p.$geoip_country_code !== undefined) properties.$geoip_country_code = p.$geoip_country_code;
  if (p.$geoip_continent_name !== undefined) properties.$geoip_continent_name = p.$geoip_continent_name;
  if (p.$geoip_continent_code !== undefined) properties.$geoip_continent_code = p.$geoip_continent_code;
  if (p.$geoip_postal_code !== undefined) properties.$geoip_postal_code = p.$geoip_postal_code;
  if (p.$geoip_latitude !== undefined) properties.$geoip_latitude = p.$geoip_latitude;
  if (p.$geoip_longitude !== undefined) properties.$geoip_longitude = p.$geoip_longitude;
  if (p.$geoip_accuracy_radius !== undefined) properties.$geoip_accuracy_radius = p.$geoip_accuracy_radius;
  if (p.$geoip_time_zone !== undefined) properties.$geoip_time_zone = p.$geoip_time_zone;
}

/** Every key a location can have (GEOIP_KEYS and a third subdivision), as addLocation() stores them. */
export type LocationKey = `$geoip_${(typeof GEOIP_KEYS)[number] | 'subdivision_3_name' | 'subdivision_3_code'}`;
