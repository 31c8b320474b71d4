// Capture fills the /flags/ subject cache in its own process (issue 29): a person written through
// /batch/ is answered with no event-store statement, a merge moves the anonymous id to the
// survivor with the survivor's properties, and a deleted person is not served from the cache.
// Flag writes of this process reach /flags/ at once.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { PersonsRepository } from '../../../src/storage/events/persons-repository.js';
import { createFlag, flagsFor, personCondition, postJson, updateFlag } from './helpers.js';

describe('/flags/ subjects from capture, flag writes at once', () => {
  let t: TestApp;
  let owner: Credentials;
  let statements: string[] = [];

  const capture = async (events: { event: string; distinct_id: string; properties: Record<string, unknown> }[]) => {
    const batch = events.map((e) => ({ ...e, timestamp: new Date().toISOString() }));
    const res = await postJson(t, '/batch/', { api_key: owner.projectApiToken, batch });
    expect(res.statusCode, res.body).toBe(200);
    // Once stored (a /flags/ request waits for capture), nothing read so far counts.
    await flagsFor(t, owner, 'settle');
    statements = [];
  };
  /** The flags of a distinct id and the event-store statements answering them took. */
  const ask = async (distinctId: string) => {
    statements = [];
    const flags = await flagsFor(t, owner, distinctId);
    const answer = Object.fromEntries(Object.entries(flags).map(([key, entry]) => [key, entry.enabled as boolean]));
    return { answer, statements: statements.length };
  };

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    owner = await t.bootstrap('flag-fill@example.com');
    await createFlag(t, owner, { key: 'pro', filters: { groups: [personCondition('plan', 'pro')] } });
    await createFlag(t, owner, { key: 'from-ad', filters: { groups: [personCondition('source', 'ad')] } });
    await flagsFor(t, owner, 'settle');
    const query = t.services.events.query.bind(t.services.events);
    vi.spyOn(t.services.events, 'query').mockImplementation((sql, ...rest) => {
      statements.push(sql);
      return query(sql, ...rest);
    });
  });
  afterAll(() => t.close());

  it('answers a person captured through /batch/ with no event-store statement', async () => {
    await capture([
      { event: '$identify', distinct_id: 'new-pro', properties: { $set: { plan: 'pro' } } },
      { event: '$pageview', distinct_id: 'new-free', properties: { $set: { plan: 'free', source: 'ad' } } },
    ]);
    expect(await ask('new-pro')).toEqual({ answer: { pro: true, 'from-ad': false }, statements: 0 });
    expect(await ask('new-free')).toEqual({ answer: { pro: false, 'from-ad': true }, statements: 0 });
    // A later $set is taken as written too.
    await capture([{ event: '$set', distinct_id: 'new-pro', properties: { $set: { plan: 'free' } } }]);
    expect(await ask('new-pro')).toEqual({ answer: { pro: false, 'from-ad': false }, statements: 0 });
  });

  it("answers both ids of a merge with the survivor's properties, from the cache", async () => {
    await capture([
      { event: '$pageview', distinct_id: 'anon-1', properties: { $set: { plan: 'pro', source: 'ad' } } },
      { event: '$set', distinct_id: 'user-1', properties: { $set: { plan: 'free' } } },
    ]);
    expect((await ask('anon-1')).answer).toEqual({ pro: true, 'from-ad': true });
    expect((await ask('user-1')).answer).toEqual({ pro: false, 'from-ad': false });
    // user-1's person survives and wins the conflict (plan free); it takes the anonymous person's source.
    await capture([{ event: '$identify', distinct_id: 'user-1', properties: { $anon_distinct_id: 'anon-1' } }]);
    expect(await ask('anon-1')).toEqual({ answer: { pro: false, 'from-ad': true }, statements: 0 });
    expect(await ask('user-1')).toEqual({ answer: { pro: false, 'from-ad': true }, statements: 0 });
  });

  it('does not serve a deleted person from the cache', async () => {
    await capture([{ event: '$set', distinct_id: 'leaving', properties: { $set: { plan: 'pro' } } }]);
    expect(await ask('leaving')).toEqual({ answer: { pro: true, 'from-ad': false }, statements: 0 });
    // The person's row deleted as capture writes rows: stored, then told to the cache (onStored).
    const persons = new PersonsRepository(t.services.events);
    const [mapping] = await persons.distinctIds(owner.projectId, ['leaving']);
    const [row] = await persons.persons(owner.projectId, [mapping!.person_id]);
    const writes = { persons: [{ ...row!, version: row!.version + 1, is_deleted: true }], distinctIds: [], overrides: [], groups: [], groupTypes: [] };
    await persons.write(writes);
    t.services.flagSources.subjects.rememberWritten(writes);
    statements = [];
    expect(await ask('leaving')).toEqual({ answer: { pro: false, 'from-ad': false }, statements: 0 });
  });

  it('shows a flag created or switched off in this process on the very next request', async () => {
    expect((await ask('new-free')).answer).toEqual({ pro: false, 'from-ad': true });
    const flag = await createFlag(t, owner, { key: 'everyone', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
    expect((await ask('new-free')).answer).toEqual({ pro: false, 'from-ad': true, everyone: true });
    // An inactive flag is not in the answer at all.
    await updateFlag(t, owner, flag.id, { active: false });
    expect((await ask('new-free')).answer).toEqual({ pro: false, 'from-ad': true });
  });

  it("shows a cohort edited in this process on the very next request", async () => {
    const cohortOf = (value: string) => ({ properties: { type: 'OR', values: [{ type: 'AND', values: [{ key: 'plan', type: 'person', operator: 'exact', value }] }] } });
    const created = await t.request(owner.key, { method: 'POST', url: `/api/projects/${owner.projectId}/cohorts/`, payload: { name: 'Plan', filters: cohortOf('pro') } });
    expect(created.statusCode, created.body).toBe(201);
    const cohortId = created.json().id as number;
    const flag = await createFlag(t, owner, { key: 'in-cohort', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: cohortId }], rollout_percentage: 100 }] } });
    expect((await ask('new-free')).answer).toMatchObject({ 'in-cohort': false });
    const edited = await t.request(owner.key, { method: 'PATCH', url: `/api/projects/${owner.projectId}/cohorts/${cohortId}/`, payload: { filters: cohortOf('free') } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await ask('new-free')).answer).toMatchObject({ 'in-cohort': true });
    await updateFlag(t, owner, flag.id, { active: false });
  });
});
