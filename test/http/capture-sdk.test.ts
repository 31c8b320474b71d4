// PostHog's own Node SDK, unchanged, against a listening Hoglet: events, identify, alias and
// group identify arrive, are stored once, and land on the right persons.
import type { AddressInfo } from 'node:net';
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { eventCounts, storedEvents, storedPersons } from '../helpers/ingest.js';

let t: TestApp;
let owner: Credentials;
let host: string;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  owner = await t.bootstrap('sdk@example.com');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  host = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

function sdk(token: string, options: Record<string, unknown> = {}) {
  return new PostHog(token, { host, flushAt: 20, flushInterval: 0, fetchRetryCount: 0, ...options });
}

describe('posthog-node against Hoglet', () => {
  it('captures, identifies and aliases; persons merge as in PostHog', async () => {
    const client = sdk(owner.projectApiToken);
    const errors: unknown[] = [];
    client.on('error', (error) => errors.push(error));
    for (let i = 0; i < 45; i++) {
      client.capture({ distinctId: 'anon-42', event: '$pageview', properties: { $current_url: `https://shop.test/p/${i % 3}`, n: i } });
    }
    client.capture({ distinctId: 'anon-42', event: 'signed_up', properties: { plan: 'free' }, uuid: '01900000-0000-7000-8000-000000000001' });
    client.identify({ distinctId: 'user-42', properties: { email: 'buyer@shop.test', $anon_distinct_id: 'anon-42' } });
    client.capture({ distinctId: 'user-42', event: 'purchase', properties: { amount: 49.5 }, groups: { company: 'acme' } });
    client.alias({ distinctId: 'user-42', alias: 'buyer-legacy-id' });
    client.groupIdentify({ groupType: 'company', groupKey: 'acme', properties: { name: 'Acme Inc' } });
    await client.shutdown();
    expect(errors).toEqual([]);

    const events = await storedEvents(t.services.events, owner.projectId);
    const names = events.map((e) => e.event);
    expect(names.filter((n) => n === '$pageview')).toHaveLength(45);
    expect(names).toEqual(expect.arrayContaining(['signed_up', '$identify', 'purchase', '$create_alias', '$groupidentify']));
    expect(events.find((e) => e.event === 'signed_up')!.uuid).toBe('01900000-0000-7000-8000-000000000001');
    expect(events.find((e) => e.event === 'purchase')!.properties).toMatchObject({ amount: 49.5, $lib: 'posthog-node', $groups: { company: 'acme' } });

    const persons = await storedPersons(t.services.events, owner.projectId);
    const buyer = persons.find((p) => p.distinct_ids.includes('user-42'))!;
    expect(buyer.distinct_ids).toEqual(['anon-42', 'buyer-legacy-id', 'user-42']);
    expect(buyer.properties).toMatchObject({ email: 'buyer@shop.test' });
    expect(buyer.is_identified).toBe(true);
    // Anonymous pageviews before the identify count under the identified person.
    const counts = await eventCounts(t.services.events, owner.projectId);
    expect(counts.persons).toBe(persons.length);
    const buyerEvents = events.filter((e) => e.person_id === buyer.id);
    expect(buyerEvents.length).toBe(events.length - events.filter((e) => e.event === '$groupidentify').length);
  });

  it('sends gzip bodies by default and plain ones when compression is off; both are stored', async () => {
    const project = (await t.request(owner.key, { method: 'POST', url: '/api/projects/', payload: { name: 'gzip check' } })).json();
    for (const disableCompression of [false, true]) {
      const client = sdk(project.api_token, { disableCompression });
      for (let i = 0; i < 10; i++) client.capture({ distinctId: `d${i}`, event: `e-${disableCompression}` });
      await client.shutdown();
    }
    expect(await eventCounts(t.services.events, project.id)).toEqual({ events: 20, persons: 10 });
  });

  it('a retried batch (same uuids) is stored once', async () => {
    const project = (await t.request(owner.key, { method: 'POST', url: '/api/projects/', payload: { name: 'retry check' } })).json();
    for (let attempt = 0; attempt < 3; attempt++) {
      const client = sdk(project.api_token);
      for (let i = 0; i < 5; i++) client.capture({ distinctId: 'r', event: 'retry', uuid: `01900000-0000-7000-8000-00000000010${i}` });
      await client.shutdown();
    }
    expect((await eventCounts(t.services.events, project.id)).events).toBe(5);
  });
});
