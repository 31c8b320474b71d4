// Demo data is a function of the seed and the UTC day: runs at different times of one day store
// the same events, and the second adds nothing, by both ways in (the CLI's sender and the
// background runner of `is_demo` projects). A small demo (few people) keeps this fast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoDataRunner } from '../../../src/core/demo/runner.js';
import { sendDemoData, type DemoProgress } from '../../../src/core/demo/send.js';
import { EventsRepository } from '../../../src/storage/events/events-repository.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';

const PERSONS = 150;
const MORNING = new Date('2025-06-01T09:00:00.000Z');
const LATER = new Date('2025-06-01T09:21:00.000Z');
const EVENING = new Date('2025-06-01T23:59:59.000Z');

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp('sqlite');
});
afterAll(() => t.close());

async function storedEvents(projectId: number): Promise<{ uuids: string[]; last: string }> {
  const rows = await t.services.events.query<{ id: string; at: string }>(
    `SELECT toString(uuid) AS id, toString(timestamp) AS at FROM ${t.services.events.layout.database}.events
     WHERE team_id = {team:UInt64} ORDER BY id`,
    { team: projectId },
  );
  return { uuids: rows.map((r) => r.id), last: rows.map((r) => r.at).sort().at(-1) ?? '' };
}

async function newProject(email: string): Promise<number> {
  return (await t.bootstrap(email)).projectId;
}

describe('sendDemoData', () => {
  it('stores the same events at any time of a UTC day, and nothing new the second time', async () => {
    const projectId = await newProject('demo-send@example.com');
    const repository = new EventsRepository(t.services.events);
    const target = { send: (_raw: unknown, events: Parameters<typeof t.services.capture.ingest>[1]) => t.services.capture.ingest(projectId, events) };
    const run = (now: Date, onProgress?: (p: DemoProgress) => void) =>
      sendDemoData(target, { now, persons: PERSONS, existingUuids: (uuids) => repository.existingUuids(projectId, uuids), ...(onProgress ? { onProgress } : {}) });

    const progress: DemoProgress[] = [];
    const first = await run(MORNING, (p) => progress.push(p));
    expect(first.sent).toBeGreaterThan(PERSONS);
    expect(first.alreadyStored).toBe(0);
    const afterFirst = await storedEvents(projectId);
    expect(afterFirst.uuids).toHaveLength(first.sent);
    // The period ends at 00:00 UTC of the run's day, whatever its hour.
    expect(afterFirst.last < '2025-06-01').toBe(true);
    expect(progress.at(-1)).toEqual({ fraction: 1, sent: first.sent });
    expect(progress.every((p, i) => i === 0 || (p.fraction >= progress[i - 1]!.fraction && p.sent >= progress[i - 1]!.sent))).toBe(true);

    for (const now of [LATER, EVENING]) {
      const again = await run(now);
      expect(again).toEqual({ sent: first.sent, alreadyStored: first.sent });
      expect(await storedEvents(projectId)).toEqual(afterFirst);
    }
  });
});

describe('DemoDataRunner (is_demo projects)', () => {
  it('fills a project with the day’s data and adds nothing when run again that day', async () => {
    const errors: unknown[] = [];
    const runner = new DemoDataRunner(t.services.capture, (error) => errors.push(error), { persons: PERSONS });
    const projectId = await newProject('demo-runner@example.com');
    await runner.start(projectId, MORNING);
    const first = await storedEvents(projectId);
    expect(first.uuids.length).toBeGreaterThan(PERSONS);
    await runner.start(projectId, LATER);
    expect(await storedEvents(projectId)).toEqual(first);
    expect(errors).toEqual([]);
    // The same seed and day give the same events in any project.
    const other = await newProject('demo-runner-2@example.com');
    await runner.start(other, EVENING);
    expect((await storedEvents(other)).uuids).toEqual(first.uuids);
  });
});
