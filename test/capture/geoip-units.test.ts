// The pieces of GeoIP at capture that need no server: which address is the client's (proxy trust,
// ports, IPv4-mapped IPv6), and the location keys read from both record layouts (MaxMind's
// GeoIP2/GeoLite2 City, as its reader decodes it, and @ip-location-db's flat one).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CaptureLog } from '../../src/core/capture/log/capture-log.js';
import { applyPersonUpdates } from '../../src/core/capture/persons/property-updates.js';
import { CaptureGeoIp } from '../../src/core/geoip/capture-geoip.js';
import { GeoIpDatabase } from '../../src/core/geoip/database.js';
import { clientAddress, plainAddress, proxyTrust } from '../../src/core/geoip/client-ip.js';
import { locationOf } from '../../src/core/geoip/location.js';
import { loadConfig } from '../../src/config.js';
import { capturedEvent } from '../helpers/ingest.js';
import { mmdbByFirstOctet } from './mmdb-fixture.js';

describe('the client address', () => {
  const defaults = proxyTrust('loopback,uniquelocal');

  it('is the socket peer when there is no X-Forwarded-For, or the peer is not a trusted proxy', () => {
    expect(clientAddress('81.2.69.142', undefined, defaults)).toBe('81.2.69.142');
    expect(clientAddress('81.2.69.142', '8.8.8.8', defaults)).toBe('81.2.69.142');
  });

  it("is X-Forwarded-For's leftmost address when the peer is on loopback or a private network", () => {
    expect(clientAddress('127.0.0.1', '8.8.8.8, 10.0.0.2', defaults)).toBe('8.8.8.8');
    expect(clientAddress('::ffff:10.1.2.3', '5.9.0.1', defaults)).toBe('5.9.0.1');
    expect(clientAddress('192.168.1.1', ['89.160.20.129, 172.16.0.1', '10.0.0.9'], defaults)).toBe('89.160.20.129');
    expect(clientAddress('fd00::1', '2001:4860:4860::8888', defaults)).toBe('2001:4860:4860::8888');
  });

  it('falls back to the peer when the leftmost entry is not an address', () => {
    expect(clientAddress('127.0.0.1', 'unknown, 8.8.8.8', defaults)).toBe('127.0.0.1');
  });

  it('follows HOGLET_TRUST_PROXY when it is set (true, false, ranges), else trusts loopback and private peers', () => {
    const trust = (env: Record<string, string>) => proxyTrust(loadConfig({}, env).captureTrustProxy);
    expect(clientAddress('127.0.0.1', '8.8.8.8', trust({}))).toBe('8.8.8.8');
    expect(clientAddress('127.0.0.1', '8.8.8.8', trust({ HOGLET_TRUST_PROXY: 'false' }))).toBe('127.0.0.1');
    expect(clientAddress('81.2.69.142', '8.8.8.8', trust({ HOGLET_TRUST_PROXY: 'true' }))).toBe('8.8.8.8');
    expect(clientAddress('81.2.69.142', '8.8.8.8', trust({ HOGLET_TRUST_PROXY: '81.2.69.0/24' }))).toBe('8.8.8.8');
    expect(clientAddress('10.0.0.1', '8.8.8.8', trust({ HOGLET_TRUST_PROXY: '81.2.69.0/24' }))).toBe('10.0.0.1');
  });

  // posthog/test/test_utils.py, TestGetIpAddress (PostHog trusts X-Forwarded-For from anyone:
  // HOGLET_TRUST_PROXY=true here). [REMOTE_ADDR, X-Forwarded-For, expected ('' for none)]
  const POSTHOG_GET_IP_ADDRESS: Array<[string | undefined, string | undefined, string]> = [
    ['192.168.1.1', undefined, '192.168.1.1'],
    ['8.8.8.8', undefined, '8.8.8.8'],
    [undefined, '192.168.1.1', '192.168.1.1'],
    [undefined, '192.168.1.1, 10.0.0.1', '192.168.1.1'],
    [undefined, ' 192.168.1.1 , 10.0.0.1', '192.168.1.1'],
    [undefined, '192.168.1.1:8080', '192.168.1.1'],
    ['::1', undefined, '::1'],
    ['2001:db8::1', undefined, '2001:db8::1'],
    [undefined, '[2001:db8::1]:8080', '2001:db8::1'],
    [undefined, '[::1]:443', '::1'],
    [undefined, '[2001:db8::1]', '2001:db8::1'],
    [undefined, 'not-an-ip', ''],
    [undefined, '192.168.1', ''],
    [undefined, 'malicious.payload.here', ''],
    [undefined, undefined, ''],
    [undefined, '', ''],
    ['', undefined, ''],
  ];
  it.each(POSTHOG_GET_IP_ADDRESS)("test_get_ip_address(%j, %j) is %j", (peer, forwardedFor, expected) => {
    expect(clientAddress(peer, forwardedFor, proxyTrust(true)) ?? '').toBe(expected);
  });

  it('is plain: no port, no brackets, IPv4-mapped IPv6 as IPv4', () => {
    expect(plainAddress('81.2.69.142:51234')).toBe('81.2.69.142');
    expect(plainAddress('[2001:db8::1]:443')).toBe('2001:db8::1');
    expect(plainAddress('::FFFF:5.9.0.1')).toBe('5.9.0.1');
    expect(plainAddress(' 2001:DB8::1 ')).toBe('2001:db8::1');
    expect(plainAddress('not-an-ip')).toBeNull();
  });
});

describe('HOGLET_GEOIP_DATABASE', () => {
  it('is the bundled database by default, off, or .mmdb paths', () => {
    expect(loadConfig({}, {}).geoipDatabase).toBe('bundled');
    expect(loadConfig({}, { HOGLET_GEOIP_DATABASE: 'OFF' }).geoipDatabase).toBe('off');
    expect(loadConfig({}, { HOGLET_GEOIP_DATABASE: '/srv/GeoLite2-City.mmdb' }).geoipDatabase).toEqual(['/srv/GeoLite2-City.mmdb']);
    expect(() => loadConfig({}, { HOGLET_GEOIP_DATABASE: '/srv/geo.csv' })).toThrow(/HOGLET_GEOIP_DATABASE/);
  });
});

describe('location keys', () => {
  it("reads MaxMind's City layout as PostHog's transformation does (subdivisions numbered from 1)", () => {
    // 89.160.20.129 in MaxMind's GeoIP2 City test database, as PostHog's plugin test shows it.
    const record = {
      city: { geoname_id: 2694762, names: { en: 'Linköping', de: 'Linköping' } },
      continent: { code: 'EU', geoname_id: 6255148, names: { en: 'Europe' } },
      country: { geoname_id: 2661886, iso_code: 'SE', names: { en: 'Sweden' } },
      location: { accuracy_radius: 76, latitude: 58.4167, longitude: 15.6167, time_zone: 'Europe/Stockholm' },
      subdivisions: [{ geoname_id: 2685867, iso_code: 'E', names: { en: 'Östergötland County' } }],
    };
    expect(locationOf(record)).toEqual({
      city_name: 'Linköping',
      country_name: 'Sweden',
      country_code: 'SE',
      continent_name: 'Europe',
      continent_code: 'EU',
      latitude: 58.4167,
      longitude: 15.6167,
      accuracy_radius: 76,
      time_zone: 'Europe/Stockholm',
      subdivision_1_code: 'E',
      subdivision_1_name: 'Östergötland County',
    });
  });

  it('reads a country-only MaxMind record', () => {
    expect(locationOf({ continent: { code: 'NA', names: { en: 'North America' } }, country: { iso_code: 'US', names: { en: 'United States' } } })).toEqual({
      country_name: 'United States',
      country_code: 'US',
      continent_name: 'North America',
      continent_code: 'NA',
    });
  });

  it("derives the flat layout's names: country (CLDR), continent (as MaxMind files it), time zone from the coordinates", () => {
    const record = { city: 'Moscow', country_code: 'RU', latitude: 55.75579833984375, longitude: 37.61759948730469, postcode: '', state1: 'Moscow', state2: '', timezone: '' };
    expect(locationOf(record)).toEqual({
      city_name: 'Moscow',
      subdivision_1_name: 'Moscow',
      country_name: 'Russia',
      country_code: 'RU',
      continent_name: 'Europe',
      continent_code: 'EU',
      latitude: 55.7558,
      longitude: 37.6176,
      time_zone: 'Europe/Moscow',
    });
    expect(locationOf({ country_code: 'GB', city: '', state1: '', state2: '', postcode: 'EC2', timezone: 'Europe/London' })).toEqual({
      country_name: 'United Kingdom',
      country_code: 'GB',
      continent_name: 'Europe',
      continent_code: 'EU',
      postal_code: 'EC2',
      time_zone: 'Europe/London',
    });
  });

  it('finds nothing in a record without a place', () => {
    expect(locationOf({})).toEqual({});
    expect(locationOf({ autonomous_system_number: 15169 })).toEqual({});
  });
});

describe('a located event', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-geoip-units-'));
  const file = path.join(dir, 'City.mmdb');
  fs.writeFileSync(file, mmdbByFirstOctet({ 81: { country: { iso_code: 'GB', names: { en: 'United Kingdom' } }, city: { names: { en: 'London' } } } }));
  const geoip = new CaptureGeoIp(new GeoIpDatabase([{ path: file }]), async () => false);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps its mark through the capture log, so a replay updates the person the same way', async () => {
    const event = capturedEvent('$pageview', 'visitor', { $ip: '81.2.69.142' });
    await geoip.apply(1, [event], null);
    expect(event).toMatchObject({ located: true, properties: { $geoip_country_code: 'GB', $geoip_city_name: 'London' } });
    const logDir = path.join(dir, 'log');
    const first = await CaptureLog.open(logDir);
    await first.log.append([{ teamId: 1, events: [event] }]);
    await first.log.close();
    const second = await CaptureLog.open(logDir);
    const [replayed] = second.pending[0]!.items[0]!.events;
    await second.log.close();
    expect(replayed).toEqual(event);
    const person: Record<string, unknown> = {};
    expect(applyPersonUpdates(person, replayed!.properties, replayed!.located === true)).toBe(true);
    expect(person).toMatchObject({ $geoip_country_code: 'GB', $geoip_city_name: 'London', $geoip_postal_code: null, $initial_geoip_city_name: 'London' });
  });

  it("gives the person the transformation's values over the client's own $set, and $set_once keeps the first", () => {
    const person: Record<string, unknown> = { $initial_geoip_city_name: 'Paris' };
    const properties = { $geoip_city_name: 'London', $set: { $geoip_city_name: 'Nowhere', plan: 'pro' } };
    applyPersonUpdates(person, properties, true);
    expect(person).toMatchObject({ $geoip_city_name: 'London', plan: 'pro', $initial_geoip_city_name: 'Paris', $geoip_country_code: null });
    // Nothing changes when the same place comes again.
    expect(applyPersonUpdates(person, { $geoip_city_name: 'London' }, true)).toBe(false);
  });

  it('a client-sent $ip with a port, or IPv4-mapped, is located; one equal to a cached miss is not looked up again', async () => {
    const events = [capturedEvent('a', 'x', { $ip: '81.2.69.142:4433' }), capturedEvent('b', 'x', { $ip: '::ffff:81.2.69.142' }), capturedEvent('c', 'x', { $ip: '82.1.1.1' })];
    await geoip.apply(1, events, null);
    expect(events.map((e) => e.properties.$geoip_country_code ?? null)).toEqual(['GB', 'GB', null]);
    expect(events.map((e) => e.properties.$ip)).toEqual(['81.2.69.142:4433', '::ffff:81.2.69.142', '82.1.1.1']);
  });

  it('a lookup that cannot be made never fails the request: an over-long or odd $ip is stored as sent', async () => {
    const long = `81.2.69.142${' '.repeat(100)}`;
    const events = [capturedEvent('a', 'x', { $ip: long }), capturedEvent('b', 'x', { $ip: 'fe80::1%eth0' }), capturedEvent('c', 'x', { $ip: 42 })];
    await geoip.apply(1, events, null);
    expect(events.map((e) => [e.properties.$ip, e.located ?? false])).toEqual([[long, false], ['fe80::1%eth0', false], [42, false]]);
  });
});
