// The Cohorts API from outside: PostHog's shape, criteria checked strictly, references kept inside
// the project and free of loops, counts calculated in the background, static cohorts from person
// ids and CSV uploads, the persons listing, soft delete, activity and scopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const person = (key: string, value: unknown, operator = 'exact') => ({ type: 'person', key, value, operator });
const didEvent = (key: string, days: number, extra: Record<string, unknown> = {}) =>
  ({ type: 'behavioral', key, value: 'performed_event', event_type: 'events', time_value: days, time_interval: 'day', ...extra });
const all = (...values: unknown[]) => ({ properties: { type: 'AND', values } });

/** A multipart body with text fields and one file. */
function multipart(fields: Record<string, string>, file?: { name: string; content: string }) {
  const boundary = '----hoglet-test-boundary';
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  if (file) parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="ids.csv"\r\nContent-Type: text/csv\r\n\r\n${file.content}\r\n`);
  return { payload: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(META_STORES)('Cohorts API on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const base = (c: Credentials = alice) => `/api/projects/${c.projectId}/cohorts`;

  const create = async (payload: Record<string, unknown>, c: Credentials = alice) => {
    const res = await t.request(c.key, { method: 'POST', url: `${base(c)}/`, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const get = async (id: number, c: Credentials = alice) => (await t.request(c.key, { method: 'GET', url: `${base(c)}/${id}/` })).json();
  /** The cohort once its background calculation has finished. */
  const calculated = async (id: number, c: Credentials = alice) => {
    for (let i = 0; i < 200; i++) {
      const cohort = await get(id, c);
      if (!cohort.is_calculating) return cohort;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`cohort ${id} is still calculating`);
  };
  const personsOf = async (id: number, c: Credentials = alice) => {
    const res = await t.request(c.key, { method: 'GET', url: `${base(c)}/${id}/persons/` });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().results as { distinct_ids: string[] }[]).map((p) => p.distinct_ids[0]).sort();
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    await journeys(t, alice, {
      ann: [ev('$pageview', daysAgo(2), { $set: { email: 'ann@paying.com', plan: 'pro' } }), ev('purchase', daysAgo(3))],
      ben: [ev('$pageview', daysAgo(10), { $set: { email: 'ben@example.com', plan: 'free' } })],
      cat: [ev('$pageview', daysAgo(1), { $set: { email: 'cat@paying.com', plan: 'pro' } }), ev('purchase', daysAgo(40))],
    });
    await journeys(t, bob, { bob1: [ev('$pageview', daysAgo(1), { $set: { plan: 'pro' } })] });
  });
  afterAll(() => t.close());

  it("creates a dynamic cohort in PostHog's shape, calculating, then counted", async () => {
    const filters = all(person('plan', 'pro'));
    const cohort = await create({ name: 'Pro users', description: 'on the pro plan', filters });
    expect(cohort).toEqual({
      id: expect.any(Number),
      name: 'Pro users',
      description: 'on the pro plan',
      groups: [],
      deleted: false,
      filters,
      query: null,
      is_calculating: true,
      created_by: expect.objectContaining({ email: 'alice@example.com' }),
      created_at: expect.any(String),
      last_calculation: null,
      errors_calculating: 0,
      last_error_message: null,
      count: null,
      is_static: false,
      cohort_type: null,
      experiment_set: [],
    });
    const done = await calculated(cohort.id);
    expect(done.count).toBe(2);
    expect(done.last_calculation).toEqual(expect.any(String));
    expect(await personsOf(cohort.id)).toEqual(['ann', 'cat']);
  });

  it('counts a dynamic cohort again when it is read more than a day after its count', async () => {
    const cohort = await create({ name: 'Recounted', filters: all(person('plan', 'pro')) });
    expect((await calculated(cohort.id)).count).toBe(2);
    const dayAndABitAgo = new Date(Date.now() - 25 * 3600 * 1000).toISOString();
    await t.services.repositories.cohorts.update(alice.projectId, cohort.id, { count: 999, last_calculation: dayAndABitAgo });
    expect((await get(cohort.id)).count).toBe(999);
    for (let i = 0; i < 200 && (await get(cohort.id)).count !== 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const recounted = await get(cohort.id);
    expect(recounted.count).toBe(2);
    expect(Date.parse(recounted.last_calculation)).toBeGreaterThan(Date.parse(dayAndABitAgo));
  });

  it('evaluates behavioural conditions, negation, OR groups and cohorts naming cohorts', async () => {
    const buyers = await create({ name: 'Bought in 30 days', filters: all(didEvent('purchase', 30)) });
    expect(await personsOf(buyers.id)).toEqual(['ann']);
    const notBuyers = await create({ name: 'Pro, not bought', filters: all(person('plan', 'pro'), { type: 'cohort', key: 'id', value: buyers.id, negation: true }) });
    expect(await personsOf(notBuyers.id)).toEqual(['cat']);
    const either = await create({ name: 'Either', filters: { properties: { type: 'OR', values: [{ type: 'AND', values: [didEvent('purchase', 60)] }, { type: 'AND', values: [person('email', 'ben', 'icontains')] }] } } });
    expect(await personsOf(either.id)).toEqual(['ann', 'ben', 'cat']);
    expect((await calculated(either.id)).count).toBe(3);
  });

  it('refuses bad criteria with a 400 naming the field, creating nothing', async () => {
    const before = (await t.request(alice.key, { method: 'GET', url: `${base()}/` })).json().count;
    const cases: [unknown, string, string][] = [
      ['[Slkasd=lkxcn]', 'filters', "Must contain a 'properties' key with type and values"],
      [all({ type: 'person', key: 'plan' }), 'filters.properties.values[0].value', 'Missing required keys for person filter: value, operator'],
      [all({ type: 'behavioral', key: 'x', value: 'performed_event' }), 'filters.properties.values[0].event_type', 'Missing required keys for behavioral filter: event_type'],
      [all(didEvent('x', 7, { bogus: 1 })), 'filters.properties.values[0].bogus', 'Unknown key "bogus" in a behavioral filter.'],
      [all(didEvent('x', 7, { time_interval: 'fortnight' })), 'filters.properties.values[0].time_interval', '"fortnight" is not a valid choice.'],
      [all({ type: 'cohort', key: 'id', value: 999999 }), 'filters', 'Invalid Cohort ID in filter: cohort 999999 does not exist in this project or is deleted.'],
    ];
    for (const [filters, attr, detail] of cases) {
      const res = await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'bad', filters } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error', attr, detail });
    }
    expect((await t.request(alice.key, { method: 'GET', url: `${base()}/` })).json().count).toBe(before);
  });

  it("refuses another project's cohort, a deleted one and a loop", async () => {
    const bobs = await create({ name: 'Bob cohort', filters: all(person('plan', 'pro')) }, bob);
    const res = await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'x', filters: all({ type: 'cohort', key: 'id', value: bobs.id }) } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_cohort');
    expect((await t.request(alice.key, { method: 'GET', url: `${base()}/${bobs.id}/` })).statusCode).toBe(404);

    const a = await create({ name: 'A', filters: all(person('plan', 'pro')) });
    const b = await create({ name: 'B', filters: all({ type: 'cohort', key: 'id', value: a.id }) });
    const loop = await t.request(alice.key, { method: 'PATCH', url: `${base()}/${a.id}/`, payload: { filters: all({ type: 'cohort', key: 'id', value: b.id }) } });
    expect(loop.statusCode).toBe(400);
    expect(loop.json()).toMatchObject({ detail: 'Cohorts cannot reference other cohorts in a loop.', attr: 'filters' });
    const self = await t.request(alice.key, { method: 'PATCH', url: `${base()}/${a.id}/`, payload: { filters: all({ type: 'cohort', key: 'id', value: a.id }) } });
    expect(self.statusCode).toBe(400);

    const gone = await create({ name: 'Gone', filters: all(person('plan', 'free')) });
    expect((await t.request(alice.key, { method: 'PATCH', url: `${base()}/${gone.id}/`, payload: { deleted: true } })).json().deleted).toBe(true);
    const toDeleted = await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'y', filters: all({ type: 'cohort', key: 'id', value: gone.id }) } });
    expect(toDeleted.statusCode).toBe(400);
  });

  it('lists live cohorts newest first, with search and type filters; DELETE is 405', async () => {
    const s = await create({ name: 'Zebra static list', is_static: true });
    const listed = (await t.request(alice.key, { method: 'GET', url: `${base()}/?search=zebra` })).json();
    expect(listed.results.map((c: { id: number }) => c.id)).toEqual([s.id]);
    const statics = (await t.request(alice.key, { method: 'GET', url: `${base()}/?type=static` })).json();
    expect(statics.results.every((c: { is_static: boolean }) => c.is_static)).toBe(true);
    const everything = (await t.request(alice.key, { method: 'GET', url: `${base()}/` })).json();
    const created = everything.results.map((c: { created_at: string }) => c.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(everything.results.some((c: { deleted: boolean }) => c.deleted)).toBe(false);
    const del = await t.request(alice.key, { method: 'DELETE', url: `${base()}/${s.id}/` });
    expect(del.statusCode).toBe(405);
  });

  it('builds static cohorts from person ids, CSV uploads, additions, removals and a dynamic copy', async () => {
    const everyone = (await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/persons/` })).json().results as { id: string; distinct_ids: string[] }[];
    const idOf = (d: string) => everyone.find((p) => p.distinct_ids.includes(d))!.id;

    const byIds = await create({ name: 'Picked', is_static: true, _create_static_person_ids: [idOf('ann'), idOf('ben'), '00000000-0000-0000-0000-000000000000'] });
    expect(byIds).toMatchObject({ is_static: true, is_calculating: false, count: 2, filters: { properties: {} } });
    expect(await personsOf(byIds.id)).toEqual(['ann', 'ben']);

    const upload = multipart({ name: 'From CSV', is_static: 'true' }, { name: 'csv', content: 'ann\nnobody\ncat\n' });
    const csvRes = await t.request(alice.key, { method: 'POST', url: `${base()}/`, ...upload });
    expect(csvRes.statusCode, csvRes.body).toBe(201);
    expect(csvRes.json().count).toBe(2);
    expect(await personsOf(csvRes.json().id)).toEqual(['ann', 'cat']);

    const emails = multipart({ name: 'By email', is_static: 'true' }, { name: 'csv', content: 'email\nben@example.com\n' });
    const emailRes = await t.request(alice.key, { method: 'POST', url: `${base()}/`, ...emails });
    expect(await personsOf(emailRes.json().id)).toEqual(['ben']);

    const add = await t.request(alice.key, { method: 'PATCH', url: `${base()}/${byIds.id}/add_persons_to_static_cohort/`, payload: { person_ids: [idOf('cat')] } });
    expect(add.json()).toEqual({ success: true });
    const remove = await t.request(alice.key, { method: 'PATCH', url: `${base()}/${byIds.id}/remove_person_from_static_cohort/`, payload: { person_id: idOf('ann') } });
    expect(remove.json()).toEqual({ success: true });
    expect(await personsOf(byIds.id)).toEqual(['ben', 'cat']);
    expect((await get(byIds.id)).count).toBe(2);
    const again = await t.request(alice.key, { method: 'PATCH', url: `${base()}/${byIds.id}/remove_person_from_static_cohort/`, payload: { person_id: idOf('ann') } });
    expect(again.statusCode).toBe(404);

    const pro = await create({ name: 'Pro', filters: all(person('plan', 'pro')) });
    const copy = await t.request(alice.key, { method: 'GET', url: `${base()}/${pro.id}/duplicate_as_static_cohort/` });
    expect(copy.statusCode, copy.body).toBe(200);
    expect(copy.json()).toMatchObject({ name: 'Pro (static copy)', is_static: true, count: 2 });
    expect(await personsOf(copy.json().id)).toEqual(['ann', 'cat']);
  });

  it('refuses bad uploads with a 400 on csv and creates nothing', async () => {
    const before = (await t.request(alice.key, { method: 'GET', url: `${base()}/` })).json().count;
    const bad: [string, string][] = [
      ['', 'CSV file is empty. Please upload a CSV file with at least one row of data.'],
      ['name,age\nann,3\n', "Multi-column CSV must contain at least one column with a supported ID header: 'person_id', 'Person .id' (PostHog export format), 'distinct_id', 'distinct-id', or 'email'. Found columns: name, age"],
    ];
    for (const [content, detail] of bad) {
      const res = await t.request(alice.key, { method: 'POST', url: `${base()}/`, ...multipart({ name: 'bad csv', is_static: 'true' }, { name: 'csv', content }) });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ attr: 'csv', detail });
    }
    const huge = 'x'.repeat(21 * 1024 * 1024);
    const tooBig = await t.request(alice.key, { method: 'POST', url: `${base()}/`, ...multipart({ name: 'huge', is_static: 'true' }, { name: 'csv', content: huge }) });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().attr).toBe('csv');
    expect((await t.request(alice.key, { method: 'GET', url: `${base()}/` })).json().count).toBe(before);
  });

  it('logs creation, changes and deletion in the activity log', async () => {
    const cohort = await create({ name: 'Logged', filters: all(person('plan', 'pro')) });
    await t.request(alice.key, { method: 'PATCH', url: `${base()}/${cohort.id}/`, payload: { name: 'Logged again' } });
    await t.request(alice.key, { method: 'PATCH', url: `${base()}/${cohort.id}/`, payload: { deleted: true } });
    const log = (await t.request(alice.key, { method: 'GET', url: `${base()}/${cohort.id}/activity/` })).json();
    expect(log.results.map((e: { activity: string }) => e.activity)).toEqual(['deleted', 'updated', 'created']);
    expect(log.results[1].detail.changes).toEqual([{ type: 'Cohort', action: 'changed', field: 'name', before: 'Logged', after: 'Logged again' }]);
    expect((await get(cohort.id)).deleted).toBe(true);
  });

  it('needs cohort scopes', async () => {
    const reader = await t.key('alice@example.com', ['cohort:read']);
    expect((await t.request(reader, { method: 'GET', url: `${base()}/` })).statusCode).toBe(200);
    const write = await t.request(reader, { method: 'POST', url: `${base()}/`, payload: { name: 'no' } });
    expect(write.statusCode).toBe(403);
    const insightsOnly = await t.key('alice@example.com', ['insight:read']);
    expect((await t.request(insightsOnly, { method: 'GET', url: `${base()}/` })).statusCode).toBe(403);
  });
});
