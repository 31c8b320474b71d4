// The person's last located address (person-location.ts): an event from the address whose place the
// person already has skips the 30 updates, as PostHog's legacy GeoIP plugin did, yet the person
// ends up exactly as if every located event had applied them (PostHog's transformation).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPersonUpdates } from '../../src/core/capture/persons/property-updates.js';
import type { CapturedEvent } from '../../src/core/capture/types.js';
import { CaptureGeoIp } from '../../src/core/geoip/capture-geoip.js';
import { GeoIpDatabase } from '../../src/core/geoip/database.js';
import { RecentMap } from '../../src/core/geoip/recent-map.js';
import { capturedEvent } from '../helpers/ingest.js';
import { mmdbByFirstOctet } from './mmdb-fixture.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-geoip-memory-'));
const file = path.join(dir, 'City.mmdb');
fs.writeFileSync(
  file,
  mmdbByFirstOctet({
    81: { country: { iso_code: 'GB', names: { en: 'United Kingdom' } }, city: { names: { en: 'London' } } },
    5: { country: { iso_code: 'DE', names: { en: 'Germany' } }, city: { names: { en: 'Berlin' } } },
  }),
);
const geoip = new CaptureGeoIp(new GeoIpDatabase([{ path: file }]), async () => false);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Captures one event through the GeoIP step and applies it to the person, as capture does. */
async function send(person: Record<string, unknown>, properties: Record<string, unknown>): Promise<CapturedEvent> {
  const event = capturedEvent('$pageview', 'visitor', properties);
  await geoip.apply(1, [event], null);
  applyPersonUpdates(person, event.properties, event.located === true);
  return event;
}

describe("the person's last located address", () => {
  it('skips the updates for an event from the same address (nothing would change)', async () => {
    const person: Record<string, unknown> = {};
    await send(person, { $ip: '81.2.69.142' });
    expect(person).toMatchObject({ $geoip_city_name: 'London', $initial_geoip_city_name: 'London' });
    // Same address, so not read again: a value no lookup gives (only a client could send it) stays out.
    const event = capturedEvent('$pageview', 'visitor', { $ip: '81.2.69.142', $geoip_city_name: 'Elsewhere' });
    expect(applyPersonUpdates(person, event.properties, true)).toBe(false);
    expect(person.$geoip_city_name).toBe('London');
  });

  it('applies a new address, and the old one again after it', async () => {
    const person: Record<string, unknown> = {};
    await send(person, { $ip: '81.2.69.142' });
    await send(person, { $ip: '5.9.0.1' });
    expect(person).toMatchObject({ $geoip_city_name: 'Berlin', $geoip_country_code: 'DE', $initial_geoip_city_name: 'London' });
    await send(person, { $ip: '81.2.69.142' });
    expect(person).toMatchObject({ $geoip_city_name: 'London', $geoip_country_code: 'GB', $initial_geoip_city_name: 'London' });
  });

  it("puts the transformation's values back over a client's $set of a location key, from the same address", async () => {
    const person: Record<string, unknown> = {};
    await send(person, { $ip: '81.2.69.142' });
    await send(person, { $geoip_disable: true, $set: { $geoip_city_name: 'Manual' } });
    expect(person.$geoip_city_name).toBe('Manual');
    await send(person, { $ip: '81.2.69.142' });
    expect(person.$geoip_city_name).toBe('London');
  });

  it("restores keys a client's $unset removed, and a located event's own $set loses to the lookup", async () => {
    const person: Record<string, unknown> = {};
    await send(person, { $ip: '81.2.69.142' });
    await send(person, { $ip: '81.2.69.142', $unset: ['$geoip_city_name', '$initial_geoip_city_name'] });
    expect(person).not.toHaveProperty('$geoip_city_name');
    await send(person, { $ip: '81.2.69.142', $set: { $geoip_country_code: 'FR' } });
    expect(person).toMatchObject({ $geoip_city_name: 'London', $geoip_country_code: 'GB', $initial_geoip_city_name: 'London' });
  });

  it('is per person: a merged or re-read person (a new properties object) gets the updates again', async () => {
    const person: Record<string, unknown> = {};
    await send(person, { $ip: '81.2.69.142' });
    const reread: Record<string, unknown> = { ...person, $geoip_city_name: 'Stale' };
    await send(reread, { $ip: '81.2.69.142' });
    expect(reread.$geoip_city_name).toBe('London');
  });
});

describe('RecentMap (the address and place caches)', () => {
  it('keeps at most its bound, and an entry read since the last turn survives the next', () => {
    const map = new RecentMap<string, number>(4);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3); // the first generation (2 entries) turns
    expect(map.get('a')).toBe(1); // read: moved forward (the generation turns again)
    map.set('d', 4);
    map.set('e', 5);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([1, undefined, undefined]);
    expect([map.get('d'), map.get('e')]).toEqual([4, 5]);
  });
});
