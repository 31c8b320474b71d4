import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES, buildApp } from '../../src/http/app.js';
import { ProjectWriteBody } from '../../src/http/schemas/project.js';
import { select, table, field } from '../../src/query/ast/build.js';
import { printQuery } from '../../src/query/printer/print.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';
import type { Services } from '../../src/services.js';

const nested = (depth: number, leaf: string) => '['.repeat(depth) + leaf + ']'.repeat(depth);

describe.each(META_STORES)('errors and hostile input on %s', (store) => {
  let t: TestApp;
  let c: Credentials;
  const item = () => `/api/projects/${c.projectId}/`;
  const snapshot = async () => (await t.request(c.key, { method: 'GET', url: item() })).json();
  /** A PATCH of the project with a body sent as raw JSON text, exactly as given. */
  const patchRaw = (payload: string) =>
    t.request(c.key, { method: 'PATCH', url: item(), headers: { 'content-type': 'application/json' }, payload });

  beforeAll(async () => {
    t = await createTestApp(store);
    c = await t.bootstrap('errors@example.com');
  });
  afterAll(() => t.close());

  it('malformed JSON is a 400 parse_error', async () => {
    const res = await patchRaw('{"name": "x"');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'parse_error', attr: null });
    expect(res.json().detail).toMatch(/^JSON parse error - /);
  });

  it('a body that is not an object is a validation error, as DRF says it', async () => {
    const res = await t.request(c.key, { method: 'PATCH', url: item(), payload: [1, 2] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: 'validation_error',
      code: 'invalid_input',
      detail: 'Invalid data. Expected a dictionary, but got list.',
      attr: null,
    });
  });

  it('an unknown route is 404 and a known path with the wrong method is 405', async () => {
    const missing = await t.request(c.key, { method: 'GET', url: '/api/nothing-here/' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
    const wrong = await t.request(c.key, { method: 'PUT', url: item() });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.json()).toEqual({
      type: 'invalid_request',
      code: 'method_not_allowed',
      detail: 'Method "PUT" not allowed.',
      attr: null,
    });
    expect((await t.request(c.key, { method: 'DELETE', url: '/api/organizations/' })).statusCode).toBe(405);
  });

  it('a body over the limit is 413', async () => {
    const res = await patchRaw(JSON.stringify({ name: 'x'.repeat(BODY_LIMIT_BYTES) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'request_too_large', attr: null });
  });

  it('a body that is not JSON is 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await t.request(c.key, { method: 'PATCH', url: item(), headers: { 'content-type': type }, payload: 'name=x' });
      expect(res.statusCode, type).toBe(415);
      expect(res.json()).toEqual({
        type: 'invalid_request',
        code: 'unsupported_media_type',
        detail: `Unsupported media type "${type}" in request.`,
        attr: null,
      });
    }
  });

  it('an empty JSON body on DELETE or GET is no body, not an error', async () => {
    const res = await t.request(c.key, { method: 'GET', url: item(), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(200);
  });

  it('a PATCH or POST without a body means no fields; an explicit null is refused', async () => {
    const before = await snapshot();
    const patched = await t.request(c.key, { method: 'PATCH', url: item() });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().name).toBe(before.name);
    const created = await t.request(c.key, { method: 'POST', url: '/api/projects/' });
    expect(created.statusCode).toBe(201);
    expect(created.json().name).toMatch(/^Default project/);
    const nulled = await patchRaw('null');
    expect(nulled.statusCode).toBe(400);
    expect(nulled.json().detail).toBe('Invalid data. Expected a dictionary, but got NoneType.');
  });

  it('prototype pollution keys are refused', async () => {
    const res = await patchRaw('{"name":"p","__proto__":{"admin":true}}');
    expect(res.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('deeply nested structured values are refused without a 5xx', async () => {
    const before = await snapshot();
    for (const depth of [40, 10_000, 200_000]) {
      const res = await patchRaw(`{"test_account_filters": ${nested(depth, '1')}}`);
      expect(res.statusCode, String(depth)).toBe(400);
      expect(res.json().type).toBeDefined();
    }
    expect(await snapshot()).toEqual(before);
  });

  it('every writable field survives every hostile value with a 2xx or 4xx, never a 5xx', async () => {
    const hostile: unknown[] = [
      {}, [], [[[]]], 'x'.repeat(20_000), 1e308, -1, 0, true, null, { $ne: 1 }, "'; drop table projects; --", '\u0000',
      ['\u0000'], 3.7, '2026-01-01', '\ud800', ['a\udc00b'],
    ];
    const fields = Object.keys(ProjectWriteBody.properties);
    for (const field of fields) {
      for (const value of hostile) {
        const before = await snapshot();
        const res = await t.request(c.key, { method: 'PATCH', url: item(), payload: { [field]: value } });
        expect(res.statusCode, `${field}=${JSON.stringify(value).slice(0, 40)}`).toBeLessThan(500);
        const body = res.json();
        if (res.statusCode >= 400) {
          expect(Object.keys(body).sort()).toEqual(['attr', 'code', 'detail', 'type']);
          expect(await snapshot()).toEqual(before);
        }
      }
    }
    // The name field must still be a sane string and the store must still answer.
    const after = await snapshot();
    expect(typeof after.name).toBe('string');
    const nul = await t.request(c.key, { method: 'PATCH', url: item(), payload: { name: 'a\u0000b' } });
    expect(nul.json()).toEqual({
      type: 'validation_error',
      code: 'null_characters_not_allowed',
      detail: 'Null characters are not allowed.',
      attr: 'name',
    });
    expect((await t.request(c.key, { method: 'GET', url: '/api/projects/' })).statusCode).toBe(200);
  });

  it('hostile query strings never give a 5xx', async () => {
    for (const query of ['limit=1e999', 'offset=99999999999999999999', 'limit=-1', 'limit[]=1', 'offset=%00']) {
      const res = await t.request(c.key, { method: 'GET', url: `/api/projects/?${query}` });
      expect(res.statusCode, query).toBe(200);
    }
    const repeated = await t.request(c.key, { method: 'GET', url: '/api/projects/?limit=1&limit=2' });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json()).toMatchObject({ type: 'validation_error', attr: 'limit' });
  });
});

/** An app over the same services whose error log lines are kept, to check what is logged. */
async function appLoggingErrors(services: Services): Promise<{ app: FastifyInstance; lines: string[] }> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { app: await buildApp(services, { logger: { level: 'error', stream } }), lines };
}

describe.each(META_STORES)('server errors on %s', (store) => {
  it('a failing store gives a generic 500 logged with its request id, and health says 503', async () => {
    const t = await createTestApp(store);
    const c = await t.bootstrap('fail@example.com');
    const { app, lines } = await appLoggingErrors(t.services);
    try {
      await t.services.meta.close();
      const res = await app.inject({ method: 'GET', url: `/api/projects/${c.projectId}/`, headers: { authorization: `Bearer ${c.key}` } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null });
      const requestId = res.headers['x-request-id'];
      expect(requestId).toBeTruthy();
      expect(lines.some((line) => line.includes(String(requestId)) && line.includes('"level":50'))).toBe(true);
      expect((await app.inject({ method: 'GET', url: '/_health' })).statusCode).toBe(503);
    } finally {
      await app.close();
      await t.close().catch(() => undefined);
    }
  });
});

describe.each(META_STORES)('exposed and internal query errors on %s', (store) => {
  it('a refusal the request caused is a 400 in PostHog\'s body, never a 500', async () => {
    const t = await createTestApp(store);
    try {
      const c = await t.bootstrap('pages@example.com');
      const query = JSON.stringify({ kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: 'a' }, { kind: 'EventsNode', event: 'b' }], dateRange: { date_from: '2024-01-01', date_to: '2024-01-02' } });
      // The largest offset pagination accepts: an empty page (OFFSET is its own clause), never all rows.
      const url = `/api/projects/${c.projectId}/insights/funnel/persons/?funnel_step=1&offset=${Number.MAX_SAFE_INTEGER}&query=${encodeURIComponent(query)}`;
      const res = await t.request(c.key, { method: 'GET', url });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ results: [], next: null });
      // A number the request chose that SQL cannot take is an exposed 400: an offset past 2^53.
      const beyond = await t.request(c.key, { method: 'POST', url: `/api/projects/${c.projectId}/query/`, payload: {
        query: { kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source: JSON.parse(query), funnelStep: 1 }, offset: 2 ** 60 },
      } });
      expect(beyond.statusCode, beyond.body).toBe(400);
      expect(beyond.json()).toMatchObject({ type: 'validation_error', attr: 'query.offset' });
    } finally {
      await t.close();
    }
  });

  it('an internal refusal is a generic 500 whose text (naming tables) is only logged', async () => {
    const t = await createTestApp(store);
    const { app, lines } = await appLoggingErrors(t.services);
    // A route standing for a runner with a bug: it hands the real printer a table without the project guard.
    app.get('/test/unscoped', async () => printQuery(select({ select: [field('uuid')], from: table('events', 'e') }), t.services.events.layout.database));
    try {
      const res = await app.inject({ method: 'GET', url: '/test/unscoped' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null });
      expect(res.body).not.toContain('events');
      const logged = lines.find((line) => line.includes(String(res.headers['x-request-id'])));
      expect(logged).toContain('"code":"print_error"');
      expect(logged).toContain('without a project guard');
    } finally {
      await app.close();
      await t.close();
    }
  });
});
