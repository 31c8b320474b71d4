// Dashboards under /api/projects/:project_id/dashboards/ (and the environments spelling): list
// (with ?search=), create, retrieve with tiles, update (soft delete included), sharing by link
// (the insights' sharing configurations; a dashboard's token opens its retrieve, read-only). DELETE
// is refused like insights'.
import { Type } from 'typebox';
import { ValidationError } from '../../errors.js';
import { parseRefreshMode, sharedRefreshMode } from '../../query/cache/policy.js';
import type { Services } from '../../services.js';
import { principalOf, sharingTokenOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { limitOffsetEnvelope, parseLimitOffset } from '../pagination.js';
import { errorResponses, NoBody, Paginated } from '../schemas/common.js';
import { Dashboard, DashboardBasic, DashboardListQuery, DashboardWriteBody } from '../schemas/dashboard.js';
import { SharingConfiguration, SharingWriteBody } from '../schemas/insight.js';

const CollectionParams = Type.Object({ project_id: Type.String() });
const ItemParams = Type.Object({ project_id: Type.String(), id: Type.String() });
const RetrieveQuery = Type.Object({
  refresh: Type.Optional(Type.String({ description: 'refresh mode for the tiles: force_cache (default), blocking, ...' })),
  filters_override: Type.Optional(Type.String({ description: 'JSON {date_from, date_to, properties}: the tiles seen through these filters, this answer only' })),
  sharing_access_token: Type.Optional(Type.String({ description: "read a shared dashboard without a key (its stored filters only)" })),
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

function mountDashboardRoutes(app: HogletApp, services: Services, prefix: string, tag: string) {
  const { dashboards, sharing } = services;
  const siteUrl = services.config.siteUrl;
  const collection = `${prefix}/:project_id/dashboards/`;
  const item = `${prefix}/:project_id/dashboards/:id/`;
  const tags = [tag];

  app.get(collection, {
    config: { scope: 'dashboard:read' },
    schema: { tags, params: CollectionParams, querystring: DashboardListQuery, response: { 200: Paginated(DashboardBasic), ...errorResponses } },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const search = request.query.search?.trim() || null;
      const { count, results } = await dashboards.list(principalOf(request), request.params.project_id, search, page);
      return limitOffsetEnvelope(request, siteUrl, page, count, results);
    },
  });

  app.post(collection, {
    config: { scope: 'dashboard:write' },
    schema: { tags, params: CollectionParams, body: DashboardWriteBody, response: { 201: Dashboard, ...errorResponses } },
    handler: async (request, reply) =>
      reply.code(201).send(await dashboards.create(principalOf(request), request.params.project_id, request.body)),
  });

  app.get(item, {
    config: { scope: 'dashboard:read', sharingToken: true },
    schema: { tags, params: ItemParams, querystring: RetrieveQuery, response: { 200: Dashboard, ...errorResponses } },
    handler: async (request) => {
      const { query } = request;
      const token = sharingTokenOf(request);
      if (token !== null) {
        const reader = await sharing.readerForToken(token, request.params.project_id);
        return dashboards.getShared(reader, request.params.id, sharedRefreshMode(parseRefreshMode(query.refresh, 'force_cache')));
      }
      return dashboards.get(principalOf(request), request.params.project_id, request.params.id, parseRefreshMode(query.refresh, 'force_cache'), filtersOverrideOf(query.filters_override));
    },
  });

  app.patch(item, {
    config: { scope: 'dashboard:write' },
    schema: { tags, params: ItemParams, body: DashboardWriteBody, response: { 200: Dashboard, ...errorResponses } },
    handler: (request) => dashboards.update(principalOf(request), request.params.project_id, request.params.id, request.body),
  });

  app.get(`${item}sharing/`, {
    config: { scope: 'sharing_configuration:read' },
    schema: { tags, params: ItemParams, response: { 200: SharingConfiguration, ...errorResponses } },
    handler: (request) => sharing.getDashboard(principalOf(request), request.params.project_id, request.params.id),
  });

  app.patch(`${item}sharing/`, {
    config: { scope: 'sharing_configuration:write' },
    schema: { tags, params: ItemParams, body: SharingWriteBody, response: { 200: SharingConfiguration, ...errorResponses } },
    handler: (request) => sharing.updateDashboard(principalOf(request), request.params.project_id, request.params.id, request.body),
  });

  app.post(`${item}sharing/refresh/`, {
    config: { scope: 'sharing_configuration:write' },
    schema: { tags, params: ItemParams, response: { 200: SharingConfiguration, ...errorResponses } },
    handler: (request) => sharing.refreshDashboard(principalOf(request), request.params.project_id, request.params.id),
  });

  // PostHog's ForbidDestroyModel: 405 with no body; PATCH {"deleted": true} instead.
  app.delete(item, {
    config: { scope: 'dashboard:write' },
    schema: { tags, params: ItemParams, response: { 405: NoBody(), ...errorResponses } },
    handler: (request) => dashboards.refuseDelete(principalOf(request), request.params.project_id, request.params.id),
  });
}

export function dashboardRoutes(app: HogletApp, services: Services): void {
  mountDashboardRoutes(app, services, '/api/projects', 'dashboards');
  mountDashboardRoutes(app, services, '/api/environments', 'dashboards (environment paths)');
}
