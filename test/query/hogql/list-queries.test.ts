// EventsQuery (PostHog's activity table) and ActorsQuery without a source (its persons page) through
// /query/, over events captured through /batch/: columns as HogQL strings, `*`, `person` and
// `person_display_name`, where/orderBy/after/before/event/properties, aggregation with its default
// order, paging, the DataTableNode wrapper and saved insights; PostHog's own persons cases
// (posthog/hogql_queries/test/test_actors_query_runner.py: ten "Mr Jacob" persons) with their numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let who: Credentials;
let other: Credentials;
const RANDOM = 'RANDOM_TEST_ID::0b9e3a';
const DAY = '2020-01-10';

async function query(q: Record<string, unknown>, credentials: Credentials = who) {
  const res = await t.request(credentials.key, { method: 'POST', url: `/api/projects/${credentials.projectId}/query/`, payload: { query: q } });
  return { status: res.statusCode, body: res.json() };
}

async function ok(q: Record<string, unknown>, credentials: Credentials = who) {
  const { status, body } = await query(q, credentials);
  if (status !== 200) throw new Error(`${status} ${JSON.stringify(body)}`);
  return body;
}

const events = (extra: Record<string, unknown>) => ok({ kind: 'EventsQuery', after: `${DAY}T00:00:00Z`, before: `${DAY}T23:59:59Z`, ...extra });
const persons = (extra: Record<string, unknown> = {}) => ok({ kind: 'ActorsQuery', ...extra });

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('list-queries@example.com');
  other = await t.bootstrap('list-queries-other@example.com');
  // PostHog's _create_random_persons: ten persons, each with one "clicky-N" event.
  const stories: Parameters<typeof journeys>[2] = {};
  for (let index = 0; index < 10; index++) {
    stories[`id-${RANDOM}-${index}`] = [ev(`clicky-${index}`, `${DAY}T10:0${index}:00Z`, {
      $browser: index % 2 === 0 ? 'Chrome' : 'Firefox',
      $current_url: `https://example.com/${index}`,
      $set: { email: `jacob${index}@${RANDOM}.posthog.com`, name: `Mr Jacob ${RANDOM}`, random_uuid: RANDOM, index },
    })];
  }
  stories.anonymous = [ev('$pageview', `${DAY}T11:00:00Z`, { $browser: 'Safari' }), ev('$autocapture', `${DAY}T11:30:00Z`, { $event_type: 'click', $elements_chain: 'button.primary:text="Buy"' })];
  stories.yesterday = [ev('$pageview', '2020-01-09T12:00:00Z')];
  await journeys(t, who, stories);
  await journeys(t, other, { intruder: [ev('clicky-0', `${DAY}T10:00:00Z`, { $set: { email: `jacob0@${RANDOM}.posthog.com`, name: `Mr Jacob ${RANDOM}` } })] });
});
afterAll(() => t.close());

describe('EventsQuery', () => {
  it('lists events newest first, as HogQL columns, with the response shape PostHog gives', async () => {
    const body = await events({ select: ['event', 'properties.$browser', 'timestamp'], limit: 3 });
    expect(body.columns).toEqual(['event', 'properties.$browser', 'timestamp']);
    expect(body.results).toEqual([
      ['$autocapture', null, '2020-01-10T11:30:00Z'],
      ['$pageview', 'Safari', '2020-01-10T11:00:00Z'],
      ['clicky-9', 'Firefox', '2020-01-10T10:09:00Z'],
    ]);
    expect(body.types).toEqual(['String', 'Nullable(String)', "DateTime64(6, 'UTC')"]);
    expect(body).toMatchObject({ hasMore: true, limit: 3, offset: 0, is_cached: false });
    expect(body.hogql).toContain('SELECT event, properties.$browser, timestamp FROM events WHERE');
    const next = await events({ select: ['event', 'timestamp'], limit: 3, offset: 3 });
    expect(next.results.map((row: unknown[]) => row[0])).toEqual(['clicky-8', 'clicky-7', 'clicky-6']);
    // Without a timestamp column the first column orders, ascending.
    const byName = await events({ select: ['event'], limit: 3, offset: 2 });
    expect(byName.results).toEqual([['clicky-0'], ['clicky-1'], ['clicky-2']]);
  });

  it('`*` is the event as an object, with its properties parsed and its elements', async () => {
    const body = await events({ select: ['*', 'event'], event: '$autocapture' });
    expect(body.results).toHaveLength(1);
    const [star, name] = body.results[0];
    expect(name).toBe('$autocapture');
    expect(Object.keys(star)).toEqual(['uuid', 'event', 'properties', 'timestamp', 'team_id', 'distinct_id', 'elements_chain', 'created_at', 'person_mode', 'elements']);
    expect(star).toMatchObject({ event: '$autocapture', distinct_id: 'anonymous', team_id: who.projectId, timestamp: '2020-01-10T11:30:00Z', elements_chain: 'button.primary:text="Buy"' });
    expect(star.properties.$event_type).toBe('click');
    expect(star.elements[0]).toMatchObject({ tag_name: 'button', attr_class: ['primary'], text: 'Buy', order: 0 });
  });

  it('`person` is looked up after the page; `person_display_name` is the first name property, else the distinct id', async () => {
    const body = await events({ select: ['person', 'person_display_name -- Person', 'event'], orderBy: ['timestamp ASC'], limit: 1 });
    const [person, display] = body.results[0];
    expect(person).toMatchObject({ distinct_id: `id-${RANDOM}-0`, properties: { email: `jacob0@${RANDOM}.posthog.com`, index: 0 } });
    expect(person.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(display).toEqual({ display_name: `jacob0@${RANDOM}.posthog.com`, id: person.uuid, distinct_id: `id-${RANDOM}-0` });
    const anonymous = await events({ select: ['person_display_name -- Person'], event: '$pageview' });
    expect(anonymous.results[0][0]).toMatchObject({ display_name: 'anonymous', distinct_id: 'anonymous' });
    expect(anonymous.columns).toEqual(['person_display_name -- Person']);
  });

  it('aggregates group by the other columns, ordered by count() descending; aggregate conditions become HAVING', async () => {
    const body = await events({ select: ['properties.$browser', 'count()'] });
    expect(new Map(body.results)).toEqual(new Map([['Chrome', 5], ['Firefox', 5], ['Safari', 1], [null, 1]]));
    expect(body.results.slice(0, 2).map((r: unknown[]) => r[1])).toEqual([5, 5]);
    const having = await events({ select: ['properties.$browser', 'count()'], where: ['count() > 1'] });
    expect(new Map(having.results)).toEqual(new Map([['Chrome', 5], ['Firefox', 5]]));
    const aliased = await events({ select: ['event', 'count() as total'], where: ["event like 'clicky-%'"], orderBy: ['event DESC'], limit: 2 });
    expect(aliased.columns).toEqual(['event', 'total']);
    expect(aliased.results).toEqual([['clicky-9', 1], ['clicky-8', 1]]);
  });

  it('filters by event names, properties (event and person), person, and the time window', async () => {
    expect((await events({ select: ['count()'], event: 'clicky-3' })).results).toEqual([[1]]);
    expect((await events({ select: ['count()'], events: ['clicky-3', 'clicky-4'] })).results).toEqual([[2]]);
    expect((await events({ select: ['count()'], properties: [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }] })).results).toEqual([[5]]);
    expect((await events({ select: ['count()'], properties: [{ key: 'index', value: 7, operator: 'gt', type: 'person' }] })).results).toEqual([[2]]);
    expect((await events({ select: ['count()'], fixedProperties: [{ key: "properties.$browser = 'Safari'", type: 'hogql' }] })).results).toEqual([[1]]);
    const [uuid] = (await events({ select: ['person.id'], event: 'clicky-2' })).results[0];
    expect((await events({ select: ['event'], personId: uuid })).results).toEqual([['clicky-2']]);
    // The window: one day here; "all" reaches yesterday's event; the default is the last 24 hours (nothing that old).
    expect((await events({ select: ['count()'] })).results).toEqual([[12]]);
    expect((await ok({ kind: 'EventsQuery', select: ['count()'], after: 'all' })).results).toEqual([[13]]);
    expect((await ok({ kind: 'EventsQuery', select: ['count()'] })).results).toEqual([[0]]);
  });

  it('never shows another project\'s events', async () => {
    const mine = await ok({ kind: 'EventsQuery', select: ['distinct_id'], after: 'all', event: 'clicky-0' }, other);
    expect(mine.results).toEqual([['intruder']]);
  });

  it('answers inside a DataTableNode, and as a saved insight with the cache', async () => {
    const wrapped = await ok({ kind: 'DataTableNode', source: { kind: 'EventsQuery', select: ['count()'], after: 'all' } });
    expect(wrapped.results).toEqual([[13]]);
    const created = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/insights/`, payload: { name: 'events', query: { kind: 'DataTableNode', source: { kind: 'EventsQuery', select: ['event', 'count()'], after: 'all', where: ["event = '$pageview'"] } } } });
    expect(created.statusCode).toBe(201);
    const first = await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/insights/${created.json().id}/?refresh=blocking` });
    expect(first.json().result).toEqual([['$pageview', 2]]);
    const again = await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/insights/${created.json().id}/` });
    expect(again.json()).toMatchObject({ result: [['$pageview', 2]], is_cached: true });
  });

  it('refuses bad strings with a 400 naming the problem', async () => {
    const syntax = await query({ kind: 'EventsQuery', select: ['event +'] });
    expect(syntax.status).toBe(400);
    expect(syntax.body).toMatchObject({ type: 'validation_error', code: 'hogql_syntax_error' });
    const order = await query({ kind: 'EventsQuery', select: ['event'], orderBy: ['event limit 1'] });
    expect(order.status).toBe(400);
    expect(order.body.code).toBe('hogql_syntax_error');
    const unknown = await query({ kind: 'EventsQuery', select: ['nosuchfield'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toContain('nosuchfield');
    const fn = await query({ kind: 'EventsQuery', select: ["file('/etc/passwd')"] });
    expect(fn.status).toBe(400);
    const escape = await query({ kind: 'EventsQuery', select: ['event'], where: ['1) or (1'] });
    expect(escape.status).toBe(400);
  });
});

describe('ActorsQuery without a source (the persons page)', () => {
  it('lists persons with PostHog\'s default columns: the person object, its id, and 1', async () => {
    const body = await persons();
    expect(body.columns).toEqual(['person', 'id', 'person.$delete']);
    expect(body.results).toHaveLength(12);
    const jacob = body.results.find((row: any[]) => row[0].properties.random_uuid === RANDOM);
    expect(Object.keys(jacob[0]).sort()).toEqual(['created_at', 'distinct_ids', 'id', 'is_identified', 'properties']);
    expect(jacob[0].distinct_ids).toHaveLength(1);
    expect(jacob[1]).toBe(jacob[0].id);
    expect(jacob[2]).toBe(1);
    // Ordered by id when no order is given (the first column), as the engine orders UUIDs.
    const sorted = await ok({ kind: 'HogQLQuery', query: 'select id from persons order by id' });
    expect(body.results.map((row: any[]) => row[1])).toEqual(sorted.results.map((row: any[]) => row[0]));
    expect(body).toMatchObject({ hasMore: false, limit: 100, offset: 0, missing_actors_count: 0 });
  });

  it("PostHog's cases: properties, fixed properties, searches by email, name and distinct id", async () => {
    const exact = { key: 'random_uuid', value: RANDOM, operator: 'exact', type: 'person' };
    expect((await persons({ properties: [exact, { key: 'toInt(properties.index) > 5', type: 'hogql' }] })).results).toHaveLength(4);
    expect((await persons({ fixedProperties: [exact, { key: 'toInt(properties.index) < 2', type: 'hogql' }] })).results).toHaveLength(2);
    expect((await persons({ search: `jacob4@${RANDOM}.posthog` })).results).toHaveLength(1);
    expect((await persons({ search: `JACOB4@${RANDOM}.posthog` })).results).toHaveLength(1);
    expect((await persons({ search: `Mr Jacob ${RANDOM}` })).results).toHaveLength(10);
    expect((await persons({ search: `MR JACOB ${RANDOM}` })).results).toHaveLength(10);
    expect((await persons({ search: `id-${RANDOM}-9` })).results).toHaveLength(1);
    expect((await persons({ search: 'anonymous' })).results).toHaveLength(1);
  });

  it("PostHog's cases: aggregation, order, aliases and paging", async () => {
    const filter = { properties: [{ key: 'random_uuid', value: RANDOM, operator: 'exact', type: 'person' }] };
    expect((await persons({ ...filter, select: ['properties.name', 'count()'] })).results).toEqual([[`Mr Jacob ${RANDOM}`, 10]]);
    expect((await persons({ ...filter, select: ['properties.email'], orderBy: ['properties.email DESC'] })).results[0]).toEqual([`jacob9@${RANDOM}.posthog.com`]);
    expect((await persons({ ...filter, select: ['properties.email as email'] })).results[0]).toEqual([`jacob0@${RANDOM}.posthog.com`]);
    const page = await persons({ ...filter, select: ['properties.email'], orderBy: ['properties.email DESC'], limit: 1 });
    expect(page).toMatchObject({ results: [[`jacob9@${RANDOM}.posthog.com`]], hasMore: true, limit: 1 });
    const later = await persons({ ...filter, select: ['properties.email'], orderBy: ['properties.email DESC'], limit: 1, offset: 2 });
    expect(later).toMatchObject({ results: [[`jacob7@${RANDOM}.posthog.com`]], hasMore: true, offset: 2 });
    const byPerson = await persons({ ...filter, select: ['person_display_name -- Person'], orderBy: ['person_display_name -- Person DESC'], limit: 2 });
    expect(byPerson.results.map((row: any[]) => row[0].display_name)).toEqual([`jacob9@${RANDOM}.posthog.com`, `jacob8@${RANDOM}.posthog.com`]);
    const personOrder = await persons({ ...filter, select: ['person', 'properties.index'], orderBy: ['person DESC'], limit: 1 });
    expect(personOrder.results[0][1]).toBe('9');
  });

  it('the older PersonsNode answers as the ActorsQuery it became; another project sees its own persons only', async () => {
    const body = await ok({ kind: 'PersonsNode', search: `Mr Jacob ${RANDOM}` });
    expect(body.results).toHaveLength(10);
    const theirs = await ok({ kind: 'ActorsQuery', search: `Mr Jacob ${RANDOM}` }, other);
    expect(theirs.results).toHaveLength(1);
    expect(theirs.results[0][0].distinct_ids).toEqual(['intruder']);
    const wrapped = await ok({ kind: 'DataTableNode', source: { kind: 'ActorsQuery', search: 'anonymous', select: ['id', 'properties'] } });
    expect(wrapped.results).toHaveLength(1);
  });

  it('refuses event filters and bad strings with a 400', async () => {
    const eventFilter = await query({ kind: 'ActorsQuery', properties: [{ key: '$browser', value: 'x', operator: 'exact', type: 'event' }] });
    expect(eventFilter.status).toBe(400);
    expect(eventFilter.body.detail).toContain("'event' property filter");
    const sourced = await query({ kind: 'DataTableNode', source: { kind: 'ActorsQuery', source: { kind: 'HogQLQuery', query: 'select 1' } } });
    expect(sourced.status).toBe(400);
    expect(sourced.body.attr).toBe('query.source.source');
    const bad = await query({ kind: 'ActorsQuery', select: ['properties.email +'] });
    expect(bad.status).toBe(400);
  });
});
