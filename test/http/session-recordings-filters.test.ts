// The recordings list's filters as PostHog's RecordingsQuery takes them (events and actions performed
// in the session with their own properties, event / person / HogQL / cohort properties, operand,
// filter_test_accounts, having_predicates and the older session_recording_duration, order), over
// recordings posted to /s/ and events posted to /batch/; bad filters are 400s in PostHog's body;
// another organization's sessions (same distinct ids, same properties) never come back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';
import { listRecordings, listedIds, recordSession, rrwebPage, sessionEvents, turnOnRecording } from '../helpers/recordings.js';

const MINUTE = 60_000;
const NOW = Math.floor(Date.now() / 1000) * 1000;
const T0 = NOW - 3 * 60 * MINUTE;

/** Each session: who, how long, and the events it holds (minutes after its start). */
const SESSIONS = {
  'ann-shop': { who: 'ann', seconds: 30, clicks: 3, events: [{ event: '$pageview', at: 0, properties: { $browser: 'Chrome' } }, { event: 'purchase', at: 1, properties: { amount: 10 } }] },
  'bob-browse': { who: 'bob', seconds: 90, clicks: 1, events: [{ event: '$pageview', at: 0, properties: { $browser: 'Firefox' } }] },
  'ann-buy': { who: 'ann', seconds: 60, clicks: 0, events: [{ event: 'purchase', at: 0, properties: { amount: 5 } }] },
  'eve-internal': { who: 'eve', seconds: 30, clicks: 2, events: [{ event: '$pageview', at: 0, properties: { $browser: 'Chrome' } }] },
  'cat-silent': { who: 'cat', seconds: 20, clicks: 0, events: [] },
} as const;
const EMAILS: Record<string, string> = { ann: 'ann@shop.example', bob: 'bob@shop.example', eve: 'eve@internal.example' };

describe.each(META_STORES)('the recordings list filters on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const ids = (params: Record<string, unknown>) => listedIds(t, alice, params).then((list) => list.sort());
  const pageview = { id: '$pageview', type: 'events', name: '$pageview' };
  const purchase = { id: 'purchase', type: 'events', name: 'purchase' };

  async function seed(who: Credentials) {
    let i = 0;
    for (const [sessionId, s] of Object.entries(SESSIONS)) {
      const start = T0 + i++ * 10 * MINUTE;
      await recordSession(t, who, sessionId, s.who, rrwebPage(start, s.seconds, `https://shop.example/${sessionId}`, s.clicks));
      const email = EMAILS[s.who];
      await sessionEvents(t, who, sessionId, s.who, s.events.map((e) => ({ event: e.event, at: start + e.at * MINUTE, properties: { ...e.properties, ...(email ? { $set: { email } } : {}) } })));
    }
  }

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    for (const who of [alice, bob]) await turnOnRecording(t, who);
    await seed(alice);
    // Bob's organization: the same sessions, distinct ids and properties under other session ids.
    for (const [sessionId, s] of Object.entries(SESSIONS)) {
      await recordSession(t, bob, `bob-org-${sessionId}`, s.who, rrwebPage(T0, s.seconds));
      await sessionEvents(t, bob, `bob-org-${sessionId}`, s.who, s.events.map((e) => ({ event: e.event, at: T0 + e.at * MINUTE, properties: { ...e.properties, $set: { email: EMAILS[s.who] ?? 'x' } } })));
    }
  });
  afterAll(() => t.close());

  it('events performed: one event, all of two (AND), any of two (OR), with the entity\'s own properties', async () => {
    expect(await ids({})).toEqual(['ann-buy', 'ann-shop', 'bob-browse', 'cat-silent', 'eve-internal']);
    expect(await ids({ events: [pageview] })).toEqual(['ann-shop', 'bob-browse', 'eve-internal']);
    expect(await ids({ events: [pageview, purchase] })).toEqual(['ann-shop']);
    expect(await ids({ events: [pageview, purchase], operand: 'OR' })).toEqual(['ann-buy', 'ann-shop', 'bob-browse', 'eve-internal']);
    const chrome = { ...pageview, properties: [{ key: '$browser', value: ['Chrome'], operator: 'exact', type: 'event' }] };
    expect(await ids({ events: [chrome] })).toEqual(['ann-shop', 'eve-internal']);
    const bigPurchase = { ...purchase, properties: [{ key: 'amount', value: 7, operator: 'gt', type: 'event' }] };
    expect(await ids({ events: [bigPurchase] })).toEqual(['ann-shop']);
  });

  it('actions performed: an action by its steps', async () => {
    const res = await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/actions/`, payload: { name: 'Bought', steps: [{ event: 'purchase' }] } });
    expect(res.statusCode, res.body).toBe(201);
    const action = { id: res.json().id, type: 'actions', name: 'Bought' };
    expect(await ids({ actions: [action] })).toEqual(['ann-buy', 'ann-shop']);
    expect(await ids({ actions: [action], events: [pageview] })).toEqual(['ann-shop']);
    expect((await listRecordings(t, alice, { actions: [{ id: 999_999, type: 'actions' }] })).json().results).toEqual([]);
  });

  it('event properties: positive on one event, negative on every event of the session, HogQL', async () => {
    expect(await ids({ properties: [{ key: '$browser', value: ['Firefox'], operator: 'exact', type: 'event' }] })).toEqual(['bob-browse']);
    // is_not: no event of the session has Chrome (sessions without events have nothing to match).
    expect(await ids({ properties: [{ key: '$browser', value: ['Chrome'], operator: 'is_not', type: 'event' }] })).toEqual(['ann-buy', 'bob-browse']);
    expect(await ids({ properties: [{ key: '$browser', operator: 'is_not_set', type: 'event' }] })).toEqual(['ann-buy']);
    expect(await ids({ properties: [{ key: "properties.$browser = 'Firefox'", type: 'hogql' }] })).toEqual(['bob-browse']);
  });

  it('person properties and cohorts read the recording\'s person', async () => {
    expect(await ids({ properties: [{ key: 'email', value: 'ann@', operator: 'icontains', type: 'person' }] })).toEqual(['ann-buy', 'ann-shop']);
    expect(await ids({ properties: [{ key: 'email', value: ['bob@shop.example'], operator: 'exact', type: 'person' }] })).toEqual(['bob-browse']);
    const cohort = await t.request(alice.key, {
      method: 'POST', url: `/api/projects/${alice.projectId}/cohorts/`,
      payload: { name: 'Shop people', filters: { properties: { type: 'AND', values: [{ type: 'person', key: 'email', value: 'shop.example', operator: 'icontains' }] } } },
    });
    expect(cohort.statusCode, cohort.body).toBe(201);
    expect(await ids({ properties: [{ key: 'id', value: cohort.json().id, type: 'cohort', operator: 'in' }] })).toEqual(['ann-buy', 'ann-shop', 'bob-browse']);
    const person = (await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/session_recordings/ann-shop/` })).json().person;
    expect(await ids({ person_uuid: person.uuid })).toEqual(['ann-buy', 'ann-shop']);
    expect(await ids({ distinct_ids: ['bob', 'cat'] })).toEqual(['bob-browse', 'cat-silent']);
  });

  it('operand OR joins the events and the person conditions; AND needs both', async () => {
    const firefoxOrAnn = [{ key: '$browser', value: ['Firefox'], operator: 'exact', type: 'event' }, { key: 'email', value: 'ann@', operator: 'icontains', type: 'person' }];
    expect(await ids({ properties: firefoxOrAnn, operand: 'OR' })).toEqual(['ann-buy', 'ann-shop', 'bob-browse']);
    expect(await ids({ properties: firefoxOrAnn })).toEqual([]);
    expect(await ids({ events: [pageview], properties: [firefoxOrAnn[1]] })).toEqual(['ann-shop']);
  });

  it('filter_test_accounts applies the project\'s test-account filters', async () => {
    const res = await t.request(alice.key, { method: 'PATCH', url: `/api/projects/${alice.projectId}/`, payload: { test_account_filters: [{ key: 'email', value: '@internal', operator: 'not_icontains', type: 'person' }] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await ids({ events: [pageview], filter_test_accounts: true })).toEqual(['ann-shop', 'bob-browse']);
    expect(await ids({ events: [pageview], filter_test_accounts: false })).toEqual(['ann-shop', 'bob-browse', 'eve-internal']);
  });

  it('duration, activity and counts: having_predicates, recording properties and the older session_recording_duration', async () => {
    const longer = [{ type: 'recording', key: 'duration', value: 45, operator: 'gt' }];
    expect(await ids({ having_predicates: longer })).toEqual(['ann-buy', 'bob-browse']);
    expect(await ids({ properties: longer })).toEqual(['ann-buy', 'bob-browse']);
    expect(await ids({ session_recording_duration: longer[0], duration_type_filter: 'duration' })).toEqual(['ann-buy', 'bob-browse']);
    expect(await ids({ having_predicates: [{ type: 'recording', key: 'click_count', value: 2, operator: 'gte' }] })).toEqual(['ann-shop', 'eve-internal']);
    expect(await ids({ having_predicates: [...longer, { type: 'recording', key: 'click_count', value: 0, operator: 'gt' }], events: [pageview] })).toEqual(['bob-browse']);
    expect(await listedIds(t, alice, { order: 'duration', order_direction: 'ASC' })).toEqual(['cat-silent', 'ann-shop', 'eve-internal', 'ann-buy', 'bob-browse']);
    expect(await listedIds(t, alice, { order: 'click_count', events: [pageview] })).toEqual(['ann-shop', 'eve-internal', 'bob-browse']);
    // PostHog's activity score: (active s + clicks + keys + errors) / (mouse + duration + console lines); recording_ttl: oldest first left.
    const scores = await listedIds(t, alice, { order: 'activity_score' });
    expect(scores.slice(0, 2).sort()).toEqual(['ann-shop', 'eve-internal']);
    expect(await listedIds(t, alice, { order: 'recording_ttl', order_direction: 'ASC' })).toEqual(['ann-shop', 'bob-browse', 'ann-buy', 'eve-internal', 'cat-silent']);
  });

  it('bad filters are 400s in PostHog\'s body', async () => {
    const bad: Record<string, unknown>[] = [
      { operand: 'XOR' },
      { order: 'nonsense' },
      { properties: { key: 'not a list' } },
      { properties: [{ key: '$browser', value: 'x', operator: 'sounds_like', type: 'event' }] },
      { properties: [{ key: 'x', type: 'nonsense' }] },
      { having_predicates: [{ type: 'recording', key: 'favourite_colour', value: 1, operator: 'gt' }] },
      { having_predicates: [{ type: 'recording', key: 'duration', value: 'long', operator: 'gt' }] },
      { events: [{ id: '$pageview', properties: [{ key: 'a', operator: 'exact' }] }], filter_test_accounts: 'maybe' },
      { properties: [{ key: 'properties.$browser = ', type: 'hogql' }] },
      { console_log_filters: [{ key: 'level', value: ['warn'], operator: 'exact', type: 'log_entry' }] },
    ];
    expect((await listRecordings(t, alice, { console_log_filters: [] })).statusCode).toBe(200);
    for (const params of bad) {
      const res = await listRecordings(t, alice, params);
      expect(res.statusCode, JSON.stringify(params)).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error' });
    }
  });

  it('another organization\'s recordings never appear, whatever the filter', async () => {
    const filters: Record<string, unknown>[] = [
      {},
      { events: [pageview] },
      { events: [pageview, purchase], operand: 'OR' },
      { properties: [{ key: 'email', value: 'shop.example', operator: 'icontains', type: 'person' }] },
      { properties: [{ key: '$browser', value: ['Chrome'], operator: 'is_not', type: 'event' }], operand: 'OR' },
      { properties: [{ key: 'true', type: 'hogql' }] },
      { distinct_ids: ['ann', 'bob'] },
      { session_ids: ['bob-org-ann-shop', 'ann-shop'] },
    ];
    for (const params of filters) {
      const mine = await listedIds(t, alice, params);
      expect(mine.every((id) => !id.startsWith('bob-org-')), JSON.stringify(params)).toBe(true);
      const theirs = await listedIds(t, bob, params);
      expect(theirs.every((id) => id.startsWith('bob-org-')), JSON.stringify(params)).toBe(true);
    }
    expect(await listedIds(t, bob, { events: [pageview] })).toEqual(expect.arrayContaining(['bob-org-ann-shop', 'bob-org-bob-browse']));
  });
});
