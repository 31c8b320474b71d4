// Data management through the taxonomy endpoints, as PostHog's enterprise serializers take edits:
// PATCH description, tags, verified, hidden (and a property's type), DELETE an event definition,
// the list filters PostHog's web app sends (exclude_hidden, event_type, is_numerical, ...), the
// activity log, scopes, and a type set by a person changing how HogQL reads the property.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityPage } from '../../src/core/activity.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, runQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';
import { openTwoOrganizations } from '../helpers/two-organizations.js';

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

describe.each(META_STORES)('managing event and property definitions on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;

  const call = (who: Credentials, method: 'GET' | 'PATCH' | 'DELETE', path: string, payload?: unknown, key = who.key, prefix = 'projects') =>
    t.request(key, { method, url: `/api/${prefix}/${who.projectId}/${path}`, ...(payload === undefined ? {} : { payload: payload as object }) });
  const list = async (who: Credentials, path: string) => {
    const res = await call(who, 'GET', path);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results as any[];
  };
  const eventNamed = async (name: string) => (await list(alice, 'event_definitions/?limit=100')).find((d) => d.name === name);
  // Hoglet has no project-wide activity_log endpoint yet: the entries are read where PostHog's are written.
  const activityOf = async (scope: string, itemId: string): Promise<any[]> =>
    (await activityPage(t.services.repositories.activityLog, alice.projectId, scope, itemId, { limit: 20, page: 1 })).results;
  const propertyNamed = async (name: string, type = 'event') => (await list(alice, `property_definitions/?type=${type}&limit=100`)).find((d) => d.name === name);

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    await journeys(t, alice, {
      u1: [
        ev('$pageview', daysAgo(1), { $browser: 'Chrome' }),
        ev('$pageview', daysAgo(2), { $browser: 'Firefox' }),
        ev('$pageview', daysAgo(40), { $browser: 'Safari' }),
        // The amounts are strings: the data types them String.
        ev('order', daysAgo(3), { amount: '9', $set: { plan: 'pro' } }),
        ev('order', daysAgo(3), { amount: '100' }),
        ev('order', daysAgo(3), { amount: '10' }),
        ev('signed_up', daysAgo(5), { seats: 3 }),
        ev('legacy_import', daysAgo(90), { source_system: 'crm' }),
      ],
    });
    await journeys(t, bob, { b1: [ev('bob_event', daysAgo(1), { bob_prop: 'x' })] });
  });
  afterAll(() => t.close());

  describe('event definitions', () => {
    it('lists volume_30_day (events of the last 30 days) and last_seen_at, and orders by them', async () => {
      const pageview = await eventNamed('$pageview');
      expect(pageview.volume_30_day).toBe(2);
      expect((await eventNamed('legacy_import')).volume_30_day).toBe(0);
      expect(Date.parse(pageview.last_seen_at)).toBeGreaterThan(Date.now() - 2 * DAY);
      const byVolume = (await list(alice, 'event_definitions/?ordering=-volume_30_day')).map((d) => d.name);
      expect(byVolume).toEqual(['order', '$pageview', 'signed_up', 'legacy_import']);
      const byLastSeen = (await list(alice, 'event_definitions/?ordering=-last_seen_at')).map((d) => d.name);
      expect(byLastSeen).toEqual(['$pageview', 'order', 'signed_up', 'legacy_import']);
    });

    it('filters by event_type as PostHog does, and refuses an unknown one', async () => {
      expect((await list(alice, 'event_definitions/?event_type=event_posthog')).map((d) => d.name)).toEqual(['$pageview']);
      expect((await list(alice, 'event_definitions/?event_type=event_custom')).map((d) => d.name)).toEqual(['legacy_import', 'order', 'signed_up']);
      const res = await call(alice, 'GET', 'event_definitions/?event_type=actions');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        type: 'validation_error',
        code: 'invalid_input',
        detail: 'Not a valid event type. Use one of: event, event_custom, event_posthog.',
        attr: 'event_type',
      });
    });

    it('PATCHes description, tags and verified; GET and the list show them with who and when', async () => {
      const { id } = await eventNamed('order');
      const before = Date.now();
      const res = await call(alice, 'PATCH', `event_definitions/${id}/`, { description: '  A paid order ', tags: ['Revenue', 'core', 'revenue'], verified: true });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ id, name: 'order', description: 'A paid order', tags: ['core', 'revenue'], verified: true, hidden: false });
      expect(body.verified_by).toMatchObject({ id: alice.userId, email: 'alice@example.com' });
      expect(body.updated_by).toMatchObject({ id: alice.userId, email: 'alice@example.com' });
      expect(Date.parse(body.verified_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(body.updated_at)).toBeGreaterThanOrEqual(before - 1000);
      expect((await call(alice, 'GET', `event_definitions/${id}/`)).json()).toEqual(body);
      expect(await eventNamed('order')).toEqual(body);
      // The environment paths read and write the same definition.
      const env = await call(alice, 'GET', `event_definitions/${id}/`, undefined, alice.key, 'environments');
      expect(env.json()).toEqual(body);
      const envPatch = await call(alice, 'PATCH', `event_definitions/${id}/`, { description: 'A paid order' }, alice.key, 'environments');
      expect(envPatch.statusCode, envPatch.body).toBe(200);
      expect(envPatch.json().description).toBe('A paid order');
      // Verifying again keeps the first time; the verified filter keeps only verified ones.
      const again = (await call(alice, 'PATCH', `event_definitions/${id}/`, { verified: true })).json();
      expect(again.verified_at).toBe(body.verified_at);
      expect((await list(alice, 'event_definitions/?verified=true')).map((d) => d.name)).toEqual(['order']);
      expect((await list(alice, 'event_definitions/?verified=false')).map((d) => d.name)).not.toContain('order');
    });

    it('hides a definition (unverifying it) and exclude_hidden=true leaves it out', async () => {
      const { id } = await eventNamed('order');
      const hidden = (await call(alice, 'PATCH', `event_definitions/${id}/`, { hidden: true })).json();
      expect(hidden).toMatchObject({ hidden: true, verified: false, verified_at: null, verified_by: null });
      expect((await list(alice, 'event_definitions/?exclude_hidden=true')).map((d) => d.name)).toEqual(['$pageview', 'legacy_import', 'signed_up']);
      expect((await list(alice, 'event_definitions/')).map((d) => d.name)).toContain('order');
      // Verifying unhides.
      const shown = (await call(alice, 'PATCH', `event_definitions/${id}/`, { verified: true })).json();
      expect(shown).toMatchObject({ hidden: false, verified: true });
      expect((await list(alice, 'event_definitions/?exclude_hidden=true')).map((d) => d.name)).toContain('order');
    });

    it('writes PostHog\'s "changed" activity entries with the fields that moved', async () => {
      const { id } = await eventNamed('signed_up');
      await call(alice, 'PATCH', `event_definitions/${id}/`, { description: 'Joined', tags: ['growth'] });
      const [entry] = await activityOf('EventDefinition', id);
      expect(entry).toMatchObject({ scope: 'EventDefinition', activity: 'changed', user: { email: 'alice@example.com' } });
      expect(entry.detail).toMatchObject({ name: 'signed_up' });
      expect(entry.detail.changes).toEqual([
        { type: 'EventDefinition', action: 'changed', field: 'description', before: '', after: 'Joined' },
        { type: 'EventDefinition', action: 'changed', field: 'tags', before: [], after: ['growth'] },
      ]);
    });

    it('DELETE leaves the definition out until an event of the name arrives again, without its edits', async () => {
      const { id } = await eventNamed('legacy_import');
      await call(alice, 'PATCH', `event_definitions/${id}/`, { description: 'old' });
      const res = await call(alice, 'DELETE', `event_definitions/${id}/`);
      expect(res.statusCode, res.body).toBe(204);
      expect((await call(alice, 'GET', `event_definitions/${id}/`)).statusCode).toBe(404);
      expect(await eventNamed('legacy_import')).toBeUndefined();
      expect((await activityOf('EventDefinition', id)).find((e) => e.activity === 'deleted')).toMatchObject({ scope: 'EventDefinition', detail: { name: 'legacy_import' } });
      await journeys(t, alice, { u9: [ev('legacy_import', new Date(Date.now() + 1000).toISOString(), {})] });
      const back = await eventNamed('legacy_import');
      expect(back).toMatchObject({ id, description: null, tags: [] });
    });

    it("answers bad bodies with 400 in PostHog's validation format", async () => {
      const { id } = await eventNamed('$pageview');
      const cases: [unknown, object][] = [
        [{ hidden: true, verified: true }, { code: 'invalid_input', detail: 'An event cannot be both hidden and verified', attr: null }],
        [{ tags: 'growth' }, { code: 'not_a_list', detail: 'Expected a list of items but got type "str".', attr: 'tags' }],
        [{ verified: 'maybe' }, { code: 'invalid_input', detail: 'Must be a valid boolean.', attr: 'verified' }],
        [{ description: 5 }, { code: 'invalid_input', detail: 'Not a valid string.', attr: 'description' }],
        [{ tags: ['  '] }, { code: 'blank', detail: 'This field may not be blank.', attr: 'tags__0' }],
      ];
      for (const [payload, error] of cases) {
        const res = await call(alice, 'PATCH', `event_definitions/${id}/`, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json(), JSON.stringify(payload)).toEqual({ type: 'validation_error', ...error });
      }
      expect((await call(alice, 'PATCH', 'event_definitions/not-a-uuid/', { description: 'x' })).statusCode).toBe(404);
      expect((await call(alice, 'PATCH', 'event_definitions/00000000-0000-4000-8000-000000000000/', { description: 'x' })).statusCode).toBe(404);
    });
  });

  describe('property definitions', () => {
    it('GETs one by id and PATCHes description, tags, property_type, verified and hidden', async () => {
      const listed = await propertyNamed('amount');
      expect(listed).toMatchObject({ property_type: 'String', is_numerical: false });
      expect((await call(alice, 'GET', `property_definitions/${listed.id}/`)).json()).toEqual(listed);
      const res = await call(alice, 'PATCH', `property_definitions/${listed.id}/`, { description: 'Order total', tags: ['money'], property_type: 'Numeric', verified: true });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ id: listed.id, name: 'amount', description: 'Order total', tags: ['money'], property_type: 'Numeric', is_numerical: true, verified: true });
      expect(body.updated_by).toMatchObject({ email: 'alice@example.com' });
      expect(await propertyNamed('amount')).toEqual(body);
      expect((await list(alice, 'property_definitions/?is_numerical=true')).map((d) => d.name)).toEqual(['amount', 'seats']);
      expect((await list(alice, 'property_definitions/?properties=amount,seats')).map((d) => d.name)).toEqual(['amount', 'seats']);
      const [entry] = await activityOf('PropertyDefinition', listed.id);
      expect(entry).toMatchObject({ scope: 'PropertyDefinition', activity: 'changed', detail: { name: 'amount', type: 'event' } });
      expect(entry.detail.changes).toContainEqual({ type: 'PropertyDefinition', action: 'created', field: 'property_type', before: null, after: 'Numeric' });
    });

    it('hides person properties from exclude_hidden=true lists; a null type goes back to the data\'s', async () => {
      const plan = await propertyNamed('plan', 'person');
      await call(alice, 'PATCH', `property_definitions/${plan.id}/`, { hidden: true, property_type: 'Boolean' });
      expect((await list(alice, 'property_definitions/?type=person&exclude_hidden=true')).map((d) => d.name)).not.toContain('plan');
      expect(await propertyNamed('plan', 'person')).toMatchObject({ hidden: true, property_type: 'Boolean' });
      const back = (await call(alice, 'PATCH', `property_definitions/${plan.id}/`, { property_type: null, hidden: false })).json();
      expect(back).toMatchObject({ hidden: false, property_type: 'String' });
    });

    it('edits a group type\'s property by the id its list gave, hidden from that list with exclude_hidden', async () => {
      const group = { event: '$groupidentify', distinct_id: 'g-maker', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { tier: 'gold', seats: 12 } } };
      expect((await t.request(null, { method: 'POST', url: '/batch/', payload: { api_key: alice.projectApiToken, batch: [group] } })).statusCode).toBe(200);
      const tier = (await list(alice, 'property_definitions/?type=group&group_type_index=0')).find((d) => d.name === 'tier');
      const res = await call(alice, 'PATCH', `property_definitions/${tier.id}/`, { hidden: true, description: 'Plan tier' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: tier.id, name: 'tier', hidden: true, description: 'Plan tier' });
      expect((await list(alice, 'property_definitions/?type=group&group_type_index=0&exclude_hidden=true')).map((d) => d.name)).toEqual(['seats']);
      const [entry] = await activityOf('PropertyDefinition', tier.id);
      expect(entry.detail).toMatchObject({ name: 'tier', type: 'group' });
    });

    it('refuses a type PostHog does not have and hidden with verified', async () => {
      const { id } = await propertyNamed('seats');
      const bad = await call(alice, 'PATCH', `property_definitions/${id}/`, { property_type: 'Float' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ type: 'validation_error', code: 'invalid_choice', detail: '"Float" is not a valid choice.', attr: 'property_type' });
      const both = await call(alice, 'PATCH', `property_definitions/${id}/`, { hidden: true, verified: true });
      expect(both.json()).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'A property cannot be both hidden and verified', attr: null });
    });
  });

  describe('a type set by a person types HogQL', () => {
    it('reads a String property set to Numeric as a number in /query/', async () => {
      const query = { kind: 'HogQLQuery', query: "select properties.$browser as b from events where event = '$pageview' order by b" };
      expect((await runQuery(t, alice, query)).results).toEqual([['Chrome'], ['Firefox'], ['Safari']]);
      const browser = await propertyNamed('$browser');
      const sorted = { kind: 'HogQLQuery', query: "select properties.seats + 1 as s, properties.$browser as b from events where event = 'signed_up'" };
      expect((await runQuery(t, alice, sorted)).results).toEqual([[4, null]]);
      // amount was set to Numeric above: it sorts and sums as a number, not as text.
      const amounts = { kind: 'HogQLQuery', query: "select properties.amount as a from events where event = 'order' order by a" };
      expect((await runQuery(t, alice, amounts)).results).toEqual([[9], [10], [100]]);
      const amount = await propertyNamed('amount');
      await call(alice, 'PATCH', `property_definitions/${amount.id}/`, { property_type: 'String' });
      expect((await runQuery(t, alice, amounts)).results).toEqual([['10'], ['100'], ['9']]);
      await call(alice, 'PATCH', `property_definitions/${amount.id}/`, { property_type: 'Numeric' });
      const filtered = { kind: 'HogQLQuery', query: "select count() from events where properties.amount > 50" };
      expect((await runQuery(t, alice, filtered)).results).toEqual([[1]]);
      expect(browser.property_type).toBe('String');
    });
  });

  describe('a type set by a person types property filters', () => {
    it('compares an exact filter on a property set to Numeric as numbers ("10.0" finds "10")', async () => {
      const orders = {
        kind: 'TrendsQuery',
        series: [{ kind: 'EventsNode', event: 'order', math: 'total' }],
        properties: [{ key: 'amount', type: 'event', operator: 'exact', value: ['10.0'] }],
        dateRange: { date_from: '-7d' },
        interval: 'week',
      };
      const total = async () => (await runQuery(t, alice, orders)).results[0].count as number;
      const amount = await propertyNamed('amount');
      await call(alice, 'PATCH', `property_definitions/${amount.id}/`, { property_type: 'String' });
      expect(await total()).toBe(0);
      await call(alice, 'PATCH', `property_definitions/${amount.id}/`, { property_type: 'Numeric' });
      expect(await total()).toBe(1);
      const notTen = { ...orders, properties: [{ key: 'amount', type: 'event', operator: 'is_not', value: ['10', '9.0'] }] };
      expect((await runQuery(t, alice, notTen)).results[0].count).toBe(1);
    });
  });

  describe('tenancy and scopes', () => {
    it("never shows or changes another organization's definitions", async () => {
      const { id } = await eventNamed('$pageview');
      const prop = await propertyNamed('amount');
      // Bob's key on Alice's project, and Alice's ids under Bob's project: 404 both ways.
      expect((await call(alice, 'PATCH', `event_definitions/${id}/`, { description: 'bob was here' }, bob.key)).statusCode).toBe(404);
      expect((await call(bob, 'PATCH', `event_definitions/${id}/`, { description: 'bob was here' })).statusCode).toBe(404);
      expect((await call(bob, 'GET', `property_definitions/${prop.id}/`)).statusCode).toBe(404);
      expect((await call(bob, 'PATCH', `property_definitions/${prop.id}/`, { hidden: true })).statusCode).toBe(404);
      expect((await call(bob, 'DELETE', `event_definitions/${id}/`)).statusCode).toBe(404);
      expect((await eventNamed('$pageview')).description).not.toBe('bob was here');
      expect((await list(bob, 'event_definitions/')).map((d) => d.name)).toEqual(['bob_event']);
    });

    it('needs event_definition:write and property_definition:write to change', async () => {
      const { id } = await eventNamed('$pageview');
      const prop = await propertyNamed('seats');
      const readOnly = await t.key(alice.email, ['event_definition:read', 'property_definition:read']);
      const refused = await call(alice, 'PATCH', `event_definitions/${id}/`, { description: 'x' }, readOnly);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toBe("API key missing required scope 'event_definition:write'");
      expect((await call(alice, 'DELETE', `event_definitions/${id}/`, undefined, readOnly)).statusCode).toBe(403);
      const propRefused = await call(alice, 'PATCH', `property_definitions/${prop.id}/`, { description: 'x' }, readOnly);
      expect(propRefused.json().detail).toBe("API key missing required scope 'property_definition:write'");
      const writer = await t.key(alice.email, ['event_definition:write', 'property_definition:write']);
      expect((await call(alice, 'PATCH', `event_definitions/${id}/`, { description: 'Page seen' }, writer)).statusCode).toBe(200);
      expect((await call(alice, 'PATCH', `property_definitions/${prop.id}/`, { description: 'Seats bought' }, writer)).statusCode).toBe(200);
    });
  });
});

describe.each(META_STORES)('the definition metadata repository on %s', (store) => {
  it("keeps each project's edits to itself", async () => {
    const orgs = await openTwoOrganizations(store);
    try {
      const repo = orgs.repos.definitionMetadata;
      const row = { id: 'shared-id', name: 'order', description: 'alice', tags: '[]', verified: 0, verified_at: null, verified_by: null, hidden: 1, updated_at: null, updated_by: null, deleted_at: null };
      await repo.saveEvent({ ...row, team_id: orgs.alice.project_id });
      await repo.saveProperty({ ...row, team_id: orgs.alice.project_id, owner: 'event', property_type: 'Numeric', deleted_at: undefined } as never);
      expect(await repo.eventRows(orgs.bob.project_id)).toEqual([]);
      expect(await repo.eventRow(orgs.bob.project_id, 'shared-id')).toBeUndefined();
      expect(await repo.propertyRow(orgs.bob.project_id, 'shared-id')).toBeUndefined();
      expect(await repo.setPropertyTypes(orgs.bob.project_id)).toEqual([]);
      // Bob saving the same id makes his own row; Alice's stays.
      await repo.saveEvent({ ...row, description: 'bob', team_id: orgs.bob.project_id });
      expect((await repo.eventRow(orgs.alice.project_id, 'shared-id'))?.description).toBe('alice');
      expect((await repo.eventRow(orgs.bob.project_id, 'shared-id'))?.description).toBe('bob');
    } finally {
      await orgs.close();
    }
  });
});
