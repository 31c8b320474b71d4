// What GeoIP must not cost beyond its lookup (issue 30): a located event's properties stay an object
// V8 serialises on its fast path (the capture log and the insert both encode every event), and a
// new visitor's person is written once, with its location, in the write that creates it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCaptureRequest } from '../../src/core/capture/decode.js';
import { normaliseEvents } from '../../src/core/capture/normalise.js';
import { CaptureGeoIp } from '../../src/core/geoip/capture-geoip.js';
import { GeoIpDatabase } from '../../src/core/geoip/database.js';
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
  fs.writeFileSync(file, mmdbByFirstOctet({ 81: LONDON }));
  const geoip = new CaptureGeoIp(new GeoIpDatabase([{ path: file }]), async () => false);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("keeps properties V8 serialises on its fast path (ten keys added in place made every posthog-js event's a slow-mode object)", async () => {
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
