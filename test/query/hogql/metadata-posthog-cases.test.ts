// PostHog's posthog/hogql/test/test_metadata.py, as data through POST /api/projects/:id/query/
// with a HogQLMetadata node: the validity, the errors with their positions in the text, and the
// tables a query names. What is left out, and why, is listed in docs/hogql-posthog-tests.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let who: Credentials;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('metadata-cases@example.com');
});

afterAll(async () => {
  await t.close();
});

async function metadata(node: Record<string, unknown>, path = 'projects') {
  const res = await t.request(who.key, { method: 'POST', url: `/api/${path}/${who.projectId}/query/`, payload: { query: { kind: 'HogQLMetadata', ...node } } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** test_metadata.py's _expr: the expression checked in `select * from <table>`. */
const expr = (query: string, table = 'events') => metadata({ language: 'hogQLExpr', query, sourceQuery: { kind: 'HogQLQuery', query: `select * from ${table}` } });
/** test_metadata.py's _select. */
const select = (query: string) => metadata({ language: 'hogQL', query });

const notice = (message: string, start: number | null, end: number | null, fix: string | null = null) => ({ message, start, end, fix });

describe('test_metadata.py', () => {
  it('test_metadata_valid_expr_select', async () => {
    expect(await expr('select 1')).toMatchObject({ isValid: false, query: 'select 1', errors: [notice("extraneous input '1' expecting <EOF>", 7, 8)] });
    expect(await select('select 1')).toMatchObject({ isValid: true, query: 'select 1', errors: [] });
    expect(await expr('timestamp')).toMatchObject({ isValid: true, query: 'timestamp', errors: [] });
    expect(await select('timestamp')).toMatchObject({
      isValid: false, query: 'timestamp', errors: [notice("mismatched input 'timestamp' expecting {SELECT, WITH, '{', '(', '<'}", 0, 9)],
    });
  });

  it('test_metadata_expr_parse_error', async () => {
    expect(await expr('1 as true')).toMatchObject({
      isValid: false, query: '1 as true', errors: [notice('"true" cannot be an alias or identifier, as it\'s a reserved keyword', 0, 9)],
    });
  });

  it('test_metadata_expr_resolve_error', async () => {
    expect(await expr('1 + no_field')).toMatchObject({ isValid: false, query: '1 + no_field', errors: [notice('Unable to resolve field: no_field', 4, 12)] });
  });

  it('test_metadata_table', async () => {
    expect((await expr('timestamp', 'events')).isValid).toBe(true);
    expect((await expr('timestamp', 'persons')).isValid).toBe(false);
    expect((await expr('is_identified', 'events')).isValid).toBe(false);
    expect((await expr('is_identified', 'persons')).isValid).toBe(true);
  });

  describe('test_metadata_in_cohort', () => {
    let query = '';
    beforeAll(async () => {
      const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload: { name: 'cohort_name', groups: [{ properties: [{ key: 'x', value: 'y', type: 'person' }] }] } });
      expect(res.statusCode, res.body).toBe(201);
      query = `select person_id from events where person_id in cohort ${res.json().id} or person_id in cohort 'cohort_name'`;
    });

    it('is valid', async () => {
      expect(await select(query)).toMatchObject({ isValid: true, query, errors: [] });
    });

    // PostHog's resolver adds hover notices: each field's type; a cohort's name for its id and its
    // id for its name, with fixes; a cohort before the field it tests.
    it('its notices', async () => {
      const id = String(query.match(/in cohort (\d+)/)![1]);
      expect((await select(query)).notices).toEqual([
        notice("Field 'person_id' is of type 'String'", 7, 16),
        notice(`Cohort #${id} can also be specified as 'cohort_name'`, 55, 55 + id.length, "'cohort_name'"),
        notice("Field 'person_id' is of type 'String'", 35, 44),
        notice(`Searching for cohort by name. Replace with numeric ID ${id} to protect against renaming.`, 79 + id.length, 92 + id.length, id),
        notice("Field 'person_id' is of type 'String'", 59 + id.length, 68 + id.length),
      ]);
    });
  });

  it('test_valid_view', async () => {
    expect(await select('select event AS event FROM events')).toMatchObject({ isValid: true, query: 'select event AS event FROM events', errors: [] });
  });

  it('test_union_all_does_not_crash', async () => {
    expect(await select('SELECT events.event FROM events UNION ALL SELECT events.event FROM events WHERE 1 = 2')).toMatchObject({ isValid: true, errors: [] });
  });

  it.each([
    ['test_is_valid_view_when_all_fields_have_aliases', 'SELECT event AS event FROM events', true],
    ['test_is_valid_view_is_true_when_not_all_fields_have_aliases', 'SELECT event AS event, uuid FROM events', false],
    ['test_is_valid_view_is_false_when_fields_that_are_transformations_dont_have_aliases', 'SELECT toDate(timestamp), count() FROM events GROUP BY toDate(timestamp)', false],
    ['test_is_valid_view_is_true_when_fields_that_are_transformations_have_aliases', 'SELECT toDate(timestamp) as timestamp, count() as total_count FROM events GROUP BY timestamp', true],
    ['test_is_valid_view_is_false_when_using_asterisk', 'SELECT * FROM events', false],
    ['test_is_valid_view_is_false_when_using_scoped_asterisk', 'SELECT e.* FROM events e', false],
  ])('%s', async (_name, query, view) => {
    // PostHog's current test asserts validity only; isValidView is its older is_valid_view rule.
    expect(await select(query)).toMatchObject({ isValid: true, query, errors: [], isValidView: view });
  });

  it.each([
    ['test_table_collector_basic_select', 'SELECT event FROM events', ['events']],
    ['test_table_collector_multiple_tables', 'SELECT events.event, persons.properties.name FROM events JOIN persons ON events.person_id = persons.id', ['events', 'persons']],
    ['test_table_collector_with_cte', 'WITH events_count AS (SELECT count(*) as count FROM events) SELECT * FROM events_count', ['events']],
    ['test_table_collector_subquery', 'SELECT * FROM (SELECT person_id FROM events UNION ALL SELECT id FROM persons)', ['events', 'persons']],
    ['test_table_in_filter', 'SELECT * FROM events WHERE events.person_id IN (SELECT id FROM persons)', ['events', 'persons']],
    ['test_table_collector_complex_query', `
      WITH user_counts AS (SELECT person_id, count(*) as count FROM events GROUP BY person_id)
      SELECT p.properties.name, uc.count FROM persons p
      LEFT JOIN user_counts uc ON p.id = uc.person_id
      LEFT JOIN cohort_people c ON p.id = c.person_id`, ['cohort_people', 'events', 'persons']],
    ['test_experimental_join_condition', `
      SELECT t1.a FROM (SELECT number AS a, number * 10 AS b FROM numbers(5)) AS t1
      JOIN (SELECT number AS key, number * 2 AS c, number * 3 AS d FROM numbers(5)) AS t2 ON t1.a = t2.key
      WHERE t1.b > 0 AND t2.c < t2.d`, ['numbers']],
  ])('%s', async (_name, query, tables) => {
    const answer = await select(query);
    // test_table_collector_basic_select and _with_cte assert the tables only; the others validity too.
    if (_name !== 'test_table_collector_with_cte') expect(answer.errors).toEqual([]);
    expect([...answer.table_names].sort()).toEqual(tables);
  });
});

describe('test_table_collector_complex_query, its validity', () => {
  // cohort_people: the project's dynamic cohorts, calculated in the query (none here).
  it('is valid', async () => {
    expect((await select('SELECT p.id FROM persons p LEFT JOIN cohort_people c ON p.id = c.person_id')).isValid).toBe(true);
  });

  it('says where an unknown table is', async () => {
    expect((await select('SELECT p.id FROM persons p LEFT JOIN cohort_peoples c ON p.id = c.person_id')).errors).toEqual([notice('Unknown table `cohort_peoples`.', 37, 51)]);
  });
});

describe('HogQLMetadata in Hoglet', () => {
  it('answers on the environments path too, with the whole shape', async () => {
    expect(await metadata({ language: 'hogQL', query: 'select event from events' }, 'environments')).toEqual({
      query: 'select event from events', isValid: true, isValidView: false, errors: [], warnings: [], notices: [notice("Field 'event' is of type 'String'", 7, 12)], table_names: ['events'],
    });
  });

  it('hover notices: a joined table by its alias, an expression at its own offsets, no property or subquery column', async () => {
    expect((await select('select p.id, e.event, e.properties.x from events e join persons p on p.id = e.person_id')).notices).toEqual([
      notice("Field 'id' is of type 'String'", 69, 73), notice("Field 'person_id' is of type 'String'", 76, 87),
      notice("Field 'id' is of type 'String'", 7, 11), notice("Field 'event' is of type 'String'", 13, 20),
    ]);
    expect((await expr('timestamp')).notices).toEqual([notice("Field 'timestamp' is of type 'DateTime'", 0, 9)]);
    expect((await select('select a from (select event as a from events)')).notices).toEqual([notice("Field 'event' is of type 'String'", 22, 27)]);
  });

  it('an expression without a sourceQuery is read over the events table', async () => {
    expect((await metadata({ language: 'hogQLExpr', query: 'properties.$browser' })).isValid).toBe(true);
    expect((await metadata({ language: 'hogQLExpr', query: 'is_identified' })).isValid).toBe(false);
  });

  it('an unknown function: its name marked, PostHog\'s close match as the fix', async () => {
    expect((await select('select nwo() from events')).errors).toEqual([notice("Unsupported function call 'nwo(...)'. Perhaps you meant 'now(...)'?", 7, 10, 'now')]);
  });

  it('the end of the text, as PostHog words it', async () => {
    const answer = await select('select event from events where');
    expect(answer.isValid).toBe(false);
    expect(answer.errors[0].start).toBeTypeOf('number');
  });

  it('never runs the query: a sum over a billion rows is checked at once', async () => {
    const started = performance.now();
    expect(await select('select sum(number) from numbers(1000000000)')).toMatchObject({ isValid: true, errors: [] });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('Hog programs and templates: PostHog\'s words for a language it cannot check', async () => {
    for (const language of ['hog', 'hogTemplate']) {
      expect(await metadata({ language, query: 'let i := 3' })).toMatchObject({ isValid: false, errors: [notice(`Unsupported language: ${language}`, null, null)] });
    }
  });

  it('a language PostHog does not know is a 400', async () => {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'HogQLMetadata', language: 'sql', query: 'select 1' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().attr).toBe('query.language');
  });
});
