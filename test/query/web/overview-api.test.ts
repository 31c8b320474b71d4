// WebOverviewQuery beyond PostHog's own cases: where each filter applies (reference
// web-analytics.md §5.3-5.4), the comparison periods with a frozen clock (the "-7d" kludge), bad
// input as PostHog's extra="forbid" refuses it, isolation between projects (the sessions join
// too), and the kind everywhere a query goes: saved insights, dashboards, every refresh mode.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryContext } from '../../../src/query/context.js';
import { QueryExecutor } from '../../../src/query/execute.js';
import { EMPTY_GROUP } from '../../../src/query/nodes/read-properties.js';
import { kindOf, readInsightQuery } from '../../../src/query/runners/registry.js';
import { roundHalfEven, toItem } from '../../../src/query/runners/web-overview/results.js';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery } from '../../helpers/journeys.js';
import { expectEveryRefreshMode, insightApi } from './helpers.js';

const overview = (from: string, to: string, extra: Record<string, unknown> = {}) =>
  ({ kind: 'WebOverviewQuery', dateRange: { date_from: from, date_to: to }, properties: [], ...extra });

/** The items as {key: [value, previous]}. */
const numbers = (results: { key: string; value: number | null; previous: number | null }[]) =>
  Object.fromEntries(results.map((i) => [i.key, [i.value, i.previous]]));

const page = (at: string, session: string, path: string, extra: Record<string, unknown> = {}) =>
  ev('$pageview', at, { $session_id: session, $current_url: `https://example.com${path}`, $pathname: path, ...extra });

describe('WebOverviewQuery', () => {
  let t: TestApp;
  let who: Credentials;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    who = await t.bootstrap('web-overview@example.com');
    await journeys(t, who, {
      // s1: /a then /b, then leaves 30 s later: 2 views, 90 s, no bounce.
      alice: [
        page('2024-03-05T10:00:00Z', 's1', '/a', { $set: { plan: 'pro' } }),
        page('2024-03-05T10:01:00Z', 's1', '/b'),
        ev('$pageleave', '2024-03-05T10:01:30Z', { $session_id: 's1', $current_url: 'https://example.com/b' }),
      ],
      // s2: one page view and a $pageleave 30 s later: whole-session duration 30 s, so not a bounce.
      bob: [page('2024-03-06T09:00:00Z', 's2', '/b'), ev('$pageleave', '2024-03-06T09:00:30Z', { $session_id: 's2' })],
      // s3: a single page view: a bounce. No session id: never counted.
      carol: [page('2024-03-07T12:00:00Z', 's3', '/a'), ev('$pageview', '2024-03-07T12:05:00Z', { $pathname: '/a' })],
      // s4 began the day before the range: not counted, though its second page view is inside it.
      dave: [page('2024-03-03T23:59:00Z', 's4', '/a'), page('2024-03-04T00:01:00Z', 's4', '/b')],
      // s5: starts on the range's last day and goes on after it: its later page view is not counted.
      erin: [page('2024-03-10T23:59:50Z', 's5', '/a'), page('2024-03-11T00:00:20Z', 's5', '/b')],
    });
  });
  afterAll(() => t.close());

  const run = async (query: unknown) => (await runQuery(t, who, query)).results;

  it('counts sessions by their start, views inside the range, whole-session duration and bounce', async () => {
    const res = await runQuery(t, who, overview('2024-03-04', '2024-03-10'));
    expect(numbers(res.results)).toEqual({
      visitors: [4, null], views: [5, null], sessions: [4, null],
      // s1 90 s, s2 30 s, s3 0 s, s5 30 s; bounces: s3 only (s5 lasted 30 s).
      'session duration': [37.5, null], 'bounce rate': [25, null],
    });
    expect(res.results[4]).toMatchObject({ key: 'bounce rate', kind: 'percentage', isIncreaseBad: true, changeFromPreviousPct: null });
    expect(res).toMatchObject({ samplingRate: { numerator: 1 }, dateFrom: '2024-03-04 00:00:00', dateTo: '2024-03-10 23:59:59', usedPreAggregatedTables: false });
  });

  it('applies event filters per event, session filters on the session, person filters on the person', async () => {
    const eventFilter = await run(overview('2024-03-04', '2024-03-10', { properties: [{ key: '$pathname', value: '/b', operator: 'exact', type: 'event' }] }));
    // Sessions with a /b page view: s1 (1 of its 2 views), s2. Duration stays the whole session's.
    expect(numbers(eventFilter)).toMatchObject({ visitors: [2, null], views: [2, null], sessions: [2, null], 'session duration': [60, null], 'bounce rate': [0, null] });
    const sessionFilter = await run(overview('2024-03-04', '2024-03-10', { properties: [{ key: '$entry_pathname', value: '/a', operator: 'exact', type: 'session' }] }));
    expect(numbers(sessionFilter)).toMatchObject({ sessions: [3, null], views: [4, null] }); // s1, s3, s5
    const personFilter = await run(overview('2024-03-04', '2024-03-10', { properties: [{ key: 'plan', value: 'pro', operator: 'exact', type: 'person' }] }));
    expect(numbers(personFilter)).toMatchObject({ visitors: [1, null], views: [2, null], sessions: [1, null] });
  });

  it('applies the project test-account filters when asked', async () => {
    const patch = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload: { test_account_filters: [{ key: '$pathname', value: '/a', operator: 'is_not', type: 'event' }] } });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(numbers(await run(overview('2024-03-04', '2024-03-10', { filterTestAccounts: true })))).toMatchObject({ views: [2, null], sessions: [2, null] });
    expect(numbers(await run(overview('2024-03-04', '2024-03-10')))).toMatchObject({ views: [5, null] });
  });

  it('compares with the previous period and a custom event goal', async () => {
    const compared = await run(overview('2024-03-06', '2024-03-10', { compareFilter: { compare: true } }));
    // Previous period 03-01..03-05: s1 (03-05) and s4 (03-03).
    expect(numbers(compared)).toMatchObject({ visitors: [3, 2], sessions: [3, 2], views: [3, 4] });
    expect(compared[0].changeFromPreviousPct).toBe(50);
    const goal = await run(overview('2024-03-04', '2024-03-10', { conversionGoal: { customEventName: '$pageleave' } }));
    expect(goal.map((i: { key: string }) => i.key)).toEqual(['visitors', 'total conversions', 'unique conversions', 'conversion rate']);
    expect(numbers(goal)).toMatchObject({ visitors: [4, null], 'total conversions': [2, null], 'unique conversions': [2, null], 'conversion rate': [50, null] });
    const comparedGoal = await run(overview('2024-03-06', '2024-03-10', { compareFilter: { compare: true }, conversionGoal: { customEventName: '$pageleave' } }));
    // Current s2 (left), s3, s5; previous s1 (left), s4.
    expect(numbers(comparedGoal)).toMatchObject({ visitors: [3, 2], 'total conversions': [1, 1], 'unique conversions': [1, 1] });
    expect(comparedGoal[3].value).toBeCloseTo(100 / 3, 9);
    expect(comparedGoal[3]).toMatchObject({ previous: 50, changeFromPreviousPct: -33 });
  });

  it('reads "-7d" with PostHog\'s kludge: the previous period shares the current one\'s first day', async () => {
    const context: QueryContext = {
      project: { id: who.projectId, timezone: 'UTC', weekStartDay: 0 },
      now: DateTime.fromISO('2024-03-12T12:00:00Z', { zone: 'UTC' }),
      actions: new Map(), testAccountFilters: EMPTY_GROUP, pathCleaningRules: [],
    };
    const frozen = async (from: string) => {
      const query = readInsightQuery(overview(from, '', { compareFilter: { compare: true } }) as never);
      return kindOf(query).run(query, context, new QueryExecutor(t.services.events).start(who.projectId));
    };
    // Current 03-05..03-12 (s1, s2, s3, s5); previous 02-27..03-05, one day later than plain
    // arithmetic: s4 (03-03) and s1 again, which started on the shared 03-05.
    const week = await frozen('-7d');
    expect(week).toMatchObject({ dateFrom: '2024-03-05 00:00:00', dateTo: '2024-03-12 23:59:59' });
    expect(numbers(week.results as never)).toMatchObject({ sessions: [4, 2], views: [6, 4], visitors: [4, 2] });
    // "-6d" has no kludge: current 03-06..03-12 (s2, s3, s5), previous 02-27..03-05 (s4, s1), no shared day.
    expect(numbers((await frozen('-6d')).results as never)).toMatchObject({ sessions: [3, 2], views: [4, 4] });
  });

  it("bounds the periods by the project's time zone", async () => {
    const ny = await t.bootstrap('web-overview-ny@example.com');
    const patch = await t.request(ny.key, { method: 'PATCH', url: `/api/projects/${ny.projectId}/`, payload: { timezone: 'America/New_York' } });
    expect(patch.statusCode, patch.body).toBe(200);
    // 03:00 UTC on 03-05 is 22:00 on 03-04 in New York; 05:00 UTC is midnight there.
    await journeys(t, ny, { a: [page('2024-03-05T03:00:00Z', 'n1', '/')], b: [page('2024-03-05T05:00:00Z', 'n2', '/')] });
    const res = await runQuery(t, ny, overview('2024-03-05', '2024-03-05'));
    expect(numbers(res.results)).toMatchObject({ sessions: [1, null], visitors: [1, null] });
    expect(res).toMatchObject({ dateFrom: '2024-03-05 00:00:00', dateTo: '2024-03-05 23:59:59', timezone: 'America/New_York' });
  });

  it('refuses what PostHog refuses: unknown keys, bad shapes, unsupported filters', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ kind: 'WebOverviewQuery' }, 'query.properties', 'required'],
      [{ kind: 'WebOverviewQuery', properties: {} }, 'query.properties', 'not_a_list'],
      [{ kind: 'WebOverviewQuery', properties: [], bogus: 1 }, 'query.bogus', 'extra_forbidden'],
      [{ kind: 'WebOverviewQuery', properties: [], dateRange: { date_from: '-7d', until: 'now' } }, 'query.dateRange.until', 'extra_forbidden'],
      [{ kind: 'WebOverviewQuery', properties: [], dateRange: { date_from: 'banana' } }, 'query.dateRange.date_from', 'invalid_input'],
      [{ kind: 'WebOverviewQuery', properties: [], compareFilter: { compare: true, extra: 1 } }, 'query.compareFilter.extra', 'extra_forbidden'],
      [{ kind: 'WebOverviewQuery', properties: [], conversionGoal: { actionId: 'x' } }, 'query.conversionGoal.actionId', 'invalid_input'],
      [{ kind: 'WebOverviewQuery', properties: [], conversionGoal: { eventName: 'x' } }, 'query.conversionGoal', 'required'],
      [{ kind: 'WebOverviewQuery', properties: [], orderBy: ['Nonsense', 'ASC'] }, 'query.orderBy[0]', 'invalid_choice'],
      [{ kind: 'WebOverviewQuery', properties: [{ key: 'name', value: 'x', type: 'group', group_type_index: 0 }] }, 'query.properties[0].type', 'invalid_choice'],
      [{ kind: 'WebOverviewQuery', properties: [], modifiers: { bounceRatePageViewMode: 'uniq_urls' } }, 'query.modifiers.bounceRatePageViewMode', 'invalid_choice'],
      [{ kind: 'WebOverviewQuery', properties: [], sampling: { enabled: true, rate: 2 } }, 'query.sampling.rate', 'extra_forbidden'],
    ];
    for (const [query, attr, code] of cases) {
      const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query } });
      expect(res.statusCode, attr).toBe(400);
      expect(res.json(), attr).toMatchObject({ type: 'validation_error', attr, code });
    }
    // Accepted and without effect: sampling, useSessionsTable, PostHog's engine modifiers, tags.
    const accepted = await run(overview('2024-03-04', '2024-03-10', { sampling: { enabled: true, forceSamplingRate: { numerator: 1, denominator: 10 } }, useSessionsTable: true, modifiers: { sessionTableVersion: 'v2' }, tags: {} }));
    expect(numbers(accepted)).toMatchObject({ sessions: [4, null] });
  });

  it("sees only its own project's events and sessions", async () => {
    const other = await t.bootstrap('web-overview-other@example.com');
    // The same session id in another project: its events must not lengthen this project's s3.
    await journeys(t, other, { mallory: [page('2024-03-07T12:00:00Z', 's3', '/x'), page('2024-03-07T13:00:00Z', 's3', '/y')] });
    const mine = numbers(await run(overview('2024-03-07', '2024-03-07')));
    expect(mine).toMatchObject({ sessions: [1, null], views: [1, null], 'session duration': [0, null], 'bounce rate': [100, null] });
    const theirs = numbers((await runQuery(t, other, overview('2024-03-07', '2024-03-07'))).results);
    expect(theirs).toMatchObject({ visitors: [1, null], sessions: [1, null], views: [2, null], 'session duration': [3600, null] });
    const foreign = await t.request(other.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: overview('2024-03-07', '2024-03-07') } });
    expect(foreign.statusCode).toBe(404);
  });

  describe('as a saved insight, on a dashboard, in every refresh mode', () => {
    it('saves and refreshes bare and wrapped, with dashboard filters laid over it', async () => {
      const { createInsight, getInsight, refreshFromDashboard } = insightApi(t, who);
      const bare = await createInsight({ name: 'Overview', query: overview('2024-03-04', '2024-03-10') });
      const refreshed = await getInsight(bare.id, '?refresh=blocking');
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      expect(numbers(refreshed.json().result)).toMatchObject({ sessions: [4, null], views: [5, null] });
      const wrapped = await createInsight({ name: 'Overview table', query: { kind: 'DataTableNode', source: overview('2024-03-04', '2024-03-10') } });
      expect(numbers((await getInsight(wrapped.id, '?refresh=blocking')).json().result)).toMatchObject({ sessions: [4, null] });

      const viaDashboard = await refreshFromDashboard(bare.id, { date_from: '2024-03-07', date_to: '2024-03-10', properties: [{ key: '$pathname', value: '/a', operator: 'exact', type: 'event' }] });
      // 03-07..03-10 with /a page views only: s3 and s5, one view each.
      expect(numbers(viaDashboard.json().result)).toMatchObject({ sessions: [2, null], views: [2, null] });
    });

    it('answers every refresh mode through /query/', async () => {
      const query = overview('2024-03-05', '2024-03-06');
      await expectEveryRefreshMode(t, who, query, (results) => expect(numbers(results)).toMatchObject({ sessions: [2, null] }));
    });
  });
});

describe("the overview's items", () => {
  it("rounds the change as Python's round does (half to even) and leaves null where PostHog does", () => {
    expect([12.5, 13.5, -12.5, -13.5, 0.5, 2.4999, -0.4].map(roundHalfEven)).toEqual([12, 14, -12, -14, 0, 2, 0]);
    // 9 vs 8: +12.5% -> 12; 27 vs 24 -> 12.5 -> 12; 0 vs 0: no change; previous 0: null.
    expect(toItem('visitors', 'unit', 9, 8).changeFromPreviousPct).toBe(12);
    expect(toItem('views', 'unit', 0, 4).changeFromPreviousPct).toBe(-100);
    expect(toItem('views', 'unit', 5, 0).changeFromPreviousPct).toBeNull();
    expect(toItem('bounce rate', 'percentage', 0.5, 0.25, true)).toEqual({ key: 'bounce rate', kind: 'percentage', isIncreaseBad: true, value: 50, previous: 25, changeFromPreviousPct: 100 });
    expect(toItem('session duration', 'duration_s', null, 10)).toMatchObject({ value: null, changeFromPreviousPct: null });
  });
});
