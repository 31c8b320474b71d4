// GeoIP settings through the real app, and PostHog's own GeoIP tests ported as data: the Hog
// transformation's (plugin-server/src/cdp/templates/_transformations/geoip/geoip.template.test.ts)
// and the legacy plugin's (posthog-plugin-geoip, its index.test.ts). PostHog runs them against
// MaxMind's GeoIP2 City test database; here an operator's own MaxMind-layout file holds the same
// records (written by mmdb-fixture.ts), so the expected properties are PostHog's, value for value.
// PostHog's transformation writes the person's updates into the event's `$set` / `$set_once`;
// Hoglet applies the same updates to the person without copying them into the stored event
// (docs/geoip.md), so those assertions are made on the person, which is what they are for.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { hogqlRows } from '../helpers/hogql.js';
import { ev, journeys } from '../helpers/journeys.js';
import { mmdbByFirstOctet } from './mmdb-fixture.js';

const AT = '2024-03-01T12:00:00Z';

/** 12.87.118.0 in MaxMind's test database, as PostHog's template test shows it. */
const CLEVELAND = {
  city: { names: { en: 'Cleveland' } },
  continent: { code: 'NA', names: { en: 'North America' } },
  country: { iso_code: 'US', names: { en: 'United States' } },
  location: { accuracy_radius: 20, latitude: 41.5, longitude: -81.6938, time_zone: 'America/New_York' },
  postal: { code: '44192' },
  subdivisions: [{ iso_code: 'OH', names: { en: 'Ohio' } }],
};
/** 89.160.20.129 there, as the legacy plugin's test shows it. */
const LINKOPING = {
  city: { names: { en: 'Linköping' } },
  continent: { code: 'EU', names: { en: 'Europe' } },
  country: { iso_code: 'SE', names: { en: 'Sweden' } },
  location: { accuracy_radius: 76, latitude: 58.4167, longitude: 15.6167, time_zone: 'Europe/Stockholm' },
  subdivisions: [{ iso_code: 'E', names: { en: 'Östergötland County' } }],
};
/** The tests' "lookup without a city" (they drop `city` from the answer): here other networks. */
const { city: _cleveland, ...CLEVELAND_NO_CITY } = CLEVELAND;
const { city: _linkoping, ...LINKOPING_NO_CITY } = LINKOPING;

async function eventsOf(t: TestApp, who: Credentials, distinctId: string): Promise<Record<string, unknown>[]> {
  const rows = await hogqlRows(t, who, 'SELECT properties FROM events WHERE distinct_id = {id} ORDER BY timestamp', { values: { id: distinctId } });
  return rows.map(([text]) => JSON.parse(text as string));
}

async function personOf(t: TestApp, who: Credentials, distinctId: string): Promise<Record<string, unknown>> {
  const rows = await hogqlRows(t, who, 'SELECT person.properties FROM events WHERE distinct_id = {id} LIMIT 1', { values: { id: distinctId } });
  return JSON.parse(rows[0]![0] as string);
}

describe("an operator's own MaxMind database (HOGLET_GEOIP_DATABASE), HOGLET_TRUST_PROXY=false", () => {
  let t: TestApp;
  let who: Credentials;
  const problems: string[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-geoip-'));

  beforeAll(async () => {
    fs.writeFileSync(path.join(dir, 'City.mmdb'), mmdbByFirstOctet({ 12: CLEVELAND, 13: CLEVELAND_NO_CITY, 89: LINKOPING, 90: LINKOPING_NO_CITY }));
    // A second file that cannot be read: said once, and capture goes on with the first.
    const files = [path.join(dir, 'missing.mmdb'), path.join(dir, 'City.mmdb')].join(',');
    t = await createTestApp('sqlite', { HOGLET_GEOIP_DATABASE: files, HOGLET_TRUST_PROXY: 'false' }, {
      onBackgroundError: (error) => problems.push(error instanceof Error ? error.message : String(error)),
    });
    who = await t.bootstrap('geoip-operator@example.com');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('geoip.template.test.ts', () => {
    const SET = {
      $geoip_accuracy_radius: 20,
      $geoip_city_confidence: null,
      $geoip_city_name: 'Cleveland',
      $geoip_continent_code: 'NA',
      $geoip_continent_name: 'North America',
      $geoip_country_code: 'US',
      $geoip_country_name: 'United States',
      $geoip_latitude: 41.5,
      $geoip_longitude: -81.6938,
      $geoip_postal_code: '44192',
      $geoip_subdivision_1_code: 'OH',
      $geoip_subdivision_1_name: 'Ohio',
      $geoip_subdivision_2_code: null,
      $geoip_subdivision_2_name: null,
      $geoip_time_zone: 'America/New_York',
    };
    const SET_ONCE = Object.fromEntries(Object.entries(SET).map(([key, value]) => [key.replace('$geoip_', '$initial_geoip_'), value]));
    const FOUND = Object.fromEntries(Object.entries(SET).filter(([, value]) => value !== null));

    it('should enrich event with IP location', async () => {
      await journeys(t, who, { template1: [ev('event-name', AT, { $ip: '12.87.118.0' })] });
      expect(await eventsOf(t, who, 'template1')).toEqual([{ ...FOUND, $ip: '12.87.118.0' }]);
    });

    it('should enrich person with IP location', async () => {
      await journeys(t, who, { template2: [ev('event-name', AT, { $ip: '12.87.118.0' })] });
      expect(await personOf(t, who, 'template2')).toEqual({ ...SET, ...SET_ONCE });
    });

    it('should set properties to null if no values present', async () => {
      // PostHog's version drops the city from the answer, but its snapshot still shows Cleveland
      // (the transform does not reach the lookup); this asserts what the test is named for.
      await journeys(t, who, { template3: [ev('event-name', AT, { $ip: '13.87.118.0' })] });
      expect(await personOf(t, who, 'template3')).toEqual({ ...SET, $geoip_city_name: null, ...SET_ONCE, $initial_geoip_city_name: null });
      expect((await eventsOf(t, who, 'template3'))[0]).not.toHaveProperty('$geoip_city_name');
    });

    it('should skip processing when $geoip_disable is true', async () => {
      await journeys(t, who, { template4: [ev('event-name', AT, { $ip: '12.87.118.0', $geoip_disable: true })] });
      expect(await eventsOf(t, who, 'template4')).toEqual([{ $ip: '12.87.118.0', $geoip_disable: true }]);
    });
  });

  describe('posthog-plugin-geoip index.test.ts', () => {
    it('event is enriched with IP location', async () => {
      await journeys(t, who, { plugin1: [ev('$pageview', AT, { $ip: '89.160.20.129' })] });
      expect((await eventsOf(t, who, 'plugin1'))[0]).toMatchObject({
        $geoip_city_name: 'Linköping',
        $geoip_country_name: 'Sweden',
        $geoip_country_code: 'SE',
        $geoip_continent_name: 'Europe',
        $geoip_continent_code: 'EU',
        $geoip_latitude: 58.4167,
        $geoip_longitude: 15.6167,
        $geoip_accuracy_radius: 76,
        $geoip_time_zone: 'Europe/Stockholm',
        $geoip_subdivision_1_code: 'E',
        $geoip_subdivision_1_name: 'Östergötland County',
      });
    });

    it('person is enriched with IP location', async () => {
      await journeys(t, who, { plugin2: [ev('$pageview', AT, { $ip: '89.160.20.129' })] });
      expect(await personOf(t, who, 'plugin2')).toMatchObject({
        $geoip_city_name: 'Linköping',
        $geoip_country_code: 'SE',
        $geoip_subdivision_1_code: 'E',
        $initial_geoip_city_name: 'Linköping',
        $initial_geoip_country_name: 'Sweden',
        $initial_geoip_time_zone: 'Europe/Stockholm',
        $initial_geoip_subdivision_1_name: 'Östergötland County',
      });
    });

    it('person props default to null if no values present', async () => {
      await journeys(t, who, { plugin3: [ev('$pageview', AT, { $ip: '90.160.20.129' })] });
      const person = await personOf(t, who, 'plugin3');
      const set = Object.fromEntries(Object.entries(person).filter(([key]) => key.startsWith('$geoip_')));
      const setOnce = Object.fromEntries(Object.entries(person).filter(([key]) => key.startsWith('$initial_geoip_')));
      expect(set).toEqual({
        $geoip_accuracy_radius: 76,
        $geoip_city_confidence: null,
        $geoip_city_name: null,
        $geoip_continent_code: 'EU',
        $geoip_continent_name: 'Europe',
        $geoip_country_code: 'SE',
        $geoip_country_name: 'Sweden',
        $geoip_latitude: 58.4167,
        $geoip_longitude: 15.6167,
        $geoip_postal_code: null,
        $geoip_subdivision_1_code: 'E',
        $geoip_subdivision_1_name: 'Östergötland County',
        $geoip_subdivision_2_code: null,
        $geoip_subdivision_2_name: null,
        $geoip_time_zone: 'Europe/Stockholm',
      });
      expect(setOnce).toMatchObject({ $initial_geoip_city_name: null, $initial_geoip_postal_code: null, $initial_geoip_country_code: 'SE' });
    });

    it('event is skipped using $geoip_disable', async () => {
      await journeys(t, who, { plugin4: [ev('$pageview', AT, { $ip: '89.160.20.129', $geoip_disable: true })] });
      expect(await eventsOf(t, who, 'plugin4')).toEqual([{ $ip: '89.160.20.129', $geoip_disable: true }]);
    });
  });

  it('an address the file does not hold gets no location; the unreadable file was said once', async () => {
    await journeys(t, who, { elsewhere: [ev('$pageview', AT, { $ip: '8.8.8.8' })] });
    expect(await eventsOf(t, who, 'elsewhere')).toEqual([{ $ip: '8.8.8.8' }]);
    expect(problems.filter((message) => message.includes('missing.mmdb'))).toHaveLength(1);
  });

  it('with HOGLET_TRUST_PROXY=false even a loopback peer\'s X-Forwarded-For is not believed', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/batch/', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '12.87.118.0' },
      payload: { api_key: who.projectApiToken, batch: [{ event: '$pageview', distinct_id: 'untrusted', timestamp: AT }] },
    });
    expect(res.statusCode).toBe(200);
    expect(await eventsOf(t, who, 'untrusted')).toEqual([{ $ip: '127.0.0.1' }]);
  });
});

describe('HOGLET_GEOIP_DATABASE=off', () => {
  let t: TestApp;
  let who: Credentials;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { HOGLET_GEOIP_DATABASE: 'off' });
    who = await t.bootstrap('geoip-off@example.com');
  });
  afterAll(() => t.close());

  it('events still get $ip, and no location', async () => {
    await journeys(t, who, { off: [ev('$pageview', AT, { $ip: '8.8.8.8' }), ev('$pageview', '2024-03-01T12:00:01Z')] });
    expect(await eventsOf(t, who, 'off')).toEqual([{ $ip: '8.8.8.8' }, { $ip: '127.0.0.1' }]);
    expect(t.services.geoip).toBeNull();
  });
});
