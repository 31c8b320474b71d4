// Funnel exclusions by PostHog's rule (funnel UDF steps.rs / unordered_steps.rs): PostHog's own
// test cases with their numbers. The differential test over random journeys is differential.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { actors, counts, ev, funnelJson, journeys, newProject, runFunnel } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(async () => { await t?.close(); });

const may = { date_from: '2021-05-01 00:00:00', date_to: '2021-05-14 00:00:00' };
const excl = (event: string, funnelFromStep: number, funnelToStep: number) => ({ kind: 'EventsNode', event, funnelFromStep, funnelToStep });
const at = (hhmmss: string, day = '01') => `2021-05-${day}T${hhmmss}Z`;

describe('exclusions: several attempts, one of them excluded (test_funnel.py, multiple_possible_no_end_event)', () => {
  const funnel = (extra: Record<string, unknown> = {}) => funnelJson(['step one', 'step two'], {
    dateRange: { date_from: '2021-05-01 00:00:00', date_to: '2021-05-13 23:59:59' },
    funnelsFilter: { funnelWindowInterval: 10, funnelWindowIntervalUnit: 'second', exclusions: [excl('exclusion', 0, 1)] },
    ...extra,
  });

  it('the exclusion falls in a later attempt but outside the first attempt window: counted at step one', async () => {
    // The hand case: the furthest attempt (the first one) is marked only while the exclusion is in its window.
    const who = await newProject(t);
    await journeys(t, who, { user_one: [ev('step one', at('00:00:00')), ev('step one', at('00:00:31')), ev('exclusion', at('00:00:32'))] });
    expect(counts(await runFunnel(t, who, funnel()))).toEqual([1, 0]);
  });

  it('an excluded attempt followed by a clean one: counted at step one', async () => {
    const who = await newProject(t);
    await journeys(t, who, { user_one: [ev('step one', at('00:00:00')), ev('exclusion', at('00:00:01')), ev('step one', at('00:00:31'))] });
    expect(counts(await runFunnel(t, who, funnel()))).toEqual([1, 0]);
  });

  it('the exclusion is inside both attempts windows: dropped', async () => {
    const who = await newProject(t);
    await journeys(t, who, { user_one: [ev('step one', at('00:00:00')), ev('step one', at('00:00:01')), ev('exclusion', at('00:00:02'))] });
    expect(await runFunnel(t, who, funnel())).toEqual([]);
  });

  it('the same rule with more attempts: the first clean start after an excluded one is the counted attempt', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      // 0 starts, 5 excludes it; 20 replaces the excluded furthest attempt; 25 and 40 only restart.
      // 41 is within 40's window but 21 s after 20: counted at step one.
      p: [ev('step one', at('00:00:00')), ev('exclusion', at('00:00:05')), ev('step one', at('00:00:20')), ev('step one', at('00:00:25')), ev('step one', at('00:00:40')), ev('exclusion', at('00:00:41'))],
    });
    expect(counts(await runFunnel(t, who, funnel()))).toEqual([1, 0]);
  });
});

describe('exclusions: PostHog test_funnel.py cases', () => {
  it('test_funnel_exclusion_no_end_event: within the window, even with nothing after it', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      person1: [ev('user signed up', at('01:00:00')), ev('paid', at('02:00:00'))],
      person2: [ev('user signed up', at('03:00:00')), ev('x', at('03:30:00')), ev('paid', at('04:00:00'))],
      person3: [ev('user signed up', at('05:00:00')), ev('x', at('06:00:00'))],
      person4: [ev('user signed up', at('07:00:00')), ev('x', at('08:00:00', '02'))],
    });
    const json = funnelJson(['user signed up', 'paid'], { dateRange: may, funnelsFilter: { funnelWindowInterval: 1, exclusions: [excl('x', 0, 1)] } });
    expect(counts(await runFunnel(t, who, json))).toEqual([2, 1]);
    const atStep = async (step: number) => (await actors(t, who, json, step)).persons.flatMap((p) => p.distinct_ids).sort();
    expect(await atStep(1)).toEqual(['person1', 'person4']);
    expect(await atStep(2)).toEqual(['person1']);
  });

  it('test_funnel_exclusions_full_window and test_funnel_exclusions_with_actions', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      person1: [ev('user signed up', at('01:00:00')), ev('paid', at('02:00:00'))],
      person2: [ev('user signed up', at('03:00:00')), ev('x 1 name with numbers 2', at('03:30:00')), ev('paid', at('04:00:00'))],
      person3: [ev('user signed up', at('05:00:00')), ev('paid', at('06:00:00'))],
    });
    const json = funnelJson(['user signed up', 'paid'], { dateRange: may, funnelsFilter: { exclusions: [excl('x 1 name with numbers 2', 0, 1)] } });
    expect(counts(await runFunnel(t, who, json))).toEqual([2, 2]);
  });

  // test_advanced_funnel_exclusions_between_steps
  it('exclusions between different steps of a five-step funnel', async () => {
    const who = await newProject(t);
    const steps = ['user signed up', '$pageview', 'insight viewed', 'invite teammate', 'pageview2'];
    await journeys(t, who, {
      person1: [ev(steps[0]!, at('01:00:00')), ev(steps[1]!, at('02:00:00')), ev('x', at('03:00:00')), ev(steps[2]!, at('04:00:00')), ev('x', at('04:30:00')), ev(steps[3]!, at('05:00:00')), ev('x', at('05:30:00')), ev(steps[4]!, at('06:00:00'))],
      person2: [ev(steps[0]!, at('01:00:00')), ev(steps[1]!, at('02:00:00')), ev(steps[2]!, at('04:00:00')), ev('x', at('04:30:00')), ev(steps[3]!, at('05:00:00')), ev('x', at('05:30:00')), ev(steps[4]!, at('06:00:00'))],
      person3: [ev(steps[0]!, at('01:00:00')), ev('x', at('01:30:00')), ev(steps[1]!, at('02:00:00')), ev(steps[2]!, at('04:00:00')), ev(steps[3]!, at('05:00:00')), ev('x', at('05:30:00')), ev(steps[4]!, at('06:00:00'))],
    });
    const run = async (from: number, to: number) => {
      const json = funnelJson(steps, { dateRange: may, funnelsFilter: { exclusions: [excl('x', from, to)] } });
      const result = await runFunnel(t, who, json);
      const firstStep = (await actors(t, who, json, 1)).persons.flatMap((p) => p.distinct_ids).sort();
      return { counts: result.length ? [counts(result)[0], counts(result)[4]] : [], firstStep };
    };
    expect(await run(0, 1)).toEqual({ counts: [2, 2], firstStep: ['person1', 'person2'] });
    expect(await run(1, 2)).toEqual({ counts: [2, 2], firstStep: ['person2', 'person3'] });
    expect(await run(2, 3)).toEqual({ counts: [1, 1], firstStep: ['person3'] });
    expect(await run(3, 4)).toEqual({ counts: [], firstStep: [] });
    expect(await run(1, 3)).toEqual({ counts: [1, 1], firstStep: ['person3'] });
  });

  // test_advanced_funnel_multiple_exclusions_between_steps
  it('several exclusions over different ranges', async () => {
    const who = await newProject(t);
    const steps = ['user signed up', '$pageview', 'insight viewed', 'invite teammate', 'pageview2'];
    const story = (extra: [string, string][]) => [...[['01:00:00', steps[0]!], ['03:00:00', steps[1]!], ['04:00:00', steps[2]!], ['05:00:00', steps[3]!], ['06:00:00', steps[4]!]] as [string, string][], ...extra]
      .map(([time, event]) => ev(event, at(time)));
    await journeys(t, who, {
      person1: story([['02:00:00', 'x'], ['04:30:00', 'y']]),
      person2: story([['01:30:00', 'y'], ['04:30:00', 'y'], ['05:30:00', 'x']]),
      person3: story([['01:30:00', 'x'], ['05:30:00', 'x']]),
      person4: story([]),
    });
    const run = async (exclusions: unknown[]) => {
      const json = funnelJson(steps, { dateRange: may, funnelsFilter: { exclusions } });
      const firstStep = (await actors(t, who, json, 1)).persons.flatMap((p) => p.distinct_ids);
      return { counts: counts(await runFunnel(t, who, json)), firstStep };
    };
    expect(await run([excl('x', 0, 1), excl('y', 2, 3)])).toEqual({ counts: [1, 1, 1, 1, 1], firstStep: ['person4'] });
    expect(await run([excl('x', 0, 1), excl('y', 0, 1)])).toEqual({ counts: [1, 1, 1, 1, 1], firstStep: ['person4'] });
    expect(await run([excl('x', 0, 4), excl('y', 0, 4)])).toEqual({ counts: [1, 1, 1, 1, 1], firstStep: ['person4'] });
  });

  it('test_funnel_exclusions_invalid_params, and an exclusion that is one of its own steps', async () => {
    const who = await newProject(t);
    const query = (exclusions: unknown[], series = ['user signed up', 'paid']) =>
      t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: funnelJson(series, { dateRange: may, funnelsFilter: { exclusions } }) } });
    for (const [from, to] of [[1, 1], [1, 2], [2, 1], [0, 2]]) {
      const res = await query([excl('x', from!, to!)]);
      expect(res.statusCode).toBe(400);
      expect(res.json().attr).toMatch(/^query\.funnelsFilter\.exclusions\[0\]\.funnelFromStep|^query\.funnelsFilter\.exclusions\[0\]\.funnelToStep/);
    }
    // PostHog: "Exclusion steps cannot contain an event that's part of funnel steps."
    const own = await query([excl('paid', 0, 1)]);
    expect(own.statusCode).toBe(400);
    expect(own.json().attr).toBe('query.funnelsFilter.exclusions[0]');
    // Outside its range the same event is allowed.
    expect((await query([excl('a', 1, 2)], ['a', 'b', 'c'])).statusCode).toBe(200);
  });
});

describe('exclusions: strict and unordered (test_funnel_strict.py, test_funnel_unordered.py)', () => {
  it('strict: an exclusion that is also a step outside its range keeps that step', async () => {
    const who = await newProject(t);
    // 'a' is step 0 and also excluded between steps 1 and 2. The UDF marks the exclusion first,
    // then moves the steps, and only then clears what the event did not match (strict).
    await journeys(t, who, { p: [ev('a', at('01:00:00')), ev('b', at('02:00:00')), ev('c', at('03:00:00'))] });
    const json = funnelJson(['a', 'b', 'c'], { dateRange: may, funnelsFilter: { funnelOrderType: 'strict', exclusions: [excl('a', 1, 2)] } });
    expect(counts(await runFunnel(t, who, json))).toEqual([1, 1, 1]);
  });

  it('unordered test_funnel_exclusions_full_window: the exclusion wipes the progress inside the window', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      person1: [ev('user signed up', at('01:00:00')), ev('paid', at('02:00:00'))],
      person2: [ev('user signed up', at('03:00:00')), ev('x', at('03:30:00')), ev('paid', at('04:00:00'))],
      person3: [ev('user signed up', at('05:00:00')), ev('paid', at('06:00:00'))],
    });
    const json = funnelJson(['user signed up', 'paid'], { dateRange: may, funnelsFilter: { funnelOrderType: 'unordered', exclusions: [excl('x', 0, 1)] } });
    expect(counts(await runFunnel(t, who, json))).toEqual([3, 2]);
  });

  it('unordered test_unordered_exclusion_after_completion and test_advanced_funnel_multiple_exclusions_between_steps', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      person1: [ev('user signed up', at('01:00:00')), ev('paid', at('02:00:00')), ev('left', at('03:00:00')), ev('x', at('04:00:00')), ev('left', at('05:00:00'))],
    });
    const after = funnelJson(['user signed up', 'paid', 'left'], { dateRange: may, funnelsFilter: { funnelOrderType: 'unordered', exclusions: [excl('x', 0, 2)] } });
    expect(counts(await runFunnel(t, who, after))).toEqual([1, 1, 1]);

    const many = await newProject(t);
    const steps = ['user signed up', '$pageview', 'insight viewed', 'invite teammate', 'pageview2'];
    const story = (extra: [string, string][]) => [...[['01:00:00', steps[0]!], ['02:00:00', steps[1]!], ['04:00:00', steps[2]!], ['05:00:00', steps[3]!], ['06:00:00', steps[4]!]] as [string, string][], ...extra]
      .map(([time, event]) => ev(event, at(time)));
    await journeys(t, many, {
      person1: [ev(steps[0]!, at('01:00:00')), ev('x', at('02:00:00')), ev(steps[1]!, at('03:00:00')), ev(steps[2]!, at('04:00:00')), ev('y', at('04:30:00')), ev(steps[3]!, at('05:00:00')), ev(steps[4]!, at('06:00:00'))],
      person2: story([['01:30:00', 'y'], ['04:30:00', 'y'], ['05:30:00', 'x']]),
      person3: story([['01:30:00', 'x'], ['05:30:00', 'x']]),
      person4: story([]),
      person5: story([['01:30:00', 'x'], ['02:30:00', 'x'], ['04:30:00', 'y'], ['05:30:00', 'x']]),
    });
    const json = funnelJson(steps, { dateRange: may, funnelsFilter: { funnelOrderType: 'unordered', exclusions: [excl('x', 0, 4), excl('y', 0, 4)] } });
    expect(counts(await runFunnel(t, many, json))).toEqual([5, 2, 1, 1, 1]);
  });
});
