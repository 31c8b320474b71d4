// The flags repository on both metadata stores: the project's live flags as FlagDefinition, the
// flags epoch, one row per key, and experience continuity's hash key overrides (insert if absent,
// read for persons, moved on a merge with the survivor's kept).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlagDefinitions } from '../../../src/core/flags/definitions.js';
import type { FeatureFlagRow } from '../../../src/storage/meta/repositories/feature-flags.js';
import type { Repositories } from '../../../src/storage/meta/repositories/index.js';
import { META_STORES } from '../../helpers/stores.js';
import { openTwoOrganizations, type Tenant, type TwoOrganizations } from '../../helpers/two-organizations.js';

const NOW = '2026-01-01T00:00:00.000Z';

describe.each(META_STORES)('feature flags repository on %s', (store) => {
  let world: TwoOrganizations;
  let repos: Repositories;
  let alice: Tenant;
  let bob: Tenant;

  const flag = (teamId: number, key: string, extra: Partial<FeatureFlagRow> = {}): Omit<FeatureFlagRow, 'id'> => ({
    team_id: teamId, key, name: '', filters: JSON.stringify({ groups: [{ properties: [], rollout_percentage: 50 }] }), active: 1, deleted: 0,
    ensure_experience_continuity: 0, version: 1, evaluation_runtime: 'all', bucketing_identifier: 'distinct_id', tags: '[]',
    evaluation_tags: '[]', is_remote_configuration: 0, has_encrypted_payloads: 0, has_enriched_analytics: 0, rollback_conditions: null,
    performed_rollback: null, created_by: null, last_modified_by: null, created_at: NOW, updated_at: NOW, last_called_at: null, ...extra,
  });

  beforeAll(async () => {
    world = await openTwoOrganizations(store);
    ({ repos, alice, bob } = world);
  });
  afterAll(() => world.close());

  it('lists a project\'s live flags as definitions, and the epoch moves per project', async () => {
    const definitions = new FlagDefinitions(repos.featureFlags);
    expect(await definitions.epoch(alice.project_id)).toBe(0);
    const on = await repos.featureFlags.insert(flag(alice.project_id, 'on', { ensure_experience_continuity: 1, evaluation_tags: '["web"]' }));
    await repos.featureFlags.insert(flag(alice.project_id, 'gone', { deleted: 1 }));
    await repos.featureFlags.insert(flag(alice.project_id, 'legacy', { filters: '{}', active: 0 }));
    await repos.featureFlags.insert(flag(bob.project_id, 'on'));
    await repos.featureFlags.bumpEpoch(alice.project_id);
    await repos.featureFlags.bumpEpoch(alice.project_id);
    expect(await definitions.epoch(alice.project_id)).toBe(2);
    expect(await definitions.epoch(bob.project_id)).toBe(0);

    const live = await definitions.live(alice.project_id);
    expect(live.map((d) => d.key)).toEqual(['on', 'legacy']);
    expect(live[0]).toEqual({
      id: on.id, projectId: alice.project_id, key: 'on', name: '', filters: { groups: [{ properties: [], rollout_percentage: 50 }] },
      active: true, deleted: false, ensureExperienceContinuity: true, version: 1, evaluationRuntime: 'all', bucketingIdentifier: 'distinct_id',
      evaluationTags: ['web'], isRemoteConfiguration: false, hasEncryptedPayloads: false,
    });
    // A flag stored without groups evaluates as one set on for everyone (PostHog's get_filters()).
    expect(live[1]).toMatchObject({ active: false, filters: { groups: [{ properties: [], rollout_percentage: null }] } });
  });

  it('keeps one row per key: a soft-deleted flag\'s key is freed, a live one is not', async () => {
    const old = await repos.featureFlags.insert(flag(alice.project_id, 'reuse', { deleted: 1 }));
    await expect(repos.featureFlags.insert(flag(alice.project_id, 'reuse'))).rejects.toThrow();
    await repos.featureFlags.removeDeletedWithKey(alice.project_id, 'reuse');
    expect(await repos.featureFlags.findInProject(alice.project_id, old.id)).toBeUndefined();
    const fresh = await repos.featureFlags.insert(flag(alice.project_id, 'reuse'));
    await repos.featureFlags.removeDeletedWithKey(alice.project_id, 'reuse');
    expect((await repos.featureFlags.findByKey(alice.project_id, 'reuse'))?.id).toBe(fresh.id);
    // Another project's ids find nothing.
    expect(await repos.featureFlags.findInProject(bob.project_id, fresh.id)).toBeUndefined();
  });

  it('hash key overrides: inserted if absent, read for persons, moved on a merge keeping the survivor\'s', async () => {
    const ff = repos.featureFlags;
    await ff.insertHashKeyOverridesIfAbsent(alice.project_id, [
      { person_id: 'p-anon', feature_flag_key: 'a', hash_key: 'anon-1' },
      { person_id: 'p-anon', feature_flag_key: 'b', hash_key: 'anon-1' },
      { person_id: 'p-user', feature_flag_key: 'b', hash_key: 'user-own' },
    ]);
    // A second write for the same person and key changes nothing.
    await ff.insertHashKeyOverridesIfAbsent(alice.project_id, [{ person_id: 'p-anon', feature_flag_key: 'a', hash_key: 'other' }]);
    await ff.insertHashKeyOverridesIfAbsent(bob.project_id, [{ person_id: 'p-anon', feature_flag_key: 'a', hash_key: 'bob' }]);
    const sorted = (rows: { person_id: string; feature_flag_key: string; hash_key: string }[]) =>
      [...rows].sort((x, y) => `${x.person_id}${x.feature_flag_key}`.localeCompare(`${y.person_id}${y.feature_flag_key}`));
    expect(sorted(await ff.hashKeyOverridesOf(alice.project_id, ['p-anon', 'p-user']))).toEqual([
      { person_id: 'p-anon', feature_flag_key: 'a', hash_key: 'anon-1' },
      { person_id: 'p-anon', feature_flag_key: 'b', hash_key: 'anon-1' },
      { person_id: 'p-user', feature_flag_key: 'b', hash_key: 'user-own' },
    ]);
    await ff.moveHashKeyOverrides(alice.project_id, 'p-anon', 'p-user');
    expect(sorted(await ff.hashKeyOverridesOf(alice.project_id, ['p-anon', 'p-user']))).toEqual([
      { person_id: 'p-user', feature_flag_key: 'a', hash_key: 'anon-1' },
      { person_id: 'p-user', feature_flag_key: 'b', hash_key: 'user-own' },
    ]);
    expect(await ff.hashKeyOverridesOf(bob.project_id, ['p-anon'])).toEqual([{ person_id: 'p-anon', feature_flag_key: 'a', hash_key: 'bob' }]);
  });
});
