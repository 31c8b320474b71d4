// Links to recordings from insights, persons and events: the actors of an insight's number with
// includeRecordings (PostHog's people modal) carry `matched_recordings` per person, only for sessions
// that have a recording, with the matched events' timestamp, uuid and window id (trends, funnels,
// retention, paths); the events list keeps $session_id; another organization's recording of the same
// session id is never named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { recordSession, rrwebPage, sessionEvents, turnOnRecording } from '../helpers/recordings.js';
import { postBatch } from '../helpers/journeys.js';

const HOUR = 3_600_000;
const NOW = Math.floor(Date.now() / 1000) * 1000;
const AT = NOW - 2 * HOUR;
const WEEK = { date_from: '-7d' };
const PAGEVIEW = { kind: 'EventsNode', event: '$pageview', math: 'dau' };

let t: TestApp;
let alice: Credentials;
let bob: Credentials;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
  bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
  for (const who of [alice, bob]) await turnOnRecording(t, who);
  // ann: a recorded session with a pageview and a purchase, an unrecorded one, an event without a session.
  await recordSession(t, alice, 'ann-recorded', 'ann', rrwebPage(AT, 30));
  await sessionEvents(t, alice, 'ann-recorded', 'ann', [{ event: '$pageview', at: AT + 1000 }, { event: 'purchase', at: AT + 2000 }]);
  await sessionEvents(t, alice, 'ann-unrecorded', 'ann', [{ event: '$pageview', at: AT + 5000 }]);
  await postBatch(t, { api_key: alice.projectApiToken, batch: [{ event: '$pageview', distinct_id: 'ann', timestamp: new Date(AT + 6000).toISOString(), properties: {} }] });
  // Bob's organization records a session with the id of ann's unrecorded one.
  await recordSession(t, bob, 'ann-unrecorded', 'ann', rrwebPage(AT, 30));
});
afterAll(() => t.close());

async function actors(source: Record<string, unknown>, extra: Record<string, unknown> = {}, select?: string[]) {
  const query = { kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source, includeRecordings: true, ...extra }, ...(select ? { select } : {}) };
  const res = await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/query/`, payload: { query } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const sessionsOf = (body: { columns: string[]; results: unknown[][] }) => {
  const at = body.columns.indexOf('matched_recordings');
  return body.results.map((row) => (row[at] as { session_id: string }[]).map((r) => r.session_id));
};

describe('matched_recordings beside the actors of an insight', () => {
  it('a trends point: the series events of the bucket, in recorded sessions only, with timestamp, uuid and window id', async () => {
    const trend = { kind: 'TrendsQuery', series: [PAGEVIEW], dateRange: WEEK, interval: 'day' };
    const result = (await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/query/`, payload: { query: trend } })).json();
    const day = result.results[0].days[result.results[0].data.findIndex((n: number) => n > 0)];
    const body = await actors(trend, { day, series: 0 });
    expect(body.columns).toEqual(['person', 'matched_recordings']);
    const [row] = body.results;
    expect(row[0].distinct_ids).toEqual(['ann']);
    expect(row[1]).toEqual([{ session_id: 'ann-recorded', events: [{ timestamp: new Date(AT + 1000).toISOString().replace('.000Z', 'Z'), uuid: expect.any(String), window_id: 'w1' }] }]);
    // The events list (EventsQuery) holds the same uuid with its $session_id, as a property and as HogQL's field.
    const eventsQuery = { kind: 'EventsQuery', select: ['uuid', 'properties.$session_id', '$session_id'], event: '$pageview', after: '-7d' };
    const events = (await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/query/`, payload: { query: eventsQuery } })).json().results as string[][];
    expect(events.find(([uuid]) => uuid === row[1][0].events[0].uuid)?.slice(1)).toEqual(['ann-recorded', 'ann-recorded']);
    // PostHog's people modal selects the person as "actor" and names the column.
    const modal = await actors(trend, { day, series: 0 }, ['actor', 'matched_recordings']);
    expect(modal.columns).toEqual(['actor', 'matched_recordings']);
    expect(sessionsOf(modal)).toEqual([['ann-recorded']]);
  });

  it("the insight's property filters hold for the matched events", async () => {
    const firefox = { kind: 'TrendsQuery', series: [PAGEVIEW], dateRange: WEEK, interval: 'day', trendsFilter: { display: 'BoldNumber' }, properties: [{ key: '$browser', value: ['Firefox'], operator: 'exact', type: 'event' }] };
    await sessionEvents(t, alice, 'ann-recorded', 'ann', [{ event: '$pageview', at: AT + 3000, properties: { $browser: 'Firefox' } }]);
    const body = await actors(firefox);
    expect(body.results[0][1].map((r: { session_id: string; events: unknown[] }) => [r.session_id, r.events.length])).toEqual([['ann-recorded', 1]]);
  });

  it('without includeRecordings the actors are as before', async () => {
    const trend = { kind: 'TrendsQuery', series: [PAGEVIEW], dateRange: WEEK, interval: 'day', trendsFilter: { display: 'BoldNumber' } };
    const res = await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/query/`, payload: { query: { kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source: trend } } } });
    expect(res.json().columns).toEqual(['person']);
  });

  it('funnels, retention, stickiness and paths name the recorded session of the matching events', async () => {
    const funnel = { kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }, { kind: 'EventsNode', event: 'purchase' }], dateRange: WEEK };
    expect(sessionsOf(await actors(funnel, { funnelStep: 2 }))).toEqual([['ann-recorded']]);
    const retention = {
      kind: 'RetentionQuery', dateRange: WEEK,
      retentionFilter: { period: 'Day', totalIntervals: 8, targetEntity: { id: 'purchase', type: 'events' }, returningEntity: { id: 'purchase', type: 'events' } },
    };
    const cohorts = (await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/query/`, payload: { query: retention } })).json().results as { values: { count: number }[] }[];
    const started = cohorts.findIndex((c) => c.values[0]!.count > 0);
    expect(sessionsOf(await actors(retention, { interval: started }))).toEqual([['ann-recorded']]);
    const stickiness = { kind: 'StickinessQuery', series: [{ kind: 'EventsNode', event: 'purchase' }], dateRange: WEEK, interval: 'day' };
    expect(sessionsOf(await actors(stickiness, { day: 1 }))).toEqual([['ann-recorded']]);
    const paths = { kind: 'PathsQuery', dateRange: WEEK, pathsFilter: { includeEventTypes: ['custom_event'] } };
    expect(sessionsOf(await actors(paths, { pathEndKey: '1_purchase' }))).toEqual([['ann-recorded']]);
  });

  it("the person page's list: session_recordings?person_uuid= lists the person's recordings only", async () => {
    const person = (await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/session_recordings/ann-recorded/` })).json().person;
    const listed = (await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/session_recordings/?person_uuid=${person.uuid}` })).json();
    expect(listed.results.map((r: { id: string }) => r.id)).toEqual(['ann-recorded']);
  });
});
