// Functions PostHog's HogQL maps that Hoglet added (issue 28, item 8), through /query/ over events
// captured through /batch/: PostgreSQL-style templates (split_part, date_part, string_agg ...),
// the generated aggregate combinators, and plain ClickHouse functions from PostHog's list. Values
// are PostgreSQL's (which PostHog's templates reproduce) or ClickHouse's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;

async function query(text: string) {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query: text } } });
  return { status: res.statusCode, body: res.json() };
}
async function rows(text: string): Promise<unknown[][]> {
  const { status, body } = await query(text);
  if (status !== 200) throw new Error(`${status} ${JSON.stringify(body)}`);
  return body.results;
}

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('functions-mapping@example.com');
  await journeys(t, who, {
    alice: [
      ev('buy', '2024-03-05T10:20:30Z', { sku: 'a-1-x', price: 10, ok: 1 }),
      ev('buy', '2024-03-06T10:00:00Z', { sku: 'b-2-y', price: 20, ok: 1 }),
      ev('buy', '2024-03-07T10:00:00Z', { sku: 'c-3-z', price: 30, ok: 0 }),
    ],
  });
});
afterAll(() => t.close());

describe('PostgreSQL-style templates', () => {
  it.each([
    ["split_part('abc~@~def~@~ghi', '~@~', 2)", 'def'],
    ["split_part('a,b,c', ',', 3)", 'c'],
    ["split_part('a,b,c', ',', 4)", ''],
    ["split_part('', ',', 1)", ''],
    ["split_part('a,b,c', ',', -1)", 'c'],
  ])('%s = %j', async (expr, expected) => {
    expect(await rows(`select ${expr}`)).toEqual([[expected]]);
  });

  it('split_part over a column, per row', async () => {
    expect(await rows("select split_part(properties.sku, '-', 2) as p from events order by p")).toEqual([['1'], ['2'], ['3']]);
  });

  it('date_part: each unit PostHog maps, NULL for others', async () => {
    const parts = ['year', 'month', 'day', 'hour', 'minute', 'second', 'dow', 'doy', 'quarter', 'week'];
    const text = `select ${parts.map((p) => `date_part('${p}', toDateTime('2024-03-05 10:20:30'))`).join(', ')}`;
    expect(await rows(text)).toEqual([[2024, 3, 5, 10, 20, 30, 2, 65, 1, null]]);
  });

  it('date_bin, timezone and make_interval', async () => {
    expect(await rows("select date_bin(toIntervalMinute(15), toDateTime('2024-03-05 10:20:30'), toDateTime('2024-03-05 00:00:00'))"))
      .toEqual([['2024-03-05T10:15:00Z']]);
    expect(await rows("select timezone('Asia/Tokyo', toDateTime('2024-03-05 10:20:30'))")).toEqual([['2024-03-05T19:20:30+09:00']]);
    expect(await rows("select toDateTime('2024-03-05 00:00:00') + make_interval(0, 1, 2, 3, 4, 5)")).toEqual([['2024-04-07T03:04:05Z']]);
  });

  it('string_agg, json_agg, every and md5', async () => {
    expect(await rows("select string_agg(properties.sku, '|') from (select properties from events order by timestamp)")).toEqual([['a-1-x|b-2-y|c-3-z']]);
    expect(await rows('select json_agg(toInt(properties.price)) from (select properties from events order by timestamp)')).toEqual([['[10,20,30]']]);
    expect(await rows('select every(toInt(properties.ok) = 1), every(toInt(properties.price) > 0) from events')).toEqual([[false, true]]);
    expect(await rows("select md5('abc')")).toEqual([['900150983CD24FB0D6963F7D28E17F72']]);
  });

  it("sortableSemver (PostHog's function, any case): comparable versions, [NULL] for what is not X.Y.Z", async () => {
    expect(await rows("select sortableSemver('v1.2.3'), sortablesemver(' 10.0.1-beta '), SortableSemVer('1.02.3'), sortableSemver('1.10.0') > sortableSemver('1.9.0')"))
      .toEqual([[[1, 2, 3], [10, 0, 1], [null], 1]]);
  });

  it('arity and DISTINCT are checked as for any function', async () => {
    expect((await query("select split_part('a', ',')")).body.detail).toBe("Function 'split_part' expects 3 arguments, found 2");
    // (The detail's next line is PostHog's enrichment: the tables referenced.)
    expect((await query("select string_agg(distinct event, ',') from events")).body.detail.split('\n')[0]).toBe("Aggregation 'string_agg' does not take DISTINCT");
  });
});

describe("PostHog's generated combinators and plain ClickHouse functions", () => {
  it('countDistinct and combinator forms of avg, sum, min, max, count, median', async () => {
    expect(await rows(
      'select countDistinct(event), sumArray([toInt(properties.price), 1]), avgOrNull(toInt(properties.price)), ' +
      'maxArgMax(toInt(properties.price), timestamp), sumOrNullIf(toInt(properties.price), toInt(properties.ok) = 1), countOrNullIf(event = \'nope\') from events',
    )).toEqual([[1, 63, 20, 30, 30, null]]);
  });

  // ClickHouse answers 0/1 for the predicates; locate takes (needle, haystack) as MySQL does.
  it('string search and token functions', async () => {
    expect(await rows(
      "select hasToken('hello world', 'world'), hasSubsequence('garbage', 'arg'), locate('ll', 'hello'), " +
      "multiSearchAnyCaseInsensitive('Hello', ['HELLO']), countMatchesCaseInsensitive('aAa', 'a'), extractGroups('k=v', '(\\\\w+)=(\\\\w+)'), " +
      "isEmpty(''), isNotEmpty('x'), toUUIDOrDefault('nope', assumeNotNull(toUUID('00000000-0000-0000-0000-000000000001')))",
    )).toEqual([[1, 1, 3, 1, 3, ['k', 'v'], 1, 1, '00000000-0000-0000-0000-000000000001']]);
  });

  it('every added plain function is one ClickHouse knows', async () => {
    const calls = [
      "multiSearchAllPositionsCaseInsensitive('a', ['a'])", "multiSearchAllPositionsCaseInsensitiveUTF8('a', ['a'])",
      "multiSearchAnyUTF8('a', ['a'])", "multiSearchAnyCaseInsensitiveUTF8('a', ['a'])", "multiSearchFirstIndexUTF8('a', ['a'])",
      "multiSearchFirstIndexCaseInsensitive('a', ['a'])", "multiSearchFirstIndexCaseInsensitiveUTF8('a', ['a'])",
      "multiSearchFirstPositionUTF8('a', ['a'])", "multiSearchFirstPositionCaseInsensitive('a', ['a'])",
      "multiSearchFirstPositionCaseInsensitiveUTF8('a', ['a'])", "ngramDistanceCaseInsensitive('a', 'b')", "ngramDistanceUTF8('a', 'b')",
      "ngramDistanceCaseInsensitiveUTF8('a', 'b')", "ngramSearchCaseInsensitive('a', 'b')", "ngramSearchUTF8('a', 'b')",
      "ngramSearchCaseInsensitiveUTF8('a', 'b')", "hasSubsequenceCaseInsensitive('a', 'a')", "hasSubsequenceUTF8('a', 'a')",
      "hasSubsequenceCaseInsensitiveUTF8('a', 'a')", "hasTokenCaseInsensitive('a b', 'a')", "hasTokenOrNull('a b', 'a')",
      "hasTokenCaseInsensitiveOrNull('a b', 'a')", "hasAllTokens('a b', ['a'])", "hasAnyTokens('a b', ['a'])",
      'rand()',
    ];
    const { status, body } = await query(`select ${calls.join(', ')}`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results[0]).toHaveLength(calls.length);
  });

  it('quantileExact and groupUniqArrayArray', async () => {
    expect(await rows('select quantileExact(0.5)(toInt(properties.price)), length(groupUniqArrayArray([event, event])) from events')).toEqual([[20, 1]]);
  });
});
