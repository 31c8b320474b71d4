// A HogQLQuery sent as a user sends it (POST /api/projects/:id/query/), for the HogQL tests.
import type { Credentials, TestApp } from './app.js';

export interface HogQLAnswer {
  status: number;
  /** The body, a 400's without PostHog's enrichment (see `enriched`), so cases compare the error itself. */
  body: any;
  /** The body as sent: a HogQL 400's detail ends with "Hint: ..." and "Tables referenced: ..." lines, and `extra` holds hogql_metadata. */
  enriched: any;
}

/** A HogQL 400's body without what PostHog's enrich_hogql_validation_error adds. */
function withoutEnrichment(body: any): any {
  if (body === null || typeof body !== 'object' || body.extra === undefined || typeof body.detail !== 'string') return body;
  const { extra: _extra, ...rest } = body;
  const lines = (body.detail as string).split('\n');
  while (lines.length > 1 && /^(Hint|Tables referenced): /.test(lines.at(-1)!)) lines.pop();
  return { ...rest, detail: lines.join('\n') };
}

/** The answer to `query` (with `extra` fields of the HogQLQuery: values, filters...), whatever its status. */
export async function postHogQL(t: TestApp, who: Credentials, query: string, extra: Record<string, unknown> = {}): Promise<HogQLAnswer> {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query, ...extra } } });
  const enriched = res.json();
  return { status: res.statusCode, body: withoutEnrichment(enriched), enriched };
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
