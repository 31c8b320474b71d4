// PostHog's StickinessQuery test cases, ported as data (events, query, expected numbers) from
//   PostHog/posthog @ 14f7fdcf82370f2e948c1288e31f733746cdb913
//   posthog/hogql_queries/insights/stickiness/test/test_stickiness_query_runner.py (TestStickinessQueryRunner)
// plus the older stickiness tests PostHog still runs through its API:
//   posthog/api/test/test_stickiness.py @ b7ddf2454d4bfee44ec225e5a1437d0c73afb89b (stickiness_test_factory)
//   ee/clickhouse/views/test/test_clickhouse_stickiness.py @ 8cbbcfdc0f8bca76cba89026eb84c71565002966
// and one case of ours (source 'derived: …') for what no PostHog test covers.
// See README.md next to this file for what was skipped and why. Only facts are ported: the code here is ours.
//
// Conventions
// - Timestamps are UTC ('Z'), as PostHog's tests write them ('…Z' strings; test_timezones' naive datetimes
//   were stored while its project was still UTC, so they are UTC too).
// - Query dates (dateRange) are kept as PostHog sends them: naive strings are read in the project timezone,
//   relative ones ('-2d', '-30d', 'all') against `now`.
// - now: the instant PostHog's test freezes time at, given only where the query's result depends on it
//   (relative date_from, missing date_to, 'all'). A harness must run such a case with that "now" (or shift
//   `now` and every timestamp by the same whole number of weeks, which keeps weekdays and buckets: the three
//   cases with `now` are UTC, with hour, week and day intervals).
// - persons: distinct id -> person properties (set them with $set on the person's first event).
// - Persons with two distinct ids or a merge are made with ordinary events in `events` (an `$identify` with
//   `$anon_distinct_id`, a `$merge_dangerously` with `alias`); each case's note says so. They are not of the
//   series' event, so they count nowhere except in an "All events" series, where the note says why they
//   change nothing.
// - actions: create them first and replace the placeholder id (9001, 9002, …) in the query's series with the
//   real id. Note that the result `label` of an ActionsNode series is the action's *name*.
// - groupTypes: group type index -> name the case needs. Events carry `$group_N` properties (PostHog's test
//   form); a harness turns them into `$groups` with these names. Group properties, where a case needs them,
//   come from `$groupidentify` events in `events` (distinct id 'group-setup').
// - Legacy-API tests (posthog/api/test/test_stickiness.py, ee/…) send an old-style filter to
//   /api/projects/:id/insights/trend/?shown_as=Stickiness; here their filter is written as the StickinessQuery
//   PostHog's filter_to_query turns it into (series from `events`/`actions`, dateRange, interval, properties,
//   compareFilter, stickinessFilter.display). Property filters are kept exactly as PostHog sends them (some
//   have no `operator`, which means exact).
// - expected: the complete `results` list in order. Every item gives label, count, data, days and labels
//   (and compare_label when compare is on). Without `partial`, all of that is what PostHog's test asserts or
//   follows from what it asserts by structure alone (count = sum of a non-cumulative data, days = 1..data.length,
//   labels from days; test_interval_day's count/days/labels are asserted by test_count, test_days and
//   test_labels on the same query).
// - partial: PostHog asserts only some fields/items (the note says which). The values given are still the
//   complete answer, worked out from the events by the runner's rules and checked by an independent model of
//   them, so a harness may compare everything; a mismatch in a value PostHog does not assert should be
//   re-checked against the rules below before the runner is blamed.
//
// What a result item looks like (stickiness_query_runner.py _calculate), one per series, in series order;
// with compareFilter.compare each series gives its current item then its previous item
// (A current, A previous, B current, B previous):
//   {
//     count: number,          // sum of the non-cumulative data = actors with >= 1 qualifying interval
//     data: number[],         // data[k-1] = actors active in exactly k intervals (cumulative: in >= k)
//     days: number[],         // [1, 2, …, N]: interval counts, integers (not dates)
//     label: string,          // EventsNode: the event name ('All events' when event is null);
//                             // ActionsNode: the action's name. Never custom_name.
//     labels: string[],       // `${k} ${interval}${k === 1 ? '' : 's'}` ('1 day', '2 days', '1 hour', '3 weeks',
//                             // '1 month'); cumulative: the same + ' or more' ('1 day or more', '2 days or more')
//     action: { order: <series index>, type: 'events' /* always, even for actions */,
//               name: label /* 'All events' when event is null */, id: <event name | action name | null>,
//               custom_name: <series custom_name | null> },
//     compare?: true,                          // only when compareFilter.compare
//     compare_label?: 'current' | 'previous',  // only when compareFilter.compare
//   }
// No breakdown_value, filter, persons or persons_urls keys: StickinessQuery has no breakdowns.
// The response is { results, timings, hogql, modifiers } (+ the usual cache fields through /query/).
//
// The rules these numbers follow (stickiness_query_runner.py and query_date_range.py @ the commit above;
// dates as in /work/shared/reference/query-semantics.md §1):
// - Range: date_from/date_to parsed in the project timezone. date_to is moved to 23:59:59 of its day for
//   day/week/month; for hour it goes to the end of its hour only when relative or missing (an absolute
//   date_to is kept exactly: '2020-01-12' = 00:00:00). date_to is compared at whole seconds.
// - N (length of data/days/labels) = ceil(number of interval buckets from the bucket of date_from to the
//   bucket of date_to inclusive / (intervalCount ?? 1)). Buckets: start of hour / day / week (project week
//   start, Sunday by default) / month.
// - Events counted: timestamp >= start of date_from's bucket (week: start of date_from's *day*; hour
//   interval with a relative date_from, or day interval with an hours delta: date_from itself) and
//   timestamp <= date_to; the series' event (any event when null) or action; query properties; series
//   properties; filterTestAccounts; unique_group drops events whose $group_N is ''.
// - Actor: the person (all distinct ids of a person, merges included: events stored before a merge count
//   under the merged person); math unique_group + math_group_type_index N: the event's $group_N; every other
//   math (dau, total, …) still counts persons.
// - An actor's interval qualifies when its number of matching events in it is > 0, or satisfies
//   stickinessCriteria {operator gte|lte|exact (also gt, lt), value}. An actor with no qualifying interval is
//   not counted at all (not even in count).
// - Interval of an event: its calendar bucket without intervalCount; with intervalCount c (even c = 1):
//   floor(age(interval, timestamp, date_to) / c), i.e. groups of c whole intervals counted back from date_to.
// - data[k-1] = actors with exactly k qualifying intervals, zero-filled to N; cumulative:
//   data[k-1] = actors with k or more. count = sum of the non-cumulative data.
// - compare (compareFilter.compare): each series also runs over the previous period (reference §1.4:
//   same length ending before date_from; with compare_to, starting at compare_to relative to date_from)
//   and gets its own N and days; labels use the same interval name.

import type { PortedCase } from '../../helpers/posthog-cases.js';

export interface StickinessCaseEvent {
  distinct_id: string;
  event: string;
  /** ISO, UTC ('Z'). */
  timestamp: string;
  properties?: Record<string, unknown>;
}

export interface StickinessExpectedItem {
  /** Series label: event name, 'All events', or the action's name. */
  label: string;
  /** data[k-1]: actors active in exactly k intervals (cumulative: in k or more). */
  data: number[];
  /** Actors with at least one qualifying interval (the sum of the non-cumulative data). */
  count?: number;
  /** [1..N]. */
  days?: number[];
  /** '1 day', '2 days', … ('… or more' when cumulative). */
  labels?: string[];
  /** 'current' | 'previous' when compareFilter.compare is on. */
  compare_label?: string;
  /** StickinessQuery has no breakdowns; never set here. */
  breakdown_value?: unknown;
}

/** The project set-up, events and query (helpers/posthog-cases.ts), and what PostHog asserts. */
export interface StickinessCase extends PortedCase {
  /** PostHog's test name (with a suffix when one test gives several cases). */
  name: string;
  /** PostHog file path + test class and function, or 'derived: …' for a case of ours. */
  source: string;
  /** What was adapted, what PostHog asserts, and how the numbers come about. */
  note?: string;
  /** Fixed "now" the PostHog test freezes time at, when the query uses relative dates; omitted when all dates are absolute. */
  now?: string;
  /** A StickinessQuery node in PostHog's schema. */
  query: Record<string, unknown>;
  /** The result items in order. */
  expected: StickinessExpectedItem[];
  /** PostHog asserts only some fields/items (see the conventions above). */
  partial?: boolean;
}

export const POSTHOG_STICKINESS_TESTS = {
  repo: 'PostHog/posthog',
  commit: '14f7fdcf82370f2e948c1288e31f733746cdb913',
  path: 'posthog/hogql_queries/insights/stickiness/test/test_stickiness_query_runner.py',
} as const;

/** The older tests PostHog runs through its legacy insight endpoint (the `source` of those cases). */
export const POSTHOG_LEGACY_STICKINESS_TESTS = [
  { repo: 'PostHog/posthog', commit: 'b7ddf2454d4bfee44ec225e5a1437d0c73afb89b', path: 'posthog/api/test/test_stickiness.py' },
  { repo: 'PostHog/posthog', commit: '8cbbcfdc0f8bca76cba89026eb84c71565002966', path: 'ee/clickhouse/views/test/test_clickhouse_stickiness.py' },
] as const;

// ---------------------------------------------------------------------------------------------------------------
// Small helpers (ours). They only spell out data; nothing here computes an expected number.

const RUNNER = 'posthog/hogql_queries/insights/stickiness/test/test_stickiness_query_runner.py::TestStickinessQueryRunner.';
const LEGACY = 'posthog/api/test/test_stickiness.py::stickiness_test_factory.TestStickiness.';
const EE = 'ee/clickhouse/views/test/test_clickhouse_stickiness.py::TestClickhouseStickiness.';

/** [1, 2, …, n]. */
const seq = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);
/** PostHog's labels for n intervals of `unit` ('day', 'hour', 'week', 'month'). */
const labelsFor = (n: number, unit: string, cumulative = false): string[] =>
  seq(n).map((k) => `${k} ${unit}${k === 1 ? '' : 's'}${cumulative ? ' or more' : ''}`);
/** n zeros with the given 1-based positions set: hist(10, [5, 1], [9, 1]) -> data with data[4] = 1, data[8] = 1. */
const hist = (n: number, ...set: [k: number, actors: number][]): number[] => {
  const out = new Array<number>(n).fill(0);
  for (const [k, actors] of set) out[k - 1] = actors;
  return out;
};
/** One event per timestamp. */
const each = (distinct_id: string, event: string, timestamps: string[], properties?: Record<string, unknown>): StickinessCaseEvent[] =>
  timestamps.map((timestamp) => (properties ? { distinct_id, event, timestamp, properties } : { distinct_id, event, timestamp }));
/** 2020-01-DD at 12:00 UTC, the time every event of TestStickinessQueryRunner has. */
const jan = (day: number): string => `2020-01-${String(day).padStart(2, '0')}T12:00:00Z`;

// --- TestStickinessQueryRunner data ------------------------------------------------------------------------------
// _create_events: every event of a person carries that person's `properties`; persons get {name: <distinct id>}
// and p1 also {email: 'test@posthog.com'}.

const P1_PROPS = { $browser: 'Chrome', prop: 10, bool_field: true, $group_0: 'org:1' };
const P2_PROPS = { $browser: 'Firefox', prop: 10, bool_field: false, $group_0: 'org:1' };
const RUNNER_PERSONS = { p1: { name: 'p1', email: 'test@posthog.com' }, p2: { name: 'p2' } };
const RUNNER_PERSONS_3 = { p1: { name: 'p1', email: 'test@posthog.com' }, p2: { name: 'p2' }, p3: { name: 'p3' } };

const P1_DAYS = [11, 12, 13, 14, 15, 16, 17, 18, 19].map(jan);
const P2_DAYS = [11, 13, 15, 17, 19].map(jan);

/** _create_test_events: p1 every day 11..19 Jan, p2 every other day 11..19, both $pageview and $pageleave. */
const TEST_EVENTS: StickinessCaseEvent[] = [
  ...each('p1', '$pageview', P1_DAYS, P1_PROPS),
  ...each('p1', '$pageleave', P1_DAYS, P1_PROPS),
  ...each('p2', '$pageview', P2_DAYS, P2_PROPS),
  ...each('p2', '$pageleave', P2_DAYS, P2_PROPS),
];

/** test_cumulative_stickiness and friends: p1 on 11, 12, 13 Jan; p2 on 11, 12; p3 on 11 (no properties). */
const THREE_PEOPLE: StickinessCaseEvent[] = [
  ...each('p1', '$pageview', [jan(11), jan(12), jan(13)]),
  ...each('p2', '$pageview', [jan(11), jan(12)]),
  ...each('p3', '$pageview', [jan(11)]),
];

const DEFAULT_RANGE = { date_from: '2020-01-11', date_to: '2020-01-20' };
const PAGEVIEW = { kind: 'EventsNode', event: '$pageview' };

// --- stickiness_test_factory data ---------------------------------------------------------------------------------
// _create_multiple_people(period): base 2020-01-01T12:00:00Z, every event 'watched movie'.
//   person1: base                       -> 1 interval
//   person2: base, base+1p, base+1p     -> 2 intervals (two events in the second)
//   person3: base (person3a), base+1p (person3b), base+2p (person3a) -> 3 intervals; ONE person, two distinct ids
//   person4: base+4p, $browser Safari   -> 1 interval
// All other events have $browser Chrome. PostHog creates person3 with both distinct ids; here an `$identify`
// (distinct id person3a, $anon_distinct_id person3b) at 11:00 on 2020-01-01, before any of its events, joins them.

const LEGACY_PERSONS = {
  person1: { name: 'person1' },
  person2: { name: 'person2' },
  person3a: { name: 'person3' },
  person4: { name: 'person4' },
};

const PERSON3_IDENTIFY: StickinessCaseEvent = {
  distinct_id: 'person3a',
  event: '$identify',
  timestamp: '2020-01-01T11:00:00Z',
  properties: { $anon_distinct_id: 'person3b' },
};

/** t[k] = base + k periods, for k = 0, 1, 2, 4. */
function multiplePeople(t: Record<0 | 1 | 2 | 4, string>, eventProperties: (i: number) => Record<string, unknown> = () => ({})): StickinessCaseEvent[] {
  const props = (i: number, browser = 'Chrome') => ({ $browser: browser, ...eventProperties(i) });
  return [
    PERSON3_IDENTIFY,
    { distinct_id: 'person1', event: 'watched movie', timestamp: t[0], properties: props(1) },
    { distinct_id: 'person2', event: 'watched movie', timestamp: t[0], properties: props(2) },
    { distinct_id: 'person2', event: 'watched movie', timestamp: t[1], properties: props(2) },
    { distinct_id: 'person2', event: 'watched movie', timestamp: t[1], properties: props(2) },
    { distinct_id: 'person3a', event: 'watched movie', timestamp: t[0], properties: props(3) },
    { distinct_id: 'person3b', event: 'watched movie', timestamp: t[1], properties: props(3) },
    { distinct_id: 'person3a', event: 'watched movie', timestamp: t[2], properties: props(3) },
    { distinct_id: 'person4', event: 'watched movie', timestamp: t[4], properties: props(4, 'Safari') },
  ];
}

const BY_DAY = { 0: '2020-01-01T12:00:00Z', 1: '2020-01-02T12:00:00Z', 2: '2020-01-03T12:00:00Z', 4: '2020-01-05T12:00:00Z' };
const BY_HOUR = { 0: '2020-01-01T12:00:00Z', 1: '2020-01-01T13:00:00Z', 2: '2020-01-01T14:00:00Z', 4: '2020-01-01T16:00:00Z' };
const BY_WEEK = { 0: '2020-01-01T12:00:00Z', 1: '2020-01-08T12:00:00Z', 2: '2020-01-15T12:00:00Z', 4: '2020-01-29T12:00:00Z' };
const BY_MONTH = { 0: '2020-01-01T12:00:00Z', 1: '2020-02-01T12:00:00Z', 2: '2020-03-01T12:00:00Z', 4: '2020-05-01T12:00:00Z' };

const WATCHED_MOVIE = { kind: 'EventsNode', event: 'watched movie' };
const LEGACY_WEEK_1 = { date_from: '2020-01-01', date_to: '2020-01-08' };

/** $groupidentify events that give groups their properties (PostHog's test calls create_group directly). */
const groupIdentify = (type: string, key: string, set: Record<string, unknown>): StickinessCaseEvent => ({
  distinct_id: 'group-setup',
  event: '$groupidentify',
  timestamp: '2019-12-31T00:00:00Z',
  properties: { $group_type: type, $group_key: key, $group_set: set },
});

// ---------------------------------------------------------------------------------------------------------------

export const posthogStickinessCases: StickinessCase[] = [
  // ============================ TestStickinessQueryRunner (HogQL runner) ============================
  {
    name: 'test_interval_day',
    source: `${RUNNER}test_interval_day`,
    note: 'Daily stickiness over 10 days (2020-01-11..2020-01-20 inclusive: N = 10). p1 is active 9 days, p2 5 days. '
      + 'test_days, test_count and test_labels run this same query and assert days [1..10], count 2 and the '
      + 'labels; they are folded in here.',
    persons: RUNNER_PERSONS,
    events: TEST_EVENTS,
    query: { kind: 'StickinessQuery', series: [PAGEVIEW], dateRange: DEFAULT_RANGE, interval: 'day', filterTestAccounts: false },
    expected: [
      { label: '$pageview', count: 2, data: [0, 0, 0, 0, 1, 0, 0, 0, 1, 0], days: seq(10), labels: labelsFor(10, 'day') },
    ],
  },
  {
    name: 'test_interval_hour',
    source: `${RUNNER}test_interval_hour`,
    note: 'Hour interval with absolute dates: date_to "2020-01-12" stays 2020-01-12 00:00:00 (not the end of that '
      + 'day), so N = 25 hours (00:00 on the 11th .. 00:00 on the 12th) and the 12:00 events of the 12th are out. '
      + 'p1 and p2 each have one active hour (12:00 on the 11th). PostHog asserts label, labels, days and data; '
      + 'count follows from data.',
    persons: RUNNER_PERSONS,
    events: TEST_EVENTS,
    query: { kind: 'StickinessQuery', series: [PAGEVIEW], dateRange: { date_from: '2020-01-11', date_to: '2020-01-12' }, interval: 'hour', filterTestAccounts: false },
    expected: [{ label: '$pageview', count: 2, data: hist(25, [1, 2]), days: seq(25), labels: labelsFor(25, 'hour') }],
  },
  {
    name: 'test_interval_hour_last_days',
    source: `${RUNNER}test_interval_hour_last_days`,
    note: 'now 2020-01-20 12:00 UTC, date_from "-2d" (truncated to 2020-01-18 00:00), no date_to (now, moved to '
      + 'the end of its hour, 12:59:59): N = 48 + 12 + 1 = 61 hours. In range: p1 at 12:00 on the 18th and 19th '
      + '(2 hours), p2 at 12:00 on the 19th (1 hour). PostHog asserts label, labels, days and data.',
    persons: RUNNER_PERSONS,
    events: TEST_EVENTS,
    now: '2020-01-20T12:00:00Z',
    query: { kind: 'StickinessQuery', series: [PAGEVIEW], dateRange: { date_from: '-2d', date_to: null }, interval: 'hour', filterTestAccounts: false },
    expected: [{ label: '$pageview', count: 2, data: hist(61, [1, 1], [2, 1]), days: seq(61), labels: labelsFor(61, 'hour') }],
  },
  {
    name: 'test_interval_2_day_filtering',
    source: `${RUNNER}test_interval_2_day_filtering`,
    note: 'intervalCount 2 over 2020-01-11..2020-01-20: N = ceil(10 / 2) = 5 groups, counted back from date_to '
      + '(2020-01-20 23:59:59): an event is in group floor(age(day, timestamp, date_to) / 2), so the groups are '
      + '{19th, 20th}, {17, 18}, {15, 16}, {13, 14}, {11, 12}. p1 (every day 11..19) is in all 5; p2 (11, 13, 15) '
      + 'in 3. The labels still say "day". PostHog asserts label, labels, days and data (its actors half is not '
      + 'ported). test_interval_2_day (same query on the usual data, data [0, 0, 0, 0, 2]) is covered by this one.',
    persons: RUNNER_PERSONS,
    events: [
      ...each('p1', '$pageview', P1_DAYS, P1_PROPS),
      ...each('p2', '$pageview', [jan(11), jan(13), jan(15)], P2_PROPS),
    ],
    query: { kind: 'StickinessQuery', series: [PAGEVIEW], dateRange: DEFAULT_RANGE, interval: 'day', intervalCount: 2, filterTestAccounts: false },
    expected: [{ label: '$pageview', count: 2, data: [0, 0, 1, 0, 1], days: seq(5), labels: labelsFor(5, 'day') }],
  },
  {
    name: 'test_interval_week',
    source: `${RUNNER}test_interval_week`,
    note: 'Week interval, weeks start on Sunday. 2020-01-11 is a Saturday: its week starts 2020-01-05; 2020-01-20 '
      + '(Monday) is in the week of 2020-01-19, so N = 3 weeks. Events are taken from 2020-01-11 00:00 (the day of '
      + 'date_from, not the week start). p1 and p2 are both active in all 3 weeks. PostHog asserts label, labels, '
      + 'days and data.',
    persons: RUNNER_PERSONS,
    events: TEST_EVENTS,
    query: { kind: 'StickinessQuery', series: [PAGEVIEW], dateRange: DEFAULT_RANGE, interval: 'week', filterTestAccounts: false },
    expected: [{ label: '$pageview', count: 2, data: [0, 0, 2], days: [1, 2, 3], labels: ['1 week', '2 weeks', '3 weeks'] }],
  },
  {
    name: 'test_interval_full_weeks',
    source: `${RUNNER}test_interval_full_weeks`,
    note: 'now 2020-01-23 12:00 UTC, date_from "-30d" = 2019-12-24 (a Tuesday; its week starts Sunday 2019-12-22), '
      + 'date_to now (end of 2020-01-23, week of 2020-01-19): N = 5 weeks. Both persons are active in the weeks '
      + 'of 01-05, 01-12 and 01-19. PostHog asserts label, labels, days and data.',
    persons: RUNNER_PERSONS,
    events: TEST_EVENTS,
    now: '2020-01-23T12:00:00Z',
    query: { kind: 'StickinessQuery', series: [PAGEVIEW], dateRange: { date_from: '-30d', date_to: null }, interval: 'week', filterTestAccounts: false },
    expected: [{ label: '$pageview', count: 2, data: [0, 0, 2, 0, 0], days: seq(5), labels: labelsFor(5, 'week') }],
  },
  {
    name: 'test_interval_month',
    source: `${RUNNER}test_interval_month`,
    note: 'Month interval: 2020-01-11..2020-01-20 is one month bucket (January), N = 1. PostHog asserts label, labels, '
      + 'days and data.',
    persons: RUNNER_PERSONS,
    events: TEST_EVENTS,
    query: { kind: 'StickinessQuery', series: [PAGEVIEW], dateRange: DEFAULT_RANGE, interval: 'month', filterTestAccounts: false },
    expected: [{ label: '$pageview', count: 2, data: [2], days: [1], labels: ['1 month'] }],
  },
  {
    name: 'test_property_filtering',
    source: `${RUNNER}test_property_filtering`,
    note: 'Query-level event property filter $browser = Chrome: only p1 (9 days). PostHog asserts data only.',
    partial: true,
    persons: RUNNER_PERSONS,
    events: TEST_EVENTS,
    query: {
      kind: 'StickinessQuery',
      series: [PAGEVIEW],
      dateRange: DEFAULT_RANGE,
      interval: 'day',
      properties: [{ type: 'event', key: '$browser', operator: 'exact', value: 'Chrome' }],
      filterTestAccounts: false,
    },
    expected: [{ label: '$pageview', count: 1, data: hist(10, [9, 1]), days: seq(10), labels: labelsFor(10, 'day') }],
  },
  {
    name: 'test_any_event',
    source: `${RUNNER}test_any_event`,
    note: 'EventsNode with event null: every event counts ($pageview and $pageleave fall on the same days), label '
      + '"All events" (action.id null, action.name "All events"). PostHog asserts label and data.',
    persons: RUNNER_PERSONS,
    events: TEST_EVENTS,
    query: { kind: 'StickinessQuery', series: [{ kind: 'EventsNode', event: null }], dateRange: DEFAULT_RANGE, interval: 'day', filterTestAccounts: false },
    expected: [{ label: 'All events', count: 2, data: hist(10, [5, 1], [9, 1]), days: seq(10), labels: labelsFor(10, 'day') }],
  },
  {
    name: 'test_actions',
    source: `${RUNNER}test_actions`,
    note: 'ActionsNode: an action matching $pageview with $browser = Chrome, so only p1 (9 days). The label is the '
      + "action's name (the runner's series_event); PostHog asserts data only.",
    partial: true,
    persons: RUNNER_PERSONS,
    actions: [
      {
        id: 9001,
        name: 'My Action',
        steps: [{ event: '$pageview', properties: [{ key: '$browser', type: 'event', value: 'Chrome', operator: 'exact' }] }],
      },
    ],
    events: TEST_EVENTS,
    query: { kind: 'StickinessQuery', series: [{ kind: 'ActionsNode', id: 9001 }], dateRange: DEFAULT_RANGE, interval: 'day', filterTestAccounts: false },
    expected: [{ label: 'My Action', count: 1, data: hist(10, [9, 1]), days: seq(10), labels: labelsFor(10, 'day') }],
  },
  {
    name: 'test_compare_to',
    source: `${RUNNER}test_compare_to`,
    note: 'compare_to "-1d": the previous period starts 1 day before date_from (2020-01-11) and is as long as the '
      + 'current one (9 days: 2020-01-11..2020-01-19). Current 2020-01-12..2020-01-20: p1 8 days, p2 4 days. '
      + 'Previous: p1 9 days, p2 5 days. Items: current then previous. PostHog asserts count, compare_label and '
      + 'data of both; both items also carry compare: true.',
    partial: true,
    persons: RUNNER_PERSONS,
    events: TEST_EVENTS,
    query: {
      kind: 'StickinessQuery',
      series: [PAGEVIEW],
      dateRange: { date_from: '2020-01-12', date_to: '2020-01-20' },
      interval: 'day',
      stickinessFilter: {},
      compareFilter: { compare: true, compare_to: '-1d' },
      filterTestAccounts: false,
    },
    expected: [
      { label: '$pageview', compare_label: 'current', count: 2, data: [0, 0, 0, 1, 0, 0, 0, 1, 0], days: seq(9), labels: labelsFor(9, 'day') },
      { label: '$pageview', compare_label: 'previous', count: 2, data: [0, 0, 0, 0, 1, 0, 0, 0, 1], days: seq(9), labels: labelsFor(9, 'day') },
    ],
  },
  {
    name: 'test_criteria_gte',
    source: `${RUNNER}test_criteria`,
    note: 'First of the three queries of test_criteria. stickinessCriteria {gte 2}: a day counts for an actor only '
      + 'with at least 2 matching events that day. 2020-01-12..2020-01-20 (N = 9): p1 has 2 on the 13th and 15th '
      + 'and 3 on the 17th (3 days; the 19th has 1); p2 has 2 on the 12th and 13th (2 days). PostHog asserts count '
      + 'and data.',
    partial: true,
    persons: RUNNER_PERSONS,
    events: [
      ...each('p1', '$pageview', [jan(11), jan(11), jan(13), jan(13), jan(15), jan(15), jan(17), jan(17), jan(17), jan(19)], P1_PROPS),
      ...each('p2', '$pageview', [jan(12), jan(12), jan(13), jan(13), jan(19)], P1_PROPS),
    ],
    query: {
      kind: 'StickinessQuery',
      series: [PAGEVIEW],
      dateRange: { date_from: '2020-01-12', date_to: '2020-01-20' },
      interval: 'day',
      stickinessFilter: { stickinessCriteria: { operator: 'gte', value: 2 } },
      filterTestAccounts: false,
    },
    expected: [{ label: '$pageview', count: 2, data: [0, 1, 1, 0, 0, 0, 0, 0, 0], days: seq(9), labels: labelsFor(9, 'day') }],
  },
  {
    name: 'test_criteria_lte',
    source: `${RUNNER}test_criteria`,
    note: 'Second query of test_criteria: stickinessCriteria {lte 1}. Days with exactly one event: p1 the 19th, '
      + 'p2 the 19th; an actor with no qualifying day is not counted at all. PostHog asserts count and data. '
      + '(p2 carries the same event properties as p1 in this test, as in PostHog.)',
    partial: true,
    persons: RUNNER_PERSONS,
    events: [
      ...each('p1', '$pageview', [jan(11), jan(11), jan(13), jan(13), jan(15), jan(15), jan(17), jan(17), jan(17), jan(19)], P1_PROPS),
      ...each('p2', '$pageview', [jan(12), jan(12), jan(13), jan(13), jan(19)], P1_PROPS),
    ],
    query: {
      kind: 'StickinessQuery',
      series: [PAGEVIEW],
      dateRange: { date_from: '2020-01-12', date_to: '2020-01-20' },
      interval: 'day',
      stickinessFilter: { stickinessCriteria: { operator: 'lte', value: 1 } },
      filterTestAccounts: false,
    },
    expected: [{ label: '$pageview', count: 2, data: [2, 0, 0, 0, 0, 0, 0, 0, 0], days: seq(9), labels: labelsFor(9, 'day') }],
  },
  {
    name: 'test_criteria_exact',
    source: `${RUNNER}test_criteria`,
    note: 'Third query of test_criteria: stickinessCriteria {exact 2} over 2020-01-11..2020-01-20 (N = 10). Days with '
      + 'exactly 2 events: p1 the 11th, 13th, 15th (3); p2 the 12th, 13th (2). PostHog asserts count and data.',
    partial: true,
    persons: RUNNER_PERSONS,
    events: [
      ...each('p1', '$pageview', [jan(11), jan(11), jan(13), jan(13), jan(15), jan(15), jan(17), jan(17), jan(17), jan(19)], P1_PROPS),
      ...each('p2', '$pageview', [jan(12), jan(12), jan(13), jan(13), jan(19)], P1_PROPS),
    ],
    query: {
      kind: 'StickinessQuery',
      series: [PAGEVIEW],
      dateRange: DEFAULT_RANGE,
      interval: 'day',
      stickinessFilter: { stickinessCriteria: { operator: 'exact', value: 2 } },
      filterTestAccounts: false,
    },
    expected: [{ label: '$pageview', count: 2, data: [0, 1, 1, 0, 0, 0, 0, 0, 0, 0], days: seq(10), labels: labelsFor(10, 'day') }],
  },
  {
    name: 'test_group_aggregations',
    source: `${RUNNER}test_group_aggregations`,
    note: 'math unique_group, math_group_type_index 0: the actor is the event\'s $group_0 (events with an empty '
      + '$group_0 are dropped). p1 and p2 are both in org:1, which is active on every day 11..19 (9 days). PostHog '
      + 'asserts data only.',
    partial: true,
    persons: RUNNER_PERSONS,
    groupTypes: [{ index: 0, name: 'organization' }],
    events: TEST_EVENTS,
    query: {
      kind: 'StickinessQuery',
      series: [{ kind: 'EventsNode', event: '$pageview', math: 'unique_group', math_group_type_index: 0 }],
      dateRange: DEFAULT_RANGE,
      interval: 'day',
      filterTestAccounts: false,
    },
    expected: [{ label: '$pageview', count: 1, data: hist(10, [9, 1]), days: seq(10), labels: labelsFor(10, 'day') }],
  },
  {
    name: 'test_cumulative_stickiness',
    source: `${RUNNER}test_cumulative_stickiness`,
    note: 'computedAs cumulative: data[k-1] = actors active in k or more days. Non-cumulative would be [1, 1, 1] '
      + '(p3 1 day, p2 2, p1 3); cumulative [3, 2, 1]; count stays the non-cumulative sum (3). PostHog asserts '
      + 'data, count and labels.',
    persons: RUNNER_PERSONS_3,
    events: THREE_PEOPLE,
    query: {
      kind: 'StickinessQuery',
      series: [PAGEVIEW],
      dateRange: { date_from: '2020-01-11', date_to: '2020-01-13' },
      interval: 'day',
      stickinessFilter: { computedAs: 'cumulative' },
      filterTestAccounts: false,
    },
    expected: [{ label: '$pageview', count: 3, data: [3, 2, 1], days: [1, 2, 3], labels: ['1 day or more', '2 days or more', '3 days or more'] }],
  },
  {
    name: 'test_cumulative_stickiness_with_intervals',
    source: `${RUNNER}test_cumulative_stickiness_with_intervals`,
    note: 'Hour interval with absolute datetimes 12:00..14:00 on 2020-01-11: N = 3 hours (date_to 14:00:00 is kept '
      + 'as is, its hour counts). p1 active at 12, 13, 14 (3 hours), p2 at 12, 13 (2): non-cumulative [0, 1, 1], '
      + 'cumulative [2, 2, 1]. PostHog asserts data and labels.',
    partial: true,
    persons: { p1: { name: 'p1', email: 'test@posthog.com' }, p2: { name: 'p2' } },
    events: [
      ...each('p1', '$pageview', ['2020-01-11T12:00:00Z', '2020-01-11T13:00:00Z', '2020-01-11T14:00:00Z']),
      ...each('p2', '$pageview', ['2020-01-11T12:00:00Z', '2020-01-11T13:00:00Z']),
    ],
    query: {
      kind: 'StickinessQuery',
      series: [PAGEVIEW],
      dateRange: { date_from: '2020-01-11T12:00:00Z', date_to: '2020-01-11T14:00:00Z' },
      interval: 'hour',
      stickinessFilter: { computedAs: 'cumulative' },
      filterTestAccounts: false,
    },
    expected: [{ label: '$pageview', count: 2, data: [2, 2, 1], days: [1, 2, 3], labels: ['1 hour or more', '2 hours or more', '3 hours or more'] }],
  },
  {
    name: 'test_cumulative_stickiness_with_criteria',
    source: `${RUNNER}test_cumulative_stickiness_with_criteria`,
    note: 'Cumulative with stickinessCriteria {gte 2}: days with 2+ events: p1 the 11th and 12th (2 days), p2 the '
      + '11th (1 day), p3 none (not counted). Non-cumulative [1, 1, 0], cumulative [2, 1, 0], count 2. PostHog '
      + 'asserts data and labels.',
    partial: true,
    persons: RUNNER_PERSONS_3,
    events: [
      ...each('p1', '$pageview', [jan(11), jan(11), jan(12), jan(12), jan(13)]),
      ...each('p2', '$pageview', [jan(11), jan(11), jan(12)]),
      ...each('p3', '$pageview', [jan(11)]),
    ],
    query: {
      kind: 'StickinessQuery',
      series: [PAGEVIEW],
      dateRange: { date_from: '2020-01-11', date_to: '2020-01-13' },
      interval: 'day',
      stickinessFilter: { computedAs: 'cumulative', stickinessCriteria: { operator: 'gte', value: 2 } },
      filterTestAccounts: false,
    },
    expected: [{ label: '$pageview', count: 2, data: [2, 1, 0], days: [1, 2, 3], labels: ['1 day or more', '2 days or more', '3 days or more'] }],
  },

  // ============================ stickiness_test_factory (legacy API tests) ============================
  {
    name: 'test_stickiness',
    source: `${LEGACY}test_stickiness`,
    note: 'Daily stickiness over a week: 2020-01-01..2020-01-08, N = 8. person1 1 day, person2 2 days (two events on '
      + 'its second day count once), person3 3 days across its two distinct ids, person4 1 day. PostHog asserts '
      + 'count and data/labels at positions 1, 2, 3 and 7.',
    partial: true,
    persons: LEGACY_PERSONS,
    events: multiplePeople(BY_DAY),
    query: { kind: 'StickinessQuery', series: [WATCHED_MOVIE], dateRange: LEGACY_WEEK_1, interval: 'day' },
    expected: [{ label: 'watched movie', count: 4, data: [2, 1, 1, 0, 0, 0, 0, 0], days: seq(8), labels: labelsFor(8, 'day') }],
  },
  {
    name: 'test_stickiness_with_person_on_events_v2',
    source: `${LEGACY}test_stickiness_with_person_on_events_v2`,
    note: "PostHog overrides person1's person id with person2's (create_person_id_override_by_distinct_id): "
      + "person1's 2020-01-01 event then belongs to person2. Here the same merge is a $merge_dangerously sent by "
      + 'person2 (alias person1) after all the events: events stored before a merge count under the merged '
      + 'person. person1+2 is active on the 1st and 2nd (2 days), person3 3 days, person4 1 day: count 3. '
      + 'PostHog asserts count and data/labels at positions 1, 2, 3 and 7.',
    partial: true,
    persons: LEGACY_PERSONS,
    events: [
      ...multiplePeople(BY_DAY),
      { distinct_id: 'person2', event: '$merge_dangerously', timestamp: '2020-01-07T00:00:00Z', properties: { alias: 'person1' } },
    ],
    query: { kind: 'StickinessQuery', series: [WATCHED_MOVIE], dateRange: LEGACY_WEEK_1, interval: 'day' },
    expected: [{ label: 'watched movie', count: 3, data: [1, 1, 1, 0, 0, 0, 0, 0], days: seq(8), labels: labelsFor(8, 'day') }],
  },
  {
    name: 'test_stickiness_all_time',
    source: `${LEGACY}test_stickiness_all_time`,
    note: 'date_from "all": the range starts at the earliest event of the project (here the 11:00 $identify on '
      + '2020-01-01; day buckets start at that day), date_to now (2020-01-08): N = 8. Same numbers as test_stickiness. '
      + 'Needs a project with no earlier event (no group-type setup events). PostHog asserts count and '
      + 'data/labels at positions 1, 2, 3 and 7.',
    partial: true,
    persons: LEGACY_PERSONS,
    events: multiplePeople(BY_DAY),
    now: '2020-01-08T13:01:01Z',
    query: { kind: 'StickinessQuery', series: [WATCHED_MOVIE], dateRange: { date_from: 'all' }, interval: 'day' },
    expected: [{ label: 'watched movie', count: 4, data: [2, 1, 1, 0, 0, 0, 0, 0], days: seq(8), labels: labelsFor(8, 'day') }],
  },
  {
    name: 'test_stickiness_hours',
    source: `${LEGACY}test_stickiness_hours`,
    note: 'Hour interval, period 1 hour from 12:00 on 2020-01-01; absolute date_to 20:00 is kept as is: N = 9 hours '
      + '(12:00..20:00). person1 1 hour, person2 2, person3 3, person4 1 (16:00). PostHog asserts count and '
      + 'data/labels at positions 1, 2, 3 and 7.',
    partial: true,
    persons: LEGACY_PERSONS,
    events: multiplePeople(BY_HOUR),
    query: {
      kind: 'StickinessQuery',
      series: [WATCHED_MOVIE],
      dateRange: { date_from: '2020-01-01T12:00:00.00Z', date_to: '2020-01-01T20:00:00.00Z' },
      interval: 'hour',
    },
    expected: [{ label: 'watched movie', count: 4, data: [2, 1, 1, 0, 0, 0, 0, 0, 0], days: seq(9), labels: labelsFor(9, 'hour') }],
  },
  {
    name: 'test_stickiness_months',
    source: `${LEGACY}test_stickiness_months`,
    note: 'Month interval, period 1 month from 2020-01-01: 2020-01-01..2020-09-08 is N = 9 months (date_to after the '
      + 'frozen now 2020-02-08 is not clipped; events on 03-01 and 05-01 count). person1 1 month, person2 2, '
      + 'person3 3, person4 1 (May). PostHog asserts count and data/labels at positions 1, 2, 3 and 7.',
    partial: true,
    persons: LEGACY_PERSONS,
    events: multiplePeople(BY_MONTH),
    query: { kind: 'StickinessQuery', series: [WATCHED_MOVIE], dateRange: { date_from: '2020-01-01', date_to: '2020-09-08' }, interval: 'month' },
    expected: [{ label: 'watched movie', count: 4, data: [2, 1, 1, 0, 0, 0, 0, 0, 0], days: seq(9), labels: labelsFor(9, 'month') }],
  },
  {
    name: 'test_stickiness_entity_person_filter',
    source: `${LEGACY}test_stickiness_entity_person_filter`,
    note: 'Series-level person property filter name = ["person1"] (a list value with exact): only person1, 1 day. '
      + 'PostHog asserts count and data/labels at positions 1, 2, 3 and 7.',
    partial: true,
    persons: LEGACY_PERSONS,
    events: multiplePeople(BY_DAY),
    query: {
      kind: 'StickinessQuery',
      series: [{ kind: 'EventsNode', event: 'watched movie', properties: [{ key: 'name', value: ['person1'], operator: 'exact', type: 'person' }] }],
      dateRange: LEGACY_WEEK_1,
      interval: 'day',
    },
    expected: [{ label: 'watched movie', count: 1, data: [1, 0, 0, 0, 0, 0, 0, 0], days: seq(8), labels: labelsFor(8, 'day') }],
  },
  {
    name: 'test_compare',
    source: `${LEGACY}test_compare`,
    note: 'compare: true without compare_to: the previous period is as long as the current one and ends just '
      + 'before it: 2019-12-24..2019-12-31 (8 days, no events). Items: current then previous. The legacy request '
      + "also sends math 'dau' and display ActionsLineGraph (stickiness ignores both: actors are persons). "
      + 'PostHog asserts data and compare_label of both items; count follows.',
    partial: true,
    persons: LEGACY_PERSONS,
    events: multiplePeople(BY_DAY),
    query: {
      kind: 'StickinessQuery',
      series: [{ kind: 'EventsNode', event: 'watched movie', name: 'watched movie', math: 'dau', properties: [] }],
      dateRange: LEGACY_WEEK_1,
      interval: 'day',
      properties: [],
      stickinessFilter: { display: 'ActionsLineGraph' },
      compareFilter: { compare: true },
    },
    expected: [
      { label: 'watched movie', compare_label: 'current', count: 4, data: [2, 1, 1, 0, 0, 0, 0, 0], days: seq(8), labels: labelsFor(8, 'day') },
      { label: 'watched movie', compare_label: 'previous', count: 0, data: [0, 0, 0, 0, 0, 0, 0, 0], days: seq(8), labels: labelsFor(8, 'day') },
    ],
  },

  // ============================ TestClickhouseStickiness (ee) ============================
  {
    name: 'test_filter_by_group_properties',
    source: `${EE}test_filter_by_group_properties`,
    note: 'Weekly (period 1 week), 2020-01-01..2020-02-15: N = 7 weeks (Sunday 2019-12-29 .. the week of 02-09). '
      + 'Person i sends $group_0 org:i and $group_1 instance:1. Query filter: group 0 property industry = '
      + 'technology (org:1 and org:3) -> person1 (1 week) and person3 (3 weeks). PostHog creates the groups '
      + 'directly; here $groupidentify events set their properties (type names are ours; the filter uses the '
      + 'index). PostHog asserts data at positions 1, 2, 3 (its actors half is not ported).',
    partial: true,
    persons: LEGACY_PERSONS,
    groupTypes: [{ index: 0, name: 'organization' }, { index: 1, name: 'company' }],
    events: [
      groupIdentify('organization', 'org:1', { industry: 'technology' }),
      groupIdentify('organization', 'org:2', { industry: 'agriculture' }),
      groupIdentify('organization', 'org:3', { industry: 'technology' }),
      groupIdentify('organization', 'org:4', {}),
      groupIdentify('company', 'company:1', { industry: 'technology' }),
      groupIdentify('company', 'instance:1', {}),
      ...multiplePeople(BY_WEEK, (i) => ({ $group_0: `org:${i}`, $group_1: 'instance:1' })),
    ],
    query: {
      kind: 'StickinessQuery',
      series: [WATCHED_MOVIE],
      dateRange: { date_from: '2020-01-01', date_to: '2020-02-15' },
      interval: 'week',
      properties: [{ key: 'industry', value: 'technology', type: 'group', group_type_index: 0 }],
    },
    expected: [{ label: 'watched movie', count: 2, data: [1, 0, 1, 0, 0, 0, 0], days: seq(7), labels: labelsFor(7, 'week') }],
  },
  {
    name: 'test_aggregate_by_groups',
    source: `${EE}test_aggregate_by_groups`,
    note: 'Weekly (period 1 week), math unique_group on group 0. Person i sends $group_0 org:(i // 2): person1 -> '
      + 'org:0 (1 week), person2 and person3 -> org:1 (their weeks together: 3), person4 -> org:2 (1 week). '
      + 'N = 7 weeks. PostHog asserts data at positions 1, 2, 3 (its actors half is not ported).',
    partial: true,
    persons: LEGACY_PERSONS,
    groupTypes: [{ index: 0, name: 'organization' }],
    events: [
      groupIdentify('organization', 'org:0', { industry: 'technology' }),
      groupIdentify('organization', 'org:1', { industry: 'agriculture' }),
      groupIdentify('organization', 'org:2', { industry: 'technology' }),
      ...multiplePeople(BY_WEEK, (i) => ({ $group_0: `org:${Math.floor(i / 2)}` })),
    ],
    query: {
      kind: 'StickinessQuery',
      series: [{ kind: 'EventsNode', event: 'watched movie', math: 'unique_group', math_group_type_index: 0 }],
      dateRange: { date_from: '2020-01-01', date_to: '2020-02-15' },
      interval: 'week',
    },
    expected: [{ label: 'watched movie', count: 3, data: [2, 0, 1, 0, 0, 0, 0], days: seq(7), labels: labelsFor(7, 'week') }],
  },
  {
    name: 'test_timezones_utc',
    source: `${EE}test_timezones`,
    note: 'First half of test_timezones (project in UTC). Events at 2021-05-02 01:00, 2021-05-02 09:00, 2021-05-04 '
      + '03:00 UTC: 2 days. 2021-05-01..2021-05-15, N = 15. PostHog asserts days and data.',
    partial: true,
    events: each('person1', '$pageview', ['2021-05-02T01:00:00Z', '2021-05-02T09:00:00Z', '2021-05-04T03:00:00Z']),
    query: { kind: 'StickinessQuery', series: [PAGEVIEW], dateRange: { date_from: '2021-05-01', date_to: '2021-05-15' }, interval: 'day' },
    expected: [{ label: '$pageview', count: 1, data: hist(15, [2, 1]), days: seq(15), labels: labelsFor(15, 'day') }],
  },
  {
    name: 'test_timezones_us_pacific',
    source: `${EE}test_timezones`,
    note: 'Second half of test_timezones: the same events (stored while the project was UTC), the project then '
      + 'switched to US/Pacific (PDT, UTC-7). In Pacific time the events fall on 05-01 18:00, 05-02 02:00 and '
      + '05-03 20:00: 3 days. The range is 2021-05-01..2021-05-15 Pacific, N = 15. PostHog asserts days and data.',
    partial: true,
    timezone: 'US/Pacific',
    events: each('person1', '$pageview', ['2021-05-02T01:00:00Z', '2021-05-02T09:00:00Z', '2021-05-04T03:00:00Z']),
    query: { kind: 'StickinessQuery', series: [PAGEVIEW], dateRange: { date_from: '2021-05-01', date_to: '2021-05-15' }, interval: 'day' },
    expected: [{ label: '$pageview', count: 1, data: hist(15, [3, 1]), days: seq(15), labels: labelsFor(15, 'day') }],
  },

  // ============================ ours ============================
  {
    name: 'derived_two_series_compare_to',
    source: 'derived: no PostHog stickiness test has several series; numbers from stickiness_query_runner.py '
      + '(setup_series, _calculate) on the data of test_compare_to',
    note: 'Two series with compare_to "-1d": items come per series, current then previous (A current, A previous, '
      + 'B current, B previous), each series with its own label and action.order (0, 1). The second series has a '
      + 'series-level filter $browser = Chrome (p1 only: 8 days now, 9 days in the previous period) and a '
      + 'custom_name, which only shows in action.custom_name (the label stays the event name). No PostHog test '
      + 'asserts any of it (hence partial); every number follows from the rules that test_compare_to checks.',
    partial: true,
    persons: RUNNER_PERSONS,
    events: TEST_EVENTS,
    query: {
      kind: 'StickinessQuery',
      series: [
        PAGEVIEW,
        {
          kind: 'EventsNode',
          event: '$pageleave',
          custom_name: 'Chrome leaves',
          properties: [{ key: '$browser', type: 'event', value: 'Chrome', operator: 'exact' }],
        },
      ],
      dateRange: { date_from: '2020-01-12', date_to: '2020-01-20' },
      interval: 'day',
      compareFilter: { compare: true, compare_to: '-1d' },
    },
    expected: [
      { label: '$pageview', compare_label: 'current', count: 2, data: [0, 0, 0, 1, 0, 0, 0, 1, 0], days: seq(9), labels: labelsFor(9, 'day') },
      { label: '$pageview', compare_label: 'previous', count: 2, data: [0, 0, 0, 0, 1, 0, 0, 0, 1], days: seq(9), labels: labelsFor(9, 'day') },
      { label: '$pageleave', compare_label: 'current', count: 1, data: [0, 0, 0, 0, 0, 0, 0, 1, 0], days: seq(9), labels: labelsFor(9, 'day') },
      { label: '$pageleave', compare_label: 'previous', count: 1, data: [0, 0, 0, 0, 0, 0, 0, 0, 1], days: seq(9), labels: labelsFor(9, 'day') },
    ],
  },
];
