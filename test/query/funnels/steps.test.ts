import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { counts, ev, funnelJson, journeys, newProject, runFunnel } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(async () => { await t?.close(); });

describe('funnel steps: order types', () => {
  it('ordered, strict and unordered read the same events by their own rules', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      // In order, with a noise event in between: converts ordered/unordered, not strict.
      alice: [ev('a', '2024-01-02T10:00:00Z'), ev('noise', '2024-01-02T10:30:00Z'), ev('b', '2024-01-02T11:00:00Z'), ev('c', '2024-01-02T12:00:00Z')],
      // Strictly consecutive: converts everywhere.
      bob: [ev('a', '2024-01-03T10:00:00Z'), ev('b', '2024-01-03T11:00:00Z'), ev('c', '2024-01-03T12:00:00Z')],
      // Reverse order: ordered reaches only step 1, unordered completes.
      carol: [ev('c', '2024-01-04T10:00:00Z'), ev('b', '2024-01-04T11:00:00Z'), ev('a', '2024-01-04T12:00:00Z')],
      // Only b and c: never enters an ordered funnel, completes 2 unordered steps.
      dave: [ev('b', '2024-01-05T10:00:00Z'), ev('c', '2024-01-05T11:00:00Z')],
    });
    const ordered = await runFunnel(t, who, funnelJson(['a', 'b', 'c']));
    expect(counts(ordered)).toEqual([3, 2, 2]);
    const strict = await runFunnel(t, who, funnelJson(['a', 'b', 'c'], { funnelsFilter: { funnelOrderType: 'strict' } }));
    expect(counts(strict)).toEqual([3, 1, 1]);
    const unordered = await runFunnel(t, who, funnelJson(['a', 'b', 'c'], { funnelsFilter: { funnelOrderType: 'unordered' } }));
    expect(counts(unordered)).toEqual([4, 4, 3]);
    expect(unordered.map((s: any) => s.name)).toEqual(['Completed 1 step', 'Completed 2 steps', 'Completed 3 steps']);
    expect(ordered[0]).toMatchObject({ action_id: 'a', name: 'a', custom_name: null, order: 0, people: [], type: 'events', average_conversion_time: null, median_conversion_time: null, dropped_people_url: null });
    expect(ordered[1].converted_people_url).toMatch(new RegExp(`^/api/projects/${who.projectId}/insights/funnel/persons/\\?funnel_step=2&query=`));
    expect(ordered[1].dropped_people_url).toMatch(/funnel_step=-2&/);
  });

  it('a step-1 event restarts the attempt: the most recent start progresses', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      p: [ev('a', '2024-01-01T00:00:00Z'), ev('a', '2024-01-10T00:00:00Z'), ev('b', '2024-01-20T00:00:00Z')],
    });
    // The first a is 19 days before b; the second is 10 days before: converts with a 10-day time.
    const steps = await runFunnel(t, who, funnelJson(['a', 'b']));
    expect(counts(steps)).toEqual([1, 1]);
    expect(steps[1].average_conversion_time).toBe(10 * 86400);
  });
});

describe('funnel steps: the conversion window', () => {
  it('a step exactly at the window converts, one second over does not', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      edge: [ev('a', '2024-01-02T00:00:00Z'), ev('b', '2024-01-03T00:00:00Z')],
      over: [ev('a', '2024-01-02T00:00:00Z'), ev('b', '2024-01-03T00:00:01Z')],
    });
    const day = await runFunnel(t, who, funnelJson(['a', 'b'], { funnelsFilter: { funnelWindowInterval: 1, funnelWindowIntervalUnit: 'day' } }));
    expect(counts(day)).toEqual([2, 1]);
    const hours = await runFunnel(t, who, funnelJson(['a', 'b'], { funnelsFilter: { funnelWindowInterval: 25, funnelWindowIntervalUnit: 'hour' } }));
    expect(counts(hours)).toEqual([2, 2]);
  });

  it('the window is measured from the first step, not the previous one', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      p: [ev('a', '2024-01-01T00:00:00Z'), ev('b', '2024-01-01T20:00:00Z'), ev('c', '2024-01-02T01:00:00Z')],
    });
    const steps = await runFunnel(t, who, funnelJson(['a', 'b', 'c'], { funnelsFilter: { funnelWindowInterval: 1 } }));
    expect(counts(steps)).toEqual([1, 1, 0]);
  });

  it('every step must lie inside the date range', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      p: [ev('a', '2024-01-30T00:00:00Z'), ev('b', '2024-02-01T10:00:00Z')],
      q: [ev('a', '2023-12-31T23:00:00Z'), ev('b', '2024-01-01T01:00:00Z')],
    });
    const steps = await runFunnel(t, who, funnelJson(['a', 'b']));
    expect(counts(steps)).toEqual([1, 0]);
  });
});

describe('funnel steps: exclusions', () => {
  it('an exclusion between the guarded steps drops the person from every step', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      clean: [ev('a', '2024-01-02T00:00:00Z'), ev('b', '2024-01-02T01:00:00Z'), ev('c', '2024-01-02T02:00:00Z')],
      excluded: [ev('a', '2024-01-02T00:00:00Z'), ev('x', '2024-01-02T00:30:00Z'), ev('b', '2024-01-02T01:00:00Z'), ev('c', '2024-01-02T02:00:00Z')],
      // x after b is outside the guarded range (a -> b): still counts.
      later: [ev('a', '2024-01-02T00:00:00Z'), ev('b', '2024-01-02T01:00:00Z'), ev('x', '2024-01-02T01:30:00Z'), ev('c', '2024-01-02T02:00:00Z')],
      // Excluded first attempt, then a clean one.
      retry: [ev('a', '2024-01-03T00:00:00Z'), ev('x', '2024-01-03T00:30:00Z'), ev('a', '2024-01-05T00:00:00Z'), ev('b', '2024-01-05T01:00:00Z')],
    });
    const exclusions = [{ kind: 'EventsNode', event: 'x', funnelFromStep: 0, funnelToStep: 1 }];
    const steps = await runFunnel(t, who, funnelJson(['a', 'b', 'c'], { funnelsFilter: { exclusions } }));
    expect(counts(steps)).toEqual([3, 3, 2]);
    const without = await runFunnel(t, who, funnelJson(['a', 'b', 'c']));
    expect(counts(without)).toEqual([4, 4, 3]);
  });
});

describe('funnel steps: conversion times', () => {
  it('averages and medians leave out zero-second conversions', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      p1: [ev('a', '2024-01-02T00:00:00Z'), ev('b', '2024-01-02T01:00:00Z')], // 3600
      p2: [ev('a', '2024-01-02T00:00:00Z'), ev('b', '2024-01-02T03:00:00Z')], // 10800
      p3: [ev('a', '2024-01-02T00:00:00Z'), ev('b', '2024-01-02T10:00:00Z')], // 36000
      p4: [ev('a', '2024-01-02T05:00:00Z'), ev('b', '2024-01-02T05:00:00Z')], // 0: counted, not timed
      p5: [ev('a', '2024-01-02T05:00:00Z')],
    });
    const steps = await runFunnel(t, who, funnelJson(['a', 'b']));
    expect(counts(steps)).toEqual([5, 4]);
    expect(steps[1].average_conversion_time).toBeCloseTo((3600 + 10800 + 36000) / 3, 6);
    expect(steps[1].median_conversion_time).toBe(10800);
    const even = await newProject(t);
    await journeys(t, even, {
      p1: [ev('a', '2024-01-02T00:00:00Z'), ev('b', '2024-01-02T01:00:00Z')],
      p2: [ev('a', '2024-01-02T00:00:00Z'), ev('b', '2024-01-02T02:00:00Z')],
    });
    // ClickHouse's median interpolates between the two middle values.
    expect((await runFunnel(t, even, funnelJson(['a', 'b'])))[1].median_conversion_time).toBe(5400);
  });
});

describe('funnel steps: persons', () => {
  it('an $identify merge joins two distinct ids into one person', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      anon1: [ev('a', '2024-01-02T00:00:00Z')],
    });
    await journeys(t, who, {
      user1: [ev('$identify', '2024-01-02T00:10:00Z', { $anon_distinct_id: 'anon1' }), ev('b', '2024-01-02T01:00:00Z')],
    });
    const steps = await runFunnel(t, who, funnelJson(['a', 'b']));
    expect(counts(steps)).toEqual([1, 1]);
  });

  it('nobody entering gives an empty result', async () => {
    const who = await newProject(t);
    await journeys(t, who, { p: [ev('b', '2024-01-02T00:00:00Z')] });
    expect(await runFunnel(t, who, funnelJson(['a', 'b']))).toEqual([]);
  });
});

describe('funnel steps: sizes', () => {
  it('1, 5 and 20 steps', async () => {
    const who = await newProject(t);
    const names = Array.from({ length: 20 }, (_, i) => `s${i + 1}`);
    const at = (i: number) => new Date(Date.parse('2024-01-02T00:00:00Z') + i * 60_000).toISOString();
    await journeys(t, who, {
      all: names.map((n, i) => ev(n, at(i))),
      half: names.slice(0, 10).map((n, i) => ev(n, at(i))),
      three: names.slice(0, 3).map((n, i) => ev(n, at(i))),
      skip: [ev('s1', at(0)), ev('s3', at(2)), ev('s2', at(3))],
    });
    expect(counts(await runFunnel(t, who, funnelJson(['s1'])))).toEqual([4]);
    expect(counts(await runFunnel(t, who, funnelJson(names.slice(0, 5))))).toEqual([4, 4, 3, 2, 2]);
    const twenty = await runFunnel(t, who, funnelJson(names));
    expect(counts(twenty)).toEqual([4, 4, 3, ...Array(7).fill(2), ...Array(10).fill(1)]);
    expect(twenty[19].average_conversion_time).toBe(60);
  });
});

describe('funnel steps: how events are packed does not change the answer', () => {
  // A person's events are packed into one integer each; the width depends on the date range and
  // the step count (UInt64 for short ranges, UInt128 for long ones, UInt256 past 36 steps with
  // exclusions). The same people must give the same numbers in every layout.
  it('short and long date ranges, few and many steps, with and without exclusions', async () => {
    const who = await newProject(t);
    const names = Array.from({ length: 38 }, (_, i) => `s${i + 1}`);
    const at = (i: number) => new Date(Date.parse('2024-01-02T00:00:00Z') + i * 60_000).toISOString();
    await journeys(t, who, {
      all: names.map((n, i) => ev(n, at(i))),
      // Same timestamp for s1 and s2: ties sort by step, so s1 comes first and both count.
      tie: [ev('s1', at(0)), ev('s2', at(0)), ev('s3', at(5))],
      // An exclusion between s1 and s2 drops this attempt.
      excluded: [ev('s1', at(0)), ev('x', at(1)), ev('s2', at(2))],
      repeats: [ev('s1', at(0)), ev('s1', at(1)), ev('s1', at(2)), ev('s2', at(3)), ev('s2', at(4))],
    });
    const exclusions = [{ kind: 'EventsNode', event: 'x', funnelFromStep: 0, funnelToStep: 1 }];
    const ranges = [
      { date_from: '2024-01-01', date_to: '2024-01-31' }, // 42 bits of time
      { date_from: '1990-01-01', date_to: '2024-01-31' }, // 51 bits: wide with 20 steps
    ];
    for (const dateRange of ranges) {
      const three = await runFunnel(t, who, funnelJson(names.slice(0, 3), { dateRange }));
      expect(counts(three)).toEqual([4, 4, 2]);
      // all 60 s, excluded 120 s, repeats 60 s (the latest s1 converts); tie's 0 s is not timed.
      expect(three[1].average_conversion_time).toBeCloseTo((60 + 120 + 60) / 3, 6);
      const strict = await runFunnel(t, who, funnelJson(names.slice(0, 3), { dateRange, funnelsFilter: { funnelOrderType: 'strict' } }));
      expect(counts(strict)).toEqual([4, 3, 2]); // x breaks excluded's run
      const unordered = await runFunnel(t, who, funnelJson(names.slice(0, 3), { dateRange, funnelsFilter: { funnelOrderType: 'unordered' } }));
      expect(counts(unordered)).toEqual([4, 4, 2]);
      const threeExcluded = await runFunnel(t, who, funnelJson(names.slice(0, 3), { dateRange, funnelsFilter: { exclusions } }));
      expect(counts(threeExcluded)).toEqual([3, 3, 2]);
      const twenty = await runFunnel(t, who, funnelJson(names.slice(0, 20), { dateRange, funnelsFilter: { exclusions } }));
      expect(counts(twenty)).toEqual([3, 3, 2, ...Array(17).fill(1)]);
      const many = await runFunnel(t, who, funnelJson(names, { dateRange, funnelsFilter: { exclusions } }));
      expect(counts(many)).toEqual([3, 3, 2, ...Array(35).fill(1)]);
      expect(many[37].average_conversion_time).toBe(60);
    }
  });
});

describe('funnel steps: the walk for one step per event agrees with the general walk', () => {
  it('same counts and times on varied journeys', async () => {
    const who = await newProject(t);
    // A small linear congruential generator: the same journeys on every run.
    let seed = 20261121;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const people: Record<string, ReturnType<typeof ev>[]> = {};
    for (let p = 0; p < 40; p++) {
      people[`p${p}`] = Array.from({ length: 2 + Math.floor(random() * 12) }, () =>
        ev(['a', 'b', 'c', 'd'][Math.floor(random() * 4)]!, new Date(Date.parse('2024-01-02T00:00:00Z') + Math.floor(random() * 6 * 3600) * 1000).toISOString()));
    }
    await journeys(t, who, people);
    const window = { funnelWindowInterval: 1, funnelWindowIntervalUnit: 'hour' };
    // An exclusion nobody performs changes nothing but sends the funnel through the general walk.
    const never = [{ kind: 'EventsNode', event: 'never', funnelFromStep: 0, funnelToStep: 1 }];
    const fast = await runFunnel(t, who, funnelJson(['a', 'b', 'c'], { funnelsFilter: window }));
    const general = await runFunnel(t, who, funnelJson(['a', 'b', 'c'], { funnelsFilter: { ...window, exclusions: never } }));
    const shape = (steps: any[]) => steps.map((s) => [s.count, s.average_conversion_time, s.median_conversion_time]);
    expect(counts(fast)[0]!).toBeGreaterThan(counts(fast)[2]!); // the journeys do drop off
    expect(counts(fast)[2]!).toBeGreaterThan(0);
    expect(shape(fast)).toEqual(shape(general));
  });
});
