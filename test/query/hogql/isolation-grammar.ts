// A small grammar of hostile HogQL for the isolation property test. It plays the games that have
// reached another tenant's rows in SQL engines: column aliases named after tables, table aliases
// and the joins the translator adds; tuples, JSON and subqueries that hold a `team_id`; `*` where a
// value is expected; lambdas whose arguments shadow tables; CTEs, subqueries, joins and unions.
import fc from 'fast-check';

export interface Grammar {
  /** Team ids to compare with: every project on the server and some that are none. */
  readonly teamIds: readonly number[];
}

type Arb = fc.Arbitrary<string>;

/** Names the engine or the translator uses for tables and joins, and some plain ones. */
// (`team_id` itself PostHog's parser refuses as any alias or identifier.)
export const NAMES = [
  'e', 'x', 't', 'events', 'persons', 'p', 'pdi', 'person', 'groups', 'sessions', 'raw', 'o', 'overrides',
  'person_distinct_ids', 'person_distinct_id_overrides', 'static_cohort_people', 'poe', 'session', '_subquery1',
] as const;
/** The joins the translator adds are named `<table alias>__<what>`; a table alias may not take such a name. */
const INTERNAL_NAMES = ['e__person', 'e__overrides', 'events__person', 'events__overrides', 'events__pdi', 'events__group_0'] as const;

const anyName: Arb = fc.oneof({ arbitrary: fc.constantFrom(...NAMES), weight: 12 }, { arbitrary: fc.constantFrom(...INTERNAL_NAMES), weight: 1 });
/** A name, most often the table alias in scope (the name an alias must not take over). */
const nameNear = (tableAlias: string | undefined): Arb =>
  (tableAlias ? fc.oneof({ arbitrary: fc.constant(tableAlias), weight: 3 }, { arbitrary: anyName, weight: 2 }) : anyName);

/** A value holding a team id, spelled so that `<alias>.team_id` would read it. */
function teamHolder(g: Grammar): Arb {
  const id = fc.constantFrom(...g.teamIds).map(String);
  return fc.oneof(
    id.map((n) => `JSONExtract('{"team_id":${n}}', 'Tuple(team_id UInt64)')`),
    id.map((n) => `tuple(${n})`),
    id.map((n) => `(select JSONExtract('{"team_id":${n}}', 'Tuple(team_id UInt64)'))`),
    id.map((n) => `map('team_id', ${n})`),
    id,
  );
}

/** What could expose a row: columns, properties, lazy joins, `*`, qualified by the table's alias or any name. */
function reader(tableAlias: string | undefined): Arb {
  const columns = fc.constantFrom(
    'event', 'distinct_id', 'properties', 'properties.mark', 'person.properties.mark', 'person.properties', 'person_id', 'uuid',
    'timestamp', '$session_id', '$group_0', 'group_0.key', 'pdi.distinct_id', 'session.session_id', 'elements_chain',
    'properties.$current_url', 'person.id', 'poe.properties.mark',
  );
  const hostile = fc.constantFrom('tuple(*)', '*', 'team_id', 'events.*', 'e.*');
  const lazy = fc.constantFrom('group_0.properties', 'pdi.person.properties.email', 'session.$entry_current_url');
  const qualifiedColumn = fc.constantFrom('event', 'distinct_id', 'properties', 'properties.mark', 'person_id', 'person.properties.mark', 'uuid');
  const own = tableAlias ? fc.constant(tableAlias) : fc.constant('events');
  const qualified = fc.tuple(own, qualifiedColumn).map(([table, column]) => `${table}.${column}`);
  const stray = fc.tuple(anyName, fc.constantFrom('team_id', '*', 'event', 'properties.mark')).map(([table, column]) => `${table}.${column}`);
  return fc.oneof({ arbitrary: columns, weight: 14 }, { arbitrary: qualified, weight: 4 }, { arbitrary: lazy, weight: 1 }, { arbitrary: hostile, weight: 1 }, { arbitrary: stray, weight: 1 });
}

/** A value expression: a reader, or one wrapped in aggregates, lambdas, aliases and team holders. */
export function hostileExpression(g: Grammar, tableAlias?: string): Arb {
  const id = fc.constantFrom(...g.teamIds).map(String);
  const holder = teamHolder(g);
  const name = nameNear(tableAlias);
  // A column alias: often an innocent one, so that the rest of the query runs and is read.
  const columnAlias = fc.oneof({ arbitrary: fc.constantFrom('v', 'n', 'mark_value', 'c'), weight: 3 }, { arbitrary: name, weight: 2 });
  return fc.letrec<{ expr: string }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: reader(tableAlias), weight: 14 },
      fc.tuple(fc.constantFrom('toString', 'lower', 'length', 'isNull', 'tuple', 'coalesce'), tie('expr')).map(([fn, x]) => `${fn}(${x})`),
      { arbitrary: fc.tuple(tie('expr'), tie('expr')).map(([x, y]) => `concat(toString(${x}), toString(${y}))`), weight: 2 },
      fc.tuple(tie('expr'), columnAlias).map(([x, a]) => `(${x}) as ${a}`),
      { arbitrary: fc.tuple(holder, columnAlias).map(([h, a]) => `(${h}) as ${a}`), weight: 2 },
      fc.tuple(name, tie('expr')).map(([a, x]) => `arrayMap(${a} -> ${x}, [1])`),
      fc.tuple(name, holder, id).map(([a, h, n]) => `arrayFilter(${a} -> ${a}.team_id = ${n}, [${h}])`),
      fc.tuple(tie('expr'), holder, name).map(([x, h, a]) => `if(${a}.team_id = 0, ${x}, ${h})`),
      fc.tuple(anyName, tie('expr')).map(([a, x]) => `(select groupArray(${x}) from events ${a})`),
      tie('expr').map((x) => `(select any(${x}) from events)`),
    ),
  })).expr;
}

// Mostly events, so most field readers resolve and the query runs; the other tables still come up.
const TABLES = fc.oneof(
  { arbitrary: fc.constant('events'), weight: 12 },
  { arbitrary: fc.constantFrom('persons', 'person_distinct_ids', 'groups', 'sessions', 'cohort_people'), weight: 1 },
  { arbitrary: fc.constant('(select event, distinct_id, properties, person_id, uuid, timestamp from events)'), weight: 1 },
  // The one FROM item without a team guard: it must stay one that reads no stored rows.
  { arbitrary: fc.constant('numbers(3)'), weight: 1 },
);
/** A table alias: internal join names (always refused) only now and then. */
const tableAliasName: Arb = fc.oneof({ arbitrary: fc.constantFrom(...NAMES), weight: 30 }, { arbitrary: fc.constantFrom(...INTERNAL_NAMES), weight: 1 });

/** SAMPLE: the events table's rows in a hash range (printer/sample.ts), a row count past the end too; a 400 on other tables. */
const sampleClause: Arb = fc.option(fc.constantFrom(' sample 1/2', ' sample 0.1 offset 1/10', ' sample 1', ' sample 5 offset 2', ' sample 1/3 offset 999'), { nil: '', freq: 4 });

/** One SELECT over a table whose alias comes from the hostile names. */
function flatSelect(g: Grammar, from: Arb = TABLES, prefix = ''): Arb {
  const id = fc.constantFrom(...g.teamIds).map(String);
  return fc.tuple(from, fc.option(tableAliasName, { nil: undefined, freq: 4 })).chain(([table, tableAlias]) => {
    const ref = tableAlias ?? (table === 'events' ? 'events' : undefined);
    const expr = hostileExpression(g, ref);
    const items = fc.array(fc.oneof({ arbitrary: expr, weight: 5 }, { arbitrary: fc.constantFrom('count()', 'groupArray(event)', '*'), weight: 1 }), { minLength: 1, maxLength: 2 });
    const join = fc.oneof(
      fc.tuple(tableAliasName, sampleClause).map(([b, s]) => ` join events ${b}${s} on ${ref ?? 'uuid'}${ref ? '.uuid' : ''} = ${b}.uuid`),
      // A joined events table carries its own person, override and group joins (carried-joins.ts).
      tableAliasName.map((b) => ` join events ${b} on ${ref ?? 'events'}.person_id = ${b}.person_id and ${b}.person.properties.mark != 'zz'`),
      tableAliasName.map((b) => ` left join persons ${b} on ${b}.id = ${ref ? `${ref}.` : ''}person_id`),
      tableAliasName.map((b) => ` cross join persons ${b}`),
      // cohort_people: each of the project's cohorts calculated in the query, and their persons.
      tableAliasName.map((b) => ` left join cohort_people ${b} on ${b}.person_id = ${ref ? `${ref}.` : ''}person_id and ${b}.person.properties.mark != 'zz'`),
      tableAliasName.map((b) => ` join (select distinct_id from events) ${b} using (distinct_id)`),
      fc.tuple(tableAliasName, anyName, id).map(([b, c, n]) => ` left join (select JSONExtract('{"team_id":${n}}', 'Tuple(team_id UInt64)') as ${c}, distinct_id from events) ${b} on ${b}.distinct_id = ${ref ? `${ref}.` : ''}distinct_id`),
    );
    const where = fc.oneof(
      { arbitrary: fc.constant(''), weight: 8 },
      { arbitrary: expr.map((x) => ` where toString(${x}) != 'zz'`), weight: 6 },
      fc.tuple(nameNear(ref), id).map(([a, n]) => ` where ${a}.team_id = ${n}`),
      id.map((n) => ` where team_id = ${n}`),
    );
    // Column names after the table alias (`events e (a, b)`) rename its first columns: hostile names too.
    const columnNames = fc.option(fc.array(anyName, { minLength: 1, maxLength: 3 }).map((names) => ` (${names.join(', ')})`), { nil: '', freq: 8 });
    return fc.tuple(items, fc.option(join, { nil: undefined, freq: 3 }), where, columnNames, sampleClause)
      .map(([xs, j, w, cols, s]) => `${prefix}select ${xs.join(', ')} from ${table}${tableAlias ? ` ${tableAlias}${cols}` : ''}${s}${j ?? ''}${w} limit 20`);
  });
}

/** A whole statement: CTEs, subqueries, joins and unions made of the hostile pieces. */
export function hostileStatement(g: Grammar): Arb {
  const flat = flatSelect(g);
  const nested = flat.chain((inner) => flatSelect(g, fc.constant(`(${inner})`)));
  const withCte = fc.tuple(anyName, flat).chain(([cte, body]) => flatSelect(g, fc.oneof(fc.constant(cte), TABLES), `with ${cte} as (${body}) `));
  const unioned = fc.tuple(flat, flat).map(([a, b]) => `${a} union all ${b}`);
  return fc.oneof({ arbitrary: flat, weight: 4 }, { arbitrary: nested, weight: 2 }, { arbitrary: withCte, weight: 2 }, { arbitrary: unioned, weight: 1 });
}
