// A HogQLQuery sent as a user sends it (POST /api/projects/:id/query/), for the HogQL tests.
import type { Credentials, TestApp } from './app.js';

export interface HogQLAnswer {
  status: number;
  body: any;
}

/** The answer to `query` (with `extra` fields of the HogQLQuery: values, filters...), whatever its status. */
export async function postHogQL(t: TestApp, who: Credentials, query: string, extra: Record<string, unknown> = {}): Promise<HogQLAnswer> {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query, ...extra } } });
  return { status: res.statusCode, body: res.json() };
}

/** The rows of `query`; anything but a 200 fails the test with the query and the answer. */
export async function hogqlRows(t: TestApp, who: Credentials, query: string, extra: Record<string, unknown> = {}): Promise<unknown[][]> {
  const { status, body } = await postHogQL(t, who, query, extra);
  if (status !== 200) throw new Error(`${query}\n${status} ${JSON.stringify(body)}`);
  return body.results;
}

/** The `detail` of a 400 answer to `query`; any other status fails the test with the answer. */
export async function hogqlRefusal(t: TestApp, who: Credentials, query: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { status, body } = await postHogQL(t, who, query, extra);
  if (status !== 400) throw new Error(`${query}\nexpected a 400, got ${status} ${JSON.stringify(body)}`);
  return body.detail as string;
}
