// Dashboards under /api/projects/:project_id/dashboards/ (and the environments spelling): list
// (with ?search=), create, retrieve with tiles, update (soft delete included). DELETE is refused like insights'.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { DashboardInput } from '../../core/dashboards/service.js';
import { ValidationError } from '../../errors.js';
import { parseRefreshMode } from '../../query/cache/policy.js';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import { limitOffsetEnvelope, parseLimitOffset } from '../pagination.js';
import { errorResponses, Paginated } from '../schemas/common.js';
import { Dashboard, DashboardBasic, DashboardListQuery, DashboardWriteBody } from '../schemas/dashboard.js';

const CollectionParams = Type.Object({ project_id: Type.String() });
const ItemParams = Type.Object({ project_id: Type.String(), id: Type.String() });
const RetrieveQuery = Type.Object({
  refresh: Type.Optional(Type.String({ description: 'refresh mode for the tiles: force_cache (default), blocking, ...' })),
  filters_override: Type.Optional(Type.String({ description: 'JSON {date_from, date_to, properties}: the tiles seen through these filters, this answer only' })),
});

/** `?filters_override=` as the object it spells (400 when it is not JSON). */
function filtersOverrideOf(text: string | undefined): unknown {
  if (text === undefined || text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('Not valid JSON.', 'filters_override', 'parse_error');
  }
}

const projectOf = (request: FastifyRequest) => (request.params as { project_id: string }).project_id;
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

function mountDashboardRoutes(app: FastifyInstance, services: Services, prefix: string, tag: string) {
  const { dashboards } = services;
  const siteUrl = services.config.siteUrl;
  const collection = `${prefix}/:project_id/dashboards/`;
  const item = `${prefix}/:project_id/dashboards/:id/`;
  const tags = [tag];

  app.get(collection, {
    config: { scope: 'dashboard:read' },
    schema: { tags, params: CollectionParams, querystring: DashboardListQuery, response: { 200: Paginated(DashboardBasic), ...errorResponses } },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const search = (request.query as { search?: string }).search?.trim() || null;
      const { count, results } = await dashboards.list(principalOf(request), projectOf(request), search, page);
      return limitOffsetEnvelope(request, siteUrl, page, count, results);
    },
  });

  app.post(collection, {
    config: { scope: 'dashboard:write' },
    schema: { tags, params: CollectionParams, body: DashboardWriteBody, response: { 201: Dashboard, ...errorResponses } },
    handler: async (request, reply) =>
      reply.code(201).send(await dashboards.create(principalOf(request), projectOf(request), request.body as DashboardInput)),
  });

  app.get(item, {
    config: { scope: 'dashboard:read' },
    schema: { tags, params: ItemParams, querystring: RetrieveQuery, response: { 200: Dashboard, ...errorResponses } },
    handler: (request) => {
      const query = request.query as { refresh?: string; filters_override?: string };
      return dashboards.get(principalOf(request), projectOf(request), idOf(request), parseRefreshMode(query.refresh, 'force_cache'), filtersOverrideOf(query.filters_override));
    },
  });

  app.patch(item, {
    config: { scope: 'dashboard:write' },
    schema: { tags, params: ItemParams, body: DashboardWriteBody, response: { 200: Dashboard, ...errorResponses } },
    handler: (request) => dashboards.update(principalOf(request), projectOf(request), idOf(request), (request.body ?? {}) as DashboardInput),
  });

  // PostHog's ForbidDestroyModel: 405 with no body; PATCH {"deleted": true} instead.
  app.delete(item, {
    config: { scope: 'dashboard:write' },
    schema: { tags, params: ItemParams, response: { 405: Type.Null(), ...errorResponses } },
    handler: (request) => dashboards.refuseDelete(principalOf(request), projectOf(request), idOf(request)),
  });
}

export function dashboardRoutes(app: FastifyInstance, services: Services): void {
  mountDashboardRoutes(app, services, '/api/projects', 'dashboards');
  mountDashboardRoutes(app, services, '/api/environments', 'dashboards (environment paths)');
}
