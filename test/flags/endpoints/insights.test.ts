// Flags in insights (reference feature-flags.md 4.1, 4.2, 5): `$feature_flag_called` events as
// posthog-node and posthog-js send them, captured through /batch/, give PostHog's per-flag usage
// dashboard (calls and unique users by `$feature_flag_response`, the flag page's two charts), and
// any event broken down by `$feature/<key>` splits by variant, booleans shown as "true"/"false".
// Last, the unchanged posthog-node's getFeatureFlag against the listening server sends the event
// that the usage trend then counts.
import type { AddressInfo } from 'node:net';
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { runQuery } from '../../helpers/journeys.js';
import { createFlag, flagsFor, postJson, valueOf } from './helpers.js';

/** PostHog's generated usage dashboard's trends for a flag (create_feature_flag_dashboard). */
const usageQuery = (key: string, math: 'total' | 'dau') => ({
  kind: 'TrendsQuery',
  series: [{ kind: 'EventsNode', event: '$feature_flag_called', name: '$feature_flag_called', math }],
  properties: { type: 'AND', values: [{ type: 'AND', values: [{ key: '$feature_flag', operator: 'exact', type: 'event', value: key }] }] },
  breakdownFilter: { breakdown: '$feature_flag_response', breakdown_type: 'event' },
  dateRange: { date_from: '-30d', explicitDate: false },
  filterTestAccounts: false,
  interval: 'day',
  trendsFilter: { display: math === 'dau' ? 'ActionsTable' : 'ActionsLineGraph' },
});

type Row = { breakdown_value: unknown; count: number; aggregated_value?: number };
/** Per breakdown value: a table's (ActionsTable) aggregated_value, as PostHog answers it, else the count. */
const byBreakdown = (body: { results: Row[] }) => Object.fromEntries(body.results.map((r) => [String(r.breakdown_value), r.aggregated_value ?? r.count]));

/** `$feature_flag_called` as posthog-node 5.x sends it after a remote getFeatureFlag (reference 4.1). */
const fromNode = (key: string, id: number, response: unknown) => ({
  $feature_flag: key,
  $feature_flag_response: response,
  $feature_flag_id: id,
  $feature_flag_version: 1,
  $feature_flag_reason: 'Matched condition set 1',
  locally_evaluated: false,
  [`$feature/${key}`]: response,
  $feature_flag_request_id: '0194f1c5-5b4e-7f7a-9a59-2d6c1c0a7e11',
  $feature_flag_evaluated_at: Date.now(),
  $lib: 'posthog-node',
  $lib_version: '5.70.0',
});

/** The same event as posthog-js 1.x sends it after getFeatureFlag (reference 4.2). */
const fromJs = (key: string, id: number, response: unknown, active: string[]) => ({
  $feature_flag: key,
  $feature_flag_response: response,
  $feature_flag_payload: null,
  $feature_flag_request_id: '0194f1c5-5b4e-7f7a-9a59-2d6c1c0a7e12',
  $feature_flag_evaluated_at: Date.now(),
  $feature_flag_bootstrapped_response: null,
  $feature_flag_bootstrapped_payload: null,
  $used_bootstrap_value: false,
  $feature_flag_id: id,
  $feature_flag_version: 1,
  $feature_flag_reason: 'Matched condition set 1',
  $active_feature_flags: active,
  ...Object.fromEntries(active.map((k) => [`$feature/${k}`, k === key ? response : true])),
  $lib: 'web',
  $lib_version: '1.449.2',
});

describe('flags in insights', () => {
  let t: TestApp;
  let owner: Credentials;
  let host: string;
  let beta: number;
  let checkout: number;

  const capture = async (events: { event: string; distinct_id: string; properties: Record<string, unknown>; minutesAgo: number }[]) => {
    const batch = events.map(({ minutesAgo, ...e }) => ({ ...e, timestamp: new Date(Date.now() - minutesAgo * 60_000).toISOString() }));
    const res = await postJson(t, '/batch/', { api_key: owner.projectApiToken, batch });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    owner = await t.bootstrap('flag-insights@example.com');
    beta = (await createFlag(t, owner, { key: 'beta', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } })).id;
    checkout = (await createFlag(t, owner, {
      key: 'checkout',
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: { variants: [{ key: 'control', rollout_percentage: 50 }, { key: 'test', rollout_percentage: 50 }] },
      },
    })).id;
    // Minutes ago, not days: the dashboard's range is the last 30 days up to now.
    await capture([
      // posthog-node: once per (distinct id, key, response) per client; two servers saw u1.
      { event: '$feature_flag_called', distinct_id: 'u1', properties: fromNode('beta', beta, true), minutesAgo: 5 },
      { event: '$feature_flag_called', distinct_id: 'u1', properties: fromNode('beta', beta, true), minutesAgo: 4 },
      { event: '$feature_flag_called', distinct_id: 'u2', properties: fromNode('beta', beta, false), minutesAgo: 4 },
      { event: '$feature_flag_called', distinct_id: 'u3', properties: fromJs('beta', beta, true, ['beta', 'checkout']), minutesAgo: 3 },
      { event: '$feature_flag_called', distinct_id: 'u2', properties: fromJs('beta', beta, false, ['checkout']), minutesAgo: 3 },
      { event: '$feature_flag_called', distinct_id: 'u1', properties: fromNode('checkout', checkout, 'control'), minutesAgo: 2 },
      { event: '$feature_flag_called', distinct_id: 'u3', properties: fromJs('checkout', checkout, 'test', ['beta', 'checkout']), minutesAgo: 2 },
      // Events carrying the flags (posthog-js on every event; posthog-node with sendFeatureFlags).
      { event: '$pageview', distinct_id: 'u1', properties: { '$feature/beta': true, '$feature/checkout': 'control', $active_feature_flags: ['beta', 'checkout'] }, minutesAgo: 1 },
      { event: '$pageview', distinct_id: 'u1', properties: { '$feature/beta': true, '$feature/checkout': 'control', $active_feature_flags: ['beta', 'checkout'] }, minutesAgo: 1 },
      { event: '$pageview', distinct_id: 'u2', properties: { '$feature/beta': false, '$feature/checkout': 'test', $active_feature_flags: ['checkout'] }, minutesAgo: 1 },
      { event: '$pageview', distinct_id: 'u3', properties: { '$feature/beta': true, '$feature/checkout': 'test', $active_feature_flags: ['beta', 'checkout'] }, minutesAgo: 1 },
    ]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    host = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => t?.close());

  it("the usage dashboard's two trends: calls and unique users per response, only this flag's", async () => {
    expect(byBreakdown(await runQuery(t, owner, usageQuery('beta', 'total')))).toEqual({ true: 3, false: 2 });
    expect(byBreakdown(await runQuery(t, owner, usageQuery('beta', 'dau')))).toEqual({ true: 2, false: 1 });
    expect(byBreakdown(await runQuery(t, owner, usageQuery('checkout', 'total')))).toEqual({ control: 1, test: 1 });
    expect(byBreakdown(await runQuery(t, owner, usageQuery('checkout', 'dau')))).toEqual({ control: 1, test: 1 });
  });

  it('any event broken down by $feature/<key> splits by variant, booleans shown as "true"/"false"', async () => {
    const pageviews = (breakdown: string, math = 'total') => runQuery(t, owner, {
      kind: 'TrendsQuery',
      series: [{ kind: 'EventsNode', event: '$pageview', name: '$pageview', math }],
      breakdownFilter: { breakdown, breakdown_type: 'event' },
      dateRange: { date_from: '-7d' },
      interval: 'day',
    });
    const beta = await pageviews('$feature/beta');
    expect(byBreakdown(beta)).toEqual({ true: 3, false: 1 });
    expect(beta.results.map((r: Row) => r.breakdown_value).sort()).toEqual(['false', 'true']);
    expect(byBreakdown(await pageviews('$feature/beta', 'dau'))).toEqual({ true: 2, false: 1 });
    expect(byBreakdown(await pageviews('$feature/checkout'))).toEqual({ control: 2, test: 2 });
  });

  it("posthog-node's getFeatureFlag sends $feature_flag_called, which the usage trend then counts", async () => {
    const before = byBreakdown(await runQuery(t, owner, usageQuery('checkout', 'total')));
    const client = new PostHog(owner.projectApiToken, { host, flushAt: 1, flushInterval: 0, fetchRetryCount: 0 });
    const errors: unknown[] = [];
    client.on('error', (error) => errors.push(error));
    try {
      const value = await client.getFeatureFlag('checkout', 'node-user');
      expect(value).toBe(valueOf((await flagsFor(t, owner, 'node-user')).checkout));
      await client.flush();
      const after = byBreakdown(await runQuery(t, owner, usageQuery('checkout', 'total')));
      expect(after).toEqual({ ...before, [String(value)]: (before[String(value)] ?? 0) + 1 });
      const sent = await runQuery(t, owner, {
        kind: 'HogQLQuery',
        query: "select properties.$feature_flag_response, properties.$feature_flag_id, properties.locally_evaluated, properties.`$feature/checkout` from events where event = '$feature_flag_called' and distinct_id = 'node-user'",
      });
      expect(sent.results).toEqual([[value, checkout, false, value]]);
      expect(errors).toEqual([]);
    } finally {
      await client.shutdown();
    }
  });
});
