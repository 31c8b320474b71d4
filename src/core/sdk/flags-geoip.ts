// The request's place as person properties for flag matching, as PostHog's flags service adds it
// (`get_person_property_overrides`, rust/feature-flags handler/properties.rs, with common/geoip's
// seven keys): looked up from the client's address unless the body says `geoip_disable: true`.
// The lookup only fills gaps: a `$geoip_*` key the caller sent (not null) is kept, since for a
// server SDK that does not forward its visitor's address the request's address is its own server.
// Nothing here can fail a request: no database, no address or a failed lookup adds nothing.
import { plainAddress } from '../geoip/client-ip.js';
import type { GeoIpDatabase } from '../geoip/database.js';

/** The keys PostHog's flags service adds (strings only), each as `$geoip_<key>`. */
const FLAG_GEOIP_KEYS = ['country_name', 'city_name', 'country_code', 'continent_name', 'continent_code', 'postal_code', 'time_zone'] as const;

/** The person properties to match with: the caller's, with the request's place in their gaps. */
export async function withRequestLocation(
  personProperties: Record<string, unknown>,
  clientIp: string | null,
  database: GeoIpDatabase | null,
): Promise<Record<string, unknown>> {
  if (database === null || clientIp === null) return personProperties;
  try {
    const address = plainAddress(clientIp);
    if (address === null) return personProperties;
    if (database.needsLoad(address)) await database.load(address);
    const location = database.locate(address);
    if (location === null) return personProperties;
    let merged: Record<string, unknown> | null = null;
    for (const key of FLAG_GEOIP_KEYS) {
      const value = location[key];
      const name = `$geoip_${key}`;
      if (typeof value !== 'string' || (personProperties[name] !== undefined && personProperties[name] !== null)) continue;
      (merged ??= { ...personProperties })[name] = value;
    }
    return merged ?? personProperties;
  } catch {
    return personProperties; // evaluated without the place, never a failed request
  }
}
