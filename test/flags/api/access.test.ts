// Who may use the flags API: feature_flag:read / :write scopes (403 without), activity under
// activity_log:read, and another organization's project is a 404 (test_get_feature_flag_activity_only_from_own_team).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { META_STORES } from '../../helpers/stores.js';
import { flagsClient } from './helpers.js';

describe.each(META_STORES)('feature flags API access on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  let flagId: number;
  const api = flagsClient({ request: (...args) => t.request(...args) } as TestApp, () => alice);
  const as = (key: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.request(key, { method, url: `/api/projects/${alice.projectId}/feature_flags/${url}`, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Org 1' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Org 2' });
    flagId = (await api.create({ key: 'team-1-flag-1' })).id;
  });
  afterAll(async () => t?.close());

  it('feature_flag:read reads but does not write; feature_flag:write does both', async () => {
    const reader = await t.key('alice@example.com', ['feature_flag:read']);
    expect((await as(reader, 'GET', '')).statusCode).toBe(200);
    expect((await as(reader, 'GET', `${flagId}/`)).statusCode).toBe(200);
    const refused = await as(reader, 'POST', '', { key: 'nope' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ type: 'authentication_error', code: 'permission_denied' });
    expect((await as(reader, 'PATCH', `${flagId}/`, { name: 'x' })).statusCode).toBe(403);
    const writer = await t.key('alice@example.com', ['feature_flag:write']);
    expect((await as(writer, 'POST', '', { key: 'written' })).statusCode).toBe(201);
    expect((await as(writer, 'GET', '')).statusCode).toBe(200);
    const other = await t.key('alice@example.com', ['insight:read']);
    expect((await as(other, 'GET', '')).statusCode).toBe(403);
    expect((await as(other, 'GET', 'activity/')).statusCode).toBe(403);
    const activityReader = await t.key('alice@example.com', ['activity_log:read']);
    expect((await as(activityReader, 'GET', `${flagId}/activity/`)).statusCode).toBe(200);
  });

  it("another organization's project and flags are 404", async () => {
    const bobsFlag = await api.create({ key: 'team-2-flag-1' }, bob);
    for (const url of ['', `${flagId}/`, `${flagId}/activity/`, 'activity/']) {
      expect((await t.request(bob.key, { method: 'GET', url: `/api/projects/${alice.projectId}/feature_flags/${url}` })).statusCode).toBe(404);
    }
    expect((await t.request(bob.key, { method: 'PATCH', url: `/api/projects/${alice.projectId}/feature_flags/${flagId}/`, payload: { name: 'x' } })).statusCode).toBe(404);
    // Bob's flag id under Alice's project is not found either.
    expect((await api.get(`${bobsFlag.id}/`)).status).toBe(404);
    expect((await api.get(`${bobsFlag.id}/activity/`)).status).toBe(404);
    expect((await api.patch(bobsFlag.id, { name: 'stolen' })).status).toBe(404);
    expect((await api.get(`${bobsFlag.id}/`, bob)).body.name).toBe('');
    expect((await api.get('abc/')).status).toBe(404);
  });

  it('the OpenAPI document lists the routes', async () => {
    const res = await t.request(null, { method: 'GET', url: '/api/schema/' });
    const paths = Object.keys(res.json().paths);
    for (const path of ['/api/projects/{project_id}/feature_flags/', '/api/projects/{project_id}/feature_flags/{id}/', '/api/environments/{project_id}/feature_flags/{id}/activity/']) {
      expect(paths).toContain(path);
    }
  });
});
