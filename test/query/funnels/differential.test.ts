// Differential test of the funnel walks against an independent model of PostHog's per-person rule
// (posthog-oracle.ts, from the funnel UDF steps.rs / unordered_steps.rs) over random seeded
// journeys: exclusions, repeated starts, bursts, and events that share one timestamp.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { counts, ev, funnelJson, journeys, newProject, runFunnel } from './helpers.js';
import { aggregate, personResult, udfEvents, type OracleFunnel } from './posthog-oracle.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(async () => { await t?.close(); });

type Journey = { event: string; ts: number }[];
const excl = (event: string, funnelFromStep: number, funnelToStep: number) => ({ kind: 'EventsNode', event, funnelFromStep, funnelToStep });

// A small linear congruential generator: the same journeys and funnels on every run.
let seed = 20240612;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const start = Date.parse('2024-01-02T00:00:00Z');
const isExclusion = (event: string) => event === 'x' || event === 'y';

/**
 * Journeys over six hours with repeated starts, bursts and exclusions, in whole seconds; about one
 * event in five shares the previous event's second. Each event matches one step, an exclusion or
 * nothing, where PostHog's answer at a shared second is deterministic. The unordered UDF walks
 * one second's events in ClickHouse's grouping order, so for it an exclusion never shares one.
 */
function randomJourneys(people: number, exclusionTies: boolean): Record<string, Journey> {
  const out: Record<string, Journey> = {};
  for (let p = 0; p < people; p++) {
    const events: Journey = [];
    let clock = Math.floor(random() * 3600);
    let instantHasExclusion = false;
    const length = 2 + Math.floor(random() * 14);
    for (let i = 0; i < length; i++) {
      const event = pick(['a', 'a', 'b', 'b', 'c', 'd', 'x', 'x', 'y', 'n']);
      const tie = i > 0 && random() < 0.2 && (exclusionTies || (!isExclusion(event) && !instantHasExclusion));
      if (!tie) {
        // Mostly short gaps (within small windows), sometimes long ones.
        clock += random() < 0.7 ? 1 + Math.floor(random() * 40) : 1 + Math.floor(random() * 4000);
        instantHasExclusion = false;
      }
      instantHasExclusion ||= isExclusion(event);
      events.push({ event, ts: clock });
    }
    out[`p${p}`] = events;
  }
  return out;
}

function randomFunnel(order: OracleFunnel['order'], withExclusions: boolean): OracleFunnel {
  const n = 2 + Math.floor(random() * 3);
  const stepEvents = ['a', 'b', 'c', 'd'].sort(() => random() - 0.5).slice(0, n);
  const exclusions = !withExclusions ? [] : (random() < 0.5 ? ['x'] : ['x', 'y']).map((event) => {
    if (order === 'unordered') return { event, from: 0, to: n - 1 };
    const from = Math.floor(random() * (n - 1));
    const to = from + 1 + Math.floor(random() * (n - 1 - from));
    return { event, from, to };
  });
  return { stepEvents, order, windowSeconds: pick([10, 30, 60, 300, 1800, 3600, 6 * 3600]), exclusions };
}

/**
 * Journeys over the whole date range (January) through up to 20 steps s1..s20: mostly the next
 * step, sometimes a repeat, a step back, an exclusion or another event, with gaps of minutes to
 * days. Many steps over a month fill the packed layout to its last bit (pack.ts), and events late
 * in the month set its top bit.
 */
function monthJourneys(people: number): Record<string, Journey> {
  const out: Record<string, Journey> = {};
  const last = 29 * 86_400 + 86_399; // 2024-01-31 23:59:59, the range's end
  for (let p = 0; p < people; p++) {
    const events: Journey = [];
    let clock = Math.floor(random() * 25 * 86_400);
    let step = 0;
    const length = 2 + Math.floor(random() * 30);
    for (let i = 0; i < length && clock <= last; i++) {
      const r = random();
      step = r < 0.6 ? Math.min(step + 1, 20) : r < 0.7 ? Math.max(step - 1, 1) : r < 0.8 ? 1 + Math.floor(random() * 20) : Math.max(step, 1);
      events.push({ event: r > 0.95 ? 'x' : r > 0.9 ? 'n' : `s${step}`, ts: clock });
      clock += pick([1 + Math.floor(random() * 600), 1 + Math.floor(random() * 86_400), 1 + Math.floor(random() * 10 * 86_400)]);
    }
    out[`p${p}`] = events;
  }
  return out;
}

/** s1..sn over the month, a window of a day to two weeks, the exclusion x between random steps. */
function monthFunnel(order: OracleFunnel['order'], withExclusions: boolean): OracleFunnel {
  // 20 steps without exclusions and 12 with them: each fills its packed number to the top (20
  // steps + the tie flag in a UInt64, 12 + 12 exclusion bits in a UInt128).
  const n = withExclusions ? 12 : 20;
  const stepEvents = Array.from({ length: n }, (_, i) => `s${i + 1}`);
  const from = Math.floor(random() * (n - 1));
  const exclusions = withExclusions ? [{ event: 'x', from, to: from + 1 + Math.floor(random() * (n - 1 - from)) }] : [];
  return { stepEvents, order, windowSeconds: pick([1, 7, 14]) * 86_400, exclusions };
}

const windowOf = (seconds: number) => (seconds % 3600 === 0 ? { funnelWindowInterval: seconds / 3600, funnelWindowIntervalUnit: 'hour' }
  : seconds % 60 === 0 ? { funnelWindowInterval: seconds / 60, funnelWindowIntervalUnit: 'minute' }
    : { funnelWindowInterval: seconds, funnelWindowIntervalUnit: 'second' });

const tiedPeople = (people: Record<string, Journey>) =>
  Object.values(people).filter((events) => new Set(events.map((e) => e.ts)).size < events.length).length;

/** Runs `funnels` random funnels over the journeys and compares every step with the model; returns counters. */
async function compare(order: OracleFunnel['order'], withExclusions: boolean, funnels: number, month = false) {
  const who = await newProject(t);
  const people = month ? monthJourneys(150) : randomJourneys(150, order !== 'unordered');
  await journeys(t, who, Object.fromEntries(Object.entries(people).map(([id, events]) =>
    [id, events.map((e) => ev(e.event, new Date(start + e.ts * 1000).toISOString()))])));
  let compared = 0;
  let excludedSomeone = 0;
  for (let f = 0; f < funnels; f++) {
    const funnel = month ? monthFunnel(order, withExclusions) : randomFunnel(order, withExclusions);
    const expected = aggregate(Object.values(people).map((events) => personResult(funnel, udfEvents(funnel, events))), funnel.stepEvents.length);
    const plain = { ...funnel, exclusions: [] };
    const withoutExclusions = aggregate(Object.values(people).map((events) => personResult(plain, udfEvents(plain, events))), funnel.stepEvents.length);
    if (withoutExclusions[0]!.count !== expected[0]!.count || withoutExclusions.at(-1)!.count !== expected.at(-1)!.count) excludedSomeone++;
    const json = funnelJson(funnel.stepEvents as string[], {
      dateRange: { date_from: '2024-01-01', date_to: '2024-01-31' },
      funnelsFilter: { funnelOrderType: order, ...windowOf(funnel.windowSeconds), exclusions: funnel.exclusions.map((e) => excl(e.event, e.from, e.to)) },
    });
    const got = await runFunnel(t, who, json);
    const label = JSON.stringify(funnel);
    if (expected[0]!.count === 0) {
      expect(got, label).toEqual([]);
      continue;
    }
    expect(counts(got), label).toEqual(expected.map((s) => s.count));
    got.forEach((step: any, k: number) => {
      if (expected[k]!.average === null) expect(step.average_conversion_time, label).toBeNull();
      else expect(step.average_conversion_time, label).toBeCloseTo(expected[k]!.average!, 6);
      if (expected[k]!.median === null) expect(step.median_conversion_time, label).toBeNull();
      else expect(step.median_conversion_time, label).toBeCloseTo(expected[k]!.median!, 6);
    });
    compared++;
  }
  return { compared, excludedSomeone, tied: tiedPeople(people) };
}

describe('funnels: differential test against an independent model of PostHog rule', () => {
  it.each(['ordered', 'strict', 'unordered'] as const)('%s funnels with exclusions agree with the model', async (order) => {
    const { compared, excludedSomeone, tied } = await compare(order, true, 14);
    // The journeys do exercise the rule: most funnels are entered, exclusions change answers,
    // and many people have events that share a second.
    expect(compared).toBeGreaterThan(10);
    expect(excludedSomeone).toBeGreaterThan(5);
    expect(tied).toBeGreaterThan(50);
  }, 120_000);

  // Ordered without exclusions takes the one-step walk (fold-one-step.ts).
  it.each(['ordered', 'strict'] as const)('%s funnels without exclusions agree with the model', async (order) => {
    const { compared } = await compare(order, false, 6);
    expect(compared).toBeGreaterThan(4);
  }, 120_000);

  // Long funnels over the whole month: the widest packed layouts, with their top bits in use.
  it.each([['ordered', false], ['strict', false], ['ordered', true], ['strict', true]] as const)('%s funnels of many steps over a month (exclusions: %s) agree with the model', async (order, withExclusions) => {
    const { compared } = await compare(order, withExclusions, 4, true);
    expect(compared).toBe(4);
  }, 120_000);
});
