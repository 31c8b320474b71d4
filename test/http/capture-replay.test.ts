// A 200 means the events are in the capture log, whatever the event store is doing: events
// acknowledged while the store could not take them are still there after a restart, and are
// inserted (once) when the store takes them again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createServices } from '../../src/services.js';
import { withTestEventStore } from '../helpers/event-store.js';
import { capturedEvent, storedEvents, storedPersons } from '../helpers/ingest.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-replay-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('capture log replay', () => {
  it('inserts at the next start what was acknowledged but not inserted, exactly once', async () => {
    const config = withTestEventStore(loadConfig({ dataDir }, {}));
    const db = config.events.database;
    const first = await createServices(config);
    const { project_id: projectId } = await first.accounts.bootstrap({ email: 'r@example.com', organizationName: 'R', projectName: 'R', scopes: ['*'] });
    const inserted = capturedEvent('before', 'ann', { $set: { plan: 'free' } });
    await first.capture.ingest(projectId, [inserted]);
    expect(await storedEvents(first.events, projectId)).toHaveLength(1);

    // The store stops taking events; capture still acknowledges them.
    await first.events.command(`RENAME TABLE ${db}.event_uuids TO ${db}.event_uuids_away`);
    // A client re-sends the one already stored, then sends new ones.
    await first.capture.ingest(projectId, [inserted]);
    const held = [capturedEvent('held', 'ann', { $set: { plan: 'pro' } }), capturedEvent('held', 'bob')];
    await first.capture.ingest(projectId, held);
    await first.close();

    const second = await createServices(config);
    try {
      expect(second.captureReplayed).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await second.events.command(`RENAME TABLE ${db}.event_uuids_away TO ${db}.event_uuids`);
      const events = await storedEvents(second.events, projectId);
      expect(events.map((e) => [e.event, e.distinct_id]).sort()).toEqual([['before', 'ann'], ['held', 'ann'], ['held', 'bob']]);
      expect(new Set(events.map((e) => e.uuid))).toEqual(new Set([inserted.uuid, ...held.map((e) => e.uuid)]));
      // Person updates applied in the order they were acknowledged: the later $set wins.
      const persons = await storedPersons(second.events, projectId);
      expect(persons.find((p) => p.distinct_ids.includes('ann'))?.properties).toMatchObject({ plan: 'pro' });
    } finally {
      await second.events.command(`DROP DATABASE IF EXISTS ${db}`);
      await second.close();
    }
    // Everything inserted: a third start has nothing to replay.
    const third = await createServices(config);
    expect(third.captureReplayed).toBe(0);
    await third.close();
  }, 60_000);
});
