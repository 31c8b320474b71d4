// PostHog's posthog/hogql/database/schema/test/* as data: the sessions table (test_sessions_v3.py,
// test_sessions_on_events.py), persons (test_persons.py, test_persons_via_events.py), groups
// (test_groups.py) and events (test_events.py). Each case: the
// query text, placeholders as the HogQLQuery's `values`, and the rows PostHog's test expects, over
// the data its test creates, captured through /batch/ (persons' properties as $set) and run through
// POST /api/projects/:id/query/. A PostHog test whose rows depend on the whole table gets a project
// of its own, as each of its tests gets a fresh team. What is left out, and why, is in
// docs/hogql-posthog-tests.md. PostHog's assertions on the SQL it prints are not ported: the rows are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows, postHogQL } from '../../helpers/hogql.js';
import { ev, journeys, type JourneyEvent } from '../../helpers/journeys.js';

let t: TestApp;

async function project(name: string, stories: Record<string, JourneyEvent[]>): Promise<Credentials> {
  const who = await t.bootstrap(`schema-${name}@example.com`);
  await journeys(t, who, stories);
  return who;
}

const hogql = (who: Credentials, query: string, values: Record<string, unknown> = {}) => postHogQL(t, who, query, { values });
const rows = (who: Credentials, query: string, values: Record<string, unknown> = {}) => hogqlRows(t, who, query, { values });

async function personIdOf(who: Credentials, distinctId: string): Promise<string> {
  const [[id]] = (await rows(who, 'SELECT person_id FROM person_distinct_ids WHERE distinct_id = {d}', { d: distinctId })) as [[string]];
  return id;
}

// Session ids as uuid7s made in order (PostHog's tests sort sessions by id).
const sid = (n: number) => `018c2b5c-0000-7000-8000-${String(n).padStart(12, '0')}`;
const S = { star: sid(1), p1: sid(2), p2: sid(3), empty: sid(4), counts: sid(5), idem: sid(6), click: sid(7), fields: sid(8) };
const NOW = new Date(Date.now() - 60_000).toISOString();
const at = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();

/** Sessions whose PostHog tests read one session by id: one project. */
let sessions: Credentials;
/** test_bounce_rate's six sessions. */
let bounce: Credentials;
/** test_page_screen_autocapture_count_up_to's five sessions. */
let upTo: Credentials;
/** test_sessions_v2.py's test_lcp: four sessions, LCP on none, a $web_vitals, a $pageview, two $web_vitals. */
let lcp: Credentials;
/** test_custom_bounce_rate_duration's 15-second session. */
let bounce15: Credentials;
/** TestPersonOptimization's three persons (the second's property updated after it was created). */
let persons: Credentials;
/** TestPersonsV2LimitPushDown: two persons; three for the totals. */
let twoPersons: Credentials;
let threePersons: Credentials;
/** test_v2_cohort_where_does_not_push_limit_down: one cohort member among eleven persons. */
let cohortPersons: Credentials;
let cohortId: number;
/** TestArgMaxNonNullableSimplification: a person whose latest version unset a property. */
let unset: Credentials;
/** test_groups.py: ten groups (g00 set twice), twelve, twelve ranked, twelve tagged. */
let groups10: Credentials;
let groups12: Credentials;
let ranked: Credentials;
let tagged: Credentials;
let events: Credentials;
/** test_sessions_on_events.py: sessions read by id in one project; two tests read every event. */
let onEvents: Credentials;
let utmSources: Credentials;
let durations: Credentials;
/** test_persons_via_events.py: a person with a gmail address and one without an email, a page view each. */
let emails: Credentials;

const pageview = (session: string, url: string, time: string) => ev('$pageview', time, { $session_id: session, $current_url: url });
const group = (key: string, properties: Record<string, unknown>, time = '2024-01-01T00:00:00Z') =>
  ev('$groupidentify', time, { $group_type: 'company', $group_key: key, $group_set: properties });
const keys = (n: number) => Array.from({ length: n }, (_, i) => `g${String(i).padStart(2, '0')}`);

async function capture(who: Credentials, batch: Record<string, unknown>[]): Promise<void> {
  const res = await t.request(null, { method: 'POST', url: '/batch/', payload: { api_key: who.projectApiToken, batch } });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp('sqlite');
  sessions = await project('sessions', {
    d1: [
      pageview(S.star, 'https://example.com', at(0)),
      ev('$pageview', at(1), { $session_id: S.p1, utm_source: 'source1' }),
      ev('other_event', '2024-07-17T00:00:00Z', { $session_id: S.empty }),
      ev('$pageview', '2023-12-02T00:00:00Z', { $session_id: S.counts }),
      ...[1, 2].map(() => ev('$autocapture', '2023-12-02T00:00:00Z', { $session_id: S.counts })),
      ...[1, 2, 3].map(() => ev('$screen', '2023-12-02T00:00:00Z', { $session_id: S.counts })),
      ev('$autocapture', at(2), { $session_id: S.click, $external_click_url: 'https://example.com/1' }),
      ev('$autocapture', at(3), { $session_id: S.click, $external_click_url: 'https://example.com/2' }),
      ev('$pageview', at(4), { $session_id: S.fields, $current_url: 'https://example.com/pathname', $pathname: '/pathname' }),
    ],
    d2: [ev('$pageview', at(1), { $session_id: S.p2, utm_source: 'source2' })],
  });
  // test_idempotent_event_counts: the same three events (same uuids) inserted five times.
  const same = ['$pageview', '$autocapture', '$screen'].map((event, i) => ({
    event, distinct_id: 'd1', timestamp: '2023-12-02T00:00:00Z', uuid: `0188c2b5-0000-4000-8000-00000000000${i}`, properties: { $session_id: S.idem },
  }));
  for (let i = 0; i < 5; i++) await capture(sessions, same);

  bounce = await project('bounce', {
    d1: [pageview(sid(11), 'https://example.com/1', '2023-12-02T00:00:00Z'), pageview(sid(11), 'https://example.com/2', '2023-12-03T00:00:00Z'), pageview(sid(12), 'https://example.com/3', '2023-12-12T00:00:00Z')],
    d2: [pageview(sid(13), 'https://example.com/4', '2023-12-11T00:00:00Z')],
    d3: [pageview(sid(14), 'https://example.com/5', '2023-12-11T00:00:00Z'), ev('$autocapture', '2023-12-11T00:00:00Z', { $session_id: sid(14), $current_url: 'https://example.com/5' })],
    d4: [pageview(sid(15), 'https://example.com/6', '2023-12-11T12:00:00Z'), ev('$pageleave', '2023-12-11T12:00:01Z', { $session_id: sid(15), $current_url: 'https://example.com/6' })],
    d5: [pageview(sid(16), 'https://example.com/7', '2023-12-11T12:00:00Z'), ev('$pageleave', '2023-12-11T12:00:11Z', { $session_id: sid(16), $current_url: 'https://example.com/7' })],
  });
  const on = (event: string, session: string, time: string) => ev(event, time, { $session_id: session });
  upTo = await project('up-to', {
    [sid(21)]: [
      on('$pageview', sid(21), '2023-12-02T00:00:00Z'), on('$pageview', sid(21), '2023-12-03T00:00:00Z'),
      on('$pageview', sid(22), '2023-12-02T00:00:00Z'), on('$autocapture', sid(22), '2023-12-03T00:00:00Z'),
      on('$pageview', sid(23), '2023-12-02T00:00:00Z'),
      ...[1, 2, 3, 4].map(() => on('$pageview', sid(24), '2023-12-02T00:00:00Z')),
      on('$screen', sid(25), '2023-12-02T00:00:00Z'),
    ],
  });
  lcp = await project('lcp', {
    [sid(81)]: [ev('$pageview', at(0), { $session_id: sid(81), $pathname: '/1' })],
    [sid(82)]: [ev('$web_vitals', at(0), { $session_id: sid(82), $web_vitals_LCP_value: '2.0' })],
    [sid(83)]: [ev('$pageview', at(0), { $session_id: sid(83), $web_vitals_LCP_value: '3.0' })],
    [sid(84)]: [ev('$web_vitals', at(0), { $session_id: sid(84), $web_vitals_LCP_value: '4.1' }), ev('$web_vitals', at(1), { $session_id: sid(84), $web_vitals_LCP_value: '4.2' })],
  });
  bounce15 = await project('bounce-15', {
    d4: [pageview(sid(31), 'https://example.com/6', '2023-12-11T12:00:00Z'), ev('$pageleave', '2023-12-11T12:00:15Z', { $session_id: sid(31), $current_url: 'https://example.com/6' })],
  });

  persons = await project('persons', {
    1: [ev('$pageview', '2024-01-01T12:00:00Z', { $set: { $some_prop: 'something', $another_prop: 'something1' } })],
    2: [
      ev('$pageview', '2024-01-01T13:00:00Z', { $set: { $some_prop: 'ifwematcholdversionsthiswillmatch', $another_prop: 'something2' } }),
      ev('$set', '2024-01-01T13:00:01Z', { $set: { $some_prop: 'something' } }),
    ],
    3: [ev('$pageview', '2024-01-01T14:00:00Z', { $set: { $some_prop: 'not something', $another_prop: 'something3' } })],
  });
  twoPersons = await project('two-persons', {
    p1: [ev('$set', '2024-01-01T00:00:00Z', { $set: { $some_prop: 'a' } })],
    p2: [ev('$set', '2024-01-01T00:00:01Z', { $set: { $some_prop: 'b' } })],
  });
  threePersons = await project('three-persons', Object.fromEntries([0, 1, 2].map((i) => [`count_person_${i}`, [ev('$set', '2024-01-01T00:00:00Z')]])));
  const marker = 'cohort_match_RANDOM_TEST_ID::schema';
  cohortPersons = await project('cohort-persons', {
    cohort_member: [ev('$set', '2024-01-01T00:00:00Z', { $set: { email: 'cohort_member@example.com', cohort_marker: marker } })],
    ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`non_cohort_${i}`, [ev('$set', '2024-01-01T00:00:00Z', { $set: { email: `user${i}@example.com`, cohort_marker: 'no_match' } })]])),
  });
  const cohort = await t.request(cohortPersons.key, {
    method: 'POST', url: `/api/projects/${cohortPersons.projectId}/cohorts/`,
    payload: { name: 'markers', groups: [{ properties: [{ key: 'cohort_marker', value: marker, type: 'person' }] }] },
  });
  expect(cohort.statusCode, cohort.body).toBe(201);
  cohortId = cohort.json().id;
  unset = await project('unset', {
    'null-json': [
      ev('$set', '2024-01-01T12:00:00Z', { $set: { jsonprop: 'stale_old_value', untouched: 'keep' } }),
      ev('$set', '2024-01-01T12:00:01Z', { $unset: ['jsonprop'] }),
    ],
  });

  groups10 = await project('groups-10', {
    setup: [...keys(10).slice(1).map((key, i) => group(key, { name: `name-${i + 1}` })), group('g00', { name: 'STALE' }, '2020-01-01T00:00:00Z'), group('g00', { name: 'LATEST' }, '2024-01-01T00:00:00Z')],
  });
  groups12 = await project('groups-12', { setup: keys(12).map((key) => group(key, {})) });
  ranked = await project('ranked', { setup: keys(12).map((key, i) => group(key, { rank: i === 11 ? '999' : String(i) })) });
  tagged = await project('tagged', { setup: keys(12).map((key, i) => group(key, { tag: i === 11 ? 'needle' : 'haystack' })) });
  events = await project('events', { d1: [pageview(sid(41), 'https://example.com', at(0))] });
  onEvents = await project('on-events', {
    d1: [
      pageview(sid(51), 'https://example.com', '2024-01-01T00:00:00Z'), pageview(sid(51), 'https://example.com/page2', '2024-01-01T00:05:00Z'),
      pageview(sid(52), 'https://example.com/first', '2024-01-01T00:00:00Z'), pageview(sid(52), 'https://example.com/second', '2024-01-01T00:01:00Z'),
      ev('$pageview', '2024-01-01T00:00:00Z', { $session_id: sid(53), utm_source: 'google', utm_campaign: 'summer_sale', utm_medium: 'cpc' }),
      ev('$pageview', '2024-01-01T00:00:00Z', { $session_id: sid(54), $current_url: 'https://example.com/entry', utm_source: 'google' }),
      pageview(sid(54), 'https://example.com/exit', '2024-01-01T00:05:00Z'),
    ],
  });
  utmSources = await project('utm-sources', {
    d1: [ev('$pageview', at(0), { $session_id: sid(61), utm_source: 'google' })],
    d2: [ev('$pageview', at(0), { $session_id: sid(62), utm_source: 'facebook' })],
  });
  durations = await project('durations', {
    d1: [ev('$pageview', '2024-01-01T00:00:00Z', { $session_id: sid(71) }), ev('$pageview', '2024-01-01T00:10:00Z', { $session_id: sid(71) })],
    d2: [ev('$pageview', '2024-01-01T00:20:00Z', { $session_id: sid(72) }), ev('$pageview', '2024-01-01T00:40:00Z', { $session_id: sid(72) })],
  });
  emails = await project('emails', {
    'distinct-id': [ev('$pageview', at(0), { $set: { email: 'my-example@gmail.com' } })],
    distinct_id_with_no_email: [ev('$pageview', at(0))],
  });
});
afterAll(() => t.close());

describe('test_sessions_v3.py', () => {
  it('test_select_star_from_sessions: one row', async () => {
    expect(await rows(sessions, 'select * from sessions where session_id = {session_id}', { session_id: S.star })).toHaveLength(1);
  });

  it('test_persons_and_sessions_on_events: the person of each event and its session entry utm_source', async () => {
    const found = await rows(sessions, 'select events.person_id, session.$entry_utm_source from events where $session_id = {session_id} or $session_id = {session_id2} order by 2 asc', { session_id: S.p1, session_id2: S.p2 });
    expect(found).toEqual([[await personIdOf(sessions, 'd1'), 'source1'], [await personIdOf(sessions, 'd2'), 'source2']]);
  });

  it.each([
    ['test_empty_counts', S.empty, [[0, 0, 0]]],
    ['test_counts', S.counts, [[1, 2, 3]]],
    ['test_idempotent_event_counts', S.idem, [[1, 1, 1]]],
  ])('%s', async (_name, session, expected) => {
    expect(await rows(sessions, 'select $pageview_count, $autocapture_count, $screen_count from sessions where id = {session_id}', { session_id: session })).toEqual(expected);
  });

  it('test_page_screen_autocapture_count_up_to: page views, screens and autocaptures counted up to 2', async () => {
    expect(await rows(upTo, 'select $page_screen_autocapture_count_up_to from sessions ORDER BY session_id')).toEqual([[2], [2], [1], [2], [1]]);
  });

  it('test_bounce_rate', async () => {
    expect(await rows(bounce, 'select $is_bounce, session_id from sessions ORDER BY session_id')).toEqual([
      [0, sid(11)], [1, sid(12)], [1, sid(13)], [0, sid(14)], [1, sid(15)], [0, sid(16)],
    ]);
  });

  it('test_custom_bounce_rate_duration (its default half: no bounceRateDurationSeconds modifier in Hoglet)', async () => {
    expect(await rows(bounce15, 'select $is_bounce, session_id from sessions ORDER BY session_id')).toEqual([[0, sid(31)]]);
  });

  it('test_lcp (test_sessions_v2.py): the first LCP value of the session, NULL without one', async () => {
    expect(await rows(lcp, 'select $vitals_lcp from sessions order by session_id')).toEqual([[null], [2.0], [3.0], [4.1]]);
  });

  it('test_last_external_click_url', async () => {
    expect(await rows(sessions, 'select $last_external_click_url from sessions where session_id = {session_id}', { session_id: S.click })).toEqual([['https://example.com/2']]);
  });

  it('test_can_use_v1_and_v2_fields', async () => {
    const query = `select $session_duration, duration, $end_current_url, $exit_current_url, $end_pathname, $exit_pathname
      from sessions where session_id = {session_id}`;
    expect(await rows(sessions, query, { session_id: S.fields })).toEqual([[0, 0, 'https://example.com/pathname', 'https://example.com/pathname', '/pathname', '/pathname']]);
  });

  it('test_event_sessions_where_event_timestamp: a trailing comma, and the alias read in WHERE', async () => {
    const query = `select session.id as session_id, from events where session_id = {session_id} AND timestamp >= '1970-01-01'`;
    expect(await rows(sessions, query, { session_id: S.fields })).toEqual([[S.fields]]);
  });

  it('test_event_sessions_where', async () => {
    expect(await rows(sessions, "select count() from events where events.session.$entry_pathname = '/pathname'")).toEqual([[1]]);
  });
});

describe('test_sessions_on_events.py', () => {
  it.each([
    ['test_session_duration', 'select session.duration from events where $session_id = {session_id}', sid(51), [[300], [300]]],
    ['test_session_entry_url', 'select session.$entry_current_url from events where $session_id = {session_id} order by timestamp', sid(52), [['https://example.com/first'], ['https://example.com/first']]],
    ['test_session_timestamps', 'select session.$start_timestamp, session.$end_timestamp from events where $session_id = {session_id} order by timestamp limit 1', sid(51), [['2024-01-01T00:00:00Z', '2024-01-01T00:05:00Z']]],
    ['test_session_attribution_fields', 'select session.$entry_utm_source, session.$entry_utm_campaign, session.$entry_utm_medium from events where $session_id = {session_id}', sid(53), [['google', 'summer_sale', 'cpc']]],
    ['test_multiple_session_properties', 'select session.$entry_current_url, session.$end_current_url, session.$entry_utm_source from events where $session_id = {session_id} limit 1', sid(54), [['https://example.com/entry', 'https://example.com/exit', 'google']]],
    ['test_can_alias_table', 'select e.session.duration from events as e where $session_id = {session_id}', sid(51), [[300], [300]]],
  ])('%s', async (_name, query, session, expected) => {
    expect(await rows(onEvents, query, { session_id: session })).toEqual(expected);
  });

  it('test_can_use_session_on_events_and_person_overrides_together', async () => {
    const found = await rows(onEvents, 'select session.duration, person_id from events where $session_id = {session_id} limit 1', { session_id: sid(51) });
    expect(found).toEqual([[300, await personIdOf(onEvents, 'd1')]]);
  });

  it('test_session_property_in_where_clause', async () => {
    expect(await rows(utmSources, "select event from events where session.$entry_utm_source = 'google'")).toEqual([['$pageview']]);
  });

  it('test_session_duration_aggregation: the mean over events of their session\'s duration', async () => {
    expect(await rows(durations, 'select avg(session.duration) from events')).toEqual([[15 * 60]]);
  });
});

// Both classes (Hoglet has one persons-on-events mode). Skipped: they expect NULL NOT LIKE '...' to
// drop the row, as PostHog's printer once did; its current printer makes a NULL side of NOT LIKE true
// (value_if_one_side_is_null), as for !=, and Hoglet follows that printer (compare.ts).
describe.skip('test_persons_via_events.py', () => {
  it('test_can_filter_by_not_contains_and_get_no_results', async () => {
    expect(await rows(emails, "SELECT person_id, distinct_id FROM events WHERE person.properties.email NOT LIKE '%@gmail.com%'")).toEqual([]);
  });

  it('test_can_filter_by_not_contains_and_get_results: the person without an email is not a match', async () => {
    const found = await rows(emails, "SELECT person_id, distinct_id FROM events WHERE person.properties.email NOT LIKE '%@hotmail.com%'");
    expect(found).toEqual([[await personIdOf(emails, 'distinct-id'), 'distinct-id']]);
  });
});

describe('test_persons.py', () => {
  it.each([
    ['test_simple_filter', "select id, properties from persons where properties.$some_prop = 'something'"],
    // PostHog writes person 2's new version without an event; here it is a `$set` event, left out by its name.
    ['test_joins_are_left_alone_for_now', "select uuid from events where person.properties.$some_prop = 'something' and event = '$pageview'"],
    ['test_order_by_limit_transferred', "select id, properties from persons where properties.$some_prop = 'something' ORDER BY created_at DESC LIMIT 2"],
  ])('%s: the two persons whose latest $some_prop matches', async (_name, query) => {
    expect(await rows(persons, query)).toHaveLength(2);
  });

  it('test_v2_order_by_and_limit_pushed_down: two rows', async () => {
    expect(await rows(twoPersons, 'SELECT id, properties.$some_prop FROM persons ORDER BY created_at DESC LIMIT 2')).toHaveLength(2);
  });

  it('test_v2_cohort_where_does_not_push_limit_down: the one member', async () => {
    const found = await rows(cohortPersons, `SELECT id, properties.email FROM persons WHERE id IN COHORT ${cohortId} ORDER BY created_at DESC LIMIT 3`);
    expect(found).toHaveLength(1);
    expect(found[0]![1]).toBe('cohort_member@example.com');
  });

  it.each([
    ['count_v2 and count_default', 'SELECT count() FROM persons LIMIT 1', 0],
    ['window_total_v2', 'SELECT id, count() OVER () AS total FROM persons LIMIT 1', 1],
  ])('test_totals_over_persons_are_not_capped_by_limit (%s)', async (_name, query, index) => {
    expect((await rows(threePersons, query))[0]![index]).toBe(3);
  });

  it('test_nullable_property_keeps_wrap_and_latest_null_wins (json): the latest version unset it', async () => {
    const pid = await personIdOf(unset, 'null-json');
    expect(await rows(unset, 'SELECT properties.jsonprop, properties.untouched FROM persons WHERE id = {pid}', { pid })).toEqual([[null, 'keep']]);
  });

  it('test_non_nullable_columns_are_simplified: the person by its id', async () => {
    const pid = await personIdOf(unset, 'null-json');
    const found = await rows(unset, 'SELECT id, created_at FROM persons WHERE id = {pid}', { pid });
    expect(String(found[0]![0])).toBe(pid);
  });
});

describe('test_groups.py', () => {
  it('test_bare_limit_two_phase_returns_correct_deduplicated_rows: ten distinct keys, g00 at its latest', async () => {
    const found = (await rows(groups10, 'SELECT key, properties.name FROM groups LIMIT 10')) as [string, string][];
    expect(found).toHaveLength(10);
    expect(new Set(found.map(([key]) => key)).size).toBe(10);
    expect(Object.fromEntries(found).g00).toBe('LATEST');
  });

  it('test_aggregate_without_group_by_counts_all_groups', async () => {
    expect((await rows(groups12, 'SELECT count() FROM groups LIMIT 5'))[0]![0]).toBe(12);
  });

  it('test_null_limit_does_not_crash_the_compiler: an answer, never a 500', async () => {
    const { status } = await hogql(groups12, 'SELECT key FROM groups LIMIT NULL');
    expect(status).toBeLessThan(500);
  });

  it('test_order_by_limit_returns_global_top_and_is_not_limited', async () => {
    const found = await rows(ranked, 'SELECT key FROM groups ORDER BY toInt(properties.rank) DESC LIMIT 5');
    expect(found).toHaveLength(5);
    expect(found[0]![0]).toBe('g11');
  });

  it.each([
    ['where', "SELECT key FROM groups WHERE properties.tag = 'needle' LIMIT 5"],
    ['having', "SELECT key FROM groups HAVING properties.tag = 'needle' LIMIT 5"],
  ])('test_post_dedup_filter_is_not_pushed (%s)', async (_name, query) => {
    expect(await rows(tagged, query)).toEqual([['g11']]);
  });

  it.each([
    ['test_array_join_is_not_pushed', 'SELECT key FROM groups ARRAY JOIN [1, 2] AS x LIMIT 5', 5],
    ['test_distinct_limit_is_not_pushed', 'SELECT DISTINCT key FROM groups LIMIT 5', 5],
    ['test_aliased_groups_select_still_pushes_limit', 'SELECT g.key FROM groups AS g LIMIT 10', 10],
  ])('%s', async (_name, query, count) => {
    expect(await rows(groups12, query)).toHaveLength(count);
  });
});

describe('test_events.py', () => {
  it('test_select_star_from_events: one row', async () => {
    expect(await rows(events, 'select * from events')).toHaveLength(1);
  });
});
