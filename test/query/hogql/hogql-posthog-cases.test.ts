// More of PostHog's own HogQL cases (posthog/hogql/test/test_query.py), as data: the query text and
// the rows (or the error) PostHog's test expects, run through /query/ over events captured through
// /batch/. Nullish coalescing, named windows, the numbers() table function and positional GROUP BY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let who: Credentials;

async function hogql(query: string) {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query } } });
  return { status: res.statusCode, body: res.json() };
}

async function rows(query: string): Promise<unknown[][]> {
  const { status, body } = await hogql(query);
  if (status !== 200) throw new Error(`${status} ${JSON.stringify(body)}`);
  return body.results;
}

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('hogql-posthog-cases@example.com');
});
afterAll(() => t.close());

describe('nullish coalescing (test_nullish_coalescing)', () => {
  it("takes PostHog's precedence and result types", async () => {
    const query = "SELECT null ?? 1, null ?? null ?? 2, 3 ?? null, null ?? 'string', 1 + (null ?? 2) + 3, 1 + null ?? 2 + 3, 10 ?? true ? 20 : 30, 10 ?? 5 + 10";
    expect(await rows(query)).toEqual([[1, 2, 3, 'string', 6, 5, 20, 10]]);
  });
});
