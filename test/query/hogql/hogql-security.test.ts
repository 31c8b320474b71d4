// HogQL can never see another project's rows or anything else on the server: every spelling of a
// table (subquery, join, CTE, IN, union, lambda, lazy join) reads only the caller's project; table
// functions, system tables, settings, DDL and several statements are refused; hostile text never
// gives a 5xx and the server keeps answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { postHogQL } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let mine: Credentials;
let theirs: Credentials;

const hogql = (query: string, who: Credentials = mine) => postHogQL(t, who, query);

beforeAll(async () => {
  t = await createTestApp('sqlite');
  mine = await t.bootstrap('hogql-mine@example.com');
  theirs = await t.bootstrap('hogql-theirs@example.com');
  await journeys(t, mine, { me: [ev('mine', '2024-01-01T00:00:00Z', { $set: { email: 'me@mine' } })] });
  await journeys(t, theirs, {
    them: [ev('secret', '2024-01-01T00:00:00Z', { $set: { email: 'them@theirs' } }), ev('secret', '2024-01-02T00:00:00Z', { $groups: { company: 'theirs' } })],
  });
});
afterAll(() => t.close());

describe('tenant isolation', () => {
  const spellings: [string, unknown[][]][] = [
    ['select count() from events', [[1]]],
    ["select count() from events where event = 'secret'", [[0]]],
    ['select count() from (select * from events)', [[1]]],
    ['select count() from (select event from events union all select event from events)', [[2]]],
    ['with x as (select event from events) select count() from x', [[1]]],
    ["select count() from events where distinct_id in (select distinct_id from person_distinct_ids)", [[1]]],
    ["select count() from events e join events f on e.uuid = f.uuid", [[1]]],
    ['select count() from persons', [[1]]],
    ['select count() from person_distinct_ids', [[1]]],
    ['select count() from groups', [[0]]],
    ["select arrayMap(x -> x, (select groupArray(event) from events))", [[['mine']]]],
    ["select count() from events where event in (select event from events where event = 'secret')", [[0]]],
    ['select person.properties.email from events', [['me@mine']]],
    ['select count() from events e left join persons p on p.id = e.person_id', [[1]]],
    ['select count() from events cross join persons', [[1]]],
    ["select count() from events where properties.email = 'them@theirs' or person.properties.email = 'them@theirs'", [[0]]],
  ];

  it.each(spellings)('%s reads only the caller’s project', async (query, expected) => {
    const { status, body } = await hogql(query);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toEqual(expected);
  });

  it('team_id is a field of every table, and always the caller’s own project', async () => {
    for (const table of ['events', 'persons', 'person_distinct_ids']) {
      const { status, body } = await hogql(`select distinct team_id from ${table}`);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.results, table).toEqual([[mine.projectId]]);
    }
    expect((await hogql(`select count() from events where team_id = ${theirs.projectId}`)).body.results).toEqual([[0]]);
    expect((await hogql(`select count() from events e where e.team_id = ${mine.projectId}`)).body.results).toEqual([[1]]);
    expect((await hogql(`select count() from groups where team_id != ${mine.projectId}`)).body.results).toEqual([[0]]);
  });

  it('the other project sees its own rows through the same spellings', async () => {
    expect((await hogql("select count() from events where event = 'secret'", theirs)).body.results).toEqual([[2]]);
    expect((await hogql('select person.properties.email from events limit 1', theirs)).body.results).toEqual([['them@theirs']]);
  });
});

describe('refused: anything outside the project’s rows', () => {
  const outside = [
    "select * from system.tables",
    "select * from system.numbers limit 1",
    "select * from information_schema.tables",
    "select * from url('http://127.0.0.1:1/x', CSV, 'a String')",
    "select * from file('/etc/passwd', CSV, 'a String')",
    "select * from remote('127.0.0.1', system.one)",
    "select * from s3('http://127.0.0.1/x')",
    "select * from executable('id', CSV, 'a String')",
    "select * from cluster('default', system.one)",
    "select * from input('a String')",
    "select url('http://127.0.0.1:1/x')",
    "select file('/etc/passwd')",
    "select getSetting('max_memory_usage')",
    "select currentDatabase()",
    "select hostName()",
    "select version()",
    "select sleep(3)",
    "select dictGet('d', 'a', 1)",
    "select * from events settings readonly = 0",
    "select 1; select 2",
    "select 1; drop table events",
    "drop table events",
    "insert into events values (1)",
    "select * from events into outfile '/tmp/x'",
    "select * from hoglet.events",
    "select * from default.events",
    "select 1 as team_id",
    "select * from person_distinct_id_overrides",
    "select * from raw_persons",
  ];

  it.each(outside)('%s → 400', async (query) => {
    const { status, body } = await hogql(query);
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.type).toBe('validation_error');
    expect(body.detail).not.toMatch(/team_id = \{|SELECT .* FROM `/);
  });

  it('numbers() is allowed: generated integers, no stored rows of any project', async () => {
    expect((await hogql('select count(), sum(number) from numbers(10)')).body.results).toEqual([[10, 45]]);
    const [[events]] = (await hogql('select count() from events')).body.results;
    expect((await hogql('select count() from numbers(3) n cross join events e')).body.results).toEqual([[3 * events]]);
  });
});

describe('hostile text never gives a 5xx', () => {
  const hostile = [
    "select '\\'; drop table events; --' as x",
    "select 'a' || '\\\\' || 'b'",
    'select `a``b` from events',
    'select 1 as `x` ; select 2',
    "select /* comment */ 1 -- trailing",
    "select '\u0000'",
    'select 1 as "\u0000"',
    "select properties.`'; drop table events` from events",
    "select 'ünïcødé 😀', lower('ÄÖÜ')",
    `select '${'x'.repeat(40_000)}'`,
    `select ${'1 + '.repeat(10_000)}1`,
    `select ${'('.repeat(500)}1${')'.repeat(500)}`,
    `select ${'(select '.repeat(300)}1${')'.repeat(300)}`,
    `select ${'f('.repeat(200)}1${')'.repeat(200)}`,
    'select 99999999999999999999999999999999999999',
    'select 1e400',
    "select toDateTime('9999-99-99')",
    "select match('a', '(((')",
    'select * from events e join events e on 1',
    'select e.* from events',
    "select * from (select 1) as `x__person`",
    "select arrayMap(team_id -> team_id, [1])",
    '',
    'select',
    "select {filters}",
    "select count() from events group by",
    // The parser reads FORMAT as a table alias: harmless, the answer stays PostHog's JSON.
    'select * from events format JSON',
  ];

  it('answers 200 or 400 for every one, and keeps answering', async () => {
    for (const query of hostile) {
      const { status, body } = await hogql(query);
      expect([200, 400], `${query.slice(0, 80)} -> ${status} ${JSON.stringify(body).slice(0, 200)}`).toContain(status);
    }
    expect((await hogql('select 1')).body.results).toEqual([[1]]);
  });
});

describe('bounded', () => {
  it('a query built to be slow gets the time limit, and the server stays responsive', async () => {
    const slow = await createTestApp('sqlite', { HOGLET_QUERY_TIMEOUT_SECONDS: '2' });
    try {
      const who = await slow.bootstrap('hogql-slow@example.com');
      const started = Date.now();
      const pending = slow.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query: 'select count() from (select arrayJoin(range(100000)) as a) x cross join (select arrayJoin(range(100000)) as b) y where a * b % 7 = 3 limit 1' } } });
      const health = await slow.request(null, { method: 'GET', url: '/_health' });
      expect(health.statusCode).toBe(200);
      const res = await pending;
      expect([400, 504]).toContain(res.statusCode);
      expect(res.json().code).toMatch(/timeout|time/);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await slow.close();
    }
  });
});

describe('mistakes that once answered 500 are 400s that say what is wrong', () => {
  it('an engine error Hoglet has no name for (a union of different widths) is the query’s fault', async () => {
    const { status, body } = await hogql('select event, event from events union all select 1');
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.detail).not.toMatch(/hoglet\.|team_id|\{p\d/);
  });

  it('an integer beyond 2^53 is refused rather than rounded', async () => {
    const { status, body } = await hogql('select 9007199254740993');
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.detail).toMatch(/2\^53/);
    expect((await hogql('select 9007199254740991')).body.results).toEqual([[9007199254740991]]);
  });

  it('a CTE named after a table reads that table inside its own body (no recursion)', async () => {
    const { status, body } = await hogql('with events as (select event from events) select count() from events');
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toEqual([[1]]);
  });

  it('an unknown or negative cohort id', async () => {
    for (const query of ['select count() from events where person_id in cohort -1', 'select count() from events where person_id in cohort 999999']) {
      const { status, body } = await hogql(query);
      expect(status, `${query} ${JSON.stringify(body)}`).toBe(400);
    }
  });

  it('chained CTEs that double at every link are refused at the translation budget, quickly', async () => {
    const links = ['c0 as (select event from events)'];
    for (let i = 1; i < 22; i++) links.push(`c${i} as (select a.event as event from c${i - 1} a join c${i - 1} b on a.event = b.event)`);
    const started = Date.now();
    const { status, body } = await hogql(`with ${links.join(', ')} select count() from c21`);
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.detail).toMatch(/more than 100000 expressions/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await hogql('select 12345 + 1')).body.results).toEqual([[12346]]);
  });

  it('a LIMIT above 50,000 answers 50,000 rows and says more were left out', async () => {
    const { status, body } = await hogql('select arrayJoin(range(60000)) as n limit 60000');
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.results).toHaveLength(50_000);
    expect(body.hasMore).toBe(true);
    expect(body.limit).toBe(50_000);
    const fits = await hogql('select arrayJoin(range(10)) as n limit 60000');
    expect(fits.body.results).toHaveLength(10);
    expect(fits.body.hasMore).toBe(false);
  });
});
