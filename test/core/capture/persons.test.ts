// Person attribution through the real ingestion path (group commit -> writer -> chDB), checked by
// reading the stored persons and counting unique persons the way insights do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { capturedEvent as ev, eventCounts, storedEvents, storedPersons } from '../../helpers/ingest.js';

let t: TestApp;
let nextTeam = 0;
let teams: number[] = [];

beforeAll(async () => {
  t = await createTestApp('sqlite');
  const owner = await t.bootstrap('persons@example.com');
  // Projects are cheap: one per test keeps every test's persons apart.
  for (let i = 0; i < 14; i++) {
    const res = await t.request(owner.key, { method: 'POST', url: '/api/projects/', payload: { name: `p${i}` } });
    teams.push(res.json().id);
  }
});
afterAll(() => t.close());

const team = () => teams[nextTeam++]!;
const ingest = (teamId: number, ...events: ReturnType<typeof ev>[]) => t.services.capture.ingest(teamId, events);

describe('persons', () => {
  it('gives each new distinct id a person, and the same person on later events', async () => {
    const id = team();
    await ingest(id, ev('$pageview', 'a'), ev('$pageview', 'b'));
    await ingest(id, ev('$pageview', 'a'));
    const persons = await storedPersons(t.services.events, id);
    expect(persons.map((p) => p.distinct_ids)).toEqual(expect.arrayContaining([['a'], ['b']]));
    expect(persons).toHaveLength(2);
    expect(await eventCounts(t.services.events, id)).toEqual({ events: 3, persons: 2 });
  });

  it('$identify merges the anonymous person into the identified one, events before the merge included', async () => {
    const id = team();
    await ingest(id, ev('$pageview', 'anon-1', { $set: { color: 'red', plan: 'free' } }), ev('$pageview', 'user-1', { $set: { plan: 'pro' } }));
    expect((await eventCounts(t.services.events, id)).persons).toBe(2);
    await ingest(id, ev('$identify', 'user-1', { $anon_distinct_id: 'anon-1', $set: { email: 'u@example.com' } }));
    const persons = await storedPersons(t.services.events, id);
    expect(persons).toHaveLength(1);
    expect(persons[0]!.distinct_ids).toEqual(['anon-1', 'user-1']);
    expect(persons[0]!.is_identified).toBe(true);
    // The survivor's values win conflicts; the other person's other properties are kept.
    expect(persons[0]!.properties).toMatchObject({ color: 'red', plan: 'pro', email: 'u@example.com' });
    expect(await eventCounts(t.services.events, id)).toEqual({ events: 3, persons: 1 });
    // New events of either id go to the same person.
    await ingest(id, ev('$pageview', 'anon-1'));
    expect(await eventCounts(t.services.events, id)).toEqual({ events: 4, persons: 1 });
  });

  it('$identify of an id never seen before joins it to the anonymous person, in one batch too', async () => {
    const id = team();
    await ingest(id, ev('$pageview', 'anon-2'), ev('$identify', 'user-2', { $anon_distinct_id: 'anon-2' }), ev('clicked', 'user-2'));
    const persons = await storedPersons(t.services.events, id);
    expect(persons).toHaveLength(1);
    expect(persons[0]!.distinct_ids).toEqual(['anon-2', 'user-2']);
    expect(await eventCounts(t.services.events, id)).toEqual({ events: 3, persons: 1 });
  });

  it('$create_alias and $merge_dangerously merge; an identified person is only merged dangerously', async () => {
    const id = team();
    await ingest(id, ev('$identify', 'x', { $anon_distinct_id: 'x-anon' }), ev('$identify', 'y', { $anon_distinct_id: 'y-anon' }));
    expect(await storedPersons(t.services.events, id)).toHaveLength(2);
    // y's person is identified, so an alias (or a second identify) must not swallow it.
    await ingest(id, ev('$create_alias', 'x', { alias: 'y' }));
    expect(await storedPersons(t.services.events, id)).toHaveLength(2);
    await ingest(id, ev('$merge_dangerously', 'x', { alias: 'y' }));
    const persons = await storedPersons(t.services.events, id);
    expect(persons).toHaveLength(1);
    expect(persons[0]!.distinct_ids).toEqual(['x', 'x-anon', 'y', 'y-anon']);
    expect((await eventCounts(t.services.events, id)).persons).toBe(1);

    await ingest(id, ev('$pageview', 'z'), ev('$create_alias', 'w', { alias: 'z' }));
    expect((await storedPersons(t.services.events, id)).find((p) => p.distinct_ids.includes('z'))!.distinct_ids).toEqual(['w', 'z']);
  });

  it('never merges on placeholder ids such as "anonymous", "null" or "0"', async () => {
    const id = team();
    await ingest(
      id,
      ev('$identify', 'real-1', { $anon_distinct_id: 'anonymous' }),
      ev('$identify', 'real-2', { $anon_distinct_id: 'null' }),
      ev('$identify', 'real-3', { $anon_distinct_id: '0' }),
      ev('$identify', 'real-4', { $anon_distinct_id: '"undefined"' }),
    );
    const persons = await storedPersons(t.services.events, id);
    expect(persons.map((p) => p.distinct_ids).sort()).toEqual([['real-1'], ['real-2'], ['real-3'], ['real-4']]);
  });

  it('applies $set_once, $set and $unset on any event, in event order', async () => {
    const id = team();
    await ingest(
      id,
      ev('signed_up', 'p', { $set: { plan: 'free', seats: 1 }, $set_once: { first_plan: 'free' } }),
      ev('upgraded', 'p', { $set: { plan: 'pro' }, $set_once: { first_plan: 'pro', source: 'ad' } }),
      ev('$set', 'p', { $unset: ['seats'] }),
    );
    await ingest(id, ev('noop', 'p', { $set: { plan: 'business' } }));
    const [person] = await storedPersons(t.services.events, id);
    expect(person!.properties).toEqual({ plan: 'business', first_plan: 'free', source: 'ad' });
  });

  it('keeps $initial_ campaign and browser properties from the first event that had them', async () => {
    const id = team();
    await ingest(id, ev('$pageview', 'c', { $browser: 'Firefox', utm_source: 'newsletter', $current_url: 'https://x/a' }));
    await ingest(id, ev('$pageview', 'c', { $browser: 'Chrome', utm_source: 'google', $current_url: 'https://x/b' }));
    const [person] = await storedPersons(t.services.events, id);
    expect(person!.properties).toMatchObject({
      $initial_browser: 'Firefox',
      $initial_utm_source: 'newsletter',
      $initial_current_url: 'https://x/a',
      $browser: 'Chrome',
    });
  });

  it('does not create or update persons for events with $process_person_profile: false', async () => {
    const id = team();
    await ingest(id, ev('$pageview', 'ghost', { $process_person_profile: false, $set: { a: 1 } }));
    expect(await storedPersons(t.services.events, id)).toEqual([]);
    expect(await eventCounts(t.services.events, id)).toEqual({ events: 1, persons: 1 });
  });

  it('an $identify links the personless events before it (posthog-js identified_only) to the person', async () => {
    const id = team();
    const personless = { $process_person_profile: false };
    await ingest(id, ev('$pageview', 'anon-9', personless), ev('$autocapture', 'anon-9', personless));
    await ingest(id, ev('$identify', 'user-9', { $anon_distinct_id: 'anon-9' }), ev('purchase', 'user-9'));
    expect(await eventCounts(t.services.events, id)).toEqual({ events: 4, persons: 1 });
    // Neither id has a person yet: the identified one gets one, and both histories count under it.
    await ingest(id, ev('$pageview', 'anon-10', personless), ev('$pageview', 'user-10', personless));
    await ingest(id, ev('$identify', 'user-10', { $anon_distinct_id: 'anon-10' }));
    expect(await eventCounts(t.services.events, id)).toEqual({ events: 7, persons: 2 });
  });

  it('stores an event uuid once per project, within a batch and across batches', async () => {
    const id = team();
    const first = ev('$pageview', 'd');
    await ingest(id, first, { ...first }, ev('$pageview', 'd'));
    await ingest(id, { ...first, event: 'changed' });
    const events = await storedEvents(t.services.events, id);
    expect(events).toHaveLength(2);
    expect(events.find((e) => e.uuid === first.uuid)!.event).toBe('$pageview');
    // Another project may use the same uuid: isolation is per project.
    const other = team();
    await ingest(other, { ...first });
    expect(await storedEvents(t.services.events, other)).toHaveLength(1);
  });

  it('$groupidentify sets group properties and $groups fill the group columns', async () => {
    const id = team();
    await ingest(
      id,
      ev('$groupidentify', 'g', { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme', size: 10 } }),
      ev('$pageview', 'g', { $groups: { company: 'acme', project: 'p1' } }),
    );
    await ingest(id, ev('$groupidentify', 'g', { $group_type: 'company', $group_key: 'acme', $group_set: { size: 12 } }));
    const db = t.services.events.layout.database;
    const groups = await t.services.events.query<{ group_type_index: number; group_key: string; properties: string }>(
      `SELECT group_type_index, group_key, argMax(properties, version) AS properties FROM ${db}.groups
       WHERE team_id = {team:UInt64} GROUP BY group_type_index, group_key`,
      { team: id },
    );
    expect(groups.map((g) => ({ ...g, properties: JSON.parse(g.properties) }))).toEqual([
      { group_type_index: 0, group_key: 'acme', properties: { name: 'Acme', size: 12 } },
    ]);
    const types = await t.services.events.query<{ group_type: string; group_type_index: number }>(
      `SELECT group_type, group_type_index FROM ${db}.group_types WHERE team_id = {team:UInt64} ORDER BY group_type_index`,
      { team: id },
    );
    expect(types).toEqual([
      { group_type: 'company', group_type_index: 0 },
      { group_type: 'project', group_type_index: 1 },
    ]);
    const [pageview] = await t.services.events.query<Record<string, string>>(
      `SELECT $group_0, $group_1 FROM ${db}.events WHERE team_id = {team:UInt64} AND event = '$pageview'`,
      { team: id },
    );
    expect(pageview).toEqual({ $group_0: 'acme', $group_1: 'p1' });
  });

  it('sets the project ingested_event after its first stored event', async () => {
    const id = team();
    const owner = await t.bootstrap('persons@example.com');
    const before = await t.request(owner.key, { method: 'GET', url: `/api/projects/${id}/` });
    expect(before.json().ingested_event).toBe(false);
    await ingest(id, ev('$pageview', 'i'));
    await expect.poll(async () => (await t.request(owner.key, { method: 'GET', url: `/api/projects/${id}/` })).json().ingested_event).toBe(true);
  });
});
