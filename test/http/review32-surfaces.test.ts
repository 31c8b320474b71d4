// Issue 32's new surfaces attacked (review): organization B holds a person with a marker property
// and a retention setting. fast-check sends Alice's callers (keys with every scope, her project or
// organization only, a key without person:write or project:write, no credentials) at every new
// route naming B's project and person, and B's ids into Alice's own project: none may be a 5xx,
// carry B's marker, or delete or change anything of B. The operator routes (/metrics,
// /_status/projects, /_backup/snapshot) refuse a remote or relayed caller and a wrong token, and a
// hostile staging name never reaches the file system.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStatusToken } from '../../src/status/status-token.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const RUNS = Number(process.env['HOGLET_PROPERTY_RUNS'] ?? 150);
const MARKER = 'b-person-marker';

describe.each(META_STORES)('issue 32 surfaces under attack on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  let bobPerson = '';
  let callers: Record<string, (options: InjectOptions) => Promise<LightMyRequestResponse>>;
  const bobState = async () => {
    const person = await t.request(bob.key, { method: 'GET', url: `/api/projects/${bob.projectId}/persons/${bobPerson}/` });
    const retention = await t.request(bob.key, { method: 'GET', url: `/api/projects/${bob.projectId}/event_retention/` });
    return { person: [person.statusCode, person.json().properties], retention: retention.json().event_retention_months };
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'A' });
    bob = await t.bootstrap('bob@example.com', { organization: 'B' });
    await journeys(t, bob, { 'b-someone': [ev('$pageview', new Date().toISOString(), { $set: { marker: MARKER } })] });
    await journeys(t, alice, { 'a-someone': [ev('$pageview', new Date().toISOString())] });
    for (let i = 0; i < 100; i++) {
      const list = await t.request(bob.key, { method: 'GET', url: `/api/projects/${bob.projectId}/persons/` });
      bobPerson = list.json().results[0]?.uuid ?? '';
      if (bobPerson) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(bobPerson).not.toBe('');
    const patch = await t.request(bob.key, { method: 'PATCH', url: `/api/projects/${bob.projectId}/`, payload: { event_retention_months: 24 } });
    expect(patch.statusCode, patch.body).toBe(200);
    const keyed = (key: string) => (options: InjectOptions) => t.request(key, options);
    callers = {
      everyScope: keyed(alice.key),
      ownOrganization: keyed(await t.key(alice.email, ['*'], { organizations: [alice.organizationId] })),
      ownProject: keyed(await t.key(alice.email, ['*'], { teams: [alice.projectId] })),
      readOnly: keyed(await t.key(alice.email, ['person:read', 'project:read'])),
      anonymous: (options) => t.app.inject(options),
    };
  }, 120_000);
  afterAll(() => t.close());

  it('no caller of A reaches, changes or reads B through the deletion and retention routes', { timeout: 300_000 }, async () => {
    const before = await bobState();
    expect(JSON.stringify(before)).toContain(MARKER);
    const prefix = fc.constantFrom('projects', 'environments');
    const project = fc.constantFrom(String(bob.projectId), String(alice.projectId), '@current', `0${bob.projectId}`);
    const bIds = fc.constantFrom(bobPerson, bobPerson.toUpperCase(), 'b-someone');
    const route = fc.oneof(
      fc.tuple(prefix, project).map(([p, id]) => ({ method: 'GET', url: `/api/${p}/${id}/event_retention/`, payload: undefined })),
      fc.tuple(project, fc.constantFrom(1, 1200, null, 0, -1, 1201, 1e12, '12', 1.5)).map(([id, months]) => ({ method: 'PATCH', url: `/api/projects/${id}/`, payload: { event_retention_months: months } })),
      fc.tuple(prefix, project, bIds, fc.constantFrom('', '?delete_events=true', '?keep_person=true')).map(([p, id, person, q]) => ({ method: 'DELETE', url: `/api/${p}/${id}/persons/${person}/${q}`, payload: undefined })),
      fc.tuple(prefix, project, fc.constantFrom('ids', 'distinct_ids'), bIds, fc.boolean()).map(([p, id, field, person, events]) => ({ method: 'POST', url: `/api/${p}/${id}/persons/bulk_delete/`, payload: { [field]: [person], delete_events: events } })),
      fc.tuple(prefix, project, bIds).map(([p, id, person]) => ({ method: 'POST', url: `/api/${p}/${id}/persons/${person}/delete_property/`, payload: { $unset: 'marker' } })),
      fc.tuple(prefix, project, bIds).map(([p, id, person]) => ({ method: 'GET', url: `/api/${p}/${id}/persons/${person}/activity/`, payload: undefined })),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(callers)), route, async (who, { method, url, payload }) => {
        const res = await callers[who]!({ method: method as 'GET', url, ...(payload === undefined ? {} : { payload }) });
        const context = `${who} ${method} ${url} ${JSON.stringify(payload)}: ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, context).toBeLessThan(500);
        expect(res.body, context).not.toContain(MARKER);
        if (url.includes(`/${bob.projectId}/`) || url.includes(`/0${bob.projectId}/`)) expect([400, 401, 403, 404], context).toContain(res.statusCode);
        if (who === 'anonymous') expect(res.statusCode, context).toBe(401);
        if (who === 'readOnly' && method !== 'GET') expect([400, 403], context).toContain(res.statusCode);
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(await bobState()).toEqual(before);
  });

  it('bulk_delete and retention values are bounded', async () => {
    const ids = Array.from({ length: 1001 }, (_, i) => `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`);
    const bulk = await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/persons/bulk_delete/`, payload: { ids } });
    expect(bulk.statusCode, bulk.body).toBe(400);
    for (const months of [0, -1, 1201, 1e12, 1.5, '12']) {
      const res = await t.request(alice.key, { method: 'PATCH', url: `/api/projects/${alice.projectId}/`, payload: { event_retention_months: months } });
      expect(res.statusCode, `${months}: ${res.body}`).toBe(400);
    }
  });

  it('/metrics answers loopback only, or the token; never a remote or relayed caller', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    for (const options of [
      { remoteAddress: '192.0.2.7' },
      { headers: { 'x-forwarded-for': '192.0.2.7' } },
      { headers: { forwarded: 'for=192.0.2.7' } },
      { remoteAddress: '192.0.2.7', headers: { authorization: `Bearer ${alice.key}` } },
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', ...options });
      expect(res.statusCode, JSON.stringify(options)).toBe(403);
    }
  });

  it('/_status/projects answers only the token the server wrote (owner-only), to no personal key', async () => {
    const dir = t.services.config.events.chdbPath;
    const token = readStatusToken(dir)!;
    expect(fs.statSync(path.join(dir, 'status.token')).mode & 0o077).toBe(0);
    for (const authorization of [undefined, 'Bearer ', `Bearer ${alice.key}`, `Bearer ${token.slice(0, -1)}`, `Bearer ${token}x`, token]) {
      const res = await t.app.inject({ method: 'GET', url: '/_status/projects', headers: authorization === undefined ? {} : { authorization } });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.body).not.toContain(token);
    }
    expect((await t.app.inject({ method: 'GET', url: '/_status/projects', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
  });

  it('/_backup/snapshot is not there for a remote or relayed caller, and a hostile staging name touches nothing', async () => {
    const staging = '.backup-0123456789abcdef';
    for (const options of [{ remoteAddress: '192.0.2.7' }, { headers: { 'x-forwarded-for': '192.0.2.7' } }, { headers: { forwarded: 'for=192.0.2.7' } }]) {
      const res = await t.app.inject({ method: 'POST', url: '/_backup/snapshot', payload: { staging }, ...options });
      expect(res.statusCode, JSON.stringify(options)).toBe(404);
    }
    const before = fs.readdirSync(t.dataDir).sort();
    const outside = fs.mkdtempSync(path.join(path.dirname(t.dataDir), 'hoglet-review32-outside-'));
    fs.symlinkSync(outside, path.join(t.dataDir, '.backup-fedcba9876543210'));
    const hostile = fc.oneof(
      fc.constantFrom('../x', '/tmp', outside, '.backup-fedcba9876543210', `.backup-0123456789abcdef/..`, `../${path.basename(outside)}`, '.backup-0123456789abcdeg', '.backup-0123456789abcdef\n', ''),
      fc.string({ maxLength: 40 }),
    );
    await fc.assert(
      fc.asyncProperty(hostile, async (name) => {
        const res = await t.app.inject({ method: 'POST', url: '/_backup/snapshot', payload: { staging: name } });
        expect(res.statusCode, `${JSON.stringify(name)}: ${res.body}`).toBe(400);
        expect(res.body).not.toContain(t.dataDir);
      }),
      { numRuns: 100 },
    );
    fs.unlinkSync(path.join(t.dataDir, '.backup-fedcba9876543210'));
    expect(fs.readdirSync(t.dataDir).sort()).toEqual(before);
    expect(fs.readdirSync(outside)).toEqual([]);
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
