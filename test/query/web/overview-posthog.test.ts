// PostHog's posthog/hogql_queries/web_analytics/test/test_web_overview.py as data: each case's
// events captured through /batch/ into a project of its own (persons' properties as $set,
// actions and test-account filters through the API), the WebOverviewQuery through /query/, and
// the numbers PostHog's test expects. Ledger: docs/web-analytics-posthog-tests.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { runQuery } from '../../helpers/journeys.js';
import { prepareCase, type PortedCase } from '../../helpers/posthog-cases.js';

let sequence = 0;
/** A UUIDv7 whose time part is the day's start, as PostHog's tests make session ids (uuid7("2023-12-02")). */
function uuid7(day: string): string {
  const hex = Date.parse(`${day}T00:00:00Z`).toString(16).padStart(12, '0');
  const tail = (++sequence).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-${tail}`;
}

type Visit = [day: string, session: string, extra?: Record<string, unknown>];

/** PostHog's _create_events: a person per distinct id (name, and the test email for "test"), one event per visit. */
function events(data: [string, Visit[]][], event = '$pageview'): Pick<PortedCase, 'persons' | 'events'> {
  const persons: Record<string, Record<string, unknown>> = {};
  const list: PortedCase['events'] = [];
  for (const [id, visits] of data) {
    persons[id] = { name: id, ...(id === 'test' ? { email: 'test@posthog.com' } : {}) };
    for (const [day, session, extra] of visits) {
      list.push({ distinct_id: id, event, timestamp: `${day}T00:00:00Z`, properties: { $session_id: session, ...extra } });
    }
  }
  return { persons, events: list };
}

const url = (u: string) => ({ $current_url: u });

/** PostHog's _run_web_overview_query: properties [], compare on unless asked otherwise. */
function overview(from: string, to: string, options: { compare?: boolean; filterTestAccounts?: boolean; actionId?: number; customEvent?: string; bounceMode?: string; includeRevenue?: boolean } = {}) {
  const { compare = true } = options;
  return {
    kind: 'WebOverviewQuery',
    dateRange: { date_from: from, date_to: to },
    properties: [],
    ...(compare ? { compareFilter: { compare: true } } : {}),
    modifiers: { sessionTableVersion: 'v2', bounceRatePageViewMode: options.bounceMode ?? 'count_pageviews' },
    filterTestAccounts: options.filterTestAccounts ?? false,
    includeRevenue: options.includeRevenue ?? false,
    ...(options.actionId ? { conversionGoal: { actionId: options.actionId } } : options.customEvent ? { conversionGoal: { customEventName: options.customEvent } } : {}),
  };
}

/** PostHog's default test-account filter for a team whose users have @posthog.com emails. */
const POSTHOG_TEST_ACCOUNTS = { test_account_filters: [{ key: 'email', value: '@posthog.com', operator: 'not_icontains', type: 'person' }] };

const VISIT_FOO = { id: 1, name: 'Visited Foo', steps: [{ event: '$pageview', url: 'https://www.example.com/foo', url_matching: 'regex' }] };

type Expected = Record<string, Partial<{ value: number | null; previous: number | null; changeFromPreviousPct: number | null; kind: string }>>;

interface OverviewCase extends PortedCase {
  /** Expected items by key; `keys`: the exact list of keys. */
  expected?: Expected;
  keys?: string[];
}

/** p1: s1a on 12-02 and 12-03, s1b on 12-12; p2: s2 on 12-11 (PostHog's test_increase_in_users data). */
function increase(event = '$pageview') {
  const [s1a, s1b, s2] = [uuid7('2023-12-02'), uuid7('2023-12-12'), uuid7('2023-12-11')];
  return events([
    ['p1', [['2023-12-02', s1a], ['2023-12-03', s1a], ['2023-12-12', s1b]]],
    ['p2', [['2023-12-11', s2]]],
  ], event);
}

const INCREASE_EXPECTED: Expected = {
  visitors: { value: 2, previous: 1, changeFromPreviousPct: 100 },
  views: { value: 2, previous: 2, changeFromPreviousPct: 0 },
  sessions: { value: 2, previous: 1, changeFromPreviousPct: 100 },
  'session duration': { value: 0, previous: 86400, changeFromPreviousPct: -100 },
  'bounce rate': { value: 100, previous: 0, changeFromPreviousPct: null },
};

const CONVERSION_RATE_EVENTS = () => {
  const [s1, s2, s3] = [uuid7('2023-12-01'), uuid7('2023-12-01'), uuid7('2023-12-01')];
  return events([
    ['p1', [['2023-12-01', s1, url('https://www.example.com/foo')], ['2023-12-01', s1, url('https://www.example.com/foo')]]],
    ['p2', [['2023-12-01', s2, url('https://www.example.com/foo')], ['2023-12-01', s2, url('https://www.example.com/bar')]]],
    ['p3', [['2023-12-01', s3, url('https://www.example.com/bar')]]],
  ]);
};

const CASES: Record<string, () => OverviewCase> = {
  test_no_crash_when_no_data: () => ({ events: [], query: overview('2023-12-08', '2023-12-15'), keys: ['visitors', 'views', 'sessions', 'session duration', 'bounce rate'] }),
  'test_no_crash_when_no_data (with an action goal)': () => ({ events: [], actions: [VISIT_FOO], query: overview('2023-12-08', '2023-12-15', { actionId: 1 }), keys: ['visitors', 'total conversions', 'unique conversions', 'conversion rate'] }),
  test_increase_in_users: () => ({ ...increase(), query: overview('2023-12-08', '2023-12-15'), expected: INCREASE_EXPECTED }),
  test_increase_in_users_using_mobile: () => ({ ...increase('$screen'), query: overview('2023-12-08', '2023-12-15', { bounceMode: 'uniq_page_screen_autocaptures' }), expected: INCREASE_EXPECTED }),
  test_all_time: () => ({
    ...increase(),
    query: overview('all', '2023-12-15', { compare: false }),
    expected: {
      visitors: { value: 2, previous: null, changeFromPreviousPct: null },
      views: { value: 4, previous: null, changeFromPreviousPct: null },
      sessions: { value: 3, previous: null, changeFromPreviousPct: null },
      'session duration': { value: (60 * 60 * 24) / 3, previous: null, changeFromPreviousPct: null },
      'bounce rate': { value: (100 * 2) / 3, previous: null, changeFromPreviousPct: null },
    },
  }),
  test_comparison: () => ({ ...increase(), query: overview('2023-12-06', '2023-12-13'), expected: INCREASE_EXPECTED }),
  test_filter_test_accounts: () => {
    const s1 = uuid7('2023-12-02');
    return {
      ...events([['test', [['2023-12-02', s1], ['2023-12-03', s1]]]]),
      projectSettings: POSTHOG_TEST_ACCOUNTS,
      query: overview('2023-12-01', '2023-12-03', { filterTestAccounts: true }),
      expected: { visitors: { value: 0 }, views: { value: 0 }, sessions: { value: 0 }, 'session duration': { value: null }, 'bounce rate': { value: null } },
    };
  },
  test_dont_filter_test_accounts: () => {
    const s1 = uuid7('2023-12-02');
    return {
      ...events([['test', [['2023-12-02', s1], ['2023-12-03', s1]]]]),
      projectSettings: POSTHOG_TEST_ACCOUNTS,
      query: overview('2023-12-01', '2023-12-03', { filterTestAccounts: false }),
      expected: { visitors: { value: 1 } },
    };
  },
  test_correctly_counts_pageviews_in_long_running_session: () => {
    const s1 = uuid7('2023-12-01');
    return {
      ...events([['p1', [['2023-12-01', s1], ['2023-12-02', s1], ['2023-12-03', s1]]]]),
      query: overview('2023-12-01', '2023-12-03'),
      expected: { visitors: { value: 1 }, views: { value: 3 }, sessions: { value: 1 } },
    };
  },
  test_conversion_goal_no_conversions: () => ({
    ...events([['p1', [['2023-12-01', uuid7('2023-12-01'), url('https://www.example.com/foo')]]]]),
    actions: [{ id: 1, name: 'Visited Foo', steps: [{ event: '$pageview', url: 'https://www.example.com/bar', url_matching: 'regex' }] }],
    query: overview('2023-12-01', '2023-12-03', { actionId: 1 }),
    expected: { visitors: { value: 1 }, 'total conversions': { value: 0 }, 'unique conversions': { value: 0 }, 'conversion rate': { value: 0 } },
  }),
  test_conversion_goal_one_pageview_conversion: () => ({
    ...events([['p1', [['2023-12-01', uuid7('2023-12-01'), url('https://www.example.com/foo')]]]]),
    actions: [VISIT_FOO],
    query: overview('2023-12-01', '2023-12-03', { actionId: 1 }),
    expected: { visitors: { value: 1 }, 'total conversions': { value: 1 }, 'unique conversions': { value: 1 }, 'conversion rate': { value: 100 } },
  }),
  test_conversion_goal_one_custom_event_conversion: () => ({
    ...events([['p1', [['2023-12-01', uuid7('2023-12-01'), url('https://www.example.com/foo')]]]], 'custom_event'),
    query: overview('2023-12-01', '2023-12-03', { customEvent: 'custom_event' }),
    expected: { visitors: { value: 1 }, 'total conversions': { value: 1 }, 'unique conversions': { value: 1 }, 'conversion rate': { value: 100 } },
  }),
  test_conversion_goal_one_custom_action_conversion: () => ({
    ...events([['p1', [['2023-12-01', uuid7('2023-12-01')]]]], 'custom_event'),
    actions: [{ id: 1, name: 'Did Custom Event', steps: [{ event: 'custom_event' }] }],
    query: overview('2023-12-01', '2023-12-03', { actionId: 1 }),
    expected: { visitors: { value: 1 }, 'total conversions': { value: 1 }, 'unique conversions': { value: 1 }, 'conversion rate': { value: 100 } },
  }),
  test_conversion_goal_one_autocapture_conversion: () => ({
    // Element(nth_of_type=1, nth_child=0, tag_name="button", text="Pay $10") as PostHog writes its chain.
    ...events([['p1', [['2023-12-01', uuid7('2023-12-01'), { $elements_chain: 'button:nth-child="0"nth-of-type="1"text="Pay $10"' }]]]], '$autocapture'),
    actions: [{ id: 1, name: 'Paid $10', steps: [{ event: '$autocapture', tag_name: 'button', text: 'Pay $10' }] }],
    query: overview('2023-12-01', '2023-12-03', { actionId: 1 }),
    expected: { visitors: { value: 1 }, 'total conversions': { value: 1 }, 'unique conversions': { value: 1 }, 'conversion rate': { value: 100 } },
  }),
  test_conversion_rate: () => ({
    ...CONVERSION_RATE_EVENTS(),
    actions: [VISIT_FOO],
    query: overview('2023-12-01', '2023-12-03', { actionId: 1 }),
    expected: { visitors: { value: 3 }, 'total conversions': { value: 3 }, 'unique conversions': { value: 2 }, 'conversion rate': { value: (100 * 2) / 3 } },
  }),
  test_revenue_no_config: () => ({
    ...events([['p1', [['2023-12-02', uuid7('2023-12-02'), { revenue: 100 }]]]], 'purchase'),
    query: overview('2023-12-01', '2023-12-03', { includeRevenue: true }),
    expected: { revenue: { kind: 'currency', value: null } },
  }),
  test_revenue_conversion_no_config: () => ({
    ...events([['p1', [['2023-12-02', uuid7('2023-12-02'), { revenue: 100 }]]]], 'purchase'),
    query: overview('2023-12-01', '2023-12-03', { includeRevenue: true, customEvent: 'purchase' }),
    expected: { 'conversion revenue': { kind: 'currency', value: null } },
  }),
  test_no_revenue_when_event_conversion_goal_set_but_include_revenue_disabled: () => ({
    ...events([['p1', [['2023-12-02', uuid7('2023-12-01'), { revenue: 100 }]]]], 'purchase'),
    query: overview('2023-12-01', '2023-12-03', { customEvent: 'purchase', includeRevenue: false }),
    keys: ['visitors', 'total conversions', 'unique conversions', 'conversion rate'],
  }),
  test_no_revenue_when_action_conversion_goal_set_but_include_revenue_disabled: () => ({
    ...events([['p1', [['2023-12-02', uuid7('2023-12-01'), { revenue: 100 }]]]], 'custom_event'),
    actions: [{ id: 1, name: 'Did Custom Event', steps: [{ event: 'custom_event' }] }],
    query: overview('2023-12-01', '2023-12-03', { actionId: 1, includeRevenue: false }),
    keys: ['visitors', 'total conversions', 'unique conversions', 'conversion rate'],
  }),
  test_no_previous_when_comparison_disabled_but_conversion_goal_enabled: () => ({
    ...CONVERSION_RATE_EVENTS(),
    actions: [VISIT_FOO],
    query: overview('2023-12-01', '2023-12-03', { actionId: 1, compare: false }),
    expected: {
      visitors: { value: 3, previous: null, changeFromPreviousPct: null },
      'total conversions': { value: 3, previous: null, changeFromPreviousPct: null },
      'unique conversions': { value: 2, previous: null, changeFromPreviousPct: null },
      'conversion rate': { value: (100 * 2) / 3, previous: null, changeFromPreviousPct: null },
    },
  }),
};

describe("PostHog's test_web_overview.py", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  async function results(c: OverviewCase) {
    // Actions are named by placeholder id 1 in the cases: prepareCase gives the goal the created action's id.
    const prepared = await prepareCase(t, c);
    return (await runQuery(t, prepared.who, prepared.query)).results as any[];
  }

  for (const [name, make] of Object.entries(CASES)) {
    it(name, async () => {
      const c = make();
      const items = await results(c);
      if (c.keys) expect(items.map((i) => i.key)).toEqual(c.keys);
      for (const [key, expected] of Object.entries(c.expected ?? {})) {
        const item = items.find((i) => i.key === key);
        expect(item, key).toBeDefined();
        for (const [field, value] of Object.entries(expected)) {
          if (typeof value === 'number' && !Number.isInteger(value)) expect(item[field], `${key}.${field}`).toBeCloseTo(value, 7);
          else expect(item[field], `${key}.${field}`).toEqual(value);
        }
      }
    });
  }

  it('test_filter_cohort: an empty cohort as the test-account filter leaves nobody', async () => {
    const s1 = uuid7('2023-12-02');
    const c: OverviewCase = { ...events([['test', [['2023-12-02', s1], ['2023-12-03', s1]]]]), query: overview('2023-12-01', '2023-12-03', { filterTestAccounts: true }) };
    const prepared = await prepareCase(t, c);
    const cohort = await t.request(prepared.who.key, { method: 'POST', url: `/api/projects/${prepared.who.projectId}/cohorts/`, payload: { name: 'test', is_static: true } });
    expect(cohort.statusCode, cohort.body).toBe(201);
    const patch = await t.request(prepared.who.key, { method: 'PATCH', url: `/api/projects/${prepared.who.projectId}/`, payload: { test_account_filters: [{ key: 'id', value: cohort.json().id, type: 'cohort' }] } });
    expect(patch.statusCode, patch.body).toBe(200);
    const items = (await runQuery(t, prepared.who, prepared.query)).results as any[];
    expect(items.map((i) => i.value)).toEqual([0, 0, 0, null, null]);
  });
});
