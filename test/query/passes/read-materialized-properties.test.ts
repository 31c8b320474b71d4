// The events' property columns (event-store migration 5) answer exactly as the JSON they replace:
// fast-check writes property values of every JSON kind (strings with quotes, escapes, unicode and
// line separators, "", "null", numbers, booleans, null, arrays, objects, a missing key), captures
// them through /batch/, and the same statement is run with the pass (reading the columns) and
// without it (parsing the JSON). The pass must also have swapped something, and never an alias
// that names anything but the events table somewhere in the query.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alias, call, constant, eq, field, select, subquery, table } from '../../../src/query/ast/build.js';
import type { Select } from '../../../src/query/ast/nodes.js';
import { jsonProperty } from '../../../src/query/catalog/fields.js';
import { readMaterializedProperties } from '../../../src/query/passes/read-materialized-properties.js';
import { scopeToProject } from '../../../src/query/passes/scope-to-project.js';
import { printQuery } from '../../../src/query/printer/print.js';
import { MATERIALIZED_EVENT_PROPERTIES } from '../../../src/storage/events/materialized-properties.js';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { postBatch, runQuery } from '../../helpers/journeys.js';

const SEED = process.env['HOGLET_PROPERTY_SEED'] ? Number(process.env['HOGLET_PROPERTY_SEED']) : undefined;

/** A property value of any JSON kind, or undefined for a missing key. */
const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', 'null', 'Chrome', '"quoted"', 'back\\slash', 'line\u2028sep', 'tab\there', 'ünïcødé 🦔'),
  fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  fc.constant(undefined),
);

let t: TestApp;
let who: Credentials;
beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('materialized@example.com');
});
afterAll(() => t.close());

/** Each materialized key's value per event, grouped, as the engine answers the statement. */
function perValueCounts(runTag: string): Select {
  const json = field('properties', 'e');
  return select({
    select: [...MATERIALIZED_EVENT_PROPERTIES.map((key, i) => alias(jsonProperty(json, key), `v${i}`)), alias(call('count'), 'n')],
    from: table('events', 'e'),
    where: eq(field('event', 'e'), constant(runTag)),
    groupBy: MATERIALIZED_EVENT_PROPERTIES.map((_, i) => field(`v${i}`)),
    orderBy: [...MATERIALIZED_EVENT_PROPERTIES.map((_, i) => ({ expr: field(`v${i}`), direction: 'ASC' as const })), { expr: field('n'), direction: 'ASC' as const }],
  });
}

async function run(query: Select) {
  const { sql, params } = printQuery(scopeToProject(query, who.projectId), t.services.events.layout.database);
  return { sql, rows: await t.services.events.query<Record<string, unknown>>(sql, params) };
}

describe('reading the events\' property columns', () => {
  it('answers what parsing the JSON answers, for values of every JSON kind', async () => {
    let runNumber = 0;
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(...MATERIALIZED_EVENT_PROPERTIES.map(() => jsonValue)), { minLength: 1, maxLength: 25 }), async (rows) => {
      const tag = `materialized-${runNumber++}`;
      const batch = rows.map((values, i) => {
        const properties: Record<string, unknown> = {};
        MATERIALIZED_EVENT_PROPERTIES.forEach((key, k) => { if (values[k] !== undefined) properties[key] = values[k]; });
        return { event: tag, distinct_id: `d${i % 3}`, timestamp: '2024-03-01T10:00:00Z', properties };
      });
      const res = await postBatch(t, { api_key: who.projectApiToken, batch });
      expect(res.statusCode, res.body).toBe(200);
      // A query through the API waits until the captured events are stored.
      await runQuery(t, who, { kind: 'HogQLQuery', query: `select count() from events where event = '${tag}'` });
      const plain = await run(perValueCounts(tag));
      const columns = await run(readMaterializedProperties(perValueCounts(tag)));
      expect(plain.sql).not.toContain('mat_');
      for (const key of MATERIALIZED_EVENT_PROPERTIES) expect(columns.sql).toContain(`\`e\`.\`mat_${key}\``);
      expect(columns.rows).toEqual(plain.rows);
      expect(columns.rows.reduce((sum, row) => sum + Number(row['n']), 0)).toBe(rows.length);
    }), { numRuns: 8, ...(SEED === undefined ? {} : { seed: SEED }) });
  });

  it('leaves an alias alone when any FROM or JOIN of the query binds it to something else', () => {
    const read = (from: Select['from']) => select({ select: [jsonProperty(field('properties', 'e'), '$browser')], from });
    const inner = select({ select: [field('properties', 'p')], from: table('persons', 'p') });
    const shadowed = select({
      select: [jsonProperty(field('properties', 'e'), '$browser')],
      from: table('events', 'e'),
      where: call('in', field('distinct_id', 'e'), read(subquery(inner, 'e'))),
    });
    expect(printQuery(scopeToProject(readMaterializedProperties(shadowed), 1), 'db').sql).not.toContain('mat_');
    expect(printQuery(scopeToProject(readMaterializedProperties(read(table('events', 'e'))), 1), 'db').sql)
      .toBe('SELECT nullIf(`e`.`mat_$browser`, {p0:String}) FROM (SELECT *, `mat_$browser` FROM `db`.`events` WHERE team_id = {p1:UInt64}) AS `e`');
  });

  it('swaps only the exact read a column holds', () => {
    const json = field('properties', 'e');
    const reads = [
      call('JSONExtractString', json, constant('$browser')),
      call('JSONExtract', json, constant('$not_materialized'), call('toString', constant('Nullable(String)'))),
      jsonProperty(json, '$not_materialized'),
      jsonProperty(field('person_properties', 'e'), '$browser'),
    ];
    const sql = printQuery(scopeToProject(readMaterializedProperties(select({ select: reads, from: table('events', 'e') })), 1), 'db').sql;
    expect(sql).not.toContain('mat_');
  });
});
