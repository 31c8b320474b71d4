// PostHog's PathsQuery test cases, ported as data (events, query, expected edges) from
//   PostHog/posthog @ 141ae76ab9f7c713f863f5f212c95b19e9c7eea4
//     posthog/hogql_queries/insights/paths/test/test_paths_query_runner_ee.py (TestClickhousePaths)
//   PostHog/posthog @ 5d8ab12b3fd6d115734afd631973f7b5cca66d33
//     posthog/hogql_queries/insights/paths/test/test_paths_query_runner.py (TestPaths)
// and, for what the HogQL test files no longer cover (groupings with duplicates, path cleaning, edge weights,
// funnel paths), from the legacy ClickHouse paths tests:
//   PostHog/posthog @ 01fd82884c443741d7cc3293d8d1427fd2fbeb50
//     ee/clickhouse/queries/test/test_paths.py (TestClickhousePaths)
// The rules the numbers follow are those of the HogQL runner,
//   posthog/hogql_queries/insights/paths/paths_query_runner.py @ 13c249c99dfef943045fb7cde3705d38406c4341.
// See README.md next to this file for what was skipped and why. Only facts are ported: the code here is ours.
//
// Conventions
// - Timestamps are UTC ('Z'). PostHog's tests write naive 'YYYY-MM-DD hh:mm:ss' strings in a UTC project.
// - Tests that create events without a timestamp (PostHog stamps them with the wall clock, in creation order, a
//   few milliseconds apart) get timestamps one second apart in creation order, from 2023-05-23T10:00:00Z, and
//   `now` 2023-05-23T11:00:00Z, so the default date range (the last 7 days and today) holds them.
// - Query dates (dateRange) are kept exactly as PostHog sends them: naive strings, read in the project timezone.
// - now: the instant the query runs at, given only where the result depends on it (no dateRange, or a relative
//   one). A case without `now` has absolute dates whose result is the same for any now after its events.
// - persons: distinct id -> person properties. PostHog's persons with two distinct ids (person_2a + person_2b,
//   person_5a + person_5b) are written with the first id only: the events and their order are unchanged, and
//   an $identify event to join them would itself be a path item (queries without includeEventTypes take every
//   event). Each such case says so.
// - projectSettings: project settings PostHog's test sets on the team before querying (here only
//   path_cleaning_filters: [{ alias, regex }]), to set through the Projects API before the query runs.
// - Legacy tests (ee/clickhouse/queries/test/test_paths.py) send old-style filters. Their filter is written as
//   the PathsQuery PostHog's filter_to_query makes of it: include_event_types -> includeEventTypes, start_point
//   -> startPoint, end_point -> endPoint, step_limit -> stepLimit, path_groupings -> pathGroupings,
//   exclude_events -> excludeEvents, path_replacements -> pathReplacements, local_path_cleaning_filters ->
//   localPathCleaningFilters, edge_limit -> edgeLimit, min_edge_weight -> minEdgeWeight, max_edge_weight ->
//   maxEdgeWeight, date_from/date_to -> dateRange, and funnel_paths + the funnel filter -> funnelPathsFilter
//   { funnelPathType, funnelStep, funnelSource: FunnelsQuery }. Only the keys PostHog sets are written, so
//   defaults (stepLimit 5, edgeLimit 50, every event type) stay defaults.
// - expected: without `partial`, the complete `results` list in PostHog's order (value desc, then source, then
//   target, byte-wise). average_conversion_time (milliseconds) is given only where PostHog's test asserts it.
//   Where PostHog asserts less than the whole list (only a count, only the first edges, only a substring) and
//   the rest follows from the runner's rules, the whole list is still given and the note says which part
//   PostHog asserts.
// - partial: the list is not the whole result. Each listed edge must be in the result (matched by source and
//   target) with that value (and average_conversion_time when given), in this relative order.
//
// What a result item looks like (paths_query_runner.py _calculate), one per edge:
//   { source: '1_/', target: '2_/pricing', value: 2, average_conversion_time: 420000.0 }
//   source/target = `${position in the session path, 1-based}_${path item}`; value = number of session paths
//   with that transition; average_conversion_time = mean seconds between the two events x 1000.

import type { PortedCase } from '../../helpers/posthog-cases.js';

type CaseEvent = PortedCase['events'][number];

export interface PathsEdge {
  source: string;
  target: string;
  value: number;
  /** Milliseconds; given only where PostHog's test asserts it. */
  average_conversion_time?: number;
}

/** The project set-up, events and query (helpers/posthog-cases.ts), and what PostHog asserts. */
export interface PathsCase extends PortedCase {
  /** PostHog's test name (with a suffix when one test gives several cases). */
  name: string;
  /** PostHog file path + test class and function. */
  source: string;
  /** What was adapted, and what the case is about. */
  note?: string;
  /** Project settings to set through the Projects API before the query (path_cleaning_filters). */
  projectSettings?: Record<string, unknown>;
  /** A PathsQuery node in PostHog's schema. */
  query: Record<string, unknown>;
  /** The result edges in PostHog's order (see the conventions above). */
  expected: PathsEdge[];
  /** PostHog asserts only some edges; `expected` lists those (see the conventions above). */
  partial?: boolean;
}

export const POSTHOG_PATHS_TESTS = {
  repo: 'PostHog/posthog',
  commit: '141ae76ab9f7c713f863f5f212c95b19e9c7eea4',
  path: 'posthog/hogql_queries/insights/paths/test/test_paths_query_runner_ee.py',
} as const;

/** Every file the cases come from (the first is POSTHOG_PATHS_TESTS). */
export const POSTHOG_PATHS_TEST_FILES = [
  POSTHOG_PATHS_TESTS,
  { repo: 'PostHog/posthog', commit: '5d8ab12b3fd6d115734afd631973f7b5cca66d33', path: 'posthog/hogql_queries/insights/paths/test/test_paths_query_runner.py' },
  { repo: 'PostHog/posthog', commit: '01fd82884c443741d7cc3293d8d1427fd2fbeb50', path: 'ee/clickhouse/queries/test/test_paths.py' },
] as const;

const EE = 'posthog/hogql_queries/insights/paths/test/test_paths_query_runner_ee.py::TestClickhousePaths';
const BASIC = 'posthog/hogql_queries/insights/paths/test/test_paths_query_runner.py::TestPaths';
const LEGACY = 'ee/clickhouse/queries/test/test_paths.py::TestClickhousePaths';

const ONE_MINUTE = 60_000; // milliseconds, as PostHog's tests write it

// ---- event helpers (data only) ----

function pageview(distinct_id: string, url: string, timestamp: string, properties: Record<string, unknown> = {}): CaseEvent {
  return { distinct_id, event: '$pageview', timestamp, properties: { $current_url: url, ...properties } };
}

function screen(distinct_id: string, name: string, timestamp: string): CaseEvent {
  return { distinct_id, event: '$screen', timestamp, properties: { $screen_name: name } };
}

function custom(distinct_id: string, event: string, timestamp: string): CaseEvent {
  return { distinct_id, event, timestamp };
}

/** Events PostHog creates without a timestamp: one second apart in creation order (see the conventions). */
const UNSTAMPED_NOW = '2023-05-23T11:00:00Z';
function unstamped(events: Omit<CaseEvent, 'timestamp'>[]): CaseEvent[] {
  const base = Date.parse('2023-05-23T10:00:00Z');
  return events.map((e, i) => ({ ...e, timestamp: new Date(base + i * 1000).toISOString().replace('.000Z', 'Z') }));
}

/** PostHog's _create_sample_data_multiple_dropoffs (ee tests), without groups: 35 users on 2021-05-01. */
function multipleDropoffs(): CaseEvent[] {
  const events: CaseEvent[] = [];
  const at = (hms: string) => `2021-05-01T${hms}Z`;
  for (let i = 0; i < 5; i++) {
    const u = `user_${i}`;
    events.push(
      custom(u, 'step one', at('00:00:00')),
      custom(u, 'between_step_1_a', at('00:01:00')),
      custom(u, 'between_step_1_b', at('00:02:00')),
      custom(u, 'between_step_1_c', at('00:03:00')),
      custom(u, 'step two', at('00:04:00')),
      custom(u, 'step three', at('00:05:00')),
    );
  }
  for (let i = 5; i < 15; i++) {
    const u = `user_${i}`;
    events.push(
      custom(u, 'step one', at('00:00:00')),
      custom(u, 'between_step_1_a', at('00:01:00')),
      custom(u, 'between_step_1_b', at('00:02:00')),
      custom(u, 'step two', at('00:03:00')),
      custom(u, 'between_step_2_a', at('00:04:20')),
      custom(u, 'between_step_2_b', at('00:05:40')),
    );
  }
  for (let i = 15; i < 35; i++) {
    const u = `user_${i}`;
    events.push(
      custom(u, 'step one', at('00:00:00')),
      custom(u, 'step dropoff1', at('00:01:00')),
      custom(u, 'step dropoff2', at('00:02:00')),
    );
    if (i % 2 === 0) events.push(custom(u, 'step branch', at('00:03:00')));
  }
  return events;
}

/** The three-step funnel of the legacy funnel-path tests, as filter_to_query writes their funnel filter. */
const LEGACY_FUNNEL_SOURCE = {
  kind: 'FunnelsQuery',
  series: [
    { kind: 'EventsNode', event: 'step one' },
    { kind: 'EventsNode', event: 'step two' },
    { kind: 'EventsNode', event: 'step three' },
  ],
  dateRange: { date_from: '2021-05-01 00:00:00', date_to: '2021-05-07 00:00:00' },
  interval: 'day',
  funnelsFilter: { funnelWindowInterval: 7, funnelWindowIntervalUnit: 'day' },
};

const LEGACY_RANGE = { date_from: '2021-05-01 00:00:00', date_to: '2021-05-07 00:00:00' };

// ---- shared event sets ----

/** test_current_url_paths_and_logic: person_2a/person_2b written as person_2a. */
const CURRENT_URL_EVENTS: CaseEvent[] = [
  pageview('fake', '/', '2012-01-01T03:21:34Z'),
  pageview('fake', '/about', '2012-01-01T03:21:34Z'),
  pageview('person_1', '/', '2012-01-14T03:21:34Z'),
  pageview('person_1', '/about', '2012-01-14T03:28:34Z'),
  pageview('person_2a', '/', '2012-01-14T03:21:34Z'),
  pageview('person_2a', '/pricing', '2012-01-14T03:28:34Z'),
  pageview('person_2a', '/about', '2012-01-14T03:29:34Z'),
  pageview('person_3', '/pricing', '2012-01-14T03:21:34Z'),
  pageview('person_3', '/', '2012-01-14T03:28:34Z'),
  pageview('person_4', '/', '2012-01-14T03:21:34Z'),
  pageview('person_4', '/pricing', '2012-01-14T03:28:34Z'),
];

/** test_paths_start: person_5a/person_5b written as person_5a; PostHog gives these events no timestamp. */
const PATHS_START_EVENTS: CaseEvent[] = unstamped([
  { distinct_id: 'person_1', event: '$pageview', properties: { $current_url: '/' } },
  { distinct_id: 'person_1', event: '$pageview', properties: { $current_url: '/about/' } },
  { distinct_id: 'person_2', event: '$pageview', properties: { $current_url: '/' } },
  { distinct_id: 'person_2', event: '$pageview', properties: { $current_url: '/pricing/' } },
  { distinct_id: 'person_2', event: '$pageview', properties: { $current_url: '/about' } },
  { distinct_id: 'person_3', event: '$pageview', properties: { $current_url: '/pricing' } },
  { distinct_id: 'person_3', event: '$pageview', properties: { $current_url: '/' } },
  { distinct_id: 'person_3', event: '$pageview', properties: { $current_url: '/about/' } },
  { distinct_id: 'person_4', event: '$pageview', properties: { $current_url: '/' } },
  { distinct_id: 'person_4', event: '$pageview', properties: { $current_url: '/pricing/' } },
  { distinct_id: 'person_5a', event: '$pageview', properties: { $current_url: '/pricing' } },
  { distinct_id: 'person_5a', event: '$pageview', properties: { $current_url: '/about' } },
  { distinct_id: 'person_5a', event: '$pageview', properties: { $current_url: '/pricing/' } },
  { distinct_id: 'person_5a', event: '$pageview', properties: { $current_url: '/help' } },
]);

/** test_step_limit: one person, four pageviews on 2012-01-01. */
const STEP_LIMIT_EVENTS: CaseEvent[] = [
  pageview('fake', '/1', '2012-01-01T03:21:34Z'),
  pageview('fake', '/2', '2012-01-01T03:22:34Z'),
  pageview('fake', '/3', '2012-01-01T03:24:34Z'),
  pageview('fake', '/4', '2012-01-01T03:27:34Z'),
];

/** test_end: three people; some URLs with a trailing slash. */
const END_EVENTS: CaseEvent[] = [
  pageview('person_1', '/1', '2021-05-01T00:01:00Z'),
  pageview('person_1', '/2', '2021-05-01T00:02:00Z'),
  pageview('person_1', '/3/', '2021-05-01T00:03:00Z'),
  pageview('person_1', '/4/', '2021-05-01T00:04:00Z'),
  pageview('person_1', '/5', '2021-05-01T00:05:00Z'),
  pageview('person_1', '/about', '2021-05-01T00:06:00Z'),
  pageview('person_1', '/after/', '2021-05-01T00:07:00Z'),
  pageview('person_2', '/5', '2021-05-01T00:01:00Z'),
  pageview('person_2', '/about', '2021-05-01T00:02:00Z'),
  pageview('person_3', '/3/', '2021-05-01T00:01:00Z'),
  pageview('person_3', '/4', '2021-05-01T00:02:00Z'),
  pageview('person_3', '/about/', '2021-05-01T00:03:00Z'),
  pageview('person_3', '/after', '2021-05-01T00:04:00Z'),
];

const END_EXPECTED: PathsEdge[] = [
  { source: '1_/2', target: '2_/3', value: 1, average_conversion_time: 60000 },
  { source: '1_/3', target: '2_/4', value: 1, average_conversion_time: 60000 },
  { source: '1_/5', target: '2_/about', value: 1, average_conversion_time: 60000 },
  { source: '2_/3', target: '3_/4', value: 1, average_conversion_time: 60000 },
  { source: '2_/4', target: '3_/about', value: 1, average_conversion_time: 60000 },
  { source: '3_/4', target: '4_/5', value: 1, average_conversion_time: 60000 },
  { source: '4_/5', target: '5_/about', value: 1, average_conversion_time: 60000 },
];

/** test_event_inclusion_exclusion_filters: p1 pageviews, p2 screens, p3 custom events named like URLs. */
const INCLUSION_EVENTS: CaseEvent[] = [
  pageview('p1', '/1', '2012-01-01T03:21:34Z'),
  pageview('p1', '/2/', '2012-01-01T03:22:34Z'),
  pageview('p1', '/3', '2012-01-01T03:24:34Z'),
  screen('p2', '/screen1', '2012-01-01T03:21:34Z'),
  screen('p2', '/screen2', '2012-01-01T03:22:34Z'),
  screen('p2', '/screen3', '2012-01-01T03:24:34Z'),
  custom('p3', '/custom1', '2012-01-01T03:21:34Z'),
  custom('p3', '/custom2', '2012-01-01T03:22:34Z'),
  custom('p3', '/custom3', '2012-01-01T03:24:34Z'),
];

/** test_event_exclusion_filters_with_wildcard_groups / test_wildcard_groups_across_people. */
const WILDCARD_EVENTS: CaseEvent[] = [
  pageview('p1', '/1', '2012-01-01T03:21:34Z'),
  pageview('p1', '/2/bar/1/foo', '2012-01-01T03:22:34Z'),
  pageview('p1', '/3', '2012-01-01T03:24:34Z'),
  pageview('p2', '/1', '2012-01-01T03:21:34Z'),
  pageview('p2', '/bar/2/foo', '2012-01-01T03:22:34Z'),
  pageview('p2', '/3', '2012-01-01T03:24:34Z'),
  pageview('p3', '/1', '2012-01-01T03:21:34Z'),
  pageview('p3', '/bar/33/foo', '2012-01-01T03:22:34Z'),
  pageview('p3', '/3', '2012-01-01T03:24:34Z'),
];

/** test_event_inclusion_exclusion_filters_across_single_person: one person, all three kinds of event. */
const SINGLE_PERSON_EVENTS: CaseEvent[] = [
  pageview('p1', '/1', '2012-01-01T03:21:34Z'),
  pageview('p1', '/2', '2012-01-01T03:22:34Z'),
  pageview('p1', '/3', '2012-01-01T03:24:34Z'),
  screen('p1', '/screen1', '2012-01-01T03:25:34Z'),
  screen('p1', '/screen2', '2012-01-01T03:26:34Z'),
  screen('p1', '/screen3', '2012-01-01T03:28:34Z'),
  custom('p1', '/custom1', '2012-01-01T03:29:34Z'),
  custom('p1', '/custom2', '2012-01-01T03:30:34Z'),
  custom('p1', '/custom3', '2012-01-01T03:32:34Z'),
];

/** test_start_and_end. */
const START_AND_END_EVENTS: CaseEvent[] = [
  pageview('person_1', '/1', '2021-05-01T00:01:00Z'),
  pageview('person_1', '/2', '2021-05-01T00:02:00Z'),
  pageview('person_1', '/3', '2021-05-01T00:03:00Z'),
  pageview('person_1', '/4', '2021-05-01T00:04:00Z'),
  pageview('person_1', '/5', '2021-05-01T00:05:00Z'),
  pageview('person_1', '/about', '2021-05-01T00:06:00Z'),
  pageview('person_1', '/after', '2021-05-01T00:07:00Z'),
  pageview('person_2', '/5', '2021-05-01T00:01:00Z'),
  pageview('person_2', '/about', '2021-05-01T00:02:00Z'),
  pageview('person_3', '/3', '2021-05-01T00:01:00Z'),
  pageview('person_3', '/4', '2021-05-01T00:02:00Z'),
  pageview('person_3', '/about', '2021-05-01T00:03:00Z'),
  pageview('person_3', '/after', '2021-05-01T00:04:00Z'),
];

/** test_path_by_grouping_replacement_multiple (legacy). */
const REPLACEMENT_MULTIPLE_EVENTS: CaseEvent[] = [1, 2, 3].flatMap((n) => [
  pageview(`user_${n}`, 'test.com/step1', '2021-05-01T00:00:00Z'),
  pageview(`user_${n}`, 'test.com/step2/5', '2021-05-01T00:01:00Z'),
  pageview(`user_${n}`, `test.com/step2/5?key=value${n}`, '2021-05-01T00:02:00Z'),
]);

const REPLACEMENT_MULTIPLE_EXPECTED: PathsEdge[] = [
  { source: '1_test.com/step1', target: '2_test.com/step2/<id>', value: 3, average_conversion_time: 60000 },
  { source: '2_test.com/step2/<id>', target: '3_test.com/step2/<id><param>', value: 3, average_conversion_time: 60000 },
];

const EVIL_STRING = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!'; // 42 × 'a', then '!'

export const posthogPathsCases: PathsCase[] = [
  // ---------------------------------------------------------------- test_paths_query_runner.py (TestPaths)
  {
    name: 'test_current_url_paths_and_logic',
    source: `${BASIC}.test_current_url_paths_and_logic`,
    note: "The first query of the test (no dateRange, so the last 7 days and today before the frozen now). "
      + "'fake' (two events at one instant on 2012-01-01) is outside that range. person_2a and person_2b are one "
      + 'person in PostHog; written as person_2a. PostHog asserts the four edges by position (source, target, '
      + 'value) and, for the same data with date_from 2012-01-08, that there are exactly four. Its later '
      + 'sub-queries (other date ranges, filterTestAccounts) are not ported (README).',
    now: '2012-01-15T03:21:34Z',
    persons: { person_1: { email: 'test@posthog.com' } },
    events: CURRENT_URL_EVENTS,
    query: { kind: 'PathsQuery', pathsFilter: {} },
    expected: [
      { source: '1_/', target: '2_/pricing', value: 2 },
      { source: '1_/', target: '2_/about', value: 1 },
      { source: '1_/pricing', target: '2_/', value: 1 },
      { source: '2_/pricing', target: '3_/about', value: 1 },
    ],
  },
  {
    name: 'test_custom_event_paths',
    source: `${BASIC}.test_custom_event_paths`,
    note: "custom_event keeps events whose name does not start with '$' (person_1's $pageview is dropped); the "
      + 'item is the event name. PostHog gives the events no timestamp (see conventions). PostHog asserts the '
      + 'four edges by position; there is no other edge.',
    now: UNSTAMPED_NOW,
    events: unstamped([
      { distinct_id: 'person_1', event: 'custom_event_1' },
      { distinct_id: 'person_1', event: 'custom_event_3' },
      { distinct_id: 'person_1', event: '$pageview', properties: { $current_url: '/' } },
      { distinct_id: 'person_2', event: 'custom_event_1' },
      { distinct_id: 'person_2', event: 'custom_event_2' },
      { distinct_id: 'person_2', event: 'custom_event_3' },
      { distinct_id: 'person_3', event: 'custom_event_2' },
      { distinct_id: 'person_3', event: 'custom_event_1' },
      { distinct_id: 'person_4', event: 'custom_event_1' },
      { distinct_id: 'person_4', event: 'custom_event_2' },
    ]),
    query: { kind: 'PathsQuery', pathsFilter: { includeEventTypes: ['custom_event'] } },
    expected: [
      { source: '1_custom_event_1', target: '2_custom_event_2', value: 2 },
      { source: '1_custom_event_1', target: '2_custom_event_3', value: 1 },
      { source: '1_custom_event_2', target: '2_custom_event_1', value: 1 },
      { source: '2_custom_event_2', target: '3_custom_event_3', value: 1 },
    ],
  },
  {
    name: 'test_screen_paths',
    source: `${BASIC}.test_screen_paths`,
    note: "$screen items are properties.$screen_name (no trailing-slash handling for screens). person_2a and "
      + 'person_2b are one person in PostHog; written as person_2a. PostHog gives the events no timestamp (see '
      + 'conventions). PostHog asserts the four edges by position; there is no other edge.',
    now: UNSTAMPED_NOW,
    events: unstamped([
      { distinct_id: 'person_1', event: '$screen', properties: { $screen_name: '/' } },
      { distinct_id: 'person_1', event: '$screen', properties: { $screen_name: '/about' } },
      { distinct_id: 'person_2a', event: '$screen', properties: { $screen_name: '/' } },
      { distinct_id: 'person_2a', event: '$screen', properties: { $screen_name: '/pricing' } },
      { distinct_id: 'person_2a', event: '$screen', properties: { $screen_name: '/about' } },
      { distinct_id: 'person_3', event: '$screen', properties: { $screen_name: '/pricing' } },
      { distinct_id: 'person_3', event: '$screen', properties: { $screen_name: '/' } },
      { distinct_id: 'person_4', event: '$screen', properties: { $screen_name: '/' } },
      { distinct_id: 'person_4', event: '$screen', properties: { $screen_name: '/pricing' } },
    ]),
    query: { kind: 'PathsQuery', pathsFilter: { includeEventTypes: ['$screen'] } },
    expected: [
      { source: '1_/', target: '2_/pricing', value: 2 },
      { source: '1_/', target: '2_/about', value: 1 },
      { source: '1_/pricing', target: '2_/', value: 1 },
      { source: '2_/pricing', target: '3_/about', value: 1 },
    ],
  },
  {
    name: 'test_paths_properties_filter',
    source: `${BASIC}.test_paths_properties_filter`,
    note: 'An event property filter ($browser = Chrome) keeps only person_1 and person_2 events. PostHog gives '
      + 'the events no timestamp (see conventions). PostHog asserts the three edges by position; there is no '
      + 'other edge.',
    now: UNSTAMPED_NOW,
    events: unstamped([
      { distinct_id: 'person_1', event: '$pageview', properties: { $current_url: '/', $browser: 'Chrome' } },
      { distinct_id: 'person_1', event: '$pageview', properties: { $current_url: '/about', $browser: 'Chrome' } },
      { distinct_id: 'person_2', event: '$pageview', properties: { $current_url: '/', $browser: 'Chrome' } },
      { distinct_id: 'person_2', event: '$pageview', properties: { $current_url: '/pricing', $browser: 'Chrome' } },
      { distinct_id: 'person_2', event: '$pageview', properties: { $current_url: '/about', $browser: 'Chrome' } },
      { distinct_id: 'person_3', event: '$pageview', properties: { $current_url: '/pricing' } },
      { distinct_id: 'person_3', event: '$pageview', properties: { $current_url: '/' } },
      { distinct_id: 'person_4', event: '$pageview', properties: { $current_url: '/' } },
      { distinct_id: 'person_4', event: '$pageview', properties: { $current_url: '/pricing' } },
    ]),
    query: {
      kind: 'PathsQuery',
      pathsFilter: {},
      properties: {
        type: 'AND',
        values: [{ type: 'AND', values: [{ key: '$browser', operator: 'exact', type: 'event', value: ['Chrome'] }] }],
      },
    },
    expected: [
      { source: '1_/', target: '2_/about', value: 1 },
      { source: '1_/', target: '2_/pricing', value: 1 },
      { source: '2_/pricing', target: '3_/about', value: 1 },
    ],
  },
  {
    name: 'test_paths_start',
    source: `${BASIC}.test_paths_start`,
    note: "startPoint: only sessions containing /pricing, each cut to start at its first /pricing ('/pricing/' "
      + "pageviews count as '/pricing'). person_4's path is the single item /pricing, so it gives no edge. "
      + 'person_5a and person_5b are one person in PostHog; written as person_5a. PostHog gives the events no '
      + 'timestamp (see conventions). PostHog asserts exactly five edges (source, target, value) by position. '
      + "The same test's startPoint '/pricing/' query gives the same five (the point loses one trailing slash).",
    now: UNSTAMPED_NOW,
    events: PATHS_START_EVENTS,
    query: { kind: 'PathsQuery', pathsFilter: { startPoint: '/pricing' } },
    expected: [
      { source: '1_/pricing', target: '2_/about', value: 2 },
      { source: '1_/pricing', target: '2_/', value: 1 },
      { source: '2_/', target: '3_/about', value: 1 },
      { source: '2_/about', target: '3_/pricing', value: 1 },
      { source: '3_/pricing', target: '4_/help', value: 1 },
    ],
  },
  {
    name: 'test_paths_start [startPoint /]',
    source: `${BASIC}.test_paths_start`,
    note: "startPoint '/' (one character: not stripped). person_3's session starts at its second pageview; "
      + 'person_5a has no /. PostHog asserts exactly three edges by position.',
    now: UNSTAMPED_NOW,
    events: PATHS_START_EVENTS,
    query: { kind: 'PathsQuery', pathsFilter: { startPoint: '/' } },
    expected: [
      { source: '1_/', target: '2_/about', value: 2 },
      { source: '1_/', target: '2_/pricing', value: 2 },
      { source: '2_/pricing', target: '3_/about', value: 1 },
    ],
  },
  {
    name: 'test_paths_in_window',
    source: `${BASIC}.test_paths_in_window`,
    note: 'The same path on two days: the 24-hour gap starts a new session, so the edge counts 2. PostHog '
      + 'asserts only the first edge (it is in fact the only one). date_to is now (any now after the events).',
    events: [
      pageview('person_1', '/', '2020-04-14T03:25:34Z'),
      pageview('person_1', '/about', '2020-04-14T03:30:34Z'),
      pageview('person_1', '/', '2020-04-15T03:25:34Z'),
      pageview('person_1', '/about', '2020-04-15T03:30:34Z'),
    ],
    query: { kind: 'PathsQuery', dateRange: { date_from: '2020-04-13' }, pathsFilter: {} },
    expected: [{ source: '1_/', target: '2_/about', value: 2 }],
    partial: true,
  },
  {
    name: 'test_path_replacements_none_does_not_apply_team_cleaning',
    source: `${BASIC}.test_path_replacements_none_does_not_apply_team_cleaning`,
    note: "The project has a path cleaning rule, but pathReplacements is not set: the project's rules apply only "
      + 'when pathReplacements is true, so the merchant ids stay. PostHog asserts only that "123" or "456" '
      + 'appears in the edges; the single edge here follows from the rules. (Had the rule applied, both '
      + 'pageviews would become one repeated item and there would be no edge at all.)',
    now: '2012-01-15T03:21:34Z',
    projectSettings: { path_cleaning_filters: [{ alias: '/merchant/:id/dashboard', regex: '/merchant/\\d+/dashboard' }] },
    events: [
      pageview('person_1', '/merchant/123/dashboard', '2012-01-14T03:21:34Z'),
      pageview('person_1', '/merchant/456/dashboard', '2012-01-14T03:22:34Z'),
    ],
    query: { kind: 'PathsQuery', pathsFilter: {} },
    expected: [{ source: '1_/merchant/123/dashboard', target: '2_/merchant/456/dashboard', value: 1 }],
  },

  // ---------------------------------------------------------------- test_paths_query_runner_ee.py
  {
    name: 'test_step_limit [stepLimit 2]',
    source: `${EE}.test_step_limit`,
    note: 'No dateRange: the last 7 days and today before the frozen now (from 2011-12-31). stepLimit keeps the '
      + 'first N items of each session path.',
    now: '2012-01-07T03:21:34Z',
    events: STEP_LIMIT_EVENTS,
    query: { kind: 'PathsQuery', pathsFilter: { stepLimit: 2 } },
    expected: [{ source: '1_/1', target: '2_/2', value: 1, average_conversion_time: ONE_MINUTE }],
  },
  {
    name: 'test_step_limit [stepLimit 4]',
    source: `${EE}.test_step_limit`,
    note: 'As [stepLimit 2] with four items kept. (The test also runs stepLimit 3: the first two edges.)',
    now: '2012-01-07T03:21:34Z',
    events: STEP_LIMIT_EVENTS,
    query: { kind: 'PathsQuery', pathsFilter: { stepLimit: 4 } },
    expected: [
      { source: '1_/1', target: '2_/2', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '2_/2', target: '3_/3', value: 1, average_conversion_time: 2 * ONE_MINUTE },
      { source: '3_/3', target: '4_/4', value: 1, average_conversion_time: 3 * ONE_MINUTE },
    ],
  },
  {
    name: 'test_step_conversion_times',
    source: `${EE}.test_step_conversion_times`,
    note: 'average_conversion_time is the mean of the per-session gaps between the two events, in ms: '
      + '(60 s + 120 s) / 2 = 90 s for /1 -> /2.',
    events: [
      pageview('fake', '/1', '2012-01-01T03:21:34Z'),
      pageview('fake', '/2', '2012-01-01T03:22:34Z'),
      pageview('fake', '/3', '2012-01-01T03:24:34Z'),
      pageview('fake', '/4', '2012-01-01T03:27:34Z'),
      pageview('fake2', '/1', '2012-01-01T03:21:34Z'),
      pageview('fake2', '/2', '2012-01-01T03:23:34Z'),
      pageview('fake2', '/3', '2012-01-01T03:27:34Z'),
    ],
    query: { kind: 'PathsQuery', dateRange: { date_from: '2012-01-01' }, pathsFilter: { stepLimit: 4, includeEventTypes: ['$pageview'] } },
    expected: [
      { source: '1_/1', target: '2_/2', value: 2, average_conversion_time: 1.5 * ONE_MINUTE },
      { source: '2_/2', target: '3_/3', value: 2, average_conversion_time: 3 * ONE_MINUTE },
      { source: '3_/3', target: '4_/4', value: 1, average_conversion_time: 3 * ONE_MINUTE },
    ],
  },
  {
    name: 'test_event_ordering',
    source: `${EE}.test_event_ordering`,
    note: '50 people with the same three custom events, every other one with a fourth.',
    events: Array.from({ length: 50 }, (_, i) => [
      custom(`user_${i}`, 'step one', '2021-05-01T00:00:00Z'),
      custom(`user_${i}`, 'step two', '2021-05-01T00:01:00Z'),
      custom(`user_${i}`, 'step three', '2021-05-01T00:02:00Z'),
      ...(i % 2 === 0 ? [custom(`user_${i}`, 'step branch', '2021-05-01T00:03:00Z')] : []),
    ]).flat(),
    query: {
      kind: 'PathsQuery',
      dateRange: { date_from: '2021-05-01', date_to: '2021-05-03' },
      pathsFilter: { includeEventTypes: ['custom_event'] },
    },
    expected: [
      { source: '1_step one', target: '2_step two', value: 50, average_conversion_time: 60000 },
      { source: '2_step two', target: '3_step three', value: 50, average_conversion_time: 60000 },
      { source: '3_step three', target: '4_step branch', value: 25, average_conversion_time: 60000 },
    ],
  },
  {
    name: 'test_end',
    source: `${EE}.test_end`,
    note: "endPoint: only sessions containing /about, cut right after its first occurrence, then the LAST "
      + 'stepLimit (5) items: person_1 keeps /2../about (its /1 falls off the front). Pageview URLs lose one '
      + "trailing slash ('/3/' -> '/3', '/about/' -> '/about'). No includeEventTypes: every event type.",
    events: END_EVENTS,
    query: { kind: 'PathsQuery', dateRange: LEGACY_RANGE, pathsFilter: { endPoint: '/about' } },
    expected: END_EXPECTED,
  },
  {
    name: 'test_end [endPoint /about/]',
    source: `${EE}.test_end`,
    note: "The same query with endPoint '/about/': a single start or end point loses one trailing slash.",
    events: END_EVENTS,
    query: { kind: 'PathsQuery', dateRange: LEGACY_RANGE, pathsFilter: { endPoint: '/about/' } },
    expected: END_EXPECTED,
  },
  {
    name: 'test_event_inclusion_exclusion_filters [custom_event]',
    source: `${EE}.test_event_inclusion_exclusion_filters`,
    note: "Custom events named like URLs ('/custom1') are custom events (they do not start with '$'). The "
      + 'test also runs $pageview alone and $screen alone (the same shape on /1,/2,/3 and /screen1..3).',
    events: INCLUSION_EVENTS,
    query: { kind: 'PathsQuery', dateRange: { date_from: '2012-01-01' }, pathsFilter: { stepLimit: 4, includeEventTypes: ['custom_event'] } },
    expected: [
      { source: '1_/custom1', target: '2_/custom2', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '2_/custom2', target: '3_/custom3', value: 1, average_conversion_time: 2 * ONE_MINUTE },
    ],
  },
  {
    name: 'test_event_inclusion_exclusion_filters [all types, excludeEvents]',
    source: `${EE}.test_event_inclusion_exclusion_filters`,
    note: "excludeEvents drops events by their path item ('/1', '/2', '/3' are pageview URLs, '/2/' counted as "
      + "'/2'; '/custom1' a custom event name) before sessions are built, so p3's path starts at /custom2.",
    events: INCLUSION_EVENTS,
    query: {
      kind: 'PathsQuery',
      dateRange: { date_from: '2012-01-01' },
      pathsFilter: {
        stepLimit: 4,
        includeEventTypes: ['$pageview', '$screen', 'custom_event'],
        excludeEvents: ['/custom1', '/1', '/2', '/3'],
      },
    },
    expected: [
      { source: '1_/custom2', target: '2_/custom3', value: 1, average_conversion_time: 2 * ONE_MINUTE },
      { source: '1_/screen1', target: '2_/screen2', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '2_/screen2', target: '3_/screen3', value: 1, average_conversion_time: 2 * ONE_MINUTE },
    ],
  },
  {
    name: 'test_event_exclusion_filters_with_wildcard_groups',
    source: `${EE}.test_event_exclusion_filters_with_wildcard_groups`,
    note: "pathGroupings '/bar/*/foo' matches anywhere in the item (unanchored: '/2/bar/1/foo' too), and the "
      + "grouped item is the pattern text '/bar/*/foo', which excludeEvents then drops: every path is /1 -> /3.",
    events: WILDCARD_EVENTS,
    query: {
      kind: 'PathsQuery',
      dateRange: { date_from: '2012-01-01' },
      pathsFilter: { stepLimit: 4, includeEventTypes: ['$pageview'], excludeEvents: ['/bar/*/foo'], pathGroupings: ['/bar/*/foo'] },
    },
    expected: [{ source: '1_/1', target: '2_/3', value: 3, average_conversion_time: 3 * ONE_MINUTE }],
  },
  {
    name: 'test_event_exclusion_filters_with_wildcard_groups [non-matching grouping]',
    source: `${EE}.test_event_exclusion_filters_with_wildcard_groups`,
    note: "With a grouping that matches nothing, excludeEvents '/bar/*/foo' is compared literally and drops "
      + 'nothing. PostHog asserts only that there are 6 edges; the edges (and their order: value, then source, '
      + 'then target, byte-wise) follow from the rules.',
    events: WILDCARD_EVENTS,
    query: {
      kind: 'PathsQuery',
      dateRange: { date_from: '2012-01-01' },
      pathsFilter: { stepLimit: 4, includeEventTypes: ['$pageview'], excludeEvents: ['/bar/*/foo'], pathGroupings: ['/xxx/invalid/*'] },
    },
    expected: [
      { source: '1_/1', target: '2_/2/bar/1/foo', value: 1 },
      { source: '1_/1', target: '2_/bar/2/foo', value: 1 },
      { source: '1_/1', target: '2_/bar/33/foo', value: 1 },
      { source: '2_/2/bar/1/foo', target: '3_/3', value: 1 },
      { source: '2_/bar/2/foo', target: '3_/3', value: 1 },
      { source: '2_/bar/33/foo', target: '3_/3', value: 1 },
    ],
  },
  {
    name: 'test_event_inclusion_exclusion_filters_across_single_person [all events]',
    source: `${EE}.test_event_inclusion_exclusion_filters_across_single_person`,
    note: 'No includeEventTypes: every event, each with its own item (URL, screen name, event name), in one '
      + 'session. stepLimit 10. (The test also runs [$pageview, $screen]: the first five edges.)',
    events: SINGLE_PERSON_EVENTS,
    query: { kind: 'PathsQuery', dateRange: { date_from: '2012-01-01' }, pathsFilter: { stepLimit: 10 } },
    expected: [
      { source: '1_/1', target: '2_/2', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '2_/2', target: '3_/3', value: 1, average_conversion_time: 2 * ONE_MINUTE },
      { source: '3_/3', target: '4_/screen1', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '4_/screen1', target: '5_/screen2', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '5_/screen2', target: '6_/screen3', value: 1, average_conversion_time: 2 * ONE_MINUTE },
      { source: '6_/screen3', target: '7_/custom1', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '7_/custom1', target: '8_/custom2', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '8_/custom2', target: '9_/custom3', value: 1, average_conversion_time: 2 * ONE_MINUTE },
    ],
  },
  {
    name: 'test_event_inclusion_exclusion_filters_across_single_person [pageview + custom, excludeEvents]',
    source: `${EE}.test_event_inclusion_exclusion_filters_across_single_person`,
    note: 'Screens are not included and /custom1, /custom3 are excluded, so /3 (03:24:34) is followed directly '
      + 'by /custom2 (03:30:34): a 6-minute step.',
    events: SINGLE_PERSON_EVENTS,
    query: {
      kind: 'PathsQuery',
      dateRange: { date_from: '2012-01-01' },
      pathsFilter: { stepLimit: 10, includeEventTypes: ['$pageview', 'custom_event'], excludeEvents: ['/custom1', '/custom3'] },
    },
    expected: [
      { source: '1_/1', target: '2_/2', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '2_/2', target: '3_/3', value: 1, average_conversion_time: 2 * ONE_MINUTE },
      { source: '3_/3', target: '4_/custom2', value: 1, average_conversion_time: 6 * ONE_MINUTE },
    ],
  },
  {
    name: 'test_respect_session_limits',
    source: `${EE}.test_respect_session_limits`,
    note: 'The same person does /1 /2 /3 on two days: a gap of 30 minutes or more starts a new session path, '
      + "so each edge counts 2. '/2/' is '/2'. /2 -> /3 averages (2 min + 4 min) / 2.",
    events: [
      pageview('fake', '/1', '2012-01-01T03:21:34Z'),
      pageview('fake', '/2', '2012-01-01T03:22:34Z'),
      pageview('fake', '/3', '2012-01-01T03:24:34Z'),
      pageview('fake', '/1', '2012-01-02T03:21:54Z'),
      pageview('fake', '/2/', '2012-01-02T03:22:54Z'),
      pageview('fake', '/3', '2012-01-02T03:26:54Z'),
    ],
    query: { kind: 'PathsQuery', dateRange: { date_from: '2012-01-01' }, pathsFilter: {} },
    expected: [
      { source: '1_/1', target: '2_/2', value: 2, average_conversion_time: ONE_MINUTE },
      { source: '2_/2', target: '3_/3', value: 2, average_conversion_time: 3 * ONE_MINUTE },
    ],
  },
  {
    name: 'test_removes_duplicates',
    source: `${EE}.test_removes_duplicates`,
    note: "Repeated consecutive items collapse to one, and the LAST of the run stays (with its timestamp): "
      + "fake's /1 is the one at 03:21:54 and its /2 ('/2' then '/2/') the one at 03:22:54, so /1 -> /2 takes "
      + '1 min for fake and 2 min for fake2 (mean 1.5 min); keeping the first of each run would give 1.33 min.',
    events: [
      pageview('fake', '/1', '2012-01-01T03:21:34Z'),
      pageview('fake', '/1', '2012-01-01T03:21:54Z'),
      pageview('fake', '/2', '2012-01-01T03:22:34Z'),
      pageview('fake', '/2/', '2012-01-01T03:22:54Z'),
      pageview('fake', '/3', '2012-01-01T03:24:54Z'),
      pageview('fake2', '/1', '2012-01-01T03:21:34Z'),
      pageview('fake2', '/2/', '2012-01-01T03:23:34Z'),
      pageview('fake2', '/3', '2012-01-01T03:27:34Z'),
    ],
    query: { kind: 'PathsQuery', dateRange: { date_from: '2012-01-01' }, pathsFilter: {} },
    expected: [
      { source: '1_/1', target: '2_/2', value: 2, average_conversion_time: 1.5 * ONE_MINUTE },
      { source: '2_/2', target: '3_/3', value: 2, average_conversion_time: 3 * ONE_MINUTE },
    ],
  },
  {
    name: 'test_start_and_end',
    source: `${EE}.test_start_and_end`,
    note: 'Both points: sessions with /5 and, after it, /about; from the first /5 to the first /about after it. '
      + "person_3 has no /5. date_from '2012-05-01 00:00:00' is as PostHog wrote it.",
    events: START_AND_END_EVENTS,
    query: {
      kind: 'PathsQuery',
      dateRange: { date_from: '2012-05-01 00:00:00', date_to: '2021-05-07 00:00:00' },
      pathsFilter: { includeEventTypes: ['$pageview'], startPoint: '/5', endPoint: '/about' },
    },
    expected: [{ source: '1_/5', target: '2_/about', value: 2, average_conversion_time: 60000 }],
  },
  {
    name: "test_start_and_end [stepLimit 4: '...']",
    source: `${EE}.test_start_and_end`,
    note: "person_1's /2 /3 /4 /5 /about is 5 items, more than stepLimit 4: it becomes the first 2, '...', the "
      + "last 2. The '...' item carries the timestamp of the first dropped item (/4), so every step is 1 min.",
    events: START_AND_END_EVENTS,
    query: {
      kind: 'PathsQuery',
      dateRange: { date_from: '2012-05-01 00:00:00', date_to: '2021-05-07 00:00:00' },
      pathsFilter: { includeEventTypes: ['$pageview'], startPoint: '/2', endPoint: '/about', stepLimit: 4 },
    },
    expected: [
      { source: '1_/2', target: '2_/3', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '2_/3', target: '3_...', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '3_...', target: '4_/5', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '4_/5', target: '5_/about', value: 1, average_conversion_time: ONE_MINUTE },
    ],
  },
  {
    name: 'test_wildcard_groups_evil_input',
    source: `${EE}.test_wildcard_groups_evil_input`,
    note: "Groupings are globs: every regex character is literal and '*' alone means any run. '(a+)+', "
      + "'[aaa|aaaa]+', '1.*' and '.*' match nothing here (no literal '(', '[', '.'). '/3?q=1' and '/3*' both "
      + "match '/2/3?q=1' and '/3?q=1', and PostHog's answer has both as '/3*' (then collapsed to one item "
      + 'carrying the later timestamp: /1 -> /3* takes 3 min). The evil URL is 42 a\'s and a \'!\'.',
    events: [
      pageview('p1', EVIL_STRING, '2012-01-01T03:21:34Z'),
      pageview('p1', '/2/bar/aaa', '2012-01-01T03:22:34Z'),
      pageview('p1', '/3', '2012-01-01T03:24:34Z'),
      pageview('p2', '/1', '2012-01-01T03:21:34Z'),
      pageview('p2', '/2/3?q=1', '2012-01-01T03:22:34Z'),
      pageview('p2', '/3?q=1', '2012-01-01T03:24:34Z'),
    ],
    query: {
      kind: 'PathsQuery',
      dateRange: { date_from: '2012-01-01' },
      pathsFilter: { includeEventTypes: ['$pageview'], pathGroupings: ['(a+)+', '[aaa|aaaa]+', '1.*', '.*', '/3?q=1', '/3*'] },
    },
    expected: [
      { source: '1_/1', target: '2_/3*', value: 1, average_conversion_time: 3 * ONE_MINUTE },
      { source: `1_${EVIL_STRING}`, target: '2_/2/bar/aaa', value: 1, average_conversion_time: ONE_MINUTE },
      { source: '2_/2/bar/aaa', target: '3_/3*', value: 1, average_conversion_time: 2 * ONE_MINUTE },
    ],
  },
  {
    name: 'test_start_dropping_orphaned_edges',
    source: `${EE}.test_start_dropping_orphaned_edges`,
    note: 'edgeLimit 6 keeps the 6 heaviest edges (value desc, then source, target); of those, 3_/x -> 4_/about '
      + '(value 2) is no longer reachable from a 1_ node (2_/a -> 3_/x and 2_/b -> 3_/x fell outside the limit) '
      + 'and is dropped, leaving 5.',
    events: [
      ...[0, 1, 2, 3, 4].flatMap((i) => [
        pageview(`person_${i}`, '/1', '2021-05-01T00:01:00Z'),
        pageview(`person_${i}`, '/2', '2021-05-01T00:02:00Z'),
        pageview(`person_${i}`, '/3', '2021-05-01T00:03:00Z'),
        pageview(`person_${i}`, '/4', '2021-05-01T00:04:00Z'),
        pageview(`person_${i}`, '/5', '2021-05-01T00:05:00Z'),
        pageview(`person_${i}`, '/about', '2021-05-01T00:06:00Z'),
        pageview(`person_${i}`, '/after', '2021-05-01T00:07:00Z'),
      ]),
      pageview('person_r_2', '/2', '2021-05-01T00:01:00Z'),
      pageview('person_r_2', '/a', '2021-05-01T00:01:30Z'),
      pageview('person_r_2', '/x', '2021-05-01T00:02:00Z'),
      pageview('person_r_2', '/about', '2021-05-01T00:03:00Z'),
      pageview('person_r_3', '/2', '2021-05-01T00:01:00Z'),
      pageview('person_r_3', '/b', '2021-05-01T00:01:30Z'),
      pageview('person_r_3', '/x', '2021-05-01T00:02:00Z'),
      pageview('person_r_3', '/about', '2021-05-01T00:03:00Z'),
    ],
    query: {
      kind: 'PathsQuery',
      dateRange: LEGACY_RANGE,
      pathsFilter: { startPoint: '/2', edgeLimit: 6 },
    },
    expected: [
      { source: '1_/2', target: '2_/3', value: 5, average_conversion_time: 60000 },
      { source: '2_/3', target: '3_/4', value: 5, average_conversion_time: 60000 },
      { source: '3_/4', target: '4_/5', value: 5, average_conversion_time: 60000 },
      { source: '4_/5', target: '5_/about', value: 5, average_conversion_time: 60000 },
      { source: '1_/2', target: '2_/a', value: 1, average_conversion_time: 30000 },
    ],
  },

  // ---------------------------------------------------------------- legacy ee/clickhouse/queries/test/test_paths.py
  {
    name: 'test_path_by_grouping',
    source: `${LEGACY}.test_path_by_grouping`,
    note: "Legacy filter { path_groupings, date_from, date_to } (and insight FUNNELS, which a paths filter "
      + "ignores). Grouped items of one person become repeats and collapse to the last one: users 0-4 reach "
      + "between_step_1_* at 00:03 (3 min after step one), users 5-14 at 00:02 (2 min), so the mean is "
      + '(5*3 + 10*2) / 15 min. PostHog compares order-free (assertCountEqual); the order here is the '
      + "runner's (value desc, source, target).",
    events: multipleDropoffs(),
    query: {
      kind: 'PathsQuery',
      dateRange: LEGACY_RANGE,
      pathsFilter: { pathGroupings: ['between_step_1_*', 'between_step_2_*', 'step drop*'] },
    },
    expected: [
      { source: '1_step one', target: '2_step drop*', value: 20, average_conversion_time: 2 * ONE_MINUTE },
      { source: '1_step one', target: '2_between_step_1_*', value: 15, average_conversion_time: ((5 * 3 + 10 * 2) * ONE_MINUTE) / 15 },
      { source: '2_between_step_1_*', target: '3_step two', value: 15, average_conversion_time: ONE_MINUTE },
      { source: '2_step drop*', target: '3_step branch', value: 10, average_conversion_time: ONE_MINUTE },
      { source: '3_step two', target: '4_between_step_2_*', value: 10, average_conversion_time: 160000 },
      { source: '3_step two', target: '4_step three', value: 5, average_conversion_time: ONE_MINUTE },
    ],
  },
  {
    name: 'test_path_by_grouping_replacement',
    source: `${LEGACY}.test_path_by_grouping_replacement`,
    note: "The project's path cleaning rule ('\\?(.*)' -> '?<param>') applies because pathReplacements is true "
      + "(the legacy test sends the string 'true'). Cleaning is a regex replace-all on the item. The test "
      + 'first asserts that without path_replacements the answer differs (not ported).',
    projectSettings: { path_cleaning_filters: [{ alias: '?<param>', regex: '\\?(.*)' }] },
    events: [1, 2, 3].flatMap((n) => [
      pageview(`user_${n}`, 'test.com/step1', '2021-05-01T00:00:00Z'),
      pageview(`user_${n}`, 'test.com/step2', '2021-05-01T00:01:00Z'),
      pageview(`user_${n}`, `test.com/step3?key=value${n}`, '2021-05-01T00:02:00Z'),
    ]),
    query: {
      kind: 'PathsQuery',
      dateRange: LEGACY_RANGE,
      pathsFilter: { includeEventTypes: ['$pageview'], pathReplacements: true },
    },
    expected: [
      { source: '1_test.com/step1', target: '2_test.com/step2', value: 3, average_conversion_time: 60000 },
      { source: '2_test.com/step2', target: '3_test.com/step3?<param>', value: 3, average_conversion_time: 60000 },
    ],
  },
  {
    name: 'test_path_by_grouping_replacement_multiple [project + local rules]',
    source: `${LEGACY}.test_path_by_grouping_replacement_multiple`,
    note: "The project's rules run first, then localPathCleaningFilters, each on the previous one's output: "
      + "'test.com/step2/5?key=value1' -> 'test.com/step2/5?<param>' -> 'test.com/step2/<id><param>' (the "
      + "other order would give 'test.com/step2/<id>key=value1'). The test's first query, with both rules on "
      + 'the project, gives the same edges.',
    projectSettings: { path_cleaning_filters: [{ alias: '?<param>', regex: '\\?(.*)' }] },
    events: REPLACEMENT_MULTIPLE_EVENTS,
    query: {
      kind: 'PathsQuery',
      dateRange: LEGACY_RANGE,
      pathsFilter: {
        includeEventTypes: ['$pageview'],
        pathReplacements: true,
        localPathCleaningFilters: [{ alias: '/<id>', regex: '/\\d+(/|\\?)?' }],
      },
    },
    expected: REPLACEMENT_MULTIPLE_EXPECTED,
  },
  {
    name: 'test_path_by_grouping_replacement_multiple [local rules only]',
    source: `${LEGACY}.test_path_by_grouping_replacement_multiple`,
    note: "pathReplacements false: the project's rule is not used; both rules come from "
      + 'localPathCleaningFilters, in order.',
    projectSettings: { path_cleaning_filters: [{ alias: '?<param>', regex: '\\?(.*)' }] },
    events: REPLACEMENT_MULTIPLE_EVENTS,
    query: {
      kind: 'PathsQuery',
      dateRange: LEGACY_RANGE,
      pathsFilter: {
        includeEventTypes: ['$pageview'],
        pathReplacements: false,
        localPathCleaningFilters: [
          { alias: '?<param>', regex: '\\?(.*)' },
          { alias: '/<id>', regex: '/\\d+(/|\\?)?' },
        ],
      },
    },
    expected: REPLACEMENT_MULTIPLE_EXPECTED,
  },
  {
    name: 'test_path_by_funnel_after_step',
    source: `${LEGACY}.test_path_by_funnel_after_step`,
    note: 'Funnel paths after step 2: only the people who reached step two of the funnel (users 0-14), and only '
      + 'their events at or after their step-two event. Sessions split at the funnel window (7 days), not 30 '
      + 'minutes. (The HogQL runner gives the legacy answer for a positive funnelStep.)',
    events: multipleDropoffs(),
    query: {
      kind: 'PathsQuery',
      dateRange: LEGACY_RANGE,
      pathsFilter: {},
      funnelPathsFilter: { funnelPathType: 'funnel_path_after_step', funnelStep: 2, funnelSource: LEGACY_FUNNEL_SOURCE },
    },
    expected: [
      { source: '1_step two', target: '2_between_step_2_a', value: 10, average_conversion_time: 80000 },
      { source: '2_between_step_2_a', target: '3_between_step_2_b', value: 10, average_conversion_time: 80000 },
      { source: '1_step two', target: '2_step three', value: 5, average_conversion_time: 60000 },
    ],
  },
  {
    name: 'test_path_by_funnel_before_step',
    source: `${LEGACY}.test_path_by_funnel_before_step`,
    note: 'Funnel paths before step 2: the people who reached step two, their events up to and including the '
      + 'step-two event.',
    events: multipleDropoffs(),
    query: {
      kind: 'PathsQuery',
      dateRange: LEGACY_RANGE,
      pathsFilter: {},
      funnelPathsFilter: { funnelPathType: 'funnel_path_before_step', funnelStep: 2, funnelSource: LEGACY_FUNNEL_SOURCE },
    },
    expected: [
      { source: '1_step one', target: '2_between_step_1_a', value: 15, average_conversion_time: 60000 },
      { source: '2_between_step_1_a', target: '3_between_step_1_b', value: 15, average_conversion_time: 60000 },
      { source: '3_between_step_1_b', target: '4_step two', value: 10, average_conversion_time: 60000 },
      { source: '3_between_step_1_b', target: '4_between_step_1_c', value: 5, average_conversion_time: 60000 },
      { source: '4_between_step_1_c', target: '5_step two', value: 5, average_conversion_time: 60000 },
    ],
  },
  {
    name: 'test_path_by_funnel_between_step',
    source: `${LEGACY}.test_path_by_funnel_between_step`,
    note: 'Funnel paths between steps 1 and 2: the people who reached step two, their events from their step-one '
      + 'event to their step-two event (both included).',
    events: multipleDropoffs(),
    query: {
      kind: 'PathsQuery',
      dateRange: LEGACY_RANGE,
      pathsFilter: {},
      funnelPathsFilter: { funnelPathType: 'funnel_path_between_steps', funnelStep: 2, funnelSource: LEGACY_FUNNEL_SOURCE },
    },
    expected: [
      { source: '1_step one', target: '2_between_step_1_a', value: 15, average_conversion_time: 60000 },
      { source: '2_between_step_1_a', target: '3_between_step_1_b', value: 15, average_conversion_time: 60000 },
      { source: '3_between_step_1_b', target: '4_step two', value: 10, average_conversion_time: 60000 },
      { source: '3_between_step_1_b', target: '4_between_step_1_c', value: 5, average_conversion_time: 60000 },
      { source: '4_between_step_1_c', target: '5_step two', value: 5, average_conversion_time: 60000 },
    ],
  },
  {
    name: 'test_path_min_edge_weight [min 15]',
    source: `${LEGACY}.test_path_min_edge_weight`,
    note: 'The data and groupings of test_path_by_grouping with minEdgeWeight 15: edges with value < 15 go. '
      + 'PostHog compares order-free; the order here is the runner\'s. (The test\'s second query adds '
      + 'edgeLimit 2: the first two of these.)',
    events: multipleDropoffs(),
    query: {
      kind: 'PathsQuery',
      dateRange: LEGACY_RANGE,
      pathsFilter: { minEdgeWeight: 15, pathGroupings: ['between_step_1_*', 'between_step_2_*', 'step drop*'] },
    },
    expected: [
      { source: '1_step one', target: '2_step drop*', value: 20, average_conversion_time: 2 * ONE_MINUTE },
      { source: '1_step one', target: '2_between_step_1_*', value: 15, average_conversion_time: ((5 * 3 + 10 * 2) * ONE_MINUTE) / 15 },
      { source: '2_between_step_1_*', target: '3_step two', value: 15, average_conversion_time: ONE_MINUTE },
    ],
  },
  {
    name: 'test_path_min_edge_weight [min 6, max 11: HogQL prunes]',
    source: `${LEGACY}.test_path_min_edge_weight`,
    note: "NOT the legacy test's answer. The legacy runner skipped the reachability pruning whenever a min or max "
      + 'edge weight was set, and expected 2_step drop* -> 3_step branch and 3_step two -> 4_between_step_2_* '
      + "(value 10 each). The HogQL runner always prunes: neither edge's source is reachable from a 1_ node "
      + '(no 1_ edge has a value in 6..11), so the result is empty.',
    events: multipleDropoffs(),
    query: {
      kind: 'PathsQuery',
      dateRange: LEGACY_RANGE,
      pathsFilter: {
        edgeLimit: 20,
        maxEdgeWeight: 11,
        minEdgeWeight: 6,
        pathGroupings: ['between_step_1_*', 'between_step_2_*', 'step drop*'],
      },
    },
    expected: [],
  },
];
