// Funnels aggregated by group (aggregation_group_type_index): the actor is the event's group of
// that type. PostHog's cases (ee/clickhouse/views/test/funnel/test_clickhouse_funnel_groups.py,
// posthog/queries/funnels/test) through /query/ and the legacy /insights/funnel/ endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery, type JourneyEvent } from '../../helpers/journeys.js';
import { counts, funnelJson, newProject } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(async () => { await t?.close(); });

const org = (key: string) => ({ $groups: { organization: key } });
const january = { date_from: '2020-01-01', date_to: '2020-01-14' };

/** Group types in a fixed order (organization 0, company 1 unless asked otherwise) and two organizations with properties. */
async function groups(who: Credentials, types = ['organization', 'company']): Promise<void> {
  const identify = (type: string, key: string, set: Record<string, unknown>): JourneyEvent =>
    ev('$groupidentify', '2019-12-01T00:00:00Z', { $group_type: type, $group_key: key, $group_set: set });
  await journeys(t, who, { setup: types.map((type) => identify(type, `${type}:1`, {})) });
  await journeys(t, who, { setup: [identify('organization', 'org:5', { industry: 'finance' }), identify('organization', 'org:6', { industry: 'technology' })] });
}

async function legacyFunnel(who: Credentials, body: Record<string, unknown>) {
  return t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/insights/funnel/`, payload: body });
}

async function actorIds(who: Credentials, url: string): Promise<string[]> {
  const res = await t.request(who.key, { method: 'GET', url });
  expect(res.statusCode).toBe(200);
  return res.json().results.map((a: { id: string }) => a.id);
}

describe('funnels aggregated by group', () => {
  it('test_funnel_aggregation_with_groups: a group converts through different persons', async () => {
    const who = await newProject(t);
    await groups(who);
    await journeys(t, who, {
      user_1: [
        ev('user signed up', '2020-01-02T14:00:00Z', org('org:5')),
        // Same person, another group: a second group enters the funnel.
        ev('user signed up', '2020-01-10T14:00:00Z', org('org:6')),
      ],
      // Another person of org:5 pays: org:5 converts.
      user_2: [ev('paid', '2020-01-03T14:00:00Z', org('org:5'))],
    });
    const query = funnelJson(['user signed up', 'paid'], { dateRange: january, aggregation_group_type_index: 0 });
    const { results } = await runQuery(t, who, query);
    expect(counts(results)).toEqual([2, 1]);
    expect(results[1].average_conversion_time).toBe(86400);
    expect(await actorIds(who, results[0].converted_people_url)).toEqual(['org:5', 'org:6']);
    expect(await actorIds(who, results[1].converted_people_url)).toEqual(['org:5']);
    expect(await actorIds(who, results[1].dropped_people_url)).toEqual(['org:6']);
    const people = await t.request(who.key, { method: 'GET', url: results[0].converted_people_url });
    expect(people.json().results[0]).toMatchObject({ id: 'org:5', group_type_index: 0, group_key: 'org:5', properties: { industry: 'finance' } });

    // Without the index the same events count persons: user_1 enters, user_2 never does.
    expect(counts((await runQuery(t, who, funnelJson(['user signed up', 'paid'], { dateRange: january }))).results)).toEqual([1, 0]);
  });

  it('two persons of one group count once', async () => {
    const who = await newProject(t);
    await groups(who);
    await journeys(t, who, {
      alice: [ev('a', '2020-01-02T10:00:00Z', org('org:5')), ev('b', '2020-01-02T11:00:00Z', org('org:5'))],
      bob: [ev('a', '2020-01-03T10:00:00Z', org('org:5'))],
      // No organization: left out of a group funnel.
      carol: [ev('a', '2020-01-03T10:00:00Z'), ev('b', '2020-01-03T11:00:00Z')],
    });
    const byGroup = await runQuery(t, who, funnelJson(['a', 'b'], { dateRange: january, aggregation_group_type_index: 0 }));
    expect(counts(byGroup.results)).toEqual([1, 1]);
    const byPerson = await runQuery(t, who, funnelJson(['a', 'b'], { dateRange: january }));
    expect(counts(byPerson.results)).toEqual([3, 2]);
    // A group type nobody belongs to: nobody enters.
    expect((await runQuery(t, who, funnelJson(['a', 'b'], { dateRange: january, aggregation_group_type_index: 1 }))).results).toEqual([]);
  });

  it('test_funnel_group_aggregation_with_groups_entity_filtering: a step filter narrows the groups that enter', async () => {
    const who = await newProject(t);
    await groups(who);
    await journeys(t, who, {
      user_1: [ev('user signed up', '2020-01-02T14:00:00Z', org('org:5'))],
      user_2: [ev('paid', '2020-01-03T14:00:00Z', org('org:5'))],
      user_3: [ev('user signed up', '2020-01-10T14:00:00Z', org('org:6'))],
    });
    // PostHog filters the step on the event's $group_0; Hoglet keeps group keys in columns, so the
    // same narrowing is written as a property of the group.
    const finance = [{ key: 'industry', value: 'finance', operator: 'exact', type: 'group', group_type_index: 0 }];
    const query = funnelJson([{ kind: 'EventsNode', event: 'user signed up', properties: finance }, 'paid'], { dateRange: january, aggregation_group_type_index: 0 });
    const { results } = await runQuery(t, who, query);
    expect(counts(results)).toEqual([1, 1]);
    expect(results[1].average_conversion_time).toBe(86400);
    expect(await actorIds(who, results[0].converted_people_url)).toEqual(['org:5']);
  });

  it('test_funnel_with_groups_global_filtering: persons, filtered by a group property', async () => {
    const who = await newProject(t);
    await groups(who);
    await journeys(t, who, {
      user_1: [ev('user signed up', '2020-01-02T14:00:00Z', org('org:5')), ev('paid', '2020-01-03T14:00:00Z', org('org:6'))],
      user_2: [ev('user signed up', '2020-01-02T14:00:00Z', org('org:6')), ev('paid', '2020-01-03T14:00:00Z', org('org:5'))],
    });
    const query = funnelJson(['user signed up', 'paid'], {
      dateRange: january,
      properties: [{ key: 'industry', value: 'finance', operator: 'exact', type: 'group', group_type_index: 0 }],
    });
    expect(counts((await runQuery(t, who, query)).results)).toEqual([1, 0]);
  });

  it('trends and time to convert count groups too', async () => {
    const who = await newProject(t);
    await groups(who);
    await journeys(t, who, {
      alice: [ev('a', '2020-01-02T10:00:00Z', org('org:5')), ev('a', '2020-01-02T10:30:00Z', org('org:6'))],
      bob: [ev('b', '2020-01-02T11:00:00Z', org('org:5'))],
    });
    const trends = await runQuery(t, who, funnelJson(['a', 'b'], { dateRange: { date_from: '2020-01-01', date_to: '2020-01-03' }, aggregation_group_type_index: 0, funnelsFilter: { funnelVizType: 'trends' } }));
    // Jan 2: org:5 and org:6 entered, org:5 converted (a person funnel would give 0 of 1).
    expect(trends.results[0].data).toEqual([0, 50, 0]);
    const ttc = await runQuery(t, who, funnelJson(['a', 'b'], { dateRange: january, aggregation_group_type_index: 0, funnelsFilter: { funnelVizType: 'time_to_convert' } }));
    expect(ttc.results.average_conversion_time).toBe(3600);
  });
});

describe('aggregation_group_type_index: /query/ follows PostHog, the legacy endpoint the spec', () => {
  it('legacy /insights/funnel/: 0 (the default) counts users, N > 0 group type N', async () => {
    const who = await newProject(t);
    // organization is group type 1 here.
    await groups(who, ['company', 'organization']);
    await journeys(t, who, {
      user_1: [ev('user signed up', '2020-01-02T14:00:00Z', org('org:5')), ev('user signed up', '2020-01-10T14:00:00Z', org('org:6'))],
      user_2: [ev('paid', '2020-01-03T14:00:00Z', org('org:5'))],
    });
    const body = (index?: number) => ({
      events: [{ id: 'user signed up', order: 0 }, { id: 'paid', order: 1 }],
      ...january,
      ...(index === undefined ? {} : { aggregation_group_type_index: index }),
    });
    const persons = await legacyFunnel(who, body(0));
    expect(persons.statusCode).toBe(200);
    expect(counts(persons.json().result)).toEqual([1, 0]);
    expect(counts((await legacyFunnel(who, body())).json().result)).toEqual([1, 0]);
    const organizations = await legacyFunnel(who, body(1));
    expect(organizations.statusCode).toBe(200);
    expect(counts(organizations.json().result)).toEqual([2, 1]);
    expect(await actorIds(who, organizations.json().result[0].converted_people_url)).toEqual(['org:5', 'org:6']);
    // The same index through /query/ is the node's: 1 is organization, 0 the first type (company: nobody).
    expect(counts((await runQuery(t, who, funnelJson(['user signed up', 'paid'], { dateRange: january, aggregation_group_type_index: 1 }))).results)).toEqual([2, 1]);
    expect((await runQuery(t, who, funnelJson(['user signed up', 'paid'], { dateRange: january, aggregation_group_type_index: 0 }))).results).toEqual([]);
    // Query-string form.
    const get = await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/insights/funnel/?events=${encodeURIComponent(JSON.stringify(body().events))}&date_from=2020-01-01&date_to=2020-01-14&aggregation_group_type_index=1` });
    expect(counts(get.json().result)).toEqual([2, 1]);
  });

  it('a bad index is a 400 naming the field', async () => {
    const who = await newProject(t);
    const query = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: funnelJson(['a', 'b'], { aggregation_group_type_index: 5 }) } });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toMatchObject({ type: 'validation_error', attr: 'query.aggregation_group_type_index' });
    const legacy = await legacyFunnel(who, { events: [{ id: 'a' }, { id: 'b' }], aggregation_group_type_index: 'x' });
    expect(legacy.statusCode).toBe(400);
    expect(legacy.json()).toMatchObject({ type: 'validation_error', attr: 'aggregation_group_type_index' });
  });
});

describe('FunnelsQuery fields Hoglet does not implement are refused, never ignored', () => {
  it.each([
    ['query.funnelsFilter.funnelAggregateByHogQL', { funnelsFilter: { funnelAggregateByHogQL: 'properties.$session_id' } }, null],
    ['query.samplingFactor', { samplingFactor: 0.1 }, null],
    ['query.series[1].math', {}, { kind: 'EventsNode', event: 'b', math: 'first_time_for_user' }],
    ['query.breakdownFilter.breakdowns', { breakdownFilter: { breakdowns: [{ property: '$browser', type: 'event' }] } }, null],
  ])('%s', async (attr, extra, second) => {
    const who = await newProject(t);
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/query/`, payload: { query: funnelJson(['a', second ?? 'b'], extra) } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', attr });
  });
});
