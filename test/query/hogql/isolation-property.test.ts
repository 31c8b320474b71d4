// Tenant isolation, proven by attack: fast-check writes hostile HogQL from a small grammar that
// plays alias, CTE, subquery, join, union and lambda games against the team guard (aliases named
// after tables and internal joins, tuples and JSON holding a team_id, `*` in every position) and
// runs it in one project beside two other organizations whose every row carries a marker. No
// answer may hold the marker, and none may be a 5xx. The same expressions then enter every place
// HogQL reaches inside an insight. A failure prints fast-check's seed and the shrunk query;
// HOGLET_PROPERTY_SEED replays a seed, HOGLET_PROPERTY_RUNS runs more cases.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys } from '../../helpers/journeys.js';
import { hostileExpression, hostileStatement, type Grammar } from './isolation-grammar.js';

const MARK = 'zzforeign';
const RUNS = Number(process.env['HOGLET_PROPERTY_RUNS'] ?? 1200);
const SEED = process.env['HOGLET_PROPERTY_SEED'] ? Number(process.env['HOGLET_PROPERTY_SEED']) : undefined;
const options = (numRuns: number) => ({ numRuns, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: false });

let t: TestApp;
let mine: Credentials;
let grammar: Grammar;

/** Everything a foreign row can say: event, distinct id, properties, person properties, group key. */
function foreignStory(n: number) {
  const props = (i: number) => ({ mark: MARK, [`${MARK}_key`]: i, $session_id: `${MARK}-s${n}`, $current_url: `https://${MARK}/`, $groups: { company: `${MARK}-co` } });
  return {
    [`${MARK}-${n}a`]: [ev(MARK, '2024-01-01T10:00:00Z', { ...props(1), $set: { mark: MARK, email: `${MARK}@x` } }), ev('$pageview', '2024-01-02T10:00:00Z', props(2))],
    [`${MARK}-${n}b`]: [ev('mine', '2024-01-01T11:00:00Z', { ...props(3), $set: { mark: MARK } })],
  };
}

beforeAll(async () => {
  t = await createTestApp('sqlite');
  const theirs = await t.bootstrap('isolation-theirs@example.com');
  mine = await t.bootstrap('isolation-mine@example.com');
  const others = await t.bootstrap('isolation-others@example.com');
  await journeys(t, theirs, foreignStory(1));
  await journeys(t, others, foreignStory(2));
  await journeys(t, mine, {
    me: [ev('mine', '2024-01-01T09:00:00Z', { mark: 'own', $session_id: 's1', $set: { mark: 'own' } }), ev('$pageview', '2024-01-02T09:00:00Z', { mark: 'own', $groups: { company: 'acme' } })],
    you: [ev('mine', '2024-01-02T12:00:00Z', { mark: 'own', $set: { mark: 'own' } })],
  });
  // Cohorts everywhere, so cohort_people has foreign members to leak (and the caller's own to read).
  for (const [who, mark] of [[theirs, MARK], [others, MARK], [mine, 'own']] as const) {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload: { name: `marked ${mark}`, groups: [{ properties: [{ key: 'mark', value: mark, type: 'person' }] }] } });
    expect(res.statusCode, res.body).toBe(201);
  }
  // The team ids the generator plays with: every project on this server, and some beyond.
  grammar = { teamIds: [theirs.projectId, mine.projectId, others.projectId, 0, 99] };
});
afterAll(() => t.close());

async function ask(url: string, payload: object) {
  const res = await t.request(mine.key, { method: 'POST', url, payload });
  return { status: res.statusCode, body: res.body };
}

/** The property every answer keeps; returns whether the request ran (200) for the coverage count. */
function holds(what: string, answer: { status: number; body: string }): boolean {
  if (answer.status >= 500) throw new Error(`${what} → ${answer.status}: ${answer.body.slice(0, 500)}`);
  if (answer.body.includes(MARK)) throw new Error(`${what} read another organization's rows: ${answer.body.slice(0, 500)}`);
  return answer.status === 200;
}

const queryUrl = () => `/api/projects/${mine.projectId}/query/`;
const RANGE = { date_from: '2024-01-01', date_to: '2024-01-03' };

describe('HogQL statements from a hostile grammar', () => {
  it('never read another organization’s rows, and never answer 5xx', { timeout: 600_000 }, async () => {
    let ran = 0;
    await fc.assert(fc.asyncProperty(hostileStatement(grammar), async (query) => {
      if (holds(query, await ask(queryUrl(), { query: { kind: 'HogQLQuery', query } }))) ran += 1;
    }), options(RUNS));
    // The grammar must keep producing queries that run, or the property proves nothing.
    expect(ran / RUNS).toBeGreaterThan(0.06);
  });

  it('the issue’s own spellings are refused or read only the caller’s rows', async () => {
    for (const query of [
      `select tuple(*), JSONExtract('{"team_id":${mine.projectId}}', 'Tuple(team_id UInt64)') as events from events`,
      `select e.event, JSONExtract('{"team_id":${mine.projectId}}', 'Tuple(team_id UInt64)') as e from events e`,
      `select groupArray(event), tuple(${mine.projectId}) as events from events`,
      'select events.* from events',
      'select *, person.properties.mark, person.properties.email from cohort_people',
      `select count() from cohort_people where cohort_id in (select cohort_id from cohort_people) or team_id = ${mine.projectId}`,
    ]) {
      holds(query, await ask(queryUrl(), { query: { kind: 'HogQLQuery', query } }));
    }
  });
});

describe('HogQL expressions inside insights, from the same grammar', () => {
  const places: [string, (expr: string) => { url?: string; payload: object }][] = [
    ['trends breakdown', (expr) => ({ payload: { query: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: null }], dateRange: RANGE, breakdownFilter: { breakdown_type: 'hogql', breakdown: expr } } } })],
    ['trends math', (expr) => ({ payload: { query: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: null, math: 'hogql', math_hogql: `length(toString(groupArray(${expr})))` }], dateRange: RANGE } } })],
    ['a hogql property filter', (expr) => ({ payload: { query: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: null }], dateRange: RANGE, properties: [{ type: 'hogql', key: `toString(${expr}) != ''` }], breakdownFilter: { breakdown: 'event', breakdown_type: 'event' } } } })],
    ['funnel breakdown', (expr) => ({ payload: { query: { kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: 'mine' }, { kind: 'EventsNode', event: '$pageview' }], dateRange: RANGE, breakdownFilter: { breakdown_type: 'hogql', breakdown: expr } } } })],
    ['paths', (expr) => ({ payload: { query: { kind: 'PathsQuery', dateRange: RANGE, pathsFilter: { includeEventTypes: ['hogql'], pathsHogQLExpression: `toString(${expr})` } } } })],
    ['events table columns', (expr) => ({ payload: { query: { kind: 'EventsQuery', select: ['event', expr], after: '2024-01-01', before: '2024-01-03' } } })],
    ['events table where', (expr) => ({ payload: { query: { kind: 'EventsQuery', select: ['*'], where: [`toString(${expr}) != ''`], after: '2024-01-01', before: '2024-01-03' } } })],
    ['legacy trend breakdown', (expr) => ({
      url: `/api/projects/${mine.projectId}/insights/trend/`,
      payload: { events: [{ id: '$pageview' }], date_from: RANGE.date_from, date_to: RANGE.date_to, breakdown_type: 'hogql', breakdown: expr },
    })],
  ];

  it.each(places)('%s never reads another organization’s rows', { timeout: 300_000 }, async (_place, build) => {
    const runs = Math.max(50, Math.round(RUNS / 8));
    let ran = 0;
    await fc.assert(fc.asyncProperty(fc.constantFrom('e', 'events').chain((alias) => hostileExpression(grammar, alias)), async (expr) => {
      const { url, payload } = build(expr);
      if (holds(expr, await ask(url ?? queryUrl(), payload))) ran += 1;
    }), options(runs));
    expect(ran / runs).toBeGreaterThan(0.12);
  });
});
