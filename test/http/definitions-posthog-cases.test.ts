// PostHog's own cases for editing definitions (ee/api/test/test_event_definition.py and
// test_property_definition.py), ported as data over Hoglet's definitions: PostHog creates its
// definition rows directly, Hoglet's come from captured events, so each case first captures an
// event of every name it needs. Counted in docs/definitions-posthog-tests.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityPage } from '../../src/core/activity.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';

describe('PostHog enterprise definition cases', () => {
  let t: TestApp;
  let who: Credentials;

  const request = (method: 'GET' | 'PATCH', path: string, payload?: object) =>
    t.request(who.key, { method, url: `/api/projects/@current/${path}`, ...(payload ? { payload } : {}) });
  const json = async (method: 'GET' | 'PATCH', path: string, payload?: object) => {
    const res = await request(method, path, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const eventId = async (name: string) => (await json('GET', `event_definitions/?search=${encodeURIComponent(name)}`)).results.find((d: any) => d.name === name).id as string;
  const propertyId = async (name: string) => (await json('GET', `property_definitions/?search=${encodeURIComponent(name)}`)).results.find((d: any) => d.name === name).id as string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    who = await t.bootstrap('user@example.com', { organization: 'test org' });
    const at = '2020-01-01T00:00:00Z';
    // EXPECTED_EVENT_DEFINITIONS and the names the single cases create.
    const names = ['purchase', 'entered_free_trial', 'watched_movie', '$pageview', 'enterprise event', 'regular event', 'visible_event', 'hidden_event1', 'hidden_event2', 'rated_app', 'installed_app'];
    await journeys(t, who, {
      abc: [
        ...names.map((name) => ev(name, at)),
        ev('property_holder', at, { 'enterprise property': 1, 'other property': 2, plan: 'a', purchase: 'b', app_rating: 5 }),
      ],
    });
  });
  afterAll(() => t.close());

  describe('test_event_definition.py', () => {
    it('test_list_event_definitions', async () => {
      const listed = async () => (await json('GET', 'event_definitions/?search=e')).results
        .filter((r: any) => ['purchase', 'entered_free_trial', 'watched_movie', '$pageview'].includes(r.name))
        .map((r: any) => [r.name, r.verified]);
      expect(await listed()).toEqual([['$pageview', false], ['entered_free_trial', false], ['purchase', false], ['watched_movie', false]]);
      for (const name of ['entered_free_trial', 'watched_movie']) await json('PATCH', `event_definitions/${await eventId(name)}/`, { verified: true });
      expect(await listed()).toEqual([['$pageview', false], ['entered_free_trial', true], ['purchase', false], ['watched_movie', true]]);
      for (const name of ['entered_free_trial', 'watched_movie']) await json('PATCH', `event_definitions/${await eventId(name)}/`, { verified: false });
    });

    it('test_update_event_definition', async () => {
      const id = await eventId('enterprise event');
      const body = await json('PATCH', `event_definitions/${id}/`, { description: 'This is a description.', tags: ['official', 'internal'] });
      expect(body.description).toBe('This is a description.');
      const me = (await t.request(who.key, { method: 'GET', url: '/api/users/@me/' })).json();
      expect(body.updated_by.first_name).toBe(me.first_name);
      expect(new Set(body.tags)).toEqual(new Set(['official', 'internal']));
      const [entry] = (await activityPage(t.services.repositories.activityLog, who.projectId, 'EventDefinition', id, { limit: 10, page: 1 })).results as any[];
      expect(entry).toMatchObject({ scope: 'EventDefinition', activity: 'changed', detail: { name: 'enterprise event' }, user: { email: 'user@example.com' } });
      // PostHog's tags keep the order sent; Hoglet's are sorted, so compared without order.
      const changes = [...entry.detail.changes].sort((a: any, b: any) => (a.field < b.field ? -1 : 1));
      expect(changes.map((c: any) => ({ ...c, after: c.field === 'tags' ? [...c.after].sort() : c.after }))).toEqual([
        { action: 'changed', after: 'This is a description.', before: '', field: 'description', type: 'EventDefinition' },
        { action: 'changed', after: ['internal', 'official'], before: [], field: 'tags', type: 'EventDefinition' },
      ]);
    });

    it('test_can_get_event_verification_data', async () => {
      const body = await json('GET', `event_definitions/${await eventId('regular event')}/`);
      expect(body).toMatchObject({ verified: false, verified_by: null, verified_at: null });
      const listed = (await json('GET', 'event_definitions/')).results.filter((p: any) => p.name === 'regular event');
      expect(listed).toHaveLength(1);
    });

    it('test_verify_then_unverify', async () => {
      const id = await eventId('purchase');
      expect(await json('GET', `event_definitions/${id}/`)).toMatchObject({ verified: false, verified_by: null, verified_at: null });
      await json('PATCH', `event_definitions/${id}/`, { verified: true });
      const verified = await json('GET', `event_definitions/${id}/`);
      expect(verified).toMatchObject({ verified: true, verified_by: { id: who.userId } });
      expect(verified.verified_at).not.toBeNull();
      await json('PATCH', `event_definitions/${id}/`, { verified: false });
      expect(await json('GET', `event_definitions/${id}/`)).toMatchObject({ verified: false, verified_by: null, verified_at: null });
    });

    it('test_verify_then_verify_again_no_change', async () => {
      const id = await eventId('watched_movie');
      await json('PATCH', `event_definitions/${id}/`, { verified: true });
      const first = await json('GET', `event_definitions/${id}/`);
      expect(first).toMatchObject({ verified: true, verified_by: { id: who.userId } });
      await new Promise((resolve) => setTimeout(resolve, 20));
      await json('PATCH', `event_definitions/${id}/`, { verified: true });
      const again = await json('GET', `event_definitions/${id}/`);
      expect(again).toMatchObject({ verified: true, verified_by: { id: who.userId }, verified_at: first.verified_at });
      // updated_at moves on every PATCH.
      expect(Date.parse(again.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
      await json('PATCH', `event_definitions/${id}/`, { verified: false });
    });

    it('test_cannot_update_verified_meta_properties_directly', async () => {
      const id = await eventId('rated_app');
      await json('PATCH', `event_definitions/${id}/`, { verified_by: who.userId, verified_at: new Date().toISOString() });
      expect(await json('GET', `event_definitions/${id}/`)).toMatchObject({ verified: false, verified_by: null, verified_at: null });
    });

    it('test_event_definition_no_duplicate_tags', async () => {
      const body = await json('PATCH', `event_definitions/${await eventId('installed_app')}/`, { tags: ['a', 'b', 'a'] });
      expect([...body.tags].sort()).toEqual(['a', 'b']);
    });

    it('test_exclude_hidden_events', async () => {
      for (const name of ['hidden_event1', 'hidden_event2']) await json('PATCH', `event_definitions/${await eventId(name)}/`, { hidden: true });
      const names = async (query: string) => new Set((await json('GET', `event_definitions/?limit=100${query}`)).results.map((p: any) => p.name));
      const hiddenOut = await names('&exclude_hidden=true');
      expect(hiddenOut.has('visible_event')).toBe(true);
      expect(hiddenOut.has('hidden_event1')).toBe(false);
      expect(hiddenOut.has('hidden_event2')).toBe(false);
      const all = await names('&exclude_hidden=false');
      expect(['visible_event', 'hidden_event1', 'hidden_event2'].every((n) => all.has(n))).toBe(true);
    });

    it('test_event_type_event', async () => {
      const body = await json('GET', 'event_definitions/?search=app&event_type=event');
      expect(body.count).toBe(2);
      expect(body.results[0].name).toBe('installed_app');
    });
  });

  describe('test_property_definition.py', () => {
    it('test_retrieve_existing_property_definition', async () => {
      const id = await propertyId('enterprise property');
      await json('PATCH', `property_definitions/${id}/`, { tags: ['deprecated'] });
      const body = await json('GET', `property_definitions/${id}/`);
      expect(body).toMatchObject({ name: 'enterprise property', tags: ['deprecated'] });
    });

    it('test_search_property_definition (single-word searches)', async () => {
      const count = async (search: string) => (await json('GET', `property_definitions/?search=${encodeURIComponent(search)}`)).results.length;
      expect(await count('enter')).toBe(1);
      expect(await count('enterprise')).toBe(1);
      expect(await count('bust')).toBe(0);
      // $set is never listed.
      expect(await count('set')).toBe(0);
      expect(await count('property')).toBe(2);
    });

    it('test_update_property_definition', async () => {
      const id = await propertyId('other property');
      const body = await json('PATCH', `property_definitions/${id}/`, { description: 'This is a description.', tags: ['official', 'internal'] });
      expect(body.description).toBe('This is a description.');
      expect(body.updated_by.email).toBe('user@example.com');
      expect([...body.tags].sort()).toEqual(['internal', 'official']);
      expect((await json('GET', `property_definitions/${id}/`)).tags.sort()).toEqual(['internal', 'official']);
    });

    it('test_filter_property_definitions', async () => {
      const body = await json('GET', 'property_definitions/?properties=plan,app_rating');
      expect(body.count).toBe(2);
      for (const item of body.results) expect(['plan', 'app_rating']).toContain(item.name);
    });
  });
});
