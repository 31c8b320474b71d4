// Experience continuity across a person merge (reference feature-flags.md 2.10): the anonymous
// person's hash key overrides move to the person it is merged into, whose own win on conflict, so
// the identified id keeps the anonymous bucket without sending $anon_distinct_id again. Persons are
// made and merged by events captured through /batch/, flags through the flags API.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { runQuery } from '../../helpers/journeys.js';
import { META_STORES } from '../../helpers/stores.js';
import { createFlag, flagsFor, postJson } from './helpers.js';

/** PostHog's rollout hash, computed here independently of the evaluator. */
const rolloutHash = (flagKey: string, id: string) => parseInt(createHash('sha1').update(`${flagKey}.${id}`).digest('hex').slice(0, 15), 16) / 0xfffffffffffffff;

/** The first `prefix<n>` whose hash puts it inside (or outside) a 50% rollout of the flag. */
const idWithin = (flagKey: string, prefix: string, inside: boolean) => {
  for (let n = 0; ; n++) if ((rolloutHash(flagKey, `${prefix}${n}`) <= 0.5) === inside) return `${prefix}${n}`;
};

type Captured = { event: string; distinct_id: string; properties: Record<string, unknown> };

async function capture(t: TestApp, owner: Credentials, events: Captured[]): Promise<void> {
  const batch = events.map((e) => ({ ...e, timestamp: new Date().toISOString() }));
  const res = await postJson(t, '/batch/', { api_key: owner.projectApiToken, batch });
  expect(res.statusCode, res.body).toBe(200);
}

async function personIdOf(t: TestApp, owner: Credentials, distinctId: string): Promise<string> {
  const body = await runQuery(t, owner, { kind: 'HogQLQuery', query: `select person_id from person_distinct_ids where distinct_id = '${distinctId}'` });
  return body.results[0][0];
}

/** The event that folds the anonymous id's person into the user's, as each SDK call sends it. */
const MERGES: Record<string, (user: string, anon: string) => Captured> = {
  $identify: (user, anon) => ({ event: '$identify', distinct_id: user, properties: { $anon_distinct_id: anon } }),
  $merge_dangerously: (user, anon) => ({ event: '$merge_dangerously', distinct_id: user, properties: { alias: anon } }),
  $create_alias: (user, anon) => ({ event: '$create_alias', distinct_id: user, properties: { alias: anon } }),
};

describe.each(META_STORES)('experience continuity across a person merge (%s)', (store) => {
  let t: TestApp;
  let owner: Credentials;

  beforeAll(async () => {
    t = await createTestApp(store);
    owner = await t.bootstrap('continuity-merge@example.com');
    await createFlag(t, owner, { key: 'sticky', ensure_experience_continuity: true, filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
    await createFlag(t, owner, { key: 'not-sticky', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
  });
  afterAll(async () => t?.close());

  for (const kind of Object.keys(MERGES)) {
    it(`${kind}: the anonymous person's bucket moves to the person it is merged into`, async () => {
      const anon = idWithin('sticky', `anon${kind}-`, true);
      const user = idWithin('sticky', `user${kind}-`, false);
      // Both ids have a person before the merge (an anonymous visit, a user seen elsewhere).
      await capture(t, owner, [
        { event: '$pageview', distinct_id: anon, properties: {} },
        { event: '$pageview', distinct_id: user, properties: {} },
      ]);
      // The anonymous visitor's bucket is pinned by an override on its own person.
      expect((await flagsFor(t, owner, anon, { $anon_distinct_id: anon })).sticky.enabled).toBe(true);
      expect((await flagsFor(t, owner, user)).sticky.enabled).toBe(false);
      const anonPerson = await personIdOf(t, owner, anon);
      const userPerson = await personIdOf(t, owner, user);
      expect(anonPerson).not.toBe(userPerson);

      await capture(t, owner, [MERGES[kind]!(user, anon)]);

      // No $anon_distinct_id in the request: only the moved override can give the user A's bucket.
      const after = await flagsFor(t, owner, user);
      expect(after.sticky.enabled).toBe(true);
      expect(after['not-sticky'].enabled).toBe(rolloutHash('not-sticky', user) <= 0.5);
      expect(await personIdOf(t, owner, anon)).toBe(userPerson);
      const repo = t.services.repositories.featureFlags;
      expect(await repo.hashKeyOverridesOf(owner.projectId, [userPerson])).toEqual([expect.objectContaining({ feature_flag_key: 'sticky', hash_key: anon })]);
      expect(await repo.hashKeyOverridesOf(owner.projectId, [anonPerson])).toEqual([]);
    });
  }

  it("the surviving person's own override wins over the merged person's", async () => {
    const anon = idWithin('sticky', 'anon-conflict-', true);
    const user = idWithin('sticky', 'user-conflict-', false);
    await capture(t, owner, [
      { event: '$pageview', distinct_id: anon, properties: {} },
      { event: '$pageview', distinct_id: user, properties: {} },
    ]);
    expect((await flagsFor(t, owner, anon, { $anon_distinct_id: anon })).sticky.enabled).toBe(true);
    expect((await flagsFor(t, owner, user, { $anon_distinct_id: user })).sticky.enabled).toBe(false);
    await capture(t, owner, [MERGES.$identify!(user, anon)]);
    expect((await flagsFor(t, owner, user)).sticky.enabled).toBe(false);
    expect((await flagsFor(t, owner, anon)).sticky.enabled).toBe(false);
  });
});

describe('experience continuity across a merge when the metadata store fails', () => {
  let t: TestApp;
  let owner: Credentials;
  const logged: unknown[] = [];

  beforeAll(async () => {
    t = await createTestApp('sqlite', {}, { onBackgroundError: (error) => logged.push(error) });
    owner = await t.bootstrap('continuity-merge-failure@example.com');
    await createFlag(t, owner, { key: 'sticky', ensure_experience_continuity: true, filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
  });
  afterAll(async () => t?.close());

  it('the failed move is logged and the merge event and its persons are stored all the same', async () => {
    const anon = idWithin('sticky', 'anon-fail-', true);
    const user = idWithin('sticky', 'user-fail-', false);
    await capture(t, owner, [
      { event: '$pageview', distinct_id: anon, properties: {} },
      { event: '$pageview', distinct_id: user, properties: {} },
    ]);
    expect((await flagsFor(t, owner, anon, { $anon_distinct_id: anon })).sticky.enabled).toBe(true);
    // The overrides table disappears under the running server: moving overrides now fails.
    await sql`alter table feature_flag_hash_key_overrides rename to hash_key_overrides_away`.execute(t.services.meta.db);
    try {
      await capture(t, owner, [MERGES.$identify!(user, anon)]);
      const body = await runQuery(t, owner, { kind: 'HogQLQuery', query: `select count() from events where event = '$identify' and distinct_id = '${user}'` });
      expect(body.results).toEqual([[1]]);
      expect(await personIdOf(t, owner, anon)).toBe(await personIdOf(t, owner, user));
      expect(logged.map(String).join('\n')).toMatch(/hash_key_overrides/);
    } finally {
      await sql`alter table hash_key_overrides_away rename to feature_flag_hash_key_overrides`.execute(t.services.meta.db);
    }
  });
});
