// GeoIP at capture, through the real app: events posted to /batch/ get `$ip` (the client's address
// unless they carry one) and PostHog's GeoIP transformation's `$geoip_*` properties from the bundled
// DB-IP City Lite database; their persons get `$geoip_*` (as `$set`) and `$initial_geoip_*` (as
// `$set_once`), every known key, null where the lookup found nothing.
// The addresses are those every database agrees on (web-analytics reference §7.3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { hogqlRows } from '../helpers/hogql.js';
import { ev, journeys, runQuery, trendsQuery } from '../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
const AT = '2024-03-01T12:00:00Z';

/** The event properties of a distinct id's events, oldest first. */
async function eventProperties(project: Credentials, distinctId: string): Promise<Record<string, unknown>[]> {
  const rows = await hogqlRows(t, project, `SELECT properties FROM events WHERE distinct_id = {id} ORDER BY timestamp, uuid`, { values: { id: distinctId } });
  return rows.map(([text]) => JSON.parse(text as string));
}

async function personProperties(project: Credentials, distinctId: string): Promise<Record<string, unknown>> {
  const rows = await hogqlRows(t, project, `SELECT person.properties FROM events WHERE distinct_id = {id} LIMIT 1`, { values: { id: distinctId } });
  return JSON.parse(rows[0]![0] as string);
}

/** The location keys GeoIP added (`$geoip_disable` is the client's own). */
const geoKeys = (properties: Record<string, unknown>) => Object.keys(properties).filter((key) => key.includes('geoip_') && key !== '$geoip_disable').sort();

/** Posts one event as a client at `peer` would (optionally through a proxy's X-Forwarded-For). */
async function captureFrom(project: Credentials, distinctId: string, peer: string, forwardedFor?: string): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/batch/',
    remoteAddress: peer,
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    payload: { api_key: project.projectApiToken, batch: [{ event: '$pageview', distinct_id: distinctId, timestamp: AT }] },
  });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('geoip@example.com');
});
afterAll(() => t.close());

describe('event properties', () => {
  it('a public $ip gets its country, continent, region, city, coordinates and time zone', async () => {
    await journeys(t, who, {
      us: [ev('$pageview', AT, { $ip: '8.8.8.8' })],
      gb: [ev('$pageview', AT, { $ip: '81.2.69.142' })],
      se: [ev('$pageview', AT, { $ip: '89.160.20.129' })],
      de: [ev('$pageview', AT, { $ip: '5.9.0.1' })],
      jp: [ev('$pageview', AT, { $ip: '133.11.0.1' })],
      br: [ev('$pageview', AT, { $ip: '200.160.2.3' })],
    });
    const countries: Record<string, unknown[]> = {};
    for (const id of ['us', 'gb', 'se', 'de', 'jp', 'br']) {
      const [p] = await eventProperties(who, id);
      countries[id] = [p!.$geoip_country_code, p!.$geoip_country_name, p!.$geoip_continent_code, p!.$geoip_continent_name];
    }
    expect(countries).toEqual({
      us: ['US', 'United States', 'NA', 'North America'],
      gb: ['GB', 'United Kingdom', 'EU', 'Europe'],
      se: ['SE', 'Sweden', 'EU', 'Europe'],
      de: ['DE', 'Germany', 'EU', 'Europe'],
      jp: ['JP', 'Japan', 'AS', 'Asia'],
      br: ['BR', 'Brazil', 'SA', 'South America'],
    });
    const [gb] = await eventProperties(who, 'gb');
    expect(gb).toMatchObject({ $ip: '81.2.69.142', $geoip_city_name: 'London', $geoip_subdivision_1_name: 'England', $geoip_time_zone: 'Europe/London' });
    expect(gb!.$geoip_latitude).toBeCloseTo(51.51, 1);
    expect(gb!.$geoip_longitude).toBeCloseTo(-0.09, 1);
    // Only what the lookup found is on the event (DB-IP has no ISO subdivision codes, no accuracy radius).
    expect(geoKeys(gb!)).toEqual([
      '$geoip_city_name', '$geoip_continent_code', '$geoip_continent_name', '$geoip_country_code', '$geoip_country_name',
      '$geoip_latitude', '$geoip_longitude', '$geoip_subdivision_1_name', '$geoip_time_zone',
    ]);
  });

  it('an IPv6 address is located too', async () => {
    await journeys(t, who, { v6: [ev('$pageview', AT, { $ip: '2a00:1450:4001:82b::200e' })] });
    const [p] = await eventProperties(who, 'v6');
    expect(p).toMatchObject({ $geoip_country_code: 'DE', $geoip_continent_code: 'EU' });
  });

  it('private, loopback, documentation and malformed addresses get no location and leave the event as sent', async () => {
    await journeys(t, who, {
      private: [ev('a', AT, { $ip: '10.0.0.1' }), ev('b', AT, { $ip: '127.0.0.1' }), ev('c', AT, { $ip: '192.0.2.1' }), ev('d', AT, { $ip: 'not-an-ip' }), ev('e', AT, { $ip: '::1' })],
    });
    const events = await eventProperties(who, 'private');
    expect(events.map((p) => p.$ip).sort()).toEqual(['10.0.0.1', '127.0.0.1', '192.0.2.1', '::1', 'not-an-ip']);
    expect(events.flatMap(geoKeys)).toEqual([]);
    expect(geoKeys(await personProperties(who, 'private'))).toEqual([]);
  });

  it('$geoip_disable skips the lookup (the event keeps its $ip)', async () => {
    await journeys(t, who, { disabled: [ev('$pageview', AT, { $ip: '8.8.8.8', $geoip_disable: true })] });
    const [p] = await eventProperties(who, 'disabled');
    expect(p!.$ip).toBe('8.8.8.8');
    expect(geoKeys(p!)).toEqual([]);
  });
});

describe('which address', () => {
  it("an event without $ip gets the client's address; a client-sent $ip wins", async () => {
    await captureFrom(who, 'from-socket', '89.160.20.129');
    const [fromSocket] = await eventProperties(who, 'from-socket');
    expect(fromSocket).toMatchObject({ $ip: '89.160.20.129', $geoip_country_code: 'SE' });

    const res = await t.app.inject({
      method: 'POST', url: '/batch/', remoteAddress: '89.160.20.129',
      payload: { api_key: who.projectApiToken, batch: [{ event: 'server-side', distinct_id: 'sent-ip', timestamp: AT, properties: { $ip: '5.9.0.1' } }] },
    });
    expect(res.statusCode).toBe(200);
    const [sent] = await eventProperties(who, 'sent-ip');
    expect(sent).toMatchObject({ $ip: '5.9.0.1', $geoip_country_code: 'DE' });
  });

  it('a historical migration (hoglet import, demo data) gets no $ip from the importer; a sent one is located', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/batch/', remoteAddress: '89.160.20.129',
      payload: { api_key: who.projectApiToken, historical_migration: true, batch: [
        { event: 'old', distinct_id: 'imported', timestamp: '2024-03-01T10:00:00Z' },
        { event: 'old', distinct_id: 'imported', timestamp: '2024-03-01T11:00:00Z', properties: { $ip: '5.9.0.1' } },
      ] },
    });
    expect(res.statusCode).toBe(200);
    const [first, second] = await eventProperties(who, 'imported');
    expect(first).not.toHaveProperty('$ip');
    expect(geoKeys(first!)).toEqual([]);
    expect(second).toMatchObject({ $ip: '5.9.0.1', $geoip_country_code: 'DE' });
  });

  it("X-Forwarded-For's leftmost address counts only when the peer is a trusted proxy (loopback or private by default)", async () => {
    await captureFrom(who, 'via-proxy', '127.0.0.1', '81.2.69.142, 10.0.0.7');
    await captureFrom(who, 'via-private-proxy', '::ffff:10.2.3.4', '::ffff:8.8.8.8');
    await captureFrom(who, 'spoofed', '5.9.0.1', '81.2.69.142');
    expect((await eventProperties(who, 'via-proxy'))[0]).toMatchObject({ $ip: '81.2.69.142', $geoip_country_code: 'GB' });
    expect((await eventProperties(who, 'via-private-proxy'))[0]).toMatchObject({ $ip: '8.8.8.8', $geoip_country_code: 'US' });
    expect((await eventProperties(who, 'spoofed'))[0]).toMatchObject({ $ip: '5.9.0.1', $geoip_country_code: 'DE' });
  });
});

describe('person properties', () => {
  it('the person gets every key (null where not found) as $geoip_* and $initial_geoip_*; the event only what was found', async () => {
    await journeys(t, who, { person: [ev('$pageview', AT, { $ip: '81.2.69.142' })] });
    const person = await personProperties(who, 'person');
    const nulls = ['city_confidence', 'subdivision_2_name', 'subdivision_2_code', 'subdivision_1_code', 'postal_code', 'accuracy_radius'];
    const found = ['city_name', 'subdivision_1_name', 'country_name', 'country_code', 'continent_name', 'continent_code', 'latitude', 'longitude', 'time_zone'];
    expect(geoKeys(person)).toEqual([...nulls, ...found].flatMap((key) => [`$geoip_${key}`, `$initial_geoip_${key}`]).sort());
    for (const key of nulls) expect([person[`$geoip_${key}`], person[`$initial_geoip_${key}`]]).toEqual([null, null]);
    expect(person).toMatchObject({
      $geoip_country_code: 'GB', $geoip_country_name: 'United Kingdom', $geoip_city_name: 'London', $geoip_time_zone: 'Europe/London',
      $initial_geoip_country_code: 'GB', $initial_geoip_city_name: 'London', $initial_geoip_continent_code: 'EU',
    });
    const [event] = await eventProperties(who, 'person');
    expect(event).not.toHaveProperty('$set');
    expect(event).not.toHaveProperty('$geoip_postal_code');
  });

  it('$geoip_* follows the latest located event, $initial_geoip_* keeps the first', async () => {
    await journeys(t, who, { mover: [ev('$pageview', '2024-03-01T10:00:00Z', { $ip: '81.2.69.142' })] });
    await journeys(t, who, { mover: [ev('$pageview', '2024-03-02T10:00:00Z', { $ip: '8.8.8.8' })] });
    await journeys(t, who, { mover: [ev('$pageview', '2024-03-03T10:00:00Z', { $ip: '10.0.0.1' })] });
    const person = await personProperties(who, 'mover');
    expect(person).toMatchObject({
      $geoip_country_code: 'US',
      $geoip_city_name: 'Mountain View',
      $initial_geoip_country_code: 'GB',
      $initial_geoip_city_name: 'London',
    });
  });

  it("the person's own $set and $set_once survive beside the location", async () => {
    await journeys(t, who, { mixed: [ev('$pageview', AT, { $ip: '5.9.0.1', $set: { plan: 'pro' }, $set_once: { first_plan: 'free' } })] });
    expect(await personProperties(who, 'mixed')).toMatchObject({ plan: 'pro', first_plan: 'free', $geoip_country_code: 'DE', $initial_geoip_country_code: 'DE' });
  });
});

describe('anonymize_ips', () => {
  it('"Discard client IP data": no $ip (not even a sent one) and so no location, as newest PostHog', async () => {
    const project = await t.bootstrap('geoip-anonymous@example.com');
    const patched = await t.request(project.key, { method: 'PATCH', url: `/api/projects/${project.projectId}/`, payload: { anonymize_ips: true } });
    expect(patched.statusCode, patched.body).toBe(200);
    await journeys(t, project, { anon: [ev('$pageview', AT, { $ip: '8.8.8.8' }), ev('$pageview', AT)] });
    await captureFrom(project, 'anon', '81.2.69.142');
    const events = await eventProperties(project, 'anon');
    expect(events).toHaveLength(3);
    expect(events.filter((p) => '$ip' in p)).toEqual([]);
    expect(events.flatMap(geoKeys)).toEqual([]);
    expect(geoKeys(await personProperties(project, 'anon'))).toEqual([]);
  });
});

describe('what the world map reads', () => {
  it('a trends query broken down by $geoip_country_code answers the countries', async () => {
    const project = await t.bootstrap('geoip-map@example.com');
    await journeys(t, project, {
      a: [ev('$pageview', AT, { $ip: '8.8.8.8' }), ev('$pageview', AT, { $ip: '8.8.8.8' })],
      b: [ev('$pageview', AT, { $ip: '81.2.69.142' })],
      c: [ev('$pageview', AT, { $ip: '133.11.0.1' })],
      d: [ev('$pageview', AT, { $ip: '10.0.0.1' })],
    });
    const answer = await runQuery(t, project, trendsQuery([{ kind: 'EventsNode', event: '$pageview', math: 'total' }], '2024-03-01', '2024-03-01', {
      breakdownFilter: { breakdown: '$geoip_country_code', breakdown_type: 'event' },
      trendsFilter: { display: 'WorldMap' },
    }));
    const byCountry = Object.fromEntries(answer.results.map((r: { breakdown_value: string; aggregated_value: number }) => [r.breakdown_value, r.aggregated_value]));
    expect(byCountry).toEqual({ US: 2, GB: 1, JP: 1, $$_posthog_breakdown_null_$$: 1 });
  });
});
