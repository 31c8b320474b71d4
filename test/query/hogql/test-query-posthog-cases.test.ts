// PostHog's posthog/hogql/test/test_query.py as data, the cases not ported elsewhere: the others are
// in hogql-http.test.ts (selects, subqueries, lambdas, arrays, tuples, the 1-level pivot, null
// properties, regexes, {filters}), joins-posthog-cases.test.ts (the joins), hogql-posthog-cases.test.ts
// (??, named windows, numbers()) and filters-posthog-cases.test.ts; what is left out, and why, is in
// docs/hogql-posthog-tests.md. Each case here: the query text, placeholders as
// the HogQLQuery's `values`, and the rows (or error) PostHog's test expects, over the data its test
// creates, captured through /batch/ (a person's properties as $set on its first event) and run
// through POST /api/projects/:id/query/. Each PostHog test gets a project of its own where its rows
// depend on the whole table, as each of its tests gets a fresh team.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows, postHogQL } from '../../helpers/hogql.js';
import { ev, journeys, type JourneyEvent } from '../../helpers/journeys.js';

let t: TestApp;
const TS = '2020-01-10T00:00:00Z';
const RANDOM = 'RANDOM_TEST_ID::0b9c5d2e';

async function project(name: string, stories: Record<string, JourneyEvent[]>): Promise<Credentials> {
  const who = await t.bootstrap(`test-query-${name}@example.com`);
  await journeys(t, who, stories);
  return who;
}

const hogql = (who: Credentials, query: string, extra: Record<string, unknown> = {}) => postHogQL(t, who, query, extra);
const rows = (who: Credentials, query: string, extra: Record<string, unknown> = {}) => hogqlRows(t, who, query, extra);

async function refused(who: Credentials, query: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { status, body } = await hogql(who, query, extra);
  expect(status, `${query}: ${JSON.stringify(body)}`).toBe(400);
  return body.detail;
}

/** PostHog's `_create_random_events`: person bla (sneaky_mail, random_uuid) with two events. */
const randomEvents = (at = TS): Record<string, JourneyEvent[]> => ({
  bla: [
    ev('random event', at, { random_prop: "don't include", random_uuid: RANDOM, index: 0, $set: { sneaky_mail: 'tim@posthog.com', random_uuid: RANDOM } }),
    ev('random event', at, { random_prop: "don't include", random_uuid: RANDOM, index: 1 }),
  ],
});

/** test_window_functions_*: five persons, three events each, ten minutes apart. */
const WINDOW_PERSONS = [0, 1, 2, 3, 4].map((n) => `person_${n}_${RANDOM}`);
const windowEvents = (): Record<string, JourneyEvent[]> => Object.fromEntries(WINDOW_PERSONS.map((id, n) => [id, [
  ev('random event', '2020-01-10T00:00:00Z', { character: 'Luigi', $set: { name: `Person ${n}`, random_uuid: RANDOM } }),
  ev('random bla', '2020-01-10T00:10:00Z', { character: 'Luigi' }),
  ev('random boo', '2020-01-10T00:20:00Z', { character: 'Luigi' }),
]]));

/** test_property_access_with_arrays' event. */
const BIG_EVENT = {
  string: RANDOM,
  array_str: [RANDOM],
  obj_array: { id: [RANDOM] },
  array_array_str: [[RANDOM]],
  array_obj: [{ id: RANDOM }],
  array_obj_array: [{ id: [RANDOM] }],
  array_obj_array_obj: [{ id: [{ id: RANDOM }] }],
};

// uuid7 session ids as PostHog's test makes them: uuid7("2024-07-03", 42) and uuid7("2024-07-04", 43).
const S1 = '01907650-7800-7000-8000-00000000002a';
const S2 = '01907b76-d400-7000-8000-00000000002b';
const SESSION = '0189f1a4-1a00-7000-8000-000000000001';

let random: Credentials;
let misc: Credentials;
let arrays: Credentials;
let cohorts: Credentials;
let sessionFilters: Credentials;
let sessionRange: Credentials;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  random = await project('random', randomEvents());
  misc = await project('misc', {
    ...windowEvents(),
    // test_events_sessions_table: the random events at 12:00, then two events in one session.
    ...randomEvents('2020-01-10T12:00:00Z'),
    [RANDOM]: [ev('random event', '2020-01-10T12:10:00Z', { $session_id: SESSION }), ev('random event', '2020-01-10T12:20:00Z', { $session_id: SESSION })],
  });
  arrays = await project('arrays', { [`P${RANDOM}`]: [ev('big event', TS, BIG_EVENT)] });
  cohorts = await project('cohorts', {
    some_other_id: [ev('$pageview', TS, { attr: 'some_val', $set: { $some_prop: 'something' } })],
    some_id: [ev('$pageview', TS, { attr: 'some_val', $set: { $some_prop: 'something', $another_prop: 'something' } })],
    no_match: [ev('$set', TS)],
  });
  sessionFilters = await project('session-filters', {
    [S1]: [ev('$pageview', '2024-07-05T00:00:00Z', { $session_id: S1, $current_url: 'https://example.com/1' })],
    [S2]: [ev('$pageview', '2024-07-05T00:00:00Z', { $session_id: S2, $current_url: 'https://example.com/2' })],
  });
  sessionRange = await project('session-range', {
    [S1]: [ev('$pageview', '2024-07-03T00:00:00Z', { $session_id: S1, $current_url: 'https://example.com/1' })],
    [S2]: [ev('$pageview', '2024-07-05T00:00:00Z', { $session_id: S2, $current_url: 'https://example.com/2' })],
  });
});
afterAll(() => t.close());

describe('test_query.py: selects over _create_random_events', () => {
  it('test_query_timings: timings end with the whole query, "."', async () => {
    const { status, body } = await hogql(random, 'select count(), event from events where properties.random_uuid = {random_uuid} group by event', { values: { random_uuid: RANDOM } });
    expect(status).toBe(200);
    expect(body.results).toEqual([[2, 'random event']]);
    expect(body.timings.length).toBeGreaterThan(0);
    for (const timing of body.timings) expect(timing).toEqual({ k: expect.any(String), t: expect.any(Number) });
    expect(body.timings.at(-1).k).toBe('.');
  });

  it('test_with_pivot_table_2_levels: a CTE reading a CTE reading CTEs', async () => {
    const query = `WITH PIVOT_TABLE_COL_ABC AS (
          SELECT properties.index as col_a, event as col_b, count() as col_c FROM events GROUP BY properties.index, event),
        PIVOT_FUNCTION_1 AS (select col_a, groupArray( (col_b, col_c) ) as g from PIVOT_TABLE_COL_ABC group by col_a),
        PIVOT_FUNCTION_2 AS (select col_a, arrayZip( (sumMap( g.1, g.2 ) as x).1, x.2) as r from PIVOT_FUNCTION_1 group by col_a),
        final as (select * from PIVOT_FUNCTION_2)
      SELECT * FROM final ORDER BY col_a`;
    // col_a is PostHog's text "0"/"1"; Hoglet types a numeric property by its definition (item 11), so compared as text here.
    const found = (await rows(random, query)).map(([colA, r]) => [String(colA), r]);
    expect(found).toEqual([['0', [['random event', 1]]], ['1', [['random event', 1]]]]);
  });

  it('test_hogql_union_all_limits: each SELECT of a UNION ALL gets its own LIMIT 100', async () => {
    const { status, body } = await hogql(random, 'SELECT event FROM events UNION ALL SELECT event FROM events');
    expect(status).toBe(200);
    expect(body.results).toEqual([['random event'], ['random event'], ['random event'], ['random event']]);
  });

  it('test_property_access_with_arrays_zero_index_error', async () => {
    expect(await refused(random, 'SELECT properties.something[0] FROM events')).toBe('SQL indexes start from one, not from zero. E.g: array[1]');
    expect(await refused(random, 'SELECT properties.something.0 FROM events')).toBe('SQL indexes start from one, not from zero. E.g: array.1');
  });

  // Frozen at 2025-02-15 there: no events in the last days, so no rows (the events here are of 2020).
  it('test_hogql_groupby_unnecessary_ifnull, test_hogql_unnecessary_ifnull, test_hogql_proper_ifnull: no rows', async () => {
    expect(await rows(random, `select toDate(timestamp) as timestamp, count() as cnt from events
      where timestamp >= addDays(today(), -10) group by timestamp having cnt > 10 limit 1`)).toEqual([]);
    expect(await rows(random, `select toDate(timestamp) as timestamp, JSONExtractInt(properties, 'field') as json_int from events
      where timestamp >= addDays(today(), -10) and json_int = 17 limit 1`)).toEqual([]);
    expect(await rows(random, `WITH latest_events AS (
          SELECT distinct_id, argMax(properties.$os_version, timestamp) AS latest_os_version FROM events
          WHERE properties.$os = 'iOS' AND timestamp >= now() - INTERVAL 30 DAY GROUP BY distinct_id),
        major_versions AS (
          SELECT distinct_id, latest_os_version, splitByChar('.', ifNull(latest_os_version, ''))[1] AS major_version FROM latest_events)
      SELECT major_version, count() AS user_count, round(100 * count() / sum(count()) OVER (), 2) AS percentage
      FROM major_versions WHERE major_version IN ('17', '18', '26') GROUP BY major_version ORDER BY major_version`)).toEqual([]);
  });
});

describe('test_query.py: operators and functions', () => {
  it('test_between_operators', async () => {
    const cases: [string, number][] = [
      ['5 between 1 and 10', 1], ['1 between 1 and 10', 1], ['10 between 1 and 10', 1], ['0 between 1 and 10', 0], ['11 between 1 and 10', 0],
      ['5 not between 1 and 10', 0], ['0 not between 1 and 10', 1], ['11 not between 1 and 10', 1], ['10 not between 1 and 10', 0],
      ['null between 1 and 10', 0], ['5 between null and 10', 0], ['5 between 1 and null', 0],
    ];
    for (const [expr, expected] of cases) expect(await rows(random, `select ${expr}`), expr).toEqual([[expected]]);
  });

  it('test_null_equality: selected directly and through the columns of subqueries', async () => {
    const cases: [string, string, string, number][] = [];
    const ops = ['=', '!=', '<', '<=', '>', '>='];
    const numeric: Record<string, [string, string, number][]> = {
      '=': [['null', '2', 0], ['2', 'null', 0], ['3', '4', 0], ['3', '3', 1], ['null', 'null', 1]],
      '!=': [['null', '2', 1], ['2', 'null', 1], ['3', '4', 1], ['3', '3', 0], ['null', 'null', 0]],
      '<': [['null', '2', 0], ['2', 'null', 0], ['3', '4', 1], ['3', '3', 0], ['null', 'null', 0]],
      '<=': [['null', '2', 0], ['2', 'null', 0], ['3', '4', 1], ['3', '3', 1], ['3', '2', 0], ['null', 'null', 0]],
      '>': [['null', '2', 0], ['2', 'null', 0], ['4', '3', 1], ['3', '3', 0], ['null', 'null', 0]],
      '>=': [['null', '2', 0], ['2', 'null', 0], ['4', '3', 1], ['3', '3', 1], ['2', '3', 0], ['null', 'null', 0]],
    };
    for (const op of ops) for (const [a, b, res] of numeric[op]!) cases.push([a, op, b, res]);
    // The text operators: positive ones match like '=', negated ones like '!='.
    for (const [op, negated] of [['like', 'not like'], ['ilike', 'not ilike'], ['=~', '!~'], ['=~*', '!~*']] as const) {
      cases.push(['null', op, "'2'", 0], ["'2'", op, 'null', 0], ["'3'", op, "'4'", 0], ["'3'", op, "'3'", 1], ['null', op, 'null', 1]);
      cases.push(['null', negated, "'2'", 1], ["'2'", negated, 'null', 1], ["'3'", negated, "'4'", 1], ["'3'", negated, "'3'", 0], ['null', negated, 'null', 0]);
    }
    expect(cases).toHaveLength(72);
    const forms = [
      ([a, op, b]: [string, string, string]) => `select ${a} ${op} ${b}`,
      ([a, op, b]: [string, string, string]) => `select a ${op} b from (select ${a} as a, ${b} as b)`,
      ([a, op, b]: [string, string, string]) => `select ${a} ${op} b from (select ${b} as b)`,
      ([a, op, b]: [string, string, string]) => `select a ${op} ${b} from (select ${a} as a)`,
    ];
    const answers: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const form of forms) {
      for (const [a, op, b, res] of cases) {
        const query = form([a, op, b]);
        expected[query] = [[res]];
        answers[query] = await rows(random, query);
      }
    }
    expect(answers).toEqual(expected);
  });

  it('test_time_window_functions', async () => {
    const query = `SELECT
        tumble(toDateTime('2020-01-01'), toIntervalDay('1')),
        tumbleStart(toDateTime('2020-01-01'), toIntervalDay('1')),
        tumbleEnd(toDateTime('2020-01-01'), toIntervalDay('1')),
        hop(toDateTime('2020-01-01'), toIntervalDay('1'), toIntervalDay('2')),
        hopStart(toDateTime('2020-01-01'), toIntervalDay('1'), toIntervalDay('2')),
        hopEnd(toDateTime('2020-01-01'), toIntervalDay('1'), toIntervalDay('2'))`;
    expect(await rows(random, query)).toEqual([[
      ['2020-01-01T00:00:00Z', '2020-01-02T00:00:00Z'], '2020-01-01T00:00:00Z', '2020-01-02T00:00:00Z',
      ['2019-12-31T00:00:00Z', '2020-01-02T00:00:00Z'], '2019-12-31T00:00:00Z', '2020-01-02T00:00:00Z',
    ]]);
  });

  // Skipped: PostHog's two sources disagree. Its function mapping (posthog/hogql/functions/posthog.py)
  // now reads strict X.Y.Z and gives [NULL] for anything else, which Hoglet follows
  // (functions-posthog-mapping.test.ts); this test file still expects the earlier lenient form
  // (every leading run of dotted numbers: '1.2.3.4.15bac.16' -> [1, 2, 3, 4, 15]).
  it.skip('test_sortable_semver', async () => {
    const query = "SELECT arrayJoin(['0.0.0.0.1000', '0.9', '0.2354.2', '1.0.0', '1.1.0', '1.2.0', '1.9.233434.10', '1.10.0', '1.1000.0', '2.0.0', '2.2.0.betabac', '2.2.1']) AS semver ORDER BY sortableSemVer(semver) DESC";
    expect(await rows(random, query)).toEqual(['2.2.1', '2.2.0.betabac', '2.0.0', '1.1000.0', '1.10.0', '1.9.233434.10', '1.2.0', '1.1.0', '1.0.0', '0.2354.2', '0.9', '0.0.0.0.1000'].map((v) => [v]));
  });

  it.skip('test_sortable_semver_output: everything after the first non-number is ignored (see test_sortable_semver)', async () => {
    expect(await rows(random, "SELECT sortableSemVer('1.2.3.4.15bac.16')")).toEqual([[[1, 2, 3, 4, 15]]]);
  });
});

describe('test_query.py: the misc data (windows, arrays, sessions)', () => {
  it('test_window_functions_simple', async () => {
    const query = `select distinct_id, timestamp, event,
        groupArray(event) OVER (PARTITION BY distinct_id ORDER BY timestamp ASC ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) AS two_before,
        groupArray(event) OVER (PARTITION BY distinct_id ORDER BY timestamp ASC ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) AS two_after
      from events
      where timestamp > toDateTime('2020-01-09 00:00:00') and distinct_id like '%_${RANDOM}'
      order by distinct_id, timestamp`;
    expect(await rows(misc, query)).toEqual(WINDOW_PERSONS.flatMap((id) => [
      [id, '2020-01-10T00:00:00Z', 'random event', [], ['random bla', 'random boo']],
      [id, '2020-01-10T00:10:00Z', 'random bla', ['random event'], ['random boo']],
      [id, '2020-01-10T00:20:00Z', 'random boo', ['random event', 'random bla'], []],
    ]));
  });

  it('test_property_access_with_arrays: dots and brackets into nested arrays and objects', async () => {
    const alternatives = [
      'properties.string', 'properties.array_str.1', 'properties.array_str[1]', 'properties.obj_array.id.1', 'properties.obj_array.id[1]',
      'properties.array_array_str.1.1', 'properties.array_array_str[1][1]', 'properties.array_obj_array.1.id.1',
      "properties.array_obj_array[1]['id'][1]", 'properties.array_obj_array_obj.1.id.1.id', 'properties.array_obj_array_obj[1].id[1].id',
      "properties.array_obj_array_obj[1]['id'][1]['id']", 'properties.array_obj.1.id', 'properties.array_obj[1].id',
    ];
    const found = await rows(arrays, `SELECT ${alternatives.join(',')} FROM events WHERE properties.string = '${RANDOM}'`);
    expect(found[0]).toEqual(alternatives.map(() => RANDOM));
  });

  it("test_events_sessions_table: an event's session and its duration", async () => {
    const query = 'SELECT session.session_id, session.$session_duration from events WHERE distinct_id={distinct_id} order by timestamp';
    expect(await rows(misc, query, { values: { distinct_id: RANDOM } })).toEqual([[SESSION, 600], [SESSION, 600]]);
  });
});

describe('test_query.py: cohort filters (test_prop_cohort_basic, test_prop_cohort_static)', () => {
  async function cohort(payload: Record<string, unknown>): Promise<number> {
    const res = await t.request(cohorts.key, { method: 'POST', url: `/api/projects/${cohorts.projectId}/cohorts/`, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  }

  // PostHog's placeholder is property_to_expr({type: cohort, key: id, value}): the same property
  // filter through `filters`, and the `person_id IN COHORT id` it stands for.
  async function eventsInCohort(id: number) {
    const cohortFilter = { properties: [{ type: 'cohort', key: 'id', value: id }] };
    return [
      await rows(cohorts, 'SELECT event, count() FROM events WHERE {filters} GROUP BY event', { filters: cohortFilter }),
      await rows(cohorts, 'SELECT event, count(*) FROM events WHERE {filters} GROUP BY event', { filters: cohortFilter }),
      await rows(cohorts, 'SELECT event, count() FROM events WHERE person_id IN COHORT {cohort} GROUP BY event', { values: { cohort: id } }),
    ];
  }

  it('test_prop_cohort_basic: a cohort of a person property', async () => {
    const id = await cohort({ name: 'cohort', groups: [{ properties: [{ key: '$some_prop', value: 'something', type: 'person' }] }] });
    expect(await eventsInCohort(id)).toEqual([[['$pageview', 2]], [['$pageview', 2]], [['$pageview', 2]]]);
  });

  it('test_prop_cohort_static: a static cohort of one person', async () => {
    const [personId] = (await rows(cohorts, "select person_id from person_distinct_ids where distinct_id = 'some_id'"))[0]!;
    const id = await cohort({ name: 'static', is_static: true, _create_static_person_ids: [personId] });
    expect(await eventsInCohort(id)).toEqual([[['$pageview', 1]], [['$pageview', 1]], [['$pageview', 1]]]);
  });
});

describe('test_query.py: {filters}', () => {
  it("test_hogql_query_filters_double_error: 'filters' as a value and as the query's filters", async () => {
    expect(await refused(random, 'SELECT event from events where {filters}', { filters: {}, values: { filters: true } }))
      .toBe("Query contains 'filters' both as placeholder and as a query parameter.");
  });

  it('test_hogql_query_session_filters: a session property filter over the sessions table', async () => {
    const filters = { properties: [{ type: 'session', key: '$entry_current_url', operator: 'exact', value: 'https://example.com/1' }] };
    expect(await rows(sessionFilters, 'SELECT session_id, $entry_current_url from sessions WHERE {filters}', { filters, values: {} }))
      .toEqual([[S1, 'https://example.com/1']]);
    // Beyond PostHog's case: over events the filter reads the event's session; a non-text field
    // compares as text; elsewhere it is PostHog's refusal.
    expect(await rows(sessionFilters, 'SELECT distinct_id FROM events WHERE {filters}', { filters })).toEqual([[S1]]);
    const duration = { properties: [{ type: 'session', key: '$session_duration', operator: 'exact', value: 0 }] };
    expect(await rows(sessionFilters, 'SELECT count() FROM sessions WHERE {filters}', { filters: duration })).toEqual([[2]]);
    expect(await refused(sessionFilters, 'SELECT count() FROM groups WHERE {filters}', { filters }))
      .toBe("The 'session' property filter does not work in 'group' scope");
    const mixed = { properties: [...filters.properties, { type: 'event', key: '$browser', operator: 'exact', value: 'x' }] };
    expect(await refused(sessionFilters, 'SELECT count() FROM sessions WHERE {filters}', { filters: mixed }))
      .toBe('Can only use session properties in a filter when selecting from only the sessions table.');
    expect(await refused(sessionFilters, 'SELECT count() FROM events WHERE {filters}', { filters: { properties: [{ type: 'session', key: 'nope', value: 'x' }] } }))
      .toBe('Unable to resolve field: session.nope');
  });

  it("test_hogql_query_filters_session_date_range: the range bounds the session's start", async () => {
    const filters = { dateRange: { date_from: '2024-07-04', date_to: '2024-07-06' } };
    expect(await rows(sessionRange, 'SELECT session_id, $entry_current_url from sessions WHERE {filters}', { filters, values: {} }))
      .toEqual([[S2, 'https://example.com/2']]);
  });
});

describe('test_numbers_table: the cases hogql-posthog-cases.test.ts leaves', () => {
  it('a count worked out by functions of constants', async () => {
    const query = "SELECT number from numbers(assumeNotNull(dateDiff('day', toStartOfDay(toDateTime('2011-12-31 00:00:00')), toDateTime('2012-01-14 23:59:59'))))";
    expect(await rows(random, query)).toEqual(Array.from({ length: 14 }, (_, i) => [i]));
  });

  // PostHog's ClickHouse refuses it (its old analyzer); Hoglet refuses it before it runs.
  it('a subquery in the arguments is refused', async () => {
    await refused(random, 'SELECT number from numbers(2 + ifNull((select 2), 1000))');
  });
});
