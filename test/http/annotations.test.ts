// The Annotations API against PostHog's behaviour (posthog/api/test/test_annotation.py ported as
// data where Hoglet has the feature), on every metadata store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';
import { openTwoOrganizations } from '../helpers/two-organizations.js';

type Body = Record<string, unknown>;

describe.each(META_STORES)('Annotations API on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  let aliceSecond: number;
  const base = (projectId: number = alice.projectId) => `/api/projects/${projectId}/annotations`;

  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Body, key = alice.key) => {
    const res = await t.request(key, { method, url, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  const create = async (payload: Body, projectId = alice.projectId, key = alice.key) => {
    const res = await call('POST', `${base(projectId)}/`, payload, key);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const list = async (query = '', projectId = alice.projectId) => {
    const res = await call('GET', `${base(projectId)}/${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { count: number; next: string | null; results: Body[] };
  };
  const clear = async () => {
    for (const projectId of [alice.projectId, aliceSecond]) {
      for (const a of (await list('', projectId)).results) await call('PATCH', `${base(projectId)}/${a.id}/`, { deleted: true });
    }
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    const second = await call('POST', `/api/organizations/${alice.organizationId}/projects/`, { name: 'Second team' });
    expect(second.status).toBe(201);
    aliceSecond = second.body.id;
  });
  afterAll(() => t.close());

  it("creates with PostHog's serializer fields; team and read-only fields in the body are ignored (test_creating_annotation)", async () => {
    await clear();
    const created = await create({
      content: 'Marketing campaign',
      scope: 'organization',
      date_marker: '2020-01-01T00:00:00.000000Z',
      team: bob.projectId,
      created_by: 12345,
      insight_name: 'nope',
    });
    expect(created).toEqual({
      id: expect.any(Number),
      content: 'Marketing campaign',
      date_marker: '2020-01-01T00:00:00Z',
      creation_type: 'USR',
      dashboard_item: null,
      dashboard_id: null,
      dashboard_name: null,
      insight_short_id: null,
      insight_name: null,
      insight_derived_name: null,
      created_by: expect.objectContaining({ id: alice.userId, email: 'alice@example.com', first_name: 'alice' }),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      deleted: false,
      scope: 'organization',
    });
    expect((await call('GET', `${base()}/${created.id}/`)).body).toEqual(created);
    // Bob's project did not get it.
    expect((await call('GET', `${base(bob.projectId)}/`, undefined, bob.key)).body.results).toEqual([]);
  });

  it('a bot creates with creation_type GIT (test_can_create_annotations_as_a_bot); scope defaults to dashboard_item', async () => {
    const created = await create({ content: 'deploy 1.2.3', date_marker: '2021-05-05T10:00:00Z', creation_type: 'GIT' });
    expect(created.creation_type).toBe('GIT');
    expect(created.scope).toBe('dashboard_item');
    expect((await call('GET', `${base()}/${created.id}/`)).body.creation_type).toBe('GIT');
  });

  it('an organization annotation shows in every project of the organization (test_org_scoped_annotations_are_returned_between_projects)', async () => {
    await clear();
    const org = await create({ content: 'Cross-project annotation!', scope: 'organization' }, aliceSecond);
    await create({ content: 'only in the second project', scope: 'project' }, aliceSecond);
    const first = await list();
    expect(first.results.map((a) => a.content)).toEqual(['Cross-project annotation!']);
    expect((await call('GET', `${base()}/${org.id}/`)).status).toBe(200);
    expect((await list('', aliceSecond)).count).toBe(2);
  });

  it('PATCH through another project moves the annotation there (test_downgrading_scope_from_org_to_project_uses_team_id_from_api)', async () => {
    await clear();
    const org = await create({ content: 'hello world!', scope: 'organization' });
    const res = await call('PATCH', `${base(aliceSecond)}/${org.id}/`, { scope: 'project' });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('project');
    expect((await list('', aliceSecond)).results.map((a) => a.id)).toEqual([org.id]);
    expect((await list()).results).toEqual([]);
  });

  it('updates content and scope and keeps date_marker (test_updating_annotation), logging the change as PostHog does', async () => {
    const a = await create({ content: 'hello world!' });
    const res = await call('PATCH', `${base()}/${a.id}/`, { content: 'Updated text', scope: 'organization' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ content: 'Updated text', scope: 'organization', date_marker: null });
    const log = (await t.services.repositories.activityLog.listForItem(alice.projectId, 'Annotation', String(a.id), { limit: 10, offset: 0 })).rows;
    expect(log.map((e) => e.activity)).toEqual(['updated', 'created']);
    expect((log[0]!.detail as { changes: unknown }).changes).toEqual([
      { type: 'Annotation', action: 'changed', field: 'content', before: 'hello world!', after: 'Updated text' },
      { type: 'Annotation', action: 'changed', field: 'scope', before: 'dashboard_item', after: 'organization' },
    ]);
  });

  it('DELETE is 405 (test_deleting_annotation); PATCH deleted soft-deletes, hides it, and restores it', async () => {
    await clear();
    const a = await create({ content: 'to go', scope: 'project' });
    const del = await call('DELETE', `${base()}/${a.id}/`);
    expect(del.status).toBe(405);
    expect(del.body).toEqual({ type: 'invalid_request', code: 'method_not_allowed', detail: 'Method "DELETE" not allowed.', attr: null });
    expect((await call('GET', `${base()}/${a.id}/`)).status).toBe(200);

    expect((await call('PATCH', `${base()}/${a.id}/`, { deleted: true })).body.deleted).toBe(true);
    expect((await call('GET', `${base()}/${a.id}/`)).status).toBe(404);
    expect((await list()).count).toBe(0);
    expect((await call('PATCH', `${base()}/${a.id}/`, { deleted: false })).body.deleted).toBe(false);
    expect((await list()).count).toBe(1);
    const log = (await t.services.repositories.activityLog.listForItem(alice.projectId, 'Annotation', String(a.id), { limit: 10, offset: 0 })).rows;
    expect(log.map((e) => e.activity)).toEqual(['restored', 'deleted', 'created']);
  });

  // test_annotation_can_be_filtered_by_scope
  it.each([
    ['organization', 'organization scoped', 1],
    ['project', 'project scoped', 1],
    ['insight', 'insight scoped', 1],
    ['dashboard_item', 'insight scoped', 1],
    ['dashboard', 'dashboard scoped', 1],
    [null, null, 4],
  ] as const)('filters by scope=%s', async (scope, expected, count) => {
    await clear();
    for (const [s, content] of [['organization', 'organization scoped'], ['project', 'project scoped'], ['dashboard_item', 'insight scoped'], ['dashboard', 'dashboard scoped']]) {
      await create({ content, scope: s });
    }
    const body = await list(scope ? `?scope=${scope}` : '');
    expect(body.results.length).toBe(count);
    if (count === 1) expect(body.results[0]!.content).toBe(expected);
  });

  it('filters by date range and scope, newest date_marker first (test_filter_annotations_for_session_replay_scenario)', async () => {
    await clear();
    const at = (minutes: number) => new Date(Date.UTC(2023, 0, 1, 10, minutes)).toISOString();
    await create({ date_marker: at(15), scope: 'project', content: 'Project annotation at 15min' });
    await create({ date_marker: at(30), scope: 'organization', content: 'Org annotation at 30min' });
    await create({ date_marker: at(45), scope: 'project', content: 'Project annotation at 45min' });
    await create({ date_marker: at(-30), scope: 'project', content: 'Before session' });
    await create({ date_marker: at(90), scope: 'organization', content: 'After session' });
    const range = `date_from=${encodeURIComponent('2023-01-01T10:00:00+00:00')}&date_to=${encodeURIComponent('2023-01-01T11:00:00+00:00')}`;
    expect((await list(`?${range}`)).results.map((a) => a.content)).toEqual([
      'Project annotation at 45min',
      'Org annotation at 30min',
      'Project annotation at 15min',
    ]);
    expect((await list(`?${range}&scope=project`)).results.map((a) => a.content)).toEqual(['Project annotation at 45min', 'Project annotation at 15min']);
    expect((await list()).results.map((a) => a.content)).toEqual([
      'After session',
      'Project annotation at 45min',
      'Org annotation at 30min',
      'Project annotation at 15min',
      'Before session',
    ]);
  });

  // test_filter_annotations_by_date_range_and_scope
  it.each([
    ['project', true],
    ['organization', true],
    ['project', false],
    ['organization', false],
  ] as const)('a %s annotation inside the range: %s, is listed only then', async (scope, inRange) => {
    await clear();
    await create({ content: `Test annotation - ${scope} scope`, scope, date_marker: inRange ? '2023-01-01T10:30:00Z' : '2023-01-01T09:00:00Z' });
    const body = await list(`?date_from=2023-01-01T10:00:00%2B00:00&date_to=2023-01-01T11:00:00%2B00:00&scope=${scope}`);
    expect(body.results.map((a) => [a.content, a.scope])).toEqual(inRange ? [[`Test annotation - ${scope} scope`, scope]] : []);
  });

  it('searches the content (every word, any case) and pages with limit/offset (default limit 1000)', async () => {
    await clear();
    for (let i = 1; i <= 5; i++) await create({ content: `Release ${i} of the app`, scope: 'project', date_marker: `2024-0${i}-01T00:00:00Z` });
    await create({ content: 'pricing change', scope: 'project', date_marker: '2024-06-01T00:00:00Z' });
    expect((await list('?search=release')).count).toBe(5);
    expect((await list('?search=RELEASE%203')).results.map((a) => a.content)).toEqual(['Release 3 of the app']);
    expect((await list('?search=pricing')).results.map((a) => a.content)).toEqual(['pricing change']);
    const page = await list('?limit=2&offset=2');
    expect(page.count).toBe(6);
    expect(page.results.map((a) => a.content)).toEqual(['Release 4 of the app', 'Release 3 of the app']);
    expect(page.next).toMatch(/limit=2&offset=4/);
  });

  it('links an insight and a dashboard of the project, with their names; hidden when they are deleted', async () => {
    await clear();
    const insight = (await call('POST', `/api/projects/${alice.projectId}/insights/`, { name: 'Signups', saved: true })).body;
    const dashboard = (await call('POST', `/api/projects/${alice.projectId}/dashboards/`, { name: 'Growth' })).body;
    const onInsight = await create({ content: 'on the insight', scope: 'dashboard_item', dashboard_item: insight.id });
    expect(onInsight).toMatchObject({ dashboard_item: insight.id, insight_short_id: insight.short_id, insight_name: 'Signups' });
    const onBoard = await create({ content: 'on the board', scope: 'dashboard', dashboard_id: dashboard.id });
    expect(onBoard).toMatchObject({ dashboard_id: dashboard.id, dashboard_name: 'Growth' });
    expect((await list()).count).toBe(2);
    await call('PATCH', `/api/projects/${alice.projectId}/insights/${insight.id}/`, { deleted: true });
    await call('PATCH', `/api/projects/${alice.projectId}/dashboards/${dashboard.id}/`, { deleted: true });
    expect((await list()).count).toBe(0);
    expect((await call('GET', `${base()}/${onInsight.id}/`)).status).toBe(404);
  });

  it.each([
    [{ content: 'x'.repeat(401) }, { attr: 'content', code: 'max_length', detail: 'Ensure this field has no more than 400 characters.' }],
    [{ scope: 'galaxy' }, { attr: 'scope', code: 'invalid_choice', detail: '"galaxy" is not a valid choice.' }],
    [{ scope: 'recording' }, { attr: null, code: 'invalid_input', detail: 'Recording scope is deprecated' }],
    [{ creation_type: 'BOT' }, { attr: 'creation_type', code: 'invalid_choice', detail: '"BOT" is not a valid choice.' }],
    [{ date_marker: 'yesterday' }, { attr: 'date_marker', code: 'invalid', detail: 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].' }],
    [{ dashboard_id: 999999 }, { attr: 'dashboard_id', code: 'invalid_input', detail: 'Dashboard not found.' }],
    [{ dashboard_item: 999999 }, { attr: 'dashboard_item', code: 'does_not_exist', detail: 'Invalid pk "999999" - object does not exist.' }],
  ])('400 in PostHog error body for %j', async (payload, error) => {
    const res = await call('POST', `${base()}/`, { content: 'c', ...payload });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ type: 'validation_error', ...error });
  });

  it.each([
    ['?scope=invalid_scope', 'Invalid scope: invalid_scope'],
    ['?date_from=invalid_date&date_to=2024-01-01T11:00:00Z', 'Invalid date range: date_from must be a valid ISO 8601 date'],
    ['?date_from=2024-01-01T11:00:00Z&date_to=invalid_date', 'Invalid date range: date_to must be a valid ISO 8601 date'],
    ['?date_from=2024-01-01T11:00:00Z&date_to=2024-01-01T10:00:00Z', 'Invalid date range: date_from must be before date_to'],
  ])('list %s is 400 (test_filter_annotations_400_for_invalid_scope / _date_range)', async (query, detail) => {
    const res = await call('GET', `${base()}/${query}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(detail);
  });

  it('is served under /api/environments/ too', async () => {
    const a = await create({ content: 'env path', scope: 'project' });
    expect((await call('GET', `/api/environments/${alice.projectId}/annotations/${a.id}/`)).body.content).toBe('env path');
    const patched = await call('PATCH', `/api/environments/${alice.projectId}/annotations/${a.id}/`, { content: 'env patched' });
    expect(patched.body.content).toBe('env patched');
    expect((await call('POST', `/api/environments/${alice.projectId}/annotations/`, { content: 'made here' })).status).toBe(201);
  });

  it('needs annotation:write to write and annotation:read to read', async () => {
    const a = await create({ content: 'scoped', scope: 'project' });
    const readKey = await t.key('alice@example.com', ['annotation:read']);
    const post = await call('POST', `${base()}/`, { content: 'no' }, readKey);
    expect(post.status).toBe(403);
    expect(post.body.detail).toBe("API key missing required scope 'annotation:write'");
    expect((await call('PATCH', `${base()}/${a.id}/`, { content: 'no' }, readKey)).status).toBe(403);
    expect((await call('GET', `${base()}/${a.id}/`, undefined, readKey)).status).toBe(200);
    const otherKey = await t.key('alice@example.com', ['insight:read']);
    expect((await call('GET', `${base()}/`, undefined, otherKey)).status).toBe(403);
  });

  it("another organization's annotations, organization scope included, can be neither read nor changed (test_cannot_fetch_annotations_of_org_user_does_not_belong_to)", async () => {
    await clear();
    const secret = await create({ content: 'Intra-project annotation!', scope: 'project' }, bob.projectId, bob.key);
    const orgWide = await create({ content: 'Cross-project annotation!', scope: 'organization' }, bob.projectId, bob.key);
    for (const request of [
      ['GET', `${base(bob.projectId)}/`],
      ['POST', `${base(bob.projectId)}/`, { content: 'intruder' }],
      ['GET', `${base(bob.projectId)}/${secret.id}/`],
      ['PATCH', `${base(bob.projectId)}/${secret.id}/`, { deleted: true }],
      ['GET', `${base()}/${orgWide.id}/`],
      ['PATCH', `${base()}/${orgWide.id}/`, { content: 'stolen' }],
      ['PATCH', `${base()}/${secret.id}/`, { content: 'stolen' }],
    ] as const) {
      const res = await call(request[0], request[1], request[2]);
      expect(res.status, `${request[0]} ${request[1]}`).toBe(404);
    }
    expect((await list()).results).toEqual([]);
    const bobs = (await call('GET', `${base(bob.projectId)}/`, undefined, bob.key)).body.results as Body[];
    expect(bobs.map((a) => a.content).sort()).toEqual(['Cross-project annotation!', 'Intra-project annotation!']);
  });
});

describe.each(META_STORES)('annotations across organizations on %s (repositories)', (store) => {
  it('reads and changes nothing of another organization through a project', async () => {
    const two = await openTwoOrganizations(store);
    try {
      const { repos, alice, bob } = two;
      const now = new Date().toISOString();
      const row = { content: 'Bob', date_marker: now, creation_type: 'USR', dashboard_item: null, dashboard_id: null, created_by: null, created_at: now, updated_at: now, deleted: 0 };
      const bobsOrgWide = await repos.annotations.insert({ ...row, organization_id: bob.organization_id, team_id: bob.project_id, scope: 'organization' });
      const bobsOwn = await repos.annotations.insert({ ...row, organization_id: bob.organization_id, team_id: bob.project_id, scope: 'project' });
      const aliceReach = { teamId: alice.project_id, organizationId: alice.organization_id };
      expect((await repos.annotations.list(aliceReach, {}, { limit: 100, offset: 0 })).count).toBe(0);
      for (const a of [bobsOrgWide, bobsOwn]) {
        expect(await repos.annotations.find(aliceReach, a.id, true)).toBeUndefined();
        await repos.annotations.update(aliceReach, a.id, { content: 'stolen', team_id: alice.project_id });
      }
      const bobReach = { teamId: bob.project_id, organizationId: bob.organization_id };
      expect((await repos.annotations.list(bobReach, {}, { limit: 100, offset: 0 })).rows.map((r) => [r.content, r.team_id])).toEqual([
        ['Bob', bob.project_id],
        ['Bob', bob.project_id],
      ]);
    } finally {
      await two.close();
    }
  });
});
