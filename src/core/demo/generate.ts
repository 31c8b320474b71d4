// Deterministic demo data: a small SaaS product's visitors, sign-ups, upgrades, purchases and
// churn over the last `days` days, as the events PostHog SDKs would have sent. Storage-free: it
// only yields events, in timestamp order, for the ingestion pipeline to consume.
//
// Each person is simulated on their own random stream (seeded by the person's rank), lazily,
// and the per-person streams are merged with a heap; so memory holds one pending event per
// active person, and the output depends only on (seed, now, days, persons).
import type { RawEvent } from '../capture/types.js';
import { HOUR_WEIGHTS, WEEKDAY_WEIGHTS } from './catalog.js';
import { DAY, HOUR, Person, type TimedEvent } from './person.js';
import { Random } from './random.js';

export interface DemoOptions {
  /** Generation is relative to this instant; same (seed, now) => identical output. */
  now: Date;
  seed?: number;
  days?: number;
  persons?: number;
}

export const DEFAULT_DEMO_SEED = 0x686f67; // "hog"
export const DEFAULT_DEMO_DAYS = 90;
export const DEFAULT_DEMO_PERSONS = 3000;

/** Visitors at the end of the period relative to the start: a product that is growing. */
const GROWTH = 2.5;
/** Share of visitors who arrive in the one-day Hacker News spike. */
const SPIKE_SHARE = 0.05;

interface Arrival {
  at: number;
  hackerNews: boolean;
}

/** When each person first shows up: growing, quieter at weekends and at night, one HN spike. */
function planArrivals(rng: Random, start: number, end: number, count: number): Arrival[] {
  const firstDay = Math.floor(start / DAY);
  const dayCount = Math.floor((end - 1) / DAY) - firstDay + 1;
  const days = Array.from({ length: dayCount }, (_, i) => {
    const weekday = new Date((firstDay + i) * DAY).getUTCDay();
    const noise = Math.max(0.5, rng.normal(1, 0.12));
    return [firstDay + i, GROWTH ** (i / dayCount) * WEEKDAY_WEIGHTS[weekday]! * noise] as const;
  });
  const hours = HOUR_WEIGHTS.map((w, h) => [h, w] as const);
  // The spike starts mid-afternoon UTC on a weekday-ish day in the second half of the period.
  const spikeStart = (firstDay + Math.floor(dayCount * rng.uniform(0.5, 0.75))) * DAY + 14 * HOUR;

  const arrivals: Arrival[] = [];
  while (arrivals.length < count) {
    let at: number;
    const hackerNews = rng.chance(SPIKE_SHARE);
    if (hackerNews) {
      at = spikeStart + rng.exponential(6 * HOUR);
    } else {
      at = rng.weighted(days) * DAY + rng.weighted(hours) * HOUR + rng.int(0, HOUR - 1);
    }
    at = Math.floor(at);
    // Redraw anything outside the window (the partial first and last days, a late spike).
    if (at >= start && at < end) arrivals.push({ at, hackerNews });
  }
  return arrivals.sort((a, b) => a.at - b.at);
}

interface Cursor {
  order: number;
  event: TimedEvent;
  rest: Iterator<TimedEvent>;
}

const before = (a: Cursor, b: Cursor): boolean =>
  a.event.at < b.event.at || (a.event.at === b.event.at && a.order < b.order);

/** A binary min-heap of per-person cursors, ordered by (next event time, person rank). */
class CursorHeap {
  private readonly items: Cursor[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Cursor | undefined {
    return this.items[0];
  }

  push(cursor: Cursor): void {
    const items = this.items;
    let i = items.push(cursor) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  /** Restores the heap after the top cursor moved on to a later event. */
  siftTop(): void {
    const items = this.items;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < items.length && before(items[left]!, items[least]!)) least = left;
      if (right < items.length && before(items[right]!, items[least]!)) least = right;
      if (least === i) return;
      [items[i], items[least]] = [items[least]!, items[i]!];
      i = least;
    }
  }

  popTop(): void {
    const last = this.items.pop()!;
    if (this.items.length > 0) {
      this.items[0] = last;
      this.siftTop();
    }
  }
}

/** Events sorted by timestamp ascending, each a RawEvent as posthog-js would send it (no token). */
export function* generateDemoEvents(options: DemoOptions): Generator<RawEvent> {
  const now = options.now.getTime();
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const days = options.days ?? DEFAULT_DEMO_DAYS;
  const persons = options.persons ?? DEFAULT_DEMO_PERSONS;
  if (!Number.isFinite(now)) throw new RangeError('demo data: `now` is not a valid date');
  if (!(days > 0) || !Number.isInteger(persons) || persons < 0) {
    throw new RangeError('demo data: `days` must be positive and `persons` a non-negative integer');
  }

  const start = now - days * DAY;
  const arrivals = planArrivals(new Random(seed, 0), start, now, persons);
  const heap = new CursorHeap();
  let next = 0;
  for (;;) {
    // A person's first event is at their arrival, so they join the merge just in time.
    while (next < arrivals.length && (heap.size === 0 || arrivals[next]!.at <= heap.peek()!.event.at)) {
      const arrival = arrivals[next]!;
      const rest = new Person(seed, next, arrival.at, now, arrival.hackerNews).events();
      const first = rest.next();
      if (!first.done) heap.push({ order: next, event: first.value, rest });
      next++;
    }
    const top = heap.peek();
    if (top === undefined) return;
    yield top.event.raw;
    const following = top.rest.next();
    if (following.done) {
      heap.popTop();
    } else {
      top.event = following.value;
      heap.siftTop();
    }
  }
}
