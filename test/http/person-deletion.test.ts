// Deleting persons as PostHog's API does (issue 32): DELETE …/persons/:id/ (202; ?delete_events),
// POST …/persons/bulk_delete/ (ids or distinct_ids; 202 and PostHog's summary) and
// …/persons/:id/delete_property/ ({"$unset": key}; 201). Everything is captured through /batch/
// and read back through the real routes: once deleted, a person is in no trend, HogQL query,
// persons list, insight's actors, cohort or cached insight; with delete_events their events (and
// sessions) are gone too; a re-sent event makes a new person; the activity log says who did it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, postBatch, runQuery, trendsQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';
import { createFlag, flagsFor, personCondition } from '../flags/endpoints/helpers.js';
import { PersonDeletionsRepository } from '../../src/storage/events/person-deletions.js';
import { PersonsRepository } from '../../src/storage/events/persons-repository.js';

const FROM = '2024-03-01';
const TO = '2024-03-03';
const GONE_EVENT_UUID = '0190f5a0-0000-7000-8000-00000000a001';

describe.each(META_STORES)('deleting persons on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const url = (path: string, who: Credentials = alice) => `/api/projects/${who.projectId}${path}`;
  const get = (path: string, who: Credentials = alice) => t.request(who.key, { method: 'GET', url: url(path, who) });
  const post = (path: string, payload: unknown, who: Credentials = alice) => t.request(who.key, { method: 'POST', url: url(path, who), payload: payload as object });

  const personsList = async (): Promise<{ id: string; distinct_ids: string[]; properties: Record<string, unknown> }[]> => {
    const res = await get('/persons/?limit=100');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results;
  };
  const personOf = async (distinctId: string) => (await personsList()).find((p) => p.distinct_ids.includes(distinctId));
  const hogql = async (query: string) => (await runQuery(t, alice, { kind: 'HogQLQuery', query })).results as unknown[][];
  const pageviewTrend = async () => {
    const body = await runQuery(t, alice, trendsQuery([{ kind: 'EventsNode', event: '$pageview', math: 'total' }], FROM, TO));
    return body.results[0].count as number;
  };
  const trendActors = async () => {
    const source = trendsQuery([{ kind: 'EventsNode', event: '$pageview' }], FROM, TO, { interval: 'day' });
    const body = await runQuery(t, alice, { kind: 'ActorsQuery', select: ['person'], source: { kind: 'InsightActorsQuery', source, day: '2024-03-01', series: 0 } });
    return (body.results as [{ distinct_ids: string[] }][]).map(([person]) => person.distinct_ids.slice().sort().join('+')).sort();
  };
  const cohortPeople = async (id: number) => {
    for (let i = 0; i < 200; i++) {
      const cohort = (await get(`/cohorts/${id}/`)).json();
      if (!cohort.is_calculating) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const res = await get(`/cohorts/${id}/persons/`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().results as { distinct_ids: string[] }[]).map((p) => p.distinct_ids.slice().sort().join('+')).sort();
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    // gone browsed anonymously as anon-g, then identified: one person with two distinct ids.
    const res = await postBatch(t, {
      api_key: alice.projectApiToken,
      batch: [
        { event: '$pageview', distinct_id: 'anon-g', timestamp: '2024-03-01T09:00:00Z', uuid: GONE_EVENT_UUID, properties: { $session_id: 's-gone' } },
        { event: '$identify', distinct_id: 'gone', timestamp: '2024-03-01T10:00:00Z', properties: { $anon_distinct_id: 'anon-g', $set: { email: 'gone@example.com' }, $session_id: 's-gone' } },
        { event: '$pageview', distinct_id: 'gone', timestamp: '2024-03-02T10:00:00Z', properties: { $session_id: 's-gone' } },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    await journeys(t, alice, {
      stay: [ev('$pageview', '2024-03-01T11:00:00Z', { $set: { email: 'stay@example.com' }, $session_id: 's-stay' })],
      b1: [ev('$pageview', '2024-03-01T12:00:00Z', { $set: { email: 'b1@bulk.example' } })],
      b2: [ev('$pageview', '2024-03-01T12:00:00Z', { $set: { email: 'b2@bulk.example' } })],
      b3: [ev('$pageview', '2024-03-01T12:00:00Z', { $set: { email: 'b3@bulk.example' } })],
      keeps: [ev('$pageview', '2024-03-01T13:00:00Z', { $set: { email: 'keeps@example.com' } })],
      prop: [ev('$identify', '2024-03-01T14:00:00Z', { $set: { email: 'prop@example.com', plan: 'pro', team: 'red' } })],
    });
    await journeys(t, bob, { eve: [ev('$pageview', '2024-03-01T10:00:00Z', { $set: { email: 'eve@bob.example' } })] });
  });
  afterAll(() => t.close());

  it('DELETE ?delete_events=true: the person and their events leave every answer at once; the log names who', async () => {
    const gone = (await personOf('gone'))!;
    expect(gone.distinct_ids.sort()).toEqual(['anon-g', 'gone']);
    const dynamic = (await post('/cohorts/', { name: 'Example people', filters: { properties: { type: 'AND', values: [{ type: 'person', key: 'email', value: 'example.com', operator: 'icontains' }] } } })).json();
    const insight = await post('/insights/', { name: 'Pageviews', query: { kind: 'InsightVizNode', source: trendsQuery([{ kind: 'EventsNode', event: '$pageview', math: 'total' }], FROM, TO) } });
    expect(insight.statusCode, insight.body).toBe(201);
    const cachedTotal = async () => {
      const res = await get(`/insights/${insight.json().id}/`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };

    // Before: 3 of gone's events (2 pageviews), 7 pageviews in all; gone in every list.
    expect(await hogql(`select count() from events where person_id = '${gone.id}'`)).toEqual([[3]]);
    expect(await pageviewTrend()).toBe(7);
    expect(await trendActors()).toContain('anon-g+gone');
    expect(await cohortPeople(dynamic.id)).toContain('anon-g+gone');
    expect((await get(`/cohorts/${dynamic.id}/`)).json().count).toBe(4);
    const stay = (await personOf('stay'))!;
    const listed = (await post('/cohorts/', { name: 'Picked', is_static: true, _create_static_person_ids: [gone.id, stay.id] })).json();
    expect(listed.count).toBe(2);
    expect((await cachedTotal()).result[0].count).toBe(7);
    expect((await cachedTotal()).is_cached).toBe(true);
    expect(await hogql(`select session_id from sessions order by session_id`)).toEqual([['s-gone'], ['s-stay']]);

    const res = await t.request(alice.key, { method: 'DELETE', url: url(`/persons/${gone.id}/?delete_events=true`) });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.body).toBe('');

    expect(await personOf('gone')).toBeUndefined();
    expect((await get(`/persons/${gone.id}/`)).statusCode).toBe(404);
    expect(await hogql(`select count() from events where person_id = '${gone.id}'`)).toEqual([[0]]);
    expect(await hogql(`select count() from events where distinct_id in ('gone', 'anon-g')`)).toEqual([[0]]);
    expect(await hogql(`select count() from persons where id = '${gone.id}'`)).toEqual([[0]]);
    expect(await hogql(`select count() from person_distinct_ids where distinct_id in ('gone', 'anon-g')`)).toEqual([[0]]);
    expect(await hogql(`select session_id from sessions order by session_id`)).toEqual([['s-stay']]);
    expect(await pageviewTrend()).toBe(5);
    expect(await trendActors()).not.toContain('anon-g+gone');
    expect(await cohortPeople(dynamic.id)).not.toContain('anon-g+gone');
    expect((await get(`/cohorts/${dynamic.id}/`)).json().count).toBe(3);
    expect(await cohortPeople(listed.id)).toEqual(['stay']);
    expect((await get(`/cohorts/${listed.id}/`)).json().count).toBe(1);
    const membership = await t.services.events.query<{ n: string }>(
      `SELECT count() AS n FROM (SELECT person_id FROM ${t.services.events.layout.database}.static_cohort_people WHERE person_id = {id:UUID}
       GROUP BY cohort_id, person_id HAVING argMax(is_deleted, version) = false)`,
      { id: gone.id },
    );
    expect(Number(membership[0]!.n)).toBe(0);
    const after = await cachedTotal();
    expect(after.result[0].count).toBe(5);

    // Physically gone once ClickHouse has rewritten the masked parts (a background mutation).
    const inFiles = async () => {
      const db = t.services.events.layout.database;
      const rows = await t.services.events.query<{ n: string }>(
        `SELECT (SELECT count() FROM ${db}.events WHERE distinct_id IN ('gone', 'anon-g')) + (SELECT count() FROM ${db}.persons WHERE id = {id:UUID} AND NOT is_deleted) AS n`,
        { id: gone.id },
        { settings: { apply_deleted_mask: '0' } },
      );
      return Number(rows[0]!.n);
    };
    const deadline = Date.now() + 15_000;
    while ((await inFiles()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await inFiles()).toBe(0);

    // PostHog's activity: scope Person, 'deleted', by alice, named by the person's uuid.
    const log = await get(`/persons/${gone.id}/activity/`);
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().results).toEqual([
      expect.objectContaining({ activity: 'deleted', scope: 'Person', item_id: gone.id, user: expect.objectContaining({ email: 'alice@example.com' }), detail: expect.objectContaining({ name: gone.id }) }),
    ]);
    // A second delete of the same person: not found.
    expect((await t.request(alice.key, { method: 'DELETE', url: url(`/persons/${gone.id}/`) })).statusCode).toBe(404);
  });

  it('an event re-sent under a deleted distinct id makes a new person (and is stored again)', async () => {
    const res = await postBatch(t, {
      api_key: alice.projectApiToken,
      batch: [{ event: '$pageview', distinct_id: 'anon-g', timestamp: '2024-03-01T09:00:00Z', uuid: GONE_EVENT_UUID, properties: { $session_id: 's-gone' } }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const reborn = (await personOf('anon-g'))!;
    expect(reborn.distinct_ids).toEqual(['anon-g']);
    expect(reborn.properties.email).toBeUndefined();
    expect(await hogql(`select count() from events where person_id = '${reborn.id}'`)).toEqual([[1]]);
    expect(await hogql(`select distinct person.id from events where distinct_id = 'anon-g'`)).toEqual([[reborn.id]]);
    expect((await get(`/persons/${reborn.id}/activity/`)).json().results).toEqual([]);
    expect(await pageviewTrend()).toBe(6);
  });

  it('bulk_delete by distinct_ids and by ids answers PostHog’s summary; without delete_events the events stay', async () => {
    const [b1, b2, b3] = [(await personOf('b1'))!, (await personOf('b2'))!, (await personOf('b3'))!];
    const byDistinct = await post('/persons/bulk_delete/', { distinct_ids: ['b1', 'nobody'] });
    expect(byDistinct.statusCode, byDistinct.body).toBe(202);
    expect(byDistinct.json()).toEqual({ persons_found: 1, persons_deleted: 1, events_queued_for_deletion: false, recordings_queued_for_deletion: false, deletion_errors: [] });

    const envPath = `/api/environments/${alice.projectId}/persons/bulk_delete/`;
    const byIds = await t.request(alice.key, { method: 'POST', url: envPath, payload: { ids: [b2.id, b3.id], delete_events: true } });
    expect(byIds.statusCode, byIds.body).toBe(202);
    expect(byIds.json()).toMatchObject({ persons_found: 2, persons_deleted: 2, events_queued_for_deletion: true });

    const left = (await personsList()).map((p) => p.distinct_ids[0]);
    for (const id of ['b1', 'b2', 'b3']) expect(left).not.toContain(id);
    // b1's event stays (as in PostHog, only delete_events removes events); b2's and b3's are gone.
    expect(await hogql(`select distinct_id, count() from events where distinct_id in ('b1', 'b2', 'b3') group by distinct_id`)).toEqual([['b1', 1]]);
    expect(await hogql(`select count() from persons where id in ('${b1.id}', '${b2.id}', '${b3.id}')`)).toEqual([[0]]);
    const log = (await get('/persons/activity/')).json().results as { activity: string; item_id: string }[];
    expect(log.filter((e) => e.activity === 'deleted').map((e) => e.item_id)).toEqual(expect.arrayContaining([b1.id, b2.id, b3.id]));

    // keep_person with delete_events: the events go, the profile stays.
    const keeps = (await personOf('keeps'))!;
    const kept = await post('/persons/bulk_delete/', { ids: [keeps.id], delete_events: true, keep_person: true });
    expect(kept.json()).toMatchObject({ persons_found: 1, persons_deleted: 0, events_queued_for_deletion: true });
    expect(await personOf('keeps')).toBeDefined();
    expect(await hogql(`select count() from events where distinct_id = 'keeps'`)).toEqual([[0]]);
  });

  it('/flags/ stops matching a deleted person at once (its cached copy is told)', async () => {
    await journeys(t, alice, { flagged: [ev('$identify', '2024-03-01T15:00:00Z', { $set: { plan: 'vip' } })] });
    await createFlag(t, alice, { key: 'vip-only', filters: { groups: [personCondition('plan', 'vip')] } });
    expect((await flagsFor(t, alice, 'flagged'))['vip-only']?.enabled).toBe(true);
    const flagged = (await personOf('flagged'))!;
    expect((await t.request(alice.key, { method: 'DELETE', url: url(`/persons/${flagged.id}/`) })).statusCode).toBe(202);
    expect((await flagsFor(t, alice, 'flagged'))['vip-only']?.enabled).toBe(false);
  });

  it("a deletion made by another process reaches this process's capture within a second (the shared epoch)", async () => {
    await journeys(t, alice, { elsewhere: [ev('$identify', '2024-03-01T16:00:00Z', { $set: { plan: 'x' } })] });
    const before = (await personOf('elsewhere'))!;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // What another process's deletion leaves in the shared stores; this process's caches are not told.
    const persons = new PersonsRepository(t.services.events);
    const deletions = new PersonDeletionsRepository(t.services.events);
    const rows = await persons.persons(alice.projectId, [before.id]);
    await deletions.write(alice.projectId, deletions.tombstones(rows, await persons.distinctIdsOfPersons(alice.projectId, [before.id])));
    await t.services.repositories.counters.advance('persons_deleted_epoch');
    await new Promise((resolve) => setTimeout(resolve, 1100));

    await journeys(t, alice, { elsewhere: [ev('$pageview', '2024-03-01T17:00:00Z')] });
    const after = (await personOf('elsewhere'))!;
    expect(after.id).not.toBe(before.id);
    expect(await hogql(`select distinct person_id from events where distinct_id = 'elsewhere' and event = '$pageview'`)).toEqual([[after.id]]);
  });

  it('bulk_delete refuses what PostHog refuses', async () => {
    const refused = async (payload: unknown, detail: string) => {
      const res = await post('/persons/bulk_delete/', payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error', detail });
    };
    await refused({}, 'You need to specify either distinct_ids or ids');
    await refused({ ids: ['a'], distinct_ids: ['b'] }, 'You must provide either distinct_ids or ids, not both');
    await refused({ ids: Array.from({ length: 1001 }, (_, i) => `id-${i}`) }, 'You can only pass 1000 ids in one call');
    await refused({ distinct_ids: Array.from({ length: 1001 }, (_, i) => `d-${i}`) }, 'You can only pass 1000 distinct_ids in one call');
  });

  it('delete_property removes one property through a $delete_person_property event', async () => {
    const person = (await personOf('prop'))!;
    expect(person.properties).toMatchObject({ plan: 'pro', team: 'red' });
    const res = await post(`/persons/${person.id}/delete_property/`, { $unset: 'plan' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ success: true });
    const after = (await get(`/persons/${person.id}/`)).json();
    expect(after.properties.plan).toBeUndefined();
    expect(after.properties).toMatchObject({ email: 'prop@example.com', team: 'red' });
    expect(await hogql(`select event, distinct_id from events where event = '$delete_person_property'`)).toEqual([['$delete_person_property', 'prop']]);
    const log = (await get(`/persons/${person.id}/activity/`)).json().results;
    expect(log[0]).toMatchObject({ activity: 'delete_property', scope: 'Person', item_id: person.id });
    expect((await post(`/persons/${person.id}/delete_property/`, {})).statusCode).toBe(400);
  });

  it('another organization cannot delete, and a key without person:write cannot either', async () => {
    const stay = (await personOf('stay'))!;
    const paths = [
      { method: 'DELETE' as const, url: url(`/persons/${stay.id}/?delete_events=true`) },
      { method: 'POST' as const, url: url('/persons/bulk_delete/'), payload: { ids: [stay.id], delete_events: true } },
      { method: 'POST' as const, url: url(`/persons/${stay.id}/delete_property/`), payload: { $unset: 'email' } },
    ];
    for (const request of paths) {
      const res = await t.request(bob.key, request);
      expect([403, 404], res.body).toContain(res.statusCode);
    }
    // Bob's own project does not hold alice's person either.
    expect((await t.request(bob.key, { method: 'DELETE', url: url(`/persons/${stay.id}/`, bob) })).statusCode).toBe(404);
    const bobBulk = await post('/persons/bulk_delete/', { ids: [stay.id], delete_events: true }, bob);
    expect(bobBulk.json()).toMatchObject({ persons_found: 0, persons_deleted: 0 });

    const readOnly = await t.key('alice@example.com', ['person:read']);
    for (const request of paths) expect((await t.request(readOnly, request)).statusCode).toBe(403);

    expect((await personOf('stay'))!.properties.email).toBe('stay@example.com');
    expect(await hogql(`select count() from events where distinct_id = 'stay'`)).toEqual([[1]]);
    expect((await runQuery(t, bob, { kind: 'HogQLQuery', query: `select count() from events` })).results).toEqual([[1]]);
  });
});
