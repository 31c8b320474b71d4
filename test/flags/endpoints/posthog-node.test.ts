// The unchanged posthog-node against a listening Hoglet reading flags created through the flags
// API: remote reads (isFeatureEnabled, getFeatureFlag, getFeatureFlagPayload, getAllFlags), and
// with a personal API key local evaluation (onlyEvaluateLocally) agreeing with /flags/ for 200 ids.
import type { AddressInfo } from 'node:net';
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { createFlag, flagsFor, personCondition, valueOf } from './helpers.js';

describe('posthog-node reads Hoglet flags', () => {
  let t: TestApp;
  let owner: Credentials;
  let host: string;
  const clients: PostHog[] = [];
  const plans = ['pro', 'free', 'enterprise'];
  /** The person properties each test id is evaluated with (locally and on the server alike). */
  const propertiesOf = (i: number) => ({ plan: plans[i % 3]!, age: 20 + (i % 40), email: `u${i}@${i % 2 ? 'corp' : 'home'}.example` });

  const client = (options: Record<string, unknown> = {}) => {
    const c = new PostHog(owner.projectApiToken, { host, flushAt: 1, flushInterval: 0, fetchRetryCount: 0, ...options });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    owner = await t.bootstrap('posthog-node-flags@example.com');
    const corporate = (await t.request(owner.key, {
      method: 'POST', url: `/api/projects/${owner.projectId}/cohorts/`,
      payload: { name: 'Corporate', filters: { properties: { type: 'OR', values: [{ type: 'AND', values: [{ key: 'email', type: 'person', operator: 'icontains', value: '@corp.' }] }] } } },
    })).json().id as number;
    await createFlag(t, owner, { key: 'half', filters: { groups: [{ properties: [], rollout_percentage: 50 }], payloads: { true: '{"discount": 10}' } } });
    await createFlag(t, owner, {
      key: 'checkout',
      filters: {
        groups: [{ properties: [], rollout_percentage: 80 }],
        multivariate: { variants: [{ key: 'control', rollout_percentage: 34 }, { key: 'test', rollout_percentage: 33 }, { key: 'other', rollout_percentage: 33 }] },
        payloads: { control: '"plain"', test: '{"colour": "green"}', other: '[1, 2, 3]' },
      },
    });
    await createFlag(t, owner, { key: 'pro-or-old', filters: { groups: [personCondition('plan', 'pro'), personCondition('age', '50', 'gte', 60)] } });
    await createFlag(t, owner, { key: 'corporate', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: corporate }], rollout_percentage: 70 }] } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    host = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const c of clients) await c.shutdown();
    await t.close();
  });

  it('remote reads answer what /flags/ answers, payloads parsed', async () => {
    const remote = client();
    const errors: unknown[] = [];
    remote.on('error', (error) => errors.push(error));
    for (let i = 0; i < 10; i++) {
      const id = `remote-${i}`;
      const server = await flagsFor(t, owner, id, { person_properties: propertiesOf(i) });
      const personProperties = propertiesOf(i);
      expect(await remote.isFeatureEnabled('half', id)).toBe(server.half.enabled);
      expect(await remote.getFeatureFlag('checkout', id)).toBe(valueOf(server.checkout));
      // posthog-node reads an off flag's payload as null.
      expect(await remote.getFeatureFlagPayload('half', id)).toEqual(server.half.enabled ? { discount: 10 } : null);
      const variant = server.checkout.variant as string | null;
      const payloads: Record<string, unknown> = { control: 'plain', test: { colour: 'green' }, other: [1, 2, 3] };
      expect(await remote.getFeatureFlagPayload('checkout', id)).toEqual(variant ? payloads[variant] : null);
      const all = await remote.getAllFlags(id, { personProperties });
      expect(all).toEqual(Object.fromEntries(Object.entries(server).map(([key, entry]) => [key, valueOf(entry)])));
    }
    expect(await remote.isFeatureEnabled('no-such-flag', 'remote-0')).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('local evaluation with a personal API key agrees with the server for 200 ids on every flag', async () => {
    const local = client({ personalApiKey: owner.key });
    const errors: unknown[] = [];
    local.on('error', (error) => errors.push(error));
    const loaded = new Promise<number>((resolve) => local.on('localEvaluationFlagsLoaded', resolve));
    expect(await loaded).toBe(4);
    for (let i = 0; i < 200; i++) {
      const id = `local-${i}`;
      const personProperties = propertiesOf(i);
      const server = await flagsFor(t, owner, id, { person_properties: personProperties });
      const locally = await local.getAllFlags(id, { personProperties, onlyEvaluateLocally: true });
      expect(locally, id).toEqual(Object.fromEntries(Object.entries(server).map(([key, entry]) => [key, valueOf(entry)])));
      expect(await local.getFeatureFlag('checkout', id, { personProperties, onlyEvaluateLocally: true })).toBe(valueOf(server.checkout));
    }
    expect(errors).toEqual([]);
  });
  it('local evaluation asks /flags/ for what it cannot decide (static cohort, continuity), and onlyEvaluateLocally does not', async () => {
    const listed = await t.request(owner.key, { method: 'POST', url: `/api/projects/${owner.projectId}/cohorts/`, payload: { name: 'Listed', is_static: true } });
    expect(listed.statusCode, listed.body).toBe(201);
    await createFlag(t, owner, { key: 'listed-only', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: listed.json().id }], rollout_percentage: 100 }, { properties: [], rollout_percentage: 30 }] } });
    await createFlag(t, owner, { key: 'sticky-half', ensure_experience_continuity: true, filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
    await createFlag(t, owner, { key: 'fallback-marker', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
    const local = client({ personalApiKey: owner.key, featureFlagsPollingInterval: 100 });
    const errors: unknown[] = [];
    local.on('error', (error) => errors.push(error));
    // The poller may have loaded the definitions before these flags existed: wait until it has them.
    const deadline = Date.now() + 10_000;
    while ((await local.getAllFlags('probe', { onlyEvaluateLocally: true }))['fallback-marker'] === undefined) {
      if (Date.now() > deadline) throw new Error('definitions without the new flags');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (let i = 0; i < 20; i++) {
      const id = `fallback-${i}`;
      const server = await flagsFor(t, owner, id);
      for (const key of ['listed-only', 'sticky-half']) {
        expect(await local.getFeatureFlag(key, id), `${key} ${id}`).toBe(valueOf(server[key]));
        expect(await local.getFeatureFlag(key, id, { onlyEvaluateLocally: true })).toBeUndefined();
      }
    }
    expect(errors).toEqual([]);
  });
});
