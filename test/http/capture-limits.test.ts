// Capture's bounds that protect everyone else: one memory budget for all bodies being decoded at
// once; and behind the acknowledgement, marks that outdate cached results and person rows that are
// retried until written, with cached results over acknowledged-but-pending days read as outdated.
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { storedEvents, storedPersons } from '../helpers/ingest.js';

function gzipBatch(token: string, tag: string, decodedBytes: number): Buffer {
  const pad = 'x'.repeat(100_000);
  const events = Array.from({ length: Math.ceil(decodedBytes / 100_000) }, (_, i) => ({
    event: tag,
    distinct_id: `${tag}-${i}`,
    properties: { pad },
  }));
  return gzipSync(JSON.stringify({ api_key: token, batch: events }));
}

describe('the memory budget for decoding capture bodies', () => {
  let t: TestApp;
  let who: Credentials;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { HOGLET_CAPTURE_MEMORY_MB: '16' });
    who = await t.bootstrap('budget@example.com');
  });
  afterAll(() => t.close());

  const send = (body: Buffer) =>
    t.app.inject({ method: 'POST', url: '/batch/', payload: body, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });

  it('refuses with a 503 what would overdraw it while others are in flight, stores nothing of those, and frees it after', async () => {
    // Each body is 100 kB on the wire and 5 MB decoded; four at once are more than 16 MB.
    const tags = ['a', 'b', 'c', 'd'];
    const answers = await Promise.all(tags.map((tag) => send(gzipBatch(who.projectApiToken, tag, 5_000_000))));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    for (const answer of answers.filter((a) => a.statusCode === 503)) {
      expect(answer.json()).toMatchObject({ type: 'server_error', code: 'service_unavailable', detail: expect.stringMatching(/being decoded/) });
      expect(answer.headers['retry-after']).toBe('1');
    }
    const stored = await storedEvents(t.services.events, who.projectId);
    const acknowledged = tags.filter((_, i) => statuses[i] === 200);
    expect([...new Set(stored.map((e) => e.event))].sort()).toEqual(acknowledged);
    expect(stored).toHaveLength(acknowledged.length * 50);
    // Everything was given back: the refused ones go through one after another.
    for (const [i, tag] of tags.entries()) {
      if (statuses[i] === 503) expect((await send(gzipBatch(who.projectApiToken, tag, 5_000_000))).statusCode).toBe(200);
    }
    expect(await storedEvents(t.services.events, who.projectId)).toHaveLength(200);
  }, 60_000);
});

describe('marks that outdate cached results', () => {
  let t: TestApp;
  let who: Credentials;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    who = await t.bootstrap('marks@example.com');
  });
  afterAll(() => t.close());

  const capture = (uuid: string) =>
    t.app.inject({
      method: 'POST',
      url: '/e/',
      payload: JSON.stringify({ api_key: who.projectApiToken, event: 'late', distinct_id: 'm', uuid, timestamp: '2024-03-01T10:00:00Z' }),
      headers: { 'content-type': 'application/json' },
    });

  it('are written behind the acknowledgement: while they fail the event waits in the capture log and the day reads as outdated; then both land', async () => {
    const uuid = '01900000-0000-7000-8000-00000000abcd';
    await sql`ALTER TABLE event_write_marks RENAME TO event_write_marks_away`.execute(t.services.meta.db);
    try {
      expect((await capture(uuid)).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Not marked yet, but a cached result over that day is outdated all the same.
      expect(t.services.capturePending(who.projectId, '2024-03-01', '2024-03-01')).toBe(true);
      expect(t.services.capturePending(who.projectId, '2024-03-02', '2024-03-31')).toBe(false);
    } finally {
      await sql`ALTER TABLE event_write_marks_away RENAME TO event_write_marks`.execute(t.services.meta.db);
    }
    // The inserter retries; a read waits for it. A client retry of the same event changes nothing.
    expect((await capture(uuid)).statusCode).toBe(200);
    expect(await storedEvents(t.services.events, who.projectId)).toHaveLength(1);
    expect(await t.services.repositories.queryCache.writtenSince(who.projectId, '2024-03-01', '2024-03-01', '2000-01-01')).toBe(true);
    expect(t.services.capturePending(who.projectId, '2024-03-01', '2024-03-01')).toBe(false);
  });
});

describe('persons written after their events', () => {
  let t: TestApp;
  let who: Credentials;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    who = await t.bootstrap('persons-after@example.com');
  });
  afterAll(() => t.close());

  it('a person write that fails after the events were stored is retried behind the acknowledgement until the person is in line', async () => {
    const db = t.services.events.layout.database;
    const payload = JSON.stringify({
      api_key: who.projectApiToken,
      uuid: '01900000-0000-7000-8000-00000000beef',
      event: 'signed_up',
      distinct_id: 'newcomer',
      properties: { $set: { plan: 'pro' } },
    });
    const capture = () => t.app.inject({ method: 'POST', url: '/e/', payload, headers: { 'content-type': 'application/json' } });
    await t.services.events.command(`RENAME TABLE ${db}.persons TO ${db}.persons_away`);
    try {
      expect((await capture()).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await t.services.events.command(`RENAME TABLE ${db}.persons_away TO ${db}.persons`);
    }
    // The event was inserted at the first attempt and is not inserted twice by the retries.
    const events = await storedEvents(t.services.events, who.projectId);
    expect(events).toHaveLength(1);
    const [person] = await storedPersons(t.services.events, who.projectId);
    expect(person).toMatchObject({ properties: { plan: 'pro' }, distinct_ids: ['newcomer'] });
    expect(events[0]!.person_id).toBe(person!.id);
  });
});
