// Nothing internal leaves the server: no answer carries the ClickHouse SQL that ran (it names our
// database and table layout), and no answer read through a sharing token carries anything about a
// user (email, name, ids).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, trendsQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const PAGEVIEWS = [{ kind: 'EventsNode', event: '$pageview' }];
const FUNNEL = {
  kind: 'FunnelsQuery',
  series: [{ kind: 'EventsNode', event: '$pageview' }, { kind: 'EventsNode', event: 'signup' }],
  dateRange: { date_from: '2024-01-01', date_to: '2024-01-03' },
};

describe.each(META_STORES)('nothing internal in any answer on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let database: string;
  let bobUser: { email: string; uuid: string; distinct_id: string; first_name: string };
  const api = () => `/api/projects/${alice.projectId}`;

  /** The marks of printed SQL: our database name, a qualified table, the project guard. */
  const expectNoInternalSql = (res: LightMyRequestResponse, what: string) => {
    expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);
    expect(res.body, what).not.toContain(database);
    expect(res.body, what).not.toMatch(/`events`|team_id = \{|SELECT .* FROM /);
  };

  const createInsight = async (query: unknown, key = alice.key) => {
    const res = await t.request(key, { method: 'POST', url: `${api()}/insights/`, payload: { name: 'exposed?', query, saved: true } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; short_id: string };
  };
  const shareInsight = async (id: number) => {
    const res = await t.request(alice.key, { method: 'PATCH', url: `${api()}/insights/${id}/sharing/`, payload: { enabled: true } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().access_token as string;
  };
  /** Every way a sharing token reads, JSON and CSV. */
  const sharedAnswers = (token: string, id: number) => {
    const qs = `sharing_access_token=${encodeURIComponent(token)}`;
    return {
      '/shared/:token.json': `/shared/${token}.json`,
      'retrieve': `${api()}/insights/${id}/?${qs}`,
      'retrieve csv': `${api()}/insights/${id}/?${qs}&format=csv`,
      'list': `${api()}/insights/?${qs}`,
      'list basic': `${api()}/insights/?${qs}&basic=true`,
      'list csv': `${api()}/insights.csv?${qs}`,
      'results csv': `${api()}/insights/${id}/results.csv?${qs}`,
      'environments retrieve': `/api/environments/${alice.projectId}/insights/${id}/?${qs}`,
    };
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    database = t.services.events.layout.database;
    await journeys(t, alice, {
      a: [ev('$pageview', '2024-01-01T10:00:00Z'), ev('$pageview', '2024-01-02T10:00:00Z')],
      b: [ev('$pageview', '2024-01-02T11:00:00Z'), ev('signup', '2024-01-02T12:00:00Z')],
    });
    // Bob, a member, last changes the insights: his data must not show either.
    await t.addMember(alice.organizationId, 'bob.private@example.com', 1);
    const me = await t.request(await t.key('bob.private@example.com', ['*']), { method: 'GET', url: '/api/users/@me/' });
    bobUser = me.json();
  });
  afterAll(() => t.close());

  describe('the hogql field never holds our SQL', () => {
    it('/query/ (blocking, cached, async and its status), legacy trend and funnel', async () => {
      const query = trendsQuery(PAGEVIEWS, '2024-01-01', '2024-01-03');
      const blocking = await t.request(alice.key, { method: 'POST', url: `${api()}/query/`, payload: { query } });
      expectNoInternalSql(blocking, 'blocking');
      expect(blocking.json()).toHaveProperty('hogql', null);
      expect(blocking.json().results[0].data).toEqual([1, 2, 0]);
      const cached = await t.request(alice.key, { method: 'POST', url: `${api()}/query/`, payload: { query, refresh: 'force_cache' } });
      expectNoInternalSql(cached, 'cached');
      expect(cached.json()).toMatchObject({ is_cached: true, hogql: null });

      const started = await t.request(alice.key, { method: 'POST', url: `${api()}/query/`, payload: { query: FUNNEL, refresh: 'force_async', client_query_id: 'exposure-async' } });
      expectNoInternalSql(started, 'async start');
      let status = await t.request(alice.key, { method: 'GET', url: `${api()}/query/exposure-async/` });
      for (let polls = 0; status.statusCode === 202 && polls < 200; polls++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = await t.request(alice.key, { method: 'GET', url: `${api()}/query/exposure-async/` });
      }
      expectNoInternalSql(status, 'async status');
      expect(status.json().query_status.results).toMatchObject({ hogql: null });

      const trend = await t.request(alice.key, { method: 'POST', url: `${api()}/insights/trend/`, payload: { events: [{ id: '$pageview' }], date_from: '2024-01-01', date_to: '2024-01-03' } });
      expectNoInternalSql(trend, 'legacy trend');
      expect(trend.json()).toHaveProperty('hogql', null);
      const funnel = await t.request(alice.key, { method: 'POST', url: `${api()}/insights/funnel/`, payload: { events: [{ id: '$pageview', order: 0 }, { id: 'signup', order: 1 }], date_from: '2024-01-01', date_to: '2024-01-03' } });
      expectNoInternalSql(funnel, 'legacy funnel');
    });

    it('insights with their results: retrieve, list, CSV, and every shared answer', async () => {
      const insight = await createInsight({ kind: 'InsightVizNode', source: trendsQuery(PAGEVIEWS, '2024-01-01', '2024-01-02') });
      const calculated = await t.request(alice.key, { method: 'GET', url: `${api()}/insights/${insight.id}/?refresh=blocking` });
      expectNoInternalSql(calculated, 'retrieve blocking');
      expect(calculated.json()).toMatchObject({ result: [expect.objectContaining({ data: [1, 2] })], hogql: null });
      for (const url of [`${api()}/insights/${insight.id}/`, `${api()}/insights/?refresh=blocking`, `${api()}/insights/${insight.id}/?format=csv`, `${api()}/insights.csv`]) {
        expectNoInternalSql(await t.request(alice.key, { method: 'GET', url }), url);
      }
      const token = await shareInsight(insight.id);
      for (const [what, url] of Object.entries(sharedAnswers(token, insight.id))) {
        expectNoInternalSql(await t.request(null, { method: 'GET', url }), what);
      }
      const page = await t.request(null, { method: 'GET', url: `/shared/${token}.json` });
      expect(page.json().insight).toMatchObject({ result: [expect.objectContaining({ data: [1, 2] })], hogql: null });
    });
  });

  describe('a sharing token shows no user', () => {
    it('no email, name or user id in any shared answer, JSON or CSV; a member still sees them', async () => {
      const insight = await createInsight({ kind: 'InsightVizNode', source: trendsQuery(PAGEVIEWS, '2024-01-01', '2024-01-03') });
      const bobKey = await t.key('bob.private@example.com', ['*']);
      const edited = await t.request(bobKey, { method: 'PATCH', url: `${api()}/insights/${insight.id}/`, payload: { name: 'edited by bob' } });
      expect(edited.statusCode, edited.body).toBe(200);

      // Through a key, the insight names who made and changed it ...
      const member = (await t.request(alice.key, { method: 'GET', url: `${api()}/insights/${insight.id}/` })).json();
      expect(member.created_by.email).toBe('alice@example.com');
      expect(member.last_modified_by.email).toBe('bob.private@example.com');

      // ... through its sharing token, never.
      const token = await shareInsight(insight.id);
      const secrets = ['alice@example.com', 'bob.private@example.com', bobUser.uuid, bobUser.distinct_id, member.created_by.uuid, member.created_by.distinct_id];
      for (const [what, url] of Object.entries(sharedAnswers(token, insight.id))) {
        const res = await t.request(null, { method: 'GET', url });
        expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
        for (const secret of secrets) expect(res.body, `${what} shows ${secret}`).not.toContain(secret);
        expect(res.body, what).not.toMatch(/created_by|last_modified_by/);
      }

      // What remains is PostHog's shared form (hideExtraDetails): a viewer's levels, no authorship.
      const shared = (await t.request(null, { method: 'GET', url: `/shared/${token}.json` })).json().insight;
      expect(shared).toMatchObject({ id: insight.id, name: 'edited by bob', user_access_level: 'viewer', effective_restriction_level: 37, effective_privilege_level: 21 });
      for (const field of ['created_by', 'last_modified_by', 'created_at', 'last_modified_at']) expect(shared).not.toHaveProperty(field);
    });
  });
});
