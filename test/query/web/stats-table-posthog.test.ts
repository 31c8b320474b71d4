// PostHog's posthog/hogql_queries/web_analytics/test/test_web_stats_table.py as data: each case's
// events captured through /batch/ into a project of its own (persons' properties as $set, actions,
// path cleaning and test-account filters through the API), the WebStatsTableQuery through /query/,
// and the rows PostHog's test expects ([value, [current, previous] pairs..., fill, cross_sell]).
// PostHog's NaN fill fraction is null in JSON. Ledger: docs/web-analytics-posthog-tests.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { runQuery } from '../../helpers/journeys.js';
import { prepareCase, type PortedCase } from '../../helpers/posthog-cases.js';

let sequence = 0;
/** A UUIDv7 whose time part is the instant, as PostHog's tests make session ids (uuid7("2023-12-02")). */
function uuid7(at: string): string {
  const hex = Date.parse(at.length === 10 ? `${at}T00:00:00Z` : `${at}Z`).toString(16).padStart(12, '0');
  const tail = (++sequence).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-${tail}`;
}

type Persons = NonNullable<PortedCase['persons']>;
type Events = PortedCase['events'];
const person = (id: string, extra: Record<string, unknown> = {}) => ({ name: id, ...(id === 'test' ? { email: 'test@posthog.com' } : {}), ...extra });
const at = (day: string) => (day.length === 10 ? `${day}T00:00:00Z` : `${day}Z`);

/** PostHog's _create_events: one event per visit; $pathname and $current_url (or $screen_name) from the visit. */
function createEvents(data: [string, [string, string, string?, Record<string, unknown>?][]][], event = '$pageview'): { persons: Persons; events: Events } {
  const persons: Persons = {};
  const events: Events = [];
  for (const [id, visits] of data) {
    persons[id] = person(id);
    for (const [day, session, value, extra] of visits) {
      const url = event === '$pageview' ? value ?? null : null;
      events.push({ distinct_id: id, event, timestamp: at(day), properties: { $session_id: session, $pathname: url, $current_url: url, $screen_name: event === '$screen' ? value ?? null : null, ...extra } });
    }
  }
  return { persons, events };
}

/** PostHog's _create_pageviews: a session of page views (previous path and scroll on each) closed by a $pageleave. */
function createPageviews(id: string, views: [string, string, number][]): { persons: Persons; events: Events } {
  const session = uuid7(views[0]![1]);
  const events: Events = [];
  let previous: [string, string, number] | null = null;
  for (const view of views) {
    const [pathname, time] = view;
    events.push({ distinct_id: id, event: '$pageview', timestamp: at(time), properties: {
      $session_id: session, $pathname: pathname, $current_url: `http://www.example.com${pathname}`,
      $prev_pageview_pathname: previous?.[0] ?? null, $prev_pageview_max_scroll_percentage: previous?.[2] ?? null,
    } });
    previous = view;
  }
  const [lastPath, lastTime, lastScroll] = previous!;
  events.push({ distinct_id: id, event: '$pageleave', timestamp: at(lastTime), properties: {
    $session_id: session, $pathname: lastPath, $current_url: `http://www.example.com${lastPath}`, $prev_pageview_pathname: lastPath, $prev_pageview_max_scroll_percentage: lastScroll,
  } });
  return { persons: { [id]: person(id) }, events };
}

function merge(...parts: { persons: Persons; events: Events }[]) {
  return { persons: Object.assign({}, ...parts.map((p) => p.persons)), events: parts.flatMap((p) => p.events) };
}

interface Options {
  breakdownBy?: string; limit?: number; includeBounceRate?: boolean; properties?: unknown[]; compare?: boolean;
  actionId?: number; customEvent?: string; filterTestAccounts?: boolean; orderBy?: [string, string]; doPathCleaning?: boolean; includeScrollDepth?: boolean;
}

/** PostHog's _run_web_stats_table_query. */
function statsQuery(from: string, to: string | null, o: Options = {}) {
  return {
    kind: 'WebStatsTableQuery',
    dateRange: { date_from: from, date_to: to },
    properties: o.properties ?? [],
    breakdownBy: o.breakdownBy ?? 'Page',
    ...(o.limit ? { limit: o.limit } : {}),
    doPathCleaning: o.doPathCleaning ?? false,
    includeBounceRate: o.includeBounceRate ?? false,
    includeScrollDepth: o.includeScrollDepth ?? false,
    ...(o.compare ? { compareFilter: { compare: true } } : {}),
    ...(o.actionId ? { conversionGoal: { actionId: o.actionId } } : o.customEvent ? { conversionGoal: { customEventName: o.customEvent } } : {}),
    filterTestAccounts: o.filterTestAccounts ?? false,
    ...(o.orderBy ? { orderBy: o.orderBy } : {}),
    modifiers: { sessionTableVersion: 'v2', bounceRatePageViewMode: 'count_pageviews' },
  };
}

const POSTHOG_TEST_ACCOUNTS = { test_account_filters: [{ key: 'email', value: '@posthog.com', operator: 'not_icontains', type: 'person' }] };
const PATHNAME = (value: unknown) => ({ key: '$pathname', operator: 'exact', value, type: 'event' });
const cleaning = (rules: unknown[]) => ({ path_cleaning_filters: rules });
const GOAL_COLUMNS = ['breakdown_value', 'visitors', 'total_conversions', 'unique_conversions', 'conversion_rate', 'ui_fill_fraction', 'cross_sell'].map((c) => `context.columns.${c}`);
const SCROLL_COLUMNS = ['breakdown_value', 'visitors', 'views', 'bounce_rate', 'average_scroll_percentage', 'scroll_gt80_percentage', 'ui_fill_fraction', 'cross_sell'].map((c) => `context.columns.${c}`);
const VISITED_FOO_URL = { id: 1, name: 'Visited Foo', steps: [{ event: '$pageview', url: 'https://www.example.com/foo', url_matching: 'regex' }] };
const VISITED_FOO_PATH = { id: 1, name: 'Visited Foo', steps: [{ event: '$pageview', url: '/foo', url_matching: 'regex' }] };

interface StatsCase extends PortedCase {
  /** The expected rows, or (with `firstColumn`) the expected first column. */
  expected?: unknown[];
  firstColumn?: unknown[];
  sorted?: boolean;
  hasMore?: boolean;
  columns?: string[];
}

const increase = () => {
  const [s1a, s1b, s2] = [uuid7('2023-12-02'), uuid7('2023-12-13'), uuid7('2023-12-10')];
  return [['p1', [['2023-12-02', s1a, '/'], ['2023-12-03', s1a, '/login'], ['2023-12-13', s1b, '/docs']]], ['p2', [['2023-12-10', s2, '/']]]] as [string, [string, string, string][]][];
};
const cleanedPaths = () => createEvents([
  ['p1', [['2023-12-02', uuid7('2023-12-02'), '/cleaned/123/path/456']]],
  ['p2', [['2023-12-10', uuid7('2023-12-10'), '/cleaned/123']]],
  ['p3', [['2023-12-10', uuid7('2023-12-10'), '/cleaned/456']]],
  ['p4', [['2023-12-11', uuid7('2023-12-11'), '/not-cleaned']]],
  ['p5', [['2023-12-11', uuid7('2023-12-11'), '/thing_a']]],
]);
const CLEANED_RULES = [
  { regex: '\\/cleaned\\/\\d+', alias: '/cleaned/:id' }, { regex: '\\/path\\/\\d+', alias: '/path/:id' },
  { regex: 'thing_a', alias: 'thing_b' }, { regex: 'thing_b', alias: 'thing_c' },
];
const abc = (prefix = '') => createPageviews('p1', [[`/a${prefix}`, '2023-12-02T12:00:00', 0.1], [`/b${prefix}`, '2023-12-02T12:00:01', 0.2], [`/c${prefix}`, '2023-12-02T12:00:02', 0.9]]);
const threeUsers = () => merge(
  abc(),
  createPageviews('p2', [['/a', '2023-12-02T12:00:00', 0.9], ['/a', '2023-12-02T12:00:01', 0.9], ['/b', '2023-12-02T12:00:02', 0.2], ['/c', '2023-12-02T12:00:03', 0.9]]),
  createPageviews('p3', [['/a', '2023-12-02T12:00:00', 0.1]]),
);
const ABC_CLEANING = cleaning([{ regex: '\\/a\\/\\d+', alias: '/a/:id' }, { regex: '\\/b\\/\\d+', alias: '/b/:id' }, { regex: '\\/c\\/\\d+', alias: '/c/:id' }]);
const utmPair = (first: Record<string, unknown>, second: Record<string, unknown>) => ({
  persons: { d1: person('d1'), d2: person('d2') },
  events: [
    { distinct_id: 'd1', event: '$pageview', timestamp: at('2024-06-26'), properties: { $session_id: uuid7('2024-06-26'), ...first } },
    { distinct_id: 'd2', event: '$pageview', timestamp: at('2024-06-26'), properties: { $session_id: uuid7('2024-06-26'), ...second } },
  ],
});
const conversionEvents = (paths: [string, string][][]) => createEvents(paths.map((visits, i) => {
  const session = uuid7('2023-12-01');
  return [`p${i + 1}`, visits.map(([day, path]) => [day, session, path] as [string, string, string])];
}));
const foo = (path = 'https://www.example.com/foo'): [string, string] => ['2023-12-01', path];
const bar = (path = 'https://www.example.com/bar'): [string, string] => ['2023-12-01', path];
const timezones = () => {
  const persons: Persons = {};
  const events: Events = [];
  [0, -330, 240, 180].forEach((offset, idx) => {
    const id = String(offset);
    const [before, after] = [uuid7('2024-07-14'), uuid7('2024-07-16')];
    persons[id] = { name: before, email: `${offset}@example.com` };
    events.push({ distinct_id: id, event: '$pageview', timestamp: at('2024-07-14'), properties: { $session_id: before, $pathname: '/path/landing', $timezone_offset: offset } });
    for (let i = 0; i <= idx; i++) events.push({ distinct_id: id, event: '$pageview', timestamp: at('2024-07-16'), properties: { $session_id: after, $pathname: `/path${i}`, $timezone_offset: offset } });
  });
  return { persons, events };
};

const CASES: Record<string, () => StatsCase> = {
  test_no_crash_when_no_data: () => ({ events: [], query: statsQuery('2023-12-08', '2023-12-15'), expected: [] }),
  test_increase_in_users: () => ({ ...createEvents(increase()), query: statsQuery('2023-12-01', '2023-12-11'), expected: [['/', [2, null], [2, null], 2 / 3, ''], ['/login', [1, null], [1, null], 1 / 3, '']] }),
  test_increase_in_users_on_mobile: () => {
    const [s1a, s1b, s2] = [uuid7('2023-12-02'), uuid7('2023-12-13'), uuid7('2023-12-10')];
    return {
      ...createEvents([['p1', [['2023-12-02', s1a, 'Home'], ['2023-12-03', s1a, 'Login'], ['2023-12-13', s1b, 'Docs']]], ['p2', [['2023-12-10', s2, 'Home']]]], '$screen'),
      query: statsQuery('2023-12-01', '2023-12-11', { breakdownBy: 'ScreenName' }),
      expected: [['Home', [2, null], [2, null], 2 / 3, ''], ['Login', [1, null], [1, null], 1 / 3, '']],
    };
  },
  test_all_time: () => ({ ...createEvents(increase()), query: statsQuery('all', '2023-12-15'), expected: [['/', [2, null], [2, null], 2 / 4, ''], ['/docs', [1, null], [1, null], 1 / 4, ''], ['/login', [1, null], [1, null], 1 / 4, '']] }),
  test_comparison: () => ({ ...createEvents(increase()), query: statsQuery('2023-12-06', '2023-12-13', { compare: true }), expected: [['/', [1, 1], [1, 1], 1 / 2, ''], ['/docs', [1, 0], [1, 0], 1 / 2, ''], ['/login', [0, 1], [0, 1], 0, '']] }),
  test_filter_test_accounts: () => {
    const s1 = uuid7('2023-12-02');
    return { ...createEvents([['test', [['2023-12-02', s1, '/'], ['2023-12-03', s1, '/login']]]]), projectSettings: POSTHOG_TEST_ACCOUNTS, query: statsQuery('2023-12-01', '2023-12-03', { filterTestAccounts: true }), expected: [] };
  },
  test_dont_filter_test_accounts: () => {
    const s1 = uuid7('2023-12-02');
    return { ...createEvents([['test', [['2023-12-02', s1, '/'], ['2023-12-03', s1, '/login']]]]), projectSettings: POSTHOG_TEST_ACCOUNTS, query: statsQuery('2023-12-01', '2023-12-03'), expected: [['/', [1, null], [1, null], 1 / 2, ''], ['/login', [1, null], [1, null], 1 / 2, '']] };
  },
  test_breakdown_channel_type_doesnt_throw: () => ({ ...createEvents(increase()), query: statsQuery('2023-12-01', '2023-12-03', { breakdownBy: 'InitialChannelType' }), firstColumn: ['Unknown'] }),
  'test_limit (limit 1)': () => {
    const [s1, s2] = [uuid7('2023-12-02'), uuid7('2023-12-10')];
    return { ...createEvents([['p1', [['2023-12-02', s1, '/'], ['2023-12-03', s1, '/login']]], ['p2', [['2023-12-10', s2, '/']]]]), query: statsQuery('all', '2023-12-15', { limit: 1 }), expected: [['/', [2, null], [2, null], 2 / 3, '']], hasMore: true };
  },
  'test_limit (limit 2)': () => {
    const [s1, s2] = [uuid7('2023-12-02'), uuid7('2023-12-10')];
    return { ...createEvents([['p1', [['2023-12-02', s1, '/'], ['2023-12-03', s1, '/login']]], ['p2', [['2023-12-10', s2, '/']]]]), query: statsQuery('all', '2023-12-15', { limit: 2 }), expected: [['/', [2, null], [2, null], 2 / 3, ''], ['/login', [1, null], [1, null], 1 / 3, '']], hasMore: false };
  },
  test_path_cleaning_filters: () => ({
    ...cleanedPaths(), projectSettings: cleaning(CLEANED_RULES), query: statsQuery('all', '2023-12-15', { doPathCleaning: true }),
    expected: [['/cleaned/:id', [2, null], [2, null], 2 / 5, ''], ['/cleaned/:id/path/:id', [1, null], [1, null], 1 / 5, ''], ['/not-cleaned', [1, null], [1, null], 1 / 5, ''], ['/thing_c', [1, null], [1, null], 1 / 5, '']],
  }),
  // is_cleaned_path_exact: the filter's value and $pathname both cleaned by the project's rules.
  'test_path_cleaning_filters_with_cleaned_path_property (a cleaned value)': () => ({
    ...cleanedPaths(), projectSettings: cleaning(CLEANED_RULES),
    query: statsQuery('all', '2023-12-15', { doPathCleaning: true, properties: [{ key: '$pathname', operator: 'is_cleaned_path_exact', value: '/cleaned/:id', type: 'event' }] }),
    expected: [['/cleaned/:id', [2, null], [2, null], 1, '']],
  }),
  'test_path_cleaning_filters_with_cleaned_path_property (a value that cleans to it)': () => ({
    ...cleanedPaths(), projectSettings: cleaning(CLEANED_RULES),
    query: statsQuery('all', '2023-12-15', { doPathCleaning: true, properties: [{ key: '$pathname', operator: 'is_cleaned_path_exact', value: '/cleaned/123456', type: 'event' }] }),
    expected: [['/cleaned/:id', [2, null], [2, null], 1, '']],
  }),
  test_path_cleaning_filters_with_cleanable_path_property: () => ({
    ...cleanedPaths(), projectSettings: cleaning([CLEANED_RULES[0]]),
    query: statsQuery('all', '2023-12-15', { doPathCleaning: true, properties: [{ key: '$pathname', operator: 'is_cleaned_path_exact', value: '/cleaned/123456', type: 'event' }] }),
    expected: [['/cleaned/:id', [2, null], [2, null], 1, '']],
  }),
  test_path_cleaning_filters_with_multiple_capture_groups: () => ({
    ...createEvents([
      ['p1', [['2023-12-02', uuid7('2023-12-02'), '/item/123/detail/456']]], ['p2', [['2023-12-10', uuid7('2023-12-10'), '/item/789/detail/101']]],
      ['p3', [['2023-12-11', uuid7('2023-12-11'), '/item/999/detail/777']]], ['p4', [['2023-12-12', uuid7('2023-12-12'), '/other/123/path']]],
    ]),
    projectSettings: cleaning([{ regex: '\\/item\\/(\\d+)\\/detail\\/(\\d+)', alias: '/item/<id>/detail/<detail_id>' }]),
    query: statsQuery('all', '2023-12-15', { doPathCleaning: true }),
    expected: [['/item/<id>/detail/<detail_id>', [3, null], [3, null], 3 / 4, ''], ['/other/123/path', [1, null], [1, null], 1 / 4, '']],
  }),
  test_path_cleaning_filters_applied_in_order: () => ({
    ...createEvents([
      ['p1', [['2023-12-02', uuid7('2023-12-02'), '/admin/settings/users']]], ['p2', [['2023-12-10', uuid7('2023-12-10'), '/admin/dashboard']]],
      ['p3', [['2023-12-11', uuid7('2023-12-11'), '/user/123/profile']]], ['p4', [['2023-12-12', uuid7('2023-12-12'), '/user/456/settings']]],
      ['p5', [['2023-12-13', uuid7('2023-12-13'), '/other/path']]],
    ]),
    projectSettings: cleaning([{ regex: '\\/admin\\/settings\\/.*', alias: '/admin/settings/<page>' }, { regex: '\\/admin\\/.*', alias: '/admin/<section>' }, { regex: '\\/user\\/\\d+\\/.*', alias: '/user/<id>/<page>' }]),
    query: statsQuery('all', '2023-12-15', { doPathCleaning: true }),
    expected: [['/admin/<section>', [2, null], [2, null], 2 / 5, ''], ['/user/<id>/<page>', [2, null], [2, null], 2 / 5, ''], ['/other/path', [1, null], [1, null], 1 / 5, '']],
  }),
  test_path_cleaning_with_order_field_and_baseline_urls: () => ({
    ...createEvents([
      ['p1', [['2023-12-02', uuid7('2023-12-02'), '/item/2197346/detail1/11234']]], ['p2', [['2023-12-03', uuid7('2023-12-03'), '/item/2206728/list/2668776/baseline']]],
      ['p3', [['2023-12-04', uuid7('2023-12-04'), '/item/5555/list/6666/spp/insessionForm/7777']]], ['p4', [['2023-12-05', uuid7('2023-12-05'), '/item/123']]],
    ]),
    projectSettings: cleaning([
      { regex: '/item/(\\d+)/list/(\\d+)/spp/insessionForm/(\\d+)', alias: '/item/<id>/list/<list_id>/spp/insessionForm/<form>', order: 0 },
      { regex: '/item/(\\d+)/detail1/(\\d+)', alias: '/item/<id>/detail1/<consultation>', order: 1 },
      { regex: '/item/(\\d+)/list/(\\d+)', alias: '/item/<id>/list/<list_id>', order: 2 },
      { regex: '/item/(\\d+)', alias: '/item/<id>', order: 3 },
    ]),
    query: statsQuery('all', '2023-12-06', { doPathCleaning: true }),
    sorted: true,
    expected: [
      ['/item/<id>/detail1/<consultation>', [1, null], [1, null], 1 / 4, ''], ['/item/<id>/list/<list_id>/spp/insessionForm/<form>', [1, null], [1, null], 1 / 4, ''],
      ['/item/<id>/list/<list_id>/baseline', [1, null], [1, null], 1 / 4, ''], ['/item/<id>', [1, null], [1, null], 1 / 4, ''],
    ],
  }),
  test_scroll_depth_bounce_rate_one_user: () => ({ ...abc(), query: statsQuery('all', '2023-12-15', { includeScrollDepth: true, includeBounceRate: true }), columns: SCROLL_COLUMNS, expected: [
    ['/a', [1, 0], [1, 0], [0, null], [0.1, null], [0, null], 1 / 3, ''], ['/b', [1, 0], [1, 0], [null, null], [0.2, null], [0, null], 1 / 3, ''], ['/c', [1, 0], [1, 0], [null, null], [0.9, null], [1, null], 1 / 3, ''],
  ] }),
  test_scroll_depth_bounce_rate: () => ({ ...threeUsers(), query: statsQuery('all', '2023-12-15', { includeScrollDepth: true, includeBounceRate: true }), expected: [
    ['/a', [3, 0], [4, 0], [1 / 3, null], [0.5, null], [0.5, null], 3 / 7, ''], ['/b', [2, 0], [2, 0], [null, null], [0.2, null], [0, null], 2 / 7, ''], ['/c', [2, 0], [2, 0], [null, null], [0.9, null], [1, null], 2 / 7, ''],
  ] }),
  test_scroll_depth_bounce_rate_with_filter: () => ({ ...threeUsers(), query: statsQuery('all', '2023-12-15', { includeScrollDepth: true, includeBounceRate: true, properties: [PATHNAME('/a')] }), expected: [
    ['/a', [3, 0], [4, 0], [1 / 3, null], [0.5, null], [0.5, null], 1, ''],
  ] }),
  test_scroll_depth_bounce_rate_path_cleaning: () => ({ ...abc('/123'), projectSettings: ABC_CLEANING, query: statsQuery('all', '2023-12-15', { includeScrollDepth: true, includeBounceRate: true, doPathCleaning: true }), expected: [
    ['/a/:id', [1, 0], [1, 0], [0, null], [0.1, null], [0, null], 1 / 3, ''], ['/b/:id', [1, 0], [1, 0], [null, null], [0.2, null], [0, null], 1 / 3, ''], ['/c/:id', [1, 0], [1, 0], [null, null], [0.9, null], [1, null], 1 / 3, ''],
  ] }),
  test_bounce_rate_one_user: () => ({ ...abc(), query: statsQuery('all', '2023-12-15', { includeBounceRate: true }), expected: [['/a', [1, 0], [1, 0], [0, null], 1 / 3, ''], ['/b', [1, 0], [1, 0], [null, null], 1 / 3, ''], ['/c', [1, 0], [1, 0], [null, null], 1 / 3, '']] }),
  test_bounce_rate: () => ({ ...threeUsers(), query: statsQuery('all', '2023-12-15', { includeBounceRate: true }), expected: [['/a', [3, 0], [4, 0], [1 / 3, null], 3 / 7, ''], ['/b', [2, 0], [2, 0], [null, null], 2 / 7, ''], ['/c', [2, 0], [2, 0], [null, null], 2 / 7, '']] }),
  test_bounce_rate_with_property: () => ({ ...threeUsers(), query: statsQuery('all', '2023-12-15', { includeBounceRate: true, properties: [PATHNAME('/a')] }), expected: [['/a', [3, 0], [4, 0], [1 / 3, null], 1, '']] }),
  test_bounce_rate_path_cleaning: () => ({ ...abc('/123'), projectSettings: ABC_CLEANING, query: statsQuery('all', '2023-12-15', { includeBounceRate: true, doPathCleaning: true }), expected: [['/a/:id', [1, 0], [1, 0], [0, null], 1 / 3, ''], ['/b/:id', [1, 0], [1, 0], [null, null], 1 / 3, ''], ['/c/:id', [1, 0], [1, 0], [null, null], 1 / 3, '']] }),
  test_entry_bounce_rate_one_user: () => ({ ...abc(), query: statsQuery('all', '2023-12-15', { breakdownBy: 'InitialPage', includeBounceRate: true }), expected: [['/a', [1, null], [3, null], [0, null], 1, '']] }),
  test_entry_bounce_rate: () => ({ ...threeUsers(), query: statsQuery('all', '2023-12-15', { breakdownBy: 'InitialPage', includeBounceRate: true }), expected: [['/a', [3, null], [8, null], [1 / 3, null], 1, '']] }),
  test_entry_bounce_rate_with_property: () => ({ ...threeUsers(), query: statsQuery('all', '2023-12-15', { breakdownBy: 'InitialPage', includeBounceRate: true, properties: [PATHNAME('/a')] }), expected: [['/a', [3, null], [4, null], [1 / 3, null], 1, '']] }),
  test_entry_bounce_rate_path_cleaning: () => ({ ...abc('/123'), projectSettings: ABC_CLEANING, query: statsQuery('all', '2023-12-15', { breakdownBy: 'InitialPage', includeBounceRate: true, doPathCleaning: true }), expected: [['/a/:id', [1, null], [3, null], [0, null], 1, '']] }),
  test_source_medium_campaign: () => ({
    ...utmPair({ utm_source: 'google', $referring_domain: 'google.com' }, { $referring_domain: 'news.ycombinator.com', utm_medium: 'referral' }),
    query: statsQuery('all', '2024-06-27', { breakdownBy: 'InitialUTMSourceMediumCampaign' }),
    expected: [['google / (none) / (none)', [1, null], [1, null], 1 / 2, ''], ['news.ycombinator.com / referral / (none)', [1, null], [1, null], 1 / 2, '']],
  }),
  test_null_in_utm_tags: () => ({ ...utmPair({ utm_source: 'google' }, {}), query: statsQuery('all', '2024-06-27', { breakdownBy: 'InitialUTMSource' }), expected: [['google', [1, null], [1, null], 1 / 2, ''], [null, [1, null], [1, null], 1 / 2, '']] }),
  test_is_not_set_filter: () => ({
    ...utmPair({ utm_source: 'google' }, {}),
    query: statsQuery('all', '2024-06-27', { breakdownBy: 'InitialUTMSource', properties: [{ key: 'utm_source', operator: 'is_not_set', type: 'event' }] }),
    expected: [[null, [1, null], [1, null], 1, '']],
  }),
  'test_same_user_multiple_sessions (session property)': () => ({ ...sameUser(), query: statsQuery('all', '2024-07-31', { breakdownBy: 'InitialUTMSource' }), expected: [['google', [1, null], [2, null], 1, '']] }),
  'test_same_user_multiple_sessions (event property)': () => ({ ...sameUser(), query: statsQuery('all', '2024-07-31'), expected: [['/path', [1, null], [2, null], 1, '']] }),
  'test_same_user_multiple_sessions (bounce rate)': () => ({ ...sameUser(), query: statsQuery('all', '2024-07-31', { includeBounceRate: true }), expected: [['/path', [1, 0], [2, 0], [null, null], 1, '']] }),
  'test_same_user_multiple_sessions (scroll depth)': () => ({ ...sameUser(), query: statsQuery('all', '2024-07-31', { includeBounceRate: true, includeScrollDepth: true }), expected: [['/path', [1, 0], [2, 0], [null, null], [null, null], [null, null], 1, '']] }),
  'test_no_session_id (channel type)': () => ({ ...noSession(), query: statsQuery('all', '2024-07-31', { breakdownBy: 'InitialChannelType' }), expected: [] }),
  'test_no_session_id (entry page)': () => ({ ...noSession(), query: statsQuery('all', '2024-07-31', { breakdownBy: 'InitialPage' }), expected: [] }),
  'test_no_session_id (page)': () => ({ ...noSession(), query: statsQuery('all', '2024-07-31'), expected: [['/path', [1, null], [1, null], 1, '']] }),
  test_language_filter: () => {
    const [s1, s2] = [uuid7('2024-07-30'), uuid7('2024-07-30')];
    const view = (id: string, session: string, path: string, language: string) => ({ distinct_id: id, event: '$pageview', timestamp: at('2024-07-30'), properties: { $session_id: session, $pathname: path, $browser_language: language } });
    return {
      persons: { d1: { name: 'd1', email: 'test@example.com' }, d2: { name: 'd2', email: 'd2@hedgebox.net' } },
      events: [view('d1', s1, '/path1', 'en-US'), view('d1', s1, '/path2', 'en-US'), view('d1', s1, '/path3', 'en-GB'), view('d2', s2, '/path2', 'pt-BR'), view('d2', s2, '/path3', 'pt-BR'), view('d2', s2, '/path4', 'nl')],
      projectSettings: POSTHOG_TEST_ACCOUNTS,
      query: statsQuery('all', null, { breakdownBy: 'Language', filterTestAccounts: true }),
      // PostHog asserts the language part only (its topK region is probabilistic).
      firstColumn: ['en', 'pt', 'nl'],
    };
  },
  test_timezone_filter_general: () => ({
    ...timezones(), query: statsQuery('2024-07-15', null, { breakdownBy: 'Timezone' }),
    expected: [[-3, [1, null], [4, null], 1 / 4, ''], [-4, [1, null], [3, null], 1 / 4, ''], [5.5, [1, null], [2, null], 1 / 4, ''], [0, [1, null], [1, null], 1 / 4, '']],
  }),
  test_timezone_filter_with_invalid_timezone_offset: () => {
    // PostHog's distinct ids str(None), "Timezone_not_exists" and "" (an empty distinct id is refused at capture: "empty" here).
    const offsets: [string, unknown][] = [['None', null], ['Timezone_not_exists', 'Timezone_not_exists'], ['empty', '']];
    const events: Events = offsets.flatMap(([id, offset], idx) => {
      const session = uuid7('2024-07-30');
      return Array.from({ length: idx + 1 }, (_, i) => ({ distinct_id: id, event: '$pageview', timestamp: at('2024-07-30'), properties: { $session_id: session, $pathname: `/path${i}`, $timezone_offset: offset } }));
    });
    return { events, query: statsQuery('all', null, { breakdownBy: 'Timezone' }), expected: [] };
  },
  test_conversion_goal_no_conversions: () => ({
    ...conversionEvents([[foo()]]), actions: [{ id: 1, name: 'Visited Bar', steps: [{ event: '$pageview', url: 'https://www.example.com/bar', url_matching: 'regex' }] }],
    query: statsQuery('2023-12-01', '2023-12-03', { actionId: 1 }),
    expected: [['https://www.example.com/foo', [1, null], [0, null], [0, null], [0, null], null, '']], columns: GOAL_COLUMNS,
  }),
  test_conversion_goal_one_pageview_conversion: () => ({
    ...conversionEvents([[foo()]]), actions: [VISITED_FOO_URL], query: statsQuery('2023-12-01', '2023-12-03', { actionId: 1 }),
    expected: [['https://www.example.com/foo', [1, null], [1, null], [1, null], [1, null], 1, '']], columns: GOAL_COLUMNS,
  }),
  test_conversion_goal_one_custom_event_conversion: () => ({
    ...createEvents([['p1', [['2023-12-01', uuid7('2023-12-01'), 'https://www.example.com/foo']]]], 'custom_event'),
    query: statsQuery('2023-12-01', '2023-12-03', { breakdownBy: 'InitialUTMSource', customEvent: 'custom_event' }),
    expected: [[null, [1, null], [1, null], [1, null], [1, null], 1, '']], columns: GOAL_COLUMNS,
  }),
  test_conversion_goal_one_custom_action_conversion: () => ({
    ...createEvents([['p1', [['2023-12-01', uuid7('2023-12-01')]]]], 'custom_event'), actions: [{ id: 1, name: 'Did Custom Event', steps: [{ event: 'custom_event' }] }],
    query: statsQuery('2023-12-01', '2023-12-03', { breakdownBy: 'InitialUTMSource', actionId: 1 }),
    expected: [[null, [1, null], [1, null], [1, null], [1, null], 1, '']], columns: GOAL_COLUMNS,
  }),
  test_conversion_goal_one_autocapture_conversion: () => ({
    ...createEvents([['p1', [['2023-12-01', uuid7('2023-12-01'), undefined, { $elements_chain: 'button:nth-child="0"nth-of-type="1"text="Pay $10"' }]]]], '$autocapture'),
    actions: [{ id: 1, name: 'Paid $10', steps: [{ event: '$autocapture', tag_name: 'button', text: 'Pay $10' }] }],
    query: statsQuery('2023-12-01', '2023-12-03', { breakdownBy: 'InitialUTMSource', actionId: 1 }),
    expected: [[null, [1, null], [1, null], [1, null], [1, null], 1, '']], columns: GOAL_COLUMNS,
  }),
  test_conversion_rate: () => ({
    ...conversionEvents([[foo(), foo()], [foo(), bar()], [bar()]]), actions: [VISITED_FOO_URL], query: statsQuery('2023-12-01', '2023-12-03', { actionId: 1 }),
    expected: [['https://www.example.com/foo', [2, null], [3, null], [2, null], [1, null], 2 / 2, ''], ['https://www.example.com/bar', [2, null], [0, null], [0, null], [0, null], 0 / 2, '']], columns: GOAL_COLUMNS,
  }),
  test_sorting_by_visitors_asc: () => ({ ...sortingVisitors(), query: statsQuery('all', '2023-12-15', { orderBy: ['Visitors', 'ASC'] }), firstColumn: ['/path3', '/path2', '/path1'] }),
  test_sorting_by_visitors_desc: () => ({ ...sortingVisitors(), query: statsQuery('all', '2023-12-15', { orderBy: ['Visitors', 'DESC'] }), firstColumn: ['/path1', '/path2', '/path3'] }),
  test_sorting_by_views_asc: () => ({ ...sortingViews(), query: statsQuery('all', '2023-12-15', { orderBy: ['Views', 'ASC'] }), firstColumn: ['/path1', '/path2', '/path3'] }),
  test_sorting_by_views_desc: () => ({ ...sortingViews(), query: statsQuery('all', '2023-12-15', { orderBy: ['Views', 'DESC'] }), firstColumn: ['/path3', '/path2', '/path1'] }),
  test_sorting_by_bounce_rate_asc: () => ({ ...sortingBounce(), query: statsQuery('all', '2023-12-15', { includeBounceRate: true, orderBy: ['BounceRate', 'ASC'] }), firstColumn: ['/path2', '/path3', '/path1'] }),
  test_sorting_by_bounce_rate_desc: () => ({ ...sortingBounce(), query: statsQuery('all', '2023-12-15', { includeBounceRate: true, orderBy: ['BounceRate', 'DESC'] }), firstColumn: ['/path1', '/path3', '/path2'] }),
  test_sorting_by_scroll_depth_asc: () => ({ ...sortingScroll(), query: statsQuery('all', '2023-12-15', { includeScrollDepth: true, includeBounceRate: true, orderBy: ['AverageScrollPercentage', 'ASC'] }), firstColumn: ['/path1', '/path2', '/path3'] }),
  test_sorting_by_scroll_depth_desc: () => ({ ...sortingScroll(), query: statsQuery('all', '2023-12-15', { includeScrollDepth: true, includeBounceRate: true, orderBy: ['AverageScrollPercentage', 'DESC'] }), firstColumn: ['/path3', '/path2', '/path1'] }),
  test_sorting_by_total_conversions_asc: () => ({ ...sortingConversions(), query: statsQuery('2023-12-01', '2023-12-03', { actionId: 1, orderBy: ['TotalConversions', 'ASC'] }), firstColumn: ['/bar', '/foo'] }),
  test_sorting_by_total_conversions_desc: () => ({ ...sortingConversions(), query: statsQuery('2023-12-01', '2023-12-03', { actionId: 1, orderBy: ['TotalConversions', 'DESC'] }), firstColumn: ['/foo', '/bar'] }),
  test_sorting_by_conversion_rate_asc: () => ({ ...sortingConversions(), query: statsQuery('2023-12-01', '2023-12-03', { actionId: 1, orderBy: ['ConversionRate', 'ASC'] }), firstColumn: ['/bar', '/foo'] }),
  test_sorting_by_conversion_rate_desc: () => ({ ...sortingConversions(), query: statsQuery('2023-12-01', '2023-12-03', { actionId: 1, orderBy: ['ConversionRate', 'DESC'] }), firstColumn: ['/foo', '/bar'] }),
  test_bounce_rate_with_multiple_pathname_filters: () => ({
    ...merge(
      createPageviews('user1', [['/onboarding/portfolio-selection', '2023-12-02T12:00:00', 0.5], ['/', '2023-12-02T12:00:30', 0.3]]),
      createPageviews('user2', [['/', '2023-12-02T12:00:00', 0.1]]),
      createPageviews('user3', [['/onboarding/portfolio-selection', '2023-12-02T12:00:00', 0.1]]),
      createPageviews('user4', [['/onboarding/goals', '2023-12-02T12:00:30', 0.8], ['/onboarding/funding', '2023-12-02T12:01:00', 0.9]]),
    ),
    query: statsQuery('all', '2023-12-15', { includeBounceRate: true, properties: [PATHNAME(['/onboarding/portfolio-selection', '/'])] }),
    // PostHog asserts two rows and their bounce rates: portfolio 0.5, home 1.
    expected: [['/', [2, 0], [2, 0], [1, null], 2 / 4, ''], ['/onboarding/portfolio-selection', [2, 0], [2, 0], [0.5, null], 2 / 4, '']],
  }),
};

function sameUser() {
  const [s1, s2] = [uuid7('2024-07-30'), uuid7('2024-07-30')];
  return {
    persons: { d1: person('d1') },
    events: [s1, s2].map((s) => ({ distinct_id: 'd1', event: '$pageview', timestamp: at('2024-07-30'), properties: { $session_id: s, utm_source: 'google', $pathname: '/path' } })),
  };
}
function noSession() {
  return { persons: { d1: person('d1') }, events: [{ distinct_id: 'd1', event: '$pageview', timestamp: at('2024-07-30'), properties: { utm_source: 'google', $pathname: '/path' } }] };
}
function sortingVisitors() {
  const [s1, s2, s3] = [uuid7('2023-12-01'), uuid7('2023-12-01'), uuid7('2023-12-01')];
  return createEvents([['p1', [['2023-12-01', s1, '/path1']]], ['p2', [['2023-12-01', s2, '/path1'], ['2023-12-01', s2, '/path2']]], ['p3', [['2023-12-01', s3, '/path1'], ['2023-12-01', s3, '/path2'], ['2023-12-01', s3, '/path3']]]]);
}
function sortingViews() {
  const [s1, s2, s3] = [uuid7('2023-12-01'), uuid7('2023-12-01'), uuid7('2023-12-01')];
  return createEvents([['p1', [['2023-12-01', s1, '/path1']]], ['p2', [['2023-12-01', s2, '/path2'], ['2023-12-01', s2, '/path2']]], ['p3', [['2023-12-01', s3, '/path3'], ['2023-12-01', s3, '/path3'], ['2023-12-01', s3, '/path3']]]]);
}
function sortingBounce() {
  return merge(
    createPageviews('p1', [['/path1', '2023-12-02T12:00:00', 0.1]]),
    createPageviews('p2', [['/path2', '2023-12-02T12:00:00', 0.1], ['/path2', '2023-12-02T12:00:01', 0.2]]),
    createPageviews('p3', [['/path3', '2023-12-02T12:00:00', 0.1], ['/path3', '2023-12-02T12:00:01', 0.1], ['/path3', '2023-12-02T12:00:02', 0.2]]),
  );
}
function sortingScroll() {
  return merge(
    createPageviews('p1', [['/path1', '2023-12-02T12:00:00', 0.1]]),
    createPageviews('p2', [['/path2', '2023-12-02T12:00:00', 0.5]]),
    createPageviews('p3', [['/path3', '2023-12-02T12:00:00', 0.9]]),
  );
}
function sortingConversions() {
  return { ...conversionEvents([[foo('/foo'), foo('/foo')], [foo('/foo'), bar('/bar')], [bar('/bar')]]), actions: [VISITED_FOO_PATH] };
}

describe("PostHog's test_web_stats_table.py", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  async function answer(c: StatsCase) {
    const prepared = await prepareCase(t, c);
    return runQuery(t, prepared.who, prepared.query);
  }

  for (const [name, make] of Object.entries(CASES)) {
    it(name, async () => {
      const c = make();
      const response = await answer(c);
      const rows = response.results as unknown[][];
      if (c.firstColumn) {
        const first = rows.map((row) => row[0]);
        expect(name === 'test_language_filter' ? first.map((v) => String(v).split('-')[0]) : first).toEqual(c.firstColumn);
      }
      if (c.expected) {
        const sort = (list: unknown[]) => (c.sorted ? [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) : list);
        expect(roundFloats(sort(rows))).toEqual(roundFloats(sort(c.expected)));
      }
      if (c.hasMore !== undefined) expect(response.hasMore).toBe(c.hasMore);
      if (c.columns) expect(response.columns).toEqual(c.columns);
    });
  }

  it('test_cohort_test_filters: a cohort as the test-account filter keeps its members', async () => {
    const [s1, s2] = [uuid7('2024-07-30'), uuid7('2024-07-30')];
    const c: StatsCase = {
      persons: { d1: { name: 'd1', email: 'test@example.com' }, d2: { name: 'd2', email: 'd2@hedgebox.net' } },
      events: [
        { distinct_id: 'd1', event: '$pageview', timestamp: at('2024-07-30'), properties: { $session_id: s1, $pathname: '/path1' } },
        { distinct_id: 'd2', event: '$pageview', timestamp: at('2024-07-30'), properties: { $session_id: s2, $pathname: '/path2' } },
      ],
      query: statsQuery('all', null, { filterTestAccounts: true }),
    };
    const prepared = await prepareCase(t, c);
    const cohort = await t.request(prepared.who.key, { method: 'POST', url: `/api/projects/${prepared.who.projectId}/cohorts/`, payload: {
      name: 'Real persons', groups: [{ properties: [{ key: 'email', type: 'person', value: '@hedgebox.net$', operator: 'not_regex' }] }],
    } });
    expect(cohort.statusCode, cohort.body).toBe(201);
    const patch = await t.request(prepared.who.key, { method: 'PATCH', url: `/api/projects/${prepared.who.projectId}/`, payload: { test_account_filters: [{ key: 'id', value: cohort.json().id, type: 'cohort' }] } });
    expect(patch.statusCode, patch.body).toBe(200);
    expect((await runQuery(t, prepared.who, prepared.query)).results).toEqual([['/path1', [1, null], [1, null], 1, '']]);
  });

});

/** Floats to 7 places, as PostHog's FloatAwareTestCase compares them. */
function roundFloats(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isInteger(value)) return Math.round(value * 1e7) / 1e7;
  if (Array.isArray(value)) return value.map(roundFloats);
  return value;
}
