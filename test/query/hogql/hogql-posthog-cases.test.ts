// More of PostHog's own HogQL cases (posthog/hogql/test/test_query.py), as data: the query text and
// the rows (or the error) PostHog's test expects, run through /query/ over events captured through
// /batch/. Nullish coalescing, named windows, the numbers() table function and positional GROUP BY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows, postHogQL } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
const RANDOM = 'RANDOM_TEST_ID::5e1d';
const PERSONS = [0, 1, 2, 3, 4].map((n) => `person_${n}_${RANDOM}`);

const hogql = (query: string) => postHogQL(t, who, query);

const rows = (query: string) => hogqlRows(t, who, query);

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('hogql-posthog-cases@example.com');
  // test_window_functions_with_window's data: five persons, three events each, ten minutes apart.
  const story = [['random event', '00:00'], ['random bla', '10:00'], ['random boo', '20:00']] as const;
  await journeys(t, who, Object.fromEntries(PERSONS.map((id) => [id, story.map(([event, at]) => ev(event, `2020-01-10T00:${at}Z`, { character: 'Luigi' }))])));
});
afterAll(() => t.close());

describe('nullish coalescing (test_nullish_coalescing)', () => {
  it("takes PostHog's precedence and result types", async () => {
    const query = "SELECT null ?? 1, null ?? null ?? 2, 3 ?? null, null ?? 'string', 1 + (null ?? 2) + 3, 1 + null ?? 2 + 3, 10 ?? true ? 20 : 30, 10 ?? 5 + 10";
    expect(await rows(query)).toEqual([[1, 2, 3, 'string', 6, 5, 20, 10]]);
  });
});

describe('named windows (test_window_functions_with_window)', () => {
  it('reads OVER w1 and OVER w2 from the WINDOW clause, frames included', async () => {
    const query = `select distinct_id, timestamp, event,
        groupArray(event) OVER w1 AS two_before, groupArray(event) OVER w2 AS two_after,
        row_number() OVER w1 AS rn_1, row_number() OVER w2 AS rn_2,
        first_value(event) OVER w1 AS first_value_1, last_value(event) OVER w1 AS last_value_1,
        first_value(event) OVER w2 AS first_value_2, last_value(event) OVER w2 AS last_value_2,
        rank() OVER w1 AS rank_1, dense_rank() OVER w2 AS rank_2
      from events
      where timestamp > toDateTime('2020-01-09 00:00:00') and distinct_id like '%_${RANDOM}'
      window w1 as (PARTITION BY distinct_id ORDER BY timestamp ASC ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING),
             w2 as (PARTITION BY distinct_id ORDER BY timestamp ASC ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING)
      order by distinct_id, timestamp`;
    const expected = PERSONS.flatMap((id) => [
      [id, '2020-01-10T00:00:00Z', 'random event', [], ['random bla', 'random boo'], 1, 1, '', '', 'random bla', 'random boo', 1, 1],
      [id, '2020-01-10T00:10:00Z', 'random bla', ['random event'], ['random boo'], 2, 2, 'random event', 'random event', 'random boo', 'random boo', 2, 2],
      [id, '2020-01-10T00:20:00Z', 'random boo', ['random event', 'random bla'], [], 3, 3, 'random event', 'random bla', '', '', 3, 3],
    ]);
    expect(await rows(query)).toEqual(expected);
  });

  it('an OVER name the WINDOW clause does not define is a 400', async () => {
    const { status, body } = await hogql('select row_number() over nowhere from events');
    expect(status).toBe(400);
    expect(body.detail).toMatch(/nowhere/);
  });
});

describe('the numbers() table function (test_numbers_table, test_events_table_error_if_function)', () => {
  const cases: [string, unknown[][]][] = [
    ['SELECT number from numbers(1, 4)', [[1], [2], [3], [4]]],
    ['SELECT * from numbers(1, 4)', [[1], [2], [3], [4]]],
    ['SELECT number from numbers(4)', [[0], [1], [2], [3]]],
    ['SELECT number from numbers(2 + 2)', [[0], [1], [2], [3]]],
    ['SELECT number + number + 1 from numbers(2 + 2)', [[1], [3], [5], [7]]],
    ['select number from numbers(3)', [[0], [1], [2]]],
    ['select n.number from numbers(2, 3) n order by number', [[2], [3], [4]]],
    ['select number from numbers(0)', []],
  ];
  it.each(cases)('%s', async (query, expected) => {
    expect(await rows(query)).toEqual(expected);
  });

  const errors: [string, string][] = [
    ['SELECT number from numbers', "Table function 'numbers' requires arguments"],
    ['SELECT number from numbers()', "Table function 'numbers' requires at least 1 argument"],
    ['SELECT number from numbers(1,2,3)', "Table function 'numbers' requires at most 2 arguments"],
    ['SELECT * from events(1, 4)', "Table 'events' does not accept arguments"],
    ['SELECT * from persons(1)', "Table 'persons' does not accept arguments"],
    ['SELECT number from numbers(-1)', "Table function 'numbers' takes no negative numbers"],
    ['SELECT number from numbers(2 - 5)', "Table function 'numbers' takes no negative numbers"],
    // Computed bounds are the engine's to fold (numbers-table.test.ts); it refuses one that is not whole.
    ['SELECT number from numbers(1.5)', "Table function 'numbers' takes a whole number of rows from 0 to 1000000000"],
    ['SELECT number from numbers(2000000000)', "Table function 'numbers' generates at most 1000000000 rows"],
  ];
  it.each(errors)('%s → 400', async (query, message) => {
    const { status, body } = await hogql(query);
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.detail).toBe(message);
  });
});

describe('positional GROUP BY and ORDER BY (PostHog prints integer literals, so ClickHouse reads them as positions)', () => {
  const byEvent = [['random bla', 5], ['random boo', 5], ['random event', 5]];
  const cases: [string, unknown[][]][] = [
    ['select event, count() from events group by 1 order by 1', byEvent],
    ['select event, count() as c from events group by 1 order by 2 desc, 1 desc', [...byEvent].reverse()],
    ['select event, count() from events group by event order by -2', byEvent],
    [`select distinct_id, event from events where distinct_id = '${PERSONS[0]}' order by 2 desc`, ['random event', 'random boo', 'random bla'].map((e) => [PERSONS[0], e])],
    ['select number % 2 as odd, count() from numbers(5) group by 1 order by 1', [[0, 3], [1, 2]]],
  ];
  it.each(cases)('%s', async (query, expected) => {
    expect(await rows(query)).toEqual(expected);
  });

  it("a position past the select list is a 400 in the engine's words", async () => {
    const { status, body } = await hogql('select event, count() from events group by 3');
    expect(status).toBe(400);
    expect(body.detail).toBe('Positional argument number 3 is out of bounds. Expected in range [1, 2]');
  });

  it("the engine's refusal of a constant GROUP BY shows no compiled SQL", async () => {
    const { status, body } = await hogql('select event, count() from events group by 1 + 1');
    expect(status).toBe(400);
    expect(body.detail).toMatch(/not under aggregate function and not in GROUP BY keys/);
    expect(body.detail).not.toMatch(/SELECT|\{p\d|_CAST|team_id|In query/);
  });
});
