// What GeoIP must not cost beyond its lookup (issue 30): a located event's properties stay an object
// V8 serialises on its fast path (the capture log and the insert both encode every event); a new
// address is checked and looked up without native calls per address, and an address of a record
// already read answers that record's location; a new visitor's person is written once, with its
// location, in the write that creates it.
import fs from 'node:fs';
import { BlockList, isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCaptureRequest } from '../../src/core/capture/decode.js';
import { normaliseEvents } from '../../src/core/capture/normalise.js';
import { PersonProcessor } from '../../src/core/capture/persons/person-processor.js';
import { CaptureGeoIp } from '../../src/core/geoip/capture-geoip.js';
import { GeoIpDatabase } from '../../src/core/geoip/database.js';
import { addLocation, prepareLocation } from '../../src/core/geoip/enrich.js';
import { locationOf } from '../../src/core/geoip/location.js';
import { routableVersion } from '../../src/core/geoip/reserved-addresses.js';
import type { PersonsRepository, PersonWrites } from '../../src/storage/events/persons-repository.js';
import { capturedEvent } from '../helpers/ingest.js';
import { mmdbByFirstOctet } from './mmdb-fixture.js';

// V8's own test of an object's mode (natives syntax, allowed for the functions compiled after this).
v8.setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;

/** A MaxMind City record with every key the transformation reads (fourteen `$geoip_*` keys). */
const LONDON = {
  city: { names: { en: 'London' } },
  continent: { code: 'EU', names: { en: 'Europe' } },
  country: { iso_code: 'GB', names: { en: 'United Kingdom' } },
  location: { accuracy_radius: 20, latitude: 51.5142, longitude: -0.0931, time_zone: 'Europe/London' },
  postal: { code: 'EC2V' },
  subdivisions: [{ iso_code: 'ENG', names: { en: 'England' } }, { iso_code: 'LND', names: { en: 'City of London' } }],
};

describe('a located event', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-geoip-cost-'));
  const file = path.join(dir, 'City.mmdb');
  fs.writeFileSync(file, mmdbByFirstOctet({ 81: LONDON, 5: { country: { iso_code: 'DE', names: { en: 'Germany' } } } }));
  const database = new GeoIpDatabase([{ path: file }]);
  const geoip = new CaptureGeoIp(database, async () => false);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("keeps properties V8 serialises on its fast path (Object.assign of the place made every posthog-js event's a slow-mode object)", async () => {
    const body = fs.readFileSync(new URL('../fixtures/capture/posthog-js-plain.json', import.meta.url));
    const payload = await decodeCaptureRequest({ method: 'POST', body, contentType: 'application/json', contentEncoding: undefined, query: {} });
    const events = normaliseEvents(payload, { nowUs: Date.now() * 1000, sentAt: payload.sentAt, historicalMigration: false });
    const sent = events.map((event) => ({ ...event.properties }));
    expect(events.every((event) => hasFastProperties(event.properties))).toBe(true);

    await geoip.apply(1, events, '81.2.69.142');

    expect(events.map((event) => [event.located, event.properties.$geoip_city_name, event.properties.$geoip_subdivision_2_code])).toEqual(
      events.map(() => [true, 'London', 'LND']),
    );
    expect(events.map((event) => hasFastProperties(event.properties))).toEqual(events.map(() => true));
    // Same keys in the same order as before: what was sent, `$ip`, then the place.
    events.forEach((event, i) => {
      const geoKeys = Object.keys(event.properties).filter((key) => key.startsWith('$geoip_'));
      expect(Object.keys(event.properties)).toEqual([...Object.keys(sent[i]!), '$ip', ...geoKeys]);
      expect(geoKeys).toHaveLength(14);
    });
  });
});

describe('a location', () => {
  it('is added whole: every key locationOf() can give is one addLocation() stores (a fourth subdivision is not read)', () => {
    const record = { ...LONDON, city: { names: { en: 'London' }, confidence: 50 }, subdivisions: [...LONDON.subdivisions, { iso_code: 'X3', names: { en: 'Third' } }, { iso_code: 'X4', names: { en: 'Fourth' } }] };
    const flat = { country_code: 'gb', state1: 'England', state2: 'Greater London', city: 'London', postcode: 'EC2V', latitude: 51.51, longitude: -0.09, timezone: 'Europe/London' };
    for (const source of [record, flat]) {
      const prepared = prepareLocation(locationOf(source));
      const properties: Record<string, unknown> = { $ip: '81.2.69.142' };
      addLocation(properties, prepared);
      expect(properties).toEqual({ $ip: '81.2.69.142', ...prepared });
    }
    expect(Object.keys(prepareLocation(locationOf(record)))).toEqual(expect.arrayContaining(['$geoip_subdivision_3_code', '$geoip_subdivision_3_name']));
    expect(Object.keys(prepareLocation(locationOf(record)))).not.toContain('$geoip_subdivision_4_code');
  });

  it('is the same object for every address of one record: a new address from a known place is a tree walk, not a decode', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-geoip-record-'));
    try {
      const file = path.join(dir, 'City.mmdb');
      fs.writeFileSync(file, mmdbByFirstOctet({ 81: LONDON }));
      const database = new GeoIpDatabase([{ path: file }]);
      await database.load('81.2.69.142');
      const first = database.locate('81.2.69.142');
      expect(first).toMatchObject({ city_name: 'London', country_code: 'GB' });
      expect(database.locate('81.200.1.1')).toBe(first);
      expect(database.locate('82.1.1.1')).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('reserved addresses', () => {
  // What the check was before (node:net's BlockList), kept here as the reference it must equal.
  const RANGES: Array<[string, number]> = [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
    ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
    ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
    ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32],
  ];
  const list = new BlockList();
  for (const [address, bits] of RANGES) list.addSubnet(address, bits, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  const reference = (address: string) => {
    const version = isIP(address);
    return version === 0 || list.check(address, version === 6 ? 'ipv6' : 'ipv4') ? 0 : version;
  };

  it("are told apart from routable ones exactly as node:net's BlockList tells them (range edges, IPv4-mapped, zones, random addresses)", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const v4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
    const hex = () => Math.floor(random() * 65536).toString(16);
    const addresses = ['::', '::1', '::2', '0:0:0:0:0:0:0:1', '::0.0.0.1', '::ffff:10.0.0.1', '::ffff:8.8.8.8', '::ffff:127.0.0.1', '::ffff:0:0',
      '64:ff9b::8.8.8.8', '2001:db8::1', '2001:db9::1', '2001:0DB8::1', 'FE80::1', 'fe80::1%eth0', '1::', '::1:0', '2001:4860:4860::8888', 'x', '1.2.3', ''];
    for (const [address, bits] of RANGES.slice(0, 14)) {
      const start = address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
      for (const n of [start - 1, start, start + 1, start + 2 ** (32 - bits) - 1, start + 2 ** (32 - bits)]) if (n >= 0 && n < 2 ** 32) addresses.push(v4(n));
    }
    for (let i = 0; i < 20_000; i++) addresses.push(v4(Math.floor(random() * 2 ** 32)));
    for (const first of ['fc00', 'fdff', 'fe80', 'febf', 'fec0', 'fbff', 'ff00', 'ffff', '2001', '0', '2a00']) {
      for (let i = 0; i < 200; i++) addresses.push(i % 2 ? `${first}:${i % 3 ? hex() : 'db8'}::${hex()}` : `${first}:${hex()}:${hex()}:${hex()}:${hex()}:${hex()}:${hex()}:${hex()}`);
    }
    const differing = addresses.filter((address) => routableVersion(address) !== reference(address));
    expect(differing).toEqual([]);
    expect(addresses.filter((address) => routableVersion(address) === 0).length).toBeGreaterThan(1000);
  });
});

describe("a new visitor's person", () => {
  it('is written once, with its $initial_geoip_* and $geoip_*, by the write that creates it; the same address again writes nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-geoip-person-'));
    try {
      const file = path.join(dir, 'City.mmdb');
      fs.writeFileSync(file, mmdbByFirstOctet({ 81: LONDON }));
      const geoip = new CaptureGeoIp(new GeoIpDatabase([{ path: file }]), async () => false);
      // A store that knows no one: every distinct id is new.
      const nobody = { distinctIds: async () => [], distinctIdsWithTombstones: async () => [], persons: async () => [], distinctIdsOfPersons: async () => [] } as unknown as PersonsRepository;
      const persons = new PersonProcessor(nobody);
      const flush = () => Array.from({ length: 10 }, (_, i) => capturedEvent(i % 4 === 0 ? '$pageview' : '$autocapture', 'visitor', { $browser: 'Chrome', $current_url: `https://example.com/${i}` }));
      const writes = (): PersonWrites => ({ persons: [], distinctIds: [], overrides: [], groups: [], groupTypes: [] });

      const first = flush();
      await geoip.apply(1, first, '81.2.69.142');
      const created = writes();
      await persons.process(1, first, created);
      expect(created.persons).toHaveLength(1);
      expect(created.persons[0]!.version).toBe(0);
      expect(JSON.parse(created.persons[0]!.properties)).toMatchObject({
        $geoip_city_name: 'London', $initial_geoip_city_name: 'London', $initial_geoip_subdivision_2_code: 'LND', $geoip_postal_code: 'EC2V', $initial_browser: 'Chrome',
      });

      const second = flush();
      await geoip.apply(1, second, '81.2.69.142');
      const again = writes();
      await persons.process(1, second, again);
      expect(again.persons).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
