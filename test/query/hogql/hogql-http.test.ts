// HogQL through /query/ as a client meets it: PostHog's own cases from posthog/hogql/test/test_query.py
// (data, query text and expected rows), the response shape, placeholders and {filters}, time zones,
// paging, the wrappers PostHog's tools send, and the errors, over events captured through /batch/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows, postHogQL } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
const RANDOM = 'RANDOM_TEST_ID::1f8b3c4e';
const TS = '2020-01-10T00:00:00Z';

const hogql = (query: string, extra: Record<string, unknown> = {}, credentials: Credentials = who) => postHogQL(t, credentials, query, extra);
const rows = (query: string, extra: Record<string, unknown> = {}) => hogqlRows(t, who, query, extra);

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('hogql-http@example.com');
  // PostHog's "_create_random_events": person bla with two events; plus an event with empty and null properties.
  await journeys(t, who, {
    bla: [
      ev('random event', TS, { random_prop: "don't include", random_uuid: RANDOM, index: 0, $set: { sneaky_mail: 'tim@posthog.com', random_uuid: RANDOM } }),
      ev('random event', TS, { random_prop: "don't include", random_uuid: RANDOM, index: 1 }),
      ev('empty event', '2020-01-10T00:00:01Z', { empty_string: '', null: null, str_zero: '0', num_zero: 0 }),
    ],
  });
});
afterAll(() => t.close());

describe("PostHog's test_query cases", () => {
  it('counts by event with a {placeholder} value, in the response shape of HogQLQuery', async () => {
    const { status, body } = await hogql('select count(), event from events where properties.random_uuid = {random_uuid} group by event', { values: { random_uuid: RANDOM } });
    expect(status).toBe(200);
    expect(body.results).toEqual([[2, 'random event']]);
    expect(body.columns).toEqual(['count()', 'event']);
    expect(body.types).toEqual([['count()', 'UInt64'], ['event', 'String']]);
    expect(body).toMatchObject({ hasMore: false, limit: 100, offset: 0, is_cached: false });
    // PostHog replaces placeholders before it prints the query (test_hogql_query_filters_alias shows the value).
    expect(body.hogql).toBe(`SELECT count(), event FROM events WHERE equals(properties.random_uuid, '${RANDOM}') GROUP BY event LIMIT 101 OFFSET 0`);
    expect(body.timings.map((x: { k: string }) => x.k)).toEqual(expect.arrayContaining(['./parse', './translate']));
  });

  it('subqueries, with and without an alias', async () => {
    const values = { values: { random_uuid: RANDOM } };
    expect(await rows('select cnt, event from (select count() as cnt, event from events where properties.random_uuid = {random_uuid} group by event) group by cnt, event', values)).toEqual([[2, 'random event']]);
    expect(await rows('select cnt, event from (select count(*) as cnt, event from events where properties.random_uuid = {random_uuid} group by event) as c group by cnt, event', values)).toEqual([[2, 'random event']]);
  });

  it('persons, person_distinct_ids, and the joins between them and events', async () => {
    expect(await rows('select distinct properties.sneaky_mail from persons where properties.random_uuid = {random_uuid}', { values: { random_uuid: RANDOM } })).toEqual([['tim@posthog.com']]);
    const [personId, distinctId] = (await rows("select distinct person_id, distinct_id from person_distinct_ids"))[0] as [string, string];
    expect(distinctId).toBe('bla');
    expect(personId).toMatch(/^[0-9a-f-]{36}$/);
    const joined = await rows("SELECT event, timestamp, pdi.distinct_id, p.id, p.properties.sneaky_mail FROM events e LEFT JOIN person_distinct_ids pdi ON pdi.distinct_id = e.distinct_id LEFT JOIN persons p ON p.id = pdi.person_id WHERE event = 'random event'");
    expect(joined).toEqual([['random event', TS, 'bla', personId, 'tim@posthog.com'], ['random event', TS, 'bla', personId, 'tim@posthog.com']]);
    const lazy = "WHERE event = 'random event' LIMIT 10";
    expect(await rows(`SELECT event, timestamp, pdi.distinct_id, pdi.person_id FROM events ${lazy}`)).toContainEqual(['random event', TS, 'bla', personId]);
    expect(await rows(`SELECT event, e.timestamp, e.pdi.distinct_id, pdi.person_id FROM events e ${lazy}`)).toContainEqual(['random event', TS, 'bla', personId]);
    expect(await rows(`SELECT event, timestamp, pdi.distinct_id, pdi.person.properties.sneaky_mail FROM events ${lazy}`)).toContainEqual(['random event', TS, 'bla', 'tim@posthog.com']);
    expect(await rows(`SELECT event, timestamp, person.id, person.properties.sneaky_mail FROM events ${lazy}`)).toContainEqual(['random event', TS, personId, 'tim@posthog.com']);
    expect(await rows('SELECT s.pdi.person.properties.sneaky_mail, count() FROM events s GROUP BY s.pdi.person.properties.sneaky_mail LIMIT 10')).toEqual([['tim@posthog.com', 3]]);
    expect(await rows('SELECT poe.properties.sneaky_mail, count() FROM events s GROUP BY poe.properties.sneaky_mail LIMIT 10')).toEqual([['tim@posthog.com', 3]]);
    expect(await rows('SELECT pdi.distinct_id, pdi.person.properties.sneaky_mail FROM person_distinct_ids pdi LIMIT 10')).toEqual([['bla', 'tim@posthog.com']]);
    // A person filter alone runs as a lookup of the matching persons; the answer is the join's.
    expect(await rows("SELECT count() FROM events WHERE person.properties.sneaky_mail = 'tim@posthog.com' AND event != 'quoted event'")).toEqual([[3]]);
    expect(await rows("SELECT count() FROM events WHERE person.properties.sneaky_mail != 'tim@posthog.com' AND distinct_id = 'bla'")).toEqual([[0]]);
  });

  it('tuple access and CTEs (the pivot tables)', async () => {
    // properties.index holds numbers, so its definition is Numeric and it reads as one (PostHog's
    // test has no definitions and gets '0' and '1'; property-types.test.ts).
    const expected = [[0, [['random event', 1]]], [1, [['random event', 1]]]];
    const inner = "SELECT properties.index as col_a, event as col_b, count() as col_c FROM events WHERE event = 'random event' GROUP BY properties.index, event";
    expect(await rows(`select col_a, arrayZip( (sumMap( g.1, g.2 ) as x).1, x.2) as r from (select col_a, groupArray( (col_b, col_c) ) as g from (${inner}) group by col_a) group by col_a ORDER BY col_a`)).toEqual(expected);
    expect(await rows(`WITH PIVOT_TABLE_COL_ABC AS (${inner}), PIVOT_FUNCTION_1 AS (select col_a, groupArray( (col_b, col_c) ) as g from PIVOT_TABLE_COL_ABC group by col_a), PIVOT_FUNCTION_2 AS (select col_a, arrayZip( (sumMap( g.1, g.2 ) as x).1, x.2) as r from PIVOT_FUNCTION_1 group by col_a) SELECT * FROM PIVOT_FUNCTION_2 ORDER BY col_a`)).toEqual(expected);
  });

  it('reads properties as PostHog does: "" stays "", JSON null and missing are null, numbers are text', async () => {
    // num_zero only ever held numbers: its definition is Numeric, so it reads as a number (PostHog's
    // test has no definitions and gets '0'; property-types.test.ts). `yes` and `n` below also held
    // text (the 'other kinds' event), so they have no type and read as their text.
    expect(await rows("SELECT properties.empty_string, properties.`null`, properties.undefined, properties.str_zero, properties.num_zero FROM events WHERE events.event='empty event'")).toEqual([['', null, null, '0', 0]]);
    // Only the surrounding quotes go: escapes inside stay as stored, objects and lists stay JSON (PostHog's quirks).
    await journeys(t, who, {
      quoting: [ev('quoted event', TS, { said: 'say "hi"', lone: '"', list: [1, 'a'], obj: { k: 'v' }, yes: true, sep: 'line\u2028end', tab: 'a\tb', plain: 'caf\u00e9 /x' })],
      kinds: [ev('other kinds', TS, { yes: 'text', n: 'text' })],
    });
    expect(await rows("SELECT properties.said, properties.lone, properties.list, properties.obj, properties.yes, properties.sep, properties.tab, properties.plain FROM events WHERE event = 'quoted event'"))
      .toEqual([['say \\"hi\\"', '\\"', '[1,"a"]', '{"k":"v"}', 'true', 'line\\u2028end', 'a\\tb', 'caf\u00e9 /x']]);
    // Equality reads the same values, whichever way it is computed.
    const matches = async (condition: string) => (await rows(`SELECT count() FROM events WHERE event = 'quoted event' AND ${condition}`))[0]![0];
    for (const condition of ["properties.plain = 'caf\u00e9 /x'", "properties.yes = 'true'", "properties.said = 'say \\\\\"hi\\\\\"'", "properties.list = '[1,\"a\"]'", "properties.tab != 'a\tb'", "properties.missing != 'x'",
      // A missing property compared is false, not unknown: NOT of it is true, in WHERE as anywhere.
      "NOT (properties.missing = 'x')", "NOT (properties.missing = 'x' AND 1 = 1)", "(properties.missing > 'a') = 0"]) {
      expect(await matches(condition), condition).toBe(1);
    }
    for (const condition of ["properties.plain = 'cafe'", "properties.missing = 'x'", "properties.yes = 'yes'", "properties.tab = 'a\tb'"]) {
      expect(await matches(condition), condition).toBe(0);
    }
    // Properties stored without a single backslash take the short way; a line separator there still
    // comes back escaped, as the engine writes it.
    await journeys(t, who, { unescaped: [ev('plain event', TS, { sep: 'line\u2028end', other: 'para\u2029end', plain: 'caf\u00e9 /x', n: 12, nothing: null })] });
    expect(await rows("SELECT properties.sep, properties.other, properties.plain, properties.n FROM events WHERE event = 'plain event'"))
      .toEqual([['line\\u2028end', 'para\\u2029end', 'caf\u00e9 /x', '12']]);
    const plainMatches = async (condition: string) => (await rows(`SELECT count() FROM events WHERE event = 'plain event' AND ${condition}`))[0]![0];
    for (const condition of ["properties.sep = 'line\\\\u2028end'", "properties.n = '12'", "'12' = properties.n", "properties.plain = 'caf\u00e9 /x'", "properties.nothing != 'null'", "properties.n != '12.0'"]) {
      expect(await plainMatches(condition), condition).toBe(1);
    }
    for (const condition of ["properties.sep = 'line\u2028end'", "properties.n = '\"12\"'", "properties.nothing = 'null'", "properties.missing = ''", "properties.n != '12'"]) {
      expect(await plainMatches(condition), condition).toBe(0);
    }
  });

  it('lambdas, arrays, BETWEEN, ?? and the ternary', async () => {
    expect(await rows('SELECT arrayMap(x -> x * 2, [1, 2, 3]), 1')).toEqual([[[2, 4, 6], 1]]);
    expect(await rows('SELECT [1, 2, 3], [10,11,12][1]')).toEqual([[[1, 2, 3], 10]]);
    const between = ['5 between 1 and 10', '0 between 1 and 10', '10 between 1 and 10', '11 not between 1 and 10', '10 not between 1 and 10', 'null between 1 and 10', '5 between null and 10'];
    expect(await rows(`select ${between.join(', ')}`)).toEqual([[1, 0, 1, 1, 0, 0, 0]]);
    expect(await rows("SELECT null ?? 1, null ?? null ?? 2, 3 ?? null, null ?? 'string', 1 + (null ?? 2) + 3, 10 ?? true ? 20 : 30")).toEqual([[1, 2, 3, 'string', 6, 20]]);
  });

  it("compares with NULL as PostHog's printer does", async () => {
    const cases: [string, number][] = [
      ['null = 2', 0], ['2 = null', 0], ['3 = 4', 0], ['3 = 3', 1], ['null = null', 1],
      ['null != 2', 1], ['2 != null', 1], ['3 != 3', 0], ['null != null', 0],
      ['null < 2', 0], ['null <= null', 0], ['3 < 4', 1], ['3 <= 3', 1], ['4 > 3', 1], ['3 >= 3', 1], ['2 >= 3', 0],
      ["null like '2'", 0], ["'3' like '3'", 1], ['null like null', 1], ["null ilike '2'", 0], ["'3' =~ '3'", 1], ['null =~ null', 1],
      ["null not like '2'", 1], ["'3' not like '3'", 0], ['null not like null', 0], ["'3' !~ '4'", 1],
    ];
    const answer = await rows(`select ${cases.map(([expr]) => expr).join(', ')}`);
    expect(answer[0]).toEqual(cases.map(([, result]) => result));
    // The same through columns of a subquery, where the values are not constants.
    const sub = await rows('select a = b, a != b, a < b from (select null as a, 2 as b)');
    expect(sub).toEqual([[0, 1, 0]]);
  });

  it('regular expressions', async () => {
    expect(await rows("SELECT 'kala' ~ '.*', 'kala' =~ '.*', 'kala' !~ '.*', 'kala' =~ 'a', 'kala' !~ 'a', 'kala' =~ 'A', 'kala' !~ 'A', 'kala' ~* 'A', 'kala' =~* 'A', 'kala' !~* 'A'"))
      .toEqual([[true, true, false, true, false, false, true, true, true, false].map(Number)]);
  });

  it('window functions with frames', async () => {
    const answer = await rows(`select timestamp, event,
      groupArray(event) OVER (PARTITION BY distinct_id ORDER BY timestamp ASC, event ASC ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) AS two_before,
      row_number() OVER (PARTITION BY distinct_id ORDER BY timestamp ASC, event ASC) AS rn
      from events where distinct_id = 'bla' order by timestamp, event`);
    expect(answer.map((row) => row.slice(1))).toEqual([
      ['random event', [], 1],
      ['random event', ['random event'], 2],
      ['empty event', ['random event', 'random event'], 3],
    ]);
    expect(answer[2]![0]).toBe('2020-01-10T00:00:01Z');
  });
});

describe('{filters}, paging, time zones and wrappers', () => {
  it("lays `filters` over {filters}: properties, date range (PostHog's test_hogql_query_filters)", async () => {
    const user = 'filters-user';
    await journeys(t, who, { [user]: Array.from({ length: 10 }, (_, i) => ev('random event', TS, { index: i, user_key: user })) });
    const query = 'SELECT event, distinct_id from events WHERE distinct_id={distinct_id} and {filters}';
    const index4 = [{ key: 'index', operator: 'exact', value: '4', type: 'event' }];
    const run = (filters: Record<string, unknown>) => rows(query, { values: { distinct_id: user }, filters });
    expect(await run({ properties: index4, dateRange: { date_from: '2020-01-01', date_to: '2020-02-02' } })).toEqual([['random event', user]]);
    expect(await run({ properties: index4, dateRange: { date_from: '2020-01-01', date_to: '2020-01-02' } })).toEqual([]);
    expect(await run({ dateRange: { date_from: 'all' } })).toHaveLength(10);
    // Without {filters} in the text, filters are ignored (PostHog's rule); {filters} without filters is true.
    expect(await rows('SELECT count() from events WHERE distinct_id = {d}', { values: { d: user }, filters: { properties: index4 } })).toEqual([[10]]);
    const { body } = await hogql('SELECT event from events where {filters} limit 1');
    expect(body.hogql).toBe('SELECT event FROM events WHERE {filters} LIMIT 1');
    // A table alias gets the filters too.
    expect(await rows('SELECT count() from events e WHERE {filters}', { filters: { properties: index4, dateRange: { date_from: 'all' } } })).toEqual([[1]]);
    // A HogQL property filter reads in the scope of the SELECT that holds {filters}.
    const hogqlFilter = [{ key: 'toInt(e.properties.index) >= 7', type: 'hogql' }];
    expect(await rows('SELECT count() from events e WHERE distinct_id = {d} and {filters}', { values: { d: user }, filters: { properties: hogqlFilter, dateRange: { date_from: 'all' } } })).toEqual([[3]]);
  });

  it('pages a query without LIMIT at 100 rows with hasMore; a LIMIT of its own is kept', async () => {
    const many = 'paging-user';
    await journeys(t, who, { [many]: Array.from({ length: 150 }, (_, i) => ev('bulk', `2020-02-01T00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`)) });
    const page = await hogql("select timestamp from events where event = 'bulk' order by timestamp");
    expect(page.body.results).toHaveLength(100);
    expect(page.body).toMatchObject({ hasMore: true, limit: 100, offset: 0 });
    expect(page.body.results[0]).toEqual(['2020-02-01T00:00:00Z']);
    const own = await hogql("select timestamp from events where event = 'bulk' order by timestamp limit 120");
    expect(own.body.results).toHaveLength(120);
    expect(own.body).toMatchObject({ hasMore: false, limit: null, offset: null });
    const offset = await hogql("select count() from (select timestamp from events where event = 'bulk' order by timestamp limit 10 offset 145)");
    expect(offset.body.results).toEqual([[5]]);
  });

  it("shows DateTime values in the project's time zone, and time-zone-aware functions default to it", async () => {
    const ny = await t.bootstrap('hogql-tz@example.com');
    const patched = await t.request(ny.key, { method: 'PATCH', url: `/api/projects/${ny.projectId}/`, payload: { timezone: 'America/New_York' } });
    expect(patched.statusCode).toBe(200);
    await journeys(t, ny, { nyc: [ev('late', '2020-01-10T03:00:00Z')] });
    const { body } = await hogql('select timestamp, toStartOfDay(timestamp), toDateTime(\'2020-01-10 00:00:00\') from events', {}, ny);
    expect(body.results).toEqual([['2020-01-09T22:00:00-05:00', '2020-01-09T00:00:00-05:00', '2020-01-10T00:00:00-05:00']]);
    expect(body.types[0]).toEqual(['timestamp', "DateTime64(6, 'America/New_York')"]);
  });

  it('accepts the wrappers PostHog tools send, at /api/environments/ too', async () => {
    for (const kind of ['DataVisualizationNode', 'DataTableNode']) {
      const res = await t.request(who.key, {
        method: 'POST',
        url: `/api/environments/${who.projectId}/query/`,
        payload: { query: { kind, source: { kind: 'HogQLQuery', query: "select count() from events where event = 'random event' and distinct_id = 'bla'" } } },
      });
      expect(res.statusCode, kind).toBe(200);
      expect(res.json().results, kind).toEqual([[2]]);
    }
  });

  it('saved SQL insights compute, cache and serve their result', async () => {
    const query = { kind: 'DataVisualizationNode', source: { kind: 'HogQLQuery', query: "select event, count() as c from events where event = 'random event' and distinct_id = 'bla' group by event" } };
    const created = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/insights/`, payload: { name: 'SQL', query } });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    const first = (await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/insights/${id}/?refresh=blocking` })).json();
    expect(first).toMatchObject({ result: [['random event', 2]], columns: ['event', 'c'], is_cached: false });
    expect(first.hogql).toContain('SELECT event, count() AS c FROM events');
    expect(first.types).toEqual([['event', 'String'], ['c', 'UInt64']]);
    const second = (await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/insights/${id}/` })).json();
    expect(second).toMatchObject({ result: [['random event', 2]], is_cached: true });
  });
});

describe('errors answer 400 in PostHog’s body', () => {
  const refused = async (query: string, code: string, detail: string | RegExp, extra: Record<string, unknown> = {}) => {
    const { status, body } = await hogql(query, extra);
    expect(status, query).toBe(400);
    expect(body.type, query).toBe('validation_error');
    expect(body.code, query).toBe(code);
    if (typeof detail === 'string') expect(body.detail, query).toBe(detail);
    else expect(body.detail, query).toMatch(detail);
  };

  it('names the unknown table, field, function, argument count and placeholder', async () => {
    await refused('select 1 from nope', 'hogql_query_error', 'Unknown table `nope`.');
    await refused('select foo from events', 'hogql_query_error', 'Unable to resolve field: foo');
    await refused('select person.nothing from events', 'hogql_query_error', 'Field not found: nothing');
    await refused('select frobnicate(event) from events', 'hogql_query_error', "Unsupported function call 'frobnicate(...)'. Perhaps you meant 'locate(...)'?");
    await refused("select toStartOfDay() from events", 'hogql_query_error', "Function 'toStartOfDay' expects at least 1 argument, found 0");
    await refused('select count(event, event, event) from events', 'hogql_query_error', /^Aggregation 'count' expects at most/);
    await refused('select {missing}', 'hogql_query_error', 'Unresolved placeholder: {missing}');
    await refused('select [1, 2][0]', 'hogql_query_error', 'SQL indexes start from one, not from zero. E.g: array[1]');
    await refused('select row_number() from events', 'hogql_query_error', "Window function 'row_number' needs an OVER clause");
    await refused('select event from events order by event with fill', 'hogql_error', /WITH FILL/);
  });

  it("the engine's refusals of a query's own text are 400s with its reason, never our SQL", async () => {
    for (const [query, code] of [
      ['select (select event from events)', 'incorrect_result_of_scalar_subquery'],
      ['select quantile(2)(1)', 'parameter_out_of_bound'],
      ["select JSONExtract('{}', 'a', 'Nope')", 'unknown_type'],
    ] as const) {
      const { status, body } = await hogql(query);
      expect(status, query).toBe(400);
      expect(body.code, query).toBe(code);
      expect(body.detail, query).not.toMatch(/team_id|_CAST|SELECT/);
    }
  });

  it('USING beside the joins a field needs (merges) names the user\'s tables only', async () => {
    const all = (await rows('select count() from events'))[0]![0];
    expect(await rows("select count() from events e join person_distinct_ids pdi using (distinct_id) where e.person_id != toUUID('00000000-0000-0000-0000-000000000000')")).toEqual([[all]]);
  });

  it('an alias defined in WHERE stays usable wherever the query names it', async () => {
    const expected = (await rows("select count() from events where event = 'random event'"))[0]![0];
    expect(expected).toBeGreaterThan(0);
    expect(await rows("select count() c from events e join events f on e.uuid = f.uuid where (e.event as b) = 'random event' group by b")).toEqual([[expected]]);
  });

  it('syntax errors say where', async () => {
    await refused('select event from events where', 'hogql_syntax_error', /line 1, column \d+/);
    await refused('selec 1', 'hogql_syntax_error', /.+/);
  });

  it('a missing or blank query is a 400 naming the field', async () => {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query: '  ' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ attr: 'query.query', code: 'blank' });
  });
});
