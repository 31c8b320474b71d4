// PostHog's HogQL runner and /query/ API cases, as data through POST /api/projects/:id/query/ over
// events captured through /batch/: posthog/hogql_queries/test/test_hogql_query_runner.py (ten
// persons with one "clicky-N" event each) and posthog/api/test/test_query.py's HogQLQuery and
// EventsQuery cases (four events by distinct ids 2, 2, 3, 4; status codes, error bodies, columns,
// types and rows). PostHog freezes its clock at 2020-01-10 12:14; EventsQuery reads the last 24
// hours by default, so here the same events sit at the same offsets before the real clock.
// What is left out, and why, is listed in docs/hogql-posthog-tests.md.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let runner: Credentials;
let api: Credentials;
let oneDistinctId: Credentials;

const NOW = DateTime.utc().startOf('second');
const at = (minutesBeforeNow: number) => NOW.minus({ minutes: minutesBeforeNow }).toISO({ suppressMilliseconds: true })!;
/** PostHog's 12:00, 12:11, 12:12, 12:13 with the clock at 12:14. */
const [T0, T11, T12, T13] = [at(14), at(3), at(2), at(1)];
/** Events of a distinct id PostHog's test gives no person (`_create_event` alone). */
const personless = { $process_person_profile: false };

async function post(who: Credentials, payload: unknown) {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: payload as Record<string, unknown> });
  return { status: res.statusCode, body: res.json() };
}

async function ok(who: Credentials, query: Record<string, unknown>) {
  const { status, body } = await post(who, { query });
  if (status !== 200) throw new Error(`${status} ${JSON.stringify(body)}`);
  return body;
}

const hogql = (who: Credentials, query: string, extra: Record<string, unknown> = {}) => ok(who, { kind: 'HogQLQuery', query, ...extra });
const events = (who: Credentials, query: Record<string, unknown>) => ok(who, { kind: 'EventsQuery', ...query });

beforeAll(async () => {
  t = await createTestApp('sqlite');
  runner = await t.bootstrap('runner-cases@example.com');
  api = await t.bootstrap('api-cases@example.com');
  oneDistinctId = await t.bootstrap('api-cases-expressions@example.com');
  // test_hogql_query_runner.py's _create_random_persons.
  await journeys(t, runner, Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`id-random-${i}`, [ev(`clicky-${i}`, '2021-01-01T00:00:00Z', {
    $set: { email: `jacob${i}@random.posthog.com`, name: 'Mr Jacob random', random_uuid: 'random', index: i },
  })]])));
  // test_query.py: person 2 (Tom), events by 2, 2, 3, 4.
  await journeys(t, api, {
    2: [
      ev('sign up', T0, { key: 'test_val1', $set: { name: 'Tom', email: 'tom@posthog.com' } }),
      ev('sign out', T11, { key: 'test_val2' }),
    ],
    3: [ev('sign out', T12, { key: 'test_val2', ...personless })],
    4: [ev('sign out', T13, { key: 'test_val3', path: 'a/b/c', ...personless })],
  });
  // test_select_hogql_expressions: all four by distinct id 2.
  await journeys(t, oneDistinctId, {
    2: [
      ev('sign up', T0, { key: 'test_val1', $set: { email: 'tom@posthog.com' } }),
      ev('sign out', T11, { key: 'test_val2' }),
      ev('sign out', T12, { key: 'test_val2' }),
      ev('sign out', T13, { key: 'test_val3' }),
    ],
  });
});
afterAll(() => t.close());

describe('test_hogql_query_runner.py', () => {
  it('test_default_hogql_query: count(event), no more rows, a limit', async () => {
    const body = await hogql(runner, 'select count(event) from events');
    expect(body.results[0][0]).toBe(10);
    expect(body.hasMore).toBe(false);
    expect(body.limit).not.toBeNull();
  });

  it('test_default_hogql_query_with_limit: the query\'s own LIMIT', async () => {
    expect((await hogql(runner, 'select event from events limit 5')).results).toHaveLength(5);
  });

  it('test_hogql_query_values: {e} from values', async () => {
    expect((await hogql(runner, 'select count(event) from events where event={e}', { values: { e: 'clicky-3' } })).results).toEqual([[1]]);
  });

  it('test_cache_target_age_is_two_hours_in_future_after_run: last_refresh plus the day threshold (6 hours)', async () => {
    const body = await hogql(runner, 'select count(event) from events', {});
    expect(Date.parse(body.cache_target_age) - Date.parse(body.last_refresh)).toBe(6 * 3600_000);
  });

  it('test_send_raw_query_is_ignored_without_direct_connection: sendRawQuery changes nothing', async () => {
    expect((await hogql(runner, 'select count(event) from events limit 100', { sendRawQuery: true })).results).toEqual([[10]]);
  });

  it('test_non_query_service_allows_offset: LIMIT 10 OFFSET 5 over ten events', async () => {
    expect((await hogql(runner, 'select event from events limit 10 offset 5')).results).toHaveLength(5);
  });
});

describe('test_query.py: EventsQuery', () => {
  const SELECT = ['event', 'distinct_id', 'properties.key', "'a%sd'", "concat(event, ' ', properties.key)"];

  it('test_select_hogql_expressions: columns, types and rows; *; aggregation; where and orderBy', async () => {
    const base = { select: ['properties.key', 'event', 'distinct_id', "concat(event, ' ', properties.key)"] };
    const first = await events(oneDistinctId, base);
    expect(first).toMatchObject({
      columns: ['properties.key', 'event', 'distinct_id', "concat(event, ' ', properties.key)"],
      hasMore: false,
      types: ['Nullable(String)', 'String', 'String', 'String'],
    });
    // PostHog's default order is timestamp DESC; its assertion lists the rows oldest first, as they come back in its test.
    expect([...first.results].sort((a: string[], b: string[]) => a[0]!.localeCompare(b[0]!))).toEqual([
      ['test_val1', 'sign up', '2', 'sign up test_val1'],
      ['test_val2', 'sign out', '2', 'sign out test_val2'],
      ['test_val2', 'sign out', '2', 'sign out test_val2'],
      ['test_val3', 'sign out', '2', 'sign out test_val3'],
    ]);

    const star = await events(oneDistinctId, { select: ['*', 'event'] });
    expect(star.columns).toEqual(['*', 'event']);
    expect(star.types[0]).toContain('Tuple(');
    expect(star.types[1]).toBe('String');
    expect(star.results).toHaveLength(4);
    expect(typeof star.results[0][0]).toBe('object');
    expect(typeof star.results[0][1]).toBe('string');

    const counted = await events(oneDistinctId, { select: ['count()', 'event'] });
    expect(counted).toMatchObject({ columns: ['count()', 'event'], hasMore: false, types: ['UInt64', 'String'], results: [[3, 'sign out'], [1, 'sign up']] });

    const filtered = await events(oneDistinctId, { select: ['count()', 'event'], where: ["event == 'sign up' or like(properties.key, '%val2')"], orderBy: ['count() DESC', 'event'] });
    expect(filtered).toMatchObject({ columns: ['count()', 'event'], hasMore: false, types: ['UInt64', 'String'], results: [[2, 'sign out'], [1, 'sign up']] });
  });

  it('test_hogql_property_filter: HogQL property filters', async () => {
    expect((await events(api, { select: SELECT })).results).toHaveLength(4);
    expect((await events(api, { select: SELECT, properties: [{ type: 'hogql', key: "'a%sd' == 'foo'" }] })).results).toHaveLength(0);
    expect((await events(api, { select: SELECT, properties: [{ type: 'hogql', key: "'a%sd' == 'a%sd'" }] })).results).toHaveLength(4);
    expect((await events(api, { select: SELECT, properties: [{ type: 'hogql', key: "properties.key == 'test_val2'" }] })).results).toHaveLength(2);
  });

  it('test_event_property_filter: exact and icontains', async () => {
    expect((await events(api, { select: SELECT, properties: [{ type: 'event', key: 'key', value: 'test_val3', operator: 'exact' }] })).results).toHaveLength(1);
    expect((await events(api, { select: SELECT, properties: [{ type: 'event', key: 'path', value: '/', operator: 'icontains' }] })).results).toHaveLength(1);
  });

  it('test_person_property_filter: the two events of the person with that email', async () => {
    expect((await events(api, { select: SELECT, properties: [{ type: 'person', key: 'email', value: 'tom@posthog.com', operator: 'exact' }] })).results).toHaveLength(2);
  });

  it('test_property_filter_aggregations: a where on an aggregate is a HAVING', async () => {
    expect((await events(api, { select: ['properties.key', 'count()'] })).results).toHaveLength(3);
    expect((await events(api, { select: ['properties.key', 'count()'], where: ['count() > 1'] })).results).toHaveLength(1);
  });

  it('test_select_event_person: the person column, and a comment after it', async () => {
    const body = await events(api, { select: ['event', 'person', 'person -- P'], orderBy: ['timestamp DESC'] });
    expect(body.results).toHaveLength(4);
    expect(body.results[0][1]).toEqual({ distinct_id: '4' });
    expect(body.results[1][1]).toEqual({ distinct_id: '3' });
    expect(body.results[1][2]).toEqual({ distinct_id: '3' });
    const tom = body.results[2][1];
    expect(tom).toMatchObject({ properties: { name: 'Tom', email: 'tom@posthog.com' }, distinct_id: '2', created_at: T0.replace('.000', '') });
    expect(tom.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.results[3][1]).toEqual(tom);
    expect(body.results[3][2]).toEqual(tom);
  });

  it('test_events_query_all_time_date: after "all", before "-1y", before a date and after "-4y"', async () => {
    const who = await t.bootstrap('api-cases-all-time@example.com');
    // PostHog: events on 2020-01-10, 2021-01-10, 2022-01-10 and 2023-01-10, the clock at 2023-01-12.
    const yearsAgo = (years: number) => NOW.minus({ years, days: 2 }).toISO({ suppressMilliseconds: true })!;
    await journeys(t, who, {
      2: [ev('sign up', yearsAgo(3)), ev('sign out', yearsAgo(2))],
      3: [ev('sign out', yearsAgo(1), personless)],
      4: [ev('sign out', yearsAgo(0), personless)],
    });
    expect((await events(who, { select: ['event'], after: 'all' })).results).toHaveLength(4);
    expect((await events(who, { select: ['event'], before: '-1y', after: 'all' })).results).toHaveLength(3);
    // "2022-01-01": eleven days before the third event.
    const before = NOW.minus({ years: 1, days: 13 }).toISODate()!;
    expect((await events(who, { select: ['event'], before, after: '-4y' })).results).toHaveLength(2);
  });

  it('test_full_events_query_limit: 100 rows by default (PostHog patches its default to 10)', async () => {
    const who = await t.bootstrap('api-cases-events-limit@example.com');
    await journeys(t, who, { many: Array.from({ length: 120 }, () => ev('sign up', T0, { key: 'test_val1' })) });
    const body = await events(who, { select: ['event'], where: ["distinct_id = 'many'"] });
    expect(body.results).toHaveLength(100);
    expect(body.hasMore).toBe(true);
  });

  it('test_property_definition_annotation_does_not_break_things: is_not on $browser', async () => {
    const body = await events(api, { select: ['event'], properties: [{ type: 'event', key: '$browser', operator: 'is_not', value: 'Foo' }] });
    expect(body.columns).toEqual(['event']);
    expect(body.results).toHaveLength(4);
  });

  it("test_safe_clickhouse_error_passed_through: the engine's type error is a 400", async () => {
    const { status, body } = await post(api, { query: { kind: 'EventsQuery', select: ["timestamp + 'string'"] } });
    expect(status).toBe(400);
    expect(body).toMatchObject({ type: 'validation_error', code: 'illegal_type_of_argument', attr: null });
    expect(body.detail).toContain("Illegal types DateTime64(6, 'UTC') and String of arguments of function plus");
  });
});

describe('test_query.py: HogQLQuery through the API', () => {
  it('test_full_hogql_query: rows in timestamp order', async () => {
    const body = await hogql(api, 'select event, distinct_id, properties.key from events order by timestamp');
    expect(body.results).toEqual([
      ['sign up', '2', 'test_val1'],
      ['sign out', '2', 'test_val2'],
      ['sign out', '3', 'test_val2'],
      ['sign out', '4', 'test_val3'],
    ]);
  });

  it('test_query_with_source: a DataTableNode around a HogQLQuery', async () => {
    const { status } = await post(api, { query: { kind: 'DataTableNode', source: { kind: 'HogQLQuery', query: 'SELECT event from events' } } });
    expect(status).toBe(200);
  });

  it('test_full_hogql_query_limit: 100 rows without a LIMIT (PostHog patches its default to 10)', async () => {
    const who = await t.bootstrap('api-cases-hogql-limit@example.com');
    await journeys(t, who, { many: Array.from({ length: 120 }, () => ev('sign up', '2020-01-10T12:00:00Z', { key: 'test_val1' })) });
    expect((await hogql(who, "select event from events where distinct_id='many'")).results).toHaveLength(100);
    expect((await hogql(who, 'select count() from events where distinct_id = {random_uuid}', { values: { random_uuid: 'many' } })).results).toEqual([[120]]);
  });

  it('test_full_hogql_query_async: refresh force_async answers 202 with the query status', async () => {
    const { status, body } = await post(api, { query: { kind: 'HogQLQuery', query: 'select * from events' }, refresh: 'force_async' });
    expect(status).toBe(202);
    expect(body.query_status).toMatchObject({ complete: false, error: false, error_message: null, query_async: true, results: null });
    expect(typeof body.query_status.id).toBe('string');
  });

  it('an unknown field is a 400 naming it (the part of test_hogql_error_is_enriched_with_metadata Hoglet answers)', async () => {
    const { status, body } = await post(api, { query: { kind: 'HogQLQuery', query: 'SELECT user_id FROM events LIMIT 1' } });
    expect(status).toBe(400);
    expect(body.type).toBe('validation_error');
    expect(body.detail).toContain('user_id');
  });

  // PostHog's HogQLMetadata on the error: the tables in the detail, the error's position in extra.
  it('test_hogql_error_is_enriched_with_metadata', async () => {
    const { status, body } = await post(api, { query: { kind: 'HogQLQuery', query: 'SELECT user_id FROM events LIMIT 1' } });
    expect(status).toBe(400);
    expect(body.detail).toContain('Tables referenced: events');
    expect(body.extra.hogql_metadata).toMatchObject({
      isValid: false, table_names: ['events'], errors: [{ message: 'Unable to resolve field: user_id', start: 7, end: 14 }],
    });
    // The body is PostHog's, with no SQL Hoglet compiled.
    expect(Object.keys(body).sort()).toEqual(['attr', 'code', 'detail', 'extra', 'type']);
    expect(JSON.stringify(body)).not.toMatch(/team_id|\{p\d*:/);
  });

  it('a misspelt function: the hint as a line of the detail', async () => {
    const { body } = await post(api, { query: { kind: 'HogQLQuery', query: 'SELECT nwo() FROM events' } });
    expect(body.detail.split('\n')).toEqual(["Unsupported function call 'nwo(...)'. Perhaps you meant 'now(...)'?", 'Hint: now', 'Tables referenced: events']);
    expect(body.extra.hogql_metadata.errors).toEqual([{ message: "Unsupported function call 'nwo(...)'. Perhaps you meant 'now(...)'?", start: 7, end: 10, fix: 'now' }]);
  });
});

describe("test_query.py's TestQueryRetrieve: a calculation's status (PostHog mocks its redis; here real calculations)", () => {
  const statusOf = (id: string, method: 'GET' | 'DELETE' = 'GET') => t.request(api.key, { method, url: `/api/projects/${api.projectId}/query/${id}/` });

  async function settled(id: string) {
    for (let i = 0; i < 200; i += 1) {
      const res = await statusOf(id);
      if (res.statusCode !== 202) return res;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the calculation never finished');
  }

  it('test_with_invalid_query_id: 404', async () => {
    expect((await statusOf('invalid-query-id')).statusCode).toBe(404);
  });

  it('test_with_valid_query_id and test_completed_query: 200, complete', async () => {
    const { status, body } = await post(api, { query: { kind: 'HogQLQuery', query: 'select count() from events' }, refresh: 'force_async', client_query_id: 'retrieve-complete' });
    expect(status).toBe(202);
    const res = await settled(body.query_status.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().query_status.complete).toBe(true);
  });

  it('test_failed_query_with_exposed_error: 400 with the error', async () => {
    const { body } = await post(api, { query: { kind: 'HogQLQuery', query: 'select user_id from events' }, refresh: 'force_async', client_query_id: 'retrieve-failed' });
    const res = await settled(body.query_status.id);
    expect(res.statusCode).toBe(400);
    expect(res.json().query_status.error).toBe(true);
  });

  it('test_running_query and test_destroy: 202 while it runs, DELETE answers 200', async () => {
    const slow = 'select sum(number) from numbers(1000000000)';
    const { body } = await post(api, { query: { kind: 'HogQLQuery', query: slow }, refresh: 'force_async', client_query_id: 'retrieve-running' });
    const running = await statusOf(body.query_status.id);
    expect(running.statusCode).toBe(202);
    expect(running.json().query_status.complete).toBe(false);
    expect((await statusOf(body.query_status.id, 'DELETE')).statusCode).toBe(200);
  });
});

describe("test_query.py: a dashboard's filters over {filters} (filters_override)", () => {
  let who: Credentials;
  beforeAll(async () => {
    who = await t.bootstrap('api-cases-dashboard-filters@example.com');
    await journeys(t, who, { random: [ev('sign up', '2020-01-07T12:00:00Z', { key: 'test_val1' }), ev('$pageview', '2020-01-10T15:00:00Z', { key: 'test_val1' })] });
  });
  const overridden = { date_from: '2020-01-09', date_to: '2020-01-11' };
  const source = { kind: 'HogQLQuery', query: 'select count() from events where {filters}' };

  it('test_dashboard_filters_applied', async () => {
    expect((await ok(who, source)).results).toEqual([[2]]);
    const { status, body } = await post(who, { query: source, filters_override: overridden });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toEqual([[1]]);
  });

  it('test_dashboard_filters_applied_with_source: inside a DataVisualizationNode', async () => {
    const wrapped = { kind: 'DataVisualizationNode', source };
    expect((await ok(who, wrapped)).results).toEqual([[2]]);
    expect((await post(who, { query: wrapped, filters_override: overridden })).body.results).toEqual([[1]]);
  });
});

describe("{filters}' filterTestAccounts over the sessions table alone, as PostHog's replace_filters reads it", () => {
  // PostHog prints each test-account filter as over events and resolves it against the sessions
  // table: a HogQL filter reads the session's fields; the others name fields sessions do not have.
  let who: Credentials;
  const settings = (filters: unknown[]) => t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload: { test_account_filters: filters } });
  const sessions = (filterTestAccounts: boolean) => post(who, { query: { kind: 'HogQLQuery', query: 'SELECT session_id FROM sessions WHERE {filters} ORDER BY session_id', filters: { filterTestAccounts } } });
  beforeAll(async () => {
    who = await t.bootstrap('api-cases-session-test-accounts@example.com');
    await journeys(t, who, {
      a: [ev('$pageview', '2024-07-05T00:00:00Z', { $session_id: 's-local', $current_url: 'http://localhost:8000/' })],
      b: [ev('$pageview', '2024-07-05T00:00:00Z', { $session_id: 's-live', $current_url: 'https://example.com/' })],
    });
  });

  it('no test-account filters: every session', async () => {
    expect((await settings([])).statusCode).toBe(200);
    expect((await sessions(true)).body.results).toEqual([['s-live'], ['s-local']]);
  });

  it("a HogQL test-account filter reads the session's fields", async () => {
    expect((await settings([{ type: 'hogql', key: "$entry_current_url NOT LIKE '%localhost%'" }])).statusCode).toBe(200);
    expect((await sessions(true)).body.results).toEqual([['s-live']]);
    expect((await sessions(false)).body.results).toEqual([['s-live'], ['s-local']]);
  });

  it("person and event filters name the field the sessions table lacks (PostHog's resolver)", async () => {
    for (const [filter, field] of [
      [{ key: 'email', type: 'person', value: 'posthog.com', operator: 'not_icontains' }, 'person'],
      [{ key: '$host', type: 'event', value: 'localhost', operator: 'is_not' }, 'properties'],
    ] as const) {
      expect((await settings([filter])).statusCode).toBe(200);
      const { status, body } = await sessions(true);
      expect(status).toBe(400);
      // (The lines after the first are PostHog's enrichment: the tables referenced.)
      expect(body.detail.split('\n')[0]).toBe(`Unable to resolve field: ${field}`);
    }
  });
});

describe('test_query.py: refusals of the request itself', () => {
  it('test_query_not_supported: SavedInsightNode', async () => {
    const { status, body } = await post(api, { query: { kind: 'SavedInsightNode', shortId: '123' } });
    expect(status).toBe(400);
    expect(body.detail).toBe('Unsupported query kind: SavedInsightNode');
  });

  // A kind no PostHog schema knows is pydantic's parse_error; a PostHog kind Hoglet does not run stays
  // Hoglet's invalid_choice at query.kind (pinned by test/http/queries.test.ts).
  it('test_invalid_query_kind: a kind no schema knows', async () => {
    const { status, body } = await post(api, { query: { kind: 'Tomato Soup' } });
    expect(status).toBe(400);
    expect(body.code).toBe('parse_error');
    expect(body.detail).toContain('1 validation error for QueryRequest');
    expect(body.detail).toContain("Input tag 'Tomato Soup' found using 'kind' does not match any of the expected tags");
    const known = await post(api, { query: { kind: 'WebGoalsQuery' } });
    expect([known.status, known.body.code, known.body.attr]).toEqual([400, 'invalid_choice', 'query.kind']);
  });

  it('test_missing_query and test_missing_body', async () => {
    expect((await post(api, { query: {} })).status).toBe(400);
    const res = await t.request(api.key, { method: 'POST', url: `/api/projects/${api.projectId}/query/` });
    expect(res.statusCode).toBe(400);
  });

  it('test_query_limit_context_invalid_value: limit_context "export" from a client', async () => {
    expect((await post(api, { query: { kind: 'HogQLQuery', query: 'select 1' }, limit_context: 'export' })).status).toBe(400);
    expect((await post(api, { query: { kind: 'HogQLQuery', query: 'select 1' }, limit_context: 'posthog_ai' })).status).toBe(200);
  });
});
