// Review of issue 31's people and access routes as an attacker would use them: a key limited to
// projects reaching organization views (members, invites), lists in a key's ceilings sized to
// stall the server, guessing the current password through PATCH /api/users/@me/, and a list where
// set_current_team takes a string or a number.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MembershipLevel } from '../../src/core/auth/principal.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';

const PASSWORD = 'correct horse battery';
const PROJECT_SCOPED = 'API key with scoped projects are only supported on project-based views.';

interface Browser {
  session: string;
  csrf: string;
}

const cookie = (response: LightMyRequestResponse, name: string) => response.cookies.find((c) => c.name === name)?.value;

describe.each(META_STORES)('people routes under attack on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;

  const signIn = async (email: string): Promise<Browser> => {
    const response = await t.app.inject({ method: 'POST', url: '/api/login/', payload: { email, password: PASSWORD } });
    expect(response.statusCode, response.body).toBe(200);
    return { session: cookie(response, 'sessionid')!, csrf: cookie(response, 'csrftoken')! };
  };
  const as = (browser: Browser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, cookies: { sessionid: browser.session, csrftoken: browser.csrf }, headers: { 'x-csrftoken': browser.csrf }, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'A' });
    bob = await t.bootstrap('bob@example.com', { organization: 'B' });
    // Alice administers B too, but her project key is limited to A's project.
    await t.addMember(bob.organizationId, alice.email, MembershipLevel.admin);
    await t.services.accounts.setPassword(alice.email, PASSWORD);
  });
  afterAll(() => t.close());

  it("a key limited to projects is refused on organization views (PostHog's APIScopePermission), its own organization's and others'", async () => {
    const projectKey = await t.key(alice.email, ['*'], { teams: [alice.projectId] });
    const bobUuid = (await t.services.repositories.users.findById(bob.userId))!.uuid;
    for (const organization of [bob.organizationId, alice.organizationId, '@current']) {
      const base = `/api/organizations/${organization}`;
      const attempts = [
        { method: 'GET', url: `${base}/members/` },
        { method: 'PATCH', url: `${base}/members/${bobUuid}/`, payload: { level: MembershipLevel.member } },
        { method: 'GET', url: `${base}/members/${bobUuid}/scoped_api_keys/` },
        { method: 'DELETE', url: `${base}/members/${bobUuid}/` },
        { method: 'GET', url: `${base}/invites/` },
        { method: 'POST', url: `${base}/invites/`, payload: { target_email: 'mallory@example.com', level: MembershipLevel.admin } },
        { method: 'POST', url: `${base}/invites/bulk/`, payload: [{ target_email: 'mallory@example.com' }] },
      ] as const;
      for (const attempt of attempts) {
        const res = await t.request(projectKey, attempt);
        expect(res.statusCode, `${attempt.method} ${attempt.url}: ${res.body}`).toBe(403);
        expect(res.json()).toEqual({ type: 'authentication_error', code: 'permission_denied', detail: PROJECT_SCOPED, attr: null });
      }
    }
    // Nothing was changed or made.
    expect((await t.services.repositories.members.findByUserId(bob.organizationId, bob.userId))?.level).toBe(MembershipLevel.owner);
    expect(await t.services.repositories.invites.list(bob.organizationId)).toEqual([]);
    // A key limited to organizations still reaches its own (and only its own).
    const orgKey = await t.key(alice.email, ['*'], { organizations: [alice.organizationId] });
    expect((await t.request(orgKey, { method: 'GET', url: `/api/organizations/${alice.organizationId}/members/` })).statusCode).toBe(200);
    expect((await t.request(orgKey, { method: 'GET', url: `/api/organizations/${bob.organizationId}/members/` })).statusCode).toBe(403);
  });

  it("a key's ceilings take at most 1000 items, refused before any is looked up, and repeats cost one look-up", async () => {
    const browser = await signIn(alice.email);
    const many = await as(browser, 'POST', '/api/personal_api_keys/', { label: 'many', scopes: ['*'], scoped_teams: Array.from({ length: 100_000 }, (_, i) => i + 1) });
    expect(many.statusCode, many.body).toBe(400);
    expect(many.json()).toEqual({ type: 'validation_error', code: 'max_length', detail: 'Ensure this field has no more than 1000 elements.', attr: 'scoped_teams' });
    const orgs = await as(browser, 'POST', '/api/personal_api_keys/', { label: 'many', scopes: ['*'], scoped_organizations: Array(20_000).fill(alice.organizationId) });
    expect(orgs.statusCode, orgs.body).toBe(400);
    expect(orgs.json().attr).toBe('scoped_organizations');
    const scopes = await as(browser, 'POST', '/api/personal_api_keys/', { label: 'many', scopes: Array(100_000).fill('*') });
    expect(scopes.statusCode, scopes.body).toBe(400);
    expect(scopes.json().attr).toBe('scopes');
    const started = Date.now();
    const repeated = await as(browser, 'POST', '/api/personal_api_keys/', { label: 'repeats', scopes: ['*'], scoped_teams: Array(1000).fill(alice.projectId) });
    expect(repeated.statusCode, repeated.body).toBe(201);
    expect(repeated.json().scoped_teams).toEqual([alice.projectId]);
    expect(Date.now() - started).toBeLessThan(2_000);
    // The same limits on a change.
    const patch = await as(browser, 'PATCH', `/api/personal_api_keys/${repeated.json().id}/`, { scoped_teams: Array(1001).fill(alice.projectId) });
    expect(patch.statusCode, patch.body).toBe(400);
    expect(await as(browser, 'DELETE', `/api/personal_api_keys/${repeated.json().id}/`)).toHaveProperty('statusCode', 204);
  });

  it("guessing the current password through PATCH /api/users/@me/ is throttled (PostHog's UserAuthenticationThrottle, 5 a minute)", async () => {
    await t.bootstrap('carol@example.com', { organization: 'C' });
    await t.services.accounts.setPassword('carol@example.com', PASSWORD);
    const browser = await signIn('carol@example.com');
    const guess = (current: string) => as(browser, 'PATCH', '/api/users/@me/', { password: 'a new long password', current_password: current });
    for (let i = 0; i < 5; i++) expect((await guess(`wrong guess ${i}`)).statusCode).toBe(400);
    const throttled = await guess(PASSWORD);
    expect(throttled.statusCode, throttled.body).toBe(429);
    expect(throttled.json()).toMatchObject({ type: 'throttled_error', code: 'throttled', attr: null });
    // The right password was not taken while throttled: it still signs in.
    await signIn('carol@example.com');
    // Other changes of the account are not throttled.
    expect((await as(browser, 'PATCH', '/api/users/@me/', { first_name: 'Carol' })).statusCode).toBe(200);
  });

  it('ids PostgreSQL cannot hold answer 400 or 404, not 500: scoped_teams past int4, a NUL in a key id or a member email filter', async () => {
    const browser = await signIn(alice.email);
    for (const id of [2 ** 31, 2 ** 40, 1e300]) {
      const res = await as(browser, 'POST', '/api/personal_api_keys/', { label: 'big', scopes: ['*'], scoped_teams: [id] });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'You must be a member of all teams that you are scoping the key to.', attr: 'scoped_teams' });
    }
    const made = await as(browser, 'POST', '/api/personal_api_keys/', { label: 'nul', scopes: ['*'] });
    const id = `${made.json().id}%00`;
    for (const [method, url] of [['GET', `/api/personal_api_keys/${id}/`], ['PATCH', `/api/personal_api_keys/${id}/`], ['POST', `/api/personal_api_keys/${id}/roll/`], ['DELETE', `/api/personal_api_keys/${id}/`]] as const) {
      const res = await as(browser, method, url, method === 'PATCH' ? { label: 'x' } : undefined);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }
    expect((await as(browser, 'DELETE', `/api/personal_api_keys/${made.json().id}/`)).statusCode).toBe(204);
    const filtered = await as(browser, 'GET', `/api/organizations/${alice.organizationId}/members/?email=alice%00@example.com`);
    expect(filtered.statusCode, filtered.body).toBe(200);
    expect(filtered.json().results).toEqual([]);
  });

  it("@current names the user's current organization (set by PATCH /api/users/@me/), not their first", async () => {
    const browser = await signIn(alice.email);
    const currentId = async () => {
      const response = await as(browser, 'GET', '/api/organizations/@current/');
      expect(response.statusCode, response.body).toBe(200);
      return response.json().id;
    };
    expect(await currentId()).toBe(alice.organizationId);
    const moved = await as(browser, 'PATCH', '/api/users/@me/', { set_current_organization: bob.organizationId });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await currentId()).toBe(bob.organizationId);
    const members = await as(browser, 'GET', '/api/organizations/@current/members/');
    expect(members.json().results.map((m: { user: { email: string } }) => m.user.email).sort()).toEqual(['alice@example.com', 'bob@example.com']);
    expect((await as(browser, 'PATCH', '/api/users/@me/', { set_current_organization: alice.organizationId })).statusCode).toBe(200);
    expect(await currentId()).toBe(alice.organizationId);
  });

  it("a member lists only invites at or below their own level: an admin's invite id (its signup link) stays hidden", async () => {
    const owner = await t.bootstrap('levels-owner@example.com', { organization: 'Levels' });
    const member = await t.bootstrap('levels-member@example.com', { organization: 'Levels member home' });
    await t.addMember(owner.organizationId, member.email, MembershipLevel.member);
    const url = `/api/organizations/${owner.organizationId}/invites/`;
    for (const [email, level] of [['new-admin@example.com', MembershipLevel.admin], ['new-member@example.com', MembershipLevel.member]] as const) {
      expect((await t.request(owner.key, { method: 'POST', url, payload: { target_email: email, level } })).statusCode).toBe(201);
    }
    const seen = (key: string) => t.request(key, { method: 'GET', url }).then((r) => r.json().results.map((i: { target_email: string }) => i.target_email).sort());
    expect(await seen(owner.key)).toEqual(['new-admin@example.com', 'new-member@example.com']);
    expect(await seen(member.key)).toEqual(['new-member@example.com']);
  });

  it('an organization holds at most 1000 invites: past them a 400, all of a bulk or none; deleting one makes room', async () => {
    const owner = await t.bootstrap('inviter@example.com', { organization: 'Inviting' });
    const url = `/api/organizations/${owner.organizationId}/invites/`;
    for (let batch = 0; batch < 50; batch++) {
      const made = await t.request(owner.key, { method: 'POST', url: `${url}bulk/`, payload: Array.from({ length: 20 }, (_, i) => ({ target_email: `invitee${batch * 20 + i}@example.com` })) });
      expect(made.statusCode, made.body).toBe(201);
    }
    const over = await t.request(owner.key, { method: 'POST', url, payload: { target_email: 'one-more@example.com' } });
    expect(over.statusCode, over.body).toBe(400);
    expect(over.json()).toEqual({ type: 'validation_error', code: 'max_length', detail: 'An organization can have at most 1000 invites. Delete some before inviting more.', attr: null });
    // A new invite for an email already invited replaces its old one, so it still fits.
    expect((await t.request(owner.key, { method: 'POST', url, payload: { target_email: 'invitee0@example.com', level: MembershipLevel.admin } })).statusCode).toBe(201);
    const list = await t.request(owner.key, { method: 'GET', url: `${url}?limit=1` });
    expect(list.json().count).toBe(1000);
    expect((await t.request(owner.key, { method: 'DELETE', url: `${url}${list.json().results[0].id}/` })).statusCode).toBe(204);
    expect((await t.request(owner.key, { method: 'POST', url, payload: { target_email: 'one-more@example.com' } })).statusCode).toBe(201);
  });

  it('two owners demoting each other at once leave one owner (the last-owner rule holds under concurrency)', async () => {
    for (let round = 0; round < 6; round++) {
      const first = await t.bootstrap(`first${round}@example.com`, { organization: `Race ${round}` });
      await t.addMember(first.organizationId, `second${round}@example.com`, MembershipLevel.owner);
      const second = await t.key(`second${round}@example.com`, ['*']);
      const uuidOf = async (email: string) => (await t.services.repositories.users.findByEmail(email))!.uuid;
      const url = (email: string) => `/api/organizations/${first.organizationId}/members/${email}/`;
      const [a, b] = await Promise.all([
        t.request(first.key, { method: 'PATCH', url: url(await uuidOf(`second${round}@example.com`)), payload: { level: MembershipLevel.admin } }),
        t.request(second, { method: 'PATCH', url: url(await uuidOf(`first${round}@example.com`)), payload: { level: MembershipLevel.admin } }),
      ]);
      const owners = await t.services.repositories.members.countOwners(first.organizationId, MembershipLevel.owner);
      expect(owners, `round ${round}: ${a.statusCode} ${b.statusCode}`).toBeGreaterThanOrEqual(1);
    }
  });

  it('set_current_team is a string or a number (DRF CharField): a list is refused, not read as its text', async () => {
    const browser = await signIn(alice.email);
    for (const value of [[alice.projectId], { id: alice.projectId }, true]) {
      const res = await as(browser, 'PATCH', '/api/users/@me/', { set_current_team: value });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ type: 'validation_error', code: 'invalid', detail: 'Not a valid string.', attr: 'set_current_team' });
    }
    const organization = await as(browser, 'PATCH', '/api/users/@me/', { set_current_organization: [alice.organizationId] });
    expect(organization.statusCode, organization.body).toBe(400);
    expect(organization.json().attr).toBe('set_current_organization');
    expect((await as(browser, 'PATCH', '/api/users/@me/', { set_current_team: String(alice.projectId) })).statusCode).toBe(200);
  });
});
