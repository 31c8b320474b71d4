// Values never become SQL: every hostile string, wherever a request can put it (event names,
// property keys and values, breakdown keys, math properties), leaves the compiled SQL text exactly
// as a harmless value does, travels as a bound parameter, and runs on the real engine.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Query } from '../../src/query/ast/nodes.js';
import type { QueryContext } from '../../src/query/context.js';
import { QueryExecutor, QueryRun } from '../../src/query/execute.js';
import { EMPTY_GROUP } from '../../src/query/nodes/read-properties.js';
import { readInsightQuery } from '../../src/query/nodes/read-query.js';
import type { InsightQuery } from '../../src/query/nodes/schema.js';
import { RUNNERS } from '../../src/query/runners/registry.js';
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
    const printed = this.executorRef.print(query, this.teamId);
    // Each test app has a database of its own; snapshots name it `hoglet`.
    const database = /FROM `([^`]+)`\./.exec(printed.sql)?.[1] ?? 'hoglet';
    this.printed.push({ sql: printed.sql.replaceAll(`\`${database}\``, '`hoglet`'), params: printed.params });
    return super.rows<Row>(query);
  }
}

/** Representative queries, each with the value placed where a request can put text. */
const SHAPES: Record<string, (v: string) => unknown> = {
  'trend total by event name': (v) => trends([{ kind: 'EventsNode', event: v }]),
  'trend dau with event property filter': (v) => trends([{ kind: 'EventsNode', event: '$pageview', math: 'dau', properties: [{ key: v, value: v, operator: 'exact', type: 'event' }] }]),
  'trend with person property filters': (v) => trends([{ kind: 'EventsNode', event: '$pageview' }], { properties: [{ key: v, value: v, operator: 'icontains', type: 'person' }, { key: v, value: [v, v], operator: 'is_not', type: 'person' }] }),
  'trend with event breakdown': (v) => trends([{ kind: 'EventsNode', event: '$pageview' }], { breakdownFilter: { breakdown: v, breakdown_type: 'event' } }),
  'trend with person breakdown and sum': (v) => trends([{ kind: 'EventsNode', event: v, math: 'sum', math_property: v }], { breakdownFilter: { breakdown: v, breakdown_type: 'person' } }),
  'trend weekly active': (v) => trends([{ kind: 'EventsNode', event: v, math: 'weekly_active' }]),
  'trend unique groups': (v) => trends([{ kind: 'EventsNode', event: v, math: 'unique_group', math_group_type_index: 2 }]),
  'trend with histogram breakdown': (v) => trends([{ kind: 'EventsNode', event: v, properties: [{ key: v, value: v }] }], { breakdownFilter: { breakdown: v, breakdown_histogram_bin_count: 5 } }),
  'trend count per actor': (v) => trends([{ kind: 'EventsNode', event: v, math: 'p90_count_per_actor', properties: [{ key: v, value: v, operator: 'not_icontains' }] }]),
  'trend first time for user': (v) => trends([{ kind: 'EventsNode', event: v, math: 'first_time_for_user', properties: [{ key: v, operator: 'is_set' }] }]),
  'funnel steps with a property step and breakdown': (v) => funnel([{ kind: 'EventsNode', event: v }, { kind: 'EventsNode', event: v, properties: [{ key: v, value: v }] }], { breakdownFilter: { breakdown: v } }),
  'funnel with exclusion, strict': (v) => funnel([{ kind: 'EventsNode', event: v }, { kind: 'EventsNode', event: 'b' }], { funnelsFilter: { funnelOrderType: 'strict', exclusions: [{ kind: 'EventsNode', event: `not ${String(v)}`, funnelFromStep: 0, funnelToStep: 1 }] } }),
  'funnel trends by person property': (v) => funnel([{ kind: 'EventsNode', event: v }, { kind: 'EventsNode', event: v }], { funnelsFilter: { funnelVizType: 'trends' }, properties: [{ key: v, value: v, type: 'person', operator: 'not_icontains' }] }),
  'trend date filter': (v) => trends([{ kind: 'EventsNode', event: v, properties: [{ key: v, value: '2024-01-01', operator: 'is_date_after' }] }]),
};

function funnel(series: unknown[], extra: Record<string, unknown> = {}) {
  return { kind: 'FunnelsQuery', series, dateRange: { date_from: '2024-01-01', date_to: '2024-01-07' }, ...extra };
}

function trends(series: unknown[], extra: Record<string, unknown> = {}) {
  return { kind: 'TrendsQuery', series, dateRange: { date_from: '2024-01-01', date_to: '2024-01-07' }, ...extra };
}

describe('compiled SQL', () => {
  let t: TestApp;
  let who: Credentials;
  let executor: QueryExecutor;
  let context: QueryContext;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    who = await t.bootstrap('safety@example.com');
    await journeys(t, who, { alice: [ev('$pageview', '2024-01-02T10:00:00Z', { $browser: 'Chrome' })] });
    executor = new QueryExecutor(t.services.events);
    context = {
      project: { id: who.projectId, timezone: 'UTC', weekStartDay: 0 },
      now: DateTime.fromISO('2024-01-08T00:00:00Z'),
      actions: new Map(),
      testAccountFilters: EMPTY_GROUP,
    };
  });
  afterAll(() => t.close());

  async function compile(json: unknown) {
    const query = readInsightQuery(json) as InsightQuery;
    const run = new RecordingRun(executor, who.projectId);
    await (RUNNERS[query.kind] as { run(q: InsightQuery, c: QueryContext, r: QueryRun): Promise<unknown> }).run(query, context, run);
    return run.printed;
  }

  for (const [name, shape] of Object.entries(SHAPES)) {
    it(`${name}: the same SQL text for every value, the value only in parameters`, async () => {
      const benign = await compile(shape('harmless'));
      expect(benign.map((p) => p.sql)).toMatchSnapshot();
      for (const value of ADVERSARIAL) {
        const hostile = await compile(shape(value));
        expect(hostile.map((p) => p.sql), JSON.stringify(value).slice(0, 60)).toEqual(benign.map((p) => p.sql));
        const params = hostile.flatMap((p) => Object.values(p.params)).flat();
        expect(params.some((p) => typeof p === 'string' && p.includes(value)), JSON.stringify(value).slice(0, 60)).toBe(true);
      }
    });
  }
});
