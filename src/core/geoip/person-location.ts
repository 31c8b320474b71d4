// The person side of GeoIP, as PostHog's transformation gives it through the event's `$set` and
// `$set_once`: every known key (null where the lookup found nothing, so a move to a country-only
// address clears the old city) as `$geoip_<key>`, and once as `$initial_geoip_<key>`. Hoglet
// derives them from the located event's own `$geoip_*` properties when the person is processed,
// instead of storing ~1.2 KB of `$set` / `$set_once` copies in every event (docs/geoip.md).
import { GEOIP_KEYS } from './location.js';

type Properties = Record<string, unknown>;

/** A MaxMind record may hold a third subdivision: passed on when found, never nulled. */
const KEYS = [...GEOIP_KEYS, 'subdivision_3_name', 'subdivision_3_code'].map((key) => ({
  event: `$geoip_${key}`,
  initial: `$initial_geoip_${key}`,
  always: (GEOIP_KEYS as readonly string[]).includes(key),
}));

/** Writes the location's person updates into `set` and `setOnce` (over what is there). */
export function locationPersonUpdates(eventProperties: Properties, set: Properties, setOnce: Properties): void {
  for (const key of KEYS) {
    const value = eventProperties[key.event];
    if (value === undefined && !key.always) continue;
    set[key.event] = value ?? null;
    setOnce[key.initial] = value ?? null;
  }
}
