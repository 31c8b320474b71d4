import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { createAccountServices } from '../../src/services.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';

interface Endpoint {
  name: string;
  scope: string;
  request: (c: Credentials) => InjectOptions;
}

// Every authenticated endpoint with the scope it needs.
const ENDPOINTS: Endpoint[] = [
  { name: 'project list', scope: 'project:read', request: (c) => ({ method: 'GET', url: `/api/organizations/${c.organizationId}/projects/` }) },
  { name: 'project create', scope: 'project:write', request: (c) => ({ method: 'POST', url: `/api/organizations/${c.organizationId}/projects/`, payload: { name: `n${Math.random()}` } }) },
  { name: 'project retrieve', scope: 'project:read', request: (c) => ({ method: 'GET', url: `/api/organizations/${c.organizationId}/projects/${c.projectId}/` }) },
  { name: 'project update', scope: 'project:write', request: (c) => ({ method: 'PATCH', url: `/api/organizations/${c.organizationId}/projects/${c.projectId}/`, payload: { anonymize_ips: true } }) },
  { name: 'project activity', scope: 'activity_log:read', request: (c) => ({ method: 'GET', url: `/api/organizations/${c.organizationId}/projects/${c.projectId}/activity/` }) },
  { name: 'project demo data', scope: 'project:read', request: (c) => ({ method: 'GET', url: `/api/organizations/${c.organizationId}/projects/${c.projectId}/is_generating_demo_data/` }) },
  { name: 'project reset_token', scope: 'project:write', request: (c) => ({ method: 'PATCH', url: `/api/organizations/${c.organizationId}/projects/${c.projectId}/reset_token/` }) },
  { name: 'project retrieve by id', scope: 'project:read', request: (c) => ({ method: 'GET', url: `/api/projects/${c.projectId}/` }) },
  { name: 'project update by id', scope: 'project:write', request: (c) => ({ method: 'PATCH', url: `/api/projects/${c.projectId}/`, payload: { anonymize_ips: false } }) },
  { name: 'users @me', scope: 'user:read', request: () => ({ method: 'GET', url: '/api/users/@me/' }) },
  { name: 'organization list', scope: 'organization:read', request: () => ({ method: 'GET', url: '/api/organizations/' }) },
  { name: 'organization retrieve', scope: 'organization:read', request: (c) => ({ method: 'GET', url: `/api/organizations/${c.organizationId}/` }) },
];

// A's objects, addressed by B: each must look as if it did not exist.
const FOREIGN_OBJECT_REQUESTS = ENDPOINTS.filter((e) => !['users @me', 'organization list'].includes(e.name));

describe.each(META_STORES)('authentication and authorization on %s', (store) => {
  let t: TestApp;
  let a: Credentials;
  let b: Credentials;

  beforeAll(async () => {
    t = await createTestApp(store);
    a = await t.bootstrap('a@example.com', { organization: 'A' });
    b = await t.bootstrap('b@example.com', { organization: 'B' });
  });
  afterAll(() => t.close());

  it('answers 401 not_authenticated without a key, with WWW-Authenticate', async () => {
    const res = await t.request(null, { method: 'GET', url: '/api/projects/' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.json()).toEqual({
      type: 'authentication_error',
      code: 'not_authenticated',
      detail: 'Authentication credentials were not provided.',
      attr: null,
    });
  });

  it('names where an invalid key came from', async () => {
    const header = await t.request('phx_not_a_real_key', { method: 'GET', url: '/api/projects/' });
    expect(header.statusCode).toBe(401);
    expect(header.json()).toEqual({
      type: 'authentication_error',
      code: 'authentication_failed',
      detail: 'Personal API key found in request Authorization header is invalid.',
      attr: null,
    });
    const query = await t.request(null, { method: 'GET', url: '/api/projects/?personal_api_key=phx_nope' });
    expect(query.json().detail).toBe('Personal API key found in request query string is invalid.');
    const body = await t.request(null, { method: 'POST', url: '/api/projects/', payload: { personal_api_key: 'phx_nope' } });
    expect(body.json().detail).toBe('Personal API key found in request body is invalid.');
  });

  it('accepts the key from the header (extra spaces tolerated), the query string or the body', async () => {
    const spaced = await t.app.inject({ method: 'GET', url: '/api/projects/', headers: { authorization: `Bearer    ${a.key}   ` } });
    expect(spaced.statusCode).toBe(200);
    const query = await t.request(null, { method: 'GET', url: `/api/projects/?personal_api_key=${a.key}` });
    expect(query.statusCode).toBe(200);
    const body = await t.request(null, {
      method: 'PATCH',
      url: `/api/projects/${a.projectId}/`,
      payload: { personal_api_key: a.key, name: 'Via body key' },
    });
    expect(body.statusCode).toBe(200);
    expect(body.json().name).toBe('Via body key');
  });

  it('uses only the first source holding a key', async () => {
    const res = await t.request('phx_wrong', { method: 'GET', url: `/api/projects/?personal_api_key=${a.key}` });
    expect(res.statusCode).toBe(401);
  });

  describe('scope matrix', () => {
    it.each(ENDPOINTS)('$name needs $scope', async ({ scope, request }) => {
      const [object] = scope.split(':');
      const unrelated = await t.key('a@example.com', [object === 'insight' ? 'dashboard:read' : 'insight:read']);
      const denied = await t.request(unrelated, request(a));
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({
        type: 'authentication_error',
        code: 'permission_denied',
        detail: `API key missing required scope '${scope}'`,
        attr: null,
      });

      if (scope.endsWith(':write')) {
        const readOnly = await t.key('a@example.com', [`${object}:read`]);
        expect((await t.request(readOnly, request(a))).statusCode).toBe(403);
      }
      const exact = await t.key('a@example.com', [scope]);
      expect((await t.request(exact, request(a))).statusCode).toBeLessThan(300);
      // write implies read, * implies everything
      const write = await t.key('a@example.com', [`${object}:write`]);
      expect((await t.request(write, request(a))).statusCode).toBeLessThan(300);
      const everything = await t.key('a@example.com', ['*']);
      expect((await t.request(everything, request(a))).statusCode).toBeLessThan(300);
    });

    it('an empty scope list grants nothing', async () => {
      const { key, value } = await t.services.accounts.createKey('a@example.com', ['project:read'], 'empty');
      await t.services.meta.db.updateTable('personal_api_keys').set({ scopes: '[]' }).where('id', '=', key.id).execute();
      for (const endpoint of ENDPOINTS) {
        const res = await t.request(value, endpoint.request(a));
        expect(res.statusCode, endpoint.name).toBe(403);
      }
    });

    it('personal_api_keys/@current works for any valid key and never shows the value', async () => {
      const narrow = await t.key('a@example.com', ['insight:read']);
      const res = await t.request(narrow, { method: 'GET', url: '/api/personal_api_keys/@current' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ value: null, scopes: ['insight:read'], label: 'test' });
      expect(res.json().mask_value).toBe(`${narrow.slice(0, 4)}...${narrow.slice(-4)}`);
      expect(JSON.stringify(res.json())).not.toContain(narrow);
    });
  });

  describe('tenant isolation', () => {
    it.each(FOREIGN_OBJECT_REQUESTS)("B's key gets 404 on A's $name", async ({ request }) => {
      const before = (await t.request(a.key, { method: 'GET', url: `/api/projects/${a.projectId}/` })).json();
      const res = await t.request(b.key, request(a));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
      const after = (await t.request(a.key, { method: 'GET', url: `/api/projects/${a.projectId}/` })).json();
      expect(after.api_token).toBe(before.api_token);
      expect(after.anonymize_ips).toBe(before.anonymize_ips);
    });

    it("B's project under A's organization path is not found either", async () => {
      const res = await t.request(a.key, { method: 'GET', url: `/api/organizations/${a.organizationId}/projects/${b.projectId}/` });
      expect(res.statusCode).toBe(404);
    });

    it("B's listings never show A's projects or organization", async () => {
      const projects = (await t.request(b.key, { method: 'GET', url: '/api/projects/?limit=1000' })).json();
      expect(projects.results.map((p: { organization: string }) => p.organization)).not.toContain(a.organizationId);
      const orgs = (await t.request(b.key, { method: 'GET', url: '/api/organizations/' })).json();
      expect(orgs.results.map((o: { id: string }) => o.id)).toEqual([b.organizationId]);
      const me = (await t.request(b.key, { method: 'GET', url: '/api/users/@me/' })).json();
      expect(me.organizations.map((o: { id: string }) => o.id)).toEqual([b.organizationId]);
    });

    it('a malformed organization or project id is simply not found', async () => {
      for (const url of ['/api/organizations/not-a-uuid/projects/', '/api/projects/abc/', '/api/projects/0/', '/api/projects/99999999999999/']) {
        expect((await t.request(a.key, { method: 'GET', url })).statusCode, url).toBe(404);
      }
    });
  });

  describe('key ceilings', () => {
    it('a team-scoped key reaches only its projects', async () => {
      const other = (await t.request(a.key, { method: 'POST', url: '/api/projects/', payload: { name: 'Other' } })).json();
      const scoped = await t.key('a@example.com', ['*'], { teams: [a.projectId] });
      expect((await t.request(scoped, { method: 'GET', url: `/api/projects/${a.projectId}/` })).statusCode).toBe(200);
      const denied = await t.request(scoped, { method: 'GET', url: `/api/projects/${other.id}/` });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().detail).toBe(`API key does not have access to the requested project: ID ${other.id}.`);
      const list = (await t.request(scoped, { method: 'GET', url: `/api/organizations/${a.organizationId}/projects/` })).json();
      expect(list.results.map((p: { id: number }) => p.id)).toEqual([a.projectId]);
    });

    it('an organization-scoped key reaches only those organizations', async () => {
      await t.addMember(b.organizationId, 'a@example.com', 8);
      const scoped = await t.key('a@example.com', ['*'], { organizations: [a.organizationId] });
      const orgs = (await t.request(scoped, { method: 'GET', url: '/api/organizations/' })).json();
      expect(orgs.results.map((o: { id: string }) => o.id)).toEqual([a.organizationId]);
      const denied = await t.request(scoped, { method: 'GET', url: `/api/organizations/${b.organizationId}/projects/` });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().detail).toBe(`API key does not have access to the requested organization: ID ${b.organizationId}`);
      const unscoped = await t.key('a@example.com', ['*']);
      expect((await t.request(unscoped, { method: 'GET', url: `/api/organizations/${b.organizationId}/projects/` })).statusCode).toBe(200);
    });
  });

  describe('revocation', () => {
    it('a key revoked in this process stops working at once', async () => {
      const { key, value } = await t.services.accounts.createKey('a@example.com', ['*'], 'short-lived');
      expect((await t.request(value, { method: 'GET', url: '/api/projects/' })).statusCode).toBe(200);
      expect(await t.services.accounts.revokeKey(key.id)).toBe(true);
      t.services.authenticator.invalidate();
      expect((await t.request(value, { method: 'GET', url: '/api/projects/' })).statusCode).toBe(401);
    });

    it('a key revoked by another process (the CLI) stops working within a second', async () => {
      const { key, value } = await t.services.accounts.createKey('a@example.com', ['*'], 'cli-revoked');
      expect((await t.request(value, { method: 'GET', url: '/api/projects/' })).statusCode).toBe(200);
      // A second, independent set of services over the same store, as `hoglet keys revoke` opens.
      const other = await createAccountServices(loadConfig({ dataDir: t.dataDir }, { ...(t.services.config.databaseUrl ? { DATABASE_URL: t.services.config.databaseUrl } : {}) }));
      try {
        expect(await other.accounts.revokeKey(key.id)).toBe(true);
      } finally {
        await other.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await t.request(value, { method: 'GET', url: '/api/projects/' })).statusCode).toBe(401);
    });

    it('records last_used_at on first use', async () => {
      const { key, value } = await t.services.accounts.createKey('a@example.com', ['*'], 'fresh');
      expect(key.last_used_at).toBeNull();
      await t.request(value, { method: 'GET', url: '/api/projects/' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const [stored] = (await t.services.accounts.listKeys('a@example.com')).filter((k) => k.id === key.id);
      expect(stored?.last_used_at).not.toBeNull();
    });
  });
});
