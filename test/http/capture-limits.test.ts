// Capture's bounds that protect everyone else: one memory budget for all bodies being decoded at
// once, and no acknowledgement while the marks that outdate cached results could not be written.
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

  it('are part of the write: when they fail the request is not acknowledged, and its retry marks the day', async () => {
    const uuid = '01900000-0000-7000-8000-00000000abcd';
    await sql`ALTER TABLE event_write_marks RENAME TO event_write_marks_away`.execute(t.services.meta.db);
    let failed;
    try {
      failed = await capture(uuid);
    } finally {
      await sql`ALTER TABLE event_write_marks_away RENAME TO event_write_marks`.execute(t.services.meta.db);
    }
    expect(failed.statusCode).toBe(503);
    expect(await t.services.repositories.queryCache.writtenSince(who.projectId, '2024-03-01', '2024-03-01', '2000-01-01')).toBe(false);
    // The SDK retries the same event: stored once, and now the day is marked.
    expect((await capture(uuid)).statusCode).toBe(200);
    expect(await storedEvents(t.services.events, who.projectId)).toHaveLength(1);
    expect(await t.services.repositories.queryCache.writtenSince(who.projectId, '2024-03-01', '2024-03-01', '2000-01-01')).toBe(true);
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

  it('a person write that fails after the events were stored is not acknowledged, and the retry brings the person in line', async () => {
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
    let failed;
    try {
      failed = await capture();
    } finally {
      await t.services.events.command(`RENAME TABLE ${db}.persons_away TO ${db}.persons`);
    }
    expect(failed.statusCode).toBe(503);
    expect(await storedPersons(t.services.events, who.projectId)).toEqual([]);
    // The SDK retries: the event is not stored twice, and its person is written now.
    expect((await capture()).statusCode).toBe(200);
    const events = await storedEvents(t.services.events, who.projectId);
    expect(events).toHaveLength(1);
    const [person] = await storedPersons(t.services.events, who.projectId);
    expect(person).toMatchObject({ properties: { plan: 'pro' }, distinct_ids: ['newcomer'] });
    expect(events[0]!.person_id).toBe(person!.id);
  });
});
