// Authenticates personal API keys and enforces each route's scope. A route opts in by declaring
// `config: { scope: 'project:read' }`; routes without a scope (health, schema) are public.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AuthenticationFailedError, NotAuthenticatedError, PermissionDeniedError } from '../errors.js';
import type { KeyAuthenticator } from '../core/auth/authenticator.js';
import type { Principal } from '../core/auth/principal.js';
import { grantsScope, type RequiredScope } from '../core/scopes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a key needs; 'authenticated' admits any valid key. */
    scope?: RequiredScope | 'authenticated';
    /** A GET that a sharing token (`?sharing_access_token=`) may open instead of a key. */
    sharingToken?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** The sharing token the request was let in with, on routes that accept one. */
    sharingToken: string | null;
  }
}

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

/** The authenticated principal of a route that declared a scope. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new NotAuthenticatedError();
  return request.principal;
}

export function installAuth(app: FastifyInstance, authenticator: KeyAuthenticator): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('sharingToken', null);
  // preValidation: the body is parsed (it may carry the key) but not yet validated, so an
  // unauthenticated caller learns nothing from validation errors.
  app.addHook('preValidation', async (request) => {
    const scope = request.routeOptions.config.scope;
    if (!scope) return;
    if (request.routeOptions.config.sharingToken && request.method === 'GET') {
      const token = (request.query as Record<string, unknown> | undefined)?.sharing_access_token;
      // The token is checked by the handler, which alone knows what it opens.
      if (typeof token === 'string' && token !== '') {
        request.sharingToken = token;
        return;
      }
    }
    const presented = presentedKey(request);
    if (!presented) throw new NotAuthenticatedError();
    const principal = await authenticator.authenticate(presented.key);
    if (!principal) throw new AuthenticationFailedError(`Personal API key found in request ${presented.source} is invalid.`);
    if (scope !== 'authenticated' && !grantsScope(principal.scopes, scope)) {
      throw new PermissionDeniedError(`API key missing required scope '${scope}'`);
    }
    request.principal = principal;
  });
}
