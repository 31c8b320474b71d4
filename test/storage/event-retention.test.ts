// Per-project event retention (issue 32, item 4): the project setting (PATCH, PostHog's 400s), the
// background job's removal of a project's older events (a lightweight DELETE while another project
// keeps the month, a partition drop once none does) and what reads see at once afterwards:
// trends, HogQL, sessions, the uuid index, cached results; the other project untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventRetentionJob, retentionCutoff } from '../../src/core/retention/event-retention.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { hogqlRows } from '../helpers/hogql.js';
import { ev, journeys, postBatch, runQuery, trendsQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

// The job's clock: mid-April 2024. Two months kept -> February and March (and April, the current month).
const NOW = new Date('2024-04-15T12:00:00Z');
const OLD_UUID = '0188f4a4-0000-7000-8000-000000000001';

const monthly = trendsQuery([{ kind: 'EventsNode', event: null, math: 'total' }], '2024-01-01', '2024-04-30', { interval: 'month' });

describe('retentionCutoff', () => {
  it('keeps the current UTC month and the N before it', () => {
    expect(retentionCutoff(2, NOW).toISOString()).toBe('2024-02-01T00:00:00.000Z');
    expect(retentionCutoff(12, new Date('2026-11-29T23:59:59Z')).toISOString()).toBe('2025-11-01T00:00:00.000Z');
    expect(retentionCutoff(1, new Date('2024-01-01T00:00:00Z')).toISOString()).toBe('2023-12-01T00:00:00.000Z');
  });
});

describe('the job outside the events\' writer', () => {
  it('does nothing in a process that does not hold the capture writer lease', async () => {
    const calls: string[] = [];
    const store = new Proxy({}, { get: (_target, name) => async () => { calls.push(String(name)); return []; } });
    const runs = { projectSettings: async () => { calls.push('projectSettings'); return [{ id: 1, settings: '{"event_retention_months":1}' }]; }, record: async () => {} };
    const job = new EventRetentionJob({ store: store as never, runs: runs as never, markChanged: async () => {}, mayRun: () => false, onError: (e) => { throw e; } });
    job.start(10, 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await job.stop();
    expect(calls).toEqual([]);
  });
});

describe.each(META_STORES)('event retention on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;

  const patch = (who: Credentials, projectId: number, payload: Record<string, unknown>) =>
    t.request(who.key, { method: 'PATCH', url: `/api/projects/${projectId}/`, payload });
  const count = async (who: Credentials, sql: string) => Number((await hogqlRows(t, who, sql))[0]![0]);
  const months = async (who: Credentials) => (await runQuery(t, who, monthly)).results[0].data as number[];
  const uuidIndexRows = async (teamId: number) => {
    const rows = await t.services.events.query<{ n: string }>(
      `SELECT count() AS n FROM ${t.services.events.layout.database}.event_uuids WHERE team_id = {team:UInt64}`,
      { team: teamId },
    );
    return Number(rows[0]!.n);
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com');
    bob = await t.bootstrap('bob@example.com');
    await journeys(t, alice, {
      a1: [
        ev('$pageview', '2024-01-05T10:00:00Z', { $session_id: 'january-only' }),
        ev('$pageview', '2024-01-20T10:00:00Z'),
        ev('$pageview', '2024-01-31T23:50:00Z', { $session_id: 'across-months' }),
        ev('$pageview', '2024-02-01T00:05:00Z', { $session_id: 'across-months' }),
        ev('$pageview', '2024-02-10T10:00:00Z'),
      ],
      a2: [ev('$pageview', '2024-03-01T00:00:00Z'), ev('$pageview', '2024-03-02T00:00:00Z'), ev('$pageview', '2024-03-03T00:00:00Z'), ev('$pageview', '2024-04-01T00:00:00Z')],
    });
    const sent = await postBatch(t, { api_key: alice.projectApiToken, batch: [{ event: 'old', distinct_id: 'a3', uuid: OLD_UUID, timestamp: '2023-12-24T00:00:00Z' }] });
    expect(sent.statusCode).toBe(200);
    await journeys(t, bob, { b1: [ev('$pageview', '2024-01-02T00:00:00Z'), ev('$pageview', '2024-01-03T00:00:00Z'), ev('$pageview', '2024-03-04T00:00:00Z')] });
  });
  afterAll(() => t.close());

  it('is off by default, and PATCH sets and clears it', async () => {
    const shown = await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/` });
    expect(shown.json().event_retention_months).toBeNull();
    expect((await patch(alice, alice.projectId, { event_retention_months: 7 })).json().event_retention_months).toBe(7);
    expect((await patch(alice, alice.projectId, { event_retention_months: null })).json().event_retention_months).toBeNull();
    const activity = await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/activity/` });
    const changes = activity.json().results.flatMap((entry: any) => entry.detail.changes ?? []);
    expect(changes).toContainEqual(expect.objectContaining({ field: 'event_retention_months', before: null, after: 7 }));
  });

  it('refuses values that are not a whole number of months from 1 to 1200, with PostHog\'s body', async () => {
    const cases: Array<[unknown, object]> = [
      [0, { code: 'min_value', detail: 'Ensure this value is greater than or equal to 1.' }],
      [-3, { code: 'min_value', detail: 'Ensure this value is greater than or equal to 1.' }],
      [1201, { code: 'max_value', detail: 'Ensure this value is less than or equal to 1200.' }],
      [1.5, { code: 'invalid_input', detail: 'A valid integer is required.' }],
      ['twelve', { code: 'invalid_input', detail: 'A valid integer is required.' }],
      [[12], { code: 'invalid_input', detail: 'A valid integer is required.' }],
    ];
    for (const [value, expected] of cases) {
      const res = await patch(alice, alice.projectId, { event_retention_months: value });
      expect(res.statusCode, JSON.stringify(value)).toBe(400);
      expect(res.json()).toEqual({ type: 'validation_error', attr: 'event_retention_months', ...expected });
    }
    expect((await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/` })).json().event_retention_months).toBeNull();
  });

  it('another organization can neither read nor change it', async () => {
    expect((await patch(bob, alice.projectId, { event_retention_months: 1 })).statusCode).toBe(404);
    expect((await t.request(bob.key, { method: 'GET', url: `/api/projects/${alice.projectId}/event_retention/` })).statusCode).toBe(404);
    expect((await t.request(bob.key, { method: 'GET', url: `/api/environments/${alice.projectId}/event_retention/` })).statusCode).toBe(404);
    const readOnly = await t.key('alice@example.com', ['project:read']);
    const refused = await t.request(readOnly, { method: 'PATCH', url: `/api/projects/${alice.projectId}/`, payload: { event_retention_months: 1 } });
    expect(refused.statusCode).toBe(403);
    expect((await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/` })).json().event_retention_months).toBeNull();
  });

  it('removes only that project\'s older events; reads and cached results exclude them at once', async () => {
    // Cached before the job: the next read must not serve it.
    expect(await months(alice)).toEqual([3, 2, 3, 1]);
    expect((await runQuery(t, alice, monthly)).is_cached).toBe(true);
    expect(await count(alice, 'select count() from sessions')).toBe(2);
    expect(await uuidIndexRows(alice.projectId)).toBe(10);
    const bobBefore = await months(bob);

    expect((await patch(alice, alice.projectId, { event_retention_months: 2 })).statusCode).toBe(200);
    const report = await t.services.eventRetention.runOnce(NOW);
    // December 2023 holds only Alice's events: dropped whole. January also holds Bob's: a DELETE.
    expect(report.droppedMonths).toEqual(['202312']);
    expect(report.removed.get(alice.projectId)).toBe(4);
    expect(report.removed.has(bob.projectId)).toBe(false);

    expect(await months(alice)).toEqual([0, 2, 3, 1]);
    expect(await count(alice, 'select count() from events')).toBe(6);
    expect(await count(alice, "select count() from events where timestamp < toDateTime('2024-02-01 00:00:00')")).toBe(0);
    // The session that ended in January is gone; the one that crosses into February stays.
    expect(await hogqlRows(t, alice, 'select session_id from sessions')).toEqual([['across-months']]);
    expect(await uuidIndexRows(alice.projectId)).toBe(6);

    expect(await months(bob)).toEqual(bobBefore);
    expect(bobBefore).toEqual([2, 0, 1, 0]);
    expect(await count(bob, 'select count() from events')).toBe(3);
    expect(await uuidIndexRows(bob.projectId)).toBe(3);

    const status = await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/event_retention/` });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({
      event_retention_months: 2,
      last_run: { cutoff: '2024-02-01T00:00:00.000Z', events_removed: 4 },
    });
  });

  it('an old event sent again after its removal is stored again (its uuid row went too), and the next run removes it', async () => {
    const sent = await postBatch(t, { api_key: alice.projectApiToken, batch: [{ event: 'old', distinct_id: 'a3', uuid: OLD_UUID, timestamp: '2023-12-24T00:00:00Z' }] });
    expect(sent.statusCode).toBe(200);
    expect(await count(alice, "select count() from events where event = 'old'")).toBe(1);
    const report = await t.services.eventRetention.runOnce(NOW);
    expect(report.removed.get(alice.projectId)).toBe(1);
    expect(await count(alice, "select count() from events where event = 'old'")).toBe(0);
    // Nothing left to remove: the count shown stays that of the last run that removed any.
    const again = await t.services.eventRetention.runOnce(NOW);
    expect(again.removed.size).toBe(0);
    const status = (await t.request(alice.key, { method: 'GET', url: `/api/environments/${alice.projectId}/event_retention/` })).json();
    expect(status.last_run.events_removed).toBe(1);
  });

  it('drops a month whole once no project keeps it', async () => {
    expect((await patch(bob, bob.projectId, { event_retention_months: 2 })).statusCode).toBe(200);
    const report = await t.services.eventRetention.runOnce(NOW);
    expect(report.droppedMonths).toEqual(['202401']);
    expect(report.removed.get(bob.projectId)).toBe(2);
    expect(await months(bob)).toEqual([0, 0, 1, 0]);
    expect(await uuidIndexRows(bob.projectId)).toBe(1);
    expect(await months(alice)).toEqual([0, 2, 3, 1]);
  });

  it('runs by itself soon after start (serve() starts it), and again after its interval', async () => {
    // Last: with today's clock, the two months kept leave none of these 2024 events.
    const ranBefore = (await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/event_retention/` })).json().last_run.ran_at;
    t.services.eventRetention.start(200, 0);
    const ranAt = async () => (await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/event_retention/` })).json().last_run.ran_at;
    await expect.poll(ranAt, { timeout: 20_000 }).not.toBe(ranBefore);
    const first = await ranAt();
    await expect.poll(ranAt, { timeout: 20_000 }).not.toBe(first);
    await t.services.eventRetention.stop();
    expect(await count(alice, 'select count() from events')).toBe(0);
    expect(await count(bob, 'select count() from events')).toBe(0);
  });
});
