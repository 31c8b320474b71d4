// Isolation of issue 31's people and data-management routes, proven by attack: organization B
// holds members, an invite, a personal API key and an edited event and property definition, each
// carrying a marker. fast-check then sends Alice's requests (a session, a key with every scope, a
// key limited to her organization, a key limited to her project) at every new route, naming B's
// organization, project and objects in every spelling: no answer may carry a marker, none may be a
// 5xx, a request naming B may only be refused, and afterwards B is exactly as it was.
// HOGLET_PROPERTY_SEED replays a seed, HOGLET_PROPERTY_RUNS runs more cases.
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MembershipLevel } from '../../src/core/auth/principal.js';
import { eventDefinitionId, propertyDefinitionId } from '../../src/core/definitions/ids.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const RUNS = Number(process.env['HOGLET_PROPERTY_RUNS'] ?? 250);
const SEED = process.env['HOGLET_PROPERTY_SEED'] ? Number(process.env['HOGLET_PROPERTY_SEED']) : undefined;
const PASSWORD = 'correct horse battery';
const MARKERS = ['bob-marker', 'carol-marker', 'invitee-marker', 'key-marker', 'described-marker', 'tagged-marker', 'b_marker_event', 'b_marker_prop'];

const cookie = (response: LightMyRequestResponse, name: string) => response.cookies.find((c) => c.name === name)!.value;

describe.each(META_STORES)('another organization’s people and definitions on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  let callers: Record<string, (options: InjectOptions) => Promise<LightMyRequestResponse>>;
  const b = { memberUuid: '', inviteId: '', keyId: '', eventId: '', propertyId: '' };
  const snapshotOfB = async () => {
    const repos = t.services.repositories;
    const asBob = (url: string) => t.request(bob.key, { method: 'GET', url });
    return {
      members: (await repos.members.list(bob.organizationId, { email: undefined, oldestFirst: true })).map((m) => [m.user_uuid, m.level]),
      invites: (await repos.invites.list(bob.organizationId)).map((i) => [i.id, i.level, i.target_email]),
      keys: (await repos.apiKeys.listForUser(bob.userId)).map((k) => [k.id, k.label, k.scopes, k.scoped_teams, k.last_rolled_at]),
      event: (await asBob(`/api/projects/${bob.projectId}/event_definitions/${b.eventId}/`)).json(),
      property: (await asBob(`/api/projects/${bob.projectId}/property_definitions/${b.propertyId}/`)).json(),
    };
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'A' });
    bob = await t.bootstrap('bob-marker@example.com', { organization: 'B' });
    await t.addMember(bob.organizationId, 'carol-marker@example.com', MembershipLevel.member);
    const repos = t.services.repositories;
    b.memberUuid = (await repos.users.findByEmail('carol-marker@example.com'))!.uuid;
    const invite = await t.request(bob.key, { method: 'POST', url: `/api/organizations/${bob.organizationId}/invites/`, payload: { target_email: 'invitee-marker@example.com', level: MembershipLevel.admin } });
    expect(invite.statusCode, invite.body).toBe(201);
    b.inviteId = invite.json().id;
    await t.key(bob.email, ['insight:read'], { teams: [bob.projectId] });
    const bobKey = (await repos.apiKeys.listForUser(bob.userId)).at(-1)!;
    b.keyId = bobKey.id;
    await t.services.meta.db.updateTable('personal_api_keys').set({ label: 'key-marker' }).where('id', '=', b.keyId).execute();
    await journeys(t, bob, { someone: [ev('b_marker_event', new Date().toISOString(), { b_marker_prop: 'x' })] });
    b.eventId = eventDefinitionId(bob.projectId, 'b_marker_event');
    b.propertyId = propertyDefinitionId(bob.projectId, 'event', 'b_marker_prop');
    for (const id of [b.eventId, b.propertyId]) {
      const kind = id === b.eventId ? 'event_definitions' : 'property_definitions';
      const edit = await t.request(bob.key, { method: 'PATCH', url: `/api/projects/${bob.projectId}/${kind}/${id}/`, payload: { description: 'described-marker', tags: ['tagged-marker'] } });
      expect(edit.statusCode, edit.body).toBe(200);
    }
    await t.services.accounts.setPassword(alice.email, PASSWORD);
    const login = await t.app.inject({ method: 'POST', url: '/api/login/', payload: { email: alice.email, password: PASSWORD } });
    const [session, csrf] = [cookie(login, 'sessionid'), cookie(login, 'csrftoken')];
    const keyed = (key: string) => (options: InjectOptions) => t.request(key, options);
    callers = {
      session: (options) => t.app.inject({ ...options, cookies: { sessionid: session, csrftoken: csrf }, headers: { 'x-csrftoken': csrf } }),
      everyScope: keyed(alice.key),
      ownOrganization: keyed(await t.key(alice.email, ['*'], { organizations: [alice.organizationId] })),
      ownProject: keyed(await t.key(alice.email, ['*'], { teams: [alice.projectId] })),
    };
  }, 120_000);
  afterAll(() => t.close());

  it('refuses every request that names B, leaks no marker, answers no 5xx and changes nothing of B', { timeout: 300_000 }, async () => {
    const before = await snapshotOfB();
    expect(JSON.stringify(before)).toContain('described-marker');
    const spell = (id: string) => fc.constantFrom(id, id.toUpperCase(), `%20${id}`, `${id}%00`, `${id.slice(0, -1)}0`);
    const organization = fc.oneof(spell(bob.organizationId), fc.constant('@current'), fc.constant(alice.organizationId));
    const project = fc.constantFrom(String(bob.projectId), '@current', String(alice.projectId), `0${bob.projectId}`);
    const body = fc.oneof(
      fc.constant({}),
      fc.record({ level: fc.constantFrom(1, 8, 15, '15', null) }),
      fc.record({ target_email: fc.constantFrom('new@example.com', 'New@Example.com', 'other@example.com'), level: fc.constantFrom(1, 8, 15) }),
      fc.record({ label: fc.constant('x'), scopes: fc.constant(['*']), scoped_teams: fc.constantFrom([bob.projectId], []), scoped_organizations: fc.constantFrom([bob.organizationId], []) }),
      fc.record({ description: fc.string({ maxLength: 20 }), tags: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }), hidden: fc.boolean(), verified: fc.boolean(), property_type: fc.constantFrom('Numeric', 'String', null) }),
      fc.array(fc.record({ target_email: fc.constant('bulk@example.com') }), { maxLength: 2 }),
    );
    const route = fc.oneof(
      fc.tuple(fc.constantFrom('GET', 'PATCH', 'DELETE'), organization, spell(b.memberUuid)).map(([m, o, u]) => ({ method: m, url: `/api/organizations/${o}/members/${u}/`, namesB: o !== '@current' && o !== alice.organizationId })),
      fc.tuple(organization, spell(b.memberUuid)).map(([o, u]) => ({ method: 'GET', url: `/api/organizations/${o}/members/${u}/scoped_api_keys/`, namesB: o !== '@current' && o !== alice.organizationId })),
      fc.tuple(fc.constantFrom('GET', 'POST'), organization).map(([m, o]) => ({ method: m, url: `/api/organizations/${o}/members/`, namesB: o !== '@current' && o !== alice.organizationId })),
      fc.tuple(fc.constantFrom('GET', 'POST'), organization, fc.constantFrom('', 'bulk/')).map(([m, o, bulk]) => ({ method: m, url: `/api/organizations/${o}/invites/${bulk}`, namesB: o !== '@current' && o !== alice.organizationId })),
      fc.tuple(organization, spell(b.inviteId)).map(([o, i]) => ({ method: 'DELETE', url: `/api/organizations/${o}/invites/${i}/`, namesB: true })),
      fc.tuple(fc.constantFrom('GET', 'PATCH', 'DELETE'), spell(b.keyId)).map(([m, k]) => ({ method: m, url: `/api/personal_api_keys/${k}/`, namesB: true })),
      spell(b.keyId).map((k) => ({ method: 'POST', url: `/api/personal_api_keys/${k}/roll/`, namesB: true })),
      fc.tuple(fc.constantFrom('GET', 'PATCH', 'DELETE'), fc.constantFrom('projects', 'environments'), project, fc.constantFrom('event_definitions', 'property_definitions'), fc.constantFrom(b.eventId, b.propertyId))
        .map(([m, prefix, p, kind, id]) => ({ method: m, url: `/api/${prefix}/${p}/${kind}/${id}/`, namesB: true })),
      fc.tuple(fc.constantFrom('projects', 'environments'), project, fc.constantFrom('event_definitions', 'property_definitions'), fc.constantFrom('', '?search=marker', '?names=b_marker_event', '?properties=b_marker_prop', '?verified=true'))
        .map(([prefix, p, kind, query]) => ({ method: 'GET', url: `/api/${prefix}/${p}/${kind}/${query}`, namesB: p !== '@current' && p !== String(alice.projectId) })),
      fc.constantFrom({ method: 'PATCH', url: '/api/users/@me/', namesB: false }),
    );
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(callers)), route, body, async (who, { method, url, namesB }, payload) => {
        const res = await callers[who]!({ method: method as 'GET', url, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: payload as object }) });
        const context = `${who} ${method} ${url} ${JSON.stringify(payload)}: ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, context).toBeLessThan(500);
        for (const marker of MARKERS) expect(res.body.toLowerCase(), context).not.toContain(marker);
        if (namesB) {
          expect([400, 403, 404, 405], context).toContain(res.statusCode);
          refused++;
        }
        if (res.statusCode >= 400 && res.body !== '') expect(Object.keys(res.json()).sort(), context).toEqual(['attr', 'code', 'detail', 'type']);
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true },
    );
    expect(refused).toBeGreaterThan(RUNS / 3);
    expect(await snapshotOfB()).toEqual(before);
  });

  it('a key limited to her organization or her project never reaches C, an organization Alice administers outside its ceiling', { timeout: 300_000 }, async () => {
    const dave = await t.bootstrap('dave-marker@example.com', { organization: 'C' });
    await t.addMember(dave.organizationId, alice.email, MembershipLevel.admin);
    const daveUuid = (await t.services.repositories.users.findById(dave.userId))!.uuid;
    const membersOfC = async () => (await t.services.repositories.members.list(dave.organizationId, { email: undefined, oldestFirst: true })).map((m) => [m.user_uuid, m.level]);
    const before = { members: await membersOfC(), invites: await t.services.repositories.invites.list(dave.organizationId) };
    const orgId = fc.constantFrom(dave.organizationId, dave.organizationId.toUpperCase());
    const route = fc.oneof(
      orgId.map((o) => ({ method: 'GET', url: `/api/organizations/${o}/members/` })),
      fc.tuple(fc.constantFrom('PATCH', 'DELETE'), orgId, fc.constantFrom(daveUuid, '@me')).map(([m, o, u]) => ({ method: m, url: `/api/organizations/${o}/members/${u}/` })),
      orgId.map((o) => ({ method: 'GET', url: `/api/organizations/${o}/members/${daveUuid}/scoped_api_keys/` })),
      fc.tuple(fc.constantFrom('GET', 'POST'), orgId, fc.constantFrom('', 'bulk/')).map(([m, o, bulk]) => ({ method: m, url: `/api/organizations/${o}/invites/${bulk}` })),
      fc.tuple(fc.constantFrom('GET', 'PATCH'), fc.constantFrom('projects', 'environments'), fc.constantFrom('event_definitions', 'property_definitions')).map(([m, prefix, kind]) => ({ method: m, url: `/api/${prefix}/${dave.projectId}/${kind}/` })),
    );
    const body = fc.oneof(fc.record({ level: fc.constantFrom(1, 8) }), fc.constant({ target_email: 'new@example.com', level: 8 }), fc.constant([{ target_email: 'new@example.com' }]));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('ownOrganization', 'ownProject'), route, body, async (who, { method, url }, payload) => {
        const res = await callers[who]!({ method: method as 'GET', url, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: payload as object }) });
        const context = `${who} ${method} ${url} ${JSON.stringify(payload)}: ${res.statusCode} ${res.body.slice(0, 300)}`;
        // A body of the wrong shape is refused by the route's schema before anyone is looked up.
        const shapeRefused = res.statusCode === 400 && res.json().detail.startsWith('Invalid data. Expected a dictionary');
        expect(shapeRefused || [403, 404, 405].includes(res.statusCode), context).toBe(true);
        expect(res.body, context).not.toContain('dave-marker');
      }),
      { numRuns: Math.ceil(RUNS / 3), ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true },
    );
    expect({ members: await membersOfC(), invites: await t.services.repositories.invites.list(dave.organizationId) }).toEqual(before);
  });
});
