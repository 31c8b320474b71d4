// PostHog's own person-deletion cases (posthog/api/test/test_person.py), as data: the same persons,
// events, requests and expected answers, each in a project of its own, captured through /batch/.
// Where PostHog queues the events' deletion (an AsyncDeletion row for a weekly job), Hoglet deletes
// them before answering, so "queued" is checked as "gone". The ledger is docs/persons-posthog-tests.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { postBatch, runQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

interface CaseWorld {
  who: Credentials;
  /** The person's uuid, by one of their distinct ids. */
  person(distinctId: string): Promise<string | undefined>;
  del(path: string): Promise<{ statusCode: number; body: string }>;
  post(path: string, payload: unknown): Promise<{ statusCode: number; body: string; json(): any }>;
  testEvents(): Promise<number>;
  tombstone(id: string): Promise<unknown[]>;
}

describe.each(META_STORES)("PostHog's person deletion cases on %s", (store) => {
  let t: TestApp;
  let cases = 0;

  /** A project holding PostHog's fixture: persons (all their ids merged into the first) and `test` events. */
  async function world(persons: { ids: string[]; properties?: Record<string, unknown> }[], eventsOf: string[]): Promise<CaseWorld> {
    const who = await t.bootstrap(`case-${++cases}@example.com`, { organization: `Case ${cases}` });
    const at = '2021-08-25T22:09:14.252Z';
    const batch = [
      ...persons.flatMap(({ ids: [main, ...others], properties }) => [
        { event: '$set', distinct_id: main, timestamp: at, properties: { $set: properties ?? {} } },
        ...others.map((other) => ({ event: '$create_alias', distinct_id: main, timestamp: at, properties: { alias: other } })),
      ]),
      ...eventsOf.map((distinctId) => ({ event: 'test', distinct_id: distinctId, timestamp: at, properties: {} })),
    ];
    if (batch.length > 0) {
      const res = await postBatch(t, { api_key: who.projectApiToken, batch });
      expect(res.statusCode, res.body).toBe(200);
    }
    const base = `/api/projects/${who.projectId}`;
    const db = t.services.events.layout.database;
    return {
      who,
      async person(distinctId) {
        const list = (await t.request(who.key, { method: 'GET', url: `${base}/persons/?limit=100` })).json().results as { id: string; distinct_ids: string[] }[];
        return list.find((p) => p.distinct_ids.includes(distinctId))?.id;
      },
      del: (path) => t.request(who.key, { method: 'DELETE', url: `${base}${path}` }),
      post: (path, payload) => t.request(who.key, { method: 'POST', url: `${base}${path}`, payload: payload as object }),
      testEvents: async () => (await runQuery(t, who, { kind: 'HogQLQuery', query: "select count() from events where event = 'test'" })).results[0][0],
      async tombstone(id) {
        const rows = await t.services.events.query<{ version: string; is_deleted: boolean | number; properties: string }>(
          `SELECT version, is_deleted, properties FROM ${db}.persons FINAL WHERE team_id = {team:UInt64} AND id = {id:UUID}`,
          { team: who.projectId, id },
        );
        return rows.map((r) => [Number(r.version), Number(r.is_deleted), r.properties]);
      },
    };
  }

  beforeAll(async () => {
    t = await createTestApp(store);
  });
  afterAll(() => t.close());

  const CHROME = [{ ids: ['person_1', 'anonymous_id'], properties: { $os: 'Chrome' } }];
  const THREE_EVENTS = ['person_1', 'anonymous_id', 'someone_else'];

  it('test_delete_person', async () => {
    const w = await world(CHROME, THREE_EVENTS);
    const id = (await w.person('person_1'))!;
    const res = await w.del(`/persons/${id}/`);
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('');
    expect(await w.person('person_1')).toBeUndefined();
    expect((await w.del(`/persons/${id}/`)).statusCode).toBe(404);
    const log = (await t.request(w.who.key, { method: 'GET', url: `/api/projects/${w.who.projectId}/persons/activity/` })).json().results;
    expect(log).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ email: w.who.email }),
        activity: 'deleted',
        scope: 'Person',
        item_id: id, // PostHog: the person's integer pk; Hoglet's persons have only the uuid
        detail: { changes: null, trigger: null, type: null, name: id, short_id: null },
      }),
    ]);
    expect(await w.tombstone(id)).toEqual([[100, 1, '{}']]);
    // No event deletion asked: all three stay.
    expect(await w.testEvents()).toBe(3);
  });

  it('test_delete_person_and_events', async () => {
    const w = await world(CHROME, THREE_EVENTS);
    const id = (await w.person('person_1'))!;
    const res = await w.del(`/persons/${id}/?delete_events=true`);
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('');
    expect(await w.person('person_1')).toBeUndefined();
    expect(await w.tombstone(id)).toEqual([[100, 1, '{}']]);
    // PostHog queues the deletion of the person's events; Hoglet has done it: someone_else's stays.
    expect(await w.testEvents()).toBe(1);
  });

  it('test_delete_person_and_recordings', async () => {
    const w = await world(CHROME, []);
    const id = (await w.person('person_1'))!;
    const res = await w.del(`/persons/${id}/?delete_recordings=true&delete_events=true`);
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('');
    expect(await w.person('person_1')).toBeUndefined();
  });

  it('test_delete_person_and_recordings_and_events', async () => {
    const w = await world(CHROME, THREE_EVENTS);
    const id = (await w.person('person_1'))!;
    const res = await w.del(`/persons/${id}/?delete_recordings=true&delete_events=true`);
    expect(res.statusCode).toBe(202);
    expect(await w.person('person_1')).toBeUndefined();
    expect(await w.tombstone(id)).toEqual([[100, 1, '{}']]);
    expect(await w.testEvents()).toBe(1);
  });

  it('test_bulk_delete_ids', async () => {
    const w = await world([...CHROME, { ids: ['person_2', 'anonymous_id_2'], properties: { $os: 'Chrome' } }], THREE_EVENTS);
    const [id, id2] = [(await w.person('person_1'))!, (await w.person('person_2'))!];
    const res = await w.post('/persons/bulk_delete/', { ids: [id, id2], delete_events: true });
    expect(res.statusCode, res.body).toBe(202);
    const data = res.json();
    expect(data.persons_found).toBe(2);
    expect(data.persons_deleted).toBe(2);
    expect(data.events_queued_for_deletion).toBe(true);
    expect(data.recordings_queued_for_deletion).toBe(false);
    expect(data.deletion_errors).toEqual([]);
    expect(await w.person('person_1')).toBeUndefined();
    expect(await w.person('person_2')).toBeUndefined();
    expect((await w.del(`/persons/${id}/`)).statusCode).toBe(404);
    expect(await w.tombstone(id)).toEqual([[100, 1, '{}']]);
    expect(await w.testEvents()).toBe(1);
  });

  it('test_bulk_delete_distinct_id', async () => {
    const w = await world([...CHROME, { ids: ['person_2', 'anonymous_id_2'], properties: { $os: 'Chrome' } }], THREE_EVENTS);
    const id = (await w.person('person_1'))!;
    const res = await w.post('/persons/bulk_delete/', { distinct_ids: ['anonymous_id', 'person_2'] });
    expect(res.statusCode, res.body).toBe(202);
    const data = res.json();
    expect(data.persons_found).toBe(2);
    expect(data.persons_deleted).toBe(2);
    expect(data.events_queued_for_deletion).toBe(false);
    expect(data.recordings_queued_for_deletion).toBe(false);
    expect(data.deletion_errors).toEqual([]);
    expect(await w.person('person_1')).toBeUndefined();
    expect(await w.person('person_2')).toBeUndefined();
    expect((await w.del(`/persons/${id}/`)).statusCode).toBe(404);
    expect(await w.tombstone(id)).toEqual([[100, 1, '{}']]);
    expect(await w.testEvents()).toBe(3);
  });

  it('test_bulk_delete_with_keep_person', async () => {
    const w = await world([{ ids: ['person_1'], properties: { $os: 'Chrome' } }], ['person_1']);
    const id = (await w.person('person_1'))!;
    const res = await w.post('/persons/bulk_delete/', { ids: [id], delete_events: true, keep_person: true });
    expect(res.statusCode).toBe(202);
    const data = res.json();
    expect(data.persons_found).toBe(1);
    expect(data.persons_deleted).toBe(0);
    expect(data.events_queued_for_deletion).toBe(true);
    expect(data.deletion_errors).toEqual([]);
    expect(await w.person('person_1')).toBe(id);
    expect(await w.testEvents()).toBe(0);
  });

  it('test_bulk_delete_validation_too_many_ids', async () => {
    const w = await world([], []);
    let res = await w.post('/persons/bulk_delete/', { ids: Array.from({ length: 1001 }, () => crypto.randomUUID()) });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('1000');
    res = await w.post('/persons/bulk_delete/', { distinct_ids: Array.from({ length: 1001 }, (_, i) => `id_${i}`) });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('1000');
  });

  it('test_bulk_delete_validation_missing_ids', async () => {
    const w = await world([], []);
    const res = await w.post('/persons/bulk_delete/', { delete_events: true });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('distinct_ids or ids');
  });

  it('test_bulk_delete_validation_rejects_both_ids_and_distinct_ids', async () => {
    const w = await world([], []);
    const res = await w.post('/persons/bulk_delete/', { ids: [crypto.randomUUID()], distinct_ids: ['did_1'] });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('not both');
  });

  it('test_bulk_delete_no_matching_persons', async () => {
    const w = await world([], []);
    const res = await w.post('/persons/bulk_delete/', { ids: [crypto.randomUUID(), crypto.randomUUID()], delete_events: true });
    expect(res.statusCode).toBe(202);
    const data = res.json();
    expect(data.persons_found).toBe(0);
    expect(data.persons_deleted).toBe(0);
    expect(data.events_queued_for_deletion).toBe(false);
    expect(data.deletion_errors).toEqual([]);
  });

  it('test_destroy_with_keep_person_param', async () => {
    const w = await world([{ ids: ['person_1'], properties: { $os: 'Chrome' } }], ['person_1']);
    const id = (await w.person('person_1'))!;
    const res = await w.del(`/persons/${id}/?keep_person=true&delete_events=true`);
    expect(res.statusCode).toBe(202);
    expect(await w.person('person_1')).toBe(id);
    expect(await w.testEvents()).toBe(0);
  });

  it('test_new_delete_person_properties', async () => {
    const w = await world([{ ids: ['some_distinct_id'], properties: { $browser: 'whatever', $os: 'Mac OS X' } }], []);
    const id = (await w.person('some_distinct_id'))!;
    const res = await w.post(`/persons/${id}/delete_property`, { $unset: 'foo' });
    expect(res.statusCode, res.body).toBe(201);
    // PostHog checks the event it hands to capture; here it is the event capture stored.
    const stored = await runQuery(t, w.who, { kind: 'HogQLQuery', query: "select event, distinct_id, properties.$unset from events where event = '$delete_person_property'" });
    expect(stored.results).toEqual([['$delete_person_property', 'some_distinct_id', '["foo"]']]);
  });
});
