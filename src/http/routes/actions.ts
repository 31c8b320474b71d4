// The Actions API, mounted under /api/projects/:project_id/actions/ and, as PostHog also serves
// it, /api/environments/:project_id/actions/. The project id may be `@current`.
import { Type } from 'typebox';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { limitOffsetEnvelope, parseLimitOffset } from '../pagination.js';
import { Action, ActionWriteBody } from '../schemas/action.js';
import { LimitOffsetQuery, Paginated, errorResponses } from '../schemas/common.js';

const CollectionParams = Type.Object({ project_id: Type.String() });
const ItemParams = Type.Object({ project_id: Type.String(), id: Type.String() });

function mountActionRoutes(app: HogletApp, services: Services, prefix: string, tag: string) {
  const { actions } = services;
  const siteUrl = services.config.siteUrl;
  const collection = `${prefix}/:project_id/actions/`;
  const item = `${prefix}/:project_id/actions/:id/`;
  const tags = [tag];

  app.get(collection, {
    config: { scope: 'action:read' },
    schema: { tags, params: CollectionParams, querystring: LimitOffsetQuery, response: { 200: Paginated(Action), ...errorResponses } },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const { count, results } = await actions.list(principalOf(request), request.params.project_id, page);
      return limitOffsetEnvelope(request, siteUrl, page, count, results);
    },
  });

  app.post(collection, {
    config: { scope: 'action:write' },
    schema: { tags, params: CollectionParams, body: ActionWriteBody, response: { 201: Action, ...errorResponses } },
    handler: async (request, reply) => {
      const created = await actions.create(principalOf(request), request.params.project_id, request.body);
      return reply.code(201).send(created);
    },
  });

  app.get(item, {
    config: { scope: 'action:read' },
    schema: { tags, params: ItemParams, response: { 200: Action, ...errorResponses } },
    handler: (request) => actions.get(principalOf(request), request.params.project_id, request.params.id),
  });

  app.patch(item, {
    config: { scope: 'action:write' },
    schema: { tags, params: ItemParams, body: ActionWriteBody, response: { 200: Action, ...errorResponses } },
    handler: (request) =>
      actions.update(principalOf(request), request.params.project_id, request.params.id, request.body),
  });

  // PostHog keeps actions (insights may refer to them): DELETE is 405; PATCH {"deleted": true} instead.
  app.delete(item, {
    config: { scope: 'action:write' },
    schema: { tags, params: ItemParams, response: errorResponses },
    handler: (request) => actions.refuseDelete(principalOf(request), request.params.project_id),
  });
}

export function actionRoutes(app: HogletApp, services: Services): void {
  mountActionRoutes(app, services, '/api/projects', 'actions');
  mountActionRoutes(app, services, '/api/environments', 'actions (environment paths)');
}
