// An independent, deliberately plain TypeScript model of PostHog's per-person funnel rule, for
// differential tests of Hoglet's SQL walks. Written from PostHog's funnel UDF (funnel-udf/src/
// steps.rs @862e6726 for ordered and strict, unordered_steps.rs @8f6eaa2a for unordered) and the
// event list that funnel_udf.py / base.py build for it (steps then exclusions, sorted by time, the
// `_udf_event_array_filter` pre-filter). Nothing here shares code with src/.
//
// An event's `steps` follow the UDF's encoding: +k when it matches step k (1-based), -k when an
// exclusion guards step k (exclusion {from a, to b} -> -(a+2) .. -(b+1)), steps first, ascending.
// Events that share a timestamp form one group: the same events walk one by one; different ones
// are expanded into one event per step, walked in ascending step order, exclusions ignored, no
// strict clearing, and an event never fills two steps of one attempt (steps.rs).

export interface OracleEvent {
  readonly ts: number; // seconds
  readonly id: number; // stands in for the event uuid
  readonly steps: readonly number[];
}

export interface OracleResult {
  /** 0-based furthest step; -1 = not counted (never entered, or the counted attempt is excluded). */
  readonly stepReached: number;
  /** Seconds between consecutive steps of the counted attempt. */
  readonly timings: readonly number[];
}

export interface OracleFunnel {
  readonly stepEvents: readonly string[];
  readonly order: 'ordered' | 'strict' | 'unordered';
  readonly windowSeconds: number;
  readonly exclusions: readonly { readonly event: string; readonly from: number; readonly to: number }[];
}

/** A person's raw events -> the UDF's input list (which events the event query keeps, and their step lists). */
export function udfEvents(funnel: OracleFunnel, raw: readonly { event: string; ts: number }[]): OracleEvent[] {
  const n = funnel.stepEvents.length;
  const out: OracleEvent[] = [];
  raw.forEach((e, id) => {
    const steps: number[] = [];
    funnel.stepEvents.forEach((name, i) => { if (name === e.event) steps.push(i + 1); });
    for (let i = 1; i < n; i++) {
      const guarded = funnel.exclusions.some((x) => x.event === e.event && x.from + 1 <= i && i <= x.to);
      if (guarded) steps.push(-(i + 1));
    }
    // The strict event query keeps every event of the person; the others only step/exclusion events.
    if (steps.length > 0 || funnel.order === 'strict') out.push({ ts: e.ts, id, steps });
  });
  // arraySort by timestamp. The order of events that share one is ClickHouse's grouping order,
  // which nothing fixes; this model takes the one Hoglet's sort gives (steps, then exclusions, as
  // bit masks), so a difference at such an instant is a difference of rule, not of order.
  out.sort((a, b) => a.ts - b.ts || bits(a.steps, 1) - bits(b.steps, 1) || bits(a.steps, -1) - bits(b.steps, -1));
  return prefilter(out);
}

/** An event's steps (sign 1) or exclusions (sign -1) as a bit mask, bit k-1 for step k. */
const bits = (steps: readonly number[], sign: 1 | -1) => steps.reduce((m, s) => (Math.sign(s) === sign ? m + 2 ** (Math.abs(s) - 1) : m), 0);

const sameSteps = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((s, i) => s === b[i]);

/** base.py `_udf_event_array_filter`: drop an event of at most one step that repeats both neighbours, strictly between them in time. */
function prefilter(events: OracleEvent[]): OracleEvent[] {
  return events.filter((x, i) => {
    const before = events[(i - 1 + events.length) % events.length]!;
    const after = events[(i + 1) % events.length]!;
    const drop = x.steps.length <= 1 && sameSteps(x.steps, before.steps) && sameSteps(x.steps, after.steps) && x.ts > before.ts && x.ts < after.ts;
    return !drop;
  });
}

export function personResult(funnel: OracleFunnel, events: readonly OracleEvent[]): OracleResult {
  return funnel.order === 'unordered'
    ? unordered(events, funnel.stepEvents.length, funnel.windowSeconds)
    : ordered(events, funnel.stepEvents.length, funnel.windowSeconds, funnel.order === 'strict');
}

interface Entered {
  timestamp: number; // 0 = unset
  excluded: boolean;
  timings: number[];
  uuids: number[];
}

const unset = (): Entered => ({ timestamp: 0, excluded: false, timings: [], uuids: [] });
const copy = (e: Entered): Entered => ({ ...e, timings: [...e.timings], uuids: [...e.uuids] });

function ordered(events: readonly OracleEvent[], n: number, window: number, strict: boolean): OracleResult {
  const entered: Entered[] = Array.from({ length: n + 1 }, unset);
  let maxStep = 0;
  let maxEntry = unset();

  const process = (event: OracleEvent, multiple: boolean) => {
    for (const raw of [...event.steps].reverse()) {
      const exclusion = raw < 0;
      const step = Math.abs(raw);
      const previousIndex = step - 1;
      const previous = entered[previousIndex]!;
      const inWindow = previous.timestamp !== 0 && event.ts - previous.timestamp <= window;
      const alreadyReached = entered[step]!.timestamp === previous.timestamp && entered[step]!.timestamp !== 0;
      if (!inWindow || alreadyReached) continue;
      if (exclusion) {
        if (!previous.excluded) {
          previous.excluded = true;
          if (maxStep === previousIndex && event.ts - maxEntry.timestamp <= window) maxEntry.excluded = true;
        }
        continue;
      }
      if (multiple && previous.uuids.includes(event.id)) continue;
      const next: Entered = {
        timestamp: previous.timestamp,
        excluded: previous.excluded,
        timings: [...previous.timings, event.ts],
        uuids: [...previous.uuids, event.id],
      };
      // The UDF stores copies: marking the entry later must not mark the furthest attempt.
      if (!previous.excluded) entered[step] = copy(next);
      if (step > maxStep || (step === maxStep && maxEntry.excluded)) {
        maxStep = step;
        maxEntry = copy(next);
      }
    }
    if (!multiple && strict) {
      for (let i = 1; i <= n; i++) if (!event.steps.includes(i)) entered[i] = unset();
    }
  };

  for (let i = 0; i < events.length;) {
    let j = i;
    while (j < events.length && events[j]!.ts === events[i]!.ts) j++;
    const group = events.slice(i, j);
    i = j;
    entered[0] = { timestamp: group[0]!.ts, excluded: false, timings: [], uuids: [] };
    if (group.length === 1 || group.every((e) => sameSteps(e.steps, group[0]!.steps))) {
      for (const event of group) process(event, false);
    } else {
      // Different events at one instant: one step at a time, ascending; exclusions and strict
      // clearing are left out (steps.rs).
      const expanded = group.flatMap((e) => e.steps.filter((s) => s > 0).map((s) => ({ ...e, steps: [s] })));
      expanded.sort((a, b) => a.steps[0]! - b.steps[0]!);
      for (const event of expanded) process(event, true);
    }
    if (entered[n]!.timestamp > 0) break;
  }

  if (maxEntry.excluded || maxStep === 0) return { stepReached: -1, timings: [] };
  const timings: number[] = [];
  for (let k = 1; k < maxEntry.timings.length; k++) timings.push(maxEntry.timings[k]! - maxEntry.timings[k - 1]!);
  return { stepReached: maxStep - 1, timings };
}

function unordered(events: readonly OracleEvent[], n: number, window: number): OracleResult {
  const queues: OracleEvent[][] = Array.from({ length: n }, () => []);
  let completed = 0;
  let maxStep = 0;
  let maxTimes: number[] = [];

  const updateMax = () => {
    if (completed > maxStep) {
      maxStep = completed;
      maxTimes = queues.filter((q) => q.length > 0).map((q) => q[0]!.ts).sort((a, b) => a - b);
    }
  };

  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    for (;;) {
      let oldest: number | null = null;
      queues.forEach((q, k) => { if (q.length > 0 && (oldest === null || q[0]!.ts < queues[oldest]![0]!.ts)) oldest = k; });
      if (oldest === null) break;
      const finished = completed >= n;
      if (!finished && queues[oldest]![0]!.ts + window >= event.ts) break;
      updateMax();
      queues[oldest]!.shift();
      if (queues[oldest]!.length === 0) completed -= 1;
    }
    if (event.steps.every((s) => s < 0)) {
      for (const q of queues) q.length = 0;
      completed = 0;
    } else {
      let chosen = event.steps[0]!;
      let chosenBack = Infinity;
      for (const s of event.steps) {
        const q = queues[s - 1]!;
        const back = q.length > 0 ? q[q.length - 1]!.ts : 0;
        if (back < chosenBack) { chosen = s; chosenBack = back; }
      }
      if (queues[chosen - 1]!.length === 0) completed += 1;
      queues[chosen - 1]!.push(event);
    }
    if (maxStep === n) break;
    if (i === events.length - 1) updateMax();
  }
  if (maxStep === 0) return { stepReached: -1, timings: [] };
  const timings: number[] = [];
  for (let k = 1; k < maxTimes.length; k++) timings.push(maxTimes[k]! - maxTimes[k - 1]!);
  return { stepReached: maxStep - 1, timings };
}

/** PostHog's steps result from per-person results: counts, and average / median of non-zero times. */
export function aggregate(results: readonly OracleResult[], n: number): { count: number; average: number | null; median: number | null }[] {
  const steps = [];
  for (let k = 0; k < n; k++) {
    const count = results.filter((r) => r.stepReached >= k).length;
    const times = k === 0 ? [] : results.filter((r) => r.stepReached >= k && r.timings[k - 1]! > 0).map((r) => r.timings[k - 1]!);
    steps.push({ count, average: times.length ? times.reduce((a, b) => a + b, 0) / times.length : null, median: median(times) });
  }
  return steps;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = (sorted.length - 1) / 2;
  return (sorted[Math.floor(mid)]! + sorted[Math.ceil(mid)]!) / 2;
}
