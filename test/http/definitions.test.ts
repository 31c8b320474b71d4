// The taxonomy endpoints as PostHog's clients use them: event names and property keys computed
// from what was captured, paged with links a client follows to the end, filtered the way
// @posthog/agent-toolkit asks, and never showing another project's data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

/** A UUID as zod's `.uuid()` takes it: RFC 4122 layout, a version digit and the variant bits. */
const RFC_4122 = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const notFound = { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null };

describe.each(META_STORES)('event and property definitions on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;

  const get = (who: Credentials, path: string, key = who.key) => t.request(key, { method: 'GET', url: `/api/projects/${who.projectId}/${path}` });
  // Bodies are JSON of the shapes under test, read loosely.
  const names = (body: { results: { name: string }[] }): string[] => body.results.map((r) => r.name);
  const byName = (body: { results: { name: string }[] }): Record<string, any> => Object.fromEntries(body.results.map((r) => [r.name, r]));

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    await journeys(t, alice, {
      u1: [
        ev('$pageview', '2024-03-05T12:30:00Z', { $browser: 'Chrome', $current_url: 'https://shop.example.com/', $feature_flag_response: 'x' }),
        ev('signed_up', '2024-03-02T09:00:00Z', {
          plan: 'pro',
          seats: 3,
          is_trial: true,
          trial_ends_at: '2024-04-01T00:00:00Z',
          $feature_x: 1,
          '$feature/new-checkout': true,
          $set: { email: 'u1@example.com', age: 31, beta: false },
        }),
        ev('$pageview', '2024-03-01T10:00:00Z', { $browser: 'Firefox', price: 12.5 }),
      ],
      u2: [
        ev('$pageview', '2024-03-03T08:15:00.250Z', { $browser: 'Safari', mixed: 1 }),
        ev('Purchase Completed', '2024-03-04T18:00:00Z', { price: 99, mixed: 'one', distinct_id: 'u2', empty: null, items: [1, 2] }),
        // Long before any recent window: still listed.
        ev('legacy_import', '2019-06-01T00:00:00Z', { imported_at: '2019-06-01', source_system: 'crm' }),
      ],
    });
    await journeys(t, bob, {
      b1: [ev('bob_secret_event', '2024-03-02T00:00:00Z', { bob_secret_prop: 'x', $set: { bob_person_prop: 1 } })],
    });
  });
  afterAll(() => t.close());

  describe('event definitions', () => {
    it('lists each stored event name once, by name, with its first and last time seen', async () => {
      const res = await get(alice, 'event_definitions/');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ count: 4, next: null, previous: null });
      expect(names(body)).toEqual(['$pageview', 'Purchase Completed', 'legacy_import', 'signed_up']);
      const pageview = byName(body).$pageview;
      expect(pageview).toEqual({
        id: expect.stringMatching(RFC_4122),
        name: '$pageview',
        owner: null,
        description: null,
        created_at: '2024-03-01T10:00:00.000000Z',
        updated_at: null,
        updated_by: null,
        last_seen_at: '2024-03-05T12:30:00.000000Z',
        verified: false,
        verified_at: null,
        verified_by: null,
        hidden: false,
        is_action: false,
        post_to_slack: false,
        default_columns: [],
        tags: [],
        volume_30_day: 0, // every event is older than 30 days
        query_usage_30_day: null,
      });
      expect(byName(body).legacy_import).toMatchObject({ created_at: '2019-06-01T00:00:00.000000Z', last_seen_at: '2019-06-01T00:00:00.000000Z' });
      // Ids are distinct and stable across requests.
      const ids = body.results.map((r: { id: string }) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect((await get(alice, 'event_definitions/')).json().results.map((r: { id: string }) => r.id)).toEqual(ids);
    });

    it('searches names case-insensitively', async () => {
      expect(names((await get(alice, 'event_definitions/?search=PAGE')).json())).toEqual(['$pageview']);
      expect(names((await get(alice, 'event_definitions/?search=ed')).json())).toEqual(['Purchase Completed', 'signed_up']);
      const none = (await get(alice, 'event_definitions/?search=nothing-like-this')).json();
      expect(none).toEqual({ count: 0, next: null, previous: null, results: [] });
    });

    it('pages with next links that a client can follow to the end', async () => {
      let url: string | null = `http://localhost/api/projects/${alice.projectId}/event_definitions/?limit=3`;
      const seen: string[] = [];
      const previous: (string | null)[] = [];
      while (url) {
        const { pathname, search } = new URL(url);
        const res = await t.request(alice.key, { method: 'GET', url: pathname + search });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        expect(body.count).toBe(4);
        seen.push(...names(body));
        previous.push(body.previous);
        url = body.next;
      }
      expect(seen).toEqual(['$pageview', 'Purchase Completed', 'legacy_import', 'signed_up']);
      expect(previous[0]).toBeNull();
      expect(previous[1]).toMatch(/\/event_definitions\/\?limit=3$/);
    });

    it('answers a page past the end with the count and a previous link', async () => {
      const body = (await get(alice, 'event_definitions/?limit=2&offset=10')).json();
      expect(body.count).toBe(4);
      expect(body.results).toEqual([]);
      expect(body.next).toBeNull();
      expect(body.previous).toMatch(/limit=2&offset=8$/);
    });

    it('retrieves one definition by the id the list gave, and 404s any other id', async () => {
      const list = (await get(alice, 'event_definitions/')).json();
      const signedUp = byName(list).signed_up;
      const one = await get(alice, `event_definitions/${signedUp.id}/`);
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json()).toEqual(signedUp);
      expect((await get(alice, `event_definitions/${signedUp.id.toUpperCase()}/`)).json()).toEqual(signedUp);

      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1']) {
        const res = await get(alice, `event_definitions/${id}/`);
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual(notFound);
      }
      // Bob's definition, asked for in Alice's project, does not exist there.
      const bobs = (await get(bob, 'event_definitions/')).json().results[0];
      expect((await get(alice, `event_definitions/${bobs.id}/`)).statusCode).toBe(404);
    });

    it('answers under /api/environments/ and for @current too', async () => {
      const projects = (await get(alice, 'event_definitions/')).json();
      for (const url of [`/api/environments/${alice.projectId}/event_definitions/`, '/api/projects/@current/event_definitions/']) {
        const res = await t.request(alice.key, { method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.json().results).toEqual(projects.results);
      }
    });
  });

  describe('property definitions', () => {
    it('lists event property keys by name with their types; ingestion keys stay hidden', async () => {
      const res = await get(alice, 'property_definitions/');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(names(body)).toEqual([...names(body)].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1)));
      const props = byName(body);
      expect(props.plan).toEqual({
        id: expect.stringMatching(RFC_4122),
        name: 'plan',
        description: null,
        is_numerical: false,
        property_type: 'String',
        tags: [],
        is_seen_on_filtered_events: null,
        updated_at: null,
        updated_by: null,
        verified: false,
        verified_at: null,
        verified_by: null,
        hidden: false,
      });
      const typeOf = (name: string) => ({ property_type: props[name]?.property_type, is_numerical: props[name]?.is_numerical });
      expect(typeOf('seats')).toEqual({ property_type: 'Numeric', is_numerical: true });
      expect(typeOf('price')).toEqual({ property_type: 'Numeric', is_numerical: true });
      expect(typeOf('is_trial')).toEqual({ property_type: 'Boolean', is_numerical: false });
      expect(typeOf('trial_ends_at')).toEqual({ property_type: 'DateTime', is_numerical: false });
      expect(typeOf('imported_at')).toEqual({ property_type: 'DateTime', is_numerical: false });
      expect(typeOf('$browser')).toEqual({ property_type: 'String', is_numerical: false });
      // A number on one event and a string on another, only nulls, a list: no known type.
      expect(typeOf('mixed')).toEqual({ property_type: null, is_numerical: false });
      expect(typeOf('empty')).toEqual({ property_type: null, is_numerical: false });
      expect(typeOf('items')).toEqual({ property_type: null, is_numerical: false });
      // Events older than any recent window still count.
      expect(props.source_system).toBeDefined();
      for (const hidden of ['$set', 'distinct_id']) expect(props[hidden]).toBeUndefined();
      expect(body.count).toBe(body.results.length);
    });

    it('pages property keys with next links to the end', async () => {
      const all = names((await get(alice, 'property_definitions/')).json());
      let url: string | null = `http://localhost/api/projects/${alice.projectId}/property_definitions/?limit=4&type=event`;
      const seen: string[] = [];
      while (url) {
        const { pathname, search } = new URL(url);
        const body: { count: number; next: string | null; results: { name: string }[] } = (
          await t.request(alice.key, { method: 'GET', url: pathname + search })
        ).json();
        expect(body.count).toBe(all.length);
        expect(body.results.length).toBeLessThanOrEqual(4);
        seen.push(...names(body));
        url = body.next;
      }
      expect(seen).toEqual(all);
    });

    it('searches property names case-insensitively', async () => {
      expect(names((await get(alice, 'property_definitions/?search=TRIAL')).json())).toEqual(['is_trial', 'trial_ends_at']);
    });

    it('keeps only properties seen on the named events when asked, as the agent toolkit does', async () => {
      const only = (await get(alice, `property_definitions/?event_names=${encodeURIComponent('["signed_up"]')}&filter_by_event_names=true&exclude_core_properties=false&is_feature_flag=false&exclude_hidden=true&limit=200&offset=0`)).json();
      // `$ip`: capture records the client's address on every event, as PostHog does.
      expect(names(only)).toEqual(['$feature_x', '$ip', 'is_trial', 'plan', 'seats', 'trial_ends_at']);
      expect(only.results.every((r: { is_seen_on_filtered_events: boolean }) => r.is_seen_on_filtered_events === true)).toBe(true);

      const marked = (await get(alice, `property_definitions/?event_names=${encodeURIComponent('["Purchase Completed"]')}`)).json();
      const seen = marked.results.filter((r: { is_seen_on_filtered_events: boolean }) => r.is_seen_on_filtered_events);
      // Seen ones first (as PostHog orders them), each group by name; the rest marked false.
      expect(names({ results: seen })).toEqual(['$ip', 'empty', 'items', 'mixed', 'price']);
      expect(names(marked).slice(0, 5)).toEqual(['$ip', 'empty', 'items', 'mixed', 'price']);
      expect(marked.results.slice(5).every((r: { is_seen_on_filtered_events: boolean }) => r.is_seen_on_filtered_events === false)).toBe(true);
      expect(marked.count).toBe((await get(alice, 'property_definitions/')).json().count);
    });

    it("leaves out PostHog's core ($) properties when asked", async () => {
      const body = (await get(alice, 'property_definitions/?exclude_core_properties=true')).json();
      expect(names(body).length).toBeGreaterThan(0);
      expect(names(body).filter((n) => n.startsWith('$'))).toEqual([]);
      expect(names(body)).toContain('plan');
    });

    it('filters feature flag properties in or out', async () => {
      expect(names((await get(alice, 'property_definitions/?is_feature_flag=true')).json())).toEqual(['$feature/new-checkout']);
      const without = names((await get(alice, 'property_definitions/?is_feature_flag=false')).json());
      expect(without).not.toContain('$feature/new-checkout');
      expect(without).toContain('$feature_x');
    });

    it('lists person properties from the latest version of each person', async () => {
      const res = await get(alice, 'property_definitions/?type=person');
      expect(res.statusCode, res.body).toBe(200);
      const props = byName(res.json());
      expect(props.email).toMatchObject({ property_type: 'String', is_numerical: false, is_seen_on_filtered_events: null });
      expect(props.age).toMatchObject({ property_type: 'Numeric', is_numerical: true });
      expect(props.beta).toMatchObject({ property_type: 'Boolean' });
      expect(props.plan).toBeUndefined();
      // A person property's id differs from an event property's of the same name.
      const eventPlan = byName((await get(alice, 'property_definitions/?search=plan')).json()).plan;
      expect(eventPlan.id).not.toBe(props.email.id);
    });
  });

  describe('group properties', () => {
    it('lists the properties of one group type, from each group\'s latest properties', async () => {
      const groups = [
        { event: '$groupidentify', distinct_id: 'g-maker', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { industry: 'tools', seats: 12 } } },
        { event: '$groupidentify', distinct_id: 'g-maker', properties: { $group_type: 'project', $group_key: 'p1', $group_set: { stage: 'beta' } } },
      ];
      const sent = await t.request(null, { method: 'POST', url: '/batch/', payload: { api_key: alice.projectApiToken, batch: groups } });
      expect(sent.statusCode).toBe(200);
      const company = await get(alice, 'property_definitions/?type=group&group_type_index=0');
      expect(company.statusCode, company.body).toBe(200);
      expect(names(company.json())).toEqual(['industry', 'seats']);
      expect(byName(company.json()).seats).toMatchObject({ property_type: 'Numeric' });
      expect(names((await get(alice, 'property_definitions/?type=group&group_type_index=1')).json())).toEqual(['stage']);
      expect(names((await get(alice, 'property_definitions/?type=group&group_type_index=2')).json())).toEqual([]);
      // Each group type's property is a definition of its own.
      expect(byName(company.json()).industry.id).not.toBe(byName((await get(alice, 'property_definitions/?search=industry')).json()).industry?.id);
      expect(names((await get(bob, 'property_definitions/?type=group&group_type_index=0')).json())).toEqual([]);
    });
  });

  describe('tenancy, scopes and validation', () => {
    it("never shows another project's events or properties", async () => {
      const bobEvents = names((await get(bob, 'event_definitions/')).json());
      expect(bobEvents).toEqual(['bob_secret_event']);
      expect(names((await get(bob, 'property_definitions/')).json())).toEqual(['$ip', 'bob_secret_prop']);
      expect(names((await get(bob, 'property_definitions/?type=person')).json())).toEqual(['bob_person_prop']);

      expect(names((await get(alice, 'event_definitions/')).json())).not.toContain('bob_secret_event');
      expect(names((await get(alice, 'property_definitions/?limit=1000')).json())).not.toContain('bob_secret_prop');
      expect(names((await get(alice, 'property_definitions/?type=person')).json())).not.toContain('bob_person_prop');
      // Bob's key cannot read Alice's project at all.
      for (const path of ['event_definitions/', 'property_definitions/']) {
        const res = await get(alice, path, bob.key);
        expect(res.statusCode, path).toBe(404);
        expect(res.json()).toEqual(notFound);
      }
    });

    it('needs event_definition:read and property_definition:read', async () => {
      const projectOnly = await t.key(alice.email, ['project:read']);
      for (const path of ['event_definitions/', 'property_definitions/']) {
        const res = await get(alice, path, projectOnly);
        expect(res.statusCode, path).toBe(403);
        expect(res.json()).toMatchObject({ type: 'authentication_error', code: 'permission_denied', attr: null });
      }
      const eventsOnly = await t.key(alice.email, ['event_definition:read']);
      expect((await get(alice, 'event_definitions/', eventsOnly)).statusCode).toBe(200);
      const refused = await get(alice, 'property_definitions/', eventsOnly);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toBe("API key missing required scope 'property_definition:read'");
      const propertiesOnly = await t.key(alice.email, ['property_definition:read']);
      expect((await get(alice, 'property_definitions/', propertiesOnly)).statusCode).toBe(200);
      expect((await get(alice, 'event_definitions/', propertiesOnly)).statusCode).toBe(403);
    });

    it("answers bad parameters with 400 in PostHog's validation format", async () => {
      const cases: [string, object][] = [
        ['type=cohort', { code: 'invalid_choice', detail: '"cohort" is not a valid choice.', attr: 'type' }],
        ['type=session', { code: 'invalid_choice', detail: 'Property definitions of type "session" are not supported yet; use event, person or group.', attr: 'type' }],
        ['type=group', { code: 'invalid_input', detail: '`group_type_index` must be set for `group` type', attr: 'group_type_index' }],
        ['type=group&group_type_index=5', { code: 'invalid_input', detail: 'Ensure this value is between 0 and 4.', attr: 'group_type_index' }],
        ['event_names=%5Bnot%20json', { code: 'invalid_input', detail: 'event_names must be a JSON list of event names, e.g. ["$pageview"].', attr: 'event_names' }],
        ['event_names=%7B%22a%22%3A1%7D', { code: 'invalid_input', detail: 'event_names must be a JSON list of event names, e.g. ["$pageview"].', attr: 'event_names' }],
        ['filter_by_event_names=maybe', { code: 'invalid_input', detail: 'Must be a valid boolean.', attr: 'filter_by_event_names' }],
        ['type=person&event_names=%5B%22a%22%5D', { code: 'invalid_input', detail: '`event_names` can only be set for `event` type', attr: null }],
      ];
      for (const [query, error] of cases) {
        const res = await get(alice, `property_definitions/?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json(), query).toEqual({ type: 'validation_error', ...error });
      }
    });
  });
});
