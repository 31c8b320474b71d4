// Cohorts naming cohorts, as the reproduction meets them: a chain of 11 cohorts each naming
// the previous one 4 times saves, is counted and answers a query in moments while capture keeps
// answering (each cohort is evaluated once per statement, not 4^10 times); what a definition
// expands to is budgeted and refused when saved (create and PATCH) or queried; the list never
// evaluates a cohort.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COHORT_NESTING, MAX_COHORT_NODES } from '../../src/query/cohorts/budget.js';
import { nowIso } from '../../src/core/tokens.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, runQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const person = (key: string, value: unknown) => ({ type: 'person', key, value, operator: 'exact' });
const cohortRef = (id: number) => ({ type: 'cohort', key: 'id', value: id });
const criteria = (type: 'AND' | 'OR', values: unknown[]) => ({ properties: { type, values } });

describe.each(META_STORES)('cohorts naming cohorts on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  const base = () => `/api/projects/${alice.projectId}/cohorts`;
  const post = (payload: Record<string, unknown>) => t.request(alice.key, { method: 'POST', url: `${base()}/`, payload });
  const create = async (payload: Record<string, unknown>): Promise<{ id: number }> => {
    const res = await post(payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const get = async (id: number) => (await t.request(alice.key, { method: 'GET', url: `${base()}/${id}/` })).json();
  const calculated = async (id: number) => {
    for (let i = 0; i < 400; i++) {
      const cohort = await get(id);
      if (!cohort.is_calculating) return cohort;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`cohort ${id} is still calculating`);
  };
  /** A chain of `length` cohorts above `first`, each naming the one below `times` times. */
  const chain = async (first: number, length: number, times: number): Promise<number[]> => {
    const ids = [first];
    for (let i = 0; i < length; i++) {
      const below = ids[ids.length - 1]!;
      const refs = Array.from({ length: times }, () => cohortRef(below));
      ids.push((await create({ name: `link ${i}`, filters: criteria(i % 2 === 0 ? 'OR' : 'AND', refs) })).id);
    }
    return ids;
  };
  const capture = async () => {
    const res = await t.request(null, { method: 'POST', url: '/batch/', payload: { api_key: alice.projectApiToken, batch: [{ event: 'ping', distinct_id: 'ben' }] } });
    return res.statusCode;
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com');
    await journeys(t, alice, {
      ann: [ev('$pageview', daysAgo(2), { $set: { plan: 'pro' } }), ev('purchase', daysAgo(4))],
      ben: [ev('$pageview', daysAgo(3), { $set: { plan: 'free' } })],
      cat: [ev('$pageview', daysAgo(1), { $set: { plan: 'pro' } })],
    });
  });
  afterAll(() => t.close());

  it('saves, counts and queries a chain of 11 cohorts each naming the previous 4 times, the server answering throughout', async () => {
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const started = Date.now();
    const pro = await create({ name: 'Pro', filters: criteria('AND', [person('plan', 'pro')]) });
    const ids = await chain(pro.id, 10, 4);
    expect(await capture()).toBe(200);
    const last = ids[ids.length - 1]!;
    expect((await calculated(last)).count).toBe(2);
    const trend = await runQuery(t, alice, {
      kind: 'TrendsQuery',
      series: [{ kind: 'EventsNode', event: '$pageview', math: 'total' }],
      dateRange: { date_from: '-7d' },
      properties: [cohortRef(last)],
    });
    expect(trend.results[0].count).toBe(2);
    const persons = await t.request(alice.key, { method: 'GET', url: `${base()}/${last}/persons/` });
    expect(persons.statusCode, persons.body).toBe(200);
    expect(persons.json().results).toHaveLength(2);
    lag.disable();
    // 4^10 expansions took minutes and the heap; evaluated once each it is a moment.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(lag.max / 1e6).toBeLessThan(1_000);
  });

  it('evaluates layers of cohorts mixing person, behavioural, static and negated references as nested ones would', async () => {
    const boundary = '----chain-boundary';
    const staticBen = await t.request(alice.key, {
      method: 'POST',
      url: `${base()}/`,
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBen\r\n--${boundary}\r\nContent-Disposition: form-data; name="is_static"\r\n\r\ntrue\r\n`
        + `--${boundary}\r\nContent-Disposition: form-data; name="csv"; filename="ids.csv"\r\nContent-Type: text/csv\r\n\r\nben\r\n--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(staticBen.statusCode, staticBen.body).toBe(201);
    const bought = await create({ name: 'Bought', filters: criteria('AND', [{ type: 'behavioral', key: 'purchase', value: 'performed_event', event_type: 'events', time_value: 30, time_interval: 'day' }]) });
    const pro = await create({ name: 'Pro', filters: criteria('AND', [person('plan', 'pro')]) });
    const proNotBought = await create({ name: 'Pro, not bought', filters: criteria('AND', [cohortRef(pro.id), { ...cohortRef(bought.id), negation: true }]) });
    const orBen = await create({ name: 'or Ben', filters: criteria('OR', [cohortRef(proNotBought.id), cohortRef(staticBen.json().id)]) });
    const top = await create({
      name: 'Top',
      filters: criteria('OR', [{ type: 'AND', values: [cohortRef(orBen.id), { ...cohortRef(proNotBought.id), negation: true }] }, cohortRef(bought.id)]),
    });
    const personsOf = async (id: number) => ((await t.request(alice.key, { method: 'GET', url: `${base()}/${id}/persons/` })).json().results as { distinct_ids: string[] }[])
      .map((p) => p.distinct_ids[0]).sort();
    expect(await personsOf(proNotBought.id)).toEqual(['cat']);
    expect(await personsOf(orBen.id)).toEqual(['ben', 'cat']);
    expect(await personsOf(top.id)).toEqual(['ann', 'ben']);
  });

  it(`refuses, when saved, a cohort that names cohorts more than ${MAX_COHORT_NESTING} deep, also through a PATCH below it`, async () => {
    const root = await create({ name: 'Root', filters: criteria('AND', [person('plan', 'pro')]) });
    const ids = await chain(root.id, MAX_COHORT_NESTING, 1);
    const top = ids[ids.length - 1]!;
    // The top names cohorts exactly as deep as the budget allows, and is counted.
    expect((await calculated(top)).count).toBe(2);

    const tooDeep = await post({ name: 'One too deep', filters: criteria('AND', [cohortRef(top)]) });
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json()).toMatchObject({ type: 'validation_error', code: 'cohort_budget', attr: 'filters' });
    expect(tooDeep.json().detail).toContain(`the budget is ${MAX_COHORT_NESTING} levels`);

    // The root naming one more cohort would take the top past the budget: refused, nothing changed.
    const other = await create({ name: 'Other', filters: criteria('AND', [person('plan', 'free')]) });
    const patch = await t.request(alice.key, { method: 'PATCH', url: `${base()}/${root.id}/`, payload: { filters: criteria('AND', [cohortRef(other.id)]) } });
    expect(patch.statusCode).toBe(400);
    expect(patch.json()).toMatchObject({ code: 'cohort_budget', attr: 'filters' });
    expect(patch.json().detail).toContain(`Cohort ${top}, which names this one,`);
    expect((await get(root.id)).filters).toEqual(criteria('AND', [person('plan', 'pro')]));
  });

  it(`refuses, when saved, a cohort whose cohorts hold more than ${MAX_COHORT_NODES} conditions and groups together`, async () => {
    const wide = Array.from({ length: 200 }, (_, i) => person(`key${i}`, 'x'));
    const parts: number[] = [];
    for (let i = 0; i < 10; i++) parts.push((await create({ name: `wide ${i}`, filters: criteria('OR', wide) })).id);
    const res = await post({ name: 'Everything', filters: criteria('OR', parts.map(cohortRef)) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', code: 'cohort_budget', attr: 'filters' });
    expect(res.json().detail).toContain(`the budget is ${MAX_COHORT_NODES}`);
    // Nine of them fit.
    expect((await post({ name: 'Nine', filters: criteria('OR', parts.slice(1).map(cohortRef)) })).statusCode).toBe(201);
  });

  it('answers a query naming a stored cohort past the budget with a 400, and lists such cohorts without evaluating them', async () => {
    // Stored as a cohort saved before the budget would be: 22 cohorts deep, left "calculating".
    let below = (await create({ name: 'Bottom', filters: criteria('AND', [person('plan', 'pro')]) })).id;
    const insertRaw = async (filters: unknown) => (await t.services.repositories.cohorts.insert({
      team_id: alice.projectId, name: 'old chain', description: '', filters: JSON.stringify(filters), groups: '[]', is_static: 0,
      is_calculating: 1, deleted: 0, count: null, last_calculation: null, errors_calculating: 0, last_error: null, version: 1,
      created_by: alice.userId, created_at: nowIso(), updated_at: nowIso(),
    })).id;
    for (let i = 0; i < MAX_COHORT_NESTING + 2; i++) below = await insertRaw(criteria('OR', [cohortRef(below), cohortRef(below), cohortRef(below), cohortRef(below)]));
    const deepest = below;

    const res = await t.request(alice.key, {
      method: 'POST',
      url: `/api/projects/${alice.projectId}/query/`,
      payload: { query: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], properties: [cohortRef(deepest)] } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', code: 'cohort_budget' });
    expect(res.json().detail).toContain(`the budget is ${MAX_COHORT_NESTING} levels`);

    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const listed = await t.request(alice.key, { method: 'GET', url: `${base()}/?limit=100` });
    lag.disable();
    expect(listed.statusCode).toBe(200);
    expect(listed.json().results.some((c: { id: number }) => c.id === deepest)).toBe(true);
    expect(lag.max / 1e6).toBeLessThan(1_000);
    // Calculations run one after another: once a cohort created after the list is counted, any
    // the list had asked for would have run (and failed) too.
    const later = await create({ name: 'Later', filters: criteria('AND', [person('plan', 'free')]) });
    await calculated(later.id);
    const untouched = (await t.services.repositories.cohorts.findInProject(alice.projectId, deepest))!;
    expect(untouched).toMatchObject({ is_calculating: 1, errors_calculating: 0, last_error: null });
    expect(await capture()).toBe(200);
  });
});
