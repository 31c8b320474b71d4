// The Annotations API, under /api/projects/:project_id/annotations/ and, as PostHog also serves
// it, /api/environments/:project_id/annotations/. The project id may be `@current`.
import { Type } from 'typebox';
import { ANNOTATIONS_DEFAULT_LIMIT } from '../../core/annotations/service.js';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { limitOffsetEnvelope, parseLimitOffset } from '../pagination.js';
import { Annotation, AnnotationListQuery, AnnotationWriteBody } from '../schemas/annotation.js';
import { Paginated, errorResponses } from '../schemas/common.js';

const CollectionParams = Type.Object({ project_id: Type.String() });
const ItemParams = Type.Object({ project_id: Type.String(), id: Type.String() });

function mountAnnotationRoutes(app: HogletApp, services: Services, prefix: string, tag: string) {
  const { annotations } = services;
  const siteUrl = services.config.siteUrl;
  const collection = `${prefix}/:project_id/annotations/`;
  const item = `${prefix}/:project_id/annotations/:id/`;
  const tags = [tag];

  app.get(collection, {
    config: { scope: 'annotation:read' },
    schema: { tags, params: CollectionParams, querystring: AnnotationListQuery, response: { 200: Paginated(Annotation), ...errorResponses } },
    handler: async (request) => {
      const page = parseLimitOffset(request.query, ANNOTATIONS_DEFAULT_LIMIT);
      const { count, results } = await annotations.list(principalOf(request), request.params.project_id, request.query, page);
      return limitOffsetEnvelope(request, siteUrl, page, count, results);
    },
  });

  app.post(collection, {
    config: { scope: 'annotation:write' },
    schema: { tags, params: CollectionParams, body: AnnotationWriteBody, response: { 201: Annotation, ...errorResponses } },
    handler: async (request, reply) => {
      const created = await annotations.create(principalOf(request), request.params.project_id, request.body as Record<string, unknown>);
      return reply.code(201).send(created);
    },
  });

  app.get(item, {
    config: { scope: 'annotation:read' },
    schema: { tags, params: ItemParams, response: { 200: Annotation, ...errorResponses } },
    handler: (request) => annotations.get(principalOf(request), request.params.project_id, request.params.id),
  });

  app.patch(item, {
    config: { scope: 'annotation:write' },
    schema: { tags, params: ItemParams, body: AnnotationWriteBody, response: { 200: Annotation, ...errorResponses } },
    handler: (request) =>
      annotations.update(principalOf(request), request.params.project_id, request.params.id, request.body as Record<string, unknown>),
  });

  // PostHog keeps annotations (ForbidDestroyModel): DELETE is 405; PATCH {"deleted": true} instead.
  app.delete(item, {
    config: { scope: 'annotation:write' },
    schema: { tags, params: ItemParams, response: errorResponses },
    handler: (request) => annotations.refuseDelete(principalOf(request), request.params.project_id),
  });
}

export function annotationRoutes(app: HogletApp, services: Services): void {
  mountAnnotationRoutes(app, services, '/api/projects', 'annotations');
  mountAnnotationRoutes(app, services, '/api/environments', 'annotations (environment paths)');
}
