// People and access over the API: members (PostHog's test_organization_members.py cases), invites
// and the signup that accepts one (test_organization_invites.py), personal API keys (value once,
// roll, scopes, a key reads only itself), the account (password change, sign out everywhere), and
// isolation between two organizations.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MembershipLevel } from '../../src/core/auth/principal.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';
import { openTwoOrganizations } from '../helpers/two-organizations.js';

const PASSWORD = 'correct horse battery';
const { member: MEMBER, admin: ADMIN, owner: OWNER } = MembershipLevel;

interface Browser {
  session: string;
  csrf: string;
}

const cookie = (response: LightMyRequestResponse, name: string) => response.cookies.find((c) => c.name === name)?.value;
const permissionDenied = (detail: string) => ({ type: 'authentication_error', code: 'permission_denied', detail, attr: null });

describe.each(META_STORES)('members, invites and personal API keys on %s', (store) => {
  let t: TestApp;
  let owner: Credentials;
  let n = 0;

  const signIn = async (email: string, password = PASSWORD): Promise<Browser> => {
    const response = await t.app.inject({ method: 'POST', url: '/api/login/', payload: { email, password } });
    expect(response.statusCode, response.body).toBe(200);
    return { session: cookie(response, 'sessionid')!, csrf: cookie(response, 'csrftoken')! };
  };
  const as = (browser: Browser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, cookies: { sessionid: browser.session, csrftoken: browser.csrf }, headers: { 'x-csrftoken': browser.csrf }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const key = (k: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.request(k, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  /** A fresh user in the owner's organization at a level, with a password and a key. */
  const teammate = async (level: number = MEMBER) => {
    const email = `mate${++n}@example.com`;
    await t.addMember(owner.organizationId, email, level);
    await t.services.accounts.setPassword(email, PASSWORD);
    const user = (await t.services.repositories.users.findByEmail(email))!;
    return { email, uuid: user.uuid, id: user.id, key: await t.key(email, ['*']) };
  };
  const members = async (k = owner.key, query = '') => (await key(k, 'GET', `/api/organizations/@current/members/${query}`)).json().results as any[];
  const levelOf = async (uuid: string) => (await members()).find((m) => m.user.uuid === uuid)?.level;

  beforeAll(async () => {
    t = await createTestApp(store);
    owner = await t.bootstrap('owner@example.com', { organization: 'Team Org' });
    await t.services.accounts.setPassword(owner.email, PASSWORD);
  });
  afterAll(() => t.close());

  describe('members (PostHog: test_organization_members.py)', () => {
    it('test_list_organization_members: PostHog fields, newest first', async () => {
      const mate = await teammate();
      const res = await key(owner.key, 'GET', `/api/organizations/${owner.organizationId}/members/`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.count).toBe(body.results.length);
      const [first] = body.results;
      expect(first).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        user: expect.objectContaining({ uuid: mate.uuid, email: mate.email, first_name: mate.email.split('@')[0], role_at_organization: null }),
        level: MEMBER,
        joined_at: expect.any(String),
        updated_at: expect.any(String),
        is_2fa_enabled: false,
        has_social_auth: false,
        last_login: null,
      });
      expect(body.results.at(-1).user.email).toBe(owner.email);
    });

    it('test_list_organization_members_filter_by_email and order param', async () => {
      const mate = await teammate();
      const byEmail = await members(owner.key, `?email=${encodeURIComponent(mate.email)}`);
      expect(byEmail.map((m) => m.user.uuid)).toEqual([mate.uuid]);
      // [name, order, who comes first] as PostHog's parameterized case: unknown orders fall back to newest first.
      const cases: [string, string | null, string][] = [
        ['default', null, mate.email],
        ['joined_at_desc', '-joined_at', mate.email],
        ['joined_at_asc', 'joined_at', owner.email],
        ['disallowed_first_name', 'user__first_name', mate.email],
        ['disallowed_password', 'user__password', mate.email],
      ];
      for (const [name, order, first] of cases) {
        const list = await members(owner.key, order === null ? '' : `?order=${order}`);
        expect(list[0].user.email, name).toBe(first);
      }
    });

    it("test_cant_list_members_for_an_alien_organization (Hoglet: 404, an organization outside the user's is not found)", async () => {
      const alien = await t.bootstrap('alien@example.com', { organization: 'Alien Org' });
      const res = await key(owner.key, 'GET', `/api/organizations/${alien.organizationId}/members/`);
      expect(res.statusCode).toBe(404);
      const patch = await key(owner.key, 'PATCH', `/api/organizations/${alien.organizationId}/members/${(await t.services.repositories.users.findById(alien.userId))!.uuid}/`, { level: ADMIN });
      expect(patch.statusCode).toBe(404);
    });

    it('test_change_organization_member_level: an owner makes a member admin; the answer is the membership', async () => {
      const mate = await teammate();
      const res = await key(owner.key, 'PATCH', `/api/organizations/@current/members/${mate.uuid}/`, { level: ADMIN });
      expect(res.statusCode, res.body).toBe(200);
      const { joined_at: _j, updated_at: _u, last_login: _l, ...rest } = res.json();
      expect(rest).toEqual({
        id: expect.any(String),
        is_2fa_enabled: false,
        has_social_auth: false,
        user: { id: mate.id, uuid: mate.uuid, distinct_id: expect.any(String), first_name: mate.email.split('@')[0], last_name: '', email: mate.email, is_email_verified: false, hedgehog_config: null, role_at_organization: null },
        level: ADMIN,
      });
      expect(await levelOf(mate.uuid)).toBe(ADMIN);
    });

    it('test_admin_can_promote_to_admin', async () => {
      const admin = await teammate(ADMIN);
      const mate = await teammate();
      const res = await key(admin.key, 'PATCH', `/api/organizations/${owner.organizationId}/members/${mate.uuid}/`, { level: ADMIN });
      expect(res.statusCode, res.body).toBe(200);
      expect(await levelOf(mate.uuid)).toBe(ADMIN);
    });

    it('test_change_organization_member_level_requires_admin', async () => {
      const plain = await teammate();
      const mate = await teammate();
      const res = await key(plain.key, 'PATCH', `/api/organizations/${owner.organizationId}/members/${mate.uuid}/`, { level: ADMIN });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(permissionDenied('You can only edit others if you are an admin.'));
      expect(await levelOf(mate.uuid)).toBe(MEMBER);
    });

    it('test_cannot_change_own_organization_member_level', async () => {
      const admin = await teammate(ADMIN);
      const res = await key(admin.key, 'PATCH', `/api/organizations/${owner.organizationId}/members/${admin.uuid}/`, { level: MEMBER });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(permissionDenied("You can't change your own access level."));
      expect(await levelOf(admin.uuid)).toBe(ADMIN);
    });

    it('test_add_another_owner: the owner stays owner', async () => {
      const mate = await teammate();
      const res = await key(owner.key, 'PATCH', `/api/organizations/@current/members/${mate.uuid}/`, { level: OWNER });
      expect(res.statusCode, res.body).toBe(200);
      expect(await levelOf(mate.uuid)).toBe(OWNER);
      expect((await members()).filter((m) => m.user.uuid === mate.uuid || m.user.email === owner.email).map((m) => m.level)).toEqual([OWNER, OWNER]);
      // Back to admin, so that later cases see one owner.
      expect((await key(owner.key, 'PATCH', `/api/organizations/@current/members/${mate.uuid}/`, { level: ADMIN })).statusCode).toBe(200);
    });

    it('test_add_owner_only_if_owner: an admin cannot make an owner', async () => {
      const admin = await teammate(ADMIN);
      const mate = await teammate();
      const res = await key(admin.key, 'PATCH', `/api/organizations/${owner.organizationId}/members/${mate.uuid}/`, { level: OWNER });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(permissionDenied("You can only make another member owner if you're this organization's owner."));
      expect(await levelOf(mate.uuid)).toBe(MEMBER);
      // Nor touch the owner.
      const ownerUuid = (await members()).find((m) => m.user.email === owner.email).user.uuid;
      const demote = await key(admin.key, 'PATCH', `/api/organizations/${owner.organizationId}/members/${ownerUuid}/`, { level: MEMBER });
      expect(demote.json()).toEqual(permissionDenied('You can only edit others with level lower or equal to you.'));
      expect((await key(admin.key, 'DELETE', `/api/organizations/${owner.organizationId}/members/${ownerUuid}/`)).statusCode).toBe(403);
    });

    it('a level outside 1, 8 and 15 is a 400', async () => {
      const mate = await teammate();
      const res = await key(owner.key, 'PATCH', `/api/organizations/@current/members/${mate.uuid}/`, { level: 7 });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ type: 'validation_error', code: 'invalid_choice', detail: '"7" is not a valid choice.', attr: 'level' });
    });

    it('test_delete_organization_member: a member may not, an admin may; the removed user loses the organization at once', async () => {
      const plain = await teammate();
      const admin = await teammate(ADMIN);
      const mate = await teammate();
      const mateBrowser = await signIn(mate.email);
      const projectUrl = `/api/projects/${owner.projectId}/`;
      expect((await key(mate.key, 'GET', projectUrl)).statusCode).toBe(200);
      expect((await as(mateBrowser, 'GET', projectUrl)).statusCode).toBe(200);

      const refused = await key(plain.key, 'DELETE', `/api/organizations/${owner.organizationId}/members/${mate.uuid}/`);
      expect(refused.statusCode).toBe(403);
      expect(await levelOf(mate.uuid)).toBe(MEMBER);
      const removed = await key(admin.key, 'DELETE', `/api/organizations/${owner.organizationId}/members/${mate.uuid}/`);
      expect(removed.statusCode, removed.body).toBe(204);
      expect(await levelOf(mate.uuid)).toBeUndefined();
      // Their key and their browser session no longer open anything of the organization.
      expect((await key(mate.key, 'GET', projectUrl)).statusCode).toBe(404);
      expect((await as(mateBrowser, 'GET', projectUrl)).statusCode).toBe(404);
      expect((await key(mate.key, 'GET', `/api/organizations/${owner.organizationId}/members/`)).statusCode).toBe(404);
      const orgs = (await key(mate.key, 'GET', '/api/organizations/')).json().results.map((o: { id: string }) => o.id);
      expect(orgs).not.toContain(owner.organizationId);
    });

    it('test_leave_organization: a member leaves with @me or their uuid; the last owner cannot', async () => {
      const mate = await teammate();
      expect((await key(mate.key, 'DELETE', `/api/organizations/${owner.organizationId}/members/${mate.uuid}/`)).statusCode).toBe(204);
      const other = await teammate();
      const me = (await key(other.key, 'GET', `/api/organizations/${owner.organizationId}/members/`)).json().results.find((m: any) => m.user.uuid === other.uuid);
      expect(me).toBeDefined();
      expect((await key(other.key, 'DELETE', `/api/organizations/${owner.organizationId}/members/@me/`)).statusCode).toBe(204);
      expect(await levelOf(other.uuid)).toBeUndefined();

      const ownerUuid = (await members()).find((m) => m.user.email === owner.email).user.uuid;
      const last = await key(owner.key, 'DELETE', `/api/organizations/@current/members/${ownerUuid}/`);
      expect(last.statusCode).toBe(400);
      expect(last.json()).toMatchObject({ type: 'validation_error', detail: expect.stringMatching(/last owner/) });
      expect(await levelOf(ownerUuid)).toBe(OWNER);
    });

    it('test_scoped_api_keys_endpoint: the keys that reach this organization, and whether one was used last week', async () => {
      const mate = await teammate();
      const url = `/api/organizations/@current/members/${mate.uuid}/scoped_api_keys/`;
      const scoped = async () => (await key(owner.key, 'GET', url)).json();
      // The teammate's own bootstrap key (all organizations) already reaches this one.
      await t.services.meta.db.deleteFrom('personal_api_keys').where('user_id', '=', mate.id).execute();
      expect(await scoped()).toEqual({ has_keys: false, has_keys_active_last_week: false, keys: [] });
      const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600_000).toISOString();
      const make = async (label: string, ceilings: { organizations?: string[]; teams?: number[] }, lastUsed: string | null) => {
        const { key: made } = await t.services.accounts.createKey(mate.email, ['*'], label);
        await t.services.meta.db
          .updateTable('personal_api_keys')
          .set({ scoped_organizations: ceilings.organizations ? JSON.stringify(ceilings.organizations) : null, scoped_teams: ceilings.teams ? JSON.stringify(ceilings.teams) : null, last_used_at: lastUsed })
          .where('id', '=', made.id)
          .execute();
      };
      await make('Old Org Key', { organizations: [owner.organizationId] }, daysAgo(14));
      expect(await scoped()).toEqual({ has_keys: true, has_keys_active_last_week: false, keys: [{ name: 'Old Org Key', last_used_at: expect.any(String) }] });
      await make('Team Key', { teams: [owner.projectId] }, daysAgo(2));
      await make('Global Key', { organizations: [], teams: [] }, daysAgo(1));
      await make('Null Scoped Key', {}, daysAgo(3));
      const all = await scoped();
      expect(all.has_keys_active_last_week).toBe(true);
      expect(all.keys.map((k: { name: string }) => k.name).sort()).toEqual(['Global Key', 'Null Scoped Key', 'Old Org Key', 'Team Key']);
      // Keys of a member scoped elsewhere do not count.
      const other = await t.bootstrap(`scoped-other${++n}@example.com`, { organization: 'Other Org' });
      await t.services.meta.db.deleteFrom('personal_api_keys').where('user_id', '=', other.userId).execute();
      await t.key(other.email, ['*'], { organizations: [other.organizationId] });
      await t.key(other.email, ['*'], { teams: [other.projectId] });
      await t.addMember(owner.organizationId, other.email, MEMBER);
      const otherUuid = (await t.services.repositories.users.findById(other.userId))!.uuid;
      expect((await key(owner.key, 'GET', `/api/organizations/@current/members/${otherUuid}/scoped_api_keys/`)).json()).toEqual({ has_keys: false, has_keys_active_last_week: false, keys: [] });
    });

    it('a key needs organization_member scopes: read to list, write to change', async () => {
      const mate = await teammate();
      const readOnly = await t.key(owner.email, ['organization_member:read']);
      const none = await t.key(owner.email, ['project:read']);
      expect((await key(none, 'GET', '/api/organizations/@current/members/')).json()).toEqual(permissionDenied("API key missing required scope 'organization_member:read'"));
      expect((await key(readOnly, 'GET', '/api/organizations/@current/members/')).statusCode).toBe(200);
      const write = await key(readOnly, 'PATCH', `/api/organizations/@current/members/${mate.uuid}/`, { level: ADMIN });
      expect(write.json()).toEqual(permissionDenied("API key missing required scope 'organization_member:write'"));
      // A key limited to another organization does not reach this one.
      const elsewhere = await t.bootstrap(`elsewhere${++n}@example.com`);
      await t.addMember(owner.organizationId, `elsewhere${n}@example.com`, ADMIN);
      const narrow = await t.key(`elsewhere${n}@example.com`, ['*'], { organizations: [elsewhere.organizationId] });
      expect((await key(narrow, 'GET', `/api/organizations/${owner.organizationId}/members/`)).statusCode).toBe(403);
    });
  });

  describe('invites (PostHog: test_organization_invites.py) and signup', () => {
    it('test_add_organization_invite_email_required', async () => {
      const res = await key(owner.key, 'POST', '/api/organizations/@current/invites/', {});
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'target_email' });
    });

    it('test_add_organization_invite_with_email: PostHog fields, no email sent', async () => {
      const res = await key(owner.key, 'POST', '/api/organizations/@current/invites/', { target_email: 'x@x.com' });
      expect(res.statusCode, res.body).toBe(201);
      const { id, created_at: _c, updated_at: _u, created_by, ...rest } = res.json();
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(created_by).toMatchObject({ id: owner.userId, email: owner.email, role_at_organization: null });
      expect(rest).toEqual({ target_email: 'x@x.com', first_name: '', is_expired: false, level: MEMBER, emailing_attempt_made: false, message: null, private_project_access: [] });
      const list = (await key(owner.key, 'GET', '/api/organizations/@current/invites/')).json();
      expect(list.results.map((i: { id: string }) => i.id)).toContain(id);
    });

    it('test_create_invites_for_the_same_email_multiple_times_deletes_older_invites', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await key(owner.key, 'POST', '/api/organizations/@current/invites/', { target_email: 'again@posthog.com' })).json().id);
      const list = (await key(owner.key, 'GET', '/api/organizations/@current/invites/')).json().results.filter((i: any) => i.target_email === 'again@posthog.com');
      expect(list.map((i: { id: string }) => i.id)).toEqual([ids[2]]);
    });

    it('test_member_cannot_invite_admin, test_admin_cannot_invite_owner, test_member_can_invite_member, test_admin_can_invite_admin', async () => {
      const plain = await teammate();
      const admin = await teammate(ADMIN);
      const higher = 'You cannot invite a user with a higher permission level than your own.';
      const invite = (k: string, email: string, level: number) => key(k, 'POST', `/api/organizations/${owner.organizationId}/invites/`, { target_email: email, level });
      const memberAdmin = await invite(plain.key, 'new_admin@posthog.com', ADMIN);
      expect(memberAdmin.statusCode).toBe(403);
      expect(memberAdmin.json().detail).toBe(higher);
      const adminOwner = await invite(admin.key, 'new_owner@posthog.com', OWNER);
      expect(adminOwner.statusCode).toBe(403);
      expect(adminOwner.json().detail).toBe(higher);
      expect((await invite(plain.key, 'new_member@posthog.com', MEMBER)).json().level).toBe(MEMBER);
      expect((await invite(admin.key, 'new_admin@posthog.com', ADMIN)).json().level).toBe(ADMIN);
      const emails = (await key(owner.key, 'GET', '/api/organizations/@current/invites/')).json().results.map((i: any) => i.target_email);
      expect(emails).not.toContain('new_owner@posthog.com');
    });

    it('test_delete_organization_invite_if_plain_member / if_admin / if_owner', async () => {
      const plain = await teammate();
      const admin = await teammate(ADMIN);
      const make = async () => (await key(owner.key, 'POST', '/api/organizations/@current/invites/', { target_email: `del${++n}@posthog.com` })).json().id as string;
      const first = await make();
      const refused = await key(plain.key, 'DELETE', `/api/organizations/${owner.organizationId}/invites/${first}/`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toContain('Your organization access level is insufficient');
      const byAdmin = await key(admin.key, 'DELETE', `/api/organizations/${owner.organizationId}/invites/${first}/`);
      expect(byAdmin.statusCode).toBe(204);
      expect(byAdmin.body).toBe('');
      expect((await key(owner.key, 'DELETE', `/api/organizations/@current/invites/${await make()}/`)).statusCode).toBe(204);
      expect((await key(owner.key, 'DELETE', `/api/organizations/@current/invites/${first}/`)).statusCode).toBe(404);
    });

    it('test_maximum_20_invites_per_request and test_invites_are_created_atomically (bulk)', async () => {
      const payload = (count: number) => Array.from({ length: count }, (_, i) => ({ target_email: `bulk${n}-${i}@posthog.com`, first_name: 'B' }));
      n++;
      const tooMany = await key(owner.key, 'POST', '/api/organizations/@current/invites/bulk/', payload(21));
      expect(tooMany.json()).toEqual({ type: 'validation_error', code: 'max_length', detail: 'A maximum of 20 invites can be sent in a single request.', attr: null });
      const broken = payload(5);
      broken[4]!.target_email = null as never;
      expect((await key(owner.key, 'POST', '/api/organizations/@current/invites/bulk/', broken)).statusCode).toBe(400);
      const before = (await key(owner.key, 'GET', '/api/organizations/@current/invites/')).json().count;
      expect(before).toBeGreaterThan(0);
      expect((await key(owner.key, 'GET', '/api/organizations/@current/invites/')).json().results.some((i: any) => i.target_email === broken[0]!.target_email)).toBe(false);
      const ok = await key(owner.key, 'POST', '/api/organizations/@current/invites/bulk/', payload(7));
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json()).toHaveLength(7);
    });

    it('test_cant_list_invites_for_an_alien_organization, test_cannot_create_invite_for_another_org, test_cannot_bulk_create_invites_for_another_organization (Hoglet: 404)', async () => {
      const alien = await t.bootstrap(`invite-alien${++n}@example.com`, { organization: 'Alien Org' });
      const base = `/api/organizations/${alien.organizationId}/invites/`;
      expect((await key(owner.key, 'GET', base)).statusCode).toBe(404);
      expect((await key(owner.key, 'POST', base, { target_email: 'x@posthog.com' })).statusCode).toBe(404);
      expect((await key(owner.key, 'POST', `${base}bulk/`, [{ target_email: 'x@posthog.com' }])).statusCode).toBe(404);
      expect((await key(alien.key, 'GET', base)).json().count).toBe(0);
    });

    it('test_combine_pending_invites_with_no_existing_invites, _with_expired_invites, _false_expires_existing_invites', async () => {
      const invite = (body: object) => key(owner.key, 'POST', '/api/organizations/@current/invites/', body);
      const none = (await invite({ target_email: 'combine1@posthog.com', level: MEMBER, combine_pending_invites: true })).json();
      expect(none).toMatchObject({ level: MEMBER, target_email: 'combine1@posthog.com', private_project_access: [] });

      const expired = (await invite({ target_email: 'xyz@posthog.com', level: ADMIN })).json();
      await t.services.meta.db.updateTable('organization_invites').set({ created_at: '2023-01-05T00:00:00.000Z' }).where('id', '=', expired.id).execute();
      expect((await invite({ target_email: 'xyz@posthog.com', level: MEMBER, combine_pending_invites: true })).json().level).toBe(MEMBER);

      const first = (await invite({ target_email: 'combine2@posthog.com', level: ADMIN })).json();
      const second = (await invite({ target_email: 'combine2@posthog.com', level: MEMBER, combine_pending_invites: false })).json();
      expect(second.level).toBe(MEMBER);
      const ids = (await key(owner.key, 'GET', '/api/organizations/@current/invites/')).json().results.map((i: { id: string }) => i.id);
      expect(ids).not.toContain(first.id);
      // Combined with a pending admin invite, the new one is an admin invite.
      await invite({ target_email: 'combine3@posthog.com', level: ADMIN });
      expect((await invite({ target_email: 'combine3@posthog.com', level: MEMBER, combine_pending_invites: true })).json().level).toBe(ADMIN);
    });

    it('test_bulk_invite_with_higher_permission_level (none made) and test_bulk_invite_with_same_permission_level', async () => {
      const plain = await teammate();
      const bulk = (payload: object[]) => key(plain.key, 'POST', `/api/organizations/${owner.organizationId}/invites/bulk/`, payload);
      const mixed = await bulk([
        { target_email: 'new_member@posthog.com', level: MEMBER },
        { target_email: 'new_admin_bulk@posthog.com', level: ADMIN },
        { target_email: 'another_member@posthog.com', level: MEMBER },
      ]);
      expect(mixed.statusCode).toBe(403);
      expect(mixed.json().detail).toBe('You cannot invite a user with a higher permission level than your own.');
      const emails = async () => (await key(owner.key, 'GET', '/api/organizations/@current/invites/?limit=1000')).json().results.map((i: { target_email: string }) => i.target_email);
      expect(await emails()).not.toContain('another_member@posthog.com');
      expect((await bulk([{ target_email: 'new_member1@posthog.com', level: MEMBER }, { target_email: 'new_member2@posthog.com', level: MEMBER }])).statusCode).toBe(201);
      expect(await emails()).toEqual(expect.arrayContaining(['new_member1@posthog.com', 'new_member2@posthog.com']));
    });

    it('test_add_organization_invite_case_insensitive_email_normalization, _duplicate_prevention, _existing_member_check', async () => {
      const made = await key(owner.key, 'POST', '/api/organizations/@current/invites/', { target_email: 'Test.User@Example.COM' });
      expect(made.json().target_email).toBe('test.user@example.com');
      await key(owner.key, 'POST', '/api/organizations/@current/invites/', { target_email: 'user@example.com' });
      await key(owner.key, 'POST', '/api/organizations/@current/invites/', { target_email: 'User@Example.COM' });
      const list = (await key(owner.key, 'GET', '/api/organizations/@current/invites/?limit=1000')).json().results;
      expect(list.filter((i: { target_email: string }) => i.target_email === 'user@example.com')).toHaveLength(1);
      const mate = await teammate();
      const existing = await key(owner.key, 'POST', '/api/organizations/@current/invites/', { target_email: mate.email.toUpperCase() });
      expect(existing.statusCode).toBe(400);
    });

    it('an existing member cannot be invited', async () => {
      const mate = await teammate();
      const res = await key(owner.key, 'POST', '/api/organizations/@current/invites/', { target_email: mate.email });
      expect(res.json()).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'A user with this email address already belongs to the organization.', attr: null });
    });

    it('the invite link: the invitee sets a name and password, is signed in, and is a member at the invited level', async () => {
      const invite = (await key(owner.key, 'POST', '/api/organizations/@current/invites/', { target_email: 'NewPerson@Example.com', first_name: 'Newt', level: ADMIN })).json();
      const preview = await t.app.inject({ method: 'GET', url: `/api/signup/${invite.id}/` });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json()).toEqual({ id: invite.id, target_email: 'n*******n@example.com', first_name: 'Newt', organization_name: 'Team Org' });

      const missing = await t.app.inject({ method: 'POST', url: `/api/signup/${invite.id}/`, payload: { first_name: 'Newt' } });
      expect(missing.json()).toEqual({ type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'password' });
      const weak = await t.app.inject({ method: 'POST', url: `/api/signup/${invite.id}/`, payload: { first_name: 'Newt', password: 'short' } });
      expect(weak.json()).toMatchObject({ code: 'password_too_short', attr: 'password' });

      const joined = await t.app.inject({ method: 'POST', url: `/api/signup/${invite.id}/`, payload: { first_name: 'Newt', password: PASSWORD } });
      expect(joined.statusCode, joined.body).toBe(201);
      expect(joined.json()).toMatchObject({ email: 'newperson@example.com', first_name: 'Newt', redirect_url: '/' });
      const browser = { session: cookie(joined, 'sessionid')!, csrf: cookie(joined, 'csrftoken')! };
      const me = (await as(browser, 'GET', '/api/users/@me/')).json();
      expect(me).toMatchObject({ email: 'newperson@example.com', has_password: true, organization: { id: owner.organizationId, membership_level: ADMIN }, team: { id: owner.projectId } });
      expect((await members()).find((m) => m.user.email === 'newperson@example.com')).toMatchObject({ level: ADMIN, last_login: expect.any(String) });
      // Used up: the link answers PostHog's 400 now, and the password signs in.
      expect((await t.app.inject({ method: 'GET', url: `/api/signup/${invite.id}/` })).json()).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'The provided invite ID is not valid.', attr: null });
      await signIn('newperson@example.com');
    });

    it('a signed-in user accepts an invite to their own email and joins a second organization', async () => {
      const other = await t.bootstrap(`second-org${++n}@example.com`, { organization: 'Second Org' });
      await t.services.accounts.setPassword(other.email, PASSWORD);
      const browser = await signIn(other.email);
      const invite = (await key(owner.key, 'POST', '/api/organizations/@current/invites/', { target_email: other.email, level: ADMIN })).json();
      const noToken = await t.app.inject({ method: 'POST', url: `/api/signup/${invite.id}/`, cookies: { sessionid: browser.session, csrftoken: browser.csrf }, payload: {} });
      expect(noToken.statusCode).toBe(403);
      const joined = await as(browser, 'POST', `/api/signup/${invite.id}/`, {});
      expect(joined.statusCode, joined.body).toBe(201);
      expect(joined.json()).toMatchObject({ email: other.email });
      expect((await members()).find((m) => m.user.email === other.email)?.level).toBe(ADMIN);
      const me = (await as(browser, 'GET', '/api/users/@me/')).json();
      expect(me.organization.id).toBe(owner.organizationId);
      expect(me.organizations.map((o: { id: string }) => o.id).sort()).toEqual([owner.organizationId, other.organizationId].sort());
      // Someone else's invite is not theirs to use.
      const notMine = (await key(owner.key, 'POST', '/api/organizations/@current/invites/', { target_email: `not-${other.email}` })).json();
      expect((await as(browser, 'POST', `/api/signup/${notMine.id}/`, {})).json()).toEqual({ type: 'validation_error', code: 'invalid_recipient', detail: 'This invite is intended for another email address.', attr: null });
    });

    it('an invite expires after 3 days; an unknown id is not valid', async () => {
      const invite = (await key(owner.key, 'POST', '/api/organizations/@current/invites/', { target_email: 'late@example.com' })).json();
      await t.services.meta.db.updateTable('organization_invites').set({ created_at: new Date(Date.now() - 3 * 24 * 3600_000 - 60_000).toISOString() }).where('id', '=', invite.id).execute();
      const listed = (await key(owner.key, 'GET', '/api/organizations/@current/invites/')).json().results.find((i: any) => i.id === invite.id);
      expect(listed.is_expired).toBe(true);
      const expired = await t.app.inject({ method: 'POST', url: `/api/signup/${invite.id}/`, payload: { first_name: 'Late', password: PASSWORD } });
      expect(expired.json()).toEqual({ type: 'validation_error', code: 'expired', detail: 'This invite has expired. Please ask your admin for a new one.', attr: null });
      expect(await t.services.repositories.users.findByEmail('late@example.com')).toBeUndefined();
      expect((await t.app.inject({ method: 'GET', url: '/api/signup/not-an-invite/' })).statusCode).toBe(400);
    });
  });

  describe('personal API keys', () => {
    let browser: Browser;
    beforeEach(async () => {
      browser = await signIn(owner.email);
    });

    it('the value is shown once; stored hashed; the list has last_used_at; a key reads only itself', async () => {
      const made = await as(browser, 'POST', '/api/personal_api_keys/', { label: 'CI', scopes: ['project:read'] });
      expect(made.statusCode, made.body).toBe(201);
      const created = made.json();
      expect(created).toMatchObject({ label: 'CI', scopes: ['project:read'], scoped_teams: [], scoped_organizations: [], last_used_at: null, last_rolled_at: null, user_id: owner.userId });
      expect(created.value).toMatch(/^phx_/);
      expect(created.mask_value).toBe(`${created.value.slice(0, 4)}...${created.value.slice(-4)}`);
      const stored = await t.services.meta.db.selectFrom('personal_api_keys').select('secure_value').where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(stored.secure_value).toMatch(/^sha256\$[0-9a-f]{64}$/);

      expect((await key(created.value, 'GET', '/api/projects/')).statusCode).toBe(200);
      const list = (await as(browser, 'GET', '/api/personal_api_keys/')).json();
      const listed = list.find((k: { id: string }) => k.id === created.id);
      expect(listed).toMatchObject({ value: null, mask_value: created.mask_value, last_used_at: expect.any(String) });
      expect(list[0].id).toBe(created.id);

      // A key may read itself, nothing else here (PostHog's PersonalApiKeySelfAccessPermission).
      expect((await key(created.value, 'GET', `/api/personal_api_keys/${created.id}/`)).json()).toMatchObject({ id: created.id, value: null });
      const denied = permissionDenied('This action does not support Personal API Key access');
      expect((await key(created.value, 'GET', '/api/personal_api_keys/')).json()).toEqual(denied);
      expect((await key(owner.key, 'POST', '/api/personal_api_keys/', { label: 'x', scopes: ['*'] })).json()).toEqual(denied);
      expect((await key(created.value, 'POST', `/api/personal_api_keys/${created.id}/roll/`)).json()).toEqual(denied);
    });

    it('scopes are enforced, changed by PATCH at once; roll makes the old value 401; delete ends it', async () => {
      const created = (await as(browser, 'POST', '/api/personal_api_keys/', { label: 'Narrow', scopes: ['project:read'] })).json();
      expect((await key(created.value, 'GET', `/api/projects/${owner.projectId}/insights/`)).json()).toEqual(permissionDenied("API key missing required scope 'insight:read'"));
      const patched = await as(browser, 'PATCH', `/api/personal_api_keys/${created.id}/`, { label: 'Wider', scopes: ['project:read', 'insight:read'] });
      expect(patched.json()).toMatchObject({ label: 'Wider', scopes: ['project:read', 'insight:read'], value: null });
      expect((await key(created.value, 'GET', `/api/projects/${owner.projectId}/insights/`)).statusCode).toBe(200);

      const rolled = await as(browser, 'POST', `/api/personal_api_keys/${created.id}/roll/`);
      expect(rolled.statusCode, rolled.body).toBe(200);
      const fresh = rolled.json();
      expect(fresh.value).toMatch(/^phx_/);
      expect(fresh.value).not.toBe(created.value);
      expect(fresh.last_rolled_at).toEqual(expect.any(String));
      const old = await key(created.value, 'GET', '/api/projects/');
      expect(old.statusCode).toBe(401);
      expect(old.json()).toMatchObject({ type: 'authentication_error', code: 'authentication_failed' });
      expect((await key(fresh.value, 'GET', '/api/projects/')).statusCode).toBe(200);

      expect((await as(browser, 'DELETE', `/api/personal_api_keys/${created.id}/`)).statusCode).toBe(204);
      expect((await key(fresh.value, 'GET', '/api/projects/')).statusCode).toBe(401);
      // Logged in the organization it reached (PostHog's PersonalAPIKey activity), never its value.
      const log = await t.services.meta.db.selectFrom('activity_log').select(['activity', 'organization_id', 'detail']).where('scope', '=', 'PersonalAPIKey').where('item_id', '=', created.id).orderBy('id').execute();
      expect(log.map((e) => e.activity)).toEqual(['created', 'updated', 'updated', 'deleted']);
      expect(new Set(log.map((e) => e.organization_id))).toContain(owner.organizationId);
      expect(JSON.stringify(log)).not.toContain(fresh.value);
      expect(JSON.parse(log[1]!.detail as unknown as string).changes.map((c: { field: string }) => c.field)).toEqual(['label', 'scopes']);
    });

    it("PostHog's checks: label, scopes, scoped teams and organizations the user belongs to, 10 keys at most", async () => {
      const post = (body: object) => as(browser, 'POST', '/api/personal_api_keys/', body);
      expect((await post({ scopes: ['*'] })).json()).toMatchObject({ code: 'required', attr: 'label' });
      expect((await post({ label: 'x', scopes: ['nothing:read'] })).json()).toMatchObject({ detail: 'Invalid scope: nothing:read', attr: 'scopes' });
      const alien = await t.bootstrap(`keys-alien${++n}@example.com`);
      expect((await post({ label: 'x', scopes: ['*'], scoped_teams: [alien.projectId] })).json()).toMatchObject({ detail: 'You must be a member of all teams that you are scoping the key to.', attr: 'scoped_teams' });
      expect((await post({ label: 'x', scopes: ['*'], scoped_organizations: [alien.organizationId] })).json()).toMatchObject({ detail: 'You must be a member of all organizations that you are scoping the key to.' });
      expect((await post({ label: 'x', scopes: ['*'], scoped_organizations: ['nope'] })).json()).toMatchObject({ detail: 'Invalid organization UUID' });

      const scoped = (await post({ label: 'Scoped', scopes: ['*'], scoped_teams: [owner.projectId] })).json();
      expect(scoped.scoped_teams).toEqual([owner.projectId]);
      const second = (await key(owner.key, 'POST', '/api/projects/', { name: `Second ${n}` })).json();
      expect((await key(scoped.value, 'GET', `/api/projects/${second.id}/`)).statusCode).toBe(403);

      const existing = (await as(browser, 'GET', '/api/personal_api_keys/')).json().length;
      for (let i = existing; i < 10; i++) expect((await post({ label: `k${i}`, scopes: ['*'] })).statusCode).toBe(201);
      expect((await post({ label: 'eleventh', scopes: ['*'] })).json()).toMatchObject({ detail: 'You can only have 10 personal API keys. Remove an existing key before creating a new one.' });
      for (const k of (await as(browser, 'GET', '/api/personal_api_keys/')).json()) {
        if (k.label.startsWith('k') || k.label === 'Scoped' || k.label === 'CI') await as(browser, 'DELETE', `/api/personal_api_keys/${k.id}/`);
      }
    });
  });

  describe('account', () => {
    it("changing the password: PostHog's errors; this session stays, every other ends", async () => {
      const mate = await teammate();
      const here = await signIn(mate.email);
      const elsewhere = await signIn(mate.email);
      const noCurrent = await as(here, 'PATCH', '/api/users/@me/', { password: 'a new password 1' });
      expect(noCurrent.json()).toEqual({ type: 'validation_error', code: 'required', detail: 'This field is required when updating your password.', attr: 'current_password' });
      const wrong = await as(here, 'PATCH', '/api/users/@me/', { current_password: 'wrong one', password: 'a new password 1' });
      expect(wrong.json()).toEqual({ type: 'validation_error', code: 'incorrect_password', detail: 'Your current password is incorrect.', attr: 'current_password' });
      const weak = await as(here, 'PATCH', '/api/users/@me/', { current_password: PASSWORD, password: 'short' });
      expect(weak.json()).toMatchObject({ code: 'password_too_short', attr: 'password' });

      const changed = await as(here, 'PATCH', '/api/users/@me/', { current_password: PASSWORD, password: 'a new password 1', first_name: 'Renamed' });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ email: mate.email, first_name: 'Renamed', has_password: true });
      expect((await as(here, 'GET', '/api/users/@me/')).statusCode).toBe(200);
      expect((await as(elsewhere, 'GET', '/api/users/@me/')).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'POST', url: '/api/login/', payload: { email: mate.email, password: PASSWORD } })).statusCode).toBe(400);
      await signIn(mate.email, 'a new password 1');
    });

    it('set_current_team switches the current project (the @me team), only to a project of the user', async () => {
      const second = (await key(owner.key, 'POST', '/api/projects/', { name: `Switch ${++n}` })).json();
      const res = await key(owner.key, 'PATCH', '/api/users/@me/', { set_current_team: owner.projectId });
      expect(res.json().team.id).toBe(owner.projectId);
      expect((await key(owner.key, 'PATCH', '/api/users/@me/', { set_current_team: second.id })).json().team.id).toBe(second.id);
      const alien = await t.bootstrap(`switch-alien${n}@example.com`);
      expect((await key(owner.key, 'PATCH', '/api/users/@me/', { set_current_team: alien.projectId })).json()).toEqual({ type: 'validation_error', code: 'does_not_exist', detail: `Object with id=${alien.projectId} does not exist.`, attr: 'set_current_team' });
      await key(owner.key, 'PATCH', '/api/users/@me/', { set_current_team: owner.projectId });
    });

    it('sign out everywhere ends every session of the user, this one too, and needs user:write', async () => {
      const mate = await teammate();
      const one = await signIn(mate.email);
      const two = await signIn(mate.email);
      const res = await as(one, 'POST', '/api/users/@me/sign_out_everywhere/');
      expect(res.statusCode, res.body).toBe(200);
      expect(cookie(res, 'sessionid')).toBe('');
      expect((await as(one, 'GET', '/api/users/@me/')).statusCode).toBe(401);
      expect((await as(two, 'GET', '/api/users/@me/')).statusCode).toBe(401);
      const readOnly = await t.key(mate.email, ['user:read']);
      expect((await key(readOnly, 'POST', '/api/users/@me/sign_out_everywhere/')).json()).toEqual(permissionDenied("API key missing required scope 'user:write'"));
    });
  });
});

describe.each(META_STORES)('isolation between two organizations on %s', (store) => {
  it("one organization's members and invites are not another's to read or change", async () => {
    const two = await openTwoOrganizations(store);
    try {
      const { repos, alice, bob } = two;
      const aliceMembers = await repos.members.list(alice.organization_id);
      expect(aliceMembers.map((m) => m.user_id)).toEqual([alice.user_id]);
      const bobUser = (await repos.users.findById(bob.user_id))!;
      expect(await repos.members.findByUserUuid(alice.organization_id, bobUser.uuid)).toBeUndefined();
      const now = new Date().toISOString();
      await repos.invites.insert({ id: '00000000-0000-4000-8000-000000000001', organization_id: bob.organization_id, target_email: 'x@example.com', first_name: '', level: 1, message: null, created_by: bob.user_id, created_at: now, updated_at: now });
      expect(await repos.invites.list(alice.organization_id)).toEqual([]);
      expect(await repos.invites.delete(alice.organization_id, '00000000-0000-4000-8000-000000000001')).toBe(false);
      expect(await repos.invites.list(bob.organization_id)).toHaveLength(1);
    } finally {
      await two.close();
    }
  });

  it('over the API: a key of one organization cannot list, invite into, change or remove members of the other', async () => {
    const t = await createTestApp(store);
    try {
      const a = await t.bootstrap('a@example.com', { organization: 'A' });
      const b = await t.bootstrap('b@example.com', { organization: 'B' });
      const bUuid = (await t.services.repositories.users.findById(b.userId))!.uuid;
      const invite = (await t.request(b.key, { method: 'POST', url: '/api/organizations/@current/invites/', payload: { target_email: 'c@example.com' } })).json();
      for (const [method, url, payload] of [
        ['GET', `/api/organizations/${b.organizationId}/members/`],
        ['GET', `/api/organizations/${b.organizationId}/invites/`],
        ['POST', `/api/organizations/${b.organizationId}/invites/`, { target_email: 'sneak@example.com' }],
        ['DELETE', `/api/organizations/${b.organizationId}/invites/${invite.id}/`],
        ['PATCH', `/api/organizations/${b.organizationId}/members/${bUuid}/`, { level: 1 }],
        ['DELETE', `/api/organizations/${b.organizationId}/members/${bUuid}/`],
        // Through A's own organization id, B's member and invite are not found either.
        ['PATCH', `/api/organizations/${a.organizationId}/members/${bUuid}/`, { level: 1 }],
        ['DELETE', `/api/organizations/${a.organizationId}/invites/${invite.id}/`],
      ] as const) {
        const res = await t.request(a.key, { method, url, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
      const bInvites = (await t.request(b.key, { method: 'GET', url: '/api/organizations/@current/invites/' })).json();
      expect(bInvites.results.map((i: { target_email: string }) => i.target_email)).toEqual(['c@example.com']);
      const bMembers = (await t.request(b.key, { method: 'GET', url: '/api/organizations/@current/members/' })).json();
      expect(bMembers.results.map((m: any) => [m.user.email, m.level])).toEqual([['b@example.com', MembershipLevel.owner]]);
    } finally {
      await t.close();
    }
  });
});
