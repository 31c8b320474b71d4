// The insight resource as a client sees it: every field, short ids, list filters and pages, the
// material-change rule, soft delete and restore, DELETE refused, tags, views, activity and CSV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MembershipLevel } from '../../src/core/auth/principal.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { parseCsv, records as csvRecords } from '../helpers/csv.js';
import { META_STORES } from '../helpers/stores.js';

const QUERY = {
  kind: 'InsightVizNode',
  source: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview', name: '$pageview' }], dateRange: { date_from: '-7d' }, trendsFilter: { display: 'ActionsLineGraph' } },
  full: true,
};


describe.each(META_STORES)('Insights API on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bobKey: string;
  let bobId: number;
  const base = (c: Credentials = alice) => `/api/projects/${c.projectId}/insights/`;
  let counter = 0;

  const create = async (payload: Record<string, unknown> = {}, key = alice.key) => {
    const res = await t.request(key, { method: 'POST', url: base(), payload: { name: `insight ${++counter}`, query: QUERY, ...payload } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const patch = async (id: number | string, payload: Record<string, unknown>, key = alice.key) => {
    const res = await t.request(key, { method: 'PATCH', url: `${base()}${id}/`, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const list = async (params = '') => {
    const res = await t.request(alice.key, { method: 'GET', url: `${base()}${params}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const activity = async (id: number) => (await t.request(alice.key, { method: 'GET', url: `${base()}${id}/activity/` })).json();

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    // Bob works in Alice's organization.
    await t.addMember(alice.organizationId, 'bob@example.com', MembershipLevel.member);
    bobKey = await t.key('bob@example.com', ['*']);
    bobId = (await t.services.repositories.users.findByEmail('bob@example.com'))!.id;
  });
  afterAll(() => t.close());

  it("creates an insight with every field of PostHog's serializer, the query kept as sent", async () => {
    const res = await t.request(alice.key, {
      method: 'POST',
      url: base(),
      payload: { name: 'Pageviews', derived_name: 'Pageview count', description: 'weekly', query: QUERY, order: 3, tags: [' Growth ', 'growth', 'KPI'], favorited: true, saved: true },
    });
    expect(res.statusCode).toBe(201);
    const insight = res.json();
    const user = { id: alice.userId, uuid: expect.any(String), distinct_id: expect.any(String), first_name: 'alice', last_name: '', email: 'alice@example.com', is_email_verified: false, hedgehog_config: null };
    expect(insight).toEqual({
      id: expect.any(Number),
      short_id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      name: 'Pageviews',
      derived_name: 'Pageview count',
      filters: {},
      query: QUERY,
      order: 3,
      deleted: false,
      dashboards: [],
      dashboard_tiles: [],
      last_refresh: null,
      cache_target_age: null,
      next_allowed_client_refresh: null,
      result: null,
      hasMore: null,
      columns: null,
      created_at: expect.any(String),
      created_by: user,
      description: 'weekly',
      updated_at: insight.created_at,
      tags: ['growth', 'kpi'],
      favorited: true,
      saved: true,
      last_modified_at: insight.created_at,
      last_modified_by: user,
      is_sample: false,
      effective_restriction_level: 21,
      effective_privilege_level: 37,
      user_access_level: 'manager',
      timezone: 'UTC',
      is_cached: false,
      query_status: null,
      hogql: null,
      types: null,
      resolved_date_range: null,
      alerts: [],
      last_viewed_at: insight.created_at,
    });
    expect(Date.parse(insight.created_at)).not.toBeNaN();
    // Defaults of a bare create.
    const bare = await t.request(alice.key, { method: 'POST', url: base(), payload: {} });
    expect(bare.statusCode).toBe(201);
    expect(bare.json()).toMatchObject({ name: null, description: null, filters: {}, query: null, tags: [], favorited: false, saved: false, deleted: false, order: null });
  });

  it('ignores read-only fields on create and update', async () => {
    const insight = await create({ id: 99_999, created_by: bobId, is_sample: true, last_refresh: '2020-01-01T00:00:00Z', result: [1], timezone: 'Asia/Tokyo', effective_privilege_level: 0, created_at: '2001-01-01T00:00:00Z' });
    expect(insight.id).not.toBe(99_999);
    expect(insight).toMatchObject({ is_sample: false, last_refresh: null, result: null, timezone: 'UTC', effective_privilege_level: 37 });
    expect(insight.created_by.id).toBe(alice.userId);
    expect(insight.created_at).not.toBe('2001-01-01T00:00:00Z');
    const updated = await patch(insight.id, { short_id: 'CHANGED1', created_by: bobId, updated_at: '2001-01-01T00:00:00Z' });
    expect(updated.short_id).toBe(insight.short_id);
    expect(updated.created_by.id).toBe(alice.userId);
  });

  it('gives unique short ids, takes a client-chosen one once, and finds insights by id or short_id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) ids.add((await create()).short_id);
    expect(ids.size).toBe(30);
    const chosen = await create({ short_id: 'MyShort1' });
    expect(chosen.short_id).toBe('MyShort1');
    const duplicate = await t.request(alice.key, { method: 'POST', url: base(), payload: { short_id: 'MyShort1' } });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json()).toMatchObject({ type: 'validation_error', code: 'unique', attr: 'short_id' });
    for (const key of [String(chosen.id), 'MyShort1']) {
      const res = await t.request(alice.key, { method: 'GET', url: `${base()}${key}/` });
      expect(res.statusCode, key).toBe(200);
      expect(res.json().id).toBe(chosen.id);
    }
    // A numeric short id that is no insight's id is found as a short id.
    const numeric = await create({ short_id: '77777777' });
    expect((await t.request(alice.key, { method: 'GET', url: `${base()}77777777/` })).json().id).toBe(numeric.id);
    expect((await t.request(alice.key, { method: 'GET', url: `${base()}nosuchid/` })).statusCode).toBe(404);
    expect((await list(`?short_id=MyShort1`)).results.map((i: { id: number }) => i.id)).toEqual([chosen.id]);
  });

  it('filters the list by creator, saved, favorited, search and tags, and pages it', async () => {
    const marker = `zebra${Date.now()}`;
    const mine = await create({ name: `${marker} one`, saved: true, favorited: true, tags: ['alpha'] });
    const described = await create({ name: 'plain', description: `about ${marker.toUpperCase()}`, saved: false });
    const derived = await create({ name: null, derived_name: `${marker} derived` });
    const tagged = await create({ name: 'tagged', tags: [marker] });
    const bobs = await create({ name: `${marker} bob`, saved: true }, bobKey);

    const ids = (body: { results: { id: number }[] }) => body.results.map((i) => i.id).sort((a, b) => a - b);
    expect(ids(await list(`?search=${marker}`))).toEqual([mine.id, described.id, derived.id, tagged.id, bobs.id].sort((a, b) => a - b));
    expect(ids(await list(`?search=${marker}&created_by=[${bobId}]`))).toEqual([bobs.id]);
    expect(ids(await list(`?search=${marker}&created_by=${bobId}`))).toEqual([bobs.id]);
    expect(ids(await list(`?search=${marker}&saved=true`))).toEqual([mine.id, bobs.id].sort((a, b) => a - b));
    expect(ids(await list(`?search=${marker}&saved=false`))).toEqual([described.id, derived.id, tagged.id].sort((a, b) => a - b));
    expect(ids(await list(`?search=${marker}&favorited=true`))).toEqual([mine.id]);
    expect(ids(await list(`?tags=${encodeURIComponent(JSON.stringify([marker, 'alpha']))}`))).toEqual([mine.id, tagged.id].sort((a, b) => a - b));
    expect(ids(await list(`?search=${marker}&user=true`))).toEqual([mine.id, described.id, derived.id, tagged.id].sort((a, b) => a - b));
    // A LIKE wildcard in the search or a tag is a literal character.
    expect((await list('?search=%25%25%25_')).count).toBe(0);
    const underscored = await create({ tags: [`${marker}_x`] });
    const lookalike = await create({ tags: [`${marker}yx`] });
    expect(ids(await list(`?tags=${encodeURIComponent(JSON.stringify([`${marker}_x`]))}`))).toEqual([underscored.id]);
    expect(ids(await list(`?search=${marker}_`))).toEqual([underscored.id]);
    for (const extra of [underscored, lookalike]) await patch(extra.id, { deleted: true });

    const firstPage = await list(`?search=${marker}&limit=2&order=-id`);
    expect(firstPage.count).toBe(5);
    expect(firstPage.results.map((i: { id: number }) => i.id)).toEqual([bobs.id, tagged.id]);
    expect(firstPage.next).toContain('offset=2');
    expect(firstPage.previous).toBeNull();
    const secondPage = (await t.request(alice.key, { method: 'GET', url: firstPage.next })).json();
    expect(secondPage.results.map((i: { id: number }) => i.id)).toEqual([derived.id, described.id]);
    expect(secondPage.previous).not.toBeNull();

    const basic = await list(`?search=${marker}&basic=true&limit=1`);
    expect(Object.keys(basic.results[0]).sort()).toEqual(
      ['id', 'short_id', 'name', 'derived_name', 'favorited', 'filters', 'query', 'dashboards', 'dashboard_tiles', 'description', 'last_refresh', 'refreshing', 'saved', 'updated_at', 'created_by', 'created_at', 'last_modified_at', 'tags', 'user_access_level', 'last_viewed_at'].sort(),
    );
    const badOrder = await t.request(alice.key, { method: 'GET', url: `${base()}?order=password` });
    expect(badOrder.statusCode).toBe(400);
    expect(badOrder.json().attr).toBe('order');
  });

  it('marks an insight modified only when name, description, filters or query are sent', async () => {
    const insight = await create();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const favorited = await patch(insight.id, { favorited: true }, bobKey);
    expect(favorited.last_modified_at).toBe(insight.last_modified_at);
    expect(favorited.last_modified_by.id).toBe(alice.userId);
    expect(Date.parse(favorited.updated_at)).toBeGreaterThan(Date.parse(insight.updated_at));
    // Any update saves the insight unless it says otherwise (PostHog's rule).
    expect(favorited.saved).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Sending the same name still counts: PostHog looks at which keys are present.
    const renamed = await patch(insight.id, { name: insight.name }, bobKey);
    expect(Date.parse(renamed.last_modified_at)).toBeGreaterThan(Date.parse(insight.last_modified_at));
    expect(renamed.last_modified_by.id).toBe(bobId);
    expect(renamed.created_by.id).toBe(alice.userId);
    expect(renamed.user_access_level).toBe('editor');
    expect((await t.request(alice.key, { method: 'GET', url: `${base()}${insight.id}/` })).json().user_access_level).toBe('manager');
    const asBob = (await t.request(bobKey, { method: 'GET', url: `${base()}${insight.id}/` })).json();
    expect(asBob.user_access_level).toBe('editor');
  });

  it('soft-deletes with PATCH, restores with PATCH, and refuses DELETE with an empty 405', async () => {
    const insight = await create({ name: 'to delete' });
    const refused = await t.request(alice.key, { method: 'DELETE', url: `${base()}${insight.id}/` });
    expect(refused.statusCode).toBe(405);
    expect(refused.body).toBe('');
    expect((await t.request(alice.key, { method: 'GET', url: `${base()}${insight.id}/` })).statusCode).toBe(200);

    const deleted = await patch(insight.id, { deleted: true });
    expect(deleted.deleted).toBe(true);
    expect((await t.request(alice.key, { method: 'GET', url: `${base()}${insight.id}/` })).statusCode).toBe(404);
    expect((await t.request(alice.key, { method: 'GET', url: `${base()}${insight.short_id}/` })).statusCode).toBe(404);
    expect((await list(`?short_id=${insight.short_id}`)).count).toBe(0);
    expect((await t.request(alice.key, { method: 'PATCH', url: `${base()}${insight.id}/`, payload: { name: 'x' } })).statusCode).toBe(404);
    expect((await t.request(alice.key, { method: 'DELETE', url: `${base()}${insight.id}/` })).statusCode).toBe(404);

    const restored = await patch(insight.id, { deleted: false });
    expect(restored).toMatchObject({ deleted: false, name: 'to delete' });
    expect((await t.request(alice.key, { method: 'GET', url: `${base()}${insight.id}/` })).statusCode).toBe(200);
    const entries = (await activity(insight.id)).results;
    expect(entries.map((e: { activity: string }) => e.activity)).toEqual(['restored', 'deleted', 'created']);
    expect(entries[0].detail.changes).toEqual([{ type: 'Insight', action: 'changed', field: 'deleted', before: true, after: false }]);
    expect(entries[1].detail.changes).toContainEqual({ type: 'Insight', action: 'changed', field: 'deleted', before: false, after: true });
  });

  it('logs activity with field-level changes, per insight and for the project, paginated', async () => {
    const insight = await create({ name: 'before', tags: ['a'] });
    await patch(insight.id, { name: 'after', tags: ['a', 'b'], description: 'new' });
    const page = await activity(insight.id);
    expect(page.total_count).toBe(2);
    const [updated, created] = page.results;
    expect(created).toMatchObject({ activity: 'created', scope: 'Insight', item_id: String(insight.id), detail: { changes: null, name: 'before', short_id: insight.short_id } });
    expect(updated).toMatchObject({ activity: 'updated', user: { first_name: 'alice', email: 'alice@example.com' }, detail: { name: 'after', short_id: insight.short_id } });
    expect(updated.detail.changes).toEqual(expect.arrayContaining([
      { type: 'Insight', action: 'changed', field: 'name', before: 'before', after: 'after' },
      { type: 'Insight', action: 'created', field: 'description', before: null, after: 'new' },
      { type: 'Insight', action: 'changed', field: 'tags', before: ['a'], after: ['a', 'b'] },
    ]));
    const projectWide = (await t.request(alice.key, { method: 'GET', url: `${base()}activity/?limit=2` })).json();
    expect(projectWide.results).toHaveLength(2);
    expect(projectWide.total_count).toBeGreaterThan(2);
    expect(projectWide.next).toContain('page=2');
    expect(projectWide.results[0]).toMatchObject({ activity: 'updated', item_id: String(insight.id) });
  });

  it('records views and lists the last five viewed, newest first, never deleted ones', async () => {
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await create());
    const viewed = await t.request(bobKey, { method: 'POST', url: `${base()}viewed/`, payload: { insight_ids: made.map((i) => i.id).slice(0, 6) } });
    expect(viewed.statusCode).toBe(201);
    expect(viewed.body).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const one = await t.request(bobKey, { method: 'POST', url: `${base()}${made[6].id}/viewed/` });
    expect(one.statusCode).toBe(200);
    expect(one.body).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await t.request(bobKey, { method: 'POST', url: `${base()}viewed/`, payload: { insight_ids: [made[1].id, 987_654] } });
    await patch(made[6].id, { deleted: true });
    const last = (await t.request(bobKey, { method: 'GET', url: `${base()}my_last_viewed/` })).json();
    expect(last).toHaveLength(5);
    expect(last[0].id).toBe(made[1].id);
    expect(last.map((i: { id: number }) => i.id)).not.toContain(made[6].id);
    expect(last[0]).not.toHaveProperty('result');
    expect(Date.parse(last[0].last_viewed_at)).toBeGreaterThan(Date.parse(last[1].last_viewed_at) - 1);
    // Alice's own views are hers: she sees what she created, not Bob's list.
    const alices = (await t.request(alice.key, { method: 'GET', url: `${base()}my_last_viewed/` })).json();
    expect(alices[0].id).not.toBe(made[1].id);
    for (const payload of [{ insight_ids: [] }, { insight_ids: Array.from({ length: 2501 }, (_, i) => i + 1) }, {}, { insight_ids: ['x'] }]) {
      const res = await t.request(bobKey, { method: 'POST', url: `${base()}viewed/`, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().attr).toMatch(/^insight_ids/);
    }
  });

  it('answers format=csv with the flattened insight and list, and results.csv per series', async () => {
    const insight = await create({ name: 'Comma, "quoted"', tags: ['x'] });
    const one = await t.request(alice.key, { method: 'GET', url: `${base()}${insight.id}/?format=csv` });
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [record] = csvRecords(one.body);
    expect(record).toMatchObject({ id: String(insight.id), name: 'Comma, "quoted"', short_id: insight.short_id, 'tags.0': 'x', 'query.source.series.0.event': '$pageview', 'created_by.email': 'alice@example.com', result: '' });
    const header = parseCsv(one.body)[0]!;
    expect(header).toEqual([...header].sort());
    const suffix = await t.request(alice.key, { method: 'GET', url: `${base()}${insight.id}.csv` });
    expect(suffix.body).toBe(one.body);
    const listed = await t.request(alice.key, { method: 'GET', url: `${base()}?format=csv&short_id=${insight.short_id}` });
    expect(csvRecords(listed.body)[0]).toMatchObject({ count: '1', 'results.0.name': 'Comma, "quoted"', next: '' });
    expect((await t.request(alice.key, { method: 'GET', url: `${base()}?format=xml` })).statusCode).toBe(404);
  });

  it('serves environments paths and @current like project paths', async () => {
    const created = await t.request(alice.key, { method: 'POST', url: `/api/environments/${alice.projectId}/insights/`, payload: { name: 'env insight' } });
    expect(created.statusCode).toBe(201);
    for (const url of [`/api/environments/${alice.projectId}/insights/${created.json().id}/`, `/api/projects/@current/insights/${created.json().short_id}/`]) {
      const res = await t.request(alice.key, { method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json().name).toBe('env insight');
    }
    const listed = await t.request(alice.key, { method: 'GET', url: `/api/environments/@current/insights/?short_id=${created.json().short_id}` });
    expect(listed.json().count).toBe(1);
  });

  it('checks the query it stores: calculated kinds must be valid, other kinds are kept as sent', async () => {
    const bad = await t.request(alice.key, { method: 'POST', url: base(), payload: { query: { kind: 'InsightVizNode', source: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'x', math: 'bogus' }] } } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ type: 'validation_error', code: 'invalid_choice', attr: 'query.series[0].math' });
    const unknown = await t.request(alice.key, { method: 'POST', url: base(), payload: { query: { kind: 'MadeUpQuery' } } });
    expect(unknown.json()).toMatchObject({ type: 'validation_error', attr: 'query' });
    const sql = { kind: 'DataVisualizationNode', source: { kind: 'HogQLQuery', query: 'select 1' }, display: 'BoldNumber' };
    const kept = await create({ query: sql });
    expect(kept.query).toEqual(sql);
    const badFilters = await t.request(alice.key, { method: 'POST', url: base(), payload: { filters: { insight: 'TRENDS', events: [{ id: '$pageview', math: 'bogus' }] } } });
    expect(badFilters.statusCode).toBe(400);
    const longName = await t.request(alice.key, { method: 'POST', url: base(), payload: { name: 'x'.repeat(401) } });
    expect(longName.json()).toMatchObject({ type: 'validation_error', attr: 'name' });
  });
});
