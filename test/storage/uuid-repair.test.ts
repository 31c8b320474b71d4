// After a crash between an events part and its uuid-index part, the next owner re-indexes the
// newest events, so a client's retry of the unanswered request is still recognised as a repeat.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openEventStore } from '../../src/storage/events/connect.js';
import { EventsRepository } from '../../src/storage/events/events-repository.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-uuid-repair-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const UUID = '0190f5a8-1111-7000-8000-000000000001';

async function indexed(): Promise<boolean> {
  const store = await openEventStore(loadConfig({ dataDir }, {}).events);
  try {
    return (await new EventsRepository(store).existingUuids(7, [UUID])).has(UUID);
  } finally {
    await store.close();
  }
}

describe('the uuid index after a crash', () => {
  it('is rebuilt for the newest events when the previous owner died holding the store', async () => {
    const config = loadConfig({ dataDir }, {}).events;
    const store = await openEventStore(config);
    const db = store.layout.database;
    await store.command(`INSERT INTO ${db}.events (uuid, team_id, event, distinct_id, person_id, properties, timestamp, created_at, elements_chain)
      VALUES ('${UUID}', 7, 'purchase', 'alice', '${UUID}', '{}', now64(6), now64(6), '')`);
    // The state a kill between the two parts leaves: the event stored, its uuid not indexed.
    await store.command(`TRUNCATE TABLE ${db}.event_uuids`);
    await store.close();
    expect(await indexed()).toBe(false);
    // A clean close released the store: nothing to repair. A dead owner's pid file means a crash.
    fs.writeFileSync(path.join(config.chdbPath, 'owner.pid'), '999999999');
    expect(await indexed()).toBe(true);
  }, 60_000);
});
