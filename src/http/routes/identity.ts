// Who-am-I endpoints that PostHog's clients call before anything else.
import { Type } from 'typebox';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { limitOffsetEnvelope, parseLimitOffset } from '../pagination.js';
import { LimitOffsetQuery, Paginated, errorResponses } from '../schemas/common.js';
import { CurrentKey, Me, Organization } from '../schemas/identity.js';

export function identityRoutes(app: HogletApp, services: Services): void {
  const { identity } = services;

  app.get('/api/users/@me/', {
    config: { scope: 'user:read' },
    schema: { tags: ['identity'], response: { 200: Me, ...errorResponses } },
    handler: (request) => identity.me(principalOf(request)),
  });

  app.get('/api/organizations/', {
    config: { scope: 'organization:read' },
    schema: { tags: ['identity'], querystring: LimitOffsetQuery, response: { 200: Paginated(Organization), ...errorResponses } },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const { count, results } = await identity.listOrganizations(principalOf(request), page);
      return limitOffsetEnvelope(request, services.config.siteUrl, page, count, results);
    },
  });

  app.get('/api/organizations/:organization_id/', {
    config: { scope: 'organization:read' },
    schema: {
      tags: ['identity'],
      params: Type.Object({ organization_id: Type.String() }),
      response: { 200: Organization, ...errorResponses },
    },
    handler: (request) => identity.organization(principalOf(request), request.params.organization_id),
  });

  app.get('/api/personal_api_keys/@current/', {
    config: { scope: 'authenticated' },
    schema: { tags: ['identity'], response: { 200: CurrentKey, ...errorResponses } },
    handler: (request) => identity.currentKey(principalOf(request)),
  });
}
