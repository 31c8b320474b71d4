// PostHog's posthog/hogql/test/test_autocomplete.py, as data through POST /api/projects/:id/query/
// with a HogQLAutocomplete node: the suggestions at a cursor (tables, the table's fields through
// aliases, subqueries, CTEs and lazy joins, functions, the project's property definitions). Property
// definitions come from events captured through /batch/. What is left out, and why, is listed in
// docs/hogql-posthog-tests.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
let withProperties: Credentials;

const AT = '2024-01-01T10:00:00Z';

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('autocomplete-cases@example.com');
  // test_autocomplete.py's _create_properties: one event property, one person property.
  withProperties = await t.bootstrap('autocomplete-properties@example.com');
  await journeys(t, withProperties, { u1: [ev('$pageview', AT, { some_event_value: 'x' }), ev('$identify', AT, { $set: { some_person_value: 'y' } })] });
});

afterAll(async () => {
  await t.close();
});

interface Suggestion { label: string; insertText: string; kind: string; detail: string | null; sortText?: string }
interface Answer { suggestions: Suggestion[]; incomplete_list: boolean }

async function autocomplete(as: Credentials, node: Record<string, unknown>, path = 'projects'): Promise<Answer> {
  const res = await t.request(as.key, { method: 'POST', url: `/api/${path}/${as.projectId}/query/`, payload: { query: { kind: 'HogQLAutocomplete', ...node } } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** test_autocomplete.py's _select. */
const select = (query: string, start: number, end: number, as = who) => autocomplete(as, { language: 'hogQL', query, startPosition: start, endPosition: end });
/** test_autocomplete.py's _expr: an expression over `select * from events`. */
const expr = (query: string, start: number, end: number) =>
  autocomplete(who, { language: 'hogQLExpr', query, startPosition: start, endPosition: end, sourceQuery: { kind: 'HogQLQuery', query: 'select * from events' } });

const labels = (answer: Answer) => answer.suggestions.map((s) => s.label);

/** PostHog's PERSONS_FIELDS, the ones Hoglet's persons table has (it has no pdi or revenue_analytics join). */
const PERSONS_FIELDS = ['id', 'created_at', 'team_id', 'properties', 'is_identified'];
/** PostHog's EventsTable().fields in its order, less what Hoglet's events do not have. */
const POSTHOG_EVENTS_FIELDS = [
  'uuid', 'event', 'properties', 'timestamp', 'team_id', 'distinct_id', 'elements_chain', 'created_at', '$session_id', '$session_id_uuid',
  '$window_id', 'person_mode', 'pdi', 'poe', 'goe_0', 'goe_1', 'goe_2', 'goe_3', 'goe_4', 'person', 'person_id',
  '$group_0', 'group_0', '$group_1', 'group_1', '$group_2', 'group_2', '$group_3', 'group_3', '$group_4', 'group_4', 'session',
  'elements_chain_href', 'elements_chain_texts', 'elements_chain_ids', 'elements_chain_elements',
];
const NOT_IN_HOGLET = new Set(['$session_id_uuid', 'person_mode', 'goe_0', 'goe_1', 'goe_2', 'goe_3', 'goe_4', 'elements_chain_href', 'elements_chain_texts', 'elements_chain_ids', 'elements_chain_elements']);
const EVENTS_FIELDS = POSTHOG_EVENTS_FIELDS.filter((name) => !NOT_IN_HOGLET.has(name));

describe('test_autocomplete.py', () => {
  it('test_autocomplete', async () => {
    expect((await select('select * from events', 0, 0)).suggestions).toHaveLength(0);
  });

  it('test_autocomplete_events_suggestions', async () => {
    expect((await select('select  from events', 7, 7)).suggestions.length).not.toBe(0);
  });

  it('test_autocomplete_functions', async () => {
    const answer = await select('select  from events', 7, 7);
    expect(labels(answer)).toContain('toDateTime');
    expect(answer.suggestions.map((s) => s.insertText)).toContain('toDateTime()');
  });

  it('test_autocomplete_skips_table_functions_without_metadata', async () => {
    for (const s of (await select('select * from ', 14, 14)).suggestions) expect(s.detail).not.toBe('Table function');
  });

  it('test_autocomplete_persons_suggestions', async () => {
    expect((await select('select  from persons', 7, 7)).suggestions.length).not.toBe(0);
  });

  it('test_autocomplete_assume_events_table', async () => {
    const answer = await select('select ', 7, 7);
    expect(answer.suggestions.length).not.toBe(0);
    expect(labels(answer)).toContain('event');
  });

  it('test_autocomplete_events_properties', async () => {
    const answer = await select('select properties. from events', 18, 18, withProperties);
    // Hoglet's definitions come from captured events, and capture adds $ip to each.
    expect(labels(answer).filter((l) => l !== '$ip')).toEqual(['some_event_value']);
  });

  it('test_autocomplete_persons_properties', async () => {
    const answer = await select('select properties. from persons', 18, 18, withProperties);
    expect(labels(answer)).toEqual(['some_person_value']);
  });

  it('test_autocomplete_lazy_join', async () => {
    expect((await select('select pdi. from events', 11, 11)).suggestions).toHaveLength(4);
  });

  it('test_autocomplete_virtual_table', async () => {
    expect((await select('select poe. from events', 11, 11)).suggestions.length).not.toBe(0);
  });

  it('test_autocomplete_events_properties_partial_matching', async () => {
    const answer = await select('select properties.some_ from events', 18, 23, withProperties);
    expect(labels(answer)).toEqual(['some_event_value']);
  });

  it('test_autocomplete_nested_tables', async () => {
    const inner = await select('select event, (select  from persons) as blah from events', 22, 22);
    expect(labels(inner).slice(0, PERSONS_FIELDS.length)).toEqual(PERSONS_FIELDS);
    const outer = await select('select , (select id from persons) as blah from events', 7, 7);
    expect(labels(outer).slice(0, EVENTS_FIELDS.length)).toEqual(EVENTS_FIELDS);
  });

  it('test_autocomplete_table_name', async () => {
    expect((await select('select event from ', 18, 18)).suggestions.length).not.toBe(0);
  });

  it('test_autocomplete_table_name_dot_notation', async () => {
    expect((await select('select event from events.', 25, 25)).suggestions).toHaveLength(0);
  });

  it('test_autocomplete_recursive_fields', async () => {
    const answer = await select('select pdi.person.properties. from events', 29, 29, withProperties);
    expect(labels(answer)).toEqual(['some_person_value']);
  });

  it.each([
    ['test_autocomplete_subquery_cte', 'select e from (select event from events)', 7, 8, 'event', ['properties']],
    ['test_autocomplete_with_cte', 'with blah as (select event from events) select e from blah', 47, 48, 'event', ['properties']],
    ['test_autocomplete_cte_alias', 'select p from (select event as potato from events)', 7, 8, 'potato', ['event', 'properties']],
    ['test_autocomplete_cte_constant_type', "select p from (select 'hello' as potato from events)", 7, 8, 'potato', ['event', 'properties']],
  ])('%s', async (_name, query, start, end, first, absent) => {
    const answer = await select(query, start, end);
    expect(answer.suggestions[0]?.label).toBe(first);
    for (const label of absent) expect(labels(answer)).not.toContain(label);
  });

  it('test_autocomplete_field_traversers', async () => {
    expect((await select('select person. from events', 14, 14)).suggestions.length).not.toBe(0);
  });

  it('test_autocomplete_table_alias', async () => {
    const answer = await select('select  from events e', 7, 7);
    expect(answer.suggestions.length).not.toBe(0);
    expect(answer.suggestions[0]!.label).toBe('e');
  });

  it('test_autocomplete_complete_list', async () => {
    expect((await select('select event from events', 7, 12)).incomplete_list).toBe(false);
  });

  describe("property lists around PostHog's limit of 220", () => {
    const project = async (email: string, count: number) => {
      const as = await t.bootstrap(email);
      const properties = Object.fromEntries(Array.from({ length: count }, (_, i) => [`some_event_value_${i}`, 'x']));
      await journeys(t, as, { u1: [ev('$pageview', AT, properties)] });
      return as;
    };

    it('test_autocomplete_properties_list_with_under_220_properties', async () => {
      const as = await project('under-220@example.com', 20);
      expect((await select('select properties. from events', 18, 18, as)).incomplete_list).toBe(false);
    });

    it('test_autocomplete_properties_list_with_over_220_properties', async () => {
      const as = await project('over-220@example.com', 221);
      const answer = await select('select properties. from events', 18, 18, as);
      expect(answer.incomplete_list).toBe(true);
      expect(answer.suggestions).toHaveLength(220);
    });
  });

  it('test_autocomplete_joined_tables', async () => {
    const answer = await select('select p. from events e left join persons p on e.person_id = p.id', 9, 9);
    expect(answer.suggestions.length).not.toBe(0);
    expect(labels(answer).slice(0, PERSONS_FIELDS.length)).toEqual(PERSONS_FIELDS);
  });

  it('test_autocomplete_joined_table_contraints', async () => {
    const answer = await select('select p.id from events e left join persons p on e.person_id = p.', 65, 65);
    expect(answer.suggestions.length).not.toBe(0);
    expect(labels(answer).slice(0, PERSONS_FIELDS.length)).toEqual(PERSONS_FIELDS);
  });

  it('test_autocomplete_joined_tables_aliases', async () => {
    expect(labels(await select('select  from events e left join persons p on e.person_id = p.id', 7, 7))).toEqual(['e', 'p']);
  });

  it('test_autocomplete_non_existing_alias', async () => {
    expect((await select('select o. from events e', 9, 9)).suggestions).toHaveLength(0);
  });

  it('test_autocomplete_expressions', async () => {
    const found = (await expr('person.', 7, 7)).suggestions.filter((s) => s.label === 'created_at');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ label: 'created_at', insertText: 'created_at' });
  });

  it('test_autocomplete_ranks_functions_by_comparison_fit', async () => {
    const query = 'select * from events where timestamp > ';
    const answer = await select(query, query.length, query.length);
    const sortText = new Map(answer.suggestions.filter((s) => s.kind === 'Function').map((s) => [s.label, s.sortText]));
    expect(sortText.get('now')).toBeTruthy();
    expect(sortText.get('toDateTime')).toBeTruthy();
    expect(sortText.get('now')! < sortText.get('xor')!).toBe(true);
    expect(sortText.get('toDateTime')! < sortText.get('xor')!).toBe(true);
  });

  it('test_autocomplete_leaves_functions_unranked_without_an_expected_type', async () => {
    const functions = (await select('select  from events', 7, 7)).suggestions.filter((s) => s.kind === 'Function');
    expect(functions.length).toBeGreaterThan(0);
    expect(functions.every((s) => s.sortText === undefined || s.sortText === null)).toBe(true);
  });

  it.each([['empty', ''], ['reserved_keyword_alias', 'select 1 as team_id']])('test_autocomplete_degrades_gracefully_for_bad_source_query (%s)', async (_name, source) => {
    const answer = await autocomplete(who, { language: 'hogQL', query: 'SELECT * FROM e', startPosition: 15, endPosition: 15, sourceQuery: { kind: 'HogQLQuery', query: source } });
    expect(labels(answer)).toContain('events');
  });
});
