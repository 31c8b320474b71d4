// Joins that resolve persons on more than one side (issue 28, item 1): PostHog's join cases from
// posthog/hogql/test/test_query.py (their data, query text and expected rows), plus the merge-aware
// person of every events table, under any alias, in joins and subqueries. Events captured through
// /batch/, queries through /query/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedHogQLParser, sharedHogQLParser } from '../../../src/query/hogql/parse/index.js';
import { HogQLTranslator } from '../../../src/query/hogql/translate/translate.js';
import { scopeToProject } from '../../../src/query/passes/scope-to-project.js';
import { printQuery } from '../../../src/query/printer/print.js';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows } from '../../helpers/hogql.js';
import { ev, journeys, type JourneyEvent } from '../../helpers/journeys.js';

let t: TestApp;
const TS = '2020-01-10T00:00:00Z';

async function project(name: string, stories: Record<string, JourneyEvent[]>): Promise<Credentials> {
  const who = await t.bootstrap(`joins-${name}@example.com`);
  await journeys(t, who, stories);
  return who;
}


const rows = (who: Credentials, query: string) => hogqlRows(t, who, query);

const sorted = (list: unknown[][]) => [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** PostHog's `_create_random_events`: person bla with two events. */
let random: Credentials;
/** test_query_joins_lazy_on_both_sides / events_first_to_persons: person1 with a pageview and a click. */
let person1: Credentials;
/** test_query_joins_persons_to_events: person1 with one pageview. */
let oneEvent: Credentials;
/** test_join_with_property_*_session_id: two pageviews of some_id in session 111. */
let session: Credentials;
/** Two persons merged by $identify after each had events; a group too. */
let merged: Credentials;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  random = await project('random', {
    bla: [
      ev('random event', TS, { random_prop: "don't include", random_uuid: 'R', index: 0, $set: { sneaky_mail: 'tim@posthog.com', random_uuid: 'R' } }),
      ev('random event', TS, { random_prop: "don't include", random_uuid: 'R', index: 1 }),
    ],
  });
  person1 = await project('person1', {
    person1: [
      ev('pageview', TS, { $browser: 'Chrome', $set: { email: 'test@posthog.com' } }),
      ev('click', TS, { $browser: 'Firefox' }),
    ],
  });
  oneEvent = await project('one-event', { person1: [ev('pageview', '2020-01-09T00:00:00Z', { $set: { email: 'test@posthog.com' } })] });
  session = await project('session', {
    some_id: [
      ev('$pageview', TS, { attr: 'some_val', $session_id: '111', $$$session_id: '111', $set: { $some_prop: 'something' } }),
      ev('$pageview', TS, { attr: 'some_val', $session_id: '111', $$$session_id: '111' }),
    ],
  });
  merged = await project('merged', {
    anon: [ev('a', '2020-01-10T00:00:00Z', { $groups: { company: 'acme' }, $session_id: 's1' })],
    user: [ev('b', '2020-01-10T00:01:00Z', { $set: { email: 'user@example.com' }, $session_id: 's1' })],
  });
  // The group's $groupidentify comes from a distinct id of its own (a person the queries below leave out).
  await journeys(t, merged, {
    acme: [ev('$groupidentify', '2020-01-10T00:00:00Z', { $group_type: 'company', $group_key: 'acme', $group_set: { industry: 'tech' } })],
  });
  await journeys(t, merged, { user: [ev('$identify', '2020-01-10T00:02:00Z', { $anon_distinct_id: 'anon' })] });
});
afterAll(async () => {
  await t.close();
  await closeSharedHogQLParser();
});

describe("PostHog's join cases (test_query.py)", () => {
  it('test_query_joins_lazy_on_both_sides: events to events on person_id', async () => {
    expect(await rows(person1, "SELECT e1.event, e2.event FROM events e1 JOIN events e2 ON e1.person_id = e2.person_id WHERE e1.event = 'pageview' AND e2.event = 'click'"))
      .toEqual([['pageview', 'click']]);
  });

  it('test_query_joins_events_first_to_persons', async () => {
    const found = await rows(person1, "SELECT events.event, persons.properties.email FROM events JOIN persons ON events.person_id = persons.id WHERE events.event = 'pageview'");
    expect(found.length).toBeGreaterThanOrEqual(1);
    expect(found[0]).toEqual(['pageview', 'test@posthog.com']);
  });

  it('test_query_joins_persons_to_events: the events table second, its person_id in its own ON clause', async () => {
    const found = await rows(oneEvent, 'SELECT persons.id, events.event FROM persons JOIN events ON persons.id = events.person_id LIMIT 10');
    expect(found).toHaveLength(1);
    const [personId] = (await rows(oneEvent, 'select id from persons'))[0]!;
    expect(found).toEqual([[personId, 'pageview']]);
  });

  it('test_query_joins_simple and the lazy pdi and person joins of _create_random_events', async () => {
    const [personId] = (await rows(random, 'select id from persons'))[0]!;
    const simple = await rows(random, 'SELECT event, timestamp, pdi.distinct_id, p.id, p.properties.sneaky_mail FROM events e LEFT JOIN person_distinct_ids pdi ON pdi.distinct_id = e.distinct_id LEFT JOIN persons p ON p.id = pdi.person_id');
    expect(simple).toEqual([['random event', TS, 'bla', personId, 'tim@posthog.com'], ['random event', TS, 'bla', personId, 'tim@posthog.com']]);
    expect((await rows(random, 'SELECT event, timestamp, pdi.distinct_id, pdi.person_id FROM events LIMIT 10'))[0]).toEqual(['random event', TS, 'bla', personId]);
    expect((await rows(random, 'SELECT event, e.timestamp, e.pdi.distinct_id, pdi.person_id FROM events e LIMIT 10'))[0]).toEqual(['random event', TS, 'bla', personId]);
    expect((await rows(random, 'SELECT event, timestamp, pdi.distinct_id, pdi.person.id FROM events LIMIT 10'))[0]).toEqual(['random event', TS, 'bla', personId]);
    expect((await rows(random, 'SELECT event, timestamp, pdi.distinct_id, pdi.person.properties.sneaky_mail FROM events LIMIT 10'))[0]).toEqual(['random event', TS, 'bla', 'tim@posthog.com']);
    expect((await rows(random, 'SELECT event, e.timestamp, pdi.distinct_id, e.pdi.person.properties.sneaky_mail FROM events e LIMIT 10'))[0]).toEqual(['random event', TS, 'bla', 'tim@posthog.com']);
    expect((await rows(random, 'SELECT event, e.timestamp, e.pdi.person.properties.sneaky_mail FROM events e LIMIT 10'))[0]).toEqual(['random event', TS, 'tim@posthog.com']);
    expect(await rows(random, 'SELECT s.pdi.person.properties.sneaky_mail, count() FROM events s GROUP BY s.pdi.person.properties.sneaky_mail LIMIT 10')).toEqual([['tim@posthog.com', 2]]);
    expect(await rows(random, 'SELECT poe.properties.sneaky_mail, count() FROM events s GROUP BY poe.properties.sneaky_mail LIMIT 10')).toEqual([['tim@posthog.com', 2]]);
    expect((await rows(random, 'SELECT event, timestamp, person.id, person.properties.sneaky_mail FROM events LIMIT 10'))[0]).toEqual(['random event', TS, personId, 'tim@posthog.com']);
    expect(await rows(random, 'SELECT pdi.distinct_id, pdi.person.created_at FROM person_distinct_ids pdi LIMIT 10')).toEqual([['bla', TS]]);
    expect(await rows(random, 'SELECT pdi.distinct_id, pdi.person.properties.sneaky_mail FROM person_distinct_ids pdi LIMIT 10')).toEqual([['bla', 'tim@posthog.com']]);
  });

  // PostHog joins session_replay_events (a table Hoglet does not have) on the event's session
  // property; the same join to Hoglet's sessions table, on a materialized and an ordinary property.
  it('test_join_with_property_materialized_session_id / _not_materialized, over sessions', async () => {
    const expected = [['$pageview', '111'], ['$pageview', '111']];
    expect(await rows(session, 'select e.event, s.session_id from events e left join sessions s on s.session_id = e.properties.$session_id where e.properties.$session_id is not null limit 10')).toEqual(expected);
    expect(await rows(session, 'select e.event, s.session_id from events e left join sessions s on s.session_id = e.properties.$$$session_id where e.properties.$$$session_id is not null limit 10')).toEqual(expected);
    // PostHog refuses the reversed ON with ClickHouse's old analyzer (its PR #45000); Hoglet's engine answers the same rows.
    expect(await rows(session, 'select e.event, s.session_id from sessions s left join events e on e.properties.$session_id = s.session_id where e.properties.$session_id is not null limit 10')).toEqual(expected);
  });
});

describe('every events table resolves the merged person as the first does', () => {
  it('after a merge, person_id joins events of either distinct id, in ON, SELECT and WHERE', async () => {
    expect(await rows(merged, "select count(distinct person_id) from events where event != '$groupidentify'")).toEqual([[1]]);
    expect(await rows(merged, "select e1.event, e2.event from events e1 join events e2 on e1.person_id = e2.person_id where e1.event = 'a' and e2.event = 'b'")).toEqual([['a', 'b']]);
    expect(await rows(merged, "select e1.event, e2.event, e2.person_id = e1.person_id from events e1 join events e2 on e1.person_id = e2.person_id where e1.event = 'b' and e2.event = 'a'")).toEqual([['b', 'a', 1]]);
    // The events table's own person and pdi, in its ON clause.
    expect(await rows(merged, "select e1.event, e2.event from events e1 join events e2 on e1.person.properties.email = e2.person.properties.email where e1.event = 'a' and e2.event = 'b'")).toEqual([['a', 'b']]);
    expect(await rows(merged, "select e2.distinct_id, e2.pdi.person.properties.email from events e1 join events e2 on e1.pdi.person_id = e2.pdi.person_id where e1.event = 'b' and e2.event = 'a'")).toEqual([['anon', 'user@example.com']]);
    expect(await rows(merged, "select e2.group_0.properties.industry from events e1 join events e2 on e1.person.id = e2.person.id where e1.event = 'b' and e2.event = 'a'")).toEqual([['tech']]);
    expect(await rows(merged, "select e2.event, e2.session.$session_duration from events e1 join events e2 on e1.person_id = e2.person_id where e1.event = 'b' and e2.event = 'a'")).toEqual([['a', 60]]);
  });

  it('in a subquery, beside a subquery, and with persons first', async () => {
    expect(await rows(merged, "select count() from (select person_id from events where event = 'a') s join events e2 on s.person_id = e2.person_id")).toEqual([[3]]);
    expect(await rows(merged, "select count() from (select e1.event from events e1 join events e2 on e1.person_id = e2.person_id where e2.event = 'b')")).toEqual([[3]]);
    const [personId] = (await rows(merged, "select id from persons where properties.email = 'user@example.com'"))[0]!;
    expect(sorted(await rows(merged, "select p.id, e.event, e.person.properties.email from persons p join events e on p.id = e.person_id where e.event != '$groupidentify'"))).toEqual(sorted([
      [personId, '$identify', 'user@example.com'], [personId, 'a', 'user@example.com'], [personId, 'b', 'user@example.com'],
    ]));
    expect(await rows(merged, "select count() from persons p left join events e on e.person_id = p.id where e.event = 'a'")).toEqual([[1]]);
  });

  it('keeps the answers of joins whose events table reads nothing lazy in its ON clause', async () => {
    const [personId] = (await rows(merged, "select id from persons where properties.email = 'user@example.com'"))[0]!;
    expect(sorted(await rows(merged, "select e.event, p.properties.email from events e join persons p on p.id = e.person_id where e.event != '$groupidentify'"))).toEqual(sorted([
      ['$identify', 'user@example.com'], ['a', 'user@example.com'], ['b', 'user@example.com'],
    ]));
    expect(sorted(await rows(merged, "select e1.event, e2.person.properties.email, e2.person_id from events e1 join events e2 on e2.uuid = e1.uuid where e1.event != '$groupidentify'"))).toEqual(sorted([
      ['$identify', 'user@example.com', personId], ['a', 'user@example.com', personId], ['b', 'user@example.com', personId],
    ]));
  });
});

async function sql(text: string): Promise<string> {
  const root = await sharedHogQLParser().parse('select', text, 1);
  const { query } = new HogQLTranslator({ timezone: 'UTC', values: {} }).statement(root);
  return printQuery(scopeToProject(query, 1), 'db').sql;
}

describe('where the lazy joins go', () => {
  it('the first events table keeps them after it; a joined one carries them inside, every table guarded', async () => {
    const text = await sql("select e1.event, e2.event from events e1 join events e2 on e1.person_id = e2.person_id where e1.event = 'a'");
    expect(text).toMatch(/^SELECT `e1`\.`event`, `e2`\.`event` AS `event` FROM \(SELECT \* FROM \(SELECT \* FROM `db`\.`events` WHERE team_id = \{p0:UInt64\}\) AS `e1` WHERE [^)]+\)\) AS `e1` LEFT JOIN \(SELECT `distinct_id` AS `override_distinct_id`/);
    expect(text).toContain('INNER JOIN (SELECT `e2`.`uuid` AS `uuid`');
    expect(text).toContain('FROM (SELECT * FROM `db`.`events` WHERE team_id = {p0:UInt64}) AS `e2` LEFT JOIN (SELECT `distinct_id` AS `override_distinct_id`');
    expect(text).toContain(') AS `e2` ON equals(');
    expect(text.match(/FROM `db`\.`person_distinct_id_overrides` WHERE team_id = \{p0:UInt64\}/g)).toHaveLength(2);
    // A joined events table that reads nothing lazy stays the table.
    expect(await sql('select count() from events e1 join events e2 on e1.uuid = e2.uuid')).toContain('INNER JOIN (SELECT * FROM `db`.`events` WHERE team_id = {p0:UInt64}) AS `e2` ON equals(`e1`.`uuid`, `e2`.`uuid`)');
  });
});
