// PostHog's LifecycleQuery test cases, ported as data (events, query, expected numbers) from
//   PostHog/posthog @ 30d5d25f59991f0aeb476b7d9720513937efd199
//   posthog/hogql_queries/insights/lifecycle/test/test_lifecycle_query_runner.py
// plus four tests of the older ClickHouse lifecycle suite
//   PostHog/posthog @ 01fd82884c443741d7cc3293d8d1427fd2fbeb50  ee/clickhouse/queries/test/test_lifecycle.py
// whose numbers the current runner (posthog/hogql_queries/insights/lifecycle/lifecycle_query_runner.py) gives too.
// See README.md next to this file for what was skipped and why. Only facts are ported: the code here is ours.
//
// Conventions
// - Timestamps are UTC ('Z'). Every PostHog lifecycle test writes its event timestamps with 'Z' (or naive in a UTC
//   project), so no case depends on when the project timezone was set.
// - Query dates (dateRange) are kept exactly as PostHog sends them ('2020-01-12T00:00:00Z' is read as that instant
//   and converted to the project timezone; a naive '2020-01-12' is read in the project timezone).
// - "new" depends on the person's created_at. PostHog's helper creates each person at the time of its first event
//   (freeze_time(first timestamp)); Hoglet creates a person at the timestamp of the first event it processes for
//   it. `persons[id].created_at` is the created_at a case needs; it is always the timestamp of that distinct id's
//   earliest event in `events`. Where PostHog created the person earlier than its first series event, the case
//   has an extra event named '$create_person_marker' at that time (the series never matches it); see the notes.
// - persons[id].properties: set them with $set on the person's first event (in timestamp order).
// - Groups exist in PostHog's tests only where the test creates them (create_group), with created_at = the time
//   the test froze. Hoglet creates a group from its first '$groupidentify' event, with created_at = that event's
//   timestamp, so each such group is given as a '$groupidentify' event ($group_type, $group_key, $group_set) at
//   PostHog's creation time. `groupTypes` are registered first, in index order (Hoglet numbers types as it meets
//   them), and an event's `$group_N` properties become `$groups` as an SDK sends them.
// - actions: create them first and replace the placeholder id (9001) in the query's series with the real id.
// - now: the frozen time of the test (freeze_time); only cases whose range depends on now ('-7d', 'all', no
//   date_to) carry it. Without it the case runs at any time.
// - expected: one item per status in PostHog's result order: new, returning, resurrecting, dormant (the runner
//   always returns all four). Dormant numbers are negative. `days`, `labels`, `label`, `count` and `action` are
//   given where PostHog's test asserts them; `count` is always the sum of `data` (dormant: negative), so a
//   harness may check that for every item.
// - partial: PostHog asserts only some statuses; the listed items must match (by status) and the others are not
//   checked. Without `partial` the list is complete and in order.

export interface LifecycleCaseEvent {
  distinct_id: string;
  event: string;
  timestamp: string;
  properties?: Record<string, unknown>;
}

export type LifecycleStatus = 'new' | 'returning' | 'resurrecting' | 'dormant';

export interface LifecycleExpectedItem {
  status: LifecycleStatus;
  /** Distinct actors per bucket, date_from's bucket first; dormant counts are negative. */
  data: number[];
  /** Bucket starts in the project timezone: '%Y-%m-%d' (' %H:%M:%S' appended for hour intervals). */
  days?: string[];
  /** Bucket labels, as trends: '9-Jan-2020' for days. */
  labels?: string[];
  /** '<event name | action name | All events> - <status>'. */
  label?: string;
  /** Sum of data. */
  count?: number;
  /** The legacy `action` object of the item, where PostHog asserts it. */
  action?: Record<string, unknown>;
}

export interface LifecycleCase {
  /** PostHog's test name (with a suffix when one test gives several cases). */
  name: string;
  /** PostHog file path + test class and function. */
  source: string;
  /** What was adapted, and what the case is about. */
  note?: string;
  /** Project timezone when the test sets one (default UTC). */
  timezone?: string;
  /** Project week start when the test sets one (0 Sunday, 1 Monday). */
  weekStartDay?: 0 | 1;
  /** distinct_id -> person properties (set via $set on its first event) and the created_at the case needs. */
  persons?: Record<string, { properties?: Record<string, unknown>; created_at?: string }>;
  /** Actions to create; `id` is a placeholder used in the query. */
  actions?: { id: number; name: string; steps: Record<string, unknown>[] }[];
  /** Group types to map before running (index -> name). */
  groupTypes?: { index: number; name: string }[];
  events: LifecycleCaseEvent[];
  /** Frozen time of the test, when the range depends on it. */
  now?: string;
  /** A LifecycleQuery node in PostHog's schema. */
  query: Record<string, unknown>;
  expected: LifecycleExpectedItem[];
  /** PostHog asserts only some statuses (see the conventions above). */
  partial?: boolean;
}

export const POSTHOG_LIFECYCLE_TESTS = {
  repo: 'PostHog/posthog',
  commit: '30d5d25f59991f0aeb476b7d9720513937efd199',
  path: 'posthog/hogql_queries/insights/lifecycle/test/test_lifecycle_query_runner.py',
} as const;

export const POSTHOG_LIFECYCLE_LEGACY_TESTS = {
  repo: 'PostHog/posthog',
  commit: '01fd82884c443741d7cc3293d8d1427fd2fbeb50',
  path: 'ee/clickhouse/queries/test/test_lifecycle.py',
} as const;

const SRC = `${POSTHOG_LIFECYCLE_TESTS.path}::TestLifecycleQueryRunner`;
const SRC_GROUPS = `${POSTHOG_LIFECYCLE_TESTS.path}::TestLifecycleQueryRetentionGroupAggregation`;
const SRC_LEGACY = `${POSTHOG_LIFECYCLE_LEGACY_TESTS.path}::TestClickhouseLifecycle`;

/** One event per timestamp for one distinct id. */
function eventsOf(distinctId: string, timestamps: string[], event = '$pageview', properties?: Record<string, unknown>): LifecycleCaseEvent[] {
  return timestamps.map((timestamp) => ({ distinct_id: distinctId, event, timestamp, ...(properties ? { properties: { ...properties } } : {}) }));
}

/** `count` events of one distinct id, one a day at the same time, the last at `last` (PostHog: now - n days, n < count). */
function dailyEvents(distinctId: string, last: string, count: number): LifecycleCaseEvent[] {
  const end = Date.parse(last);
  const events: LifecycleCaseEvent[] = [];
  for (let n = count - 1; n >= 0; n--) {
    events.push({ distinct_id: distinctId, event: '$pageview', timestamp: new Date(end - n * 86_400_000).toISOString().replace('.000Z', 'Z') });
  }
  return events;
}

// PostHog's _create_test_events data set (used by most tests): p1 on 11, 12, 13, 15, 17, 19 Jan 2020,
// p2 on 9 and 12, p3 on 12, p4 on 15, all at 12:00 UTC; each person created at its first event.
const P1_DAYS = ['2020-01-11T12:00:00Z', '2020-01-12T12:00:00Z', '2020-01-13T12:00:00Z', '2020-01-15T12:00:00Z', '2020-01-17T12:00:00Z', '2020-01-19T12:00:00Z'];
const P2_DAYS = ['2020-01-09T12:00:00Z', '2020-01-12T12:00:00Z'];
const P3_DAYS = ['2020-01-12T12:00:00Z'];
const P4_DAYS = ['2020-01-15T12:00:00Z'];

const standardEvents = (): LifecycleCaseEvent[] => [
  ...eventsOf('p1', P1_DAYS),
  ...eventsOf('p2', P2_DAYS),
  ...eventsOf('p3', P3_DAYS),
  ...eventsOf('p4', P4_DAYS),
];

const standardPersons = (): NonNullable<LifecycleCase['persons']> => ({
  p1: { created_at: '2020-01-11T12:00:00Z' },
  p2: { created_at: '2020-01-09T12:00:00Z' },
  p3: { created_at: '2020-01-12T12:00:00Z' },
  p4: { created_at: '2020-01-15T12:00:00Z' },
});

/** The answer PostHog asserts for the standard data over 12..19 Jan 2020 (day interval). */
const STANDARD_12_TO_19: LifecycleExpectedItem[] = [
  { status: 'new', data: [1, 0, 0, 1, 0, 0, 0, 0] },
  { status: 'returning', data: [1, 1, 0, 0, 0, 0, 0, 0] },
  { status: 'resurrecting', data: [1, 0, 0, 1, 0, 1, 0, 1] },
  { status: 'dormant', data: [0, -2, -1, 0, -2, 0, -1, 0] },
];

const DAYS_9_TO_19 = ['2020-01-09', '2020-01-10', '2020-01-11', '2020-01-12', '2020-01-13', '2020-01-14', '2020-01-15', '2020-01-16', '2020-01-17', '2020-01-18', '2020-01-19'];
const LABELS_9_TO_19 = ['9-Jan-2020', '10-Jan-2020', '11-Jan-2020', '12-Jan-2020', '13-Jan-2020', '14-Jan-2020', '15-Jan-2020', '16-Jan-2020', '17-Jan-2020', '18-Jan-2020', '19-Jan-2020'];
const PAGEVIEW_ACTION = { id: '$pageview', name: '$pageview', type: 'events', order: 0, math: 'total' };

/** A full result item over 9..19 Jan 2020 for the $pageview series, as PostHog's full-shape tests assert it. */
function fullItem(status: LifecycleStatus, data: number[]): LifecycleExpectedItem {
  return {
    status,
    data,
    count: data.reduce((a, b) => a + b, 0),
    days: DAYS_9_TO_19,
    labels: LABELS_9_TO_19,
    label: `$pageview - ${status}`,
    action: PAGEVIEW_ACTION,
  };
}

const groupIdentify = (groupType: string, groupKey: string, name: string, timestamp: string): LifecycleCaseEvent => ({
  distinct_id: 'group-admin',
  event: '$groupidentify',
  timestamp,
  properties: { $group_type: groupType, $group_key: groupKey, $group_set: { name } },
});

const dayQuery = (dateFrom: string, dateTo: string, extra: Record<string, unknown> = {}, series: Record<string, unknown>[] = [{ kind: 'EventsNode', event: '$pageview' }]) => ({
  kind: 'LifecycleQuery',
  series,
  dateRange: { date_from: dateFrom, date_to: dateTo },
  interval: 'day',
  ...extra,
});

export const posthogLifecycleCases: LifecycleCase[] = [
  {
    name: 'test_lifecycle_query_whole_range',
    source: `${SRC}.test_lifecycle_query_whole_range`,
    note: 'The full result shape. The events from the day before date_from (8 Jan) are read, so p2 is new on 9 Jan; '
      + "p1's dormant day after its last activity (20 Jan) is outside the range and dropped.",
    persons: standardPersons(),
    events: standardEvents(),
    query: dayQuery('2020-01-09', '2020-01-19'),
    expected: [
      fullItem('new', [1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0]),
      fullItem('returning', [0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0]),
      fullItem('resurrecting', [0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 1]),
      fullItem('dormant', [0, -1, 0, 0, -2, -1, 0, -2, 0, -1, 0]),
    ],
  },
  {
    name: 'test_lifecycle_trend',
    source: `${SRC}.test_lifecycle_trend`,
    note: "p2's 9 Jan event is before the window (date_from minus one day = 11 Jan), so p2 is resurrecting on 12 Jan "
      + '(created 9 Jan, not new); p1 was new on 11 Jan (outside the range) and is returning on 12 Jan. '
      + "PostHog asserts results[0].label === '$pageview - new'; order of the others is not asserted by this test.",
    persons: standardPersons(),
    events: standardEvents(),
    query: dayQuery('2020-01-12T00:00:00Z', '2020-01-19T00:00:00Z'),
    expected: [{ ...STANDARD_12_TO_19[0]!, label: '$pageview - new' }, ...STANDARD_12_TO_19.slice(1)],
  },
  {
    name: 'test_lifecycle_trend_all_events',
    source: `${SRC}.test_lifecycle_trend_all_events`,
    note: 'Series EventsNode with event null = all events: p1/p2 send $pageview, p3/p4 send $other; same numbers as '
      + "test_lifecycle_trend. Label 'All events - <status>' (action.id null, action.name 'All events').",
    persons: standardPersons(),
    events: [...eventsOf('p1', P1_DAYS), ...eventsOf('p2', P2_DAYS), ...eventsOf('p3', P3_DAYS, '$other'), ...eventsOf('p4', P4_DAYS, '$other')],
    query: dayQuery('2020-01-12T00:00:00Z', '2020-01-19T00:00:00Z', {}, [{ kind: 'EventsNode', event: null }]),
    expected: [{ ...STANDARD_12_TO_19[0]!, label: 'All events - new' }, ...STANDARD_12_TO_19.slice(1)],
  },
  {
    name: 'test_lifecycle_trend_prop_filtering (query properties)',
    source: `${SRC}.test_lifecycle_trend_prop_filtering`,
    note: 'Only p1 has { $number: 1 }; the filter value is the string "1". PostHog creates these persons without '
      + "freeze_time (created_at = when the test runs, after every event), so p1 is never new there; here p1's "
      + 'created_at is its first event (11 Jan), which would make it new on 11 Jan — outside the range, and 12 Jan '
      + 'is returning either way, so the numbers are the same. No marker can reproduce a created_at later than '
      + 'the first event, and none is needed.',
    persons: {
      p1: { properties: { name: 'p1' }, created_at: '2020-01-11T12:00:00Z' },
      p2: { properties: { name: 'p2' }, created_at: '2020-01-09T12:00:00Z' },
      p3: { properties: { name: 'p3' }, created_at: '2020-01-12T12:00:00Z' },
      p4: { properties: { name: 'p4' }, created_at: '2020-01-15T12:00:00Z' },
    },
    events: [...eventsOf('p1', P1_DAYS, '$pageview', { $number: 1 }), ...eventsOf('p2', P2_DAYS), ...eventsOf('p3', P3_DAYS), ...eventsOf('p4', P4_DAYS)],
    query: dayQuery('2020-01-12T00:00:00Z', '2020-01-19T00:00:00Z', {
      properties: [{ key: '$number', value: '1', operator: 'exact', type: 'event' }],
    }),
    expected: [
      { status: 'new', data: [0, 0, 0, 0, 0, 0, 0, 0] },
      { status: 'returning', data: [1, 1, 0, 0, 0, 0, 0, 0] },
      { status: 'resurrecting', data: [0, 0, 0, 1, 0, 1, 0, 1] },
      { status: 'dormant', data: [0, 0, -1, 0, -1, 0, -1, 0] },
    ],
  },
  {
    name: 'test_lifecycle_trend_prop_filtering (series properties)',
    source: `${SRC}.test_lifecycle_trend_prop_filtering`,
    note: 'The second query of the test: the same event filter on the series instead of the query. See the note of '
      + 'the query-properties case about created_at.',
    persons: {
      p1: { properties: { name: 'p1' }, created_at: '2020-01-11T12:00:00Z' },
      p2: { properties: { name: 'p2' }, created_at: '2020-01-09T12:00:00Z' },
      p3: { properties: { name: 'p3' }, created_at: '2020-01-12T12:00:00Z' },
      p4: { properties: { name: 'p4' }, created_at: '2020-01-15T12:00:00Z' },
    },
    events: [...eventsOf('p1', P1_DAYS, '$pageview', { $number: 1 }), ...eventsOf('p2', P2_DAYS), ...eventsOf('p3', P3_DAYS), ...eventsOf('p4', P4_DAYS)],
    query: dayQuery('2020-01-12T00:00:00Z', '2020-01-19T00:00:00Z', {}, [
      { kind: 'EventsNode', event: '$pageview', properties: [{ key: '$number', value: '1', operator: 'exact', type: 'event' }] },
    ]),
    expected: [
      { status: 'new', data: [0, 0, 0, 0, 0, 0, 0, 0] },
      { status: 'returning', data: [1, 1, 0, 0, 0, 0, 0, 0] },
      { status: 'resurrecting', data: [0, 0, 0, 1, 0, 1, 0, 1] },
      { status: 'dormant', data: [0, 0, -1, 0, -1, 0, -1, 0] },
    ],
  },
  {
    name: 'test_lifecycle_trend_person_prop_filtering',
    source: `${SRC}.test_lifecycle_trend_person_prop_filtering`,
    note: 'Person property filter name = p1 on the series. PostHog creates the persons without freeze_time; as in '
      + 'test_lifecycle_trend_prop_filtering, that only changes the 11 Jan bucket, outside the range.',
    persons: {
      p1: { properties: { name: 'p1' }, created_at: '2020-01-11T12:00:00Z' },
      p2: { properties: { name: 'p2' }, created_at: '2020-01-09T12:00:00Z' },
      p3: { properties: { name: 'p3' }, created_at: '2020-01-12T12:00:00Z' },
      p4: { properties: { name: 'p4' }, created_at: '2020-01-15T12:00:00Z' },
    },
    events: [...eventsOf('p1', P1_DAYS, '$pageview', { $number: 1 }), ...eventsOf('p2', P2_DAYS), ...eventsOf('p3', P3_DAYS), ...eventsOf('p4', P4_DAYS)],
    query: dayQuery('2020-01-12T00:00:00Z', '2020-01-19T00:00:00Z', {}, [
      { kind: 'EventsNode', event: '$pageview', properties: [{ key: 'name', value: 'p1', operator: 'exact', type: 'person' }] },
    ]),
    expected: [
      { status: 'new', data: [0, 0, 0, 0, 0, 0, 0, 0] },
      { status: 'returning', data: [1, 1, 0, 0, 0, 0, 0, 0] },
      { status: 'resurrecting', data: [0, 0, 0, 1, 0, 1, 0, 1] },
      { status: 'dormant', data: [0, 0, -1, 0, -1, 0, -1, 0] },
    ],
  },
  {
    name: 'test_lifecycle_trends_distinct_id_repeat',
    source: `${SRC}.test_lifecycle_trends_distinct_id_repeat`,
    note: 'One person with distinct ids p1 and another_p1, created 12 Jan 12:00 (PostHog creates it with both ids). '
      + "Here p1's first $pageview creates the person and an $identify from p1 with $anon_distinct_id another_p1 at "
      + "the same instant (listed after it) joins another_p1 to it, so another_p1's 14 Jan event is p1's. The "
      + '$identify is not a $pageview and does not count.',
    persons: { p1: { created_at: '2020-01-12T12:00:00Z' } },
    events: [
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-12T12:00:00Z' },
      { distinct_id: 'p1', event: '$identify', timestamp: '2020-01-12T12:00:00Z', properties: { $anon_distinct_id: 'another_p1' } },
      { distinct_id: 'another_p1', event: '$pageview', timestamp: '2020-01-14T12:00:00Z' },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-15T12:00:00Z' },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-17T12:00:00Z' },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-19T12:00:00Z' },
    ],
    query: dayQuery('2020-01-12T00:00:00Z', '2020-01-19T00:00:00Z'),
    expected: [
      { status: 'new', data: [1, 0, 0, 0, 0, 0, 0, 0] },
      { status: 'returning', data: [0, 0, 0, 1, 0, 0, 0, 0] },
      { status: 'resurrecting', data: [0, 0, 1, 0, 0, 1, 0, 1] },
      { status: 'dormant', data: [0, -1, 0, 0, -1, 0, -1, 0] },
    ],
  },
  {
    name: 'test_lifecycle_trend_action',
    source: `${SRC}.test_lifecycle_trend_action`,
    note: "An action named '$pageview' with one step { event: '$pageview' }. The item's action object is "
      + "{ id: String(action id), name: '$pageview', type: 'actions', order: 0, math: 'total' } and the label "
      + "'<action name> - <status>' (not asserted by PostHog).",
    persons: standardPersons(),
    actions: [{ id: 9001, name: '$pageview', steps: [{ event: '$pageview' }] }],
    events: standardEvents(),
    query: dayQuery('2020-01-12T00:00:00Z', '2020-01-19T00:00:00Z', {}, [{ kind: 'ActionsNode', id: 9001 }]),
    expected: STANDARD_12_TO_19,
  },
  {
    name: 'test_lifecycle_trend_all_time',
    source: `${SRC}.test_lifecycle_trend_all_time`,
    note: "date_from 'all' = the earliest timestamp of the series' events (9 Jan 12:00, truncated to the day); no "
      + 'date_to = now (17 Jan 13:01:01) -> end of 17 Jan. So 9 buckets (9..17 Jan); events on/after 18 Jan are not '
      + 'read, so p1 (last active 17 Jan) has no dormant bucket in range.',
    persons: standardPersons(),
    events: standardEvents(),
    now: '2020-01-17T13:01:01Z',
    query: { kind: 'LifecycleQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: 'all' }, interval: 'day' },
    expected: [
      { status: 'new', data: [1, 0, 1, 1, 0, 0, 1, 0, 0] },
      { status: 'returning', data: [0, 0, 0, 1, 1, 0, 0, 0, 0] },
      { status: 'resurrecting', data: [0, 0, 0, 1, 0, 0, 1, 0, 1] },
      { status: 'dormant', data: [0, -1, 0, 0, -2, -1, 0, -2, 0] },
    ],
  },
  {
    name: 'test_lifecycle_trend_weeks_sunday',
    source: `${SRC}.test_lifecycle_trend_weeks_sunday`,
    note: 'Week interval, weeks start on Sunday. date_from 5 Feb (Wed) is snapped to its week (2 Feb); the week '
      + "before it (26 Jan) is read, so p1 (created 1 Feb, new in the 26 Jan week) is returning in the first bucket.",
    weekStartDay: 0,
    persons: {
      p1: { created_at: '2020-02-01T12:00:00Z' },
      p2: { created_at: '2020-02-11T12:00:00Z' },
      p3: { created_at: '2020-02-12T12:00:00Z' },
      p4: { created_at: '2020-02-27T12:00:00Z' },
    },
    events: [
      ...eventsOf('p1', ['2020-02-01T12:00:00Z', '2020-02-05T12:00:00Z', '2020-02-10T12:00:00Z', '2020-02-15T12:00:00Z', '2020-02-27T12:00:00Z', '2020-03-02T12:00:00Z']),
      ...eventsOf('p2', ['2020-02-11T12:00:00Z', '2020-02-18T12:00:00Z']),
      ...eventsOf('p3', ['2020-02-12T12:00:00Z']),
      ...eventsOf('p4', ['2020-02-27T12:00:00Z']),
    ],
    query: { kind: 'LifecycleQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '2020-02-05T00:00:00Z', date_to: '2020-03-09T00:00:00Z' }, interval: 'week' },
    expected: [
      { status: 'new', data: [0, 2, 0, 1, 0, 0], days: ['2020-02-02', '2020-02-09', '2020-02-16', '2020-02-23', '2020-03-01', '2020-03-08'] },
      { status: 'returning', data: [1, 1, 1, 0, 1, 0] },
      { status: 'resurrecting', data: [0, 0, 0, 1, 0, 0] },
      { status: 'dormant', data: [0, 0, -2, -1, -1, -1] },
    ],
  },
  {
    name: 'test_lifecycle_trend_weeks_monday',
    source: `${SRC}.test_lifecycle_trend_weeks_monday`,
    note: 'As test_lifecycle_trend_weeks_sunday with weeks starting on Monday: the same numbers, buckets 3 Feb .. 9 Mar.',
    weekStartDay: 1,
    persons: {
      p1: { created_at: '2020-02-01T12:00:00Z' },
      p2: { created_at: '2020-02-11T12:00:00Z' },
      p3: { created_at: '2020-02-12T12:00:00Z' },
      p4: { created_at: '2020-02-27T12:00:00Z' },
    },
    events: [
      ...eventsOf('p1', ['2020-02-01T12:00:00Z', '2020-02-05T12:00:00Z', '2020-02-10T12:00:00Z', '2020-02-15T12:00:00Z', '2020-02-27T12:00:00Z', '2020-03-02T12:00:00Z']),
      ...eventsOf('p2', ['2020-02-11T12:00:00Z', '2020-02-18T12:00:00Z']),
      ...eventsOf('p3', ['2020-02-12T12:00:00Z']),
      ...eventsOf('p4', ['2020-02-27T12:00:00Z']),
    ],
    query: { kind: 'LifecycleQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '2020-02-05T00:00:00Z', date_to: '2020-03-09T00:00:00Z' }, interval: 'week' },
    expected: [
      { status: 'new', data: [0, 2, 0, 1, 0, 0], days: ['2020-02-03', '2020-02-10', '2020-02-17', '2020-02-24', '2020-03-02', '2020-03-09'] },
      { status: 'returning', data: [1, 1, 1, 0, 1, 0] },
      { status: 'resurrecting', data: [0, 0, 0, 1, 0, 0] },
      { status: 'dormant', data: [0, 0, -2, -1, -1, -1] },
    ],
  },
  {
    name: 'test_lifecycle_trend_months',
    source: `${SRC}.test_lifecycle_trend_months`,
    note: "Month interval, Feb..Sep 2020 (8 buckets); January is read. p2 was created 9 Dec 2019 (its first event, "
      + 'outside the window), so its Feb activity is resurrecting, not new.',
    persons: {
      p1: { created_at: '2020-01-11T12:00:00Z' },
      p2: { created_at: '2019-12-09T12:00:00Z' },
      p3: { created_at: '2020-02-12T12:00:00Z' },
      p4: { created_at: '2020-05-15T12:00:00Z' },
    },
    events: [
      ...eventsOf('p1', ['2020-01-11T12:00:00Z', '2020-02-12T12:00:00Z', '2020-03-13T12:00:00Z', '2020-05-15T12:00:00Z', '2020-07-17T12:00:00Z', '2020-09-19T12:00:00Z']),
      ...eventsOf('p2', ['2019-12-09T12:00:00Z', '2020-02-12T12:00:00Z']),
      ...eventsOf('p3', ['2020-02-12T12:00:00Z']),
      ...eventsOf('p4', ['2020-05-15T12:00:00Z']),
    ],
    query: { kind: 'LifecycleQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '2020-02-01T00:00:00Z', date_to: '2020-09-01T00:00:00Z' }, interval: 'month' },
    expected: [
      { status: 'new', data: [1, 0, 0, 1, 0, 0, 0, 0] },
      { status: 'returning', data: [1, 1, 0, 0, 0, 0, 0, 0] },
      { status: 'resurrecting', data: [1, 0, 0, 1, 0, 1, 0, 1] },
      { status: 'dormant', data: [0, -2, -1, 0, -2, 0, -1, 0] },
    ],
  },
  {
    name: 'test_timezones (UTC)',
    source: `${SRC}.test_timezones`,
    note: "p1's first two events are 11 Jan 23:00 and 12 Jan 01:00 UTC; in UTC that gives the standard answer.",
    persons: { ...standardPersons(), p1: { created_at: '2020-01-11T23:00:00Z' } },
    events: [
      ...eventsOf('p1', ['2020-01-11T23:00:00Z', '2020-01-12T01:00:00Z', '2020-01-13T12:00:00Z', '2020-01-15T12:00:00Z', '2020-01-17T12:00:00Z', '2020-01-19T12:00:00Z']),
      ...eventsOf('p2', P2_DAYS),
      ...eventsOf('p3', P3_DAYS),
      ...eventsOf('p4', P4_DAYS),
    ],
    query: dayQuery('2020-01-12', '2020-01-19'),
    expected: STANDARD_12_TO_19,
  },
  {
    name: 'test_timezones (US/Pacific)',
    source: `${SRC}.test_timezones`,
    note: 'The same events in a US/Pacific project (PostHog switches the timezone after storing them; the timestamps '
      + "are UTC either way). Both of p1's first events fall on 11 Jan Pacific (new there, outside the range), so p1 "
      + "is dormant on 12 Jan and resurrecting on 13 Jan; p2's 9 Jan event is before the window.",
    timezone: 'US/Pacific',
    persons: { ...standardPersons(), p1: { created_at: '2020-01-11T23:00:00Z' } },
    events: [
      ...eventsOf('p1', ['2020-01-11T23:00:00Z', '2020-01-12T01:00:00Z', '2020-01-13T12:00:00Z', '2020-01-15T12:00:00Z', '2020-01-17T12:00:00Z', '2020-01-19T12:00:00Z']),
      ...eventsOf('p2', P2_DAYS),
      ...eventsOf('p3', P3_DAYS),
      ...eventsOf('p4', P4_DAYS),
    ],
    query: dayQuery('2020-01-12', '2020-01-19'),
    expected: [
      { status: 'new', data: [1, 0, 0, 1, 0, 0, 0, 0] },
      { status: 'returning', data: [0, 0, 0, 0, 0, 0, 0, 0] },
      { status: 'resurrecting', data: [1, 1, 0, 1, 0, 1, 0, 1] },
      { status: 'dormant', data: [-1, -2, -1, 0, -2, 0, -1, 0] },
    ],
  },
  {
    name: 'test_excludes_personless_events',
    source: `${SRC}.test_excludes_personless_events`,
    note: 'p3 and p4 send events with $process_person_profile: false; lifecycle drops every such event (property '
      + "!= 'false'). PostHog asserts only results[0] (new) and results[2] (resurrecting).",
    persons: {
      p1: { created_at: '2020-01-11T12:00:00Z' },
      p2: { created_at: '2020-01-11T12:00:00Z' },
    },
    events: [
      ...eventsOf('p1', ['2020-01-11T12:00:00Z', '2020-01-12T12:00:00Z', '2020-01-13T12:00:00Z', '2020-01-14T12:00:00Z']),
      ...eventsOf('p2', ['2020-01-11T12:00:00Z', '2020-01-12T12:00:00Z']),
      ...eventsOf('p3', ['2020-01-11T12:00:00Z', '2020-01-12T12:00:00Z', '2020-01-13T12:00:00Z', '2020-01-14T12:00:00Z'], '$pageview', { $process_person_profile: false }),
      ...eventsOf('p4', ['2020-01-11T12:00:00Z', '2020-01-12T12:00:00Z'], '$pageview', { $process_person_profile: false }),
    ],
    query: dayQuery('2020-01-11T00:00:00Z', '2020-01-14T00:00:00Z'),
    partial: true,
    expected: [
      { status: 'new', data: [2, 0, 0, 0] },
      { status: 'resurrecting', data: [0, 0, 0, 0] },
    ],
  },
  {
    name: 'test_dormant_on_dst',
    source: `${SRC}.test_dormant_on_dst`,
    note: 'US/Pacific; 2025-03-09 is the spring-forward day. date_from 2025-03-09T00:00:00Z is 8 Mar 16:00 Pacific, '
      + 'so the first bucket is 8 Mar; date_to 2025-03-12T00:00:00Z is 11 Mar 17:00 Pacific. The one event '
      + '(9 Mar 05:00 PDT) is new on 9 Mar and dormant on 10 Mar (one day later, not 23/25 hours off). PostHog '
      + 'asserts results[0] (new, with days) and results[3] (dormant).',
    timezone: 'US/Pacific',
    persons: { p1: { created_at: '2025-03-09T12:00:00Z' } },
    events: eventsOf('p1', ['2025-03-09T12:00:00Z']),
    query: dayQuery('2025-03-09T00:00:00Z', '2025-03-12T00:00:00Z'),
    partial: true,
    expected: [
      { status: 'new', data: [0, 1, 0, 0], days: ['2025-03-08', '2025-03-09', '2025-03-10', '2025-03-11'] },
      { status: 'dormant', data: [0, 0, -1, 0] },
    ],
  },
  {
    name: 'test_lifecycle_interval_boundary_filtering (week_interval_mid_week)',
    source: `${SRC}.test_lifecycle_interval_boundary_filtering`,
    note: 'Week interval, date_from 14 Jan (Tue) snaps to the Sunday week of 12 Jan; date_to 19 Jan is the week of '
      + '19 Jan. The week before (5 Jan) is read: p1 and p2 are returning in the 12 Jan week. PostHog freezes time '
      + 'at 2020-01-20T00:00:00Z; the dates are absolute, so it does not matter. The order of statuses is asserted.',
    persons: standardPersons(),
    events: standardEvents(),
    query: { kind: 'LifecycleQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '2020-01-14', date_to: '2020-01-19' }, interval: 'week' },
    expected: [
      { status: 'new', data: [2, 0], days: ['2020-01-12', '2020-01-19'] },
      { status: 'returning', data: [2, 1] },
      { status: 'resurrecting', data: [0, 0] },
      { status: 'dormant', data: [0, -3] },
    ],
  },
  {
    name: 'test_lifecycle_interval_boundary_filtering (month_interval_mid_month)',
    source: `${SRC}.test_lifecycle_interval_boundary_filtering`,
    note: 'Month interval, date_from 14 Jan snaps to 1 Jan: one bucket, every person new in it (all created in Jan). '
      + "The dormant February bucket is outside the range. PostHog's frozen time (2020-01-20) does not matter.",
    persons: standardPersons(),
    events: standardEvents(),
    query: { kind: 'LifecycleQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '2020-01-14', date_to: '2020-01-19' }, interval: 'month' },
    expected: [
      { status: 'new', data: [4], days: ['2020-01-01'] },
      { status: 'returning', data: [0] },
      { status: 'resurrecting', data: [0] },
      { status: 'dormant', data: [0] },
    ],
  },
  {
    name: 'test_lifecycle_query_group_0',
    source: `${SRC_GROUPS}.test_lifecycle_query_group_0`,
    note: 'Aggregated by group type 0 (organization): one actor, org:5, active on 9, 11, 12, 13, 15, 17, 18, 19 Jan. '
      + "PostHog creates org:5 at 2020-01-09T12:00:00Z; here a $groupidentify at that time creates it, and the "
      + "group's created_at (not a person's) decides new. Both group types are mapped (organization 0, company 1) "
      + 'so the $group_1 keys land in their own column, as in PostHog.',
    groupTypes: [{ index: 0, name: 'organization' }, { index: 1, name: 'company' }],
    persons: standardPersons(),
    events: [
      groupIdentify('organization', 'org:5', 'org 5', '2020-01-09T12:00:00Z'),
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-11T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:1' } },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-12T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:2' } },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-13T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:2' } },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-15T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:2' } },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-17T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:2' } },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-19T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:1' } },
      { distinct_id: 'p2', event: '$pageview', timestamp: '2020-01-09T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:1' } },
      { distinct_id: 'p2', event: '$pageview', timestamp: '2020-01-12T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:1' } },
      { distinct_id: 'p3', event: '$pageview', timestamp: '2020-01-12T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:2' } },
      { distinct_id: 'p4', event: '$pageview', timestamp: '2020-01-15T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:1' } },
      { distinct_id: 'p4', event: '$pageview', timestamp: '2020-01-18T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:1' } },
    ],
    query: { ...dayQuery('2020-01-09', '2020-01-19'), aggregation_group_type_index: 0 },
    expected: [
      fullItem('new', [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
      fullItem('returning', [0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1]),
      fullItem('resurrecting', [0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0]),
      fullItem('dormant', [0, -1, 0, 0, 0, -1, 0, -1, 0, 0, 0]),
    ],
  },
  {
    name: 'test_lifecycle_query_group_1',
    source: `${SRC_GROUPS}.test_lifecycle_query_group_1`,
    note: 'Aggregated by group type 1 (company). company:1 is created 9 Jan 12:00 and company:2 12 Jan 12:00 '
      + '($groupidentify events at those times), each equal to its first event, so each is new once. PostHog maps '
      + 'only company (index 1) in this test; organization is mapped first here so that company gets index 1.',
    groupTypes: [{ index: 0, name: 'organization' }, { index: 1, name: 'company' }],
    persons: { ...standardPersons(), p4: { created_at: '2020-01-13T12:00:00Z' } },
    events: [
      groupIdentify('company', 'company:1', 'company 1', '2020-01-09T12:00:00Z'),
      groupIdentify('company', 'company:2', 'company 2', '2020-01-12T12:00:00Z'),
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-11T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:1' } },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-12T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:2' } },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-13T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:2' } },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-15T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:2' } },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-17T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:2' } },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-19T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:1' } },
      { distinct_id: 'p2', event: '$pageview', timestamp: '2020-01-09T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:1' } },
      { distinct_id: 'p2', event: '$pageview', timestamp: '2020-01-12T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:1' } },
      { distinct_id: 'p3', event: '$pageview', timestamp: '2020-01-12T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:2' } },
      { distinct_id: 'p4', event: '$pageview', timestamp: '2020-01-13T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:1' } },
      { distinct_id: 'p4', event: '$pageview', timestamp: '2020-01-16T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:2' } },
      { distinct_id: 'p4', event: '$pageview', timestamp: '2020-01-18T12:00:00Z', properties: { $group_0: 'org:5', $group_1: 'company:1' } },
    ],
    query: { ...dayQuery('2020-01-09', '2020-01-19'), aggregation_group_type_index: 1 },
    expected: [
      fullItem('new', [1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]),
      fullItem('returning', [0, 0, 0, 1, 2, 0, 0, 1, 1, 0, 1]),
      fullItem('resurrecting', [0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0]),
      fullItem('dormant', [0, -1, 0, 0, 0, -2, 0, 0, 0, -1, 0]),
    ],
  },
  {
    name: 'test_lifecycle_query_group_with_different_created_at',
    source: `${SRC_GROUPS}.test_lifecycle_query_group_with_different_created_at`,
    note: "The group's created_at decides new, not the person's: org:early is created 5 Jan (before its first event, "
      + 'so never new), org:new 12 Jan 12:00 (its first event is 12 Jan 13:00: new that day). PostHog asserts only '
      + 'the new item.',
    groupTypes: [{ index: 0, name: 'organization' }],
    persons: { p1: { created_at: '2020-01-11T12:00:00Z' }, p2: { created_at: '2020-01-12T13:00:00Z' } },
    events: [
      groupIdentify('organization', 'org:early', 'early org', '2020-01-05T12:00:00Z'),
      groupIdentify('organization', 'org:new', 'new org', '2020-01-12T12:00:00Z'),
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-11T12:00:00Z', properties: { $group_0: 'org:early' } },
      { distinct_id: 'p1', event: '$pageview', timestamp: '2020-01-13T12:00:00Z', properties: { $group_0: 'org:early' } },
      { distinct_id: 'p2', event: '$pageview', timestamp: '2020-01-12T13:00:00Z', properties: { $group_0: 'org:new' } },
      { distinct_id: 'p2', event: '$pageview', timestamp: '2020-01-14T12:00:00Z', properties: { $group_0: 'org:new' } },
    ],
    query: { ...dayQuery('2020-01-09', '2020-01-19'), aggregation_group_type_index: 0 },
    partial: true,
    expected: [{ status: 'new', data: [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0] }],
  },
  {
    name: 'test_lifecycle_edge_cases',
    source: `${SRC_LEGACY}.test_lifecycle_edge_cases`,
    note: 'person1 is created 11 Jan 12:00, a day before its first $pageview (12 Jan): added as a '
      + "'$create_person_marker' event at 11 Jan 12:00 (not a $pageview, so not counted). The first activity (12 Jan) "
      + 'is then resurrecting, not new (the first active bucket is never returning either). Legacy filter '
      + 'date_from/date_to written as a LifecycleQuery dateRange.',
    persons: { person1: { created_at: '2020-01-11T12:00:00Z' } },
    events: [
      { distinct_id: 'person1', event: '$create_person_marker', timestamp: '2020-01-11T12:00:00Z' },
      ...eventsOf('person1', ['2020-01-12T12:00:00Z', '2020-01-13T12:00:00Z', '2020-01-15T12:00:00Z', '2020-01-16T12:00:00Z']),
    ],
    query: dayQuery('2020-01-11T00:00:00Z', '2020-01-18T00:00:00Z'),
    expected: [
      { status: 'new', data: [0, 0, 0, 0, 0, 0, 0, 0] },
      { status: 'returning', data: [0, 0, 1, 0, 0, 1, 0, 0] },
      { status: 'resurrecting', data: [0, 1, 0, 0, 1, 0, 0, 0] },
      { status: 'dormant', data: [0, 0, 0, -1, 0, 0, -1, 0] },
    ],
  },
  {
    name: 'test_interval_dates_days',
    source: `${SRC_LEGACY}.test_interval_dates_days`,
    note: "Frozen at 2021-05-05T12:00:00Z; person1 (created 2019-01-01 12:00: '$create_person_marker' event) views a "
      + "page daily at 12:00 for the 20 days up to now. date_from '-7d' = 28 Apr 00:00: 8 buckets, all returning.",
    persons: { person1: { created_at: '2019-01-01T12:00:00Z' } },
    events: [{ distinct_id: 'person1', event: '$create_person_marker', timestamp: '2019-01-01T12:00:00Z' }, ...dailyEvents('person1', '2021-05-05T12:00:00Z', 20)],
    now: '2021-05-05T12:00:00Z',
    query: { kind: 'LifecycleQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '-7d' }, interval: 'day' },
    expected: [
      { status: 'new', data: [0, 0, 0, 0, 0, 0, 0, 0], days: ['2021-04-28', '2021-04-29', '2021-04-30', '2021-05-01', '2021-05-02', '2021-05-03', '2021-05-04', '2021-05-05'] },
      { status: 'returning', data: [1, 1, 1, 1, 1, 1, 1, 1] },
      { status: 'resurrecting', data: [0, 0, 0, 0, 0, 0, 0, 0] },
      { status: 'dormant', data: [0, 0, 0, 0, 0, 0, 0, 0] },
    ],
  },
  {
    name: 'test_interval_dates_weeks',
    source: `${SRC_LEGACY}.test_interval_dates_weeks`,
    note: "Frozen at 2021-05-06T12:00:00Z (Thu); 50 daily $pageviews up to now; date_from '-30d' = 6 Apr. The legacy "
      + 'test asserts Monday-start weeks (5 Apr .. 3 May), so the project uses week_start_day 1 here (with Sunday '
      + 'weeks the buckets would be 4 Apr .. 2 May and the numbers the same). person1 created 2019-01-01 12:00 '
      + "('$create_person_marker').",
    weekStartDay: 1,
    persons: { person1: { created_at: '2019-01-01T12:00:00Z' } },
    events: [{ distinct_id: 'person1', event: '$create_person_marker', timestamp: '2019-01-01T12:00:00Z' }, ...dailyEvents('person1', '2021-05-06T12:00:00Z', 50)],
    now: '2021-05-06T12:00:00Z',
    query: { kind: 'LifecycleQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '-30d' }, interval: 'week' },
    expected: [
      { status: 'new', data: [0, 0, 0, 0, 0], days: ['2021-04-05', '2021-04-12', '2021-04-19', '2021-04-26', '2021-05-03'] },
      { status: 'returning', data: [1, 1, 1, 1, 1] },
      { status: 'resurrecting', data: [0, 0, 0, 0, 0] },
      { status: 'dormant', data: [0, 0, 0, 0, 0] },
    ],
  },
  {
    name: 'test_interval_dates_months',
    source: `${SRC_LEGACY}.test_interval_dates_months`,
    note: "Frozen at 2021-05-05T12:00:00Z; 120 daily $pageviews up to now (from 6 Jan 2021); date_from '-90d' = 4 Feb "
      + '-> February: 4 month buckets, all returning (January is read and active). person1 created 2019-01-01 12:00 '
      + "('$create_person_marker').",
    persons: { person1: { created_at: '2019-01-01T12:00:00Z' } },
    events: [{ distinct_id: 'person1', event: '$create_person_marker', timestamp: '2019-01-01T12:00:00Z' }, ...dailyEvents('person1', '2021-05-05T12:00:00Z', 120)],
    now: '2021-05-05T12:00:00Z',
    query: { kind: 'LifecycleQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '-90d' }, interval: 'month' },
    expected: [
      { status: 'new', data: [0, 0, 0, 0], days: ['2021-02-01', '2021-03-01', '2021-04-01', '2021-05-01'] },
      { status: 'returning', data: [1, 1, 1, 1] },
      { status: 'resurrecting', data: [0, 0, 0, 0] },
      { status: 'dormant', data: [0, 0, 0, 0] },
    ],
  },
];
