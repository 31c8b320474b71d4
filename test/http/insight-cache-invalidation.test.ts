// A cached result answers for the definitions it was calculated with: changing an action the query
// names, or a project setting the calculation reads (test-account filters, timezone, week start),
// makes the next read recalculate instead of serving the old answer as fresh. Changes that cannot
// change the answer (another action, test-account filters for a query that does not use them)
// keep the cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementsDuring as countStatements } from '../helpers/statements.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const INTERNAL_FILTER = [{ key: 'email', value: '@internal.example', operator: 'not_icontains', type: 'person' }];

describe.each(META_STORES)('cached results follow the definitions they depend on, on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let counter = 0;
  const projectUrl = () => `/api/projects/${alice.projectId}/`;
  const insightsUrl = () => `${projectUrl()}insights/`;

  /** Statements the event store ran while `work` ran. */
  const statementsDuring = <T>(work: () => Promise<T>) => countStatements(t.services.events, work);
  const createAction = async (name: string, steps: unknown[]) => {
    const res = await t.request(alice.key, { method: 'POST', url: `${projectUrl()}actions/`, payload: { name, steps } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const patchAction = async (id: number, body: Record<string, unknown>) => {
    const res = await t.request(alice.key, { method: 'PATCH', url: `${projectUrl()}actions/${id}/`, payload: body });
    expect(res.statusCode, res.body).toBe(200);
  };
  const patchProject = async (body: Record<string, unknown>) => {
    const res = await t.request(alice.key, { method: 'PATCH', url: projectUrl(), payload: body });
    expect(res.statusCode, res.body).toBe(200);
  };
  const createInsight = async (source: Record<string, unknown>) => {
    const query = { kind: 'InsightVizNode', source: { kind: 'TrendsQuery', dateRange: { date_from: '2024-03-01', date_to: '2024-03-02' }, ...source } };
    const res = await t.request(alice.key, { method: 'POST', url: insightsUrl(), payload: { name: `insight ${++counter}`, query } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const retrieve = async (id: number, params = '') => {
    const res = await t.request(alice.key, { method: 'GET', url: `${insightsUrl()}${id}/${params}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com');
    await journeys(t, alice, {
      staff: [ev('$set', '2024-02-01T00:00:00Z', { $set: { email: 'ann@internal.example' } }), ev('signup', '2024-03-01T10:00:00Z'), ev('login', '2024-03-01T11:00:00Z')],
      customer: [ev('$set', '2024-02-01T00:00:00Z', { $set: { email: 'bob@customer.example' } }), ev('signup', '2024-03-01T12:00:00Z')],
    });
  });
  afterAll(() => t.close());

  it("changing an action's steps makes the next read recalculate with the new definition", async () => {
    const actionId = await createAction('Signed up', [{ event: 'signup' }]);
    const insight = await createInsight({ series: [{ kind: 'ActionsNode', id: actionId }] });
    const first = await retrieve(insight, '?refresh=blocking');
    expect(first.result[0].data).toEqual([2, 0]);
    expect((await retrieve(insight, '?refresh=blocking')).is_cached).toBe(true);

    await patchAction(actionId, { steps: [{ event: 'signup' }, { event: 'login' }] });
    // The default never calculates: the old answer is no longer offered as this insight's result.
    expect(await retrieve(insight)).toMatchObject({ result: null, is_cached: false, last_refresh: null });
    const changed = await retrieve(insight, '?refresh=blocking');
    expect(changed.is_cached).toBe(false);
    expect(changed.result[0].data).toEqual([3, 0]);
    // /query/ (blocking by default) agrees and serves the new answer from the cache.
    const query = { kind: 'TrendsQuery', series: [{ kind: 'ActionsNode', id: actionId }], dateRange: { date_from: '2024-03-01', date_to: '2024-03-02' } };
    const viaQuery = await t.request(alice.key, { method: 'POST', url: `${projectUrl()}query/`, payload: { query } });
    expect(viaQuery.json()).toMatchObject({ is_cached: true, results: [{ data: [3, 0] }] });

    // Renaming changes the series label, so it is part of the definition too.
    await patchAction(actionId, { name: 'Signed up or logged in' });
    const renamed = await retrieve(insight, '?refresh=blocking');
    expect(renamed.is_cached).toBe(false);
    expect(renamed.result[0].label).toBe('Signed up or logged in');

    // Deleting it: the query no longer has the action to count.
    await patchAction(actionId, { deleted: true });
    expect((await retrieve(insight, '?refresh=blocking')).is_cached).toBe(false);
  });

  it("another action's change keeps the cache", async () => {
    const used = await createAction('Logged in', [{ event: 'login' }]);
    const other = await createAction('Something else', [{ event: 'signup' }]);
    const insight = await createInsight({ series: [{ kind: 'ActionsNode', id: used }] });
    expect((await retrieve(insight, '?refresh=blocking')).result[0].data).toEqual([1, 0]);
    await patchAction(other, { steps: [{ event: 'login' }] });
    const again = await statementsDuring(() => retrieve(insight, '?refresh=blocking'));
    expect(again.statements).toBe(0);
    expect(again.value.is_cached).toBe(true);
  });

  it('changing test-account filters recalculates queries that filter test accounts, and only those', async () => {
    await patchProject({ test_account_filters: [] });
    const filtered = await createInsight({ series: [{ kind: 'EventsNode', event: 'signup' }], filterTestAccounts: true });
    const unfiltered = await createInsight({ series: [{ kind: 'EventsNode', event: 'signup' }], filterTestAccounts: false });
    expect((await retrieve(filtered, '?refresh=blocking')).result[0].data).toEqual([2, 0]);
    expect((await retrieve(unfiltered, '?refresh=blocking')).result[0].data).toEqual([2, 0]);

    await patchProject({ test_account_filters: INTERNAL_FILTER });
    const changed = await retrieve(filtered, '?refresh=blocking');
    expect(changed.is_cached).toBe(false);
    expect(changed.result[0].data).toEqual([1, 0]);
    const untouched = await statementsDuring(() => retrieve(unfiltered, '?refresh=blocking'));
    expect(untouched.statements).toBe(0);
    expect(untouched.value).toMatchObject({ is_cached: true, result: [{ data: [2, 0] }] });
  });

  it('changing the week start recalculates weekly results', async () => {
    await patchProject({ week_start_day: 0 });
    const insight = await createInsight({ series: [{ kind: 'EventsNode', event: 'signup' }], interval: 'week' });
    const sunday = await retrieve(insight, '?refresh=blocking');
    await patchProject({ week_start_day: 1 });
    const monday = await retrieve(insight, '?refresh=blocking');
    expect(monday.is_cached).toBe(false);
    expect(monday.result[0].days).not.toEqual(sunday.result[0].days);
  });
});
