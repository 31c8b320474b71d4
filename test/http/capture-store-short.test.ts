// A store short of a resource (here: disk, ClickHouse's NOT_ENOUGH_SPACE) is never the fault of
// the events it could not take: while it refuses some inserts and takes others (space comes and
// goes as merges run), every acknowledged event waits in the capture log and is inserted once it
// recovers; none is set aside. The failure is injected at the ClickHouse boundary: the real event
// store's insert throws the engine's own error for the inserts that the full disk refused.
import fs from 'node:fs';
import path from 'node:path';
import { ClickHouseError } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { storedEvents } from '../helpers/ingest.js';

let t: TestApp;
let owner: Credentials;
const problems: string[] = [];

beforeAll(async () => {
  t = await createTestApp('sqlite', {}, { onBackgroundError: (error) => problems.push(withCauses(error)) });
  owner = await t.bootstrap('short@example.com');
});
afterAll(() => t.close());

/** An error's message and those of its causes, as a log line shows them. */
function withCauses(error: unknown): string {
  const messages: string[] = [];
  for (let e = error; e instanceof Error; e = e.cause) messages.push(e.message);
  return messages.join(': ');
}

/**
 * Makes the events table refuse inserts as a filling disk does, `refusals` times, every other
 * insert (so some writes, and some halves of a split, are stored meanwhile), then recover.
 */
function diskFillsUp(refusals: number): { refused: () => number } {
  const store = t.services.events;
  const insert = store.insert.bind(store);
  let calls = 0;
  let refused = 0;
  store.insert = async (table, rows, options) => {
    if (table === 'events' && refused < refusals && calls++ % 2 === 0) {
      refused += 1;
      throw new ClickHouseError({ message: 'Cannot reserve 1.00 MiB, not enough space. ', code: '243', type: 'NOT_ENOUGH_SPACE' });
    }
    return insert(table, rows, options);
  };
  return { refused: () => refused };
}

/** Waits (bounded) until capture has inserted everything it acknowledged. */
async function insertedAll(): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await t.services.captureStatus()).waiting_events > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

function batch(token: string, events: object[]) {
  return t.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: token, batch: events }, headers: { 'content-type': 'application/json' } });
}

describe('the event store running out of disk', () => {
  it('keeps every acknowledged event and stores it once space is back; nothing is set aside', async () => {
    const disk = diskFillsUp(12);
    let acknowledged = 0;
    // Waves of concurrent requests, so several records of the capture log meet the full disk.
    for (let wave = 0; wave < 4; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, r) =>
          batch(owner.projectApiToken, Array.from({ length: 5 }, (_, i) => ({ event: 'load', distinct_id: `u${wave}-${r}-${i}`, properties: { wave, r, i } }))),
        ),
      );
      // Capture may refuse with 503 while the backlog is over its bound; nothing else.
      for (const answer of answers) expect([200, 503], answer.body).toContain(answer.statusCode);
      acknowledged += answers.filter((a) => a.statusCode === 200).length;
    }
    expect(acknowledged).toBeGreaterThan(0);

    // The inserter retries after short pauses until the store takes everything.
    await insertedAll();
    const stored = await storedEvents(t.services.events, owner.projectId);
    expect(fs.readdirSync(path.join(t.dataDir, 'capture-log', 'refused'))).toEqual([]);
    expect(stored).toHaveLength(acknowledged * 5);
    expect(new Set(stored.map((e) => e.distinct_id)).size).toBe(acknowledged * 5);
    expect(disk.refused()).toBeGreaterThan(1);
    expect(problems.some((p) => /retrying/.test(p) && /not enough space/.test(p))).toBe(true);
    expect(problems.filter((p) => /set aside/.test(p))).toEqual([]);
  }, 60_000);
});

describe('writes larger than one statement of the store takes', () => {
  it('a /batch/ of 6,000 events of 6,000 people is stored whole (uuids and persons read in parts)', async () => {
    const events = Array.from({ length: 6_000 }, (_, i) => ({ event: 'big', distinct_id: `person-with-a-longish-distinct-id-${i}`, properties: { i } }));
    const res = await batch(owner.projectApiToken, events);
    expect(res.statusCode, res.body).toBe(200);
    await insertedAll();
    const stored = (await storedEvents(t.services.events, owner.projectId)).filter((e) => e.event === 'big');
    expect(stored).toHaveLength(6_000);
    expect(problems.filter((p) => /Max query size/.test(p))).toEqual([]);
  }, 60_000);
});
