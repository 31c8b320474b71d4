// The sessions table is written by a materialized view after the events part and the uuid index,
// so a write can fail (or the process die) with the events stored and their sessions not. Every
// way back counts each event once: the inserter's retry (the events now repeats), the capture
// log's replay at the next start, and the crash repair when the previous owner died.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createServices } from '../../src/services.js';
import type { EventStore } from '../../src/storage/events/event-store.js';
import { withTestEventStore } from '../helpers/event-store.js';
import { capturedEvent } from '../helpers/ingest.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-sessions-'));
  dirs.push(dir);
  return dir;
};

/** Per session: page views (distinct uuids) and first and last event time, merged from the stored states. */
async function sessions(store: EventStore, teamId: number): Promise<[string, number, string, string][]> {
  const rows = await store.query<{ id: string; views: string; start: string; end: string }>(
    `SELECT session_id AS id, uniqExactMerge(pageview_uuids) AS views, toString(min(min_timestamp)) AS start, toString(max(max_timestamp)) AS end
     FROM ${store.layout.database}.sessions WHERE team_id = {team:UInt64} GROUP BY session_id ORDER BY id`,
    { team: teamId },
  );
  return rows.map((r) => [r.id, Number(r.views), r.start, r.end]);
}

/** Makes every sessions write fail after the events part and the uuid index are written. */
const refuseSessions = (store: EventStore) => store.command(`ALTER TABLE ${store.layout.database}.sessions ADD CONSTRAINT refuse_for_test CHECK team_id = 0`);
const acceptSessions = (store: EventStore) => store.command(`ALTER TABLE ${store.layout.database}.sessions DROP CONSTRAINT refuse_for_test`);

async function eventually<T>(read: () => Promise<T>, expected: T, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (JSON.stringify(value) === JSON.stringify(expected) || Date.now() > until) return expect(value).toEqual(expected);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const views = (n: number) => Array.from({ length: n }, () => capturedEvent('$pageview', 'ann', { $session_id: 's1' }));
const micros = (event: { timestampUs: number }) => new Date(event.timestampUs / 1000).toISOString().replace('T', ' ').replace('Z', '000');

describe('sessions after a failed write', () => {
  it("the inserter's retry adds the events its failed write stored but left out of their session", async () => {
    const config = withTestEventStore(loadConfig({ dataDir: dataDir() }, {}));
    const services = await createServices(config);
    try {
      const { project_id: team } = await services.accounts.bootstrap({ email: 'a@example.com', organizationName: 'A', projectName: 'A', scopes: ['*'] });
      const first = views(2);
      await services.capture.ingest(team, first);
      await eventually(() => sessions(services.events, team), [['s1', 2, micros(first[0]!), micros(first[1]!)]]);
      await refuseSessions(services.events);
      const held = views(3);
      await services.capture.ingest(team, held);
      // The events are stored (and indexed) while their session is not.
      await eventually(async () => Number((await services.events.query<{ c: string }>(`SELECT count() AS c FROM ${config.events.database}.events`, {}, { lane: 'ingest' }))[0]!.c), 5);
      expect(await sessions(services.events, team)).toEqual([['s1', 2, micros(first[0]!), micros(first[1]!)]]);
      await acceptSessions(services.events);
      await eventually(() => sessions(services.events, team), [['s1', 5, micros(first[0]!), micros(held[2]!)]]);
    } finally {
      await services.events.command(`DROP DATABASE IF EXISTS ${config.events.database}`);
      await services.close();
    }
  }, 60_000);

  it('the capture log replayed at the next start counts what was acknowledged once', async () => {
    const config = withTestEventStore(loadConfig({ dataDir: dataDir() }, {}));
    const first = await createServices(config);
    const { project_id: team } = await first.accounts.bootstrap({ email: 'r@example.com', organizationName: 'R', projectName: 'R', scopes: ['*'] });
    const before = views(1);
    await first.capture.ingest(team, before);
    await eventually(() => sessions(first.events, team), [['s1', 1, micros(before[0]!), micros(before[0]!)]]);
    await refuseSessions(first.events);
    const held = views(2);
    await first.capture.ingest(team, [...before, ...held]);
    // Stored (and indexed) but not in their session when the process stops.
    await eventually(async () => Number((await first.events.query<{ c: string }>(`SELECT count() AS c FROM ${config.events.database}.events`, {}, { lane: 'ingest' }))[0]!.c), 3);
    await first.close();

    const second = await createServices(config);
    try {
      expect(second.captureReplayed).toBeGreaterThanOrEqual(3);
      await acceptSessions(second.events);
      await eventually(() => sessions(second.events, team), [['s1', 3, micros(before[0]!), micros(held[1]!)]]);
    } finally {
      await second.events.command(`DROP DATABASE IF EXISTS ${config.events.database}`);
      await second.close();
    }
  }, 60_000);

  it('after a crash (the owner died holding the store), the newest events are added to their sessions again', async () => {
    const config = withTestEventStore(loadConfig({ dataDir: dataDir() }, {}));
    const first = await createServices(config);
    const { project_id: team } = await first.accounts.bootstrap({ email: 'c@example.com', organizationName: 'C', projectName: 'C', scopes: ['*'] });
    const events = views(4);
    await first.capture.ingest(team, events);
    await eventually(() => sessions(first.events, team), [['s1', 4, micros(events[0]!), micros(events[3]!)]]);
    // The state a kill between the events part and the sessions part leaves.
    await first.events.command(`TRUNCATE TABLE ${config.events.database}.sessions`);
    await first.close();
    fs.writeFileSync(path.join(config.events.chdbPath, 'owner.pid'), '999999999');

    const second = await createServices(config);
    try {
      expect(await sessions(second.events, team)).toEqual([['s1', 4, micros(events[0]!), micros(events[3]!)]]);
    } finally {
      await second.events.command(`DROP DATABASE IF EXISTS ${config.events.database}`);
      await second.close();
    }
  }, 60_000);
});
