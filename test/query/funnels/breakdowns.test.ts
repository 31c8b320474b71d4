import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { counts, ev, funnelJson, journeys, newProject, runFunnel } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(async () => { await t?.close(); });

const byValue = (results: any[][]) => Object.fromEntries(results.map((steps) => [steps[0].breakdown_value[0], counts(steps)]));

describe('funnel breakdowns', () => {
  it('event property, first touch by default; last touch; all events', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      // First non-empty value is Chrome (the first event has none), last is Safari.
      p1: [ev('a', '2024-01-02T00:00:00Z'), ev('a', '2024-01-02T00:01:00Z', { $browser: 'Chrome' }), ev('b', '2024-01-02T01:00:00Z', { $browser: 'Safari' })],
      p2: [ev('a', '2024-01-02T00:00:00Z', { $browser: 'Chrome' }), ev('b', '2024-01-02T01:00:00Z', { $browser: 'Chrome' })],
      p3: [ev('a', '2024-01-02T00:00:00Z', { $browser: 'Firefox' })],
      p4: [ev('a', '2024-01-02T00:00:00Z')],
    });
    const breakdownFilter = { breakdown: '$browser', breakdown_type: 'event' };
    const first = await runFunnel(t, who, funnelJson(['a', 'b'], { breakdownFilter }));
    expect(byValue(first)).toEqual({ Chrome: [2, 2], Firefox: [1, 0], '': [1, 0] });
    expect(first.map((s: any[]) => s[0].breakdown_value[0])).toEqual(['Chrome', '', 'Firefox']);
    expect(first[0][1]).toMatchObject({ breakdown: ['Chrome'], breakdown_value: ['Chrome'] });
    expect(first[0][1].converted_people_url).toContain(`funnel_step_breakdown=${encodeURIComponent('["Chrome"]')}`);

    const last = await runFunnel(t, who, funnelJson(['a', 'b'], { breakdownFilter, funnelsFilter: { breakdownAttributionType: 'last_touch' } }));
    expect(byValue(last)).toEqual({ Chrome: [1, 1], Safari: [1, 1], Firefox: [1, 0], '': [1, 0] });

    const all = await runFunnel(t, who, funnelJson(['a', 'b'], { breakdownFilter, funnelsFilter: { breakdownAttributionType: 'all_events' } }));
    // Each value walks only its own events: p1's Chrome and '' events hold only step a, and its
    // Safari event alone (step b) never enters.
    expect(byValue(all)).toEqual({ Chrome: [2, 1], Firefox: [1, 0], '': [2, 0] });
  });

  it('keeps the top breakdown_limit values and merges the rest into Other', async () => {
    const who = await newProject(t);
    const stories: Record<string, ReturnType<typeof ev>[]> = {};
    const browsers = ['b1', 'b1', 'b1', 'b2', 'b2', 'b3', 'b4'];
    browsers.forEach((browser, i) => {
      stories[`p${i}`] = [ev('a', '2024-01-02T00:00:00Z', { $browser: browser }), ...(i % 2 === 0 ? [ev('b', '2024-01-02T02:00:00Z')] : [])];
    });
    await journeys(t, who, stories);
    const results = await runFunnel(t, who, funnelJson(['a', 'b'], { breakdownFilter: { breakdown: '$browser', breakdown_limit: 2 } }));
    // Ranked by the last step, then the first: b1 (3, 2), b2 (2, 1), b4 (1, 1), b3 (1, 0); b3 + b4 are Other.
    expect(results.map((s: any[]) => [s[0].breakdown_value[0], ...counts(s)])).toEqual([
      ['b1', 3, 2], ['b2', 2, 1], ['Other', 2, 1],
    ]);
    expect(results[2][1].average_conversion_time).toBe(7200);
    const hidden = await runFunnel(t, who, funnelJson(['a', 'b'], { breakdownFilter: { breakdown: '$browser', breakdown_limit: 2, breakdown_hide_other_aggregation: true } }));
    expect(hidden).toHaveLength(2);
  });

  it('person property breakdowns use the current person properties', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      p1: [ev('a', '2024-01-02T00:00:00Z', { $set: { plan: 'pro' } }), ev('b', '2024-01-02T01:00:00Z')],
      p2: [ev('a', '2024-01-02T00:00:00Z', { $set: { plan: 'free' } })],
      p3: [ev('a', '2024-01-02T00:00:00Z', { $set: { plan: 'free' } }), ev('b', '2024-01-02T01:00:00Z')],
    });
    const results = await runFunnel(t, who, funnelJson(['a', 'b'], { breakdownFilter: { breakdown: 'plan', breakdown_type: 'person' } }));
    expect(byValue(results)).toEqual({ pro: [1, 1], free: [2, 1] });
  });
});
