// PostHog's groups API (/groups_types/, /groups/ with cursor pages and search, /find/, /related/,
// /property_definitions/) over groups captured through /batch/, on every metadata store; another
// organization's key reads none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { postBatch } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const recent = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

describe.each(META_STORES)('groups API on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const get = async (url: string, who = alice) => {
    const res = await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}${url}` });
    return { status: res.statusCode, body: res.json() };
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    const identify = (type: string, key: string, set: object, at: string) =>
      ({ event: '$groupidentify', distinct_id: 'server', timestamp: at, properties: { $group_type: type, $group_key: key, $group_set: set } });
    const batch = [
      identify('organization', 'acme', { name: 'Acme', plan: 'paid' }, recent(50)),
      identify('organization', 'globex', { name: 'Globex', industry: 'energy' }, recent(40)),
      identify('project', 'acme-web', { name: 'Acme web' }, recent(30)),
      { event: '$pageview', distinct_id: 'u1', timestamp: recent(20), properties: { $groups: { organization: 'acme', project: 'acme-web' }, $set: { email: 'u1@acme.test' } } },
      { event: 'clicked', distinct_id: 'u2', timestamp: recent(19), properties: { $groups: { organization: 'acme' } } },
      { event: 'clicked', distinct_id: 'u3', timestamp: recent(18), properties: { $groups: { organization: 'globex' } } },
    ];
    const res = await postBatch(t, { api_key: alice.projectApiToken, batch });
    expect(res.statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  it('lists group types by index, with PostHog null display names', async () => {
    const { status, body } = await get('/groups_types/');
    expect(status).toBe(200);
    expect(body.map((g: any) => [g.group_type, g.group_type_index, g.name_singular, g.name_plural])).toEqual([['organization', 0, null, null], ['project', 1, null, null]]);
  });

  it('names group types with PATCH update_metadata (group:write), kept across a project PATCH; an unknown index is a 404', async () => {
    const patch = (payload: unknown, who = alice) => t.request(who.key, { method: 'PATCH', url: `/api/projects/${alice.projectId}/groups_types/update_metadata/`, payload: payload as object });
    const res = await patch([{ group_type_index: 0, name_singular: 'Company', name_plural: 'Companies' }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().map((g: any) => [g.group_type_index, g.name_singular, g.name_plural])).toEqual([[0, 'Company', 'Companies'], [1, null, null]]);
    expect((await t.request(alice.key, { method: 'PATCH', url: `/api/projects/${alice.projectId}/`, payload: { name: 'Renamed' } })).statusCode).toBe(200);
    expect((await get('/groups_types/')).body[0]).toMatchObject({ name_singular: 'Company', name_plural: 'Companies' });
    expect((await patch([{ group_type_index: 3, name_plural: 'x' }])).statusCode).toBe(404);
    expect((await patch([{ group_type_index: 0, name_plural: 'x' }], bob)).statusCode).toBe(404);
    const readOnly = await t.key('alice@example.com', ['group:read']);
    expect((await t.request(readOnly, { method: 'PATCH', url: `/api/projects/${alice.projectId}/groups_types/update_metadata/`, payload: [{ group_type_index: 0, name_plural: 'x' }] })).statusCode).toBe(403);
    await patch([{ group_type_index: 0, name_singular: null, name_plural: null }]);
  });

  it('lists the groups of a type newest first, searches key and properties, and needs the index', async () => {
    const list = await get('/groups/?group_type_index=0');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.results.map((g: any) => [g.group_key, g.group_properties])).toEqual([
      ['globex', { name: 'Globex', industry: 'energy' }],
      ['acme', { name: 'Acme', plan: 'paid' }],
    ]);
    expect(list.body.next).toBeNull();
    expect((await get('/groups/?group_type_index=0&search=energy')).body.results.map((g: any) => g.group_key)).toEqual(['globex']);
    expect((await get('/groups/?group_type_index=0&search=ACME')).body.results.map((g: any) => g.group_key)).toEqual(['acme']);
    const missing = await get('/groups/');
    expect(missing.status).toBe(400);
    expect(missing.body.attr).toBe('group_type_index');
  });

  it('finds one group by key (404 for an unknown one)', async () => {
    const found = await get('/groups/find/?group_type_index=1&group_key=acme-web');
    expect(found.body).toMatchObject({ group_type_index: 1, group_key: 'acme-web', group_properties: { name: 'Acme web' } });
    expect((await get('/groups/find/?group_type_index=1&group_key=nope')).status).toBe(404);
  });

  it("gives each type's property keys with counts, and a group's related persons and groups", async () => {
    expect((await get('/groups/property_definitions/')).body).toEqual({
      0: [{ name: 'name', count: 2 }, { name: 'industry', count: 1 }, { name: 'plan', count: 1 }],
      1: [{ name: 'name', count: 1 }],
    });
    const related = (await get('/groups/related/?group_type_index=0&id=acme')).body;
    const people = related.filter((a: any) => a.type === 'person');
    expect(people.map((p: any) => p.distinct_ids).sort()).toEqual([['u1'], ['u2']]);
    expect(related.filter((a: any) => a.type === 'group').map((g: any) => [g.group_type_index, g.group_key])).toEqual([[1, 'acme-web']]);
  });

  it("another organization's key sees none of it", async () => {
    for (const url of ['/groups_types/', '/groups/?group_type_index=0', '/groups/find/?group_type_index=0&group_key=acme', '/groups/related/?group_type_index=0&id=acme', '/groups/property_definitions/']) {
      const res = await t.request(bob.key, { method: 'GET', url: `/api/projects/${alice.projectId}${url}` });
      expect(res.statusCode, url).toBe(404);
    }
    expect((await get('/groups_types/', bob)).body).toEqual([]);
    expect((await get('/groups/?group_type_index=0', bob)).body.results).toEqual([]);
  });
});
