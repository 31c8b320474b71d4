// Events that share one timestamp, by PostHog's funnel UDF rule (steps.rs): when one instant holds
// different events, their steps are walked one at a time in ascending order, their exclusions are
// ignored and strict order clears nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { counts, ev, funnelJson, journeys, newProject, runFunnel } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(async () => { await t?.close(); });

const may = { date_from: '2021-05-01 00:00:00', date_to: '2021-05-14 00:00:00' };
const at = (hhmmss: string) => `2021-05-01T${hhmmss}Z`;
const excl = (event: string, funnelFromStep: number, funnelToStep: number) => ({ kind: 'EventsNode', event, funnelFromStep, funnelToStep });

describe('funnels: events that share a timestamp', () => {
  it('steps of one instant chain in ascending order (ordered, strict; the one-step walk too)', async () => {
    const who = await newProject(t);
    // Captured in reverse step order: the walk still takes a, then b, then c.
    await journeys(t, who, { p: [ev('c', at('01:00:00')), ev('b', at('01:00:00')), ev('a', at('01:00:00'))] });
    for (const funnelOrderType of ['ordered', 'strict']) {
      const steps = await runFunnel(t, who, funnelJson(['a', 'b', 'c'], { dateRange: may, funnelsFilter: { funnelOrderType } }));
      expect(counts(steps), funnelOrderType).toEqual([1, 1, 1]);
      expect(steps[1].average_conversion_time, funnelOrderType).toBeNull(); // zero-second conversions are left out
    }
  });

  it('an exclusion that shares its instant with a step is ignored', async () => {
    const who = await newProject(t);
    await journeys(t, who, {
      tied: [ev('a', at('01:00:00')), ev('x', at('01:00:05')), ev('b', at('01:00:05'))],
      // Alone in its instant the exclusion counts.
      alone: [ev('a', at('02:00:00')), ev('x', at('02:00:04')), ev('b', at('02:00:05'))],
    });
    for (const funnelOrderType of ['ordered', 'strict']) {
      const json = funnelJson(['a', 'b'], { dateRange: may, funnelsFilter: { funnelOrderType, exclusions: [excl('x', 0, 1)] } });
      expect(counts(await runFunnel(t, who, json)), funnelOrderType).toEqual([1, 1]);
    }
  });

  it('strict: another event in the instant of a step breaks nothing', async () => {
    const who = await newProject(t);
    await journeys(t, who, { p: [ev('a', at('01:00:00')), ev('other', at('01:00:05')), ev('b', at('01:00:05'))] });
    expect(counts(await runFunnel(t, who, funnelJson(['a', 'b'], { dateRange: may, funnelsFilter: { funnelOrderType: 'strict' } })))).toEqual([1, 1]);
  });

  it('strict: a restart in a mixed instant does not clear the attempt waiting for a later step', async () => {
    const who = await newProject(t);
    // a, b, then a and c together: the new a leaves the a-b attempt in place, and c completes it.
    await journeys(t, who, { p: [ev('a', at('01:00:00')), ev('b', at('01:00:01')), ev('a', at('01:00:05')), ev('c', at('01:00:05'))] });
    for (const exclusions of [[], [excl('x', 0, 1)]]) {
      const json = funnelJson(['a', 'b', 'c'], { dateRange: may, funnelsFilter: { funnelOrderType: 'strict', exclusions } });
      const steps = await runFunnel(t, who, json);
      expect(counts(steps), JSON.stringify(exclusions)).toEqual([1, 1, 1]);
      expect(steps[2].average_conversion_time).toBe(4);
    }
  });

  it('identical events of one instant walk as separate events (strict still clears after them)', async () => {
    const who = await newProject(t);
    await journeys(t, who, { p: [ev('a', at('01:00:00')), ev('other', at('01:00:03')), ev('other', at('01:00:03')), ev('b', at('01:00:05'))] });
    expect(counts(await runFunnel(t, who, funnelJson(['a', 'b'], { dateRange: may, funnelsFilter: { funnelOrderType: 'strict' } })))).toEqual([1, 0]);
  });
});
