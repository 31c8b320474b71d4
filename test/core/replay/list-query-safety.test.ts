// The recordings list's statement with hostile text in every place a request can put some (event
// names, property keys and values, person properties, distinct ids, session ids): the printed SQL
// is the same text whatever the values (they are parameters), and every table sits behind the team
// guard.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { recordingsListQuery, type RecordingsListFilter } from '../../../src/core/replay/list-query.js';
import { field } from '../../../src/query/ast/build.js';
import type { QueryContext } from '../../../src/query/context.js';
import { scopeToProject } from '../../../src/query/passes/scope-to-project.js';
import { printQuery } from '../../../src/query/printer/print.js';

const HOSTILE = ["'", '"', '\\', "'; DROP TABLE events; --", '{p0:String}', '{team:UInt64}', '`', ') OR 1=1 --', "' UNION ALL SELECT * FROM system.tables --", 'a\nb', '日本語 🦔'];

const context: QueryContext = {
  project: { id: 7, timezone: 'UTC', weekStartDay: 0 },
  now: DateTime.utc(),
  actions: new Map(),
  testAccountFilters: { type: 'AND', values: [] },
  pathCleaningRules: [],
};

function printed(text: string, operand: 'AND' | 'OR') {
  const filter: RecordingsListFilter = {
    from: 0,
    to: 1,
    distinctIds: [text],
    sessionIds: [text, 'x'],
    entities: [{ kind: 'EventsNode', event: text, properties: { type: 'AND', values: [{ key: text, value: [text], operator: 'exact', type: 'event' }] } }],
    properties: [
      { key: text, value: [text], operator: 'is_not', type: 'event' },
      { key: text, value: text, operator: 'icontains', type: 'person' },
      { key: text, value: text, operator: 'regex', type: 'event' },
    ],
    operand,
    predicates: [],
    orderBy: { expr: field('first_ms'), direction: 'DESC' },
    limit: 51,
    offset: 0,
  };
  return printQuery(scopeToProject(recordingsListQuery(filter, context, 1_000), 7), 'hoglet');
}

describe('the recordings list statement with hostile values', () => {
  for (const operand of ['AND', 'OR'] as const) {
    it(`prints the same SQL text for every value (${operand})`, () => {
      const plain = printed('plain', operand);
      for (const text of HOSTILE) {
        const hostile = printed(text, operand);
        expect(hostile.sql, JSON.stringify(text)).toBe(plain.sql);
        expect(Object.values(hostile.params)).toContain(text);
      }
      // Every table read is the guarded SELECT of its project's rows.
      const tables = plain.sql.match(/FROM `hoglet`\.`[a-z_]+`/g) ?? [];
      const guarded = plain.sql.match(/FROM `hoglet`\.`[a-z_]+` WHERE team_id = \{p\d+:UInt64\}\)/g) ?? [];
      expect(tables.length).toBeGreaterThanOrEqual(4);
      expect(guarded.length).toBe(tables.length);
    });
  }
});
