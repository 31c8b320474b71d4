// HogQL's sessions read the event store's `sessions` table, kept at insert by a materialized view
// (event-store migration 4). The answers are those of grouping the events: a session captured in
// several /batch/ requests is one session, a re-sent event counts once, a person merge changes no
// session, two projects' equal session ids stay apart, and a store made before the table gets its
// sessions from the events already there (a session spanning the month boundary included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsRepository } from '../../../src/storage/events/events-repository.js';
import { migrateEventStore } from '../../../src/storage/events/migrations/index.js';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
let other: Credentials;

const rows = (query: string, credentials: Credentials = who) => hogqlRows(t, credentials, query);

interface Sent { uuid: string; event: string; distinct_id: string; timestamp: string; properties: Record<string, unknown> }

/** One /batch/ request with the events' own uuids (a client re-sending them sends the same). */
async function send(credentials: Credentials, batch: Sent[]): Promise<void> {
  const res = await t.request(null, { method: 'POST', url: '/batch/', payload: { api_key: credentials.projectApiToken, batch } });
  expect(res.statusCode).toBe(200);
}

const sent = (n: number, event: string, distinctId: string, timestamp: string, properties: Record<string, unknown>): Sent =>
  ({ uuid: `0188f0a0-0000-7000-8000-${String(n).padStart(12, '0')}`, event, distinct_id: distinctId, timestamp, properties });

const FIRST_BATCH = [
  sent(1, '$pageview', 'anon', '2024-03-01T10:00:00Z', { $session_id: 'two-batches', $current_url: 'https://example.com/a', utm_source: 'news', msclkid: 'ms-1', fbclid: 'fb-1' }),
  sent(2, '$autocapture', 'anon', '2024-03-01T10:00:05Z', { $session_id: 'two-batches', $current_url: 'https://example.com/a', $external_click_url: 'https://out.example/1' }),
];
const SECOND_BATCH = [
  sent(3, '$pageview', 'user', '2024-03-01T10:01:00Z', { $session_id: 'two-batches', $current_url: 'https://example.com/b', utm_source: 'later' }),
  sent(4, '$pageleave', 'user', '2024-03-01T10:02:00Z', { $session_id: 'two-batches', $current_url: 'https://example.com/b' }),
];

const SESSION_ROW = 'select session_id, distinct_id, $start_timestamp, $end_timestamp, $session_duration, $pageview_count, $autocapture_count, $entry_pathname, $end_pathname, $entry_utm_source, $last_external_click_url, $is_bounce, arraySort($urls) from sessions';
const TWO_BATCHES = ['two-batches', 'user', '2024-03-01T10:00:00Z', '2024-03-01T10:02:00Z', 120, 2, 1, '/a', '/b', 'news', 'https://out.example/1', 0, ['https://example.com/a', 'https://example.com/b']];

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('stored-sessions@example.com');
  other = await t.bootstrap('stored-sessions-other@example.com');
  await send(who, FIRST_BATCH);
  await send(who, SECOND_BATCH);
});
afterAll(() => t.close());

describe('sessions kept at insert', () => {
  it('a session captured in two /batch/ requests is one session, with the values of all its events', async () => {
    expect(await rows(`${SESSION_ROW} where session_id = 'two-batches'`)).toEqual([TWO_BATCHES]);
    expect(await rows("select count(), avg(session.$session_duration), max(session.$pageview_count) from events where $session_id = 'two-batches'")).toEqual([[4, 120, 2]]);
    expect(await rows("select $entry_fbclid from sessions where session_id = 'two-batches'")).toEqual([['fb-1']]);
    // The rarer click ids are kept too (one tuple state), for fields still to come.
    const store = t.services.events;
    const { SESSION_ENTRY_CLICK_IDS } = await import('../../../src/storage/events/migrations/0004_sessions.js');
    expect(await store.query(`SELECT tupleElement(argMinMerge(entry_click_ids), ${SESSION_ENTRY_CLICK_IDS.indexOf('msclkid') + 1}) AS msclkid
      FROM ${store.layout.database}.sessions WHERE team_id = {team:UInt64} AND session_id = 'two-batches'`, { team: who.projectId })).toEqual([{ msclkid: 'ms-1' }]);
  });

  it("a date range on the events narrows which sessions are read, never what a session holds", async () => {
    // Only the last two events are in the range; their session started (and has its entry page) before it.
    expect(await rows("select event, session.$start_timestamp, session.$pageview_count, session.$session_duration, session.$entry_pathname from events where timestamp >= toDateTime('2024-03-01 10:01:00') and timestamp < toDateTime('2024-03-02') order by timestamp"))
      .toEqual([['$pageview', '2024-03-01T10:00:00Z', 2, 120, '/a'], ['$pageleave', '2024-03-01T10:00:00Z', 2, 120, '/a']]);
    expect(await rows("select count(), countIf(session.session_id = '') from events where timestamp >= toDateTime('2024-03-01 10:01:00') and event = '$pageleave'")).toEqual([[1, 0]]);
  });

  it('a re-sent request changes no session: counts are distinct events', async () => {
    await send(who, [...FIRST_BATCH, ...SECOND_BATCH]);
    await send(who, SECOND_BATCH);
    expect(await rows(`${SESSION_ROW} where session_id = 'two-batches'`)).toEqual([TWO_BATCHES]);
    expect(await rows("select count() from events where $session_id = 'two-batches'")).toEqual([[4]]);
  });

  it('a person merge changes no session (a session keeps the distinct id of its last event)', async () => {
    const [before] = await rows(`${SESSION_ROW} where session_id = 'two-batches'`);
    await journeys(t, who, { user: [ev('$identify', '2024-03-01T11:00:00Z', { $anon_distinct_id: 'anon' })] });
    expect(await rows("select count(distinct person_id) from events where $session_id = 'two-batches'")).toEqual([[1]]);
    expect(await rows(`${SESSION_ROW} where session_id = 'two-batches'`)).toEqual([before]);
    expect(await rows("select distinct session.distinct_id, session.$pageview_count from events where $session_id = 'two-batches'")).toEqual([['user', 2]]);
  });

  it("two projects' sessions with the same id stay apart", async () => {
    await send(other, [sent(90, '$pageview', 'intruder', '2024-03-01T09:00:00Z', { $session_id: 'two-batches', $current_url: 'https://intruder.example/x' })]);
    expect(await rows(`${SESSION_ROW} where session_id = 'two-batches'`)).toEqual([TWO_BATCHES]);
    expect(await rows("select $pageview_count, $entry_pathname, $start_timestamp, distinct_id from sessions", other)).toEqual([[1, '/x', '2024-03-01T09:00:00Z', 'intruder']]);
    expect(await rows("select session.$entry_current_url, session.$pageview_count from events", other)).toEqual([['https://intruder.example/x', 1]]);
  });

  it('a store made before the sessions table gets the sessions of its events when it is opened', async () => {
    // One session across a month boundary (two partitions of events), one across midnight inside a
    // month (two of the backfill's daily statements), one in a month of its own.
    await journeys(t, who, {
      nye: [ev('$pageview', '2023-12-31T23:59:50Z', { $session_id: 'new-year', $current_url: 'https://example.com/old' }),
        ev('$pageview', '2024-01-01T00:00:20Z', { $session_id: 'new-year', $current_url: 'https://example.com/new' })],
      night: [ev('$pageview', '2024-01-15T23:59:00Z', { $session_id: 'midnight', $current_url: 'https://example.com/late' }),
        ev('$autocapture', '2024-01-16T00:00:30Z', { $session_id: 'midnight' }),
        ev('$pageview', '2024-01-16T00:01:00Z', { $session_id: 'midnight', $current_url: 'https://example.com/early' })],
      feb: [ev('$screen', '2024-02-10T08:00:00Z', { $session_id: 'february' })],
    });
    const everything = `${SESSION_ROW} order by session_id`;
    const answers = await rows(everything);
    expect(answers.map((row) => row[0])).toEqual(['february', 'midnight', 'new-year', 'two-batches']);
    expect(answers[1]!.slice(4, 9)).toEqual([120, 2, 1, '/late', '/early']);
    expect(answers[2]!.slice(4, 9)).toEqual([30, 2, 0, '/old', '/new']);

    // The store as it was before migration 4: no sessions table, no view, none recorded.
    const store = t.services.events;
    const db = store.layout.database;
    await store.command(`DROP VIEW ${db}.sessions_mv`);
    await store.command(`DROP TABLE ${db}.sessions`);
    await store.command(`ALTER TABLE ${db}.schema_migrations DELETE WHERE version = 4`, {}, { settings: { mutations_sync: '1' } });
    const spill = "SELECT value FROM system.settings WHERE name = 'max_bytes_before_external_group_by'";
    const spillBefore = await store.query(spill);
    expect(await migrateEventStore(store)).toEqual([4]);
    expect(await rows(everything)).toEqual(answers);
    // The backfill's memory settings do not outlive it (chDB keeps a statement's settings).
    expect(await store.query(spill)).toEqual(spillBefore);
    expect(await rows(everything, other)).toEqual([['two-batches', 'intruder', '2024-03-01T09:00:00Z', '2024-03-01T09:00:00Z', 0, 1, 0, '/x', '/x', null, null, 1, ['https://intruder.example/x']]]);
    // Opened again, nothing is added twice.
    expect(await migrateEventStore(store)).toEqual([]);
    expect(await rows(everything)).toEqual(answers);
  });

  it('a UUIDv7 session id keys its session by the id time; a time range reads the sessions whose id time is near it', async () => {
    // posthog-js makes session ids UUIDv7 whose time part is the session start.
    const v7 = (iso: string, n: number) => {
      const hex = Date.parse(iso).toString(16).padStart(12, '0');
      return `${hex.slice(0, 8)}-${hex.slice(8)}-7000-8000-${String(n).padStart(12, '0')}`;
    };
    const near = v7('2024-05-10T12:00:00Z', 1);
    // An id whose time lies days away from its events (a client clock far off): the documented loss.
    const far = v7('2024-05-01T00:00:00Z', 2);
    await journeys(t, who, {
      v7near: [ev('$pageview', '2024-05-10T12:00:00Z', { $session_id: near, $current_url: 'https://example.com/near' })],
      v7far: [ev('$pageview', '2024-05-10T12:30:00Z', { $session_id: far, $current_url: 'https://example.com/far' })],
    });
    const store = t.services.events;
    expect(await store.query(`SELECT session_id, toString(session_start_hint) AS hint FROM ${store.layout.database}.sessions
      WHERE team_id = {team:UInt64} AND session_id IN ({near:String}, {far:String}, 'two-batches') ORDER BY hint`, { team: who.projectId, near, far }))
      .toEqual([{ session_id: 'two-batches', hint: '1970-01-01 00:00:00' }, { session_id: far, hint: '2024-05-01 00:00:00' }, { session_id: near, hint: '2024-05-10 12:00:00' }]);
    const ranged = "select session.$entry_pathname from events where timestamp >= toDateTime('2024-05-10 00:00:00') and timestamp < toDateTime('2024-05-11') and event = '$pageview' order by timestamp";
    expect(await rows(ranged)).toEqual([['/near'], [null]]);
    // Without a time range every session is read.
    expect(await rows("select session.$entry_pathname from events where distinct_id in ('v7near', 'v7far') order by timestamp")).toEqual([['/near'], ['/far']]);
  });

  it("a deleted project's sessions go with its events", async () => {
    const store = t.services.events;
    const teamRows = (team: number) => store.query<{ c: string }>(`SELECT count() AS c FROM ${store.layout.database}.sessions WHERE team_id = {team:UInt64}`, { team });
    expect(Number((await teamRows(other.projectId))[0]!.c)).toBeGreaterThan(0);
    await new EventsRepository(store).deleteTeam(other.projectId);
    expect(await teamRows(other.projectId)).toEqual([{ c: '0' }]);
    expect(Number((await teamRows(who.projectId))[0]!.c)).toBeGreaterThan(0);
  });
});
