// SAMPLE on the events table: the rows ClickHouse's sampling keeps on PostHog's sampling key
// (SAMPLE BY cityHash64(distinct_id)), each checked against the hash range computed by a plain
// query; and the team guard holds with it (another project's rows, same distinct ids, never count).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRefusal, hogqlRows } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
let other: Credentials;
const IDS = Array.from({ length: 200 }, (_, i) => `user-${i}`);
const T0 = '2021-03-01T00:00:00Z';
/** 2^64, the size of cityHash64's range (a Float64, exact; HogQL reads the integer literal as text). */
const RANGE = 'pow(2, 64)';

const rows = (query: string, project: Credentials = who) => hogqlRows(t, project, query);
/** The 400's message (its first line: what may follow names the tables). */
const refusal = async (query: string) => (await hogqlRefusal(t, who, query)).split('\n')[0];
/** The first column of every row, sorted (past HogQL's default LIMIT of 100). */
const ids = async (query: string) => (await rows(`${query} LIMIT 1000`)).map((r) => r[0] as string).sort();
/** The distinct ids whose hash lies in [from, to) of the range, by a plain filter. */
const inRange = (from: string, to: string) => ids(`SELECT distinct_id FROM events WHERE cityHash64(distinct_id) >= ${RANGE} * ${from} AND cityHash64(distinct_id) < ${RANGE} * ${to}`);

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('sample@example.com');
  other = await t.bootstrap('sample-other@example.com');
  await journeys(t, who, Object.fromEntries(IDS.map((id) => [id, [ev('seen', T0)]])));
  // The same distinct ids in another project, marked: a sample of ours never reads them.
  await journeys(t, other, Object.fromEntries(IDS.map((id) => [id, [ev('theirs', T0)]])));
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('SAMPLE on events keeps the rows of a hash range', () => {
  it('SAMPLE 1/2 and SAMPLE 1/2 OFFSET 1/2 split the rows in two, each half its hash range', async () => {
    const first = await ids('SELECT distinct_id FROM events SAMPLE 1/2');
    const second = await ids('SELECT distinct_id FROM events SAMPLE 1/2 OFFSET 1/2');
    expect(first).toEqual(await inRange('0', '1/2'));
    expect(second).toEqual(await inRange('1/2', '1'));
    expect(first.length).toBeGreaterThan(60);
    expect(second.length).toBeGreaterThan(60);
    expect([...first, ...second].sort()).toEqual([...IDS].sort());
  });

  it('SAMPLE 1/10 keeps the ids whose cityHash64 is below 2^64/10; 0.1 OFFSET 1/10 the next tenth', async () => {
    const tenth = await ids('SELECT distinct_id FROM events SAMPLE 1/10');
    expect(tenth).toEqual(await inRange('0', '1/10'));
    expect(tenth.length).toBeGreaterThan(0);
    expect(await ids('SELECT distinct_id FROM events SAMPLE 0.1 OFFSET 1/10')).toEqual(await inRange('1/10', '2/10'));
    expect(await ids('SELECT distinct_id FROM events e SAMPLE 1/3 OFFSET 2/3')).toEqual(await inRange('2/3', '1'));
  });

  it('a size past the end keeps to the end; SAMPLE 1 and SAMPLE 0 keep every row; an offset of 1 keeps none', async () => {
    expect(await ids('SELECT distinct_id FROM events SAMPLE 1/2 OFFSET 3/4')).toEqual(await inRange('3/4', '1'));
    expect(await ids('SELECT distinct_id FROM events SAMPLE 1')).toHaveLength(200);
    expect(await ids('SELECT distinct_id FROM events SAMPLE 0')).toHaveLength(200);
    expect(await ids('SELECT distinct_id FROM events SAMPLE 1 OFFSET 0')).toHaveLength(200);
    expect(await ids('SELECT distinct_id FROM events SAMPLE 1/2 OFFSET 1')).toEqual([]);
  });

  it("a size above 1 is a row count: its share of the project's events (20 of 200 is a tenth), as an offset above 1", async () => {
    expect(await ids('SELECT distinct_id FROM events SAMPLE 20')).toEqual(await inRange('0', '1/10'));
    expect(await ids('SELECT distinct_id FROM events SAMPLE 1/10 OFFSET 100')).toEqual(await inRange('1/2', '6/10'));
    expect(await ids('SELECT distinct_id FROM events SAMPLE 5000')).toHaveLength(200);
    expect(await ids('SELECT distinct_id FROM events SAMPLE 2/78 OFFSET 999')).toEqual([]);
  });

  it("the team guard holds: another project's rows never appear, in FROM or in a sampled JOIN", async () => {
    expect(await rows("SELECT count() FROM events SAMPLE 1/2 WHERE event = 'theirs'")).toEqual([[0]]);
    const joined = await ids('SELECT b.distinct_id FROM events a JOIN events b SAMPLE 1/2 ON a.distinct_id = b.distinct_id');
    expect(joined).toEqual(await inRange('0', '1/2'));
    expect(await rows("SELECT count() FROM events SAMPLE 1/2 WHERE event = 'seen'", other)).toEqual([[0]]);
  });

  it('a sampled LEFT JOIN keeps every left row and matches only the sampled ones', async () => {
    const matched = await ids("SELECT a.distinct_id FROM events a LEFT JOIN events b SAMPLE 1/2 ON a.distinct_id = b.distinct_id WHERE b.distinct_id != ''");
    expect(matched).toEqual(await inRange('0', '1/2'));
    expect(await rows('SELECT count() FROM events a LEFT JOIN events b SAMPLE 1/2 ON a.distinct_id = b.distinct_id')).toEqual([[200]]);
  });
});

describe('SAMPLE refused', () => {
  it.each([
    'SELECT 1 FROM persons SAMPLE 1/2',
    'SELECT 1 FROM person_distinct_ids SAMPLE 1/2',
    'SELECT 1 FROM (SELECT * FROM events) SAMPLE 1/2',
    'WITH events AS (SELECT 1 AS x) SELECT x FROM events SAMPLE 1/2',
    'SELECT number FROM numbers(10) SAMPLE 1/2',
    'SELECT 1 FROM events a JOIN persons p SAMPLE 1/2 ON a.person_id = p.id',
  ])('on a table other than events: %s', async (query) => {
    expect(await refusal(query)).toBe('SAMPLE is only supported on the events table (sampled by cityHash64(distinct_id), as PostHog declares it)');
  });

  it("an offset with a size that samples nothing is ClickHouse's error; a ratio over 0 is refused", async () => {
    expect(await refusal('SELECT 1 FROM events SAMPLE 1 OFFSET 1/2')).toBe('Sampling offset is incorrect because no sampling.');
    expect(await refusal('SELECT 1 FROM events SAMPLE 0 OFFSET 1/2')).toBe('Sampling offset is incorrect because no sampling.');
    expect(await refusal('SELECT 1 FROM events SAMPLE 1/0')).toBe('Division by zero in a SAMPLE ratio');
  });
});
