import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { binTimes } from '../../../src/query/runners/funnels/time-to-convert.js';
import { actors, ev, funnelJson, journeys, newProject, runFunnel } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(async () => { await t?.close(); });

describe('funnel trends', () => {
  it('gives the conversion rate per entrance day, zero-filled', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      p1: [ev('a', '2024-01-02T10:00:00Z'), ev('b', '2024-01-02T11:00:00Z')],
      p2: [ev('a', '2024-01-02T10:00:00Z')],
      p3: [ev('a', '2024-01-02T10:00:00Z'), ev('b', '2024-01-03T09:00:00Z')],
      p4: [ev('a', '2024-01-04T10:00:00Z'), ev('b', '2024-01-04T10:30:00Z')],
      // Enters on two days: counts once per entrance day.
      p5: [ev('a', '2024-01-03T10:00:00Z'), ev('a', '2024-01-04T09:00:00Z'), ev('b', '2024-01-04T09:30:00Z')],
    });
    const results = await runFunnel(t, who, funnelJson(['a', 'b'], {
      dateRange: { date_from: '2024-01-01', date_to: '2024-01-05' },
      funnelsFilter: { funnelVizType: 'trends' },
    }));
    expect(results).toHaveLength(1);
    expect(results[0].days).toEqual(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05']);
    expect(results[0].labels[1]).toBe('2-Jan-2024');
    expect(results[0].count).toBe(5);
    // Jan 2: 2 of 3; Jan 3: p5's attempt from Jan 3 converts (b within the window) = 1 of 1; Jan 4: p4 and p5 = 2 of 2.
    expect(results[0].data).toEqual([0, 66.67, 100, 100, 0]);
  });
});

describe('time to convert', () => {
  it('bins the seconds from the first to the last step', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      p1: [ev('a', '2024-01-02T00:00:00Z'), ev('b', '2024-01-02T01:00:00Z'), ev('c', '2024-01-02T02:00:00Z')], // 7200
      p2: [ev('a', '2024-01-02T00:00:00Z'), ev('b', '2024-01-02T00:10:00Z'), ev('c', '2024-01-02T00:20:00Z')], // 1200
      p3: [ev('a', '2024-01-02T00:00:00Z'), ev('b', '2024-01-02T00:10:00Z')],
    });
    const result = await runFunnel(t, who, funnelJson(['a', 'b', 'c'], { funnelsFilter: { funnelVizType: 'time_to_convert', binCount: 2 } }));
    expect(result.average_conversion_time).toBe(4200);
    expect(result.bins).toEqual([[1200, 1], [4200, 0], [7200, 1]]);
    const firstStep = await runFunnel(t, who, funnelJson(['a', 'b', 'c'], { funnelsFilter: { funnelVizType: 'time_to_convert', funnelToStep: 1, binCount: 1 } }));
    expect(firstStep.average_conversion_time).toBeCloseTo((3600 + 600 + 600) / 3, 6);
  });

  it('uses PostHog bin arithmetic', () => {
    expect(binTimes([2220, 82800, 40000], 2)).toEqual({ bins: [[2220, 2], [42510, 0], [82800, 1]], average_conversion_time: (2220 + 82800 + 40000) / 3 });
    expect(binTimes([100, 100], null).bins).toEqual([[100, 2], [160, 0], [220, 0]]);
    expect(binTimes([], null)).toEqual({ bins: [], average_conversion_time: null });
  });
});

describe('funnel actors', () => {
  it('list every distinct id of a person, also those not seen in the funnel', async () => {
    const who = await newProject(t);
    await journeys(t, who, { anon1: [ev('a', '2024-01-02T00:00:00Z')] });
    await journeys(t, who, {
      user1: [ev('$identify', '2024-01-02T00:10:00Z', { $anon_distinct_id: 'anon1' })],
      // Only the second device's events are in the funnel; the person has all three ids.
      device2: [ev('$identify', '2024-01-02T00:20:00Z', { $anon_distinct_id: 'user1' })],
    });
    await journeys(t, who, { device2: [ev('b', '2024-01-02T01:00:00Z')] });
    const converted = await actors(t, who, funnelJson(['$identify', 'b']), 2);
    expect(converted.persons.map((p) => p.distinct_ids)).toEqual([['anon1', 'device2', 'user1']]);
  });

  it('lists the persons who converted and who dropped, per breakdown value', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      conv: [ev('a', '2024-01-02T00:00:00Z', { $browser: 'Chrome', $set: { email: 'conv@example.com' } }), ev('b', '2024-01-02T01:00:00Z')],
      drop: [ev('a', '2024-01-02T00:00:00Z', { $browser: 'Chrome' })],
      other: [ev('a', '2024-01-02T00:00:00Z', { $browser: 'Firefox' }), ev('b', '2024-01-02T01:00:00Z')],
    });
    const json = funnelJson(['a', 'b']);
    const converted = await actors(t, who, json, 2);
    expect(converted.persons.map((p) => p.distinct_ids).sort()).toEqual([['conv'], ['other']]);
    expect(converted.hasMore).toBe(false);
    const withEmail = converted.persons.find((p) => p.distinct_ids[0] === 'conv')!;
    expect(withEmail.properties.email).toBe('conv@example.com');
    expect(withEmail.created_at).toMatch(/^2024-01-02T00:00:00/);
    const dropped = await actors(t, who, json, -2);
    expect(dropped.persons.map((p) => p.distinct_ids)).toEqual([['drop']]);
    expect((await actors(t, who, json, 1)).persons).toHaveLength(3);

    const breakdown = funnelJson(['a', 'b'], { breakdownFilter: { breakdown: '$browser' } });
    const chrome = await actors(t, who, breakdown, 1, ['Chrome']);
    expect(chrome.persons.map((p) => p.distinct_ids[0]).sort()).toEqual(['conv', 'drop']);
    const chromeConverted = await actors(t, who, breakdown, 2, 'Chrome');
    expect(chromeConverted.persons.map((p) => p.distinct_ids[0])).toEqual(['conv']);
    // The URLs carry what the persons endpoint needs.
    const steps = await runFunnel(t, who, breakdown);
    const url = new URL(steps[0][1].dropped_people_url, 'http://x');
    expect(url.searchParams.get('funnel_step')).toBe('-2');
    expect(JSON.parse(url.searchParams.get('funnel_step_breakdown')!)).toEqual(['Chrome']);
    expect(JSON.parse(url.searchParams.get('query')!).kind).toBe('FunnelsQuery');
  });

  it("answers the same people through /query/'s InsightActorsQuery (funnelStep, funnelStepBreakdown)", async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      conv: [ev('a', '2024-01-02T00:00:00Z', { $browser: 'Chrome' }), ev('b', '2024-01-02T01:00:00Z')],
      drop: [ev('a', '2024-01-02T00:00:00Z', { $browser: 'Chrome' })],
      other: [ev('a', '2024-01-02T00:00:00Z', { $browser: 'Firefox' })],
    });
    const ask = async (target: Record<string, unknown>, source = funnelJson(['a', 'b'], { breakdownFilter: { breakdown: '$browser' } })) => {
      const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source, ...target }, select: ['person'] } } });
      return res;
    };
    const names = (res: { json(): { results: [{ distinct_ids: string[] }][] } }) => res.json().results.map(([p]) => p.distinct_ids[0]).sort();
    expect(names(await ask({ funnelStep: 2 }))).toEqual(['conv']);
    expect(names(await ask({ funnelStep: -2, funnelStepBreakdown: ['Chrome'] }))).toEqual(['drop']);
    expect(names(await ask({ funnelStep: 1, funnelStepBreakdown: 'Firefox' }))).toEqual(['other']);
    const refused = await ask({ funnelStep: 0 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ attr: 'funnelStep' });
    // The same road serves a trends point (its cases: test/query/trends/actors.test.ts).
    const trends = await ask({ day: '2024-01-02' }, { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'a' }] });
    expect(trends.statusCode, trends.body).toBe(200);
    expect(trends.json().columns).toEqual(['person']);
  });
});
