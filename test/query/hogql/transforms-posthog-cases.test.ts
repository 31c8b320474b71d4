// PostHog's posthog/hogql/transforms/test/* as data: test_cross_join.py's results case,
// test_in_cohort.py (its rows and errors; the
// inCohortVia modifier picks how PostHog prints the join, and Hoglet has one way, so each modifier's
// case runs the same query) and test_lazy_tables.py (PostHog asserts the SQL it prints; here each
// query's rows over two persons, which the lazy joins must find). Events captured through /batch/,
// cohorts through the Cohorts API, queries through POST /api/projects/:id/query/. What is left out,
// and why, is in docs/hogql-posthog-tests.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows, postHogQL } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
/** test_duplicates_and_merged_people_preserve_results: actor_a (two events) merged into actor_b. */
let crossJoin: Credentials;
const RANDOM = 'RANDOM_TEST_ID::transforms';
let dynamicCohort: number;
let staticCohort: number;
const ids: Record<string, string> = {};

const hogql = (query: string) => postHogQL(t, who, query);

const rows = (query: string) => hogqlRows(t, who, query);

async function cohort(payload: Record<string, unknown>): Promise<number> {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const sorted = (list: unknown[][]) => [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
/** A JSON text column read back as the object it holds. */
const parsed = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('transforms-cases@example.com');
  await journeys(t, who, {
    // test_in_cohort.py's _create_random_events: person bla ($os Chrome), one event named by the random id.
    bla: [ev(RANDOM, '2024-01-01T00:00:00Z', { $set: { $os: 'Chrome', random_uuid: RANDOM } })],
    // The lazy-table queries: two persons with one event each.
    alice: [ev('pageview', '2024-01-02T00:00:00Z', { $set: { email: 'alice@example.com', name: 'Alice', $browser: 'Chrome' } })],
    bob: [ev('click', '2024-01-02T00:00:01Z', { $set: { email: 'bob@example.com', $browser: { in: { json: 'deep' } } } })],
  });
  dynamicCohort = await cohort({ name: 'chrome', groups: [{ properties: [{ key: '$os', value: 'Chrome', type: 'person' }] }] });
  staticCohort = await cohort({ name: 'empty static', is_static: true });
  // test_in_cohort_deleted: a deleted cohort shares the name of a live one.
  const deleted = await cohort({ name: 'my cohort', is_static: true });
  const res = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/cohorts/${deleted}/`, payload: { deleted: true } });
  expect(res.statusCode, res.body).toBe(200);
  await cohort({ name: 'my cohort', is_static: true });
  crossJoin = await t.bootstrap('transforms-cross-join@example.com');
  await journeys(t, crossJoin, {
    actor_a: [ev('example_event', '2023-02-01T00:00:00Z'), ev('example_event', '2023-02-01T00:00:00Z')],
    actor_b: [ev('example_event', '2023-02-01T00:00:00Z')],
  });
  await journeys(t, crossJoin, { actor_b: [ev('$identify', '2023-02-05T00:00:00Z', { $anon_distinct_id: 'actor_a' })] });
  for (const person of ['bla', 'alice', 'bob']) {
    const [[id]] = (await rows(`SELECT person_id FROM person_distinct_ids WHERE distinct_id = '${person}'`)) as [[string]];
    ids[person] = id;
  }
});
afterAll(() => t.close());

describe('test_cross_join.py', () => {
  it('test_duplicates_and_merged_people_preserve_results: every pair of the merged person\'s events', async () => {
    const query = `SELECT l.distinct_id, r.distinct_id
      FROM events l CROSS JOIN events r
      WHERE l.person_id = r.person_id AND l.event = 'example_event' AND r.event = 'example_event'
      AND l.timestamp >= r.timestamp
      AND r.timestamp >= toDateTime('2023-02-01') AND r.timestamp < toDateTime('2023-02-02')
      ORDER BY l.distinct_id, r.distinct_id`;
    const res = await t.request(crossJoin.key, { method: 'POST', url: `/api/projects/${crossJoin.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query } } });
    expect(res.statusCode, res.body).toBe(200);
    const a = ['actor_a', 'actor_a'];
    expect(res.json().results).toEqual([a, a, a, a, ['actor_a', 'actor_b'], ['actor_a', 'actor_b'], ['actor_b', 'actor_a'], ['actor_b', 'actor_a'], ['actor_b', 'actor_b']]);
  });
});

describe('test_in_cohort.py', () => {
  it.each([
    ['test_in_cohort_dynamic', 'test_in_cohort_conjoined_dynamic'],
  ])('%s, %s: the member\'s event', async () => {
    expect(await rows(`SELECT event FROM events WHERE person_id IN COHORT ${dynamicCohort} AND event='${RANDOM}'`)).toEqual([[RANDOM]]);
  });

  it.each([
    ['test_in_cohort_static, test_in_cohort_conjoined_int', () => `SELECT event FROM events WHERE person_id IN COHORT ${staticCohort}`],
    ['test_in_cohort_strings, test_in_cohort_conjoined_string, test_in_cohort_deleted', () => "SELECT event FROM events WHERE person_id IN COHORT 'my cohort'"],
  ])('%s: an empty static cohort, no rows', async (_name, query) => {
    expect(await rows(query())).toEqual([]);
  });

  it.each([
    ['SELECT event FROM events WHERE person_id IN COHORT true', 'cohort() takes exactly one string or integer argument'],
    ["SELECT event FROM events WHERE person_id IN COHORT 'blabla'", "Could not find a cohort with the name 'blabla'"],
  ])('test_in_cohort_error, test_in_cohort_conjoined_error: %s', async (query, message) => {
    const { status, body } = await hogql(query);
    expect(status).toBe(400);
    expect(body.detail).toBe(message);
  });
});

describe('test_lazy_tables.py: the rows of each query PostHog prints', () => {
  const eventsWithPerson = () => [['click', ids.bob], ['pageview', ids.alice], [RANDOM, ids.bla]];

  it.each([
    ['test_resolve_lazy_tables', 'select event, pdi.person_id from events'],
    ['test_resolve_lazy_tables_traversed_fields', 'select event, person_id from events'],
    ['test_resolve_lazy_tables_two_levels', 'select event, pdi.person.id from events'],
    ['test_resolve_lazy_tables_two_levels_traversed', 'select event, person.id from events'],
  ])('%s: each event with its person', async (_name, query) => {
    expect(sorted(await rows(query))).toEqual(sorted(eventsWithPerson()));
  });

  it('test_resolve_lazy_tables_one_level_properties', async () => {
    expect(sorted(await rows('select person.properties.$browser from person_distinct_ids'))).toEqual(sorted([[null], ['Chrome'], ['{"in":{"json":"deep"}}']]));
  });

  it('test_resolve_lazy_tables_one_level_properties_deep', async () => {
    expect(sorted(await rows('select person.properties.$browser.in.json from person_distinct_ids'))).toEqual(sorted([[null], [null], ['deep']]));
  });

  it('test_resolve_lazy_tables_two_levels_properties', async () => {
    expect(sorted(await rows('select event, pdi.person.properties.$browser from events'))).toEqual(sorted([['click', '{"in":{"json":"deep"}}'], ['pageview', 'Chrome'], [RANDOM, null]]));
  });

  it('test_resolve_lazy_tables_two_levels_properties_duplicate', async () => {
    const found = sorted(await rows('select event, person.properties, person.properties.name from events')).map(([event, properties, name]) => [event, parsed(properties), name]);
    expect(found).toEqual(sorted([
      ['click', { email: 'bob@example.com', $browser: { in: { json: 'deep' } } }, null],
      ['pageview', { email: 'alice@example.com', name: 'Alice', $browser: 'Chrome' }, 'Alice'],
      [RANDOM, { $os: 'Chrome', random_uuid: RANDOM }, null],
    ]).map(([event, properties, name]) => [event, expect.objectContaining(properties as object), name]));
  });

  it('test_resolve_lazy_table_as_select_table', async () => {
    expect(sorted(await rows('select id, properties.email, properties.$browser from persons'))).toEqual(sorted([
      [ids.alice, 'alice@example.com', 'Chrome'], [ids.bob, 'bob@example.com', '{"in":{"json":"deep"}}'], [ids.bla, null, null],
    ]));
  });

  it('test_resolve_lazy_table_as_table_in_join', async () => {
    const query = 'select event, distinct_id, events.person_id, persons.properties.email from events left join persons on persons.id = events.person_id limit 10';
    expect(sorted(await rows(query))).toEqual(sorted([
      ['click', 'bob', ids.bob, 'bob@example.com'], ['pageview', 'alice', ids.alice, 'alice@example.com'], [RANDOM, 'bla', ids.bla, null],
    ]));
  });

  it('test_select_count_from_lazy_table', async () => {
    expect(await rows('select count() from persons')).toEqual([[3]]);
  });

  it('test_resolve_lazy_table_indirectly_referenced', async () => {
    expect(sorted(await rows('select person.id from events'))).toEqual(sorted([[ids.alice], [ids.bob], [ids.bla]]));
  });

  it('test_resolve_lazy_table_indirect_duplicate_references', async () => {
    const found = sorted(await rows('select person_id, person.properties from events')).map(([id, properties]) => [id, parsed(properties)]);
    expect(found.map(([id]) => id)).toEqual([ids.alice, ids.bob, ids.bla].sort());
    expect(found.find(([id]) => id === ids.alice)![1]).toMatchObject({ email: 'alice@example.com' });
  });
});
