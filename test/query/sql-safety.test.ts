// Values never become SQL: every hostile string, wherever a request can put it (event names,
// property keys and values, breakdown keys, math properties), leaves the compiled SQL text exactly
// as a harmless value does, travels as a bound parameter, and runs on the real engine.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Query } from '../../src/query/ast/nodes.js';
import type { QueryContext } from '../../src/query/context.js';
import { QueryExecutor, QueryRun } from '../../src/query/execute.js';
import { EMPTY_GROUP } from '../../src/query/nodes/read-properties.js';
import { readCohortFilters } from '../../src/query/cohorts/read.js';
import { KINDS, kindOf, readInsightQuery } from '../../src/query/runners/registry.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';

export const ADVERSARIAL = [
  "'", '"', '\\', "\\'", "'; DROP TABLE events; --", '{p0:String}', '{team:UInt64}', '`', '%_%', ') OR 1=1 --',
  'a\nb\r\tc', '日本語 🦔 Ünïcödé', '$$_posthog_breakdown_null_$$', "' UNION ALL SELECT * FROM system.tables --",
  '/* comment */', "'".repeat(390),
];

/** Runs statements for real, and keeps the SQL and parameters of each. */
class RecordingRun extends QueryRun {
  readonly printed: { sql: string; params: Record<string, unknown> }[] = [];

  constructor(private readonly executorRef: QueryExecutor, teamId: number) {
    super(executorRef, teamId, 'recording');
  }

  override async rows<Row>(query: Query): Promise<Row[]> {
    this.record(query);
    return super.rows<Row>(query);
  }

  override async table(query: Query) {
    this.record(query);
    return super.table(query);
  }

  private record(query: Query): void {
    const printed = this.executorRef.print(query, this.teamId);
    // Each test app has a database of its own; snapshots name it `hoglet`.
    const database = /FROM `([^`]+)`\./.exec(printed.sql)?.[1] ?? 'hoglet';
    this.printed.push({ sql: printed.sql.replaceAll(`\`${database}\``, '`hoglet`'), params: printed.params });
  }
}

/** Every kind's representative queries, each with the value placed where a request can put text. */
const SHAPES = Object.values(KINDS).flatMap((kind) => Object.entries(kind.safetyShapes));

describe('compiled SQL', () => {
  let t: TestApp;
  let who: Credentials;
  let executor: QueryExecutor;
  let context: QueryContext;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    who = await t.bootstrap('safety@example.com');
    // bob converts through $pageview -> b, alice drops off: a correlation has candidates to count.
    await journeys(t, who, {
      alice: [ev('$pageview', '2024-01-02T10:00:00Z', { $browser: 'Chrome' })],
      bob: [ev('$pageview', '2024-01-03T10:00:00Z'), ev('other', '2024-01-03T10:30:00Z'), ev('b', '2024-01-03T11:00:00Z')],
    });
    executor = new QueryExecutor(t.services.events);
    context = {
      project: { id: who.projectId, timezone: 'UTC', weekStartDay: 0 },
      now: DateTime.fromISO('2024-01-08T00:00:00Z'),
      actions: new Map(),
      testAccountFilters: EMPTY_GROUP,
      pathCleaningRules: [],
    };
  });
  afterAll(() => t.close());

  async function compile(json: unknown) {
    const query = readInsightQuery(json as never);
    const run = new RecordingRun(executor, who.projectId);
    await kindOf(query).run(query, context, run);
    return run.printed;
  }

  /** A trend filtered by a cohort whose criteria carry the value everywhere a cohort can hold text. */
  async function compileCohort(value: string) {
    const properties = readCohortFilters({ properties: { type: 'OR', values: [
      { type: 'person', key: value, value, operator: 'icontains' },
      { type: 'behavioral', key: value, value: 'performed_event_multiple', event_type: 'events', time_value: 7, time_interval: 'day', operator_value: 2, event_filters: [{ type: 'event', key: value, value, operator: 'exact' }] },
      { type: 'behavioral', key: value, value: 'performed_event', event_type: 'events', explicit_datetime: '-30d', negation: true },
    ] } });
    const withCohort = { ...context, cohorts: new Map([[7, { id: 7, name: value, isStatic: false, properties, version: 1 }]]) };
    const query = readInsightQuery({ kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '2024-01-01', date_to: '2024-01-07' }, properties: [{ type: 'cohort', key: 'id', value: 7 }] } as never);
    const run = new RecordingRun(executor, who.projectId);
    await kindOf(query).run(query, withCohort, run);
    return run.printed;
  }

  it('cohort criteria: the same SQL text for every value, the value only in parameters', async () => {
    const unnumbered = (printed: { sql: string }[]) => printed.map((p) => p.sql.replace(/\{p\d+:/g, '{p:'));
    const benign = unnumbered(await compileCohort('harmless'));
    for (const value of ADVERSARIAL) {
      const hostile = await compileCohort(value);
      expect(unnumbered(hostile), JSON.stringify(value).slice(0, 60)).toEqual(benign);
      expect(hostile.flatMap((p) => Object.values(p.params)).flat().some((p) => typeof p === 'string' && p.includes(value))).toBe(true);
    }
  });

  for (const [name, shape] of SHAPES) {
    it(`${name}: the same SQL text for every value, the value only in parameters`, async () => {
      // Once first: a HogQL query reads the types of the properties it names (one statement, the
      // names as parameters), then finds them cached, so every compile below is the query alone.
      await compile(shape('harmless'));
      const benign = await compile(shape('harmless'));
      expect(benign.map((p) => p.sql)).toMatchSnapshot();
      for (const value of ADVERSARIAL) {
        const hostile = await compile(shape(value));
        // Equal values share a parameter, so a value equal to another constant of the query renumbers them: compare without the numbers.
        const unnumbered = (printed: { sql: string }[]) => printed.map((p) => p.sql.replace(/\{p\d+:/g, '{p:'));
        expect(unnumbered(hostile), JSON.stringify(value).slice(0, 60)).toEqual(unnumbered(benign));
        const params = hostile.flatMap((p) => Object.values(p.params)).flat();
        expect(params.some((p) => typeof p === 'string' && p.includes(value)), JSON.stringify(value).slice(0, 60)).toBe(true);
      }
    });
  }
});
