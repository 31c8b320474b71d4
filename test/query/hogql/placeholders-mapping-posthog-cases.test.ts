// PostHog's posthog/hogql/test/test_placeholders.py and test_mapping.py as data: each case's query
// (placeholders as the HogQLQuery's `values`) through POST /api/projects/:id/query/, and the value
// or error PostHog's test expects. test_mapping.py's lookups of the function tables are asked as
// queries (a name the table has runs, one it lacks is refused). What is left out, and why, is in
// docs/hogql-posthog-tests.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows, postHogQL } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;

const hogql = (query: string, values?: Record<string, unknown>) => postHogQL(t, who, query, values ? { values } : {});
const rows = (query: string, values?: Record<string, unknown>) => hogqlRows(t, who, query, values ? { values } : {});

/** The first row keyed by column name, as PostHog's tests read `dict(zip(columns, results[0]))`. */
async function named(query: string): Promise<Record<string, unknown>> {
  const { status, body } = await hogql(query);
  if (status !== 200) throw new Error(`${query}\n${status} ${JSON.stringify(body)}`);
  return Object.fromEntries((body.columns as string[]).map((column, i) => [column, body.results[0][i]]));
}

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('placeholders-mapping@example.com');
  await journeys(t, who, { d1: [ev('$pageview', '2024-01-01T00:00:00Z')] });
});
afterAll(() => t.close());

describe('test_placeholders.py', () => {
  it('test_replace_placeholders_simple: {foo} is its value', async () => {
    expect(await rows('select {foo}', { foo: 'bar' })).toEqual([['bar']]);
  });

  it.each([
    ['test_replace_placeholders_error (no values), test_assert_no_placeholders', undefined, 'Unresolved placeholder: {foo}'],
    ['test_replace_placeholders_error (other values)', { bar: 123 }, 'Placeholder {foo} is not available in this context. You can use the following: bar'],
  ])('%s', async (_name, values, message) => {
    const { status, body } = await hogql('select {foo}', values);
    expect(status).toBe(400);
    expect(body.detail).toBe(message);
  });

  it('test_replace_placeholders_comparison: timestamp < {timestamp} compares with the constant', async () => {
    expect(await rows('select count() from events where timestamp < {timestamp}', { timestamp: 123 })).toEqual([[0]]);
  });

  it('test_replace_placeholders_with_cte: a placeholder inside a CTE', async () => {
    expect(await rows('with test as (select {foo}) select * from test', { foo: 1 })).toEqual([[1]]);
  });
});

describe('test_mapping.py', () => {
  it('test_language_code_to_name_function', async () => {
    const query = "SELECT languageCodeToName('en') as english_name, languageCodeToName('es') as spanish_name, languageCodeToName('invalid') as invalid_code, languageCodeToName(NULL) as null_code";
    expect(await named(query)).toEqual({ english_name: 'English', spanish_name: 'Spanish', invalid_code: 'Unknown', null_code: 'Unknown' });
  });

  it("languageCodeToName: ISO 639-1's codes (lower case, as PostHog's list has them), over a column too; one argument only", async () => {
    expect(await rows("SELECT languageCodeToName('zh'), languageCodeToName('EN'), languageCodeToName('iw'), languageCodeToName(event) FROM events")).toEqual([['Chinese', 'Unknown', 'Unknown', 'Unknown']]);
    const { status } = await hogql("SELECT languageCodeToName('en', 'fr')");
    expect(status).toBe(400);
  });

  it.each([
    ['test_find_case_sensitive_function', 'select toString(1), countIf(1 = 1)'],
    ['test_find_case_insensitive_function', 'select CoAlesce(1), RAND() >= 0, SuM(1)'],
  ])('%s: these names run', async (_name, query) => {
    expect(await rows(query)).toHaveLength(1);
  });

  it.each([
    ['test_find_case_sensitive_function', 'select TOString(1)'],
    ['test_find_case_sensitive_function', 'select PlUs(1, 2)'],
    ['test_find_case_sensitive_function', 'select COUNTIF(1 = 1)'],
    ['test_find_non_existent_function', 'select functionThatDoesntExist()'],
  ])('%s: %s is refused', async (_name, query) => {
    const { status, body } = await hogql(query);
    expect(status).toBe(400);
    expect(body.detail).toMatch(/^Unsupported function call/);
  });

  // Less now(), current_timestamp() and current_date() (PostHog's clock is frozen; it asserts none of
  // them), and make_timestamptz and to_timestamp, which Hoglet leaves out (docs/hogql-functions.md).
  it('test_postgres_functions', async () => {
    const query = `WITH
      date_functions AS (
        SELECT
          date_trunc('hour', toDateTime('2023-01-01 13:45:32')) as truncated_hour,
          date_trunc('day', toDateTime('2023-01-01 13:45:32')) as truncated_day,
          date_trunc('month', toDateTime('2023-01-01 13:45:32')) as truncated_month,
          date_trunc('quarter', toDateTime('2023-01-01 13:45:32')) as truncated_quarter,
          date_trunc('year', toDateTime('2023-01-01 13:45:32')) as truncated_year,
          toDateTime('2023-01-01 00:00:00') + make_interval(1, 2, 3, 4, 5, 6) as interval_result,
          make_timestamp(2023, 1, 1, 12, 34, 56) as timestamp_result,
          timezone('UTC', toDateTime('2023-01-01 13:45:32')) as timezone_result,
          toStartOfInterval(toDateTime('2023-01-01 13:45:32'), toIntervalHour(1)) as to_start_of_interval_result,
          toStartOfInterval(toDateTime('2023-01-01 13:45:32'), toIntervalHour(1), toDateTime('2023-01-01 13:15:00')) as to_start_of_interval_origin_result,
          date_bin(toIntervalHour(1), toDateTime('2023-01-01 13:45:32'), toDateTime('2023-01-01 13:15:00')) as date_bin_result,
          toYear(toDateTime('2023-01-01 13:45:32')) as date_part_year,
          toMonth(toDateTime('2023-01-01 13:45:32')) as date_part_month,
          toDayOfMonth(toDateTime('2023-01-01 13:45:32')) as date_part_day,
          toHour(toDateTime('2023-01-01 13:45:32')) as date_part_hour,
          to_char(toDateTime('2023-01-01 13:45:32'), '%Y-%m-%d') as to_char_result,
          make_date(2023, 1, 1) as make_date_result,
          date_add(toDateTime('2023-01-01 13:45:32'), toIntervalHour(1)) as date_add_result,
          date_subtract(toDateTime('2023-01-01 13:45:32'), toIntervalHour(1)) as date_sub_result,
          date_diff('hour', toDateTime('2023-01-01 13:45:32'), toDateTime('2023-01-01 14:45:32')) as date_diff_result,
          to_date('2023-01-01') as to_date_result
      ),
      string_functions AS (
        SELECT
          ascii('A') as ascii_result, repeat('pg', 3) as repeat_result, initcap('hello world') as initcap_result,
          left('hello', 2) as left_result, right('hello', 2) as right_result,
          lpad('hi', 5, 'xy') as lpad_result, rpad('hi', 5, 'xy') as rpad_result,
          ltrim('  hello  ') as ltrim_result, rtrim('  hello  ') as rtrim_result, btrim('  hello  ') as btrim_result,
          split_part('abc.def.ghi', '.', 2) as split_part_result
      ),
      window_functions AS (
        SELECT
          value,
          lag(value) OVER (ORDER BY value) as lag_result,
          lead(value) OVER (ORDER BY value) as lead_result,
          lag(value, 2) OVER (ORDER BY value) as lag_2_result,
          lead(value, 2) OVER (ORDER BY value) as lead_2_result,
          lag(value, 1, 9) OVER (ORDER BY value) as lag_default_result,
          lead(value, 1, 9) OVER (ORDER BY value) as lead_default_result
        FROM (SELECT arrayJoin([1,2,3,4,5]) as value)
      ),
      aggregate_functions AS (
        SELECT array_agg(value) as array_agg_result, json_agg(value) as json_agg_result,
          string_agg(toString(value), ',') as string_agg_result, every(value > 0) as every_result
        FROM (SELECT arrayJoin([1,2,3,4,5]) as value)
      ),
      aggregate_functions_null as (
        SELECT array_agg(value) as array_agg_null_result, json_agg(value) as json_agg_null_result,
          string_agg(toString(value), ',') as string_agg_null_result, every(value > 0) as every_null_result
        FROM (SELECT arrayJoin([NULL]) as value)
      )
      SELECT date_functions.*, string_functions.*, window_functions.*, aggregate_functions.*, aggregate_functions_null.*
      FROM date_functions, string_functions, window_functions, aggregate_functions, aggregate_functions_null`;
    const result = await named(query);
    expect(result).toMatchObject({
      truncated_hour: '2023-01-01T13:00:00Z',
      truncated_day: '2023-01-01T00:00:00Z',
      truncated_month: '2023-01-01',
      truncated_quarter: '2023-01-01',
      truncated_year: '2023-01-01',
      interval_result: '2024-03-04T04:05:06Z',
      timestamp_result: '2023-01-01T12:34:56Z',
      timezone_result: '2023-01-01T13:45:32Z',
      to_start_of_interval_result: '2023-01-01T13:00:00Z',
      to_start_of_interval_origin_result: '2023-01-01T13:15:00Z',
      date_bin_result: '2023-01-01T13:15:00Z',
      date_part_year: 2023, date_part_month: 1, date_part_day: 1, date_part_hour: 13,
      to_char_result: '2023-01-01',
      make_date_result: '2023-01-01',
      date_add_result: '2023-01-01T14:45:32Z',
      date_sub_result: '2023-01-01T12:45:32Z',
      date_diff_result: 1,
      to_date_result: '2023-01-01',
      ascii_result: 65, repeat_result: 'pgpgpg', initcap_result: 'Hello World', left_result: 'he', right_result: 'lo',
      lpad_result: 'xyxhi', rpad_result: 'hixyx', ltrim_result: 'hello  ', rtrim_result: '  hello', btrim_result: 'hello',
      split_part_result: 'def',
      lag_result: null, lead_result: 2, lag_2_result: null, lead_2_result: 3, lag_default_result: 9, lead_default_result: 2,
      array_agg_result: [1, 2, 3, 4, 5], json_agg_result: '[1,2,3,4,5]', string_agg_result: '1,2,3,4,5',
      array_agg_null_result: null, json_agg_null_result: null, string_agg_null_result: null,
    });
    expect(result.every_result).toBeTruthy();
    expect(result.every_null_result).toBeFalsy();
  });

  it.each([
    ['test_function_mapping',
      `SELECT toFloat(3.14), toFloat(NULL), toFloatOrDefault(3, 7.), toFloatOrDefault(3.14, 7.), toFloatOrZero('3.14'), toFloatOrDefault('3.14', 7.),
        toFloatOrZero(''), toFloatOrDefault('', 7.), toFloatOrZero('bla'), toFloatOrDefault('bla', 7.), toFloatOrZero(NULL), toFloatOrDefault(NULL, 7.)`,
      [3.14, null, 3.0, 3.14, 3.14, 3.14, 0.0, 7.0, 0.0, 7.0, null, 7.0]],
    ['test_to_float_or_default_with_integer_default', "SELECT toFloatOrDefault('bla', 0), toFloatOrDefault('2.5', 1), coalesce(toFloatOrDefault('bla', 0), 1)", [0.0, 2.5, 0.0]],
    ['test_to_float_or_default_single_arg', "SELECT toFloatOrDefault('2.5'), toFloatOrDefault('bla'), toFloatOrDefault(NULL)", [2.5, 0.0, null]],
  ])('%s', async (_name, query, expected) => {
    expect(await rows(query)).toEqual([expected]);
  });

  it.each([
    ['test_map_function_with_multiple_key_value_pairs',
      `SELECT map() as empty_map, map('key1', 'value1') as single_pair_map, map('key1', 'value1', 'key2', 'value2') as two_pair_map,
        map('a', toString('2023-01-01'), 'b', toString(100), 'c', toString(50), 'd', toString(50)) as multi_pair_map`,
      { empty_map: {}, single_pair_map: { key1: 'value1' }, two_pair_map: { key1: 'value1', key2: 'value2' }, multi_pair_map: { a: '2023-01-01', b: '100', c: '50', d: '50' } }],
    ['test_isValidJSON_function', `SELECT isValidJSON('{"valid": true}') as valid_json, isValidJSON('invalid json') as invalid_json`, { valid_json: 1, invalid_json: 0 }],
    ['test_JSONHas_function',
      `SELECT JSONHas('{"a": "hello", "b": [-100, 200.0, 300]}', 'b') as has_key, JSONHas('{"a": "hello", "b": [-100, 200.0, 300]}', 'nonexistent') as missing_key`,
      { has_key: 1, missing_key: 0 }],
    ['test_json_functions_basic',
      `SELECT JSONLength('{"a": [1, 2, 3], "b": {"c": "hello"}}') as obj_length, JSONArrayLength('[1, 2, 3, 4, 5]') as array_length,
        JSONType('{"key": "value"}', 'key') as string_type, JSONExtract('{"num": 42}', 'num', 'Int32') as extracted_int`,
      { obj_length: 2, array_length: 5, string_type: 'String', extracted_int: 42 }],
  ])('%s', async (_name, query, expected) => {
    expect(await named(query)).toEqual(expected);
  });
});
