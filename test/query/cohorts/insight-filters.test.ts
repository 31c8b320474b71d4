// Cohort filters in every insight kind, through the real API: PostHog's numbers where its tests pin
// them (test_trends_query_runner.py::test_trends_with_cohort_filter), and everywhere else the same
// answer as the person filter the cohort stands for. Cohorts are evaluated as of each query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery, trendsQuery } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
let p1Cohort: number;
const day = (d: number) => `2020-01-${String(d).padStart(2, '0')}T12:00:00Z`;
const inCohort = (id: number, operator?: string) => ({ type: 'cohort', key: 'id', value: id, ...(operator ? { operator } : {}) });
const named = (name: string) => ({ type: 'person', key: 'name', value: name, operator: 'exact' });
const range = { date_from: '2020-01-09', date_to: '2020-01-20' };

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('cohort-filters@example.com');
  // PostHog's _create_test_events: person `name` is the distinct id.
  const visits = (name: string, pageviews: number[], pageleaves: number[]) => [
    ...pageviews.map((d, i) => ev('$pageview', day(d), i === 0 ? { $set: { name } } : {})),
    ...pageleaves.map((d) => ev('$pageleave', day(d))),
  ];
  await journeys(t, who, {
    p1: visits('p1', [11, 12, 13, 15, 17, 19], [11, 12, 13]),
    p2: visits('p2', [9, 12], [13]),
    p3: visits('p3', [12], [13]),
    p4: visits('p4', [15], [16]),
  });
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload: { name: 'p1 only', filters: { properties: { type: 'AND', values: [named('p1')] } } } });
  p1Cohort = res.json().id;
});
afterAll(() => t.close());

const results = async (query: unknown) => (await runQuery(t, who, query)).results;
/** Results without the persons links (they carry the query itself, filters included). */
const withoutLinks = (value: unknown) => JSON.parse(JSON.stringify(value, (key, v) => (key.endsWith('_people_url') ? undefined : v)));

describe('cohort filters', () => {
  it("trends: PostHog's test_trends_with_cohort_filter numbers", async () => {
    const [series] = await results(trendsQuery([{ kind: 'EventsNode', event: '$pageview', properties: [inCohort(p1Cohort)] }], range.date_from, range.date_to));
    expect(series.count).toBe(6);
    expect(series.data).toEqual([0, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0]);
  });

  it('trends: not_in (and the older negation) keep everyone else', async () => {
    for (const filter of [inCohort(p1Cohort, 'not_in'), { ...inCohort(p1Cohort), negation: true }]) {
      const [series] = await results(trendsQuery([{ kind: 'EventsNode', event: '$pageview' }], range.date_from, range.date_to, { properties: [filter] }));
      expect(series.count).toBe(4);
    }
  });

  it("the project's test-account filters may exclude a cohort", async () => {
    const patched = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload: { test_account_filters: [inCohort(p1Cohort, 'not_in')] } });
    expect(patched.statusCode, patched.body).toBe(200);
    const [filtered] = await results(trendsQuery([{ kind: 'EventsNode', event: '$pageview' }], range.date_from, range.date_to, { filterTestAccounts: true }));
    expect(filtered.count).toBe(4);
  });

  it('every other kind answers as with the person filter the cohort stands for', async () => {
    const kinds: Record<string, unknown>[] = [
      { kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }, { kind: 'EventsNode', event: '$pageleave' }], dateRange: range },
      { kind: 'RetentionQuery', dateRange: range, retentionFilter: { period: 'Day', totalIntervals: 7, targetEntity: { id: '$pageview', type: 'events' }, returningEntity: { id: '$pageview', type: 'events' } } },
      { kind: 'StickinessQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: range },
      { kind: 'LifecycleQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: range },
      { kind: 'PathsQuery', dateRange: range, pathsFilter: { includeEventTypes: ['hogql'], pathsHogQLExpression: 'event' } },
      { kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }, { kind: 'EventsNode', event: '$pageleave' }], dateRange: range, funnelsFilter: { funnelVizType: 'trends' } },
    ];
    for (const query of kinds) {
      const byCohort = await results({ ...query, properties: [inCohort(p1Cohort)] });
      const byPerson = await results({ ...query, properties: [named('p1')] });
      const others = await results({ ...query, properties: [inCohort(p1Cohort, 'not_in')] });
      expect(withoutLinks(byCohort), String(query.kind)).toEqual(withoutLinks(byPerson));
      expect(withoutLinks(byCohort), `${String(query.kind)}: in and not_in differ`).not.toEqual(withoutLinks(others));
    }
  });

  it("funnel correlation reads the cohort filter of its funnel", async () => {
    const correlation = (properties: unknown[]) => ({
      kind: 'FunnelCorrelationQuery',
      funnelCorrelationType: 'properties',
      funnelCorrelationNames: ['name'],
      source: { kind: 'FunnelsActorsQuery', source: { kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: '$pageleave' }, { kind: 'EventsNode', event: '$pageview' }], dateRange: range, properties } },
    });
    const byCohort = await runQuery(t, who, correlation([inCohort(p1Cohort)]));
    const byPerson = await runQuery(t, who, correlation([named('p1')]));
    expect(withoutLinks(byCohort.results)).toEqual(withoutLinks(byPerson.results));
    const everyone = await runQuery(t, who, correlation([]));
    expect(withoutLinks(byCohort.results)).not.toEqual(withoutLinks(everyone.results));
  });

  it('HogQL queries take cohort filters in their filters', async () => {
    const query = { kind: 'HogQLQuery', query: 'select count() from events where {filters}', filters: { properties: [inCohort(p1Cohort)], dateRange: { date_from: 'all' } } };
    expect((await results(query))[0][0]).toBe(9);
  });

  it('HogQL reads IN COHORT by id and by name, NOT IN COHORT, and refuses an unknown name', async () => {
    const count = async (where: string) => (await results({ kind: 'HogQLQuery', query: `select count() from events where ${where}` }))[0][0];
    expect(await count(`person_id in cohort ${p1Cohort}`)).toBe(9);
    expect(await count("person_id in cohort 'p1 only'")).toBe(9);
    expect(await count(`person_id not in cohort ${p1Cohort}`)).toBe(7);
    const persons = await results({ kind: 'HogQLQuery', query: "select count() from persons where id in cohort 'p1 only'" });
    expect(persons[0][0]).toBe(1);
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query: "select 1 from events where person_id in cohort 'nope'" } } });
    expect(res.statusCode).toBe(400);
    // The first line is the refusal; PostHog's enrichment adds the tables referenced after it.
    expect(res.json().detail).toBe("Could not find a cohort with the name 'nope'\nTables referenced: events");
  });

  it('a cohort reflects persons as they are at query time', async () => {
    const query = trendsQuery([{ kind: 'EventsNode', event: '$pageleave', properties: [inCohort(p1Cohort)] }], range.date_from, range.date_to, { trendsFilter: { display: 'BoldNumber' } });
    expect((await results(query))[0].aggregated_value).toBe(3);
    await journeys(t, who, { p4: [ev('$identify', day(20), { $set: { name: 'p1' } })] });
    expect((await results(query))[0].aggregated_value).toBe(4);
  });

  it("refuses a cohort the project does not have, naming where it was used", async () => {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: trendsQuery([{ kind: 'EventsNode', event: '$pageview', properties: [inCohort(987654)] }], range.date_from, range.date_to) } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ detail: 'Could not find cohort with ID 987654', attr: 'query.series[0].properties.values[0].value' });
    // Another project's cohort is as unknown here as a missing one.
    const other = await t.bootstrap('cohort-filters-other@example.com');
    const theirs = await t.request(other.key, { method: 'POST', url: `/api/projects/${other.projectId}/cohorts/`, payload: { name: 'theirs', is_static: true } });
    const foreign = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: { kind: 'HogQLQuery', query: `select count() from events where person_id in cohort ${theirs.json().id}` } } });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().detail).toBe(`Could not find cohort with ID ${theirs.json().id}`);
  });
});
