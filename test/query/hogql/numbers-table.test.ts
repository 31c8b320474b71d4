// numbers() with bounds the engine folds to a constant (issue 28, gap a): any expression over no
// table is a bound, as in PostHog, where ClickHouse folds the table function's arguments; the
// 1e9-row budget, whole numbers and no negatives still hold, each a 400 with a clear message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { postHogQL } from '../../helpers/hogql.js';

let t: TestApp;
let who: Credentials;

const hogql = (query: string) => postHogQL(t, who, query);

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('numbers-bounds@example.com');
});
afterAll(() => t.close());

describe('numbers() with computed bounds', () => {
  it.each([
    ['SELECT number FROM numbers(abs(-3))', [[0], [1], [2]]],
    ["SELECT number FROM numbers(length('abcd'))", [[0], [1], [2], [3]]],
    ["SELECT number FROM numbers(dateDiff('day', toDate('2024-01-01'), toDate('2024-01-04')))", [[0], [1], [2]]],
    ['SELECT number FROM numbers(intDiv(10, 3), 2 * 1)', [[3], [4]]],
    ['SELECT number FROM numbers(greatest(1, 2), least(3, 2))', [[2], [3]]],
    ["SELECT toDate('2024-01-01') + number FROM numbers(dateDiff('day', toDate('2024-01-01'), toDate('2024-01-03')) + 1)", [['2024-01-01'], ['2024-01-02'], ['2024-01-03']]],
    ["SELECT count() FROM numbers(1000 * length('abcdefghij') * 100)", [[1000000]]],
  ])('%s', async (query, expected) => {
    const { status, body } = await hogql(query);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toEqual(expected);
  });

  it.each([
    ["SELECT number FROM numbers(1 + 1000000 * length('abcdefghij') * 100)", "Table function 'numbers' takes a whole number of rows from 0 to 1000000000"],
    ['SELECT number FROM numbers(least(-1, 5))', "Table function 'numbers' takes a whole number of rows from 0 to 1000000000"],
    ['SELECT number FROM numbers(1.5)', "Table function 'numbers' takes a whole number of rows from 0 to 1000000000"],
    ['SELECT number FROM numbers(least(-1, 5), 2)', "Table function 'numbers' starts at a whole number, 0 or more"],
    ['SELECT number FROM numbers((SELECT count() FROM events))', "Table function 'numbers' takes no subqueries: its bounds must be constant expressions"],
    ['SELECT number FROM events, numbers(length(event))', 'Unable to resolve field: event'],
  ])('%s is a 400', async (query, message) => {
    const { status, body } = await hogql(query);
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.detail).toContain(message);
  });

  it("a bound the engine cannot read as a number is the engine's 400", async () => {
    const { status } = await hogql("SELECT number FROM numbers('three')");
    expect(status).toBe(400);
  });
});
