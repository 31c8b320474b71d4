// The capture endpoints over HTTP: every path, recorded browser and server SDK bodies, and every
// kind of bad input, with the status and body a client sees and what ends up stored.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import LZString from 'lz-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { eventCounts, storedEvents } from '../helpers/ingest.js';

const FIXTURES = path.resolve('test/fixtures/capture');

let t: TestApp;
let owner: Credentials;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  owner = await t.bootstrap('capture@example.com');
});
afterAll(() => t.close());

async function newProject(name: string): Promise<{ id: number; api_token: string }> {
  return (await t.request(owner.key, { method: 'POST', url: '/api/projects/', payload: { name } })).json();
}

function post(url: string, payload: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  return t.app.inject({ method: 'POST', url, payload, headers });
}

describe('capture paths and payload shapes', () => {
  it('accepts one event, an array and a batch on every path, with or without the trailing slash', async () => {
    const project = await newProject('paths');
    const paths = ['/e/', '/e', '/i/v0/e/', '/i/v0/e', '/batch/', '/batch', '/capture/', '/capture', '/track/', '/track', '/engage/', '/engage'];
    for (const [i, url] of paths.entries()) {
      const single = { api_key: project.api_token, event: 'single', distinct_id: `u${i}` };
      const array = [{ event: 'in-array', properties: { token: project.api_token, distinct_id: `u${i}` } }];
      const batch = { token: project.api_token, batch: [{ event: 'in-batch', distinct_id: `u${i}` }] };
      for (const body of [single, array, batch]) {
        const res = await post(url, JSON.stringify(body));
        expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(200);
        expect(res.json()).toEqual({ status: 1 });
      }
    }
    expect((await eventCounts(t.services.events, project.id)).events).toBe(paths.length * 3);
  });

  it('takes the token from the query string and GET ?data= for pixel-style requests', async () => {
    const project = await newProject('get data');
    const data = Buffer.from(JSON.stringify({ event: 'pixel', distinct_id: 'p', properties: { token: project.api_token } })).toString('base64');
    const res = await t.app.inject({ method: 'GET', url: `/e/?data=${encodeURIComponent(data)}` });
    expect(res.statusCode).toBe(200);
    const viaQuery = await post(`/batch/?token=${project.api_token}`, JSON.stringify({ batch: [{ event: 'q', distinct_id: 'p' }] }));
    expect(viaQuery.statusCode).toBe(200);
    expect((await storedEvents(t.services.events, project.id)).map((e) => e.event).sort()).toEqual(['pixel', 'q']);
  });

  it('/engage/ payloads without an event name are $identify', async () => {
    const project = await newProject('engage');
    const res = await post('/engage/', JSON.stringify({ $token: project.api_token, $distinct_id: 'e1', $set: { plan: 'pro' } }));
    expect(res.statusCode).toBe(200);
    const [event] = await storedEvents(t.services.events, project.id);
    expect(event).toMatchObject({ event: '$identify', distinct_id: 'e1' });
  });

  it('answers CORS preflights and echoes the origin, as browsers need', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/i/v0/e/',
      headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.statusCode).toBe(200);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    const project = await newProject('cors');
    const res = await post('/e/', JSON.stringify({ api_key: project.api_token, event: 'x', distinct_id: 'y' }), {
      'content-type': 'text/plain',
      origin: 'https://shop.example.com',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.example.com');
  });

  it('answers with CORS headers on every path the browser SDK calls, refusals included', async () => {
    const origin = 'https://shop.example.com';
    const refused: { method: 'GET' | 'POST'; url: string; status: number; body?: string }[] = [
      ...['/e/', '/i/v0/e/', '/batch/', '/capture/', '/track/', '/engage/', '/flags/?v=2', '/decide/?v=4'].map((url) => ({ method: 'POST' as const, url, status: 401 })),
      { method: 'POST', url: '/batch/', status: 400, body: '{broken' },
      { method: 'GET', url: '/array/phc_nobodyhasthistoken/config', status: 404 },
      { method: 'GET', url: '/array/phc_nobodyhasthistoken/config.js', status: 404 },
    ];
    for (const { method, url, status, body } of refused) {
      const payload = body ?? JSON.stringify({ api_key: 'phc_nobodyhasthistoken', event: 'x', distinct_id: 'y' });
      const res = await t.app.inject({ method, url, headers: { origin, 'content-type': 'text/plain' }, ...(method === 'POST' ? { payload } : {}) });
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['access-control-allow-origin'], url).toBe(origin);
      expect(res.headers['access-control-allow-credentials'], url).toBe('true');
    }
    // A recording without a token is refused like an event.
    const recording = await t.app.inject({ method: 'POST', url: '/s/', headers: { origin, 'content-type': 'text/plain' }, payload: gzipSync('{}') });
    expect(recording.statusCode).toBe(401);
    expect(recording.headers['access-control-allow-origin']).toBe(origin);
  });

  it("takes posthog-js's gzip body on its analytics endpoint (/i/v0/e/, text/plain, no ?compression=) with exactly 200", async () => {
    const project = await newProject('posthog-js body');
    const batch = [{ event: '$pageview', properties: { distinct_id: 'browser-1', $current_url: 'https://shop.example.com/' }, uuid: '01900000-0000-7000-8000-0000000000aa' }];
    const body = gzipSync(JSON.stringify({ api_key: project.api_token, batch, sent_at: new Date().toISOString() }));
    const res = await post(`/i/v0/e/?ip=0&_=${Date.now()}&ver=1.449.2`, body, { 'content-type': 'text/plain', origin: 'https://shop.example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 1 });
    expect((await storedEvents(t.services.events, project.id)).map((e) => e.event)).toEqual(['$pageview']);
  });
});

describe('recorded SDK bodies', () => {
  const fixtures = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'fixtures.json'), 'utf8')) as Array<{
    name: string;
    file: string;
    method: 'POST' | 'GET';
    path: string;
    query: string;
    headers: Record<string, string>;
    expected: string;
  }>;

  for (const fixture of fixtures) {
    it(`stores ${fixture.name} as sent`, async () => {
      const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, fixture.expected), 'utf8')) as {
        token: string;
        events: Array<{ uuid: string; event: string; distinctId: string; properties: Record<string, unknown> }>;
      };
      const project = await newProject(fixture.name);
      // The recordings carry a fixed token; give this project that token.
      await t.services.meta.db.updateTable('projects').set({ api_token: expected.token }).where('id', '=', project.id).execute();
      await t.services.projectTokens.invalidate();
      const res = await t.app.inject({
        method: fixture.method,
        url: `${fixture.path}${fixture.query ? `?${fixture.query}` : ''}`,
        payload: fs.readFileSync(path.join(FIXTURES, fixture.file)),
        headers: fixture.headers,
      });
      expect(res.statusCode).toBe(fixture.query.includes('beacon=1') ? 204 : 200);
      const stored = await storedEvents(t.services.events, project.id);
      expect(stored.map((e) => [e.uuid, e.event, e.distinct_id]).sort()).toEqual(
        expected.events.map((e) => [e.uuid, e.event, e.distinctId]).sort(),
      );
      for (const event of expected.events) {
        // Capture adds the client's address (inject's peer: loopback, so no location) unless sent.
        const withIp = event.properties.$ip ? event.properties : { ...event.properties, $ip: '127.0.0.1' };
        expect(stored.find((s) => s.uuid === event.uuid)!.properties).toEqual(withIp);
      }
      // Give the token back so the next recording can claim it.
      await t.services.meta.db.updateTable('projects').set({ api_token: `phc_done_${project.id}` }).where('id', '=', project.id).execute();
    });
  }
});

describe('encodings', () => {
  it('reads gzip (header, ?compression=gzip, gzip-js, magic bytes), base64 and lz64, in bodies and forms', async () => {
    const project = await newProject('encodings');
    const body = (name: string) => JSON.stringify({ api_key: project.api_token, batch: [{ event: name, distinct_id: 'enc' }] });
    const cases: Array<[string, string | Buffer, Record<string, string>]> = [
      ['/batch/', gzipSync(body('gzip-header')), { 'content-type': 'application/json', 'content-encoding': 'gzip' }],
      ['/batch/?compression=gzip', gzipSync(body('gzip-query')), { 'content-type': 'application/json' }],
      ['/i/v0/e/?compression=gzip-js', gzipSync(body('gzip-js')), { 'content-type': 'text/plain' }],
      ['/batch/', gzipSync(body('gzip-sniffed')), { 'content-type': 'application/octet-stream' }],
      ['/e/?compression=base64', Buffer.from(body('base64')).toString('base64'), { 'content-type': 'text/plain' }],
      ['/e/?compression=lz64', LZString.compressToBase64(body('lz64')), { 'content-type': 'text/plain' }],
      ['/e/', `data=${encodeURIComponent(Buffer.from(body('form-base64')).toString('base64'))}`, { 'content-type': 'application/x-www-form-urlencoded' }],
      ['/e/', `data=${encodeURIComponent(LZString.compressToBase64(body('form-lz64')))}&compression=lz64`, { 'content-type': 'application/x-www-form-urlencoded' }],
      ['/e/', `data=${encodeURIComponent(body('form-json'))}`, { 'content-type': 'application/x-www-form-urlencoded' }],
    ];
    for (const [url, payload, headers] of cases) {
      const res = await post(url, payload, headers);
      expect(res.statusCode, `${url} ${JSON.stringify(headers)}: ${res.body}`).toBe(200);
    }
    const names = (await storedEvents(t.services.events, project.id)).map((e) => e.event).sort();
    expect(names).toEqual(['base64', 'form-base64', 'form-json', 'form-lz64', 'gzip-header', 'gzip-js', 'gzip-query', 'gzip-sniffed', 'lz64']);
  });

  it('keeps historical_migration and corrects the client clock with sent_at', async () => {
    const project = await newProject('clock');
    // The client's clock is 1 hour behind: its event says 09:00 and its sent_at says 09:00:05.
    const sentAt = new Date(Date.now() - 3600_000);
    const timestamp = new Date(sentAt.getTime() - 5_000);
    const res = await post(
      '/batch/',
      JSON.stringify({ api_key: project.api_token, historical_migration: true, sent_at: sentAt.toISOString(), batch: [{ event: 'skewed', distinct_id: 'c', timestamp: timestamp.toISOString() }] }),
    );
    expect(res.statusCode).toBe(200);
    const [row] = await t.services.events.query<{ ts: string; historical: boolean }>(
      `SELECT toUnixTimestamp64Milli(timestamp) AS ts, historical_migration AS historical FROM ${t.services.events.layout.database}.events WHERE team_id = {team:UInt64}`,
      { team: project.id },
    );
    expect(Math.abs(Number(row!.ts) - (Date.now() - 5_000))).toBeLessThan(3_000);
    expect(row!.historical).toBe(true);
  });
});

describe('bad input', () => {
  const invalid = (detail: string, code = 'invalid_payload') => ({ type: 'validation_error', code, detail, attr: null });

  it('refuses missing, unknown and personal tokens with 401 in PostHog error format', async () => {
    const noToken = await post('/batch/', JSON.stringify({ batch: [{ event: 'e', distinct_id: 'd' }] }));
    expect(noToken.statusCode).toBe(401);
    expect(noToken.json()).toEqual({
      type: 'authentication_error',
      code: 'missing_api_key',
      detail: 'API key not provided. You can find your project API key in PostHog project settings.',
      attr: null,
    });
    const unknown = await post('/batch/', JSON.stringify({ api_key: 'phc_unknown', batch: [{ event: 'e', distinct_id: 'd' }] }));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
    const personal = await post('/e/', JSON.stringify({ api_key: owner.key, event: 'e', distinct_id: 'd' }));
    expect(personal.statusCode).toBe(401);
    expect(personal.json().code).toBe('invalid_api_key');
  });

  it('says what is wrong with a body and stores nothing of a batch with a bad event', async () => {
    const project = await newProject('bad input');
    const token = project.api_token;
    const cases: Array<[string | Buffer, Record<string, string>, number, object]> = [
      [JSON.stringify({ api_key: token, batch: [{ distinct_id: 'd' }] }), {}, 400, invalid('Invalid payload: All events must have the event name field "event"!')],
      [JSON.stringify({ api_key: token, batch: [{ event: 'ok', distinct_id: 'd' }, { event: 'e' }] }), {}, 400, invalid('Invalid payload: All events must have the event field "distinct_id"!')],
      [JSON.stringify({ api_key: token, event: 'e', distinct_id: '  ' }), {}, 400, invalid('Invalid payload: Event field "distinct_id" should not be blank!')],
      [JSON.stringify({ api_key: token, event: 'e', distinct_id: 'd', uuid: 'invalid' }), {}, 400, invalid('Invalid payload: Event field "uuid" is not a valid UUID!')],
      [JSON.stringify({ api_key: token, batch: [] }), {}, 400, invalid('No data found. Make sure to use a POST request when sending the payload in the body of the request.', 'no_data')],
      ['', {}, 400, invalid('No data found. Make sure to use a POST request when sending the payload in the body of the request.', 'no_data')],
    ];
    for (const [payload, headers, status, body] of cases) {
      const res = await post('/batch/', payload, { 'content-type': 'application/json', ...headers });
      expect(res.statusCode, String(payload)).toBe(status);
      expect(res.json()).toEqual(body);
    }
    const badJson = await post('/batch/', '{"api_key": "x", "batch": [', { 'content-type': 'application/json' });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().detail).toMatch(/^Malformed request data: Invalid JSON/);
    const badGzip = await post('/batch/', Buffer.from([0x1f, 0x8b, 0x08, 0, 1, 2, 3]), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(badGzip.statusCode).toBe(400);
    expect(badGzip.json()).toMatchObject({ type: 'validation_error', code: 'invalid_payload' });
    const badBase64 = await post('/e/?compression=base64', '%%%not base64%%%', { 'content-type': 'text/plain' });
    expect(badBase64.statusCode).toBe(400);
    expect((await eventCounts(t.services.events, project.id)).events).toBe(0);
  });

  it('stores a 250-character distinct_id as its first 200 characters', async () => {
    const project = await newProject('long id');
    const res = await post('/e/', JSON.stringify({ api_key: project.api_token, event: 'e', distinct_id: 'x'.repeat(250) }));
    expect(res.statusCode).toBe(200);
    expect((await storedEvents(t.services.events, project.id))[0]!.distinct_id).toBe('x'.repeat(200));
  });

  it('answers 413 for bodies over 20 MB', async () => {
    const res = await post('/batch/', Buffer.alloc(21 * 1024 * 1024, 0x20));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'request_too_large' });
  });
});

describe('project effects', () => {
  it('after reset_token the old token is refused and the new one works', async () => {
    const project = await newProject('reset');
    const send = (token: string) => post('/e/', JSON.stringify({ api_key: token, event: 'e', distinct_id: 'd' }));
    expect((await send(project.api_token)).statusCode).toBe(200);
    const reset = await t.request(owner.key, { method: 'PATCH', url: `/api/projects/${project.id}/reset_token/` });
    expect((await send(project.api_token)).statusCode).toBe(401);
    expect((await send(reset.json().api_token)).statusCode).toBe(200);
  });

  it('deleting a project deletes its events, persons and groups, and refuses its token', async () => {
    const project = await newProject('to delete');
    const keep = await newProject('to keep');
    for (const p of [project, keep]) {
      const res = await post('/batch/', JSON.stringify({
        api_key: p.api_token,
        batch: [
          { event: '$identify', distinct_id: 'u', properties: { $anon_distinct_id: 'a', $set: { x: 1 } } },
          { event: '$groupidentify', distinct_id: 'u', properties: { $group_type: 'company', $group_key: 'c', $group_set: {} } },
        ],
      }));
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await t.request(owner.key, { method: 'DELETE', url: `/api/projects/${project.id}/` })).statusCode).toBe(204);
    const db = t.services.events.layout.database;
    for (const table of ['events', 'persons', 'person_distinct_ids', 'groups', 'group_types']) {
      const rows = await t.services.events.query<{ team_id: string; n: string }>(
        `SELECT team_id, count() AS n FROM ${db}.${table} WHERE team_id IN {teams:Array(UInt64)} GROUP BY team_id`,
        { teams: [project.id, keep.id] },
      );
      expect(rows.map((r) => Number(r.team_id)), table).toEqual([keep.id]);
    }
    const res = await post('/e/', JSON.stringify({ api_key: project.api_token, event: 'e', distinct_id: 'd' }));
    expect(res.statusCode).toBe(401);
  });

  it('a project created with is_demo fills itself in the background', async () => {
    const res = await t.request(owner.key, { method: 'POST', url: '/api/projects/', payload: { name: 'demo', is_demo: true } });
    expect(res.statusCode).toBe(201);
    const id = res.json().id;
    const generating = async () =>
      (await t.request(owner.key, { method: 'GET', url: `/api/projects/${id}/is_generating_demo_data/` })).json().is_generating_demo_data;
    expect(await generating()).toBe(true);
    await expect.poll(generating, { timeout: 60_000, interval: 200 }).toBe(false);
    // Generation ends once its events are acknowledged; on a busy machine their insert lags behind
    // (reads wait for it only so long), so wait until nothing waits to be stored: the next test
    // must not meet this backlog as 503s.
    const waiting = async () => (await t.request(owner.key, { method: 'GET', url: '/_health' })).json().capture.waiting_events;
    await expect.poll(waiting, { timeout: 60_000, interval: 200 }).toBe(0);
    const counts = await eventCounts(t.services.events, id);
    expect(counts.events).toBeGreaterThan(50_000);
    // Anonymous visitors who signed up were merged: fewer persons than distinct ids.
    const [ids] = await t.services.events.query<{ n: string }>(
      `SELECT uniqExact(distinct_id) AS n FROM ${t.services.events.layout.database}.events WHERE team_id = {team:UInt64}`,
      { team: id },
    );
    expect(counts.persons).toBeLessThan(Number(ids!.n));
  }, 90_000);

  it('acknowledges while the event store cannot take the events, and stores them once it can', async () => {
    const db = t.services.events.layout.database;
    const project = await newProject('store away');
    const uuid = crypto.randomUUID();
    // The de-duplication table gone: every insert attempt fails on the store's side.
    await t.services.events.command(`RENAME TABLE ${db}.event_uuids TO ${db}.event_uuids_away`);
    try {
      const res = await post('/e/', JSON.stringify({ api_key: project.api_token, event: 'held', distinct_id: 'd', uuid }));
      expect(res.statusCode, res.body).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const direct = await t.services.events.query<{ n: string }>(
        `SELECT count() AS n FROM ${db}.events WHERE team_id = {team:UInt64}`,
        { team: project.id },
        { lane: 'ingest' },
      );
      expect(Number(direct[0]!.n)).toBe(0);
    } finally {
      await t.services.events.command(`RENAME TABLE ${db}.event_uuids_away TO ${db}.event_uuids`);
    }
    const stored = await storedEvents(t.services.events, project.id);
    expect(stored.map((e) => [e.uuid, e.event])).toEqual([[uuid, 'held']]);
  });
});
