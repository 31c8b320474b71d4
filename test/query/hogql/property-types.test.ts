// Property types from definitions (issue 28, item 11): PostHog's
// posthog/hogql/transforms/test/test_property_types.py as data (its setUp's definitions come from
// the captured values here: Hoglet derives them as its definitions API lists them), then the same
// types in a trend's math_hogql, a HogQL breakdown and a hogql filter. Events captured through
// /batch/, queries through /query/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Query } from '../../../src/query/ast/nodes.js';
import { QueryRun } from '../../../src/query/execute.js';
import { closeSharedHogQLParser } from '../../../src/query/hogql/parse/index.js';
import { withPropertyTypes } from '../../../src/query/hogql/property-type-lookup.js';
import { sharedHogQLParser } from '../../../src/query/hogql/parse/index.js';
import { KnownPropertyTypes } from '../../../src/query/hogql/property-types.js';
import { HogQLTranslator } from '../../../src/query/hogql/translate/translate.js';
import { scopeToProject } from '../../../src/query/passes/scope-to-project.js';
import { printQuery } from '../../../src/query/printer/print.js';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, trendsQuery } from '../../helpers/journeys.js';

let t: TestApp;

async function query(who: Credentials, q: unknown) {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: q } });
  return { status: res.statusCode, body: res.json() };
}

async function hogql(who: Credentials, text: string) {
  const { status, body } = await query(who, { kind: 'HogQLQuery', query: text });
  if (status !== 200) throw new Error(`${text}\n${status} ${JSON.stringify(body)}`);
  return body as { results: unknown[][]; types: [string, string][] };
}

const rows = async (who: Credentials, text: string) => (await hogql(who, text)).results;

async function propertyType(who: Credentials, type: 'event' | 'person' | 'group', name: string, extra = '') {
  const res = await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/property_definitions/?type=${type}&search=${encodeURIComponent(name)}${extra}` });
  return (res.json().results as { name: string; property_type: string | null }[]).find((d) => d.name === name)?.property_type;
}

/** test_property_types.py's setUp, as data: its definitions are what these values give. */
let swapper: Credentials;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  swapper = await t.bootstrap('property-types@example.com');
  await journeys(t, swapper, {
    org: [ev('$groupidentify', '2024-01-01T00:00:00Z', { $group_type: 'organization', $group_key: 'org:1', $group_set: { name: 'org1', inty: 1, group_boolean: true } })],
    org2: [ev('$groupidentify', '2024-01-01T00:00:00Z', { $group_type: 'organization', $group_key: 'org:2', $group_set: { name: 'org2', inty: 2, group_boolean: false } })],
  });
  await journeys(t, swapper, {
    p1: [ev('$pageview', '2024-01-02T00:00:00Z', {
      $screen_width: 1920, $screen_height: 1080, bool: true, $groups: { organization: 'org:1' },
      $set: { tickets: 3, provided_timestamp: '2024-01-02T10:00:00Z', $initial_browser: 'Chrome' },
    })],
    p2: [ev('$pageview', '2024-01-03T00:00:00Z', {
      $screen_width: 800, $screen_height: 600.5, bool: false, $groups: { organization: 'org:2' },
      $set: { tickets: 10, provided_timestamp: '2024-01-05', $initial_browser: '1234' },
    })],
  });
});
afterAll(async () => {
  await t.close();
  await closeSharedHogQLParser();
});

describe('the definitions these values give (the setUp of test_property_types.py)', () => {
  it('lists each property with the type PostHog defined it with', async () => {
    expect(await propertyType(swapper, 'event', '$screen_width')).toBe('Numeric');
    expect(await propertyType(swapper, 'event', 'bool')).toBe('Boolean');
    expect(await propertyType(swapper, 'person', 'tickets')).toBe('Numeric');
    expect(await propertyType(swapper, 'person', 'provided_timestamp')).toBe('DateTime');
    expect(await propertyType(swapper, 'person', '$initial_browser')).toBe('String');
    expect(await propertyType(swapper, 'group', 'inty', '&group_type_index=0')).toBe('Numeric');
    expect(await propertyType(swapper, 'group', 'group_boolean', '&group_type_index=0')).toBe('Boolean');
  });
});

describe("PostHog's test_property_types.py", () => {
  it('test_resolve_property_types_event: numeric properties multiply, a boolean reads as a Bool', async () => {
    expect(await rows(swapper, `select properties.$screen_width * properties.$screen_height, properties.bool from events where event = '$pageview' order by timestamp`)).toEqual([
      [2073600, true],
      [480400, false],
    ]);
  });

  it('test_property_swapper_assigns_call_types_for_float_and_boolean: Float and Bool columns', async () => {
    const { types } = await hogql(swapper, `select properties.$screen_width, properties.bool from events where event = '$pageview' order by timestamp`);
    expect(types.map(([, type]) => type)).toEqual(['Nullable(Float64)', 'Nullable(Bool)']);
  });

  it('test_resolve_property_types_combined: an event property times a person property', async () => {
    expect(await rows(swapper, `select properties.$screen_width * person.properties.tickets from events where event = '$pageview' order by timestamp`)).toEqual([[5760], [8000]]);
  });

  it('test_resolve_property_types_event_person_poe_off: a person DateTime property is a DateTime', async () => {
    const { results, types } = await hogql(swapper, `select person.properties.provided_timestamp from events where event = '$pageview' order by timestamp`);
    expect(results).toEqual([['2024-01-02T10:00:00Z'], ['2024-01-05T00:00:00Z']]);
    expect(types[0]![1]).toMatch(/^Nullable\(DateTime64\(6, 'UTC'\)\)$/);
  });

  it('test_group_property_types: a numeric group property (organization as group_0)', async () => {
    expect(await rows(swapper, `select group_0.properties.inty + 1 from events where event = '$pageview' order by timestamp`)).toEqual([[2], [3]]);
  });

  it('test_group_boolean_property_types: = true, = false and is null on a Boolean group property', async () => {
    const text = `select group_0.properties.group_boolean = true, group_0.properties.group_boolean = false,
      group_0.properties.group_boolean is null from events where event = '$pageview' order by timestamp`;
    expect(await rows(swapper, text)).toEqual([[1, 0, 0], [0, 1, 0]]);
  });

  it.each([
    ['to_float_or_zero', 'toFloatOrZero(properties.$screen_width)'],
    ['to_int_or_zero', 'toIntOrZero(properties.$screen_width)'],
    ['to_float_or_default', 'toFloatOrDefault(properties.$screen_width, 0.5)'],
  ])('test_numeric_property_not_double_cast_inside_string_parser (%s)', async (_name, expr) => {
    expect(await rows(swapper, `select ${expr} from events where event = '$pageview' order by timestamp`)).toEqual([[1920], [800]]);
  });

  it('test_numeric_property_still_cast_outside_string_parser: a number, not its text', async () => {
    expect(await rows(swapper, `select properties.$screen_width from events where event = '$pageview' order by timestamp`)).toEqual([[1920], [800]]);
  });

  it('test_numeric_property_cast_when_explicitly_stringified_inside_parser', async () => {
    expect(await rows(swapper, `select toFloatOrZero(toString(properties.$screen_width)) from events where event = '$pageview' order by timestamp`)).toEqual([[1920], [800]]);
  });

  it('test_timestamp_typed_ai_id_property_stays_string: $ai_trace_id is text even when its values look like dates', async () => {
    const who = await t.bootstrap('property-types-ai@example.com');
    await journeys(t, who, { u: [ev('$ai_generation', '2024-01-02T00:00:00Z', { $ai_trace_id: '2024-01-02T03:04:05+02:00', trace_time: '2024-01-02T03:04:05+02:00' })] });
    expect(await propertyType(who, 'event', '$ai_trace_id')).toBe('DateTime');
    expect(await rows(who, "select properties.$ai_trace_id, properties.$ai_trace_id = '2024-01-02T03:04:05+02:00', properties.trace_time from events"))
      .toEqual([['2024-01-02T03:04:05+02:00', 1, '2024-01-02T01:04:05Z']]);
  });
});

describe('Hoglet: typed properties in the persons tables and where they stay text', () => {
  it('persons.properties (PostHog checks raw_persons) read by type; a String property stays text', async () => {
    expect(await rows(swapper, 'select properties.tickets * 2, properties.provided_timestamp, properties.$initial_browser from persons order by properties.tickets limit 2')).toEqual([
      [6, '2024-01-02T10:00:00Z', 'Chrome'],
      [20, '2024-01-05T00:00:00Z', '1234'],
    ]);
  });

  it("person_distinct_ids' person.properties read by type too", async () => {
    expect(await rows(swapper, "select person.properties.tickets / 2, person.properties.$initial_browser from person_distinct_ids where distinct_id = 'p2'")).toEqual([[5, '1234']]);
  });

  it('a DateTime property compares as a DateTime, in the project time zone', async () => {
    expect(await rows(swapper, "select count() from persons where properties.provided_timestamp > '2024-01-03'")).toEqual([[1]]);
    expect(await rows(swapper, `select toStartOfMonth(person.properties.provided_timestamp) from events where event = '$pageview' order by timestamp limit 1`)).toEqual([['2024-01-01']]);
  });

  it('a nested path and a property of a subquery stay text', async () => {
    expect(await rows(swapper, "select properties.$screen_width.x, x.w from events, (select '5' as w) as x where event = '$pageview' order by timestamp")).toEqual([[null, '5'], [null, '5']]);
  });
});

describe('typed properties in insights: math_hogql, a HogQL breakdown, a hogql filter', () => {
  let shop: Credentials;
  const FROM = '2024-01-01';
  const TO = '2024-01-03';
  const PURCHASE = { kind: 'EventsNode', event: 'purchase' };
  const count = (results: { data: number[] }[]) => results.reduce((sum, r) => sum + r.data.reduce((a, b) => a + b, 0), 0);

  beforeAll(async () => {
    shop = await t.bootstrap('property-types-insights@example.com');
    await journeys(t, shop, {
      ann: [ev('purchase', '2024-01-02T10:00:00Z', { price: 9, paid: true, signed_up_at: '2024-01-10T00:00:00Z' })],
      bob: [ev('purchase', '2024-01-02T11:00:00Z', { price: 15.5, paid: false, signed_up_at: '2024-02-20' })],
    });
  });

  it('math_hogql sums a Numeric property', async () => {
    const { status, body } = await query(shop, trendsQuery([{ ...PURCHASE, math: 'hogql', math_hogql: 'sum(properties.price)' }], FROM, TO));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results[0].data).toEqual([0, 24.5, 0]);
  });

  it('a HogQL breakdown computes with a Numeric and a DateTime property', async () => {
    const byValue = async (breakdown: string) => {
      const { status, body } = await query(shop, trendsQuery([PURCHASE], FROM, TO, { breakdownFilter: { breakdown_type: 'hogql', breakdown } }));
      expect(status, JSON.stringify(body)).toBe(200);
      return Object.fromEntries(body.results.map((r: { breakdown_value: string; count: number }) => [r.breakdown_value, r.count]));
    };
    expect(await byValue('floor(properties.price / 10) * 10')).toEqual({ 0: 1, 10: 1 });
    expect(await byValue('toMonth(properties.signed_up_at)')).toEqual({ 1: 1, 2: 1 });
  });

  it('a hogql filter compares Numeric, DateTime and Boolean properties as those types', async () => {
    const filtered = async (key: string) => {
      const { status, body } = await query(shop, trendsQuery([PURCHASE], FROM, TO, { properties: [{ type: 'hogql', key }] }));
      expect(status, JSON.stringify(body)).toBe(200);
      return count(body.results);
    };
    // As text, '9' > '10'; as numbers it is not.
    expect(await filtered('properties.price > 10')).toBe(1);
    expect(await filtered("properties.signed_up_at >= '2024-02-01'")).toBe(1);
    expect(await filtered('properties.paid = true')).toBe(1);
    expect(await filtered('properties.paid')).toBe(1);
  });
});

describe("PostHog's test_property_types.py: TestJSONExtractToMaterializedColumn, as rows", () => {
  it('test_rewrite_value_semantics_no_mat_column: JSONExtractString of set, empty, "null", JSON null and missing', async () => {
    const who = await t.bootstrap('property-types-extract@example.com');
    await journeys(t, who, {
      u_set: [ev('pageview', '2024-01-02T00:00:00Z', { $browser: 'Chrome', tag: 'set' })],
      u_empty: [ev('pageview', '2024-01-02T00:00:00Z', { $browser: '', tag: 'empty' })],
      u_null_str: [ev('pageview', '2024-01-02T00:00:00Z', { $browser: 'null', tag: 'null_str' })],
      u_json_null: [ev('pageview', '2024-01-02T00:00:00Z', { $browser: null, tag: 'json_null' })],
      u_unset: [ev('pageview', '2024-01-02T00:00:00Z', { tag: 'unset' })],
    });
    const found = await rows(who, "SELECT properties.tag, JSONExtractString(properties, '$browser') FROM events WHERE event = 'pageview' ORDER BY properties.tag");
    expect(Object.fromEntries(found)).toEqual({ set: 'Chrome', empty: '', null_str: 'null', json_null: '', unset: '' });
  });
});

describe("PostHog's test_property_types.py: TestTimezoneIndexPruning's results in the project's time zone", () => {
  it.each([
    ['test_dst_boundary_does_not_drop_events', 'America/New_York', ['2024-03-10T05:30:00Z', '2024-03-10T06:30:00Z'], '2024-03-10', '2024-03-11'],
    ['test_positive_utc_offset_does_not_drop_events', 'Asia/Tokyo', ['2024-02-29T15:30:00Z', '2024-03-01T14:00:00Z'], '2024-03-01', '2024-03-02'],
    ['test_utc_returns_correct_results', 'UTC', ['2024-03-01T00:30:00Z', '2024-03-01T23:30:00Z'], '2024-03-01', '2024-03-02'],
    ['test_brazil_historical_dst_does_not_drop_events', 'America/Sao_Paulo', ['2018-11-15T02:30:00Z', '2018-11-15T12:00:00Z'], '2018-11-15', '2018-11-16'],
    ['test_half_hour_offset_does_not_drop_events', 'Asia/Kolkata', ['2024-02-29T18:30:00Z', '2024-03-01T17:00:00Z'], '2024-03-01', '2024-03-02'],
    ['test_lord_howe_half_hour_dst_does_not_drop_events', 'Australia/Lord_Howe', ['2024-01-15T13:00:00Z', '2024-01-15T22:00:00Z'], '2024-01-16', '2024-01-17'],
  ])('%s (%s)', async (name, timezone, instants, from, to) => {
    const who = await t.bootstrap(`property-types-${name.replaceAll('_', '-')}@example.com`);
    const patched = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload: { timezone } });
    expect(patched.statusCode).toBe(200);
    // setUp's events: five $pageview a month, January to June 2024.
    const pageviews = [1, 2, 3, 4, 5, 6].flatMap((month) => [0, 1, 2, 3, 4].map((day) => ev('$pageview', `2024-0${month}-${10 + day}T00:00:00Z`)));
    await journeys(t, who, { user: pageviews, tz_user: instants.map((at) => ev('tz_test', at)) });
    expect(await rows(who, `SELECT count() FROM events WHERE event = 'tz_test' AND timestamp >= '${from}' AND timestamp < '${to}'`)).toEqual([[2]]);
  });
});

describe('reading the types: once per query, the project\'s own data, then from memory', () => {
  /** Counts the statements a run starts. */
  class CountingRun extends QueryRun {
    statementsRun = 0;
    override async rows<Row>(q: Query): Promise<Row[]> {
      this.statementsRun += 1;
      return super.rows<Row>(q);
    }
  }

  it('one statement per owner for the properties a query lacks, none when it repeats; another project reads its own', async () => {
    const counting = await t.bootstrap('property-types-counting@example.com');
    await journeys(t, counting, { x: [ev('$pageview', '2024-01-02T00:00:00Z', { price: 1, flag: true, $set: { age: 3 } })] });
    const other = await t.bootstrap('property-types-other@example.com');
    await journeys(t, other, { x: [ev('$pageview', '2024-01-02T00:00:00Z', { price: 'high' })] });
    let translations = 0;
    const typesOf = (run: QueryRun) => withPropertyTypes(run, (types) => {
      translations += 1;
      return [types.typeOf('event', 'price'), types.typeOf('event', 'flag'), types.typeOf('person', 'age'), types.typeOf('event', 'never_seen')];
    });

    const first = new CountingRun(t.services.executor, counting.projectId, 'first');
    expect(await typesOf(first)).toEqual(['Numeric', 'Boolean', 'Numeric', undefined]);
    expect([first.statementsRun, translations]).toEqual([2, 2]); // events and persons; then translated again
    const again = new CountingRun(t.services.executor, counting.projectId, 'again');
    translations = 0;
    expect(await typesOf(again)).toEqual(['Numeric', 'Boolean', 'Numeric', undefined]);
    expect([again.statementsRun, translations]).toEqual([0, 1]);

    const elsewhere = new CountingRun(t.services.executor, other.projectId, 'elsewhere');
    expect(await typesOf(elsewhere)).toEqual(['String', undefined, undefined, undefined]);
    expect(elsewhere.statementsRun).toBe(2);
  });
});

describe('a String or untyped property reads exactly as before (the HogQL benchmark reads them)', () => {
  it('prints the same SQL with no types, String types and unknown types', async () => {
    const text = `select e.properties.$current_url as url, p.properties.$initial_browser, count() from events e
      inner join persons p on p.id = e.person_id where e.event = 'purchase' and e.person.properties.$initial_browser = 'Chrome'
      and e.properties.$current_url = 'x' group by url, p.properties.$initial_browser`;
    const root = await sharedHogQLParser().parse('select', text, 1);
    const sqlWith = (propertyTypes?: KnownPropertyTypes) =>
      printQuery(scopeToProject(new HogQLTranslator({ timezone: 'UTC', values: {}, ...(propertyTypes ? { propertyTypes } : {}) }).statement(root).query, 1), 'db').sql;
    const all = (type: 'String' | null) => new KnownPropertyTypes({ get: () => type });
    const untyped = sqlWith();
    expect(sqlWith(all('String'))).toBe(untyped);
    expect(sqlWith(all(null))).toBe(untyped);
    expect(sqlWith(new KnownPropertyTypes(new Map()))).toBe(untyped);
  });
});
