// PostHog's feature flag API cases (posthog/api/test/test_feature_flag.py), ported as data over
// the real app: create, read, update with versions and PostHog's 409, soft delete and restore,
// key reuse, activity and its pages, the list's filters and order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { META_STORES } from '../../helpers/stores.js';
import { flagsClient, validation } from './helpers.js';

describe.each(META_STORES)('feature flags API (PostHog test_feature_flag.py) on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let other: Credentials;
  const api = flagsClient({ request: (...args) => t.request(...args) } as TestApp, () => alice);

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('user1@posthog.com', { organization: 'Alice Inc' });
    await t.addMember(alice.organizationId, 'different_user@posthog.com', 1);
    other = { ...alice, key: await t.key('different_user@posthog.com', ['*']), email: 'different_user@posthog.com' };
  });
  afterAll(async () => t?.close());

  const activity = async (id: number | null) => {
    const res = await api.get(id === null ? 'activity/' : `${id}/activity/`);
    expect(res.status).toBe(200);
    return res.body.results as any[];
  };

  it('test_create_feature_flag: 201, the key, created activity, created_by', async () => {
    const flag = await api.create({ name: 'Alpha feature', key: 'alpha-feature', filters: { groups: [{ rollout_percentage: 50 }] } });
    expect(flag).toMatchObject({ key: 'alpha-feature', name: 'Alpha feature', version: 1, active: true, deleted: false, filters: { groups: [{ rollout_percentage: 50 }] } });
    expect(flag.created_by).toMatchObject({ email: 'user1@posthog.com' });
    expect(flag.last_modified_by).toMatchObject({ email: 'user1@posthog.com' });
    expect(await activity(flag.id)).toMatchObject([{
      user: { first_name: 'user1', email: 'user1@posthog.com' }, activity: 'created', scope: 'FeatureFlag', item_id: String(flag.id),
      detail: { changes: [], trigger: null, type: null, name: 'alpha-feature', short_id: null },
    }]);
  });

  it('test_create_minimal_feature_flag: name "" and on for everyone', async () => {
    const flag = await api.create({ key: 'omega-feature' });
    expect(flag).toMatchObject({ key: 'omega-feature', name: '', filters: { groups: [{ properties: [], rollout_percentage: null }] }, is_simple_flag: true, rollout_percentage: null });
  });

  it('test_create_feature_flag_with_evaluation_runtime and test_update_feature_flag_evaluation_runtime', async () => {
    for (const runtime of ['server', 'client', 'all']) expect((await api.create({ key: `${runtime}-side-flag`, evaluation_runtime: runtime })).evaluation_runtime).toBe(runtime);
    const flag = await api.create({ key: 'default-runtime-flag' });
    expect(flag.evaluation_runtime).toBe('all');
    const res = await api.patch(flag.id, { evaluation_runtime: 'server' });
    expect(res.status).toBe(200);
    expect(res.body.evaluation_runtime).toBe('server');
    expect((await api.post({ key: 'bad-runtime', evaluation_runtime: 'edge' })).body).toEqual(validation('"edge" is not a valid choice.', 'evaluation_runtime', 'invalid_choice'));
  });

  it('test_create_multivariate_feature_flag', async () => {
    const flag = await api.create({
      name: 'Multivariate feature', key: 'multivariate-feature',
      filters: { groups: [{ properties: [], rollout_percentage: null }], multivariate: { variants: [
        { key: 'first-variant', name: 'First Variant', rollout_percentage: 50 },
        { key: 'second-variant', name: 'Second Variant', rollout_percentage: 25 },
        { key: 'third-variant', name: 'Third Variant', rollout_percentage: 25 },
      ] } },
    });
    expect(flag.filters.multivariate.variants).toHaveLength(3);
    expect(flag.is_simple_flag).toBe(false);
  });

  it('test_updating_feature_flag: name and filters change, version 2, the activity lists name, filters and version', async () => {
    const flag = await api.create({ name: 'original name', key: 'a-feature-flag-that-is-updated' });
    const filters = { groups: [{ rollout_percentage: 65, properties: [{ key: 'email', type: 'person', value: '@posthog.com', operator: 'icontains' }] }] };
    const res = await api.patch(flag.id, { name: 'Updated name', filters });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Updated name', version: 2, filters: { groups: [{ rollout_percentage: 65 }] } });
    const log = await activity(flag.id);
    expect(log.map((e) => e.activity)).toEqual(['updated', 'created']);
    expect(log[0].detail).toEqual({
      changes: [
        { type: 'FeatureFlag', action: 'changed', field: 'name', before: 'original name', after: 'Updated name' },
        { type: 'FeatureFlag', action: 'created', field: 'filters', before: null, after: filters },
        { type: 'FeatureFlag', action: 'changed', field: 'version', before: 1, after: 2 },
      ],
      trigger: null, type: null, name: 'a-feature-flag-that-is-updated', short_id: null,
    });
  });

  it('test_updating_feature_flag_partial: fields not sent are kept', async () => {
    const flag = await api.create({ name: 'original name', key: 'partial-flag', filters: { groups: [{ variant: null, properties: [{ key: 'plan', type: 'person', value: ['pro'], operator: 'exact' }], rollout_percentage: 100 }], payloads: {}, multivariate: null } });
    const res = await api.patch(flag.id, { name: 'Updated name' });
    expect(res.body).toMatchObject({ name: 'Updated name', filters: { groups: [{ rollout_percentage: 100 }] } });
  });

  it('test_updating_feature_flag_with_different_user: created_by stays, last_modified_by moves', async () => {
    const flag = await api.create({ name: 'original name', key: 'two-users-flag' });
    const res = await api.patch(flag.id, { name: 'Updated name' }, other);
    expect(res.body.created_by.email).toBe('user1@posthog.com');
    expect(res.body.last_modified_by.email).toBe('different_user@posthog.com');
  });

  it('test_updating_feature_flag_fails_concurrency_check_when_version_outdated: 409 naming the other editor', async () => {
    const flag = await api.create({ name: 'original name', key: 'conflict-flag' });
    const second = await api.patch(flag.id, { name: 'Updated name', version: 1 }, other);
    expect(second.body.version).toBe(2);
    const stale = await api.patch(flag.id, { name: 'Another Updated name', version: 1, original_flag: { name: 'original name', key: 'conflict-flag' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ type: 'server_error', detail: 'The feature flag was updated by different_user@posthog.com since you started editing it. Please refresh and try again.' });
    expect((await api.get(`${flag.id}/`)).body).toMatchObject({ name: 'Updated name', version: 2, last_modified_by: { email: 'different_user@posthog.com' } });
    const fresh = await api.patch(flag.id, { name: 'Another Updated name', version: 2 }, other);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ name: 'Another Updated name', version: 3 });
  });

  it('test_updating_feature_flag_does_not_fail_concurrency_check_when_changing_different_fields', async () => {
    const filters = (rollout: number) => ({ groups: [{ variant: null, properties: [{ key: 'plan', type: 'person', value: ['pro'], operator: 'exact' }], rollout_percentage: rollout }], payloads: {}, multivariate: null });
    const flag = await api.create({ name: 'original name', key: 'no-conflict-flag', filters: filters(100) });
    expect((await api.patch(flag.id, { name: 'Updated name', version: flag.version }, other)).status).toBe(200);
    const res = await api.patch(flag.id, { name: 'Updated name', filters: filters(45), original_flag: { name: 'original name', filters: filters(100) }, version: flag.version });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Updated name', last_modified_by: { email: 'user1@posthog.com' }, filters: { groups: [{ rollout_percentage: 45 }] } });
  });

  it('test_get_conflicting_changes (through the API): only fields changed by both, to different values, conflict', async () => {
    const flag = await api.create({ key: 'my-flag', name: 'Beta feature', filters: { groups: [{ properties: [], rollout_percentage: 45 }] } });
    const original = { key: 'my-flag', name: 'Alpha feature', active: true, filters: { groups: [{ properties: [], rollout_percentage: 50 }] } };
    // The name differs from the stored one, but this request sets it to the value it read: no conflict.
    const kept = await api.patch(flag.id, { active: false, key: 'my-flag-2', name: 'Alpha feature', filters: original.filters, original_flag: original, version: 0 });
    expect(kept.status).toBe(200);
    const conflicting = await api.patch(flag.id, { name: 'Gamma feature', original_flag: { ...original, name: 'Beta feature' }, version: 0 });
    expect(conflicting.status).toBe(409);
  });

  it('test_updating_feature_flag_does_not_fail_when_version_not_in_request: every change adds 1', async () => {
    const flag = await api.create({ name: 'original name', key: 'versions-flag' });
    expect((await api.patch(flag.id, { name: 'Updated name' })).body.version).toBe(2);
    expect((await api.patch(flag.id, { name: 'Yet another updated name' })).body).toMatchObject({ version: 3, name: 'Yet another updated name' });
  });

  it('test_updating_feature_flag_key: the key changes and the activity is named by the new key', async () => {
    const flag = await api.create({ name: 'original name', key: 'key-before' });
    const res = await api.patch(flag.id, { key: 'a-new-feature-flag-key' });
    expect(res.body.key).toBe('a-new-feature-flag-key');
    const [entry] = await activity(flag.id);
    expect(entry.detail.name).toBe('a-new-feature-flag-key');
    expect(entry.detail.changes[0]).toEqual({ type: 'FeatureFlag', action: 'changed', field: 'key', before: 'key-before', after: 'a-new-feature-flag-key' });
  });

  it('test_cant_update_flag_with_duplicate_key; updating a flag with its own key is fine', async () => {
    const existing = await api.create({ key: 'red_button' });
    const another = await api.create({ key: 'some-feature', name: 'some feature' });
    expect((await api.patch(another.id, { name: 'Beta feature', key: 'red_button' })).body).toEqual(validation('There is already a feature flag with this key.', 'key', 'unique'));
    expect((await api.get(`${another.id}/`)).body.key).toBe('some-feature');
    const res = await api.patch(existing.id, { name: 'Beta feature 3', key: 'red_button' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Beta feature 3');
  });

  it('test_cant_create_flag_with_duplicate_key', async () => {
    await api.create({ key: 'dup_button' });
    expect((await api.post({ name: 'Beta feature', key: 'dup_button' })).body).toEqual(validation('There is already a feature flag with this key.', 'key', 'unique'));
  });

  it('test_hard_deleting_feature_flag_is_forbidden: 405 with no body, the flag stays', async () => {
    const flag = await api.create({ key: 'potato' });
    const res = await t.request(other.key, { method: 'DELETE', url: `/api/projects/${alice.projectId}/feature_flags/${flag.id}/` });
    expect(res.statusCode).toBe(405);
    expect(res.body).toBe('');
    expect((await api.get(`${flag.id}/`)).status).toBe(200);
  });

  it('soft delete, read back deleted, restore; the key is reused after deletion (test_soft_delete_flag_renames_key_and_allows_reuse)', async () => {
    const flag = await api.create({ key: 'flag1' });
    const deleted = await api.patch(flag.id, { deleted: true });
    expect(deleted.body).toMatchObject({ deleted: true, status: 'DELETED', version: 2 });
    expect((await api.get(`${flag.id}/`)).body.deleted).toBe(true);
    expect(((await api.get('?limit=1000')).body.results as any[]).map((f) => f.key)).not.toContain('flag1');
    const restored = await api.patch(flag.id, { deleted: false });
    expect(restored.body).toMatchObject({ deleted: false, status: 'ACTIVE' });
    expect((await activity(flag.id)).map((e) => e.activity)).toEqual(['restored', 'deleted', 'created']);
    await api.patch(flag.id, { deleted: true });
    const again = await api.create({ name: 'Flag1', key: 'flag1' });
    expect(again.key).toBe('flag1');
    expect(again.id).not.toBe(flag.id);
  });

  it('test_get_feature_flag_activity_for_all_flags and test_paging_all_feature_flag_activity', async () => {
    const t2 = await t.bootstrap('pager@posthog.com');
    for (let x = 0; x < 15; x++) await api.create({ name: `feature flag ${x}`, key: `${x}` }, t2);
    const first = await api.get('activity/', t2);
    expect(first.body.results.map((e: any) => e.detail.name)).toEqual(['14', '13', '12', '11', '10', '9', '8', '7', '6', '5']);
    expect(first.body.next).toMatch(new RegExp(`/api/projects/${t2.projectId}/feature_flags/activity/\\?.*page=2`));
    expect(first.body.previous).toBeNull();
    const second = await api.get('activity/?page=2', t2);
    expect(second.body.results.map((e: any) => e.detail.name)).toEqual(['4', '3', '2', '1', '0']);
    expect(second.body.next).toBeNull();
  });

  it('test_paging_specific_feature_flag_activity: every key change is an entry named by the key', async () => {
    const flag = await api.create({ name: 'ff', key: '0' });
    for (let x = 1; x < 15; x++) expect((await api.patch(flag.id, { key: String(x) })).status).toBe(200);
    const first = await api.get(`${flag.id}/activity/`);
    expect(first.body.results.map((e: any) => e.detail.name)).toEqual(['14', '13', '12', '11', '10', '9', '8', '7', '6', '5']);
    const second = await api.get(`${flag.id}/activity/?page=2`);
    expect(second.body.results.map((e: any) => e.detail.name)).toEqual(['4', '3', '2', '1', '0']);
  });

  it('the list: newest first, search by key or name, active, type, created_by_id, order and paging', async () => {
    const who = await t.bootstrap('lister@posthog.com');
    const l = (query: string) => api.get(`?${query}`, who).then((r) => { expect(r.status, JSON.stringify(r.body)).toBe(200); return r.body; });
    await api.create({ key: 'alpha', name: 'First thing' }, who);
    await api.create({ key: 'beta', name: 'Second', active: false }, who);
    await api.create({ key: 'gamma', filters: { groups: [{}], multivariate: { variants: [{ key: 'a', rollout_percentage: 100 }] } } }, who);
    await api.create({ key: 'delta', is_remote_configuration: true, filters: { groups: [{}], payloads: { true: '{"a": 1}' } } }, who);
    expect((await l('')).results.map((f: any) => f.key)).toEqual(['delta', 'gamma', 'beta', 'alpha']);
    expect((await l('search=THING')).results.map((f: any) => f.key)).toEqual(['alpha']);
    expect((await l('search=amm')).results.map((f: any) => f.key)).toEqual(['gamma']);
    expect((await l('active=false')).results.map((f: any) => f.key)).toEqual(['beta']);
    expect((await l('type=multivariant')).results.map((f: any) => f.key)).toEqual(['gamma']);
    expect((await l('type=boolean')).results.map((f: any) => f.key)).toEqual(['beta', 'alpha']);
    expect((await l('type=remote_config')).results.map((f: any) => f.key)).toEqual(['delta']);
    expect((await l('type=experiment')).count).toBe(0);
    expect((await l(`created_by_id=${who.userId}`)).count).toBe(4);
    expect((await l('created_by_id=999999')).count).toBe(0);
    expect((await l('order=key')).results.map((f: any) => f.key)).toEqual(['alpha', 'beta', 'delta', 'gamma']);
    const page = await l('limit=2&offset=1');
    expect(page.count).toBe(4);
    expect(page.results.map((f: any) => f.key)).toEqual(['gamma', 'beta']);
    expect(page.next).toContain('offset=3');
    expect((await api.get('?active=STALE', who)).body).toMatchObject({ type: 'validation_error', attr: 'active' });
    expect((await api.get('?order=password', who)).status).toBe(400);
  });

  it('PUT replaces with the key required; the environments path serves the same flags', async () => {
    const flag = await api.create({ key: 'put-flag', name: 'x' });
    const put = await t.request(alice.key, { method: 'PUT', url: `/api/environments/${alice.projectId}/feature_flags/${flag.id}/`, payload: { name: 'y' } });
    expect(put.json()).toEqual(validation('This field is required.', 'key', 'required'));
    const ok = await t.request(alice.key, { method: 'PUT', url: `/api/environments/${alice.projectId}/feature_flags/${flag.id}/`, payload: { key: 'put-flag', name: 'y' } });
    expect(ok.json()).toMatchObject({ name: 'y', version: 2 });
  });

  it('payloads: a JSON string kept verbatim, an object stored as Python json.dumps text', async () => {
    const flag = await api.create({ key: 'payload-flag', filters: { groups: [{ rollout_percentage: 100 }], payloads: { true: { a: 1, b: ['x'] } } } });
    expect(flag.filters.payloads).toEqual({ true: '{"a": 1, "b": ["x"]}' });
    const kept = await api.create({ key: 'payload-flag-2', filters: { groups: [{ rollout_percentage: 100 }], payloads: { true: '{"a":1}' } } });
    expect(kept.filters.payloads).toEqual({ true: '{"a":1}' });
  });
  it('test_get_flags_with_active_and_created_by_id_filters, test_get_flags_with_search (by key), test_getting_flags_with_no_creator', async () => {
    const who = await t.bootstrap('filters@posthog.com');
    await t.addMember(who.organizationId, 'foo@bar.com', 1);
    const another = { ...who, key: await t.key('foo@bar.com', ['*']) };
    await api.create({ key: 'red_button' }, who);
    await api.create({ key: 'blue_button' }, who);
    await api.create({ key: 'orange_button', active: false }, another);
    await api.create({ key: 'green_button', active: false }, who);
    const byCreator = await api.get(`?created_by_id=${who.userId}&active=false`, who);
    expect(byCreator.body.results.map((f: any) => f.key)).toEqual(['green_button']);
    await api.create({ key: 'blue_search_term_button' }, who);
    await api.create({ key: 'green_search_term_button', active: false }, who);
    expect((await api.get('?active=true&search=search_term', who)).body.results.map((f: any) => f.key)).toEqual(['blue_search_term_button']);
    const orphan = await api.create({ key: 'flag_role_access', name: 'Flag role access' }, who);
    await t.services.meta.db.updateTable('feature_flags').set({ created_by: null }).where('id', '=', orphan.id).execute();
    const listed = (await api.get('?search=flag_role', who)).body.results;
    expect(listed).toMatchObject([{ key: 'flag_role_access', created_by: null }]);
  });

  it('test_get_flags_with_evaluation_runtime_filter (a stored value the serializer no longer takes included)', async () => {
    const who = await t.bootstrap('runtime@posthog.com');
    await api.create({ key: 'server_flag', evaluation_runtime: 'server' }, who);
    await api.create({ key: 'client_flag', evaluation_runtime: 'client' }, who);
    const both = await api.create({ key: 'both_flag' }, who);
    await t.services.repositories.featureFlags.update(who.projectId, both.id, { evaluation_runtime: 'both' });
    for (const runtime of ['server', 'client', 'both']) {
      expect((await api.get(`?evaluation_runtime=${runtime}`, who)).body.results.map((f: any) => f.key)).toEqual([`${runtime}_flag`]);
    }
  });

  it('test_feature_flag_threshold: rollback_conditions are kept', async () => {
    const flag = await api.create({
      name: 'Beta feature', key: 'beta-feature-threshold', filters: { aggregation_group_type_index: 0, groups: [{ rollout_percentage: 65 }] },
      rollback_conditions: [{ threshold: 5000, threshold_metric: { insight: 'trends', events: [{ order: 0, id: '$pageview' }], properties: [{ key: '$geoip_country_name', type: 'person', value: ['france'], operator: 'exact' }] }, operator: 'lt', threshold_type: 'insight' }],
      'auto-rollback': true,
    });
    expect(flag.rollback_conditions).toHaveLength(1);
  });

  it('test_flag_is_cached_on_create_and_update: the definitions the /flags endpoints read follow every change, and the epoch moves', async () => {
    const who = await t.bootstrap('cache@posthog.com');
    const defs = t.services.flagDefinitions;
    const epochs = [await defs.epoch(who.projectId)];
    const flag = await api.create({ name: 'Beta feature', key: 'beta-feature', filters: { aggregation_group_type_index: 0, groups: [{ rollout_percentage: 65 }] } }, who);
    epochs.push(await defs.epoch(who.projectId));
    expect((await defs.live(who.projectId)).map((d) => [d.id, d.key, d.name])).toEqual([[flag.id, 'beta-feature', 'Beta feature']]);
    expect((await api.patch(flag.id, { name: 'XYZ', key: 'red_button' }, who)).status).toBe(200);
    epochs.push(await defs.epoch(who.projectId));
    expect((await defs.live(who.projectId)).map((d) => [d.id, d.key, d.name])).toEqual([[flag.id, 'red_button', 'XYZ']]);
    expect((await api.patch(flag.id, { deleted: true }, who)).status).toBe(200);
    epochs.push(await defs.epoch(who.projectId));
    expect(await defs.live(who.projectId)).toEqual([]);
    expect(new Set(epochs).size).toBe(4);
  });

  it('test_feature_flag_includes_cohort_names', async () => {
    const res = await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/cohorts/`, payload: { name: 'test_cohort', groups: [{ properties: [{ key: 'email', value: '@posthog.com', type: 'person', operator: 'icontains' }] }] } });
    const cohortId = res.json().id;
    const flag = await api.create({ name: 'Alpha feature', key: 'alpha-feature-cohort', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: cohortId }] }] } });
    expect((await api.get(`${flag.id}/`)).body.filters.groups[0].properties[0]).toEqual({ key: 'id', type: 'cohort', value: cohortId, cohort_name: 'test_cohort' });
  });

  it('test_updating_feature_flag_key_updates_super_groups', async () => {
    const flag = await api.create({ key: 'old-key', name: 'Test Flag', filters: { groups: [{ properties: [], rollout_percentage: 0 }], super_groups: [{ properties: [{ key: '$feature_enrollment/old-key', type: 'person', value: ['true'], operator: 'exact' }], rollout_percentage: 100 }] } });
    const res = await api.patch(flag.id, { key: 'new-key' });
    expect(res.status).toBe(200);
    expect(res.body.filters.super_groups[0].properties[0].key).toBe('$feature_enrollment/new-key');
    expect(JSON.stringify(res.body.filters)).not.toContain('$feature_enrollment/old-key');
  });
  it('test_get_conflicting_changes_returns_empty_when_original_flag_is_none: a stale version without original_flag goes through', async () => {
    const flag = await api.create({ key: 'no-original', name: 'Beta feature' });
    await api.patch(flag.id, { active: false }, other);
    const res = await api.patch(flag.id, { name: 'Gamma feature', version: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Gamma feature', active: false, version: 3 });
  });

  it('test_get_conflicting_changes_with_filter_changes (through the API)', async () => {
    const flag = await api.create({ key: 'my-flag-f', name: 'Beta feature', filters: { groups: [{ properties: [], rollout_percentage: 45 }] } });
    const original = { key: 'my-flag-f', name: 'Alpha feature', active: true, filters: { groups: [{ properties: [], rollout_percentage: 50 }] } };
    const unchanged = await api.patch(flag.id, { active: false, key: 'my-flag-f2', name: 'Alpha feature', filters: original.filters, original_flag: original, version: 0 });
    expect(unchanged.status).toBe(200);
    await api.patch(flag.id, { name: 'Beta feature', filters: { groups: [{ properties: [], rollout_percentage: 45 }] } }, other);
    const conflicting = await api.patch(flag.id, { name: 'Gamma feature', filters: { groups: [{ properties: [], rollout_percentage: 100 }] }, active: false, key: 'my-flag-f2', original_flag: original, version: 0 });
    expect(conflicting.status).toBe(409);
  });

  it('test_get_feature_flag_activity: a PATCH that resends the name logs only filters and version', async () => {
    const flag = await api.create({ name: 'feature flag with activity', key: 'feature_with_activity' });
    const res = await api.patch(flag.id, { name: 'feature flag with activity', filters: { groups: [{ properties: [], rollout_percentage: 74 }] } });
    expect(res.status).toBe(200);
    const log = await activity(flag.id);
    expect(log.map((e) => [e.activity, e.user.email, e.scope, e.item_id])).toEqual([
      ['updated', 'user1@posthog.com', 'FeatureFlag', String(flag.id)], ['created', 'user1@posthog.com', 'FeatureFlag', String(flag.id)],
    ]);
    expect(log[0].detail).toEqual({
      changes: [
        { type: 'FeatureFlag', action: 'created', field: 'filters', before: null, after: { groups: [{ properties: [], rollout_percentage: 74 }] } },
        { type: 'FeatureFlag', action: 'changed', field: 'version', before: 1, after: 2 },
      ],
      trigger: null, type: null, name: 'feature_with_activity', short_id: null,
    });
  });

  it('test_create_feature_flag_without_usage_dashboard (Hoglet never creates one)', async () => {
    const flag = await api.create({ key: 'no-usage-dashboard', _should_create_usage_dashboard: false });
    expect(flag).toMatchObject({ key: 'no-usage-dashboard', name: '', usage_dashboard: null });
  });
  it('racing PATCHes: every accepted change has its own version, none is lost', async () => {
    const flag = await api.create({ key: 'raced' });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => api.patch(flag.id, { name: `edit ${i}` })));
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    const versions = answers.filter((a) => a.status === 200).map((a) => a.body.version);
    expect(new Set(versions).size).toBe(versions.length);
    expect((await api.get(`${flag.id}/`)).body.version).toBe(1 + versions.length);
  });
});
