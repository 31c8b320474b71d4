// Property: over generated sessions (recordings posted to /s/, their events to /batch/), the
// recordings list for any generated filter (events performed with their own properties, event
// properties positive and negative, person properties, operand, a duration predicate) equals a
// reference filter written in TypeScript from PostHog's rules (session_recording_list_from_query.py):
// entities OR'ed per event, each needed (AND) or one (OR) per session; positive event filters on the
// matching events, negative ones on none of them; person filters on the recording's person; the
// events and person conditions joined by the operand.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { listedIds, recordSession, rrwebPage, sessionEvents, turnOnRecording } from '../helpers/recordings.js';

const EVENTS = ['$pageview', 'purchase', 'signup'] as const;
const BROWSERS = ['Chrome', 'Firefox', null] as const;
const PEOPLE = ['p0', 'p1', 'p2', 'p3'] as const;
const EMAILS: Record<string, string | null> = { p0: 'ann@shop.example', p1: 'bob@mail.example', p2: null, p3: 'cat@shop.example' };

interface GenEvent { event: (typeof EVENTS)[number]; browser: (typeof BROWSERS)[number] }
interface GenSession { id: string; who: (typeof PEOPLE)[number]; seconds: number; events: GenEvent[] }

const eventArb = fc.record({ event: fc.constantFrom(...EVENTS), browser: fc.constantFrom(...BROWSERS) });
const sessionsArb = fc.array(fc.record({ who: fc.constantFrom(...PEOPLE), seconds: fc.integer({ min: 5, max: 120 }), events: fc.array(eventArb, { maxLength: 3 }) }), { minLength: 14, maxLength: 14 });
const SESSIONS: GenSession[] = fc.sample(sessionsArb, { numRuns: 1, seed: 33 })[0]!.map((s, i) => ({ ...s, id: `gen-${i}` }));

type EventFilter = { type: 'event'; key: '$browser'; operator: 'exact' | 'is_not' | 'is_set' | 'is_not_set'; value?: readonly string[] };
type PersonFilter = { type: 'person'; key: 'email'; operator: 'icontains' | 'not_icontains'; value: string };
type Filter = EventFilter | PersonFilter;
interface Entity { id: (typeof EVENTS)[number]; browser: string | null }
interface GenQuery { entities: Entity[]; properties: Filter[]; operand: 'AND' | 'OR'; longerThan: number | null }

const filterArb: fc.Arbitrary<Filter> = fc.oneof(
  fc.record({ type: fc.constant('event' as const), key: fc.constant('$browser' as const), operator: fc.constantFrom('exact' as const, 'is_not' as const), value: fc.constantFrom(['Chrome'], ['Firefox']) }),
  fc.record({ type: fc.constant('event' as const), key: fc.constant('$browser' as const), operator: fc.constantFrom('is_set' as const, 'is_not_set' as const) }),
  fc.record({ type: fc.constant('person' as const), key: fc.constant('email' as const), operator: fc.constantFrom('icontains' as const, 'not_icontains' as const), value: fc.constantFrom('shop', 'bob') }),
);
const queryArb: fc.Arbitrary<GenQuery> = fc.record({
  entities: fc.array(fc.record({ id: fc.constantFrom(...EVENTS), browser: fc.constantFrom('Chrome', null) }), { maxLength: 2 }),
  properties: fc.array(filterArb, { maxLength: 2 }),
  operand: fc.constantFrom('AND' as const, 'OR' as const),
  longerThan: fc.option(fc.integer({ min: 5, max: 120 }), { nil: null }),
});

/** PostHog's operators over one text value (missing is null): null fails positive ones. */
function holds(operator: string, actual: string | null, value: unknown): boolean {
  switch (operator) {
    case 'exact': return actual !== null && (value as string[]).includes(actual);
    case 'is_not': return actual === null || !(value as string[]).includes(actual);
    case 'is_set': return actual !== null;
    case 'is_not_set': return actual === null;
    case 'icontains': return actual !== null && actual.toLowerCase().includes(String(value).toLowerCase());
    case 'not_icontains': return actual === null || !actual.toLowerCase().includes(String(value).toLowerCase());
    default: throw new Error(operator);
  }
}
const NEGATIVE: Record<string, string> = { is_not: 'exact', is_not_set: 'is_set', not_icontains: 'icontains' };

function reference(query: GenQuery): string[] {
  const personExists = (who: string) => SESSIONS.some((s) => s.who === who && s.events.length > 0);
  const eventFilters = query.properties.filter((p): p is EventFilter => p.type === 'event');
  const personFilters = query.properties.filter((p): p is PersonFilter => p.type === 'person');
  const entityMatches = (entity: Entity, e: GenEvent) => e.event === entity.id && (entity.browser === null || e.browser === entity.browser);
  const combine = (checks: boolean[]) => (query.operand === 'AND' ? checks.every(Boolean) : checks.some(Boolean));
  return SESSIONS.filter((s) => {
    const optional: boolean[] = [];
    if (query.entities.length > 0 || eventFilters.length > 0) {
      const rows = s.events.filter((e) => (query.entities.length === 0 || query.entities.some((entity) => entityMatches(entity, e)))
        && eventFilters.filter((p) => !NEGATIVE[p.operator]).every((p) => holds(p.operator, e.browser, p.value)));
      const checks = [
        ...(query.entities.length === 0 ? [] : query.operand === 'AND'
          ? query.entities.map((entity) => rows.some((e) => entityMatches(entity, e)))
          : [rows.some((e) => query.entities.some((entity) => entityMatches(entity, e)))]),
        ...eventFilters.filter((p) => NEGATIVE[p.operator]).map((p) => !rows.some((e) => holds(NEGATIVE[p.operator]!, e.browser, p.value))),
      ];
      optional.push(rows.length > 0 && (checks.length === 0 || combine(checks)));
    }
    if (personFilters.length > 0) {
      optional.push(personExists(s.who) && combine(personFilters.map((p) => holds(p.operator, EMAILS[s.who] ?? null, p.value))));
    }
    if (optional.length > 0 && !combine(optional)) return false;
    return query.longerThan === null || s.seconds > query.longerThan;
  }).map((s) => s.id).sort();
}

describe('the recordings list equals a TypeScript reference filter over generated sessions', () => {
  let t: TestApp;
  let who: Credentials;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    who = await t.bootstrap('property@example.com');
    await turnOnRecording(t, who);
    const start = Date.now() - 6 * 3_600_000;
    for (const [i, s] of SESSIONS.entries()) {
      const at = Math.floor(start / 1000) * 1000 + i * 600_000;
      await recordSession(t, who, s.id, s.who, rrwebPage(at, s.seconds));
      const email = EMAILS[s.who];
      await sessionEvents(t, who, s.id, s.who, s.events.map((e, j) => ({
        event: e.event,
        at: at + (j + 1) * 1000,
        properties: { ...(e.browser ? { $browser: e.browser } : {}), ...(email ? { $set: { email } } : {}) },
      })));
    }
  });
  afterAll(() => t.close());

  it('for every generated filter', async () => {
    const sizes = new Set<number>();
    await fc.assert(fc.asyncProperty(queryArb, async (query) => {
      const params: Record<string, unknown> = { operand: query.operand, limit: '100' };
      if (query.entities.length > 0) {
        params.events = query.entities.map((e) => ({ id: e.id, type: 'events', ...(e.browser ? { properties: [{ key: '$browser', value: [e.browser], operator: 'exact', type: 'event' }] } : {}) }));
      }
      if (query.properties.length > 0) params.properties = query.properties;
      if (query.longerThan !== null) params.having_predicates = [{ type: 'recording', key: 'duration', value: query.longerThan, operator: 'gt' }];
      const listed = (await listedIds(t, who, params)).sort();
      expect(listed, JSON.stringify(params)).toEqual(reference(query));
      sizes.add(listed.length);
    }), { numRuns: 60, seed: 75 });
    // The filters cut the list in many ways, not only none or all of it.
    expect(sizes.size).toBeGreaterThan(5);
  });
});
