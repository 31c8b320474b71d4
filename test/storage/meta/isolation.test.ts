// Isolation by construction: a repository method given the right id but another project (or
// organization) finds nothing and changes nothing, whatever its caller checked before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Repositories } from '../../../src/storage/meta/repositories/index.js';
import { META_STORES } from '../../helpers/stores.js';
import { openTwoOrganizations, type Tenant, type TwoOrganizations } from '../../helpers/two-organizations.js';

const NOW = '2024-01-01T00:00:00.000Z';

describe.each(META_STORES)('metadata repositories keep projects apart on %s', (store) => {
  let world: TwoOrganizations;
  let repos: Repositories;
  let alice: Tenant;
  let bob: Tenant;

  const newInsight = (teamId: number, userId: number) =>
    repos.insights.insert({
      team_id: teamId, short_id: Math.random().toString(36).slice(2, 10), name: 'i', derived_name: null, description: null,
      filters: '{}', query: null, order: null, deleted: 0, saved: 1, favorited: 0, is_sample: 0, tags: '[]',
      created_by: userId, last_modified_by: userId, created_at: NOW, updated_at: NOW, last_modified_at: NOW,
    });
  const newDashboard = (teamId: number, userId: number) =>
    repos.dashboards.insert({
      team_id: teamId, name: 'd', description: '', pinned: 0, filters: '{}', tags: '[]', restriction_level: 21,
      deleted: 0, created_by: userId, created_at: NOW, last_accessed_at: null,
    });
  const tile = (dashboardId: number, insightId: number) => ({ dashboard_id: dashboardId, insight_id: insightId, layouts: '{}', color: null, deleted: null, created_at: NOW });

  beforeAll(async () => {
    world = await openTwoOrganizations(store);
    ({ repos, alice, bob } = world);
  });
  afterAll(() => world.close());

  it('dashboard tiles: read, add, change and remove only within the project', async () => {
    const insight = await newInsight(alice.project_id, alice.user_id);
    const dashboard = await newDashboard(alice.project_id, alice.user_id);
    const bobsInsight = await newInsight(bob.project_id, bob.user_id);

    // Adding: only when the dashboard and the insight are both the project's.
    expect(await repos.dashboards.insertTile(bob.project_id, tile(dashboard.id, insight.id))).toBe(false);
    expect(await repos.dashboards.insertTile(alice.project_id, tile(dashboard.id, bobsInsight.id))).toBe(false);
    expect(await repos.dashboards.tilesOfDashboard(alice.project_id, dashboard.id)).toEqual([]);
    expect(await repos.dashboards.insertTile(alice.project_id, tile(dashboard.id, insight.id))).toBe(true);
    const [created] = await repos.dashboards.tilesOfDashboard(alice.project_id, dashboard.id);
    expect(created).toMatchObject({ dashboard_id: dashboard.id, insight_id: insight.id, deleted: null });

    // Reading: the right ids under another project find nothing.
    expect(await repos.dashboards.tilesOfDashboard(bob.project_id, dashboard.id)).toEqual([]);
    expect(await repos.dashboards.tilesOfInsights(bob.project_id, [insight.id])).toEqual([]);
    expect(await repos.dashboards.tilesOfInsights(alice.project_id, [insight.id])).toHaveLength(1);

    // Changing and removing: another project changes nothing.
    await repos.dashboards.updateTile(bob.project_id, dashboard.id, created!.id, { deleted: 1, color: 'red' });
    await repos.dashboards.deleteTilesOfInsight(bob.project_id, insight.id);
    expect((await repos.dashboards.tilesOfDashboard(alice.project_id, dashboard.id))[0]).toMatchObject({ deleted: null, color: null });
    await repos.dashboards.updateTile(alice.project_id, dashboard.id, created!.id, { color: 'blue' });
    await repos.dashboards.deleteTilesOfInsight(alice.project_id, insight.id);
    expect((await repos.dashboards.tilesOfDashboard(alice.project_id, dashboard.id))[0]).toMatchObject({ deleted: 1, color: 'blue' });
  });

  it('sharing: another project cannot enable a configuration or change its token', async () => {
    const insight = await newInsight(alice.project_id, alice.user_id);
    const config = await repos.sharing.insertForInsight({ team_id: alice.project_id, insight_id: insight.id, dashboard_id: null, enabled: 0, access_token: `tok-${insight.id}`, created_at: NOW });
    await repos.sharing.update(bob.project_id, config.id, { enabled: 1, access_token: 'stolen' });
    expect(await repos.sharing.forInsight(alice.project_id, insight.id)).toMatchObject({ enabled: 0, access_token: `tok-${insight.id}` });
    expect(await repos.sharing.byToken('stolen')).toBeUndefined();
    await repos.sharing.update(alice.project_id, config.id, { enabled: 1 });
    expect(await repos.sharing.forInsight(alice.project_id, insight.id)).toMatchObject({ enabled: 1 });
  });

  it('users: only members of the organization are read', async () => {
    expect(await repos.users.findMembers(bob.organization_id, [alice.user_id])).toEqual([]);
    const found = await repos.users.findMembers(alice.organization_id, [alice.user_id, bob.user_id]);
    expect(found.map((u) => u.email)).toEqual(['alice@example.com']);
  });

  it('project secret keys: another organization cannot set them; a key finds its own project only', async () => {
    await repos.projects.update(alice.project_id, bob.organization_id, { secret_api_token: 'phs_set_by_b' });
    expect(await repos.projects.idBySecretToken('phs_set_by_b')).toBeUndefined();
    await repos.projects.update(alice.project_id, alice.organization_id, { secret_api_token: 'phs_a', secret_api_token_backup: 'phs_a_before' });
    await repos.projects.update(bob.project_id, bob.organization_id, { secret_api_token: 'phs_b' });
    expect(await repos.projects.idBySecretToken('phs_a')).toBe(alice.project_id);
    expect(await repos.projects.idBySecretToken('phs_a_before')).toBe(alice.project_id);
    expect(await repos.projects.idBySecretToken('phs_b')).toBe(bob.project_id);
  });
});
