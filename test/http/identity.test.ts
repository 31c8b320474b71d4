import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MembershipLevel } from '../../src/core/auth/principal.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';

describe.each(META_STORES)('identity endpoints on %s', (store) => {
  let t: TestApp;
  let c: Credentials;

  beforeAll(async () => {
    t = await createTestApp(store);
    c = await t.bootstrap('ident@example.com', { organization: 'Ident Org' });
  });
  afterAll(() => t.close());

  it('users/@me describes the user, their current organization and project', async () => {
    const res = await t.request(c.key, { method: 'GET', url: '/api/users/@me/' });
    expect(res.statusCode).toBe(200);
    const me = res.json();
    expect(me).toMatchObject({
      id: c.userId,
      email: 'ident@example.com',
      first_name: 'ident',
      last_name: '',
      is_email_verified: false,
      hedgehog_config: null,
      team: { id: c.projectId, api_token: c.projectApiToken, name: 'Default project' },
      organization: { id: c.organizationId, name: 'Ident Org', membership_level: MembershipLevel.owner },
      organizations: [{ id: c.organizationId, name: 'Ident Org', membership_level: MembershipLevel.owner }],
    });
    expect(me.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof me.distinct_id).toBe('string');
  });

  it('lists and retrieves organizations with their projects', async () => {
    const list = (await t.request(c.key, { method: 'GET', url: '/api/organizations/' })).json();
    expect(list).toMatchObject({ count: 1, next: null, previous: null });
    const [org] = list.results;
    expect(org).toMatchObject({
      id: c.organizationId,
      name: 'Ident Org',
      slug: 'ident-org',
      membership_level: MembershipLevel.owner,
      member_count: 1,
      projects: [{ id: c.projectId, organization_id: c.organizationId, name: 'Default project' }],
    });
    expect(org.teams[0]).toMatchObject({ id: c.projectId, api_token: c.projectApiToken });
    const one = await t.request(c.key, { method: 'GET', url: `/api/organizations/${c.organizationId}/` });
    expect(one.json()).toEqual(org);
    const current = await t.request(c.key, { method: 'GET', url: '/api/organizations/@current/' });
    expect(current.json()).toEqual(org);
  });

  it('@current as project id is the project last created', async () => {
    const created = (await t.request(c.key, { method: 'POST', url: '/api/projects/', payload: { name: 'Newest' } })).json();
    const current = await t.request(c.key, { method: 'GET', url: '/api/projects/@current/' });
    expect(current.statusCode).toBe(200);
    expect(current.json().id).toBe(created.id);
  });

  it('personal_api_keys/@current describes the calling key', async () => {
    const res = await t.request(c.key, { method: 'GET', url: '/api/personal_api_keys/@current/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      label: 'bootstrap',
      value: null,
      scopes: ['*'],
      user_id: c.userId,
      scoped_teams: [],
      scoped_organizations: [],
    });
  });

  it('health, OpenAPI and its UI need no key', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/_health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok', capture: { set_aside_events: 0, set_aside_files: 0 } });
    const schema = await t.app.inject({ method: 'GET', url: '/api/schema/' });
    expect(schema.statusCode).toBe(200);
    const doc = schema.json();
    expect(doc.openapi).toMatch(/^3\./);
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/api/organizations/{organization_id}/projects/',
      '/api/organizations/{organization_id}/projects/{id}/',
      '/api/organizations/{organization_id}/projects/{id}/activity/',
      '/api/organizations/{organization_id}/projects/{id}/is_generating_demo_data/',
      '/api/organizations/{organization_id}/projects/{id}/reset_token/',
      '/api/users/@me/',
    ]) {
      expect(paths).toContain(path);
    }
    const create = doc.paths['/api/organizations/{organization_id}/projects/'].post;
    expect(Object.keys(create.requestBody.content['application/json'].schema.properties)).toContain('timezone');
    const ui = await t.app.inject({ method: 'GET', url: '/api/schema/swagger-ui/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });
});
