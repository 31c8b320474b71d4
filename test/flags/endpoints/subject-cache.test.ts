// What /flags/ reads of the event store, counted on the real app (persons made by capture through
// /batch/): concurrent cold requests share one person read, a capture write fills in the persons
// it wrote and forgets only the groups it wrote, and another project's person never answers.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { TABLES } from '../../../src/storage/events/tables.js';
import { createFlag, eventually, flagsFor, personCondition, postJson } from './helpers.js';

describe('/flags/ subject cache: coalesced cold reads, precise invalidation', () => {
  let t: TestApp;
  let owner: Credentials;
  let other: Credentials;
  let statements: string[] = [];

  const capture = async (who: Credentials, events: { event: string; distinct_id: string; properties: Record<string, unknown> }[]) => {
    const batch = events.map((e) => ({ ...e, timestamp: new Date().toISOString() }));
    const res = await postJson(t, '/batch/', { api_key: who.projectApiToken, batch });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** Event-store statements that read persons or groups, since the last call. */
  const subjectReads = () => {
    const reads = statements.filter((sql) => sql.includes(TABLES.personDistinctIds) || sql.includes(`.${TABLES.groups}`));
    statements = [];
    return reads.length;
  };
  /** Waits until capture stored what it acknowledged (a /flags/ request does), reading nothing: `settle` is cached. */
  const settle = async () => {
    await flagsFor(t, owner, 'settle');
    subjectReads();
  };
  const plan = async (who: Credentials, distinctId: string, groups?: Record<string, string>) => {
    const flags = await flagsFor(t, who, distinctId, groups ? { groups } : {});
    return { pro: flags['pro-plan'].enabled as boolean, tech: flags['tech-companies']?.enabled as boolean | undefined };
  };

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    owner = await t.bootstrap('flag-cache@example.com');
    other = await t.bootstrap('flag-cache-other@example.com');
    // Cold reads are what this file counts: no background warm-up (warm-subjects.test.ts tests that).
    vi.spyOn(t.services.flagSources.subjects.warmUp, 'consider').mockImplementation(() => {});
    // Written as by another process (or before a restart): this process's cache is not told.
    const untold = vi.spyOn(t.services.flagSources.subjects, 'rememberWritten').mockImplementation(() => {});
    const people = Array.from({ length: 20 }, (_, n) => ({ event: '$identify', distinct_id: `user-${n}`, properties: { $set: { plan: n % 2 === 0 ? 'pro' : 'free' } } }));
    await capture(owner, [
      ...people,
      { event: '$groupidentify', distinct_id: 'user-0', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { industry: 'tech' } } },
      ...['shoes', 'bikes', 'cars', 'boats', 'maps'].map((key) => ({ event: '$groupidentify', distinct_id: 'user-0', properties: { $group_type: 'company', $group_key: key, $group_set: { industry: 'retail' } } })),
    ]);
    // The same distinct id in another project, with the opposite plan.
    await capture(other, [{ event: '$identify', distinct_id: 'user-0', properties: { $set: { plan: 'free' } } }]);
    for (const who of [owner, other]) await createFlag(t, who, { key: 'pro-plan', filters: { groups: [personCondition('plan', 'pro')] } });
    await createFlag(t, owner, {
      key: 'tech-companies',
      filters: { aggregation_group_type_index: 0, groups: [{ properties: [{ key: 'industry', type: 'group', group_type_index: 0, operator: 'exact', value: 'tech' }], rollout_percentage: 100 }] },
    });
    await flagsFor(t, owner, 'settle');
    untold.mockRestore();
    const query = t.services.events.query.bind(t.services.events);
    vi.spyOn(t.services.events, 'query').mockImplementation((sql, ...rest) => {
      statements.push(sql);
      return query(sql, ...rest);
    });
  });
  afterAll(() => t.close());

  it('reads the persons of 20 concurrent cold requests with one statement, each answer its own', async () => {
    await settle();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => plan(owner, `user-${n}`)));
    expect(answers.map((a) => a.pro)).toEqual(Array.from({ length: 20 }, (_, n) => n % 2 === 0));
    expect(subjectReads()).toBe(1);
    // Cached now: no read at all.
    await Promise.all(Array.from({ length: 20 }, (_, n) => plan(owner, `user-${n}`)));
    expect(subjectReads()).toBe(0);
  });

  it('reads concurrent cold groups of one type together', async () => {
    await settle();
    const companies = ['acme', 'shoes', 'bikes', 'cars', 'boats', 'maps'];
    const answers = await Promise.all(companies.map((company, n) => plan(owner, `user-${n}`, { company })));
    expect(answers.map((a) => a.tech)).toEqual([true, false, false, false, false, false]);
    // The persons are cached already; the first group's tick, then the others together.
    expect(subjectReads()).toBeLessThanOrEqual(2);
    await Promise.all([plan(owner, 'user-2', { company: 'acme' }), plan(owner, 'user-3', { company: 'shoes' })]);
    expect(subjectReads()).toBe(0);
  });

  it("takes a capture write's person as written: the next answer has their $set with no read, others stay cached", async () => {
    await Promise.all([plan(owner, 'user-4'), plan(owner, 'user-5')]);
    await capture(owner, [{ event: '$set', distinct_id: 'user-4', properties: { $set: { plan: 'free' } } }]);
    await settle();
    expect((await plan(owner, 'user-4')).pro).toBe(false);
    expect(subjectReads()).toBe(0);
    expect((await plan(owner, 'user-5')).pro).toBe(false);
    expect((await plan(owner, 'user-6')).pro).toBe(true);
    expect(subjectReads()).toBe(0);
  });

  it("forgets a merged person's distinct ids, and only a written group", async () => {
    await capture(owner, [{ event: '$pageview', distinct_id: 'anon-7', properties: { $set: { plan: 'pro' } } }]);
    expect((await plan(owner, 'anon-7')).pro).toBe(true);
    await Promise.all([plan(owner, 'user-7'), plan(owner, 'user-9', { company: 'acme' })]);
    // The anonymous person (plan pro) merges into user-7's (plan free): anon-7 now answers as user-7.
    await capture(owner, [{ event: '$identify', distinct_id: 'user-7', properties: { $anon_distinct_id: 'anon-7' } }]);
    expect((await plan(owner, 'anon-7')).pro).toBe(false);
    await capture(owner, [{ event: '$groupidentify', distinct_id: 'user-0', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { industry: 'retail' } } }]);
    await settle();
    expect((await plan(owner, 'user-9', { company: 'acme' })).tech).toBe(false);
    expect(subjectReads()).toBe(1); // the group; user-9 is still cached
    expect((await plan(owner, 'user-9', { company: 'shoes' })).tech).toBe(false);
    expect(subjectReads()).toBe(0);
  });

  it('answers the local-evaluation poll from memory (no event-store statement, the same ETag) until a flag or group type changes', async () => {
    const poll = () => t.request(owner.key, { method: 'GET', url: `/api/projects/${owner.projectId}/feature_flags/local_evaluation/?send_cohorts` });
    const first = await poll();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().group_type_mapping).toEqual({ '0': 'company' });
    await settle();
    const again = await poll();
    expect([again.statusCode, again.headers.etag, again.body]).toEqual([200, first.headers.etag, first.body]);
    expect(statements).toEqual([]);
    await capture(owner, [{ event: '$groupidentify', distinct_id: 'user-0', properties: { $group_type: 'team', $group_key: 'core', $group_set: {} } }]);
    const withTeam = await poll();
    expect(withTeam.json().group_type_mapping).toEqual({ '0': 'company', '1': 'team' });
    expect(withTeam.headers.etag).not.toBe(first.headers.etag);
    await createFlag(t, owner, { key: 'later', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
    // Flag writes are seen within a second (the definitions epoch).
    await eventually(async () => expect((await poll()).json().flags.map((f: { key: string }) => f.key)).toContain('later'));
  });

  it("keeps the project's row: a Projects API change shows in the next answer, another process's within a second", async () => {
    const networkTiming = async () => {
      const res = await postJson(t, '/flags/?v=2&config=true', { token: owner.projectApiToken, distinct_id: 'user-1' });
      return res.json().capturePerformance?.network_timing ?? false;
    };
    const patch = (value: boolean) => t.request(owner.key, { method: 'PATCH', url: `/api/projects/${owner.projectId}/`, payload: { capture_performance_opt_in: value } });
    expect((await patch(true)).statusCode).toBe(200);
    expect(await networkTiming()).toBe(true);
    expect((await patch(false)).statusCode).toBe(200);
    expect(await networkTiming()).toBe(false);
    // Another process: the row written straight to the metadata store, as its ProjectsService would.
    const row = (await t.services.repositories.projects.findById(owner.projectId))!;
    const settings = { ...JSON.parse(row.settings), capture_performance_opt_in: true };
    await t.services.repositories.projects.update(row.id, row.organization_id, { settings: JSON.stringify(settings), updated_at: new Date().toISOString() });
    await eventually(async () => expect(await networkTiming()).toBe(true));
  });

  it("never answers with another project's person of the same distinct id", async () => {
    expect((await plan(owner, 'user-0')).pro).toBe(true);
    expect((await plan(other, 'user-0')).pro).toBe(false);
    const both = await Promise.all([plan(owner, 'user-10'), plan(other, 'user-10'), plan(owner, 'user-12'), plan(other, 'user-0')]);
    expect(both.map((a) => a.pro)).toEqual([true, false, true, false]);
  });
});
