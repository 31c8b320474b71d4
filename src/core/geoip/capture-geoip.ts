// Capture's GeoIP step, between normalisation and the capture log: the events that are logged (and
// acknowledged) carry `$ip` and their location, so a replay stores exactly what was acknowledged.
// Nothing here can fail a request: a lookup that throws or finds nothing leaves the event as it is.
import type { CapturedEvent } from '../capture/types.js';
import { plainAddress } from './client-ip.js';
import type { GeoIpDatabase } from './database.js';
import type { GeoLocation } from './location.js';
import { addLocation, applyClientIp, prepareLocation, type PreparedLocation } from './enrich.js';
import { RecentMap } from './recent-map.js';

/**
 * A visitor sends many events from one address: each address is looked up once while it stays
 * among the most recent ones, and each place is prepared once (shared by its addresses).
 */
const CACHED_ADDRESSES = 50_000;
const CACHED_PLACES = 20_000;

export class CaptureGeoIp {
  // Two plain Maps each (recent-map.ts): a read is a Map lookup, with no list to reorder.
  private readonly byAddress = new RecentMap<string, { prepared: PreparedLocation | null }>(CACHED_ADDRESSES);
  /** Keyed by the database's location object, one per cached record (database.ts). */
  private readonly byPlace = new RecentMap<GeoLocation, PreparedLocation>(CACHED_PLACES);

  constructor(
    /** Null: GeoIP is turned off (events still get `$ip`). */
    private readonly database: GeoIpDatabase | null,
    /** The project's `anonymize_ips` setting ("Discard client IP data"). */
    private readonly anonymizesIps: (teamId: number) => Promise<boolean>,
  ) {}

  /** Sets `$ip` from the request's address (unless sent) and adds the location, in place. */
  async apply(teamId: number, events: readonly CapturedEvent[], clientIp: string | null): Promise<void> {
    const anonymize = await this.anonymizesIps(teamId);
    const database = this.database;
    // Most events come from an address seen moments ago: answered from the cache, nothing parsed.
    let misses: Array<{ event: CapturedEvent; ip: string }> | null = null;
    // A browser's batch comes from one address: the previous event's answer serves the next.
    let lastIp: string | null = null;
    let cached: { prepared: PreparedLocation | null } | undefined;
    for (const event of events) {
      const ip = applyClientIp(event.properties, clientIp, anonymize);
      if (ip === null || database === null) continue;
      if (ip !== lastIp) {
        cached = this.byAddress.get(ip);
        lastIp = ip;
      }
      if (cached === undefined) (misses ??= []).push({ event, ip });
      else if (cached.prepared) locate(event, cached.prepared);
    }
    if (misses !== null && database !== null) await this.locateMisses(database, misses).catch(() => {});
  }

  /** Looks up what the cache did not know; never throws (an event without a location is stored as it is). */
  private async locateMisses(database: GeoIpDatabase, misses: Array<{ event: CapturedEvent; ip: string }>): Promise<void> {
    // A file loads once (preload() after start, or here on first need); later requests never wait.
    const addresses = misses.map(({ ip }) => plainAddress(ip));
    const loads = addresses.filter((a): a is string => a !== null && database.needsLoad(a));
    if (loads.length > 0) await Promise.all(loads.map((address) => database.load(address)));
    misses.forEach(({ event, ip }, i) => {
      try {
        const address = addresses[i];
        const prepared = address ? this.prepared(database, address) : null;
        this.byAddress.set(ip, { prepared });
        if (prepared) locate(event, prepared);
      } catch {
        // Never fails capture: the event is stored without a location.
      }
    });
  }

  /** The location of a plain address (each place prepared once, shared by its addresses). */
  private prepared(database: GeoIpDatabase, address: string): PreparedLocation | null {
    const location = database.locate(address);
    if (!location) return null;
    let prepared = this.byPlace.get(location);
    if (prepared === undefined) {
      prepared = prepareLocation(location);
      this.byPlace.set(location, prepared);
    }
    return prepared;
  }
}

function locate(event: CapturedEvent, prepared: PreparedLocation): void {
  addLocation(event.properties, prepared);
  event.located = true;
}

