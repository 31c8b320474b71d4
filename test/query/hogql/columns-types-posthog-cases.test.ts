// Column names and types of HogQLQuery answers as PostHog gives them, over events captured through
// /batch/ and queries through POST /api/projects/:id/query/.
// PostHog's tests rarely spell a HogQLQuery's columns out (test_hogql_lambdas and test_full_hogql_query
// give the queries here; their rows, and test_select_hogql_expressions' EventsQuery columns and
// types, are ported in test-query-posthog-cases.test.ts and runner-api-posthog-cases.test.ts).
// The names follow PostHog's code: posthog/hogql/query.py names a column by its alias, and the
// resolver gives every field a hidden alias (a property: its keys joined by `__`; another field: its
// last name), so `properties.key` is the column `key`; anything else is named by the HogQL that
// PostHog's printer writes (posthog/hogql/printer/base.py). Types: concat reads NULL as '' and is a
// String (the ClickHouse printer's ifNull(toString(x), '')); session.$is_bounce is
// if(no page views, NULL, not(...)), a Nullable(UInt8) that PostHog's own web statistics average.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
/** test_full_hogql_query's events (distinct ids 2, 2, 3 and 4), and three sessions. */
let full: Credentials;

async function query(who: Credentials, body: Record<string, unknown>) {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: body } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const hogql = (who: Credentials, text: string, extra: Record<string, unknown> = {}) => query(who, { kind: 'HogQLQuery', query: text, ...extra });

/** The events of test_select_hogql_expressions and test_full_hogql_query, by distinct id. */
function apiTestEvents(ids: [string, string, string, string]) {
  const stories: Record<string, ReturnType<typeof ev>[]> = {};
  const add = (id: string, e: ReturnType<typeof ev>) => (stories[id] ??= []).push(e);
  add(ids[0], ev('sign up', '2020-01-10T12:00:00Z', { key: 'test_val1', $set: { email: 'tom@posthog.com' } }));
  add(ids[1], ev('sign out', '2020-01-10T12:11:00Z', { key: 'test_val2' }));
  add(ids[2], ev('sign out', '2020-01-10T12:12:00Z', { key: 'test_val2' }));
  add(ids[3], ev('sign out', '2020-01-10T12:13:00Z', { key: 'test_val3', path: 'a/b/c' }));
  return stories;
}

beforeAll(async () => {
  t = await createTestApp('sqlite');
  full = await t.bootstrap('columns-full@example.com');
  await journeys(t, full, {
    ...apiTestEvents(['2', '2', '3', '4']),
    // Sessions for $is_bounce: s1 one page view (a bounce), s2 two page views, s3 no page view (NULL).
    v1: [ev('$pageview', '2020-01-11T00:00:00Z', { $session_id: 's1', $window_id: 'w1' })],
    v2: [ev('$pageview', '2020-01-11T00:00:00Z', { $session_id: 's2' }), ev('$pageview', '2020-01-11T00:00:05Z', { $session_id: 's2' })],
    v3: [ev('custom', '2020-01-11T00:00:00Z', { $session_id: 's3' })],
  });
});
afterAll(() => t.close());

describe('posthog/api/test/test_query.py', () => {
  it('test_full_hogql_query: the rows; an unaliased property is the column of its key, as the resolver aliases it', async () => {
    const response = await hogql(full, 'select event, distinct_id, properties.key from events where event like \'sign%\' order by timestamp');
    expect(response.results).toEqual([['sign up', '2', 'test_val1'], ['sign out', '2', 'test_val2'], ['sign out', '3', 'test_val2'], ['sign out', '4', 'test_val3']]);
    expect(response.columns).toEqual(['event', 'distinct_id', 'key']);
    expect(response.types).toEqual([['event', 'String'], ['distinct_id', 'String'], ['key', 'Nullable(String)']]);
  });
});

describe('posthog/hogql/test/test_query.py', () => {
  it("test_hogql_lambdas: the rows, and the columns as PostHog's printer writes them (a one-argument lambda without parentheses)", async () => {
    const response = await hogql(full, 'SELECT arrayMap(x -> x * 2, [1, 2, 3]), 1');
    expect(response.results).toEqual([[[2, 4, 6], 1]]);
    expect(response.columns).toEqual(['arrayMap(x -> multiply(x, 2), [1, 2, 3])', '1']);
  });
});

// The names below are what posthog/hogql/query.py computes (print_columns) for each kind of select
// item, read from the resolver and the HogQL printer; no PostHog test spells them out.
describe("column names by PostHog's rule", () => {
  const cases: [string, string, string[]][] = [
    ['fields and properties', "select event, e.timestamp, properties.key, e.properties.key, properties.$set.email, properties.$set['email'], properties['key'], e.properties.arr.1, e.pdi.distinct_id, person.properties.email, properties from events e where event = 'sign up'",
      ['event', 'timestamp', 'key', 'key', '$set__email', '$set__email', 'key', 'arr__1', 'distinct_id', 'email', 'properties']],
    ['constants', "select 1, -3, 1.5, 'it''s', true, null, [1, 2]", ['1', '-3', '1.5', "'it\\'s'", 'true', 'NULL', '[1, 2]']],
    ['operators as PostHog prints them', "select 1 + 2, 3 = 3, 'kala' !~ 'a', 'kala' =~* 'A', 'kala' !~* 'A', not true, 1 between 0 and 2",
      ['plus(1, 2)', 'equals(3, 3)', "not(match('kala', 'a'))", "match('kala', concat('(?i)', 'A'))", "not(match('kala', concat('(?i)', 'A')))", 'not(true)', '1 BETWEEN 0 AND 2']],
    ['calls, lambdas, tuples, aliases', "select lower(event), arrayMap((x, y) -> x + y, [1], [2]), (1, 2).1, tuple(1, 2).2, upper(event) as shout from events where event = 'sign up'",
      ['lower(event)', 'arrayMap((x, y) -> plus(x, y), [1], [2])', 'tuple(1, 2).1', 'tuple(1, 2).2', 'shout']],
    ['aggregates', 'select count(), count(*), quantile(0.5)(1), count(DISTINCT event) from events', ['count()', 'count(*)', 'quantile(0.5)(1)', 'count(DISTINCT event)']],
    ['subqueries and windows', "select (select 1), event in (select event from events), row_number() over (order by timestamp), count() over w from events where event = 'sign up' window w as (partition by event)",
      ['(SELECT 1)', 'in(event, (SELECT event FROM events))', 'row_number() OVER (ORDER BY timestamp ASC)', 'count() OVER w']],
    ['`*` over a subquery: the columns it names', 'select * from (select count(), properties.key from events group by properties.key) order by 2 limit 1', ['count()', 'key']],
  ];
  it.each(cases)('%s', async (_name, text, columns) => {
    const response = await hogql(full, text);
    expect(response.columns).toEqual(columns);
    expect(response.types.map(([name]: [string]) => name)).toEqual(columns);
  });

  it('a {name} value is printed as the constant it stands for, in the column and the hogql text (PostHog replaces placeholders first)', async () => {
    const response = await hogql(full, "select {x}, concat({x}, 'a') from events where event = {e} limit 1", { values: { x: 'v', e: 'sign up' } });
    expect(response.columns).toEqual(["'v'", "concat('v', 'a')"]);
    expect(response.results).toEqual([['v', 'va']]);
    expect(response.hogql).toBe("SELECT 'v', concat('v', 'a') FROM events WHERE equals(event, 'sign up') LIMIT 1");
  });

  it('the hogql text prints a table function with its arguments and its alias, as PostHog does', async () => {
    const response = await hogql(full, 'select number from numbers(1, 4)');
    expect(response.hogql).toContain('FROM numbers(1, 4) AS numbers');
    expect(response.columns).toEqual(['number']);
  });

  it("`*` is the table's fields by name, with or without the table's alias", async () => {
    const plain = await hogql(full, 'select * from events limit 1');
    const aliased = await hogql(full, 'select e.* from events e limit 1');
    expect(plain.columns.slice(0, 7)).toEqual(['uuid', 'event', 'properties', 'timestamp', 'distinct_id', 'elements_chain', 'created_at']);
    expect(aliased.columns).toEqual(plain.columns);
  });
});

describe("types as PostHog's printer makes them", () => {
  it("concat reads NULL as '' and is a String; CONCAT in other capitals is ClickHouse's own", async () => {
    const response = await hogql(full, "select concat(event, ' ', properties.key), concat(null, 1, toString(null), 1.5, properties.nope), CONCAT('x', properties.nope) from events where event in ('sign up', '$pageview') order by timestamp limit 2");
    expect(response.results).toEqual([['sign up test_val1', '11.5', null], ['$pageview ', '11.5', null]]);
    expect(response.types.map(([, type]: [string, string]) => type)).toEqual(['String', 'String', 'Nullable(String)']);
  });

  it('a concat compared is not null-guarded: it is never NULL', async () => {
    expect((await hogql(full, "select count() from events where concat(properties.nope, 'x') = 'x'")).results).toEqual([[8]]);
  });

  it("session.$is_bounce is Nullable(UInt8): it groups, and avg() of it is PostHog's bounce rate", async () => {
    const bounce = await hogql(full, "select session.session_id, session.$is_bounce from events where $session_id != '' group by session.session_id, session.$is_bounce order by 1");
    expect(bounce.results).toEqual([['s1', 1], ['s2', 0], ['s3', null]]);
    expect(bounce.types[1]).toEqual(['$is_bounce', 'Nullable(UInt8)']);
    // The shape of PostHog's web statistics: any(session.$is_bounce) per session, then avg().
    const rate = await hogql(full, "select avg(is_bounce) from (select any(session.$is_bounce) as is_bounce, session.session_id as session_id from events where $session_id != '' group by session_id)");
    expect(rate.results).toEqual([[0.5]]);
    expect((await hogql(full, 'select avg($is_bounce) from sessions')).results).toEqual([[0.5]]);
    // Per event: s2's two events count twice.
    expect((await hogql(full, "select avg(session.$is_bounce) from events where $session_id != ''")).results).toEqual([[1 / 3]]);
  });

  it("$window_id is a String column, as in PostHog's events: '' when the event has none", async () => {
    const response = await hogql(full, "select $window_id from events where distinct_id in ('v1', 'v3') order by distinct_id");
    expect(response.results).toEqual([['w1'], ['']]);
    expect(response.types).toEqual([['$window_id', 'String']]);
  });

  it("the session's distinct_id is a Nullable(String), as PostHog's nullIf(argMaxMerge(distinct_id), 'null')", async () => {
    const response = await hogql(full, "select distinct_id from sessions where session_id = 's2'");
    expect(response.results).toEqual([['v2']]);
    expect(response.types).toEqual([['distinct_id', 'Nullable(String)']]);
  });

  it("date_part's unknown unit is NULL of the part's type, not a mixed type", async () => {
    const response = await hogql(full, "select date_part('year', timestamp), date_part('nope', timestamp) from events where event = 'sign up'");
    expect(response.results).toEqual([[2020, null]]);
    expect(response.types.map(([, type]: [string, string]) => type)).toEqual(['Nullable(UInt16)', 'Nullable(UInt16)']);
  });
});
