// PostHog's posthog/hogql/database/schema/test/test_cohort_people.py as data: persons captured
// through /batch/ ($set), cohorts made through the API, the rows PostHog's tests expect through
// POST /api/projects/:id/query/. Then what Hoglet adds: the table holds the dynamic cohorts
// calculated in the query (narrowed by cohort_id constants, under a budget), never another
// project's. What is left out, and why, is in docs/hogql-posthog-tests.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRefusal, hogqlRows, postHogQL } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp('sqlite');
});

afterAll(async () => {
  await t.close();
});

const AT = '2024-01-01T00:00:00Z';

async function project(name: string, persons: Record<string, Record<string, unknown>>): Promise<Credentials> {
  const who = await t.bootstrap(`cohort-people-${name}@example.com`);
  await journeys(t, who, Object.fromEntries(Object.entries(persons).map(([id, props]) => [id, [ev('$set', AT, { $set: props })]])));
  return who;
}

async function cohort(who: Credentials, payload: Record<string, unknown>): Promise<number> {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const SOME_PROP = { name: 'cohort1', groups: [{ properties: [{ key: '$some_prop', value: 'something', type: 'person' }] }] };
const STAR = 'select *, person.properties.$another_prop from cohort_people order by person.properties.$another_prop';

describe('test_cohort_people.py', () => {
  it('test_select_star', async () => {
    const who = await project('star', {
      1: { $some_prop: 'something', $another_prop: 'something1' },
      2: { $some_prop: 'something', $another_prop: 'something2' },
      3: { $some_prop: 'not something', $another_prop: 'something3' },
    });
    const id = await cohort(who, SOME_PROP);
    const { status, body } = await postHogQL(t, who, STAR);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.columns).toEqual(['person_id', 'cohort_id', '$another_prop']);
    expect(body.results.map((row: unknown[]) => row.slice(1))).toEqual([[id, 'something1'], [id, 'something2']]);
  });

  // PostHog's rows (none) are those of a cohort whose calculation never ran; Hoglet calculates a
  // cohort inside the query, so it has no such state (left out, counted). Its columns hold.
  it('test_empty_version: its columns', async () => {
    const who = await project('empty', { 1: { $some_prop: 'something', $another_prop: 'something1' } });
    await cohort(who, SOME_PROP);
    expect((await postHogQL(t, who, STAR)).body.columns).toEqual(['person_id', 'cohort_id', '$another_prop']);
  });

  describe('test_cohort_membership_serves_current_cohort_people_members', () => {
    let who: Credentials;
    let id: number;
    let members: unknown[][];
    beforeAll(async () => {
      who = await project('membership', { 1: { $some_prop: 'something' }, 2: { $some_prop: 'something' }, 3: { $some_prop: 'not something' } });
      id = await cohort(who, SOME_PROP);
      members = await hogqlRows(t, who, `SELECT person_id FROM cohort_people WHERE cohort_id = ${id} ORDER BY person_id`);
    });

    it('the members', () => {
      expect(members).toHaveLength(2);
    });

    it('the legacy name, both names in one query, the qualified name', async () => {
      expect(await hogqlRows(t, who, `SELECT cohort_membership.person_id FROM cohort_membership WHERE cohort_id = ${id} ORDER BY person_id`)).toEqual(members);
      expect(await hogqlRows(t, who, `
        SELECT cm.person_id FROM cohort_membership cm
        JOIN cohort_people cp ON cp.person_id = cm.person_id AND cp.cohort_id = cm.cohort_id
        WHERE cm.cohort_id = ${id} ORDER BY cm.person_id`)).toEqual(members);
      expect(await hogqlRows(t, who, `SELECT person_id FROM posthog.cohort_membership WHERE cohort_id = ${id} ORDER BY person_id`)).toEqual(members);
    });

    // PostHog's engine reads ' <uuid> ' as the uuid; Hoglet's (chDB) refuses a padded uuid, as it
    // does for every person id (persons.id too): a difference of the engine's UUID parsing.
    it.skip('a person id padded with spaces', async () => {
      expect(await hogqlRows(t, who, `SELECT person_id FROM cohort_membership WHERE cohort_id = ${id} AND person_id = ' ${String(members[0]![0])} '`)).toEqual([members[0]]);
    });
  });
});

describe('cohort_people in Hoglet', () => {
  let who: Credentials;
  let first: number;
  let second: number;
  let other: Credentials;
  beforeAll(async () => {
    who = await project('hoglet', { a: { plan: 'pro' }, b: { plan: 'free' }, c: { plan: 'pro' } });
    other = await project('other', { x: { plan: 'pro' } });
    first = await cohort(who, { name: 'pro', groups: [{ properties: [{ key: 'plan', value: 'pro', type: 'person' }] }] });
    second = await cohort(who, { name: 'free', groups: [{ properties: [{ key: 'plan', value: 'free', type: 'person' }] }] });
    await cohort(other, { name: 'pro elsewhere', groups: [{ properties: [{ key: 'plan', value: 'pro', type: 'person' }] }] });
  });

  it('holds every dynamic cohort of the project, and none of another project', async () => {
    expect(await hogqlRows(t, who, 'SELECT cohort_id, count() FROM cohort_people GROUP BY cohort_id ORDER BY cohort_id')).toEqual([[first, 2], [second, 1]]);
    expect(await hogqlRows(t, other, `SELECT count() FROM cohort_people WHERE cohort_id IN (${first}, ${second})`)).toEqual([[0]]);
  });

  it('narrowed by constants (=, IN, an ON of a join), it reads those cohorts only, with the same rows', async () => {
    expect(await hogqlRows(t, who, `SELECT person.properties.plan FROM cohort_people WHERE cohort_id IN (${second}) AND 1 = 1`)).toEqual([['free']]);
    expect(await hogqlRows(t, who, `SELECT count() FROM persons p JOIN cohort_people c ON c.person_id = p.id AND c.cohort_id = ${first}`)).toEqual([[2]]);
    // A SELECT alias named cohort_id is not the column: it does not narrow.
    expect(await hogqlRows(t, who, `SELECT ${first} AS cohort_id FROM cohort_people WHERE cohort_id = ${first}`)).toHaveLength(3);
    // An OR does not narrow: every cohort is read.
    expect(await hogqlRows(t, who, `SELECT count() FROM cohort_people WHERE cohort_id = ${first} OR cohort_id = ${second}`)).toEqual([[3]]);
  });

  it('a static cohort is not in it (PostHog keeps those in person_static_cohort)', async () => {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload: { name: 'static', is_static: true } });
    expect(res.statusCode, res.body).toBe(201);
    expect(await hogqlRows(t, who, `SELECT count() FROM cohort_people WHERE cohort_id = ${res.json().id}`)).toEqual([[0]]);
  });

  it('past 20 cohorts a 400 asks for a cohort_id filter; a filtered read still answers', async () => {
    const many = await project('many', { a: { plan: 'pro' } });
    const ids: number[] = [];
    for (let i = 0; i < 21; i++) ids.push(await cohort(many, { name: `c${i}`, groups: [{ properties: [{ key: 'plan', value: 'pro', type: 'person' }] }] }));
    expect(await hogqlRefusal(t, many, 'SELECT count() FROM cohort_people')).toBe(
      'The cohort_people table would calculate 21 cohorts; the budget is 20. Filter it on cohort_id with constants (WHERE cohort_id = 5, or cohort_id IN (5, 6)).',
    );
    expect(await hogqlRows(t, many, `SELECT count() FROM cohort_people WHERE cohort_id = ${ids[20]}`)).toEqual([[1]]);
  });
});
