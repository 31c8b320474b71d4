// Signing in to the web app: a password set from the command line, a session cookie that every
// process sharing the metadata store honours, CSRF on every cookie write, throttled guessing,
// sign-out, and a session that opens exactly what its user's memberships open.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_LOGIN_LIMITS, LoginThrottle } from '../../src/core/auth/login-throttle.js';
import { SessionService } from '../../src/core/auth/sessions.js';
import { createAccountServices } from '../../src/services.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';

const PASSWORD = 'correct horse battery';

interface Browser {
  session: string;
  csrf: string;
}

/** The cookies a response set, by name, with their attributes. */
function cookiesOf(response: LightMyRequestResponse): Record<string, { value: string; httpOnly?: boolean; sameSite?: string; path?: string; maxAge?: number }> {
  return Object.fromEntries(response.cookies.map((c) => [c.name, c as never]));
}

describe.each(META_STORES)('web app sessions on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;

  const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/login/', payload: { email, password } });
  const signIn = async (email = alice.email): Promise<Browser> => {
    const response = await login(email, PASSWORD);
    expect(response.statusCode, response.body).toBe(200);
    const cookies = cookiesOf(response);
    return { session: cookies.sessionid!.value, csrf: cookies.csrftoken!.value };
  };
  const asBrowser = (browser: Browser, options: { method: 'GET' | 'POST' | 'PATCH'; url: string; payload?: object; headers?: Record<string, string> }) =>
    t.app.inject({ ...options, cookies: { sessionid: browser.session, csrftoken: browser.csrf } });

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    await t.services.accounts.setPassword(alice.email, PASSWORD);
    await t.services.accounts.setPassword(bob.email, PASSWORD);
  });
  afterAll(() => t.close());

  it('signs in with the right password only, setting an HttpOnly, SameSite=Lax session cookie', async () => {
    const wrong = await login(alice.email, 'not the password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ type: 'validation_error', code: 'invalid_credentials', detail: 'Invalid email or password.', attr: null });
    expect(wrong.cookies).toHaveLength(0);
    const unknown = await login('nobody@example.com', PASSWORD);
    expect(unknown.json().code).toBe('invalid_credentials');

    const right = await login('  Alice@Example.com ', PASSWORD);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({ success: true });
    const cookies = cookiesOf(right);
    expect(cookies.sessionid).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 14 * 24 * 3600 });
    expect(cookies.csrftoken?.httpOnly).toBeFalsy();
    // Only a hash of the secret is stored.
    const rows = await t.services.meta.db.selectFrom('user_sessions').select(['token_hash']).execute();
    expect(rows.map((r) => r.token_hash)).not.toContain(cookies.sessionid!.value);
  });

  it('a session is the user: who am I, their projects, and nobody else’s', async () => {
    const browser = await signIn();
    const me = await asBrowser(browser, { method: 'GET', url: '/api/users/@me/' });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ email: alice.email, team: { id: alice.projectId }, organization: { id: alice.organizationId } });
    expect((await asBrowser(browser, { method: 'GET', url: `/api/projects/${alice.projectId}/insights/` })).statusCode).toBe(200);
    expect((await asBrowser(browser, { method: 'GET', url: `/api/projects/${bob.projectId}/insights/` })).statusCode).toBe(404);
    expect((await asBrowser(browser, { method: 'GET', url: `/api/organizations/${bob.organizationId}/` })).statusCode).toBe(404);
    // A session is not a key.
    expect((await asBrowser(browser, { method: 'GET', url: '/api/personal_api_keys/@current/' })).statusCode).toBe(404);
  });

  it('every write with the cookie must echo the CSRF token and come from this site', async () => {
    const browser = await signIn();
    const create = (headers: Record<string, string>) =>
      asBrowser(browser, { method: 'POST', url: `/api/projects/${alice.projectId}/dashboards/`, payload: { name: 'From the app' }, headers });
    const missing = await create({});
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toMatchObject({ type: 'authentication_error', code: 'permission_denied', detail: expect.stringMatching(/^CSRF Failed/) });
    expect((await create({ 'x-csrftoken': 'x'.repeat(browser.csrf.length) })).statusCode).toBe(403);
    const otherSite = await create({ 'x-csrftoken': browser.csrf, origin: 'https://evil.example' });
    expect(otherSite.statusCode).toBe(403);
    expect(otherSite.json().detail).toBe('CSRF Failed: Origin checking failed.');
    // Nothing was written by the refused requests.
    const before = (await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/dashboards/` })).json().count;
    expect(before).toBe(0);
    const ok = await create({ 'x-csrftoken': browser.csrf, origin: 'http://localhost:80' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().created_by.email).toBe(alice.email);
    // Another session's token does not fit this one.
    const other = await signIn();
    expect((await create({ 'x-csrftoken': other.csrf })).statusCode).toBe(403);
  });

  it('a GET that writes (duplicate_as_static_cohort) needs the CSRF token with the cookie, not with a key', async () => {
    const cohorts = `/api/projects/${alice.projectId}/cohorts`;
    const made = await t.request(alice.key, { method: 'POST', url: `${cohorts}/`, payload: { name: 'Pro', filters: { properties: { type: 'AND', values: [{ type: 'person', key: 'plan', value: 'pro', operator: 'exact' }] } } } });
    expect(made.statusCode, made.body).toBe(201);
    const count = async () => (await t.request(alice.key, { method: 'GET', url: `${cohorts}/` })).json().count as number;
    const before = await count();
    const browser = await signIn();
    const url = `${cohorts}/${made.json().id}/duplicate_as_static_cohort/`;

    // What a cross-site <img src> or link would send: the cookie and no token.
    const forged = await asBrowser(browser, { method: 'GET', url });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ code: 'permission_denied', detail: 'CSRF Failed: CSRF token missing or incorrect.' });
    expect(await count()).toBe(before);

    const fromApp = await asBrowser(browser, { method: 'GET', url, headers: { 'x-csrftoken': browser.csrf } });
    expect(fromApp.statusCode, fromApp.body).toBe(200);
    expect(fromApp.json()).toMatchObject({ name: 'Pro (static copy)', is_static: true });
    const withKey = await t.request(alice.key, { method: 'GET', url });
    expect(withKey.statusCode, withKey.body).toBe(200);
    expect(await count()).toBe(before + 2);
  });

  it('signing out ends the session at once; an unknown cookie is refused', async () => {
    const browser = await signIn();
    const noToken = await asBrowser(browser, { method: 'POST', url: '/api/logout/' });
    expect(noToken.statusCode).toBe(403);
    const out = await asBrowser(browser, { method: 'POST', url: '/api/logout/', headers: { 'x-csrftoken': browser.csrf } });
    expect(out.statusCode).toBe(200);
    expect(cookiesOf(out).sessionid?.value).toBe('');
    const after = await asBrowser(browser, { method: 'GET', url: '/api/users/@me/' });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('authentication_failed');
    expect((await t.app.inject({ method: 'GET', url: '/api/users/@me/' })).json().code).toBe('not_authenticated');
  });

  it('every process sharing the metadata store knows the session; a new password signs it out everywhere', async () => {
    const browser = await signIn();
    const other = await createAccountServices(loadConfig({ dataDir: t.dataDir }, { ...(t.services.config.databaseUrl ? { DATABASE_URL: t.services.config.databaseUrl } : {}) }));
    try {
      const elsewhere = new SessionService(other.repositories, new LoginThrottle());
      expect(await elsewhere.authenticate(browser.session)).toMatchObject({ kind: 'session', userId: alice.userId });
      await other.accounts.setPassword(alice.email, PASSWORD);
      expect(await elsewhere.authenticate(browser.session)).toBeNull();
    } finally {
      await other.close();
    }
    expect((await asBrowser(browser, { method: 'GET', url: '/api/users/@me/' })).statusCode).toBe(401);
  });

  it('guessing is throttled: after 10 failures the right password is refused too, for that email only', async () => {
    for (let i = 0; i < 10; i++) expect((await login(bob.email, `guess ${i}`)).statusCode).toBe(400);
    const locked = await login(bob.email, PASSWORD);
    expect(locked.statusCode).toBe(403);
    expect(locked.json()).toMatchObject({ type: 'authentication_error', code: 'too_many_failed_attempts', detail: expect.stringMatching(/^Too many failed login attempts\. Please try again in 1[45] minutes\.$/) });
    // Alice, from the same address, is not locked out by Bob's guesses.
    expect((await login(alice.email, PASSWORD)).statusCode).toBe(200);
  });

  it('parallel guesses for one email: at most the limit are tried, and the right password after is locked out', async () => {
    const dave = await t.bootstrap('dave@example.com');
    await t.services.accounts.setPassword(dave.email, PASSWORD);
    // Its own address, so the other tests' failures from 127.0.0.1 do not count here.
    const remoteAddress = '203.0.113.7';
    const attempt = (password: string) => t.app.inject({ method: 'POST', url: '/api/login/', payload: { email: dave.email, password }, remoteAddress });
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => attempt(`guess ${i}`)));
    const tried = answers.filter((r) => r.statusCode === 400);
    const refused = answers.filter((r) => r.statusCode === 403);
    expect(tried.length).toBe(10);
    expect(refused.length).toBe(290);
    expect(refused[0]!.json().code).toBe('too_many_failed_attempts');
    const right = await attempt(PASSWORD);
    expect(right.statusCode).toBe(403);
    expect(right.json().code).toBe('too_many_failed_attempts');
  });

  it('a user without a password cannot sign in; bad bodies are 400s', async () => {
    await t.bootstrap('carol@example.com');
    expect((await login('carol@example.com', '')).statusCode).toBe(400);
    expect((await login('carol@example.com', 'anything at all')).json().code).toBe('invalid_credentials');
    const noBody = await t.app.inject({ method: 'POST', url: '/api/login/' });
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json().type).toBe('validation_error');
    const huge = await login(alice.email, 'x'.repeat(5000));
    expect(huge.statusCode).toBe(400);
  });
});

describe('sign-in throttling behind a reverse proxy (HOGLET_TRUST_PROXY)', () => {
  let t: TestApp;
  let erin: Credentials;

  // The proxy connects from 127.0.0.1 and names the client in X-Forwarded-For.
  const login = (client: string, email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/login/', payload: { email, password }, headers: { 'x-forwarded-for': client } });

  beforeAll(async () => {
    // A lower per-address limit than the default 100, so the test hashes 20 guesses, not 100.
    t = await createTestApp('sqlite', { HOGLET_TRUST_PROXY: 'loopback' }, { loginLimits: { ...DEFAULT_LOGIN_LIMITS, perAddress: 20 } });
    erin = await t.bootstrap('erin@example.com');
    await t.services.accounts.setPassword(erin.email, PASSWORD);
  });
  afterAll(() => t.close());

  it('failures from one client address do not lock the user signing in from another', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login('198.51.100.1', erin.email, `guess ${i}`)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([...Array(10).fill(400), 403, 403]);
    expect((await login('198.51.100.1', erin.email, PASSWORD)).statusCode).toBe(403);
    expect((await login('198.51.100.2', erin.email, PASSWORD)).statusCode).toBe(200);
  });

  it('an address’s limit of failures for made-up emails does not stop a real user at another', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login('198.51.100.3', `nobody${i}@example.com`, 'whatever')));
    expect(answers.every((r) => r.statusCode === 400)).toBe(true);
    // That address is now refused, whoever it names...
    expect((await login('198.51.100.3', erin.email, PASSWORD)).json().code).toBe('too_many_failed_attempts');
    // ...and everyone else signs in.
    expect((await login('198.51.100.4', erin.email, PASSWORD)).statusCode).toBe(200);
  });
});
