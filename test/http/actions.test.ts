import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MembershipLevel } from '../../src/core/auth/principal.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';

const STEP_DEFAULTS = {
  event: null,
  properties: null,
  selector: null,
  tag_name: null,
  text: null,
  text_matching: null,
  href: null,
  href_matching: null,
  url: null,
  url_matching: 'contains',
};

const nested = (depth: number, leaf: string) => '['.repeat(depth) + leaf + ']'.repeat(depth);

describe.each(META_STORES)('Actions API on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const base = (c: Credentials = alice) => `/api/projects/${c.projectId}/actions`;
  let counter = 0;
  const uniqueName = (prefix = 'action') => `${prefix} ${++counter}`;

  const create = async (payload: Record<string, unknown>, c: Credentials = alice) => {
    const res = await t.request(c.key, { method: 'POST', url: `${base(c)}/`, payload: { name: uniqueName(), ...payload } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const activity = async (projectId: number, actionId: number) =>
    (await t.services.repositories.activityLog.listForItem(projectId, 'Action', String(actionId), { limit: 100, offset: 0 })).rows;

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
  });
  afterAll(() => t.close());

  describe('create', () => {
    it("answers 201 with PostHog's ActionSerializer fields, steps completed with nulls", async () => {
      const res = await t.request(alice.key, {
        method: 'POST',
        url: `${base()}/`,
        payload: {
          name: 'user signed up',
          description: 'Test description',
          steps: [{ text: 'sign up', selector: 'div > button', url: '/signup', isNew: 'asdf' }],
        },
      });
      expect(res.statusCode).toBe(201);
      const action = res.json();
      expect(action).toEqual({
        id: expect.any(Number),
        name: 'user signed up',
        description: 'Test description',
        tags: [],
        post_to_slack: false,
        slack_message_format: '',
        steps: [{ ...STEP_DEFAULTS, text: 'sign up', selector: 'div > button', url: '/signup' }],
        created_at: expect.any(String),
        created_by: {
          id: alice.userId,
          uuid: expect.any(String),
          distinct_id: expect.any(String),
          first_name: 'alice',
          last_name: '',
          email: 'alice@example.com',
          is_email_verified: expect.any(Boolean),
          hedgehog_config: null,
        },
        deleted: false,
        is_calculating: false,
        last_calculated_at: action.created_at,
        team_id: alice.projectId,
        is_action: true,
        bytecode_error: null,
        pinned_at: null,
        creation_context: null,
        user_access_level: 'manager',
      });
      expect(Date.parse(action.created_at)).not.toBeNaN();
      const log = await activity(alice.projectId, action.id);
      expect(log).toMatchObject([{ activity: 'created', scope: 'Action', detail: { name: 'user signed up', changes: null } }]);
    });

    it('keeps every step field given, whitespace of event names included, and an explicit null url_matching', async () => {
      const step = {
        event: 'test_event ',
        properties: [{ key: '$browser', value: 'Chrome' }, { key: 'email', value: 'x', operator: 'icontains', type: 'person' }],
        selector: ' a.cta ',
        tag_name: 'a',
        text: ' Buy ',
        text_matching: 'exact',
        href: '/buy',
        href_matching: 'regex',
        url: 'https://example.com/.*',
        url_matching: 'regex',
      };
      const action = await create({ steps: [step, { event: '$pageview', url_matching: null }] });
      expect(action.steps).toEqual([
        { ...step, selector: 'a.cta' },
        { ...STEP_DEFAULTS, event: '$pageview', url_matching: null },
      ]);
    });

    it('ignores read-only fields', async () => {
      const action = await create({
        id: 99999,
        team_id: bob.projectId,
        created_by: { id: bob.userId },
        created_at: '2000-01-01T00:00:00Z',
        is_calculating: true,
        last_calculated_at: '2000-01-01T00:00:00Z',
        is_action: false,
        bytecode_error: 'boom',
        creation_context: 'wizard',
        _create_in_folder: 'Unfiled/Actions',
      });
      expect(action.id).not.toBe(99999);
      expect(action).toMatchObject({ team_id: alice.projectId, is_calculating: false, is_action: true, bytecode_error: null, creation_context: null });
      expect(action.created_by.id).toBe(alice.userId);
      expect(action.created_at.startsWith('2000')).toBe(false);
      expect(action.last_calculated_at.startsWith('2000')).toBe(false);
    });

    it('normalises tags and trims the name', async () => {
      const action = await create({ name: '  Padded name  ', tags: [' Growth', 'growth', 'Core '] });
      expect(action.name).toBe('Padded name');
      expect(action.tags).toEqual(['core', 'growth']);
    });

    it("refuses a name a live action of the project already has, in PostHog's words", async () => {
      const first = await create({ name: 'Signed up' });
      const res = await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'Signed up' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        type: 'validation_error',
        code: 'unique',
        detail: `This project already has an action with this name, ID ${first.id}`,
        attr: 'name',
      });
      // Another project may use the name.
      expect((await t.request(bob.key, { method: 'POST', url: `${base(bob)}/`, payload: { name: 'Signed up' } })).statusCode).toBe(201);
    });

    it('pins at the server time whatever date is given', async () => {
      const action = await create({ pinned_at: '2001-01-01T00:00:00Z' });
      expect(action.pinned_at).not.toBeNull();
      expect(action.pinned_at.startsWith('2001')).toBe(false);
    });
  });

  describe('retrieve and list', () => {
    it('retrieves through /api/projects/, /api/environments/ and @current, with or without the trailing slash', async () => {
      const action = await create({ steps: [{ event: '$pageview' }] });
      const direct = await t.request(alice.key, { method: 'GET', url: `${base()}/${action.id}/` });
      expect(direct.statusCode).toBe(200);
      expect(direct.json()).toEqual(action);
      for (const url of [
        `/api/environments/${alice.projectId}/actions/${action.id}/`,
        `/api/projects/@current/actions/${action.id}/`,
        `/api/environments/@current/actions/${action.id}`,
      ]) {
        const res = await t.request(alice.key, { method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.json(), url).toEqual(action);
      }
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
        const res = await t.request(alice.key, { method: 'GET', url: `${base()}/${id}/` });
        expect(res.statusCode, id).toBe(404);
        expect(res.json(), id).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
      }
    });

    it('pages with limit/offset and absolute links, never listing deleted actions', async () => {
      const org = await t.bootstrap('pager@example.com', { organization: 'Pager' });
      const names = ['b', 'a', 'd', 'c', 'e'];
      const created = [];
      for (const name of names) created.push(await create({ name }, org));
      await t.request(org.key, { method: 'PATCH', url: `${base(org)}/${created[2].id}/`, payload: { deleted: true } });

      const seen: string[] = [];
      let url: string | null = `${base(org)}/?limit=2`;
      const pages = [];
      while (url) {
        const res = await t.request(org.key, { method: 'GET', url });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        pages.push(body);
        seen.push(...body.results.map((a: { name: string }) => a.name));
        url = body.next ? body.next.replace(/^http:\/\/localhost:80/, '') : null;
      }
      expect(pages).toHaveLength(2);
      expect(pages.every((p) => p.count === 4)).toBe(true);
      expect(new Set(seen)).toEqual(new Set(['a', 'b', 'c', 'e']));
      expect(pages[0].next).toBe(`http://localhost:80${base(org)}/?limit=2&offset=2`);
      expect(pages[0].previous).toBeNull();
      expect(pages[1].previous).toBe(`http://localhost:80${base(org)}/?limit=2`);
      const all = (await t.request(org.key, { method: 'GET', url: `${base(org)}/` })).json();
      expect(all).toMatchObject({ count: 4, next: null, previous: null });
    });

    it('hostile query strings never give a 5xx', async () => {
      for (const query of ['limit=1e999', 'offset=99999999999999999999', 'limit=-1', 'limit[]=1', 'offset=%00']) {
        const res = await t.request(alice.key, { method: 'GET', url: `${base()}/?${query}` });
        expect(res.statusCode, query).toBe(200);
      }
    });
  });

  describe('update, soft delete and restore', () => {
    it('changes fields, replaces steps, and logs the changes', async () => {
      const action = await create({ name: 'before', steps: [{ event: '$autocapture', text: 'sign me up!' }] });
      const res = await t.request(alice.key, {
        method: 'PATCH',
        url: `${base()}/${action.id}/`,
        payload: {
          name: 'after',
          description: 'updated description',
          steps: [{ event: '$pageview', href: '/a-new-link' }],
          post_to_slack: true,
          created_by: { id: 1 },
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        name: 'after',
        description: 'updated description',
        post_to_slack: true,
        steps: [{ ...STEP_DEFAULTS, event: '$pageview', href: '/a-new-link' }],
        created_by: { id: alice.userId },
      });
      const reread = (await t.request(alice.key, { method: 'GET', url: `${base()}/${action.id}/` })).json();
      expect(reread).toEqual(res.json());
      const [latest] = await activity(alice.projectId, action.id);
      expect(latest).toMatchObject({ activity: 'updated', detail: { name: 'after' } });
      expect((latest!.detail as { changes: Array<{ field: string }> }).changes.map((c) => c.field)).toEqual([
        'name', 'description', 'post_to_slack', 'steps',
      ]);
    });

    it('a PATCH without changes answers the action and logs nothing', async () => {
      const action = await create({});
      const res = await t.request(alice.key, { method: 'PATCH', url: `${base()}/${action.id}/`, payload: { name: action.name } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(action);
      expect(await activity(alice.projectId, action.id)).toHaveLength(1);
    });

    it('soft-deletes with deleted: true and restores with false; a clashing restore is refused', async () => {
      const action = await create({ name: 'Doomed' });
      const item = `${base()}/${action.id}/`;
      const deleted = await t.request(alice.key, { method: 'PATCH', url: item, payload: { deleted: true } });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json().deleted).toBe(true);
      expect((await activity(alice.projectId, action.id))[0]).toMatchObject({ activity: 'deleted' });

      const list = (await t.request(alice.key, { method: 'GET', url: `${base()}/?limit=1000` })).json();
      expect(list.results.map((a: { id: number }) => a.id)).not.toContain(action.id);
      const got = await t.request(alice.key, { method: 'GET', url: item });
      expect(got.statusCode).toBe(200);
      expect(got.json().deleted).toBe(true);
      expect(await t.services.actions.getForQuery(alice.projectId, action.id)).toBeNull();

      // The name is free again while the action is deleted...
      const replacement = await create({ name: 'Doomed' });
      // ...so restoring it under that name would make two.
      const clash = await t.request(alice.key, { method: 'PATCH', url: item, payload: { deleted: false } });
      expect(clash.statusCode).toBe(400);
      expect(clash.json()).toEqual({
        type: 'validation_error',
        code: 'unique',
        detail: `This project already has an action with this name, ID ${replacement.id}`,
        attr: 'name',
      });
      const restored = await t.request(alice.key, { method: 'PATCH', url: item, payload: { deleted: false, name: 'Doomed again' } });
      expect(restored.statusCode).toBe(200);
      expect(restored.json()).toMatchObject({ deleted: false, name: 'Doomed again' });
      expect((await activity(alice.projectId, action.id))[0]).toMatchObject({ activity: 'updated' });
      const relisted = (await t.request(alice.key, { method: 'GET', url: `${base()}/?limit=1000` })).json();
      expect(relisted.results.map((a: { id: number }) => a.id)).toContain(action.id);
    });

    it('pins once, keeps the first pin time, and unpins with null or ""', async () => {
      const action = await create({});
      const item = `${base()}/${action.id}/`;
      const pinned = (await t.request(alice.key, { method: 'PATCH', url: item, payload: { pinned_at: '2021-12-11T00:00:00Z' } })).json();
      expect(pinned.pinned_at).not.toBeNull();
      expect(pinned.pinned_at.startsWith('2021')).toBe(false);
      const again = (await t.request(alice.key, { method: 'PATCH', url: item, payload: { pinned_at: '2030-01-01T00:00:00Z' } })).json();
      expect(again.pinned_at).toBe(pinned.pinned_at);
      expect((await t.request(alice.key, { method: 'PATCH', url: item, payload: { pinned_at: '' } })).json().pinned_at).toBeNull();
      await t.request(alice.key, { method: 'PATCH', url: item, payload: { pinned_at: '2030-01-01' } });
      expect((await t.request(alice.key, { method: 'PATCH', url: item, payload: { pinned_at: null } })).json().pinned_at).toBeNull();
    });

    it('DELETE is 405, as in PostHog, and changes nothing', async () => {
      const action = await create({});
      const res = await t.request(alice.key, { method: 'DELETE', url: `${base()}/${action.id}/` });
      expect(res.statusCode).toBe(405);
      expect(res.json()).toEqual({
        type: 'invalid_request',
        code: 'method_not_allowed',
        detail: 'Method "DELETE" not allowed.',
        attr: null,
      });
      expect((await t.request(alice.key, { method: 'GET', url: `${base()}/${action.id}/` })).json()).toEqual(action);
      const put = await t.request(alice.key, { method: 'PUT', url: `${base()}/${action.id}/`, payload: {} });
      expect(put.statusCode).toBe(405);
    });

    it('a member who did not create the action is an editor of it', async () => {
      const action = await create({});
      await t.addMember(alice.organizationId, 'carol@example.com', MembershipLevel.member);
      const carolKey = await t.key('carol@example.com', ['action:write']);
      const res = await t.request(carolKey, { method: 'PATCH', url: `${base()}/${action.id}/`, payload: { description: 'by carol' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ description: 'by carol', user_access_level: 'editor', created_by: { id: alice.userId } });
    });
  });

  describe('validation', () => {
    it("answers PostHog's error bodies and stores nothing", async () => {
      const action = await create({ name: 'Validated' });
      const item = `${base()}/${action.id}/`;
      const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
        [{ name: '' }, { code: 'blank', detail: 'This field may not be blank.', attr: 'name' }],
        [{ name: '   ' }, { code: 'blank', detail: 'This field may not be blank.', attr: 'name' }],
        [{ name: null }, { code: 'null', detail: 'This field may not be null.', attr: 'name' }],
        [{ name: 5 }, { code: 'invalid_input', detail: 'Not a valid string.', attr: 'name' }],
        [{ name: 'x'.repeat(401) }, { code: 'max_length', detail: 'Ensure this field has no more than 400 characters.', attr: 'name' }],
        [{ name: 'a\u0000b' }, { code: 'null_characters_not_allowed', detail: 'Null characters are not allowed.', attr: 'name' }],
        [{ description: null }, { code: 'null', attr: 'description' }],
        [{ post_to_slack: 'yes' }, { code: 'invalid_input', detail: 'Must be a valid boolean.', attr: 'post_to_slack' }],
        [{ deleted: 'true' }, { code: 'invalid_input', detail: 'Must be a valid boolean.', attr: 'deleted' }],
        [{ slack_message_format: 'x'.repeat(1201) }, { code: 'max_length', attr: 'slack_message_format' }],
        [{ tags: 'growth' }, { code: 'not_a_list', detail: 'Expected a list of items but got type "str".', attr: 'tags' }],
        [{ tags: [1] }, { code: 'invalid_input', detail: 'Not a valid string.', attr: 'tags__0' }],
        [{ tags: ['ok', ' '] }, { code: 'blank', attr: 'tags__1' }],
        [{ steps: null }, { code: 'null', detail: 'This field may not be null.', attr: 'steps' }],
        [{ steps: { event: 'x' } }, { code: 'not_a_list', detail: 'Expected a list of items but got type "dict".', attr: 'steps' }],
        [{ steps: ['$pageview'] }, { code: 'invalid', detail: 'Invalid data. Expected a dictionary, but got str.', attr: 'steps__0' }],
        [{ steps: [{}, 5] }, { code: 'invalid', detail: 'Invalid data. Expected a dictionary, but got int.', attr: 'steps__1' }],
        [{ steps: [{ event: 5 }] }, { code: 'invalid_input', detail: 'Not a valid string.', attr: 'steps__0__event' }],
        [{ steps: [{ event: '' }] }, { code: 'blank', detail: 'This field may not be blank.', attr: 'steps__0__event' }],
        [{ steps: [{ url: '  ' }] }, { code: 'blank', attr: 'steps__0__url' }],
        [{ steps: [{ text: 'a\u0000' }] }, { code: 'null_characters_not_allowed', attr: 'steps__0__text' }],
        [{ steps: [{ url_matching: 'startswith' }] }, { code: 'invalid_choice', detail: '"startswith" is not a valid choice.', attr: 'steps__0__url_matching' }],
        [{ steps: [{ text_matching: 1 }] }, { code: 'invalid_choice', detail: '"1" is not a valid choice.', attr: 'steps__0__text_matching' }],
        [{ steps: [{ href_matching: 'icontains' }] }, { code: 'invalid_choice', attr: 'steps__0__href_matching' }],
        [{ steps: [{ properties: 'x' }] }, { code: 'not_a_list', detail: 'Expected a list of items but got type "str".', attr: 'steps__0__properties' }],
        [{ steps: [{ properties: [[]] }] }, { code: 'not_a_dict', detail: 'Expected a dictionary of items but got type "list".', attr: 'steps__0__properties__0' }],
        [{ steps: [{ properties: [{ value: 1 }] }] }, { code: 'required', detail: 'This field is required.', attr: 'steps__0__properties__0__key' }],
        [{ steps: [{ properties: [{ key: 3 }] }] }, { code: 'invalid_input', detail: 'Not a valid string.', attr: 'steps__0__properties__0__key' }],
        [{ steps: [{ properties: [{ key: '' }] }] }, { code: 'blank', attr: 'steps__0__properties__0__key' }],
        [{ steps: [{ properties: [{ key: 'a', type: 'planet' }] }] }, { code: 'invalid_choice', detail: '"planet" is not a valid choice.', attr: 'steps__0__properties__0__type' }],
        [{ steps: [{ properties: [{ key: 'a', operator: 'like' }] }] }, { code: 'invalid_choice', detail: '"like" is not a valid choice.', attr: 'steps__0__properties__0__operator' }],
        [{ steps: [{ properties: [{ key: 'a', operator: 'regex', value: '(' }] }] }, { code: 'invalid_input', attr: 'steps__0__properties__0__value' }],
        [{ steps: [{ url: '[a-', url_matching: 'regex' }] }, { code: 'invalid_input', attr: 'steps__0__url' }],
        [{ steps: [{ url: '(?=x)y', url_matching: 'regex' }] }, { code: 'invalid_input', detail: 'Invalid regular expression: look-around assertions are not supported', attr: 'steps__0__url' }],
        [{ steps: [{ text: '(a)\\1', text_matching: 'regex' }] }, { code: 'invalid_input', detail: 'Invalid regular expression: back-references are not supported', attr: 'steps__0__text' }],
        [{ steps: [{ href: '*', href_matching: 'regex' }] }, { code: 'invalid_input', attr: 'steps__0__href' }],
        [{ pinned_at: 'tomorrow' }, { code: 'invalid', attr: 'pinned_at' }],
        [{ pinned_at: 5 }, { code: 'invalid_input', attr: 'pinned_at' }],
      ];
      for (const [payload, expected] of cases) {
        const res = await t.request(alice.key, { method: 'PATCH', url: item, payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json(), JSON.stringify(payload)).toMatchObject({ type: 'validation_error', ...expected });
      }
      expect((await t.request(alice.key, { method: 'GET', url: item })).json()).toEqual(action);
      expect(await activity(alice.projectId, action.id)).toHaveLength(1);
    });

    it('name is required on create', async () => {
      const res = await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { steps: [] } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'name' });
      const empty = await t.request(alice.key, { method: 'POST', url: `${base()}/` });
      expect(empty.json().attr).toBe('name');
    });

    it('accepts regexes RE2 accepts: a leading flag group, character classes, escaped digits in classes', async () => {
      const action = await create({
        steps: [
          { url: '(?i)^https://example\\.com/(docs|blog)/[\\d]+$', url_matching: 'regex' },
          { text: '[\\1]x', text_matching: 'regex' },
          { event: 'e', properties: [{ key: '$current_url', operator: 'not_regex', value: '^http://localhost' }] },
        ],
      });
      expect(action.steps).toHaveLength(3);
    });
  });

  describe('authorization and isolation', () => {
    it('needs action:write to write and action:read to read', async () => {
      const readKey = await t.key('alice@example.com', ['action:read']);
      const action = await create({});
      const post = await t.request(readKey, { method: 'POST', url: `${base()}/`, payload: { name: uniqueName() } });
      expect(post.statusCode).toBe(403);
      expect(post.json()).toEqual({
        type: 'authentication_error',
        code: 'permission_denied',
        detail: "API key missing required scope 'action:write'",
        attr: null,
      });
      expect((await t.request(readKey, { method: 'PATCH', url: `${base()}/${action.id}/`, payload: { deleted: true } })).statusCode).toBe(403);
      expect((await t.request(readKey, { method: 'DELETE', url: `${base()}/${action.id}/` })).statusCode).toBe(403);
      expect((await t.request(readKey, { method: 'GET', url: `${base()}/` })).statusCode).toBe(200);
      expect((await t.request(readKey, { method: 'GET', url: `${base()}/${action.id}/` })).statusCode).toBe(200);

      const insightKey = await t.key('alice@example.com', ['insight:write', 'project:read']);
      const refused = await t.request(insightKey, { method: 'GET', url: `${base()}/` });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toBe("API key missing required scope 'action:read'");
      expect((await t.request(null, { method: 'GET', url: `${base()}/` })).statusCode).toBe(401);
    });

    it("a key limited to other projects is refused with PostHog's 403", async () => {
      const other = (await t.request(alice.key, { method: 'POST', url: '/api/projects/', payload: { name: 'Second project' } })).json();
      const narrowKey = await t.key('alice@example.com', ['action:read'], { teams: [other.id] });
      const res = await t.request(narrowKey, { method: 'GET', url: `${base()}/` });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe(`API key does not have access to the requested project: ID ${alice.projectId}.`);
      expect((await t.request(narrowKey, { method: 'GET', url: `/api/projects/${other.id}/actions/` })).statusCode).toBe(200);
    });

    it("another organization's actions look as if they did not exist", async () => {
      const secret = await create({ name: 'Bob secret' }, bob);
      const requests = [
        { method: 'GET' as const, url: `${base(bob)}/` },
        { method: 'POST' as const, url: `${base(bob)}/`, payload: { name: 'intruder' } },
        { method: 'GET' as const, url: `${base(bob)}/${secret.id}/` },
        { method: 'PATCH' as const, url: `${base(bob)}/${secret.id}/`, payload: { deleted: true } },
        { method: 'DELETE' as const, url: `${base(bob)}/${secret.id}/` },
        // Bob's action id through Alice's own project.
        { method: 'GET' as const, url: `${base()}/${secret.id}/` },
        { method: 'PATCH' as const, url: `${base()}/${secret.id}/`, payload: { name: 'stolen' } },
        { method: 'GET' as const, url: `/api/environments/${bob.projectId}/actions/${secret.id}/` },
      ];
      for (const request of requests) {
        const res = await t.request(alice.key, request);
        expect(res.statusCode, `${request.method} ${request.url}`).toBe(404);
        expect(res.json()).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
      }
      const list = (await t.request(alice.key, { method: 'GET', url: `${base()}/?limit=10000` })).json();
      expect(list.results.every((a: { team_id: number }) => a.team_id === alice.projectId)).toBe(true);
      expect(list.results.map((a: { id: number }) => a.id)).not.toContain(secret.id);
      const stillThere = (await t.request(bob.key, { method: 'GET', url: `${base(bob)}/${secret.id}/` })).json();
      expect(stillThere).toEqual(secret);
      expect(await t.services.actions.getForQuery(alice.projectId, secret.id)).toBeNull();
    });
  });

  describe('for the query engine', () => {
    it('getForQuery gives the id, name and stored steps of a live action, else null', async () => {
      const action = await create({ name: 'Pricing viewed', steps: [{ event: '$pageview', url: '/pricing' }] });
      expect(await t.services.actions.getForQuery(alice.projectId, action.id)).toEqual({
        id: action.id,
        name: 'Pricing viewed',
        steps: [{ ...STEP_DEFAULTS, event: '$pageview', url: '/pricing' }],
      });
      expect(await t.services.actions.getForQuery(alice.projectId, 987654)).toBeNull();
      expect(await t.services.actions.getForQuery(bob.projectId, action.id)).toBeNull();
    });

    it("deleting a project removes its actions", async () => {
      const doomed = (await t.request(alice.key, { method: 'POST', url: '/api/projects/', payload: { name: 'Short-lived' } })).json();
      const res = await t.request(alice.key, { method: 'POST', url: `/api/projects/${doomed.id}/actions/`, payload: { name: 'gone' } });
      expect(res.statusCode).toBe(201);
      expect((await t.request(alice.key, { method: 'DELETE', url: `/api/projects/${doomed.id}/` })).statusCode).toBe(204);
      const rows = await t.services.meta.db.selectFrom('actions').select('id').where('team_id', '=', doomed.id).execute();
      expect(rows).toEqual([]);
    });
  });

  describe('hostile input', () => {
    const snapshot = async (id: number) => (await t.request(alice.key, { method: 'GET', url: `${base()}/${id}/` })).json();

    it('prototype pollution keys and deep nesting are refused without a 5xx', async () => {
      const action = await create({ steps: [{ event: 'e' }] });
      const item = `${base()}/${action.id}/`;
      const raw = (body: string) =>
        t.request(alice.key, { method: 'PATCH', url: item, payload: body, headers: { 'content-type': 'application/json' } });
      const proto = await raw('{"name":"p","__proto__":{"admin":true}}');
      expect(proto.statusCode).toBe(400);
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
      const stepProto = await raw('{"steps":[{"event":"e2","constructor":{"prototype":{"x":1}}}]}');
      expect(stepProto.statusCode).toBe(400);
      for (const depth of [40, 10_000, 200_000]) {
        const res = await raw(`{"steps":[{"event":"x","properties":[{"key":"k","value":${nested(depth, '1')}}]}]}`);
        expect(res.statusCode, String(depth)).toBe(400);
        expect(Object.keys(res.json()).sort()).toEqual(['attr', 'code', 'detail', 'type']);
      }
      expect((await raw(`{"steps":${nested(5_000, '{}')}}`)).statusCode).toBe(400);
      expect(await snapshot(action.id)).toEqual(action);
    });

    it('every writable field survives every hostile value with a 2xx or 4xx, never a 5xx', async () => {
      const action = await create({});
      const item = `${base()}/${action.id}/`;
      const hostile: unknown[] = [
        {}, [], [[[]]], 'x'.repeat(20_000), 1e308, -1, 0, true, null, { $ne: 1 }, "'; drop table actions; --", '\u0000',
        ['\u0000'], 3.7, '2026-01-01', [{ key: '\u0000', value: '\u0000' }], [{ properties: [{ key: 'k', value: { $gt: '' } }] }],
        [{ event: 'x'.repeat(200_000) }], [{ url: '((((((((((a', url_matching: 'regex' }],
        '\ud800', [{ event: 'buy\ud800' }], [{ properties: [{ key: 'k\ud800', value: 'v\udc00', type: 'event' }] }],
      ];
      const fields = ['name', 'description', 'tags', 'post_to_slack', 'slack_message_format', 'steps', 'deleted', 'pinned_at'];
      for (const field of fields) {
        for (const value of hostile) {
          const res = await t.request(alice.key, { method: 'PATCH', url: item, payload: { [field]: value } });
          expect(res.statusCode, `${field}=${JSON.stringify(value).slice(0, 40)}`).toBeLessThan(500);
          if (res.statusCode >= 400) expect(Object.keys(res.json()).sort()).toEqual(['attr', 'code', 'detail', 'type']);
          const created = await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: uniqueName('hostile'), [field]: value } });
          expect(created.statusCode, `create ${field}=${JSON.stringify(value).slice(0, 40)}`).toBeLessThan(500);
        }
      }
      const after = await snapshot(action.id);
      expect(typeof after.name).toBe('string');
      expect((await t.request(alice.key, { method: 'GET', url: `${base()}/?limit=10000` })).statusCode).toBe(200);
    });

    it('a huge body is 413, a wrong media type 415, a non-object body 400', async () => {
      const big = await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'big', description: 'x'.repeat(2 * 1024 * 1024) } });
      expect(big.statusCode).toBe(413);
      const form = await t.request(alice.key, {
        method: 'POST',
        url: `${base()}/`,
        payload: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.statusCode).toBe(415);
      const list = await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: '[1]', headers: { 'content-type': 'application/json' } });
      expect(list.statusCode).toBe(400);
      expect(list.json().detail).toBe('Invalid data. Expected a dictionary, but got list.');
    });
  });
});
