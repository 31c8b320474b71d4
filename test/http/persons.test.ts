// The persons resource and property values, as the web app's people pages and filter pickers read
// them: PostHog's Person shape, search and paging, one person by id, values most common first, and
// nothing of another project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const recent = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();

describe.each(META_STORES)('persons and property values on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const get = (who: Credentials, path: string, key: string = who.key) => t.request(key, { method: 'GET', url: `/api/projects/${who.projectId}${path}` });

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    await journeys(t, alice, {
      ada: [ev('$identify', recent(5), { $set: { email: 'ada@lovelace.dev', plan: 'pro' } }), ev('$pageview', recent(4), { $browser: 'Chrome' })],
      grace: [ev('$identify', recent(3), { $set: { email: 'grace@hopper.dev', plan: 'pro' } }), ev('$pageview', recent(2), { $browser: 'Chrome' })],
      anon: [ev('$pageview', recent(1), { $browser: 'Firefox' }), ev('signed_up', recent(1), { $browser: 'Safari', plan: 'free' })],
      old: [ev('$pageview', new Date(Date.now() - 30 * 86_400_000).toISOString(), { $browser: 'Opera' })],
    });
    await journeys(t, bob, { eve: [ev('$identify', recent(1), { $set: { email: 'eve@bob.dev', plan: 'pro' } }), ev('$pageview', recent(1), { $browser: 'Edge' })] });
  });
  afterAll(() => t.close());

  it('lists persons in PostHog’s shape, searches by email, pages with next links', async () => {
    const all = await get(alice, '/persons/');
    expect(all.statusCode, all.body).toBe(200);
    const body = all.json();
    expect(body.results).toHaveLength(4);
    const ada = body.results.find((p: { name: string }) => p.name === 'ada@lovelace.dev');
    expect(ada).toMatchObject({ distinct_ids: ['ada'], properties: { email: 'ada@lovelace.dev', plan: 'pro' }, is_identified: true });
    expect(ada.id).toBe(ada.uuid);
    // Without a display-name property, the name is the first distinct id.
    expect(body.results.map((p: { name: string }) => p.name)).toContain('anon');

    const found = (await get(alice, '/persons/?search=HOPPER')).json();
    expect(found.results.map((p: { name: string }) => p.name)).toEqual(['grace@hopper.dev']);

    const first = (await get(alice, '/persons/?limit=3')).json();
    expect(first.results).toHaveLength(3);
    expect(first.next).toMatch(/offset=3/);
    const second = await t.request(alice.key, { method: 'GET', url: new URL(first.next).pathname + new URL(first.next).search });
    expect(second.json().results).toHaveLength(1);
    expect(second.json().next).toBeNull();
    const ids = [...first.results, ...second.json().results].map((p: { id: string }) => p.id);
    expect(new Set(ids).size).toBe(4);
  });

  it('reads one person by id; another project’s person is 404', async () => {
    const ada = (await get(alice, '/persons/?search=ada')).json().results[0];
    const one = await get(alice, `/persons/${ada.id}/`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(ada);
    const eve = (await get(bob, '/persons/')).json().results[0];
    expect((await get(alice, `/persons/${eve.id}/`)).statusCode).toBe(404);
    expect((await get(alice, '/persons/not-a-uuid/')).statusCode).toBe(404);
    expect((await get(alice, '/persons/', bob.key)).statusCode).toBe(404);
  });

  it('event property values: the last 7 days, most common first, narrowed by text and event', async () => {
    const values = await get(alice, '/events/values/?key=$browser');
    expect(values.statusCode, values.body).toBe(200);
    expect(values.json()).toEqual([{ name: 'Chrome' }, { name: 'Firefox' }, { name: 'Safari' }]);
    expect((await get(alice, '/events/values/?key=$browser&value=fire')).json()).toEqual([{ name: 'Firefox' }]);
    expect((await get(alice, '/events/values/?key=$browser&event_name=signed_up')).json()).toEqual([{ name: 'Safari' }]);
    expect((await get(alice, '/events/values/?key=nothing')).json()).toEqual([]);
    const missing = await get(alice, '/events/values/');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ type: 'validation_error', attr: 'key' });
  });

  it('person property values with how many persons have each', async () => {
    expect((await get(alice, '/persons/values/?key=plan')).json()).toEqual([{ name: 'pro', count: 2 }]);
    expect((await get(alice, '/persons/values/?key=email&value=HOPPER')).json()).toEqual([{ name: 'grace@hopper.dev', count: 1 }]);
  });

  it('needs person:read (persons) and query:read (event values)', async () => {
    const narrow = await t.key(alice.email, ['insight:read']);
    expect((await get(alice, '/persons/', narrow)).statusCode).toBe(403);
    expect((await get(alice, '/persons/values/?key=plan', narrow)).statusCode).toBe(403);
    expect((await get(alice, '/events/values/?key=$browser', narrow)).statusCode).toBe(403);
    const reader = await t.key(alice.email, ['person:read', 'query:read']);
    expect((await get(alice, '/persons/', reader)).statusCode).toBe(200);
    expect((await get(alice, '/events/values/?key=$browser', reader)).statusCode).toBe(200);
  });
});
