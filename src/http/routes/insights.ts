// The Insights API under /api/projects/:project_id/insights/ and /api/environments/:project_id/
// insights/: the resource, its results under PostHog's refresh modes, views, activity and sharing.
// A sharing token (?sharing_access_token=) opens list and retrieve of its one insight without a key.
import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { parseInsightListParams } from '../../core/insights/list-params.js';
import { insightQueryOf } from '../../core/insights/query-of.js';
import { seriesCsv } from '../../core/insights/series-csv.js';
import type { InsightReader } from '../../core/insights/service.js';
import { ValidationError } from '../../errors.js';
import { parseRefreshMode, sharedRefreshMode } from '../../query/cache/policy.js';
import type { Services } from '../../services.js';
import { principalOf, sharingTokenOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { mountActivityRoutes } from './activity-routes.js';
import { schemaSerializer } from '../schema-serializer.js';
import { sendAppPage } from './web-app.js';
import { requestedFormat, sendCsv, sendFlattenedCsv, splitCsvSuffix } from '../csv/reply.js';
import { limitOffsetEnvelope, parseLimitOffset } from '../pagination.js';
import { AnyObject, ErrorBody, errorResponses, NoBody, Paginated } from '../schemas/common.js';
import {
  Insight, InsightBasic, InsightListItem, InsightListQuery, InsightRetrieveQuery, InsightWriteBody, SharingConfiguration, SharingWriteBody, ViewedBody,
} from '../schemas/insight.js';
import { Dashboard } from '../schemas/dashboard.js';

const CollectionParams = Type.Object({ project_id: Type.String() });
const ItemParams = Type.Object({ project_id: Type.String(), id: Type.String() });
const FormatQuery = Type.Object({ format: Type.Optional(Type.String()) });

/**
 * The insight answers are written by the schema serializer: exactly the fields their response
 * schema documents, with cached results spliced in as their stored JSON text.
 */
const serializerCompiler = schemaSerializer({ ErrorBody });

function fromDashboardOf(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null;
  if (!/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2 ** 31 - 1) {
    throw new ValidationError('A valid integer is required.', 'from_dashboard', 'invalid');
  }
  return Number(raw);
}

function mountInsightRoutes(app: HogletApp, services: Services, prefix: string, tag: string) {
  const { insights, sharing } = services;
  const siteUrl = services.config.siteUrl;
  const collection = `${prefix}/:project_id/insights/`;
  const item = `${prefix}/:project_id/insights/:id/`;
  const tags = [tag];

  /** A member through their key or session, or whoever holds the sharing token the request came with. */
  const readerOf = (request: FastifyRequest, projectId: string): Promise<InsightReader> => {
    const token = sharingTokenOf(request);
    return token !== null ? sharing.readerForToken(token, projectId) : insights.reader(principalOf(request), projectId);
  };
  const refreshOf = (request: FastifyRequest, refresh: string | undefined) => {
    const mode = parseRefreshMode(refresh, 'force_cache');
    return sharingTokenOf(request) !== null ? sharedRefreshMode(mode) : mode;
  };

  const list = async (request: FastifyRequest, projectId: string, query: Static<typeof InsightListQuery>) => {
    const reader = await readerOf(request, projectId);
    const page = parseLimitOffset(query);
    const params = parseInsightListParams(query, reader.userId);
    const basic = (query.basic ?? '').toLowerCase() === 'true';
    const { count, results } = await insights.list(reader, { ...params, basic, refresh: refreshOf(request, query.refresh) }, page);
    // The service types its rows as object[]; they are insightView or basicInsightView (see the schema).
    return limitOffsetEnvelope(request, siteUrl, page, count, results as Static<typeof InsightListItem>[]);
  };

  app.get(collection, {
    config: { scope: 'insight:read', sharingToken: true },
    schema: { tags, params: CollectionParams, querystring: InsightListQuery, response: { 200: Paginated(InsightListItem), ...errorResponses } },
    serializerCompiler,
    handler: async (request, reply) => {
      const format = requestedFormat(request.query.format);
      const body = await list(request, request.params.project_id, request.query);
      return format === 'csv' ? sendFlattenedCsv(reply, body) : body;
    },
  });

  app.get(`${prefix}/:project_id/insights.csv`, {
    config: { scope: 'insight:read', sharingToken: true },
    schema: { tags, params: CollectionParams, querystring: InsightListQuery },
    handler: async (request, reply) => sendFlattenedCsv(reply, await list(request, request.params.project_id, request.query)),
  });

  app.post(collection, {
    config: { scope: 'insight:write' },
    schema: { tags, params: CollectionParams, querystring: FormatQuery, body: InsightWriteBody, response: { 201: Insight, ...errorResponses } },
    serializerCompiler,
    handler: async (request, reply) => {
      const format = requestedFormat(request.query.format);
      const created = await insights.create(principalOf(request), request.params.project_id, request.body);
      return format === 'csv' ? sendFlattenedCsv(reply, created, 201) : reply.code(201).send(created);
    },
  });

  app.get(item, {
    config: { scope: 'insight:read', sharingToken: true },
    schema: { tags, params: ItemParams, querystring: InsightRetrieveQuery, response: { 200: Insight, ...errorResponses } },
    serializerCompiler,
    handler: async (request, reply) => {
      const { query } = request;
      const { id, csv } = splitCsvSuffix(request.params.id);
      const format = requestedFormat(query.format, csv);
      const reader = await readerOf(request, request.params.project_id);
      const options = { refresh: refreshOf(request, query.refresh), fromDashboard: fromDashboardOf(query.from_dashboard), clientQueryId: query.client_query_id };
      const insight = await insights.get(reader, id, options);
      return format === 'csv' ? sendFlattenedCsv(reply, insight) : insight;
    },
  });

  // Hoglet's addition: the insight's result as a spreadsheet, one row per series (or funnel step).
  app.get(`${item}results.csv`, {
    config: { scope: 'insight:read', sharingToken: true },
    schema: { tags, params: ItemParams, querystring: InsightRetrieveQuery },
    handler: async (request, reply) => {
      const { query } = request;
      const reader = await readerOf(request, request.params.project_id);
      const insight = await insights.get(reader, request.params.id, { refresh: refreshOf(request, query.refresh), fromDashboard: fromDashboardOf(query.from_dashboard) });
      return sendCsv(reply, seriesCsv(insight.result, insightQueryOf(insight.query, insight.filters), { title: insight.name || insight.derived_name || insight.short_id }));
    },
  });

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: item,
      config: { scope: 'insight:write' },
      schema: { tags, params: ItemParams, querystring: FormatQuery, body: InsightWriteBody, response: { 200: Insight, ...errorResponses } },
      serializerCompiler,
      handler: async (request, reply) => {
        const format = requestedFormat(request.query.format);
        const updated = await insights.update(principalOf(request), request.params.project_id, request.params.id, request.body);
        return format === 'csv' ? sendFlattenedCsv(reply, updated) : updated;
      },
    });
  }

  // PostHog never hard-deletes an insight: 405 with no body; PATCH {"deleted": true} instead.
  app.delete(item, {
    config: { scope: 'insight:write' },
    schema: { tags, params: ItemParams, response: { 405: NoBody(), ...errorResponses } },
    handler: (request) => insights.refuseDelete(principalOf(request), request.params.project_id, request.params.id),
  });

  mountActivityRoutes(app, siteUrl, { collection, item, tags }, (principal, project, id, page) => insights.activity(principal, project, id, page));

  // The spec's form answers 200; PostHog's bulk form 201. Both with no body.
  app.post(`${item}viewed/`, {
    config: { scope: 'insight:read' },
    schema: { tags, params: ItemParams, response: { 200: NoBody(), ...errorResponses } },
    handler: async (request, reply) => {
      await insights.viewedOne(principalOf(request), request.params.project_id, request.params.id);
      return reply.code(200).send();
    },
  });

  app.post(`${collection}viewed/`, {
    config: { scope: 'insight:read' },
    schema: { tags, params: CollectionParams, body: ViewedBody, response: { 201: NoBody(), ...errorResponses } },
    handler: async (request, reply) => {
      await insights.viewed(principalOf(request), request.params.project_id, request.body.insight_ids);
      return reply.code(201).send();
    },
  });

  app.get(`${collection}my_last_viewed/`, {
    config: { scope: 'insight:read' },
    schema: { tags, params: CollectionParams, querystring: FormatQuery, response: { 200: Type.Array(InsightBasic), ...errorResponses } },
    serializerCompiler,
    handler: async (request, reply) => {
      const format = requestedFormat(request.query.format);
      const recent = await insights.myLastViewed(principalOf(request), request.params.project_id);
      return format === 'csv' ? sendFlattenedCsv(reply, recent) : recent;
    },
  });

  // Client timing telemetry: accepted and dropped, as a self-hosted server has nowhere to send it.
  app.post(`${collection}timing/`, {
    config: { scope: 'insight:read' },
    schema: { tags, params: CollectionParams, response: { 201: AnyObject, ...errorResponses } },
    handler: async (request, reply) => {
      await insights.reader(principalOf(request), request.params.project_id);
      return reply.code(201).send({});
    },
  });

  app.get(`${item}sharing/`, {
    config: { scope: 'sharing_configuration:read' },
    schema: { tags, params: ItemParams, response: { 200: SharingConfiguration, ...errorResponses } },
    handler: (request) => sharing.get(principalOf(request), request.params.project_id, request.params.id),
  });

  app.patch(`${item}sharing/`, {
    config: { scope: 'sharing_configuration:write' },
    schema: { tags, params: ItemParams, body: SharingWriteBody, response: { 200: SharingConfiguration, ...errorResponses } },
    handler: (request) => sharing.update(principalOf(request), request.params.project_id, request.params.id, request.body),
  });

  app.post(`${item}sharing/refresh/`, {
    config: { scope: 'sharing_configuration:write' },
    schema: { tags, params: ItemParams, response: { 200: SharingConfiguration, ...errorResponses } },
    handler: (request) => sharing.refresh(principalOf(request), request.params.project_id, request.params.id),
  });
}

/** `/shared/<token>.json`: what the app's shared page draws, an insight, a dashboard or a session recording. */
const SharedInsight = Type.Object({
  type: Type.Literal('scene'), insight: Type.Optional(Insight), dashboard: Type.Optional(Dashboard), recording: Type.Optional(AnyObject),
});

export function insightRoutes(app: HogletApp, services: Services): void {
  mountInsightRoutes(app, services, '/api/projects', 'insights');
  mountInsightRoutes(app, services, '/api/environments', 'insights (environment paths)');

  // A shared insight or dashboard: `/shared/<token>` is the app's page drawing it, `/shared/<token>.json` the
  // JSON it draws from (and embeds use); no key, the token is the whole credential.
  app.get('/shared/:token', {
    schema: { tags: ['sharing'], params: Type.Object({ token: Type.String() }), response: { 200: SharedInsight, ...errorResponses } },
    serializerCompiler,
    handler: async (request, reply) => {
      const path = request.params.token;
      if (!path.endsWith('.json')) return sendAppPage(reply, { embeddable: true });
      const token = path.slice(0, -'.json'.length);
      // A recording's token: PostHog's SessionRecordingSerializer of that recording (404 once deleted).
      const recording = await services.recordingSharing.lookUp(token);
      if (recording) return { type: 'scene' as const, recording: await services.recordingSharing.sharedView(recording) };
      const reader = await services.sharing.readerForToken(token, null);
      const refresh = sharedRefreshMode('force_cache');
      if (reader.sharedDashboardId !== null) {
        return { type: 'scene' as const, dashboard: await services.dashboards.getShared(reader, String(reader.sharedDashboardId), refresh) };
      }
      const insight = await services.insights.get(reader, String(reader.sharedInsightIds![0]), { refresh, fromDashboard: null });
      return { type: 'scene' as const, insight };
    },
  });
}
