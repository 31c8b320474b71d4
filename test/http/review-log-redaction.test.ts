// Review (issue 31): key values are never logged. PostHog's clients may send a personal API key in
// the query string (?personal_api_key=), and a shared insight's link carries its token; Fastify
// logs every request's URL at the default level (info), so the server's logger must hide them.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { serverLoggerOptions } from '../../src/http/log-redaction.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';

describe('the request log', () => {
  let t: TestApp;
  let who: Credentials;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    who = await t.bootstrap('logged@example.com');
  });
  afterAll(() => t.close());

  it("holds no personal API key or sharing token from a URL, and keeps the rest of the URL", async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _encoding, done) => { lines.push(String(chunk)); done(); } });
    const app = await buildApp(t.services, { logger: { ...serverLoggerOptions('info'), stream } });
    await app.ready();
    try {
      const ok = await app.inject({ method: 'GET', url: `/api/projects/${who.projectId}/?personal_api_key=${who.key}&x=1` });
      expect(ok.statusCode, ok.body).toBe(200);
      await app.inject({ method: 'GET', url: `/api/projects/${who.projectId}/insights/?sharing_access_token=shh-secret-token&PERSONAL_API_KEY=${who.key}` });
      await app.inject({ method: 'GET', url: `/api/projects/${who.projectId}/?personal_api_key=phx_unknownsecretvalue` });
    } finally {
      await app.close();
    }
    const log = lines.join('');
    expect(log).toContain(`/api/projects/${who.projectId}/?personal_api_key=[redacted]&x=1`);
    for (const secret of [who.key, 'shh-secret-token', 'phx_unknownsecretvalue']) expect(log).not.toContain(secret);
  });
});
