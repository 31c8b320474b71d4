// Who /flags/ evaluates (reference feature-flags.md 2.5, 2.7, 2.8, 2.10), with persons, groups and
// cohorts made the way users make them: events captured through /batch/ ($identify with $set,
// $groupidentify), cohorts through the cohorts API, flags through the flags API.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { runQuery } from '../../helpers/journeys.js';
import { createFlag, flagsFor, personCondition, postJson, valueOf } from './helpers.js';

/** PostHog's rollout hash, computed here independently of the evaluator. */
const rolloutHash = (flagKey: string, id: string) => parseInt(createHash('sha1').update(`${flagKey}.${id}`).digest('hex').slice(0, 15), 16) / 0xfffffffffffffff;

/** The first `prefix<n>` whose hash puts it inside (or outside) a 50% rollout of the flag. */
const idWithin = (flagKey: string, prefix: string, inside: boolean) => {
  for (let n = 0; ; n++) if ((rolloutHash(flagKey, `${prefix}${n}`) <= 0.5) === inside) return `${prefix}${n}`;
};

describe('/flags/ subjects: stored persons, request properties, cohorts, groups, experience continuity', () => {
  let t: TestApp;
  let owner: Credentials;

  const capture = async (events: { event: string; distinct_id: string; properties: Record<string, unknown> }[]) => {
    const batch = events.map((e) => ({ ...e, timestamp: new Date().toISOString() }));
    const res = await postJson(t, '/batch/', { api_key: owner.projectApiToken, batch });
    expect(res.statusCode, res.body).toBe(200);
  };
  const personIdOf = async (distinctId: string): Promise<string> => {
    const body = await runQuery(t, owner, { kind: 'HogQLQuery', query: `select person_id from person_distinct_ids where distinct_id = '${distinctId}'` });
    return body.results[0][0];
  };
  const cohort = async (payload: Record<string, unknown>): Promise<number> => {
    const res = await t.request(owner.key, { method: 'POST', url: `/api/projects/${owner.projectId}/cohorts/`, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  };

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    owner = await t.bootstrap('flag-subjects@example.com');
    await capture([
      { event: '$identify', distinct_id: 'alice', properties: { $set: { plan: 'pro', email: 'alice@corp.example' } } },
      { event: '$pageview', distinct_id: 'bob', properties: { $set: { plan: 'free', email: 'bob@home.example' } } },
      { event: '$groupidentify', distinct_id: 'alice', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { industry: 'tech' } } },
      { event: '$groupidentify', distinct_id: 'alice', properties: { $group_type: 'company', $group_key: 'shoes-inc', $group_set: { industry: 'retail' } } },
    ]);
    const staticCohort = await cohort({ name: 'Picked', is_static: true, _create_static_person_ids: [await personIdOf('alice')] });
    const dynamicCohort = await cohort({
      name: 'Corporate',
      filters: { properties: { type: 'OR', values: [{ type: 'AND', values: [{ key: 'email', type: 'person', operator: 'icontains', value: '@corp.example' }] }] } },
    });
    await createFlag(t, owner, { key: 'pro-plan', filters: { groups: [personCondition('plan', 'pro')] } });
    await createFlag(t, owner, { key: 'in-static', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: staticCohort }], rollout_percentage: 100 }] } });
    await createFlag(t, owner, { key: 'in-dynamic', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: dynamicCohort }], rollout_percentage: 100 }] } });
    await createFlag(t, owner, { key: 'not-in-dynamic', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', operator: 'not_in', value: dynamicCohort }], rollout_percentage: 100 }] } });
    await createFlag(t, owner, {
      key: 'tech-companies',
      filters: { aggregation_group_type_index: 0, groups: [{ properties: [{ key: 'industry', type: 'group', group_type_index: 0, operator: 'exact', value: 'tech' }], rollout_percentage: 100 }] },
    });
    await createFlag(t, owner, { key: 'sticky', ensure_experience_continuity: true, filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
    await createFlag(t, owner, { key: 'not-sticky', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
    await createFlag(t, owner, { key: 'by-device', bucketing_identifier: 'device_id', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
  });
  afterAll(() => t.close());

  it("decides person-property flags from the person's captured $set properties", async () => {
    expect((await flagsFor(t, owner, 'alice'))['pro-plan'].enabled).toBe(true);
    expect((await flagsFor(t, owner, 'bob'))['pro-plan']).toMatchObject({ enabled: false, reason: { code: 'no_condition_match' } });
    expect((await flagsFor(t, owner, 'never-seen'))['pro-plan'].enabled).toBe(false);
  });

  it("lays the request's person_properties (alias $properties) over the stored ones", async () => {
    expect((await flagsFor(t, owner, 'bob', { person_properties: { plan: 'pro' } }))['pro-plan'].enabled).toBe(true);
    expect((await flagsFor(t, owner, 'alice', { $properties: { plan: 'free' } }))['pro-plan'].enabled).toBe(false);
    expect((await flagsFor(t, owner, 'never-seen', { person_properties: { plan: 'PRO' } }))['pro-plan'].enabled).toBe(true);
  });

  it('sees a person identified a moment ago, and their later $set, in the next answer', async () => {
    await capture([{ event: '$identify', distinct_id: 'carol', properties: { $set: { plan: 'pro' } } }]);
    expect((await flagsFor(t, owner, 'carol'))['pro-plan'].enabled).toBe(true);
    await capture([{ event: '$set', distinct_id: 'carol', properties: { $set: { plan: 'free' } } }]);
    expect((await flagsFor(t, owner, 'carol'))['pro-plan'].enabled).toBe(false);
  });

  it('targets static cohorts by stored membership and dynamic cohorts by their person-property tree', async () => {
    const alice = await flagsFor(t, owner, 'alice');
    const bob = await flagsFor(t, owner, 'bob');
    expect([alice['in-static'].enabled, alice['in-dynamic'].enabled, alice['not-in-dynamic'].enabled]).toEqual([true, true, false]);
    expect([bob['in-static'].enabled, bob['in-dynamic'].enabled, bob['not-in-dynamic'].enabled]).toEqual([false, false, true]);
    // A dynamic cohort reads the merged properties: the request can put bob in.
    expect((await flagsFor(t, owner, 'bob', { person_properties: { email: 'bob@CORP.example' } }))['in-dynamic'].enabled).toBe(true);
  });

  it("evaluates a group flag on the named group's stored properties, and is off without the group", async () => {
    expect((await flagsFor(t, owner, 'bob', { groups: { company: 'acme' } }))['tech-companies']).toMatchObject({ enabled: true, reason: { code: 'condition_match' } });
    expect((await flagsFor(t, owner, 'bob', { $groups: { company: 'shoes-inc' } }))['tech-companies'].enabled).toBe(false);
    expect((await flagsFor(t, owner, 'bob'))['tech-companies']).toMatchObject({ enabled: false, reason: { code: 'no_group_type' } });
    // group_properties lay over the stored ones, for a group capture never saw too.
    const overridden = await flagsFor(t, owner, 'bob', { groups: { company: 'new-co' }, group_properties: { company: { industry: 'tech' } } });
    expect(overridden['tech-companies'].enabled).toBe(true);
  });

  it('experience continuity: the anonymous bucket follows the person through identify', async () => {
    const anon = idWithin('sticky', 'anon-', true);
    const user = idWithin('sticky', 'user-', false);
    await capture([{ event: '$pageview', distinct_id: anon, properties: {} }]);
    expect((await flagsFor(t, owner, anon)).sticky.enabled).toBe(true);
    expect((await flagsFor(t, owner, user)).sticky.enabled).toBe(false);

    await capture([{ event: '$identify', distinct_id: user, properties: { $anon_distinct_id: anon, $set: { email: 'u@example.com' } } }]);
    // posthog-js's first /flags/ after identify carries $anon_distinct_id: the override is written.
    expect((await flagsFor(t, owner, user, { $anon_distinct_id: anon })).sticky.enabled).toBe(true);
    // Every later answer for the identified id keeps the anonymous bucket; other flags do not.
    const later = await flagsFor(t, owner, user);
    expect(later.sticky.enabled).toBe(true);
    expect(later['not-sticky'].enabled).toBe(rolloutHash('not-sticky', user) <= 0.5);
    const overrides = await t.services.repositories.featureFlags.hashKeyOverridesOf(owner.projectId, [await personIdOf(user)]);
    expect(overrides).toEqual([expect.objectContaining({ feature_flag_key: 'sticky', hash_key: anon })]);
  });

  it('a later anonymous id does not replace the stored override', async () => {
    const user = idWithin('sticky', 'user-', false);
    const otherAnon = idWithin('sticky', 'other-anon-', false);
    expect(valueOf((await flagsFor(t, owner, user, { $anon_distinct_id: otherAnon })).sticky)).toBe(true);
  });
  it("device bucketing hashes the request's $device_id (alias device_id, or person_properties.$device_id) whatever the distinct id", async () => {
    const inside = idWithin('by-device', 'device-', true);
    const outside = idWithin('by-device', 'device-', false);
    for (const [device, expected] of [[inside, true], [outside, false]] as const) {
      expect((await flagsFor(t, owner, 'someone', { $device_id: device }))['by-device'].enabled).toBe(expected);
      expect((await flagsFor(t, owner, 'someone-else', { device_id: device }))['by-device'].enabled).toBe(expected);
      expect((await flagsFor(t, owner, 'a-third', { person_properties: { $device_id: device } }))['by-device'].enabled).toBe(expected);
    }
  });
});
