// /flags/ adds the request's place to the person properties it matches with, as PostHog's flags
// service does (rust/feature-flags handler/properties.rs `get_person_property_overrides`, with
// common/geoip's seven keys): the client's address (X-Forwarded-For from a trusted proxy, as
// capture reads it) looked up unless `geoip_disable: true`; a `$geoip_*` value the caller sent wins,
// a null one is a gap the lookup fills. Real app, an operator's MaxMind-layout file (mmdb-fixture).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys } from '../../helpers/journeys.js';
import { mmdbByFirstOctet } from '../../capture/mmdb-fixture.js';
import { createFlag, personCondition } from './helpers.js';

const LONDON = {
  city: { names: { en: 'London' } },
  continent: { code: 'EU', names: { en: 'Europe' } },
  country: { iso_code: 'GB', names: { en: 'United Kingdom' } },
  location: { accuracy_radius: 10, latitude: 51.5142, longitude: -0.0931, time_zone: 'Europe/London' },
  postal: { code: 'EC2V' },
};
const BERLIN = {
  city: { names: { en: 'Berlin' } },
  continent: { code: 'EU', names: { en: 'Europe' } },
  country: { iso_code: 'DE', names: { en: 'Germany' } },
  location: { latitude: 52.52, longitude: 13.405, time_zone: 'Europe/Berlin' },
};

let t: TestApp;
let who: Credentials;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-flags-geoip-'));

beforeAll(async () => {
  fs.writeFileSync(path.join(dir, 'City.mmdb'), mmdbByFirstOctet({ 81: LONDON, 5: BERLIN }));
  t = await createTestApp('sqlite', { HOGLET_GEOIP_DATABASE: path.join(dir, 'City.mmdb') });
  who = await t.bootstrap('flags-geoip@example.com');
  await createFlag(t, who, { key: 'in-gb', filters: { groups: [personCondition('$geoip_country_code', ['GB'])] } });
  await createFlag(t, who, { key: 'in-london', filters: { groups: [personCondition('$geoip_city_name', 'London')] } });
  await createFlag(t, who, { key: 'london-time', filters: { groups: [personCondition('$geoip_time_zone', 'Europe/London')] } });
  await createFlag(t, who, { key: 'in-europe', filters: { groups: [personCondition('$geoip_continent_code', 'EU')] } });
  await createFlag(t, who, { key: 'postcode', filters: { groups: [personCondition('$geoip_postal_code', 'EC2V')] } });
  // Not among the keys PostHog's flags service adds: never set by the request.
  await createFlag(t, who, { key: 'has-latitude', filters: { groups: [personCondition('$geoip_latitude', '', 'is_set')] } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function flags(body: Record<string, unknown>, forwardedFor?: string): Promise<Record<string, boolean>> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/flags/?v=2',
    payload: JSON.stringify({ token: who.projectApiToken, ...body }),
    headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json().flags as Record<string, { enabled: boolean }>;
  return Object.fromEntries(Object.entries(answer).map(([key, entry]) => [key, entry.enabled]));
}

describe("/flags/ with the request's place", () => {
  it("matches on the client's country, city, continent, postcode and time zone, and only those keys", async () => {
    expect(await flags({ distinct_id: 'nobody-yet' }, '81.2.69.142')).toEqual({
      'in-gb': true,
      'in-london': true,
      'london-time': true,
      'in-europe': true,
      postcode: true,
      'has-latitude': false,
    });
    expect(await flags({ distinct_id: 'nobody-yet' }, '5.9.0.1')).toMatchObject({ 'in-gb': false, 'in-europe': true, postcode: false });
  });

  it('adds nothing for a loopback client, or with geoip_disable: true', async () => {
    expect(await flags({ distinct_id: 'local' })).toMatchObject({ 'in-gb': false, 'in-europe': false });
    expect(await flags({ distinct_id: 'opted-out', geoip_disable: true }, '81.2.69.142')).toMatchObject({ 'in-gb': false, 'in-london': false });
    expect(await flags({ distinct_id: 'opted-in', geoip_disable: false }, '81.2.69.142')).toMatchObject({ 'in-gb': true });
  });

  it("keeps a $geoip_* value the caller sent (a server SDK's own lookup); a null one is filled", async () => {
    expect(await flags({ distinct_id: 'server-side', person_properties: { $geoip_country_code: 'DE' } }, '81.2.69.142')).toMatchObject({
      'in-gb': false,
      'in-london': true,
    });
    expect(await flags({ distinct_id: 'server-side', person_properties: { $geoip_country_code: null } }, '81.2.69.142')).toMatchObject({ 'in-gb': true });
  });

  it("wins over the stored person's place (request properties override stored ones)", async () => {
    await journeys(t, who, { traveller: [ev('$pageview', '2024-03-01T12:00:00Z', { $ip: '5.9.0.1' })] });
    expect(await flags({ distinct_id: 'traveller', geoip_disable: true })).toMatchObject({ 'in-gb': false, 'in-europe': true });
    expect(await flags({ distinct_id: 'traveller' }, '81.2.69.142')).toMatchObject({ 'in-gb': true });
  });

  it('answers 400 for a geoip_disable that is not a boolean, as PostHog fails to read the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/flags/?v=2',
      payload: JSON.stringify({ token: who.projectApiToken, distinct_id: 'x', geoip_disable: 'yes' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
  });
});
