// The insight answers and their documented response schemas agree: every key an answer has is in
// the schema, every key the schema requires is in the answer, and the serializer (which writes
// what the schema lists) drops nothing the handler built. A field added to the views in
// core/insights/view.ts without being added to src/http/schemas/insight.ts fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TObject } from 'typebox';
import { buildApp } from '../../src/http/app.js';
import type { HogletApp } from '../../src/http/hoglet-app.js';
import { Insight, InsightBasic } from '../../src/http/schemas/insight.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, trendsQuery } from '../helpers/journeys.js';

let t: TestApp;
let alice: Credentials;
/** A second app over the same services, which also records what each handler answered before serialization. */
let app: HogletApp;
const built = new Map<string, unknown>();

const api = () => `/api/projects/${alice.projectId}`;
const trend = () => ({ kind: 'InsightVizNode', source: trendsQuery([{ kind: 'EventsNode', event: '$pageview' }], '2024-01-01', '2024-01-03') });
const funnel = () => ({
  kind: 'InsightVizNode',
  source: {
    kind: 'FunnelsQuery',
    series: [{ kind: 'EventsNode', event: '$pageview' }, { kind: 'EventsNode', event: 'signed_up' }],
    dateRange: { date_from: '2024-01-01', date_to: '2024-01-03' },
  },
});

/** The JSON answer, after checking it is exactly what the handler built (nothing dropped on the way out). */
async function answer(method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, status: number, payload?: unknown, key: string | null = alice.key): Promise<any> {
  const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
  const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  const handlerBuilt = built.get(res.headers['x-request-id'] as string);
  expect(handlerBuilt, `${method} ${url} went through the serializer`).toBeDefined();
  expect(body).toEqual(JSON.parse(JSON.stringify(handlerBuilt)));
  return body;
}

/** Every key answered is documented, and every documented required key is answered. */
function expectDocumented(schema: TObject, value: Record<string, unknown>, form: string): void {
  const documented = Object.keys(schema.properties);
  const required = (schema as { required?: string[] }).required ?? [];
  expect(Object.keys(value).filter((key) => !documented.includes(key)), `${form}: keys the schema does not list`).toEqual([]);
  expect(required.filter((key) => !Object.hasOwn(value, key)), `${form}: required keys missing`).toEqual([]);
}

const allKeys = (schema: TObject) => Object.keys(schema.properties).sort();
const requiredKeys = (schema: TObject) => [...((schema as { required?: string[] }).required ?? [])].sort();

beforeAll(async () => {
  t = await createTestApp('sqlite');
  alice = await t.bootstrap('alice@example.com');
  await journeys(t, alice, {
    a: [ev('$pageview', '2024-01-01T10:00:00Z'), ev('signed_up', '2024-01-01T10:05:00Z')],
    b: [ev('$pageview', '2024-01-02T10:00:00Z')],
  });
  app = await buildApp(t.services);
  app.addHook('preSerialization', async (request, _reply, payload) => {
    built.set(request.id, payload);
    return payload;
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

describe('insight answers against their response schemas', () => {
  for (const [kind, query] of [['trend', trend], ['funnel', funnel]] as const) {
    it(`a saved ${kind}: create, calculated retrieve and update answer every Insight field`, async () => {
      const created = await answer('POST', `${api()}/insights/`, 201, { name: `a ${kind}`, query: query(), saved: true });
      expectDocumented(Insight, created, `${kind} create`);
      // A member sees every field, the authorship ones included.
      expect(Object.keys(created).sort()).toEqual(allKeys(Insight));

      const retrieved = await answer('GET', `${api()}/insights/${created.id}/?refresh=blocking`, 200);
      expect(retrieved.result, 'calculated').not.toBeNull();
      expect(retrieved.last_refresh).toEqual(expect.any(String));
      expect(Object.keys(retrieved).sort()).toEqual(allKeys(Insight));

      const updated = await answer('PATCH', `${api()}/insights/${created.id}/`, 200, { description: 'checked', tags: ['schema'] });
      expect(updated.description).toBe('checked');
      expect(Object.keys(updated).sort()).toEqual(allKeys(Insight));

      const put = await answer('PUT', `${api()}/insights/${created.id}/`, 200, { favorited: true });
      expectDocumented(Insight, put, `${kind} update`);
    });
  }

  it('a calculation still running answers its query_status as documented', async () => {
    const created = await answer('POST', `${api()}/insights/`, 201, { name: 'async', query: trend(), saved: true });
    const running = await answer('GET', `${api()}/insights/${created.id}/?refresh=force_async`, 200);
    expect(running.query_status).toEqual(expect.objectContaining({ query_async: true }));
    expect(Object.keys(running.query_status).sort()).toEqual(allKeys(Insight.properties.query_status.anyOf[0] as TObject));
    expect(Object.keys(running).sort()).toEqual(allKeys(Insight));
  });

  it('the list answers full insights, and basic ones with ?basic=true; my_last_viewed the basic form', async () => {
    const full = await answer('GET', `${api()}/insights/?refresh=blocking`, 200);
    expect(full.results.length).toBeGreaterThan(1);
    for (const insight of full.results) expect(Object.keys(insight).sort()).toEqual(allKeys(Insight));

    const basic = await answer('GET', `${api()}/insights/?basic=true`, 200);
    expect(basic.results.length).toBe(full.results.length);
    for (const insight of basic.results) {
      expectDocumented(InsightBasic, insight, 'basic');
      expect(Object.keys(insight).sort()).toEqual(allKeys(InsightBasic));
    }

    const res = await app.inject({ method: 'POST', url: `${api()}/insights/${full.results[0].id}/viewed/`, headers: { authorization: `Bearer ${alice.key}` } });
    expect(res.statusCode).toBe(200);
    const recent = await answer('GET', `${api()}/insights/my_last_viewed/`, 200);
    expect(recent.length).toBeGreaterThan(0);
    for (const insight of recent) expect(Object.keys(insight).sort()).toEqual(allKeys(InsightBasic));
  });

  it('a shared read (token retrieve, token list, /shared/<token>.json) answers the documented fields, without authorship', async () => {
    const created = await answer('POST', `${api()}/insights/`, 201, { name: 'shared', query: trend(), saved: true });
    const sharing = await app.inject({ method: 'PATCH', url: `${api()}/insights/${created.id}/sharing/`, headers: { authorization: `Bearer ${alice.key}` }, payload: { enabled: true } });
    expect(sharing.statusCode, sharing.body).toBe(200);
    const token = encodeURIComponent(sharing.json().access_token);

    const retrieved = await answer('GET', `${api()}/insights/${created.id}/?sharing_access_token=${token}`, 200, undefined, null);
    expectDocumented(Insight, retrieved, 'shared retrieve');
    // The optional fields are exactly the ones a shared read leaves out.
    expect(Object.keys(retrieved).sort()).toEqual(requiredKeys(Insight));
    expect(retrieved.user_access_level).toBe('viewer');

    const listed = await answer('GET', `${api()}/insights/?sharing_access_token=${token}`, 200, undefined, null);
    expect(listed.results).toHaveLength(1);
    expect(Object.keys(listed.results[0]).sort()).toEqual(requiredKeys(Insight));

    const basic = await answer('GET', `${api()}/insights/?basic=true&sharing_access_token=${token}`, 200, undefined, null);
    expect(Object.keys(basic.results[0]).sort()).toEqual(requiredKeys(InsightBasic));

    const page = await answer('GET', `/shared/${token}.json`, 200, undefined, null);
    expect(page.type).toBe('scene');
    expect(Object.keys(page.insight).sort()).toEqual(requiredKeys(Insight));
  });

  it('errors on these routes keep PostHog’s body', async () => {
    const res = await app.inject({ method: 'GET', url: `${api()}/insights/999999/`, headers: { authorization: `Bearer ${alice.key}` } });
    expect(res.statusCode).toBe(404);
    expect(Object.keys(res.json())).toEqual(['type', 'code', 'detail', 'attr']);
  });
});
