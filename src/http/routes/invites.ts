// Organization invites (PostHog's OrganizationInviteViewSet) and the signup that accepts one
// (PostHog's /api/signup/<invite id>/: GET checks it, POST makes the account and signs it in).
import { Type } from 'typebox';
import { peopleServices } from '../../core/people/index.js';
import type { Services } from '../../services.js';
import type { FastifyRequest } from 'fastify';
import { csrfMatches } from '../../core/auth/sessions.js';
import { PermissionDeniedError } from '../../errors.js';
import { principalOf, SESSION_COOKIE, setSessionCookies } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { limitOffsetEnvelope, parseLimitOffset } from '../pagination.js';
import { LimitOffsetQuery, NoBody, Paginated, errorResponses } from '../schemas/common.js';
import { UserBasic } from '../schemas/identity.js';
import { Invite, InviteBody, SignupBody, SignupPreview } from '../schemas/people.js';

const OrgParams = Type.Object({ organization_id: Type.String() });
const InviteParams = Type.Object({ organization_id: Type.String(), id: Type.String() });
const SignupParams = Type.Object({ invite_id: Type.String() });
const SignedUp = Type.Object({ ...UserBasic.properties, role_at_organization: Type.Union([Type.String(), Type.Null()]), redirect_url: Type.String() });

/** A write's Origin, when the browser sends one, names this server (a default port written out or not). */
function sameHost(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const from = new URL(origin);
    return from.host === new URL(`${from.protocol}//${host ?? ''}`).host;
  } catch {
    return false;
  }
}

/**
 * The browser session this public route was called with, if any. A session's write must echo its
 * CSRF token and come from this site, as on every other route.
 */
async function sessionOf(request: FastifyRequest, services: Services) {
  const secret = request.cookies[SESSION_COOKIE];
  const principal = secret ? await services.sessions.authenticate(secret) : null;
  if (!principal) return null;
  if (!sameHost(request.headers.origin, request.headers.host)) throw new PermissionDeniedError('CSRF Failed: Origin checking failed.');
  const presented = request.headers['x-csrftoken'];
  if (!csrfMatches(typeof presented === 'string' ? presented : undefined, principal)) {
    throw new PermissionDeniedError('CSRF Failed: CSRF token missing or incorrect.');
  }
  return principal;
}

export function inviteRoutes(app: HogletApp, services: Services): void {
  const { invites } = peopleServices(services);
  const tags = ['invites'];
  const collection = '/api/organizations/:organization_id/invites/';

  app.get(collection, {
    config: { scope: 'organization_member:read' },
    schema: { tags, params: OrgParams, querystring: LimitOffsetQuery, response: { 200: Paginated(Invite), ...errorResponses } },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const all = await invites.list(principalOf(request), request.params.organization_id);
      return limitOffsetEnvelope(request, services.config.siteUrl, page, all.length, all.slice(page.offset, page.offset + page.limit));
    },
  });

  app.post(collection, {
    config: { scope: 'organization_member:write' },
    schema: { tags, summary: 'Invite someone by email (no email is sent: share the link /signup/<id>)', params: OrgParams, body: InviteBody, response: { 201: Invite, ...errorResponses } },
    handler: async (request, reply) => reply.code(201).send(await invites.create(principalOf(request), request.params.organization_id, request.body)),
  });

  app.post(`${collection}bulk/`, {
    config: { scope: 'organization_member:write' },
    schema: { tags, summary: 'Up to 20 invites at once, all or none', params: OrgParams, body: Type.Unknown(), response: { 201: Type.Array(Invite), ...errorResponses } },
    handler: async (request, reply) => reply.code(201).send(await invites.createMany(principalOf(request), request.params.organization_id, request.body)),
  });

  app.delete(`${collection}:id/`, {
    config: { scope: 'organization_member:write' },
    schema: { tags, params: InviteParams, response: { 204: NoBody(), ...errorResponses } },
    handler: async (request, reply) => {
      await invites.delete(principalOf(request), request.params.organization_id, request.params.id);
      return reply.code(204).send();
    },
  });

  app.get('/api/signup/:invite_id/', {
    schema: { tags: ['web app'], summary: 'Check an invite before signing up with it', params: SignupParams, response: { 200: SignupPreview, ...errorResponses } },
    handler: (request) => invites.preview(request.params.invite_id),
  });

  app.post('/api/signup/:invite_id/', {
    schema: { tags: ['web app'], summary: "Accept an invite: the invitee's name and password; signs them in", params: SignupParams, body: SignupBody, response: { 201: SignedUp, ...errorResponses } },
    handler: async (request, reply) => {
      // Signed in already: that user joins (PostHog's InviteSignupSerializer does the same).
      const signedIn = await sessionOf(request, services);
      if (signedIn) {
        return reply.code(201).send({ ...(await invites.acceptAsUser(request.params.invite_id, signedIn.userId)), redirect_url: '/' });
      }
      const { user, session } = await invites.accept(request.params.invite_id, request.body);
      setSessionCookies(request, reply, session, services.config.siteUrl);
      return reply.code(201).send({ ...user, redirect_url: '/' });
    },
  });
}
