// Who a request is let in as, and what it may do. A route opts in by declaring
// `config: { scope: 'project:read' }`; routes without a scope (health, schema, sign-in) are public.
// A caller is a personal API key (its scopes are checked here), a signed-in browser session (the
// user's memberships, no scopes; every write must echo the session's CSRF token and come from this
// site), or, on routes that allow it, a sharing token (checked by the handler) or a project's
// secret key (`Authorization: Bearer phs_...`, the local-evaluation routes only).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthenticationFailedError, NotAuthenticatedError, PermissionDeniedError } from '../errors.js';
import type { KeyAuthenticator } from '../core/auth/authenticator.js';
import type { Caller, Principal, ProjectSecretAccess, SessionPrincipal } from '../core/auth/principal.js';
import { SECRET_KEY_PREFIX, type ProjectSecretTokens } from '../core/projects/secret-tokens.js';
import { csrfMatches, SESSION_LIFETIME_MS, type NewSession, type SessionService } from '../core/auth/sessions.js';
import { grantsScope, type RequiredScope } from '../core/scopes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a key needs; 'authenticated' admits any valid key or session. */
    scope?: RequiredScope | 'authenticated';
    /** A GET that a sharing token (`?sharing_access_token=`) may open instead of a key. */
    sharingToken?: boolean;
    /**
     * The route writes whatever its method (a GET that writes, kept for PostHog's clients): a
     * session must pass the same CSRF and Origin checks as on a POST. Keys are unaffected.
     */
    writes?: boolean;
    /** A project's secret key (`phs_`) may read this route (its project only: the handler checks). */
    secretKey?: boolean;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** The session cookie (HttpOnly) and the CSRF token the app reads to echo in `X-CSRFToken`. */
export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

type KeySource = 'Authorization header' | 'body' | 'query string';

/** PostHog's order: the header, then the body, then the query string; the first one found is used. */
function presentedKey(request: FastifyRequest): { key: string; source: KeySource } | null {
  const bearer = /^Bearer\s+(\S.+)$/.exec(request.headers.authorization ?? '');
  if (bearer) {
    const key = bearer[1]!.trim();
    // pha_ tokens are OAuth access tokens, which are not personal API keys.
    if (!key.startsWith('pha_')) return { key, source: 'Authorization header' };
  }
  const body = request.body as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && typeof body.personal_api_key === 'string' && body.personal_api_key !== '') {
    return { key: body.personal_api_key, source: 'body' };
  }
  const query = request.query as Record<string, unknown> | undefined;
  if (query && typeof query.personal_api_key === 'string' && query.personal_api_key !== '') {
    return { key: query.personal_api_key, source: 'query string' };
  }
  return null;
}

/** The user behind a route that declared a scope (never a sharing token). */
export function principalOf(request: FastifyRequest): Principal {
  const caller = request.caller;
  if (!caller || caller.kind === 'sharing' || caller.kind === 'project_secret') throw new NotAuthenticatedError();
  return caller;
}

/** The user, or the project whose secret key was presented, on routes that accept one. */
export function flagReaderOf(request: FastifyRequest): Principal | ProjectSecretAccess {
  const caller = request.caller;
  return caller?.kind === 'project_secret' ? caller : principalOf(request);
}

/** The sharing token the request was let in with, on routes that accept one. */
export function sharingTokenOf(request: FastifyRequest): string | null {
  return request.caller?.kind === 'sharing' ? request.caller.token : null;
}

/** A write from another site carries its Origin; the app's own writes carry this one. */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    const from = new URL(origin);
    // Parsed the same way, so a default port written out (`:80`) compares equal to none.
    return from.host === new URL(`${from.protocol}//${request.headers.host ?? ''}`).host;
  } catch {
    return false;
  }
}

/** A session's writes must come from this site and echo its CSRF token. */
function checkSessionWrite(request: FastifyRequest, principal: SessionPrincipal): void {
  if (SAFE_METHODS.has(request.method) && !request.routeOptions.config.writes) return;
  if (!sameOrigin(request)) throw new PermissionDeniedError('CSRF Failed: Origin checking failed.');
  const presented = request.headers['x-csrftoken'];
  if (!csrfMatches(typeof presented === 'string' ? presented : undefined, principal)) {
    throw new PermissionDeniedError('CSRF Failed: CSRF token missing or incorrect.');
  }
}

/** A secret key where the route takes one: its project (401 for a key no project has). */
async function secretKeyCaller(request: FastifyRequest, key: string, secretTokens: ProjectSecretTokens): Promise<ProjectSecretAccess> {
  // Elsewhere a secret key is no key at all: the same 401 as an unknown personal key.
  if (!request.routeOptions.config.secretKey) throw new AuthenticationFailedError('Personal API key found in request Authorization header is invalid.');
  const projectId = await secretTokens.projectOf(key);
  if (projectId === null) throw new AuthenticationFailedError('Secret API token is invalid.');
  return { kind: 'project_secret', projectId };
}

export function installAuth(app: FastifyInstance, authenticator: KeyAuthenticator, sessions: SessionService, secretTokens: ProjectSecretTokens): void {
  app.decorateRequest('caller', null);
  // preValidation: the body is parsed (it may carry the key) but not yet validated, so an
  // unauthenticated caller learns nothing from validation errors.
  app.addHook('preValidation', async (request) => {
    const scope = request.routeOptions.config.scope;
    if (!scope) return;
    if (request.routeOptions.config.sharingToken && request.method === 'GET') {
      const token = (request.query as Record<string, unknown> | undefined)?.sharing_access_token;
      // The token is checked by the handler, which alone knows what it opens.
      if (typeof token === 'string' && token !== '') {
        request.caller = { kind: 'sharing', token };
        return;
      }
    }
    const presented = presentedKey(request);
    if (presented?.source === 'Authorization header' && presented.key.startsWith(SECRET_KEY_PREFIX)) {
      request.caller = await secretKeyCaller(request, presented.key, secretTokens);
      return;
    }
    if (presented) {
      const principal = await authenticator.authenticate(presented.key);
      if (!principal) throw new AuthenticationFailedError(`Personal API key found in request ${presented.source} is invalid.`);
      if (scope !== 'authenticated' && !grantsScope(principal.scopes, scope)) {
        throw new PermissionDeniedError(`API key missing required scope '${scope}'`);
      }
      request.caller = principal;
      return;
    }
    const secret = request.cookies[SESSION_COOKIE];
    if (!secret) throw new NotAuthenticatedError();
    const principal = await sessions.authenticate(secret);
    if (!principal) throw new AuthenticationFailedError('Your session has expired. Sign in again.');
    checkSessionWrite(request, principal);
    request.caller = principal;
  });
}

const secureCookies = (request: FastifyRequest, siteUrl: string | null) => request.protocol === 'https' || (siteUrl ?? '').startsWith('https:');

/** Hands the browser its new session: the secret HttpOnly, the CSRF token readable by the app. */
export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, session: NewSession, siteUrl: string | null): void {
  const common = { path: '/', sameSite: 'lax' as const, secure: secureCookies(request, siteUrl), maxAge: SESSION_LIFETIME_MS / 1000 };
  void reply.setCookie(SESSION_COOKIE, session.secret, { ...common, httpOnly: true });
  void reply.setCookie(CSRF_COOKIE, session.csrfToken, { ...common, httpOnly: false });
}

export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply, siteUrl: string | null): void {
  const common = { path: '/', sameSite: 'lax' as const, secure: secureCookies(request, siteUrl) };
  void reply.clearCookie(SESSION_COOKIE, { ...common, httpOnly: true });
  void reply.clearCookie(CSRF_COOKIE, common);
}
