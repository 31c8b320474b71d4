// Capture that no client can stop: a request carrying a value the event store cannot hold (a lone
// UTF-16 surrogate, legal in JSON) is repaired or refused on its own, and the requests that share
// its group commit are stored and acknowledged. Project tokens are public, so any visitor could
// otherwise stop ingestion for everyone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { capturedEvent, storedEvents, storedPersons } from '../helpers/ingest.js';

let t: TestApp;
let owner: Credentials;
const problems: string[] = [];

beforeAll(async () => {
  t = await createTestApp('sqlite', {}, { onBackgroundError: (error) => problems.push(String(error)) });
  owner = await t.bootstrap('poison@example.com');
});
afterAll(() => t.close());

const LONE = '\ud800';
const REPAIRED = '\ufffd';

async function newProject(name: string): Promise<{ id: number; api_token: string }> {
  return (await t.request(owner.key, { method: 'POST', url: '/api/projects/', payload: { name } })).json();
}

function batch(token: string, events: object[] | string) {
  // JSON.stringify writes a lone surrogate as the escape `\ud800`, exactly as a client would send it.
  const list = typeof events === 'string' ? events : JSON.stringify(events);
  return t.app.inject({
    method: 'POST',
    url: '/batch/',
    payload: `{"api_key":${JSON.stringify(token)},"batch":${list}}`,
    headers: { 'content-type': 'application/json' },
  });
}

interface Poison {
  field: string;
  event: (i: number) => Record<string, unknown>;
  /** 200 when the value is repaired and stored, 400 when the event cannot be stored at all. */
  status: 200 | 400;
}

const POISONS: Poison[] = [
  { field: 'event', status: 200, event: (i) => ({ event: `buy${LONE}`, distinct_id: `p${i}` }) },
  { field: 'distinct_id', status: 200, event: (i) => ({ event: 'buy', distinct_id: `p${i}${LONE}` }) },
  { field: 'uuid', status: 400, event: (i) => ({ event: 'buy', distinct_id: `p${i}`, uuid: `0190${LONE}` }) },
  { field: '$set key', status: 200, event: (i) => ({ event: 'buy', distinct_id: `p${i}`, properties: { $set: { [`plan${LONE}`]: 'pro' } } }) },
  { field: '$set value', status: 200, event: (i) => ({ event: 'buy', distinct_id: `p${i}`, properties: { $set: { plan: `pro${LONE}` } } }) },
  { field: '$groups type', status: 200, event: (i) => ({ event: 'buy', distinct_id: `p${i}`, properties: { $groups: { [`org${LONE}`]: 'acme' } } }) },
  { field: '$groups key', status: 200, event: (i) => ({ event: 'buy', distinct_id: `p${i}`, properties: { $groups: { org: `acme${LONE}` } } }) },
  {
    field: '$group_set value',
    status: 200,
    event: (i) => ({
      event: '$groupidentify',
      distinct_id: `p${i}`,
      properties: { $group_type: 'org', $group_key: `k${i}`, $group_set: { name: `Acme${LONE}` } },
    }),
  },
  { field: '$session_id', status: 200, event: (i) => ({ event: 'buy', distinct_id: `p${i}`, properties: { $session_id: `s${LONE}` } }) },
  { field: '$current_url', status: 200, event: (i) => ({ event: 'buy', distinct_id: `p${i}`, properties: { $current_url: `https://x.test/${LONE}` } }) },
  { field: 'a property key', status: 200, event: (i) => ({ event: 'buy', distinct_id: `p${i}`, properties: { [`k${LONE}`]: 1 } }) },
  { field: 'a nested value', status: 200, event: (i) => ({ event: 'buy', distinct_id: `p${i}`, properties: { a: [{ b: `c${LONE}` }] } }) },
];

describe('one unstorable value never fails the requests it is written with', () => {
  for (const poison of POISONS) {
    it(`20 good /batch/ requests and one with a lone surrogate in ${poison.field}, five times over`, async () => {
      const project = await newProject(`poison ${poison.field}`);
      for (let round = 0; round < 5; round++) {
        const good = Array.from({ length: 20 }, (_, i) => batch(project.api_token, [{ event: 'ok', distinct_id: `g${round}-${i}` }]));
        const bad = batch(project.api_token, [poison.event(round)]);
        const answers = await Promise.all([...good, bad]);
        for (const answer of answers.slice(0, 20)) expect(answer.statusCode, answer.body).toBe(200);
        expect(answers[20]!.statusCode, answers[20]!.body).toBe(poison.status);
        if (poison.status === 400) expect(answers[20]!.json()).toMatchObject({ type: 'validation_error', code: 'invalid_payload' });
      }
      const stored = await storedEvents(t.services.events, project.id);
      expect(stored.filter((e) => e.event === 'ok')).toHaveLength(100);
      const repaired = stored.filter((e) => e.event !== 'ok');
      expect(repaired).toHaveLength(poison.status === 200 ? 5 : 0);
      // What was stored holds U+FFFD where the surrogate was, and no surrogate anywhere.
      for (const event of repaired) {
        const text = JSON.stringify(event);
        expect(text.isWellFormed()).toBe(true);
        expect(text).toContain(REPAIRED);
      }
    }, 60_000);
  }

  it('a person property set with a lone surrogate is stored repaired', async () => {
    const project = await newProject('poison person');
    const res = await batch(project.api_token, [
      { event: '$identify', distinct_id: 'who', properties: { $set: { [`name${LONE}`]: `Ann${LONE}` } } },
    ]);
    expect(res.statusCode).toBe(200);
    const [person] = await storedPersons(t.services.events, project.id);
    expect(person!.properties).toMatchObject({ [`name${REPAIRED}`]: `Ann${REPAIRED}` });
  });

  it('refuses an event nested deeper than it could be stored, alone, with a 400', async () => {
    const project = await newProject('poison depth');
    // JSON.parse reads this; JSON.stringify, which the store's insert needs, overflows the stack on it.
    const deep = `${'['.repeat(20_000)}"bottom"${']'.repeat(20_000)}`;
    const good = Array.from({ length: 5 }, (_, i) => batch(project.api_token, [{ event: 'ok', distinct_id: `d${i}` }]));
    const bad = batch(project.api_token, `[{"event":"deep","distinct_id":"x","properties":{"deep":${deep}}}]`);
    const answers = await Promise.all([...good, bad]);
    for (const answer of answers.slice(0, 5)) expect(answer.statusCode).toBe(200);
    expect(answers[5]!.statusCode).toBe(400);
    expect(answers[5]!.json().detail).toMatch(/nests objects or arrays more than 100 levels/);
    expect((await storedEvents(t.services.events, project.id)).map((e) => e.event)).toEqual(Array(5).fill('ok'));
  });

  it('keeps control characters and NUL in properties as sent', async () => {
    const project = await newProject('poison controls');
    const res = await batch(project.api_token, [{ event: 'ctl\u0007', distinct_id: 'c', properties: { v: 'a\u0000b\u001bc' } }]);
    expect(res.statusCode).toBe(200);
    const [event] = await storedEvents(t.services.events, project.id);
    expect(event).toMatchObject({ event: 'ctl\u0007', properties: { v: 'a\u0000b\u001bc' } });
  });
});

describe('an acknowledged event the store refuses for its content', () => {
  it('is found alone, set aside in the capture log, and never holds up the others', async () => {
    const project = await newProject('culprit');
    // capture.ingest takes normalised events, so this one reaches the store unrepaired: the store's
    // refusal, not capture's checks, is what the inserter must attribute.
    const culprit = capturedEvent(`bad${LONE}`, 'culprit', { $set: { plan: 'should-not-apply' } });
    const culpritUuids: string[] = [];
    for (let round = 0; round < 3; round++) {
      const good = Array.from({ length: 20 }, (_, i) => batch(project.api_token, [{ event: 'ok', distinct_id: `c${round}-${i}` }]));
      const uuid = crypto.randomUUID();
      culpritUuids.push(uuid);
      const acknowledged = t.services.capture.ingest(project.id, [{ ...culprit, uuid }]);
      const answers = await Promise.all(good);
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      await acknowledged;
    }
    const stored = await storedEvents(t.services.events, project.id);
    expect(stored.map((e) => e.event)).toEqual(Array(60).fill('ok'));
    // The culprit's person update never got ahead of its (refused) event.
    const persons = await storedPersons(t.services.events, project.id);
    expect(persons.flatMap((p) => p.distinct_ids)).not.toContain('culprit');
    expect(persons).toHaveLength(60);
    // Nothing acknowledged is dropped: each refused event is kept, with the engine's reason.
    const refusedDir = path.join(t.dataDir, 'capture-log', 'refused');
    const kept = fs.readdirSync(refusedDir).map((name) => JSON.parse(fs.readFileSync(path.join(refusedDir, name), 'utf8')));
    expect(kept.flatMap((k) => k.events.map((e: { uuid: string }) => e.uuid)).sort()).toEqual([...culpritUuids].sort());
    for (const k of kept) expect(k).toMatchObject({ teamId: project.id, reason: expect.stringMatching(/refused/) });
    expect(problems.some((p) => /set aside/.test(p))).toBe(true);
    // Never a silent end: the server's status counts them.
    const health = await t.app.inject({ method: 'GET', url: '/_health' });
    expect(health.json()).toMatchObject({ status: 'ok', capture: { set_aside_files: 3, set_aside_events: 3, waiting_events: 0 } });
  }, 60_000);
});
