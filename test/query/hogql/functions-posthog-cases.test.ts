// PostHog's HogQL function tests, as data through POST /api/projects/:id/query/ over events captured
// through /batch/: posthog/hogql/functions/test/test_cohort.py (`IN COHORT` by id and by name,
// dynamic and static cohorts, its refusals, the inline-calculation cases) and test_action.py
// (matchesAction). PostHog's cohorts through the cohorts API as its test creates them. The other
// files of that folder test PostHog's own functions (sparkline, recordingButton, the traffic-type
// and IP lookups...), left out with the reason in docs/hogql-posthog-tests.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows, postHogQL } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
const RANDOM = 'RANDOM_TEST_ID::5a1e';
const AT = '2021-03-01T12:00:00Z';

const hogql = (query: string) => postHogQL(t, who, query);

const rows = (query: string) => hogqlRows(t, who, query);

async function createCohort(payload: Record<string, unknown>): Promise<number> {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function personIdOf(distinctId: string): Promise<string> {
  const [[id]] = (await rows(`SELECT person_id FROM person_distinct_ids WHERE distinct_id = '${distinctId}'`)) as [[string]];
  return id;
}

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('functions-cases@example.com');
  // test_cohort.py's _create_random_events: person bla ($os Chrome) with one event named RANDOM.
  await journeys(t, who, { bla: [ev(RANDOM, AT, { $set: { $os: 'Chrome', random_uuid: RANDOM } })] });
});
afterAll(() => t.close());

describe('test_cohort.py', () => {
  it('test_in_cohort_dynamic: the person of the event is in a person-property cohort', async () => {
    const id = await createCohort({ name: 'chrome', groups: [{ properties: [{ key: '$os', value: 'Chrome', type: 'person' }] }] });
    expect(await rows(`SELECT event FROM events WHERE person_id IN COHORT ${id} AND event='${RANDOM}'`)).toEqual([[RANDOM]]);
  });

  it('test_in_cohort_static: an empty static cohort', async () => {
    const id = await createCohort({ name: 'empty static', is_static: true });
    expect(await rows(`SELECT event FROM events WHERE person_id IN COHORT ${id}`)).toEqual([]);
  });

  it("test_in_cohort_strings: a cohort by its name", async () => {
    await createCohort({ name: 'my cohort', is_static: true });
    expect(await rows("SELECT event FROM events WHERE person_id IN COHORT 'my cohort'")).toEqual([]);
  });

  it('test_in_cohort_error: a cohort that is not a string or an integer, a name no cohort has', async () => {
    const notAName = await hogql('SELECT event FROM events WHERE person_id IN COHORT true');
    expect(notAName.status).toBe(400);
    expect(notAName.body.detail).toBe('cohort() takes exactly one string or integer argument');
    const unknown = await hogql("SELECT event FROM events WHERE person_id IN COHORT 'blabla'");
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe("Could not find a cohort with the name 'blabla'");
  });
});

describe("test_cohort.py's inline-calculation cases (Hoglet always calculates a cohort inside the query, PostHog's ALWAYS)", () => {
  it('test_inline_cohort_subquery_off_vs_always: a person who matches after the cohort was made is in it', async () => {
    const marker = `${RANDOM}::late`;
    await journeys(t, who, { p1_late: [ev(marker, AT, { $set: { test_prop: marker } })] });
    const id = await createCohort({ name: 'late', groups: [{ properties: [{ key: 'test_prop', value: marker, type: 'person' }] }] });
    await journeys(t, who, { p2_late: [ev(marker, AT, { $set: { test_prop: marker } })] });
    expect(await rows(`SELECT event FROM events WHERE person_id IN COHORT ${id} AND event = '${marker}'`)).toHaveLength(2);
  });

  it('test_inline_cohort_static_always_uses_cohortpeople: a static cohort reads its members', async () => {
    const marker = `${RANDOM}::static`;
    await journeys(t, who, { person1: [ev(marker, AT, { $set: { $os: 'Chrome' } })] });
    const id = await createCohort({ name: 'static members', is_static: true });
    const res = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/cohorts/${id}/add_persons_to_static_cohort/`, payload: { person_ids: [await personIdOf('person1')] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await rows(`SELECT event FROM events WHERE person_id IN COHORT ${id} AND event = '${marker}'`)).toHaveLength(1);
  });

  // PostHog runs this one query under six inCohortVia x inlineCohortCalculation modifiers; Hoglet has one way.
  it.each(['subquery_off', 'subquery_always', 'leftjoin_off', 'leftjoin_always', 'conjoined_off', 'conjoined_always'])(
    'test_inline_cohort_limit_not_pushed_to_inner_query (%s): the LIMIT applies after the cohort', async () => {
      const project = await t.bootstrap(`functions-cases-limit-${Math.random().toString(36).slice(2)}@example.com`);
      const member = `cohort_match_${RANDOM}`;
      // The member first (oldest created_at), then ten newer persons who do not match.
      await journeys(t, project, { cohort_member: [ev('created', '2021-01-01T00:00:00Z', { $set: { email: 'cohort_member@example.com', cohort_marker: member } })] });
      await journeys(t, project, Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`non_cohort_${i}`, [ev('created', `2021-01-02T00:00:0${i}Z`, { $set: { email: `user${i}@example.com`, cohort_marker: 'no_match' } })]])));
      const res = await t.request(project.key, { method: 'POST', url: `/api/projects/${project.projectId}/cohorts/`, payload: { name: 'members', groups: [{ properties: [{ key: 'cohort_marker', value: member, type: 'person' }] }] } });
      expect(res.statusCode, res.body).toBe(201);
      const query = `SELECT id, properties.email FROM persons WHERE id IN COHORT ${res.json().id} ORDER BY created_at DESC LIMIT 3`;
      const answer = await t.request(project.key, { method: 'POST', url: `/api/projects/${project.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query } } });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().results).toHaveLength(1);
      expect(answer.json().results[0][1]).toBe('cohort_member@example.com');
    });
});

describe('test_action.py: matchesAction', () => {
  const uuid = `${RANDOM}::action`;
  let actionId: number;
  beforeAll(async () => {
    // _create_random_events: two events, one named uuid and one uuid::extra; an action of one step on the first.
    await journeys(t, who, { bla: [ev(uuid, AT), ev(`${uuid}::extra`, AT)] });
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/actions/`, payload: { name: uuid, steps: [{ event: uuid }] } });
    expect(res.statusCode, res.body).toBe(201);
    actionId = res.json().id;
  });

  it('test_matches_action_name', async () => {
    expect(await rows(`SELECT event FROM events WHERE matchesAction('${uuid}')`)).toEqual([[uuid]]);
  });

  it('test_matches_action_id', async () => {
    expect(await rows(`SELECT event FROM events WHERE matchesAction(${actionId})`)).toEqual([[uuid]]);
  });

  // Beyond PostHog's two cases: its refusals (posthog/hogql/functions/action.py), and a placeholder's value.
  it("refuses what PostHog's matches_action refuses; takes a {placeholder}'s value", async () => {
    const refusals: [string, string][] = [
      ['SELECT event FROM events WHERE matchesAction(999999)', 'Could not find an action with the ID 999999'],
      ["SELECT event FROM events WHERE matchesAction('no such action')", "Could not find an action with the name 'no such action'"],
      ['SELECT event FROM events WHERE matchesAction(event)', 'action() takes only constant arguments'],
      ['SELECT event FROM events WHERE matchesAction(true)', 'action() takes exactly one string or integer argument'],
      ['SELECT event FROM events WHERE matchesAction()', "Function 'matchesAction' expects 1 argument, found 0"],
    ];
    for (const [query, detail] of refusals) {
      const { status, body } = await hogql(query);
      expect(status, query).toBe(400);
      expect(body.detail, query).toBe(detail);
    }
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query: 'SELECT count() FROM events WHERE matchesAction({a})', values: { a: actionId } } } });
    expect(res.json().results).toEqual([[1]]);
  });
});

describe('matchesAction inside an insight (a hogql filter), as PostHog reads it there', () => {
  it('keeps the events of the action, by id and by name', async () => {
    const project = await t.bootstrap('functions-cases-insight-action@example.com');
    await journeys(t, project, { x: [ev('signed up', '2024-07-05T10:00:00Z'), ev('signed up', '2024-07-05T11:00:00Z'), ev('other', '2024-07-05T12:00:00Z')] });
    const created = await t.request(project.key, { method: 'POST', url: `/api/projects/${project.projectId}/actions/`, payload: { name: 'Sign up', steps: [{ event: 'signed up' }] } });
    expect(created.statusCode, created.body).toBe(201);
    for (const key of [`matchesAction(${created.json().id})`, "matchesAction('Sign up')"]) {
      const query = { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: null }], dateRange: { date_from: '2024-07-05', date_to: '2024-07-05' }, properties: [{ type: 'hogql', key }] };
      const res = await t.request(project.key, { method: 'POST', url: `/api/projects/${project.projectId}/query/`, payload: { query } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().results[0].count, key).toBe(2);
    }
  });
});

describe('test_ip_functions.py', () => {
  // One expression per IP function PostHog allows, and the value PostHog's test expects.
  const IP_FUNCTION_CASES: [string, unknown][] = [
    ["IPv4NumToString(IPv4StringToNum('66.249.84.5'))", '66.249.84.5'],
    ["IPv4StringToNumOrDefault('nope')", 0],
    ["isNull(IPv4StringToNumOrNull('nope'))", 1],
    ["IPv6NumToString(IPv6StringToNum('2001:db8::1'))", '2001:db8::1'],
    ["IPv6NumToString(IPv6StringToNumOrDefault('nope'))", '::'],
    ["isNull(IPv6StringToNumOrNull('nope'))", 1],
    ["IPv6NumToString(IPv4ToIPv6(IPv4StringToNum('1.2.3.4')))", '::ffff:1.2.3.4'],
    ["toString(toIPv4('1.2.3.4'))", '1.2.3.4'],
    ["toString(toIPv4OrDefault('nope'))", '0.0.0.0'],
    ["isNull(toIPv4OrNull('nope'))", 1],
    ["toString(toIPv4OrZero('nope'))", '0.0.0.0'],
    ["toString(toIPv6('::1'))", '::1'],
    ["toString(toIPv6OrDefault('nope'))", '::'],
    ["isNull(toIPv6OrNull('nope'))", 1],
    ["toString(toIPv6OrZero('nope'))", '::'],
    ["isIPv4String('1.2.3.4')", 1],
    ["isIPv6String('::1')", 1],
    ["isIPAddressInRange('66.249.84.5', '66.249.80.0/20')", 1],
    // A real $ip value that is not an address must not abort the query: it matches nothing.
    ["isIPAddressInRange('0', '10.0.0.0/8')", 0],
    // A native IPv4 argument still matches.
    ["isIPAddressInRange(toIPv4('192.168.5.2'), '192.168.0.0/16')", 1],
    ["toString(tupleElement(IPv4CIDRToRange(toIPv4('192.168.5.2'), 16), 1))", '192.168.0.0'],
    ["toString(tupleElement(IPv6CIDRToRange(toIPv6('2001:db8::8a2e:370:7334'), 32), 1))", '2001:db8::'],
    ["toString(cutIPv6(toIPv6('2001:db8::8a2e:370:7334'), 2, 0))", '2001:db8::8a2e:370:0'],
  ];

  it('test_ip_functions_execute: every function in one SELECT', async () => {
    const [row] = await rows(`SELECT ${IP_FUNCTION_CASES.map(([expression]) => expression).join(', ')}`);
    // PostHog's driver reads ClickHouse's UInt8 booleans as 0/1 as Hoglet does; its asserts compare those.
    expect((row as unknown[]).map((value) => (typeof value === 'boolean' ? Number(value) : value))).toEqual(IP_FUNCTION_CASES.map(([, expected]) => expected));
  });

  it("isIPAddressInRange over an event's $ip: a value that is not an address is no match", async () => {
    const project = await t.bootstrap('functions-cases-ip@example.com');
    await journeys(t, project, { ip: [ev('hit', AT, { $ip: '66.249.84.5' }), ev('hit', AT, { $ip: 'not-an-ip' }), ev('hit', AT, {})] });
    const res = await t.request(project.key, { method: 'POST', url: `/api/projects/${project.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query: "SELECT countIf(isIPAddressInRange(properties.$ip, '66.249.80.0/20')), count() FROM events" } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toEqual([[1, 3]]);
  });
});
