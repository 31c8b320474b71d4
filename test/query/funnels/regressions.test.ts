// Funnel answers that once went wrong, each checked against PostHog's rule (posthog-oracle.ts)
// and against ClickHouse's windowFunnel (counts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import type { Credentials } from '../../helpers/app.js';
import { QueryExecutor } from '../../../src/query/execute.js';
import { alias, array, call, field, select, subquery, tuple } from '../../../src/query/ast/build.js';
import { packedEvents } from '../../../src/query/runners/funnels/pack.js';
import { el, int64, num } from '../../../src/query/runners/funnels/sql.js';
import { counts, ev, funnelJson, journeys, newProject, runFunnel } from './helpers.js';
import { aggregate, personResult, udfEvents, type OracleFunnel } from './posthog-oracle.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(async () => { await t?.close(); });

const DAY = 86_400;
const january = Date.parse('2024-01-01T00:00:00Z') / 1000;
type Journey = { event: string; ts: number }[];

/** Persons per furthest step by windowFunnel (its level k counts in steps 1..k). */
async function windowFunnelCounts(who: Credentials, steps: string[], windowSeconds: number): Promise<number[]> {
  const conditions = steps.map((_, i) => `event = {steps:Array(String)}[${i + 1}]`).join(', ');
  const rows = await t.services.events.query<{ level: number }>(
    `SELECT windowFunnel(${windowSeconds * 1_000_000})(toUInt64(toUnixTimestamp64Micro(timestamp)), ${conditions}) AS level
     FROM ${t.services.events.layout.database}.events WHERE team_id = {team:UInt64} GROUP BY distinct_id`,
    { team: who.projectId, steps },
  );
  return steps.map((_, k) => rows.filter((r) => Number(r.level) > k).length);
}

describe('funnels: regressions', () => {
  // The 20-step benchmark funnel over 31 days counted persons past the window. Its packed event
  // (42 bits of time, 20 of steps, the tie flag, the real-event bit) fills all 64 bits; unpacking
  // shifted with a signed count, which made ClickHouse shift arithmetically: every event after
  // day 25.5 of the range unpacked ~51 days early, so a step weeks late fell "inside" the window.
  it('a 20-step funnel over 31 days keeps late events at their time (packed UInt64 with its top bit set)', async () => {
    const who = await newProject(t);
    const steps = Array.from({ length: 20 }, (_, i) => `s${i + 1}`);
    const at = (day: number, hour: number) => january + day * DAY + hour * 3600;
    const people: Record<string, Journey> = {
      // Step 3 comes 29 days after step 2: out of the 14-day window.
      late: [{ event: 's1', ts: at(0, 10) }, { event: 's2', ts: at(0, 11) }, { event: 's3', ts: at(29, 10) }],
      // Step 2 is 7 days after step 1, across day 25.5.
      across: [{ event: 's1', ts: at(20, 0) }, { event: 's2', ts: at(27, 0) }],
      // Every step in the last days, an hour apart.
      converts: steps.map((event, i) => ({ event, ts: at(28, i) })),
    };
    await journeys(t, who, Object.fromEntries(Object.entries(people).map(([id, events]) =>
      [id, events.map((e) => ev(e.event, new Date(e.ts * 1000).toISOString()))])));
    for (const order of ['ordered', 'strict'] as const) {
      const funnel: OracleFunnel = { stepEvents: steps, order, windowSeconds: 14 * DAY, exclusions: [] };
      const expected = aggregate(Object.values(people).map((events) => personResult(funnel, udfEvents(funnel, events))), steps.length);
      const got = await runFunnel(t, who, funnelJson(steps, { funnelsFilter: { funnelOrderType: order, funnelWindowInterval: 14, funnelWindowIntervalUnit: 'day' } }));
      expect(counts(got), order).toEqual(expected.map((s) => s.count));
      expect(counts(got), order).toEqual([3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
      expect(got[1].average_conversion_time, order).toBeCloseTo(expected[1]!.average!, 6); // (1 h + 7 days + 1 h) / 3
      expect(got[2].average_conversion_time, order).toBe(3600);
    }
    expect(await windowFunnelCounts(who, steps, 14 * DAY)).toEqual([3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
  });

  // Every layout at its widest (all step and exclusion bits, the last microsecond of the range)
  // unpacks to what was packed: a signed shift or mask anywhere shows here.
  it('packed events unpack to their time and masks at every layout width', async () => {
    const run = new QueryExecutor(t.services.events).start(1);
    const from = january * 1_000_000;
    for (const days of [1, 31, 400]) {
      const to = from + days * DAY * 1_000_000 - 1;
      for (const withExclusions of [false, true]) {
        for (let n = 1; n <= 40; n++) {
          const full = 2 ** n - 1;
          // The tie flag (bit 0 of the exclusion mask) without exclusions, every bit with them.
          const events = [[from, full, withExclusions ? full - 1 : 0], [to, 1, 0], [to, full, withExclusions ? full - 1 : 1]]; // in sort order
          const e = field('e');
          const packed = packedEvents(el(e, 1), el(e, 2), el(e, 3), { stepCount: n, withExclusions, fromMicros: from, toMicros: to });
          const rows = select({ select: [alias(call('arrayJoin', array(...events.map((v) => tuple(int64(v[0]!), call('toUInt64', num(v[1]!)), call('toUInt64', num(v[2]!)))))), 'e')] });
          const [row] = await run.rows<{ v: unknown[][] }>(select({ select: [alias(packed.unpackAll(packed.sorted), 'v')], from: subquery(rows, 'events') }));
          expect(row!.v.map((x) => x.map(Number)), `${days} days, ${n} steps, exclusions ${withExclusions}`).toEqual(events);
        }
      }
    }
  }, 60_000);
});
