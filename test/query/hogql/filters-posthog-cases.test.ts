// `{filters}` with a HogQLQuery's `filters`, PostHog's cases as data: posthog/hogql/test/test_filters.py
// (what replace_filters makes of dateRange, properties and filterTestAccounts, turned into the rows
// that condition keeps), test_hogql_query_runner.py's test_hogql_query_filters, and the API test
// test_filters_placeholder_with_and_without_saved_filters (frozen at 2026-06-12T12:00Z there; here
// the same offsets from the real clock). Events through /batch/, settings through PATCH
// /api/projects/:id/, queries through POST /query/.
// Added beyond PostHog's tests, from posthog/hogql/filters.py: "-7d" is now minus 7 days exactly
// (relative_date_parse without truncation), {filters} over the sessions table bounds the session's
// $start_timestamp, and a table alias changes nothing.
// Left out: {filters} over events joined to groups reads the events (PostHog then takes the groups'
// created_at). Session property filters are test_query.py's case (test-query-posthog-cases.test.ts);
// filterTestAccounts over the sessions table alone is in runner-api-posthog-cases.test.ts.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows, postHogQL } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let utc: Credentials;
let ny: Credentials;

const hogql = (who: Credentials, query: string, filters?: Record<string, unknown>) => postHogQL(t, who, query, filters ? { filters } : {});
const rows = (who: Credentials, query: string, filters?: Record<string, unknown>) => hogqlRows(t, who, query, filters ? { filters } : {});

/** Events around test_filters.py's date bounds (2020-02-02 .. 2020-02-03 23:59:59), named by their instant. */
const BOUNDARY_EVENTS = ['2020-02-01T23:59:59Z', '2020-02-02T00:00:00Z', '2020-02-02T04:59:59Z', '2020-02-02T05:00:00Z', '2020-02-03T18:59:58Z',
  '2020-02-03T18:59:59Z', '2020-02-03T23:59:58Z', '2020-02-03T23:59:59Z', '2020-02-04T04:59:58Z', '2020-02-04T04:59:59Z', '2020-02-04T05:00:00Z'];
const BOUNDARIES = 'SELECT properties.at FROM events WHERE event = \'boundary\' AND {filters} ORDER BY timestamp';

async function setUp(who: Credentials): Promise<void> {
  await journeys(t, who, {
    boundary: BOUNDARY_EVENTS.map((at) => ev('boundary', at, { at })),
    // test_replace_filters_event_property / _person_property / _test_accounts.
    'uuid-both': [ev('props', '2020-03-01T00:00:00Z', { random_uuid: '123', $set: { random_uuid: '123', email: 'both@example.com' } })],
    'uuid-event': [ev('props', '2020-03-01T00:00:00Z', { random_uuid: '123', $set: { random_uuid: '456', email: 'event@posthog.com' } })],
    'uuid-person': [ev('props', '2020-03-01T00:00:00Z', { random_uuid: '456', $set: { random_uuid: '123' } })],
  });
}

beforeAll(async () => {
  t = await createTestApp('sqlite');
  utc = await t.bootstrap('filters-cases-utc@example.com');
  ny = await t.bootstrap('filters-cases-ny@example.com');
  for (const who of [utc, ny]) {
    const res = await t.request(who.key, {
      method: 'PATCH',
      url: `/api/projects/${who.projectId}/`,
      payload: { ...(who === ny ? { timezone: 'America/New_York' } : {}), test_account_filters: [{ key: 'email', type: 'person', value: 'posthog.com', operator: 'not_icontains' }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    await setUp(who);
  }
});
afterAll(() => t.close());

/** The first column of each row; an instant as UTC text (a property of ISO dates is typed DateTime, shown in the project's zone). */
const at = (result: unknown[][]) => result.map(([value]) => {
  const instant = typeof value === 'string' ? DateTime.fromISO(value, { setZone: true }) : null;
  return instant?.isValid && /[T ]\d\d:/.test(value as string) ? instant.toUTC().toISO({ suppressMilliseconds: true }) : value;
});

describe("test_filters.py: replace_filters' conditions, as rows", () => {
  it('no filters, or empty ones, are TRUE (test_replace_filters_empty): no default date range', async () => {
    expect(at(await rows(utc, BOUNDARIES))).toEqual(BOUNDARY_EVENTS);
    expect(at(await rows(utc, BOUNDARIES, {}))).toEqual(BOUNDARY_EVENTS);
    expect(at(await rows(utc, BOUNDARIES, { properties: [] }))).toEqual(BOUNDARY_EVENTS);
  });

  it('refuses {filters} over persons, with or without filters (test_raises_when_filters_*)', async () => {
    for (const filters of [undefined, {}, { dateRange: { date_from: '2020-02-02' } }]) {
      const { status, body } = await hogql(utc, 'SELECT id FROM persons WHERE {filters}', filters);
      expect(status).toBe(400);
      expect(body.detail).toContain("Cannot use 'filters' placeholder in a SELECT clause that does not select from");
    }
  });

  it('date_from is inclusive, date_to exclusive, both as given (test_replace_filters_date_range)', async () => {
    expect(at(await rows(utc, BOUNDARIES, { dateRange: { date_from: '2020-02-02' } }))).toEqual(BOUNDARY_EVENTS.slice(1));
    // date_to "2020-02-02" is that day's midnight: the day itself is not in the range.
    expect(at(await rows(utc, BOUNDARIES, { dateRange: { date_to: '2020-02-02' } }))).toEqual(['2020-02-01T23:59:59Z']);
    expect(at(await rows(utc, BOUNDARIES, { dateRange: { date_from: '2020-02-02', date_to: '2020-02-03 23:59:59' } })))
      .toEqual(BOUNDARY_EVENTS.slice(1, 7));
  });

  it("reads dates without an offset in the project's time zone (test_replace_filters_date_range, New York)", async () => {
    expect(at(await rows(ny, BOUNDARIES, { dateRange: { date_from: '2020-02-02', date_to: '2020-02-03 23:59:59' } })))
      .toEqual(BOUNDARY_EVENTS.slice(3, 9)); // 2020-02-02T05:00Z up to, not including, 2020-02-04T04:59:59Z
  });

  it('a date with an offset is that instant (test_replace_filters_date_range_with_timezone)', async () => {
    // from 2020-02-02 New York midnight (05:00Z), to 2020-02-03 23:59:59Z = 18:59:59 New York.
    expect(at(await rows(ny, BOUNDARIES, { dateRange: { date_from: '2020-02-02', date_to: '2020-02-03 23:59:59Z' } })))
      .toEqual(['2020-02-02T05:00:00Z', '2020-02-03T18:59:58Z', '2020-02-03T18:59:59Z', '2020-02-03T23:59:58Z']);
  });

  it('event and person property filters (test_replace_filters_event_property, _person_property)', async () => {
    const props = "SELECT distinct_id FROM events WHERE event = 'props' AND {filters} ORDER BY distinct_id";
    const event = { key: 'random_uuid', operator: 'exact', value: '123', type: 'event' };
    const person = { key: 'random_uuid', operator: 'exact', value: '123', type: 'person' };
    expect(await rows(utc, props, { properties: [event] })).toEqual([['uuid-both'], ['uuid-event']]);
    expect(await rows(utc, props, { properties: [person] })).toEqual([['uuid-both'], ['uuid-person']]);
    expect(await rows(utc, props, { properties: [event, person] })).toEqual([['uuid-both']]);
  });

  it("filterTestAccounts applies the project's test-account filters (test_replace_filters_test_accounts)", async () => {
    const props = "SELECT distinct_id FROM events WHERE event = 'props' AND {filters} ORDER BY distinct_id";
    // notILike(toString(person.properties.email), '%posthog.com%'): a person without an email is kept.
    expect(await rows(utc, props, { filterTestAccounts: true })).toEqual([['uuid-both'], ['uuid-person']]);
    expect(await rows(utc, props, { filterTestAccounts: false })).toHaveLength(3);
  });
});

describe('{filters} with a table alias, and over sessions', () => {
  it('an alias on events changes nothing', async () => {
    const props = "SELECT e.distinct_id FROM events AS e WHERE e.event = 'props' AND {filters} ORDER BY e.distinct_id";
    const person = { key: 'random_uuid', operator: 'exact', value: '123', type: 'person' };
    expect(await rows(utc, props, { properties: [person], filterTestAccounts: true, dateRange: { date_from: '2020-03-01', date_to: '2020-03-02' } }))
      .toEqual([['uuid-both'], ['uuid-person']]);
    expect(await rows(utc, props, { properties: [person], dateRange: { date_from: '2020-03-01T00:00:01' } })).toEqual([]);
  });

  it("bounds a session's $start_timestamp, under an alias too", async () => {
    const who = await t.bootstrap('filters-cases-sessions@example.com');
    await journeys(t, who, {
      a: [ev('$pageview', '2021-05-01T23:59:00Z', { $session_id: 'early' }), ev('$pageview', '2021-05-02T00:10:00Z', { $session_id: 'early' })],
      b: [ev('$pageview', '2021-05-02T10:00:00Z', { $session_id: 'inside' })],
      c: [ev('$pageview', '2021-05-03T00:00:00Z', { $session_id: 'late' })],
    });
    const range = { dateRange: { date_from: '2021-05-02', date_to: '2021-05-03' } };
    expect(await rows(who, 'SELECT session_id FROM sessions WHERE {filters} ORDER BY session_id', range)).toEqual([['inside']]);
    expect(await rows(who, 'SELECT s.session_id FROM sessions AS s WHERE {filters} ORDER BY s.session_id', { dateRange: { date_from: '2021-05-02' } })).toEqual([['inside'], ['late']]);
    expect(await rows(who, 'SELECT count() FROM sessions WHERE {filters}')).toEqual([[3]]);
    // PostHog takes only session properties over the sessions table alone.
    const { status, body } = await hogql(who, 'SELECT count() FROM sessions WHERE {filters}', { properties: [{ key: '$browser', operator: 'exact', value: 'x', type: 'event' }] });
    expect(status).toBe(400);
    expect(body.detail).toBe('Can only use session properties in a filter when selecting from only the sessions table.');
  });
});

describe('{filters.dateRange.from} and {filters.dateRange.to} (test_filters.py)', () => {
  it('a bound without a date range makes its comparison TRUE; nested in a call it is refused', async () => {
    const bounded = "SELECT count() FROM events WHERE event = 'boundary' AND timestamp >= {filters.dateRange.from} AND timestamp < {filters.dateRange.to}";
    expect(await rows(utc, bounded)).toEqual([[BOUNDARY_EVENTS.length]]);
    expect(await rows(utc, bounded, { dateRange: { date_from: '2020-02-02', date_to: '2020-02-03 23:59:59' } })).toEqual([[6]]);
    expect(await rows(ny, bounded, { dateRange: { date_from: '2020-02-02' } })).toEqual([[BOUNDARY_EVENTS.length - 3]]);
    expect(await rows(utc, bounded, { dateRange: { date_from: 'all', date_to: '2020-02-02' } })).toEqual([[1]]);
    for (const placeholder of ['filters.dateRange.from', 'filters.dateRange.to']) {
      const { status, body } = await hogql(utc, `SELECT toStartOfDay({${placeholder}}) FROM events`);
      expect(status).toBe(400);
      expect(body.detail).toContain(`The \`{${placeholder}}\` placeholder must be used directly`);
    }
  });

  it("resolves inside a call when the range sets it, in the project's time zone", async () => {
    const query = "SELECT toStartOfDay({filters.dateRange.from}) FROM events WHERE event = 'boundary' LIMIT 1";
    expect(await rows(utc, query, { dateRange: { date_from: '2020-02-02' } })).toEqual([['2020-02-02T00:00:00Z']]);
    expect(await rows(ny, query, { dateRange: { date_from: '2020-02-02' } })).toEqual([['2020-02-02T00:00:00-05:00']]);
  });

  it('refuses the other filters placeholders (test_raises_for_unsupported_filters_placeholder)', async () => {
    const { status, body } = await hogql(utc, 'SELECT dateTrunc({filters.interval}, timestamp) FROM events WHERE {filters}');
    expect(status).toBe(400);
    expect(body.detail).toContain('Unsupported filters placeholder `{filters.interval}`');
  });
});

describe("test_filters.py's groups cases: created_at and group properties", () => {
  it('bounds created_at and filters on the group properties (test_replace_filters_groups_*)', async () => {
    const who = await t.bootstrap('filters-cases-groups@example.com');
    const identify = (key: string, at: string, set: Record<string, unknown>) => ev('$groupidentify', at, { $group_type: 'organization', $group_key: key, $group_set: set });
    await journeys(t, who, {
      setup: [
        identify('org-a', '2020-02-01T12:00:00Z', { company_name: 'PostHog', industry: 'Software' }),
        identify('org-b', '2020-02-02T00:00:00Z', { company_name: 'PostHog', industry: 'Hardware' }),
        identify('org-c', '2020-02-04T00:00:00Z', { company_name: 'Other', industry: 'Software' }),
      ],
    });
    const keys = async (filters?: Record<string, unknown>) => at(await rows(who, 'SELECT key FROM groups WHERE {filters} ORDER BY key', filters));
    const company = { key: 'company_name', operator: 'exact', value: 'PostHog', type: 'group', group_type_index: 0 };
    const industry = { key: 'industry', operator: 'exact', value: 'Software', type: 'group', group_type_index: 0 };
    expect(await keys()).toEqual(['org-a', 'org-b', 'org-c']);
    expect(await keys({})).toEqual(['org-a', 'org-b', 'org-c']);
    expect(await keys({ dateRange: { date_from: '2020-02-02' } })).toEqual(['org-b', 'org-c']);
    expect(await keys({ dateRange: { date_to: '2020-02-02' } })).toEqual(['org-a']);
    expect(await keys({ dateRange: { date_from: '2020-02-02', date_to: '2020-02-03 23:59:59' } })).toEqual(['org-b']);
    expect(await keys({ properties: [company] })).toEqual(['org-a', 'org-b']);
    expect(await keys({ properties: [company, industry] })).toEqual(['org-a']);
    expect(await keys({ properties: [company], dateRange: { date_from: '2020-02-02' } })).toEqual(['org-b']);
  });
});

describe("test_hogql_query_runner.py and the API's {filters} cases", () => {
  it('a HogQL property filter with no date range counts every event (test_hogql_query_filters)', async () => {
    const who = await t.bootstrap('filters-cases-runner@example.com');
    // PostHog's events are at "now"; these are years old, so a default date range would lose them.
    await journeys(t, who, Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`id-${i}`, [ev(`clicky-${i}`, '2021-01-01T00:00:00Z', { $set: { index: i } })]])));
    expect(await rows(who, 'select count(event) from events where {filters}', { properties: [{ type: 'hogql', key: "event='clicky-3'" }] })).toEqual([[1]]);
  });

  it('"-7d" is now minus seven days; without filters every row counts (test_filters_placeholder_with_and_without_saved_filters)', async () => {
    const who = await t.bootstrap('filters-cases-relative@example.com');
    const now = DateTime.utc();
    const iso = (d: DateTime) => d.toISO({ suppressMilliseconds: true })!;
    await journeys(t, who, {
      ...Object.fromEntries([0, 1, 2].map((i) => [`recent_${i}`, [ev('signup', iso(now.minus({ days: 1 })))]])),
      ...Object.fromEntries([0, 1].map((i) => [`old_${i}`, [ev('signup', iso(now.minus({ days: 11 })))]])),
    });
    const count = 'SELECT count() FROM events WHERE {filters}';
    expect(await rows(who, count, { dateRange: { date_from: '-7d' } })).toEqual([[3]]);
    expect(await rows(who, count)).toEqual([[5]]);
    // Not the start of the day seven days ago: an hour before now - 7d is out, an hour after is in.
    await journeys(t, who, { edge: [ev('edge', iso(now.minus({ days: 7, hours: 1 }))), ev('edge', iso(now.minus({ days: 7 }).plus({ hours: 1 })))] });
    expect(await rows(who, "SELECT count() FROM events WHERE event = 'edge' AND {filters}", { dateRange: { date_from: '-7d' } })).toEqual([[1]]);
  });
});
