import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateDemoEvents, type DemoOptions } from '../../../src/core/demo/generate.js';
import { Random } from '../../../src/core/demo/random.js';

type Event = {
  event: string;
  distinct_id: string;
  properties: Record<string, unknown>;
  timestamp: string;
  uuid: string;
};

const NOW = new Date('2025-06-01T12:00:00.000Z');
const DAY = 86_400_000;
const WEEK = 7 * DAY;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const generate = (options: DemoOptions): Event[] => [...generateDemoEvents(options)] as Event[];

function hashOf(options: DemoOptions): string {
  const hash = createHash('sha256');
  for (const event of generateDemoEvents(options)) hash.update(JSON.stringify(event)).update('\n');
  return hash.digest('hex');
}

/** distinct_id -> the identified id it was merged into, as person processing would do. */
function personOf(events: Event[]): (distinctId: string) => string {
  const merged = new Map<string, string>();
  for (const e of events) {
    if (e.event === '$identify') merged.set(e.properties.$anon_distinct_id as string, e.distinct_id);
  }
  return (id) => merged.get(id) ?? id;
}

describe('generateDemoEvents', () => {
  let events: Event[];
  beforeAll(() => {
    events = generate({ now: NOW });
  });

  it('is deterministic for a (seed, now) and changes with the seed or the instant', () => {
    const hash = hashOf({ now: NOW });
    expect(hashOf({ now: new Date(NOW) })).toBe(hash);
    expect(hashOf({ now: NOW, seed: 7 })).not.toBe(hash);
    const later = new Date(NOW.getTime() + 3 * DAY);
    expect(hashOf({ now: later, persons: 50 })).not.toBe(hashOf({ now: NOW, persons: 50 }));
  });

  it('yields a few tens of thousands of events by default', () => {
    expect(events.length).toBeGreaterThanOrEqual(50_000);
    expect(events.length).toBeLessThanOrEqual(150_000);
  });

  // Checks over every event collect the offenders and assert once: expect() per event is slow.
  it('gives every event the shape an SDK sends', () => {
    const bad = events.filter(
      (e) =>
        typeof e.event !== 'string' ||
        e.event === '' ||
        typeof e.distinct_id !== 'string' ||
        e.distinct_id === '' ||
        typeof e.uuid !== 'string' ||
        !UUID.test(e.uuid) ||
        typeof e.timestamp !== 'string' ||
        !ISO_MS.test(e.timestamp) ||
        typeof e.properties !== 'object' ||
        e.properties === null ||
        Array.isArray(e.properties) ||
        'token' in e.properties,
    );
    expect(bad.slice(0, 3)).toEqual([]);
    expect(new Set(events.map((e) => e.uuid)).size).toBe(events.length);
  });

  it('keeps timestamps sorted and inside [now - days, now]', () => {
    const start = NOW.getTime() - 90 * DAY;
    const times = events.map((e) => Date.parse(e.timestamp));
    expect(times[0]).toBeGreaterThanOrEqual(start);
    expect(times.at(-1)).toBeLessThanOrEqual(NOW.getTime());
    const unsorted = times.findIndex((at, i) => i > 0 && at < times[i - 1]!);
    expect(unsorted).toBe(-1);
  });

  it('sends browser events with the posthog-js web properties', () => {
    const pageviews = events.filter((e) => e.event === '$pageview');
    expect(pageviews.length).toBeGreaterThan(events.length / 2);
    const bad = pageviews.filter(({ properties: p }) => {
      const strings = ['$browser', '$os', '$device_type', '$referrer', '$referring_domain', '$window_id', '$title'];
      return (
        p.$lib !== 'web' ||
        p.$host !== 'demo.hoglet.dev' ||
        !String(p.$current_url).startsWith(`https://demo.hoglet.dev${p.$pathname as string}`) ||
        !UUID.test(String(p.$session_id)) ||
        strings.some((key) => typeof p[key] !== 'string')
      );
    });
    expect(bad.slice(0, 3)).toEqual([]);
    const paths = new Set(pageviews.map((e) => e.properties.$pathname));
    for (const path of ['/', '/pricing', '/features', '/signup', '/login', '/app', '/app/dashboard', '/app/settings', '/checkout']) {
      expect(paths, path).toContain(path);
    }
    expect([...paths].some((p) => String(p).startsWith('/blog/'))).toBe(true);
    const domains = new Set(pageviews.map((e) => e.properties.$referring_domain));
    expect(domains).toContain('$direct');
    expect(domains).toContain('news.ycombinator.com');
    expect(pageviews.some((e) => e.properties.utm_source !== undefined)).toBe(true);
  });

  it('identifies only anonymous ids that were used before', () => {
    const seen = new Set<string>();
    let identifies = 0;
    for (const e of events) {
      if (e.event === '$identify') {
        identifies++;
        const anon = e.properties.$anon_distinct_id as string;
        expect(seen.has(anon)).toBe(true);
        expect(anon).not.toBe(e.distinct_id);
        expect(e.properties.$set).toMatchObject({ email: expect.stringContaining('@') });
      }
      seen.add(e.distinct_id);
    }
    expect(identifies).toBeGreaterThan(100);
    const signups = events.filter((e) => e.event === 'signed_up');
    for (const e of signups) expect(e.distinct_id).toMatch(/^user_\d+$/);
  });

  it('has a funnel with fewer people at each step', () => {
    const person = personOf(events);
    const who = (match: (e: Event) => boolean) => new Set(events.filter(match).map((e) => person(e.distinct_id))).size;
    const pricing = who((e) => e.event === '$pageview' && e.properties.$pathname === '/pricing');
    const signedUp = who((e) => e.event === 'signed_up');
    const upgraded = who((e) => e.event === 'upgraded_plan');
    const purchased = who((e) => e.event === 'purchase');
    expect(pricing).toBeGreaterThan(signedUp);
    expect(signedUp).toBeGreaterThan(upgraded);
    expect(upgraded).toBeGreaterThan(purchased);
    expect(purchased).toBeGreaterThan(0);
  });

  it('records purchases with a numeric amount, upgrades and cancellations with $set plan', () => {
    const purchases = events.filter((e) => e.event === 'purchase');
    expect(purchases.length).toBeGreaterThan(0);
    for (const e of purchases) {
      expect(e.properties.amount).toBeTypeOf('number');
      expect(e.properties.amount as number).toBeGreaterThanOrEqual(9);
      expect(e.properties.amount as number).toBeLessThanOrEqual(499);
      expect(e.properties.currency).toBe('USD');
    }
    for (const e of events.filter((e) => e.event === 'upgraded_plan')) {
      expect(['pro', 'business']).toContain(e.properties.plan);
      expect(e.properties.$set).toEqual({ plan: e.properties.plan });
    }
    const cancelled = events.filter((e) => e.event === 'cancelled_subscription');
    expect(cancelled.length).toBeGreaterThan(0);
    for (const e of cancelled) expect(e.properties.$set).toEqual({ plan: 'free' });
  });

  it('ends a churned user’s activity at the cancellation', () => {
    const cancelled = new Set<string>();
    const after: Event[] = [];
    for (const e of events) {
      if (cancelled.has(e.distinct_id)) after.push(e);
      if (e.event === 'cancelled_subscription') cancelled.add(e.distinct_id);
    }
    expect(cancelled.size).toBeGreaterThan(0);
    expect(after.slice(0, 3)).toEqual([]);
  });

  it('brings users back in later weeks, fewer as weeks pass', () => {
    const person = personOf(events);
    const signedUpAt = new Map<string, number>();
    for (const e of events) if (e.event === 'signed_up') signedUpAt.set(e.distinct_id, Date.parse(e.timestamp));
    const activeInWeek = Array.from({ length: 13 }, () => new Set<string>());
    for (const e of events) {
      const user = person(e.distinct_id);
      const since = signedUpAt.get(user);
      if (since === undefined || e.properties.$lib !== 'web') continue;
      const week = Math.floor((Date.parse(e.timestamp) - since) / WEEK);
      if (week >= 0) activeInWeek[week]!.add(user);
    }
    // Users who signed up at least 8 weeks ago: everyone is active in week 0, some later.
    const cohort = [...signedUpAt].filter(([, at]) => at < NOW.getTime() - 8 * WEEK).map(([id]) => id);
    const active = (week: number) => cohort.filter((id) => activeInWeek[week]!.has(id)).length;
    expect(cohort.length).toBeGreaterThan(20);
    expect(active(0)).toBe(cohort.length);
    expect(active(1)).toBeGreaterThan(0);
    expect(active(1)).toBeLessThan(active(0));
    expect(active(7)).toBeGreaterThan(0);
    expect(active(7)).toBeLessThan(active(1));
  });

  it('has feature events to break down by browser and plan', () => {
    for (const name of ['dashboard_created', 'report_exported']) {
      const found = events.filter((e) => e.event === name);
      expect(found.length, name).toBeGreaterThan(50);
      expect(new Set(found.map((e) => e.properties.$browser)).size).toBeGreaterThan(2);
      expect(new Set(found.map((e) => e.properties.plan)).size).toBeGreaterThan(1);
    }
    expect(events.some((e) => e.event === '$pageleave')).toBe(true);
  });

  it('honours days and persons', () => {
    const small = generate({ now: NOW, days: 14, persons: 120, seed: 3 });
    const start = NOW.getTime() - 14 * DAY;
    expect(small.length).toBeGreaterThan(120);
    const firstVisits = small.filter((e) => e.event === '$pageview' && e.properties.$set_once !== undefined);
    expect(firstVisits.length).toBe(120);
    for (const e of small) expect(Date.parse(e.timestamp)).toBeGreaterThanOrEqual(start);
    expect(generate({ now: NOW, persons: 0 })).toEqual([]);
    expect(() => generate({ now: new Date(Number.NaN) })).toThrow(RangeError);
  });
});

describe('Random', () => {
  it('repeats a stream for the same seed and differs across streams', () => {
    const draw = (r: Random) => Array.from({ length: 5 }, () => r.uint32());
    expect(draw(new Random(1, 2))).toEqual(draw(new Random(1, 2)));
    expect(draw(new Random(1, 2))).not.toEqual(draw(new Random(1, 3)));
    expect(draw(new Random(1, 2))).not.toEqual(draw(new Random(2, 2)));
  });

  it('draws within range and formats uuids', () => {
    const r = new Random(42);
    for (let i = 0; i < 1000; i++) {
      const x = r.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      const n = r.int(3, 5);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(5);
      expect(r.exponential(2)).toBeGreaterThanOrEqual(0);
    }
    expect(r.uuidv4()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const v7 = r.uuidv7(Date.parse('2025-01-01T00:00:00Z'));
    expect(v7).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(v7.slice(0, 8) + v7.slice(9, 13), 16)).toBe(Date.parse('2025-01-01T00:00:00Z'));
  });

  it('weights picks by their weight', () => {
    const r = new Random(9);
    let heavy = 0;
    for (let i = 0; i < 10_000; i++) if (r.weighted([['a', 1], ['b', 3]] as const) === 'b') heavy++;
    expect(heavy / 10_000).toBeGreaterThan(0.72);
    expect(heavy / 10_000).toBeLessThan(0.78);
    const samples = Array.from({ length: 10_000 }, () => r.normal(10, 2));
    const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
    expect(mean).toBeGreaterThan(9.9);
    expect(mean).toBeLessThan(10.1);
  });
});
